"""Lint round 15 (issue 31), tuned on the held-out sets measured before
(tests/lint_users/heldout-2026-11-27b..28n): Summit jobs none of whose steps can reach a GPU."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text


def _findings(text: str, site: str, rule: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.severity, f.message) for f in
            lint(parse_text(text), load_profile(site).profile) if f.rule == rule]


# ------------------------------------------------ a Summit job whose steps ask for no GPU
# heldout-2026-11-27m's fairseq-preprocess and -28n's AccelWattch simulator and quip
# preprocessing: every jsrun without -g (default 0; a resource set is a cgroup of what it asks
# for, summit_user_guide.rst L1461, L1336-1340), so the nodes' GPUs are idle and charged.
SUMMIT = ("#!/bin/bash\n#BSUB -P ABC123\n#BSUB -W 1:00\n#BSUB -nnodes 3\n#BSUB -J prep\n"
          "cd \"$MEMBERWORK/abc123\" || exit 1\n")


def test_jsrun_steps_without_gpus_leave_every_gpu_of_the_job_idle():
    step = "jsrun -n 3 -r 1 -c 42 -b packed:42 fairseq-preprocess --workers 42"
    found = _findings(SUMMIT + step + "\n", "summit", "GPU008")
    assert [(line, sev) for line, sev, _ in found] == [(7, "warning")]
    assert "the 18 GPUs of its 3 node(s) stay idle" in found[0][2]


@pytest.mark.parametrize("step", [
    "jsrun -n3 -r1 -c42 -g0 -bpacked:42 ./sim input.cfg",
    "jsrun --nrs 3 --rs_per_host 1 --cpu_per_rs 42 --gpu_per_rs 0 ./sim",
])
def test_steps_that_say_g0_are_a_cpu_only_job_on_purpose_told_as_a_note(step):
    # (tests/lint_review's clean summit_c03: the Summit guide documents CPU-only layouts)
    found = _findings(SUMMIT + step + "\n", "summit", "GPU008")
    assert [(line, sev) for line, sev, _ in found] == [(7, "info")]
    assert "CPU-only job" in found[0][2] and "18 GPUs" in found[0][2]
    # one step without -g among them: a warning again (a GPU program there sees none)
    found = _findings(SUMMIT + step + "\njsrun -n 3 -r 1 ./post\n", "summit", "GPU008")
    assert [sev for _, sev, _ in found] == ["warning"]


# ------------------------------------------- a loop that builds a value, run as bash runs it
# heldout-2026-11-27b's zerosum jobs build their CPU list in two `for i in {1..6}` loops
# (`mylist="${mylist}:${first}-${last}"; let first=${first}+${nthreads}`); lint read the loop
# once and left the list unknown, so the ranks across sockets and far from their tiles went
# untold.
def test_a_loop_of_assignments_is_run_once_per_value():
    from jobgen.review.scriptparse import parse_text
    text = ("#!/bin/bash\nlist=\"\"\nlet first=2\nlet n=16\nhalf=3\n"
            "for i in $(seq 1 $half) ; do\n  list=\"${list}:${first}-$((first + n - 1))\"\n"
            "  let first=${first}+${n}\ndone\necho $list\n")
    script = parse_text(text)
    assert script.variables["list"] == ":2-17:18-33:34-49"
    assert script.variables["first"] == "50"
    # a body that runs anything else is not run by lint: the value stays unknown
    other = text.replace("  let first", "  ./probe $i\n  let first")
    assert "list" not in parse_text(other).variables


def test_the_built_cpu_list_reaches_the_placement_rules():
    text = ("#!/bin/bash\n#PBS -A MyProject\n#PBS -l select=1\n#PBS -l walltime=00:10:00\n"
            "#PBS -l filesystems=home:flare\n#PBS -q debug\nlist=\"\"\nlet c=2\n"
            "for i in {1..12} ; do\n  list=\"${list}:${c}-$((c + 15))\"\n  let c=${c}+16\n"
            "done\nmpiexec -n 12 -ppn 12 --cpu-bind list${list} "
            "/soft/tools/mpi_wrapper_utils/gpu_tile_compact.sh ./app\n")
    found = lint(parse_text(text), load_profile("aurora").profile)
    across = [f for f in found if f.rule == "CPU005"]
    assert across and "local rank 3 is bound to CPUs 50-65" in across[0].message


@pytest.mark.parametrize("step", [
    "jsrun -n 3 -r 1 -c 42 -g 6 ./train",
    "jsrun -nALL_HOSTS -cALL_CPUS -a1 -r1 -gALL_GPUS ./serial_summit.sh",  # (abacus)
    "jsrun -n 3 -g $NGPU ./train",            # a count lint cannot read
    "jsrun --erf_input ranks.erf ./train",    # the resource sets are in a file
    "jsrun <options> ./a.out",                # the guide's placeholder
    "jsrun -n 3 $JSRUN_FLAGS ./train",        # more options in a variable
])
def test_steps_that_may_ask_for_gpus_are_not_told(step):
    assert _findings(SUMMIT + step + "\n", "summit", "GPU008") == []


@pytest.mark.parametrize("shell", [
    "python driver.py --machine summit",  # a driver may start its own jsruns
    "./run_all.sh",
    "source ./launch_steps.sh",
    "run_step 1",                         # a function lint may not read
])
def test_a_batch_shell_command_that_may_start_steps_keeps_the_job_unknown(shell):
    text = SUMMIT + "jsrun -n 3 -r 1 -c 42 ./sim\n" + shell + "\n"
    assert _findings(text, "summit", "GPU008") == []


def test_steps_that_only_look_at_the_node_are_left_alone():
    # the Summit guide's NVMe example (jsrun -n 1 ls / cp / cat): a look at the node
    text = SUMMIT + "jsrun -n 1 ls -l /mnt/bb/$USER/\njsrun -n 1 cp f /mnt/bb/$USER/\n"
    assert _findings(text, "summit", "GPU008") == []


def test_a_job_that_starts_no_jsrun_is_told_its_nodes_are_idle():
    # heldout-2026-11-27d's container build: the batch shell works on the launch node
    text = SUMMIT + "module load gcc\nsingularity build app.sif docker://example/app\n"
    found = _findings(text, "summit", "GPU008")
    assert [(line, sev) for line, sev, _ in found] == [(8, "warning")]
    assert "starts no jsrun" in found[0][2]
    # a python script there is LAUNCH004's (the job's work on the launch node), not this
    assert _findings(SUMMIT + "python analyse.py\n", "summit", "GPU008") == []


def test_mpirun_with_a_host_file_is_not_read_as_jsrun():
    text = SUMMIT + "mpirun -np 18 --hostfile hosts -npernode 6 python train.py\n"
    assert _findings(text, "summit", "GPU008") == []


def test_jsrun_all_keywords_are_read_as_values():
    from jobgen.review.lint.scope import normalise
    assert normalise(["jsrun", "-nALL_HOSTS", "-gALL_GPUS", "-cALL_CPUS", "-a1"]) == [
        "jsrun", "-n", "ALL_HOSTS", "-g", "ALL_GPUS", "-c", "ALL_CPUS", "-a", "1"]


# ------------------------------------------ a batch-shell command reading an unset variable
# heldout-2026-11-27f's train-gpt-9b: TIE_WORD_EMBEDDINGS's assignment commented out, read
# under set -euo pipefail before the srun (bash: "unbound variable", the job ends at once);
# -27l's `${tstamp}` beside `tstamp() { date ...; }`; -26's `>& $OUTOUT/np4.dat` beside OUTPUT.
LUMI = ("#!/bin/bash\n#SBATCH --account=project_465000000\n#SBATCH --partition=small\n"
        "#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --time=00:30:00\n")


def test_a_commented_out_assignment_read_under_set_u_stops_the_job():
    text = LUMI + "set -euo pipefail\n# SIZE=small\nif [ \"$SIZE\" = small ]; then echo s; fi\n"
    found = _findings(text, "lumi", "TEXT019")
    assert [(line, sev) for line, sev, _ in found] == [(9, "error")]
    assert "unbound variable" in found[0][2] and "line 7" in found[0][2]
    # without set -u the upper-case name may come from the submitting environment: not told
    assert _findings(text.replace("set -euo pipefail\n", ""), "lumi", "TEXT019") == []
    # after set +u it is not an error either
    assert _findings(text.replace("# SIZE", "set +u\n# SIZE"), "lumi", "TEXT019") == []


def test_a_near_miss_of_a_set_name_is_told_without_set_u():
    text = LUMI + "OUTPUT=/scratch/project_465000000/out\nmkdir -p $OUTOUT/logs\n"
    found = _findings(text, "lumi", "TEXT019")
    assert [(line, sev) for line, sev, _ in found] == [(8, "warning")]
    assert "OUTPUT" in found[0][2]


def test_a_function_read_as_a_variable_is_told_even_without_directives():
    text = ("#!/bin/bash\ntstamp() { date +%s; }\nmodule load conda\n"
            "TRACE=./traces/run_${tstamp}\nmkdir -p \"$TRACE\"\n")
    found = _findings(text, "polaris", "TEXT019")
    assert [(line, sev) for line, sev, _ in found] == [(4, "warning")]
    assert "tstamp is a function the script defines" in found[0][2]


@pytest.mark.parametrize("body", [
    "mkdir -p ${out:-/tmp/out}\n",                      # a default
    "out=/tmp/x\nmkdir -p $out\n",                      # set
    "cmd=\"python x.py \\\n  -d 4\"\necho $cmd\n",      # set in a string continued over lines
    "source ./env_setup.sh\nmkdir -p $out\n",           # a file of its own may set it
    "eval \"$(./gen_vars)\"\nmkdir -p $out\n",          # eval may set anything
    "awk '{print $outcol}' f\n",                        # single-quoted: awk's, not bash's
    "if [ -z \"$out\" ]; then out=/tmp; fi\nmkdir -p $out\n",  # tested: expected to be given
    "for out in a b; do echo $out; done\n",             # a loop variable
    "read -r out < f\necho $out\n",                     # read
    "python train.py --epochs 3 $args\n",               # the hook for extra arguments
])
def test_names_that_may_have_a_value_are_not_told(body):
    assert _findings(LUMI + "set -u\n" + body, "lumi", "TEXT019") == []


def test_a_script_without_directives_keeps_its_callers_variables():
    text = "#!/bin/bash\nmodule load conda\necho \"Running ${qmcpack}\"\n"
    assert _findings(text, "polaris", "TEXT019") == []


# ------------------------------------------------------------- here-documents, read right
# The LUMI guide's mask loop (`base_mask=$((base_mask | (0x1 << i)))`) was read as the start
# of a here-document ending at a line `i`, and ALCF's container test's `python - <<'PY'` inside
# a double-quoted `bash -c` string likewise: lint read nothing after them, launches included.
@pytest.mark.parametrize("line, delimiter", [
    ("cat <<EOF > x", "EOF"), ("cat <<-\"END\"", "END"), ("python - <<'PY'", "PY"),
    ("cat <<\\EOF", "EOF"), ("x=$((a << 2))", None), ("(( m <<= 1 ))", None),
    ("base=$((base | (0x1 << i)))", None), ("cat <<< word", None), ('echo "a << b"', None),
])
def test_a_here_document_is_told_from_a_shift_a_here_string_and_quoted_text(line, delimiter):
    from jobgen.review.scriptparse import heredoc_start
    m = heredoc_start(line)
    assert (m.group(1) if m else None) == delimiter


def test_a_shift_in_arithmetic_hides_no_launch():
    from jobgen.review.scriptparse import parse_text
    text = ("#!/bin/bash\nfor i in 0 8 16; do\n  mask=$((mask | (0x1 << i)))\ndone\n"
            "srun -n 4 ./app\n")
    script = parse_text(text)
    assert not script.heredoc_lines and [la.line for la in script.launches] == [5]


# heldout-2026-11-27b's mof-generation parallel.sh: `command=$(cat <<-END ... FPATH=...;
# export LD_LIBRARY_PATH=$FPATH/torch/lib ...)`: FPATH is expanded when the batch shell reads
# the text, where it is unset.
HEREDOC = ("#!/bin/bash\n#PBS -A MyProject\n#PBS -l select=1\n#PBS -l walltime=00:10:00\n"
           "#PBS -l filesystems=home:eagle\n#PBS -q debug\n"
           "cat > stage.sh <<{open}\nDATA=/local/scratch/in\nmkdir -p {esc}$DATA\n"
           "cp /eagle/x/*.h5 $DATA/\nEOF\n./stage.sh\n")


def test_a_variable_set_and_read_in_an_unquoted_here_document_is_told():
    found = _findings(HEREDOC.format(open="EOF", esc="\\"), "polaris", "TEXT020")
    assert [(line, sev) for line, sev, _ in found] == [(10, "warning")]
    assert "set on line 8" in found[0][2] and "opened on line 7" in found[0][2]


@pytest.mark.parametrize("open_, esc", [("'EOF'", ""), ('"EOF"', ""), ("\\EOF", "")])
def test_a_quoted_delimiter_writes_the_text_as_it_is(open_, esc):
    assert _findings(HEREDOC.format(open=open_, esc=esc), "polaris", "TEXT020") == []


def test_a_variable_the_script_sets_before_the_here_document_is_its_value():
    text = HEREDOC.format(open="EOF", esc="").replace("cat > stage.sh",
                                                       "DATA=/tmp/in\ncat > stage.sh")
    assert _findings(text, "polaris", "TEXT020") == []


# ------------------------------------------------ jsrun without -r or -a: sets on few nodes
# heldout-2026-11-27h's Nyx job: `jsrun -n 8 ./Nyx3d...` on 8 nodes puts eight one-core sets
# on the first node (jsrun fills a node before the next: summit_user_guide.rst L1522-1563).
def test_jsrun_sets_without_r_are_packed_on_the_first_nodes():
    text = SUMMIT.replace("-nnodes 3", "-nnodes 8") + "jsrun -n 8 ./nyx inputs\n"
    found = _findings(text, "summit", "RANK002")
    assert [(line, sev) for line, sev, _ in found] == [(7, "warning")]
    assert "on 1 of the 8 nodes: 7 node(s) stay idle" in found[0][2]
    # sets of 6 GPUs: one per node, all 8 nodes used
    assert _findings(text.replace("-n 8", "-n 8 -g 6 -c 42"), "summit", "RANK002") == []
    # -r places them per node; -i steps run side by side
    assert _findings(text.replace("-n 8", "-n 8 -r 1"), "summit", "RANK002") == []
    assert _findings(text.replace("-n 8", "-i -n 8"), "summit", "RANK002") == []


# Unseen scripts after round 15 (LumiOpen's translation_dispatcher): a job whose inputs come
# from the submission (`sbatch --export=ALL,input=...`) reads names it never sets on purpose.
def test_inputs_given_at_submission_are_not_unset_variables():
    text = (LUMI + "INPUT_FILE=$input\necho \"reading $INPUT_FILE\"\n")
    assert _findings(text, "lumi", "TEXT019") == []
    params = (LUMI + "echo \"Preprocessing $input_file\"\n"
              "srun python prep.py --input $input_file --lang $lang --kind $dataset_type\n")
    assert _findings(params, "lumi", "TEXT019") == []
    assert _findings(params, "lumi", "TEXT012") == []
    # one or two names never set are still told
    one = LUMI + "mkdir -p $outdir/logs\nsrun python prep.py --out $outdir\n"
    assert _findings(one, "lumi", "TEXT019") and _findings(one, "lumi", "TEXT012")


def test_an_arithmetic_for_loop_sets_its_variable():
    text = LUMI + "n=3\nfor ((i = 1; i <= n; i++)); do\n  echo $i\ndone\necho \"last $i\"\n"
    assert _findings(text, "lumi", "TEXT019") == []


# Unseen scripts after round 15: libEnsemble's Aurora example runs its driver in the batch
# shell (`python libE_calling_script.py -n 13` on 2 nodes); its workers launch the runs
# across the nodes, as the driver's own name says (libE).
def test_a_libensemble_driver_in_the_batch_shell_is_not_told_idle_nodes():
    text = ("#!/bin/bash -l\n#PBS -l select=2\n#PBS -l walltime=00:30:00\n#PBS -q debug\n"
            "#PBS -A myproj\n#PBS -l filesystems=home:flare\n"
            "python libE_calling_script.py -n 13\n")
    assert _findings(text, "aurora", "RANK002") == []
    assert _findings(text.replace("libE_calling_script", "train"), "aurora", "RANK002")


def test_one_resource_set_is_not_blamed_on_a_missing_r():
    # (unseen scripts after round 15: Ascent's `jsrun -n 1 -a2` on 2 nodes)
    text = SUMMIT.replace("-nnodes 3", "-nnodes 2") + "jsrun -n 1 -a 2 -c 2 -g 1 ./app\n"
    found = _findings(text, "summit", "RANK002")
    assert found and "1 node(s) stay idle" in found[0][2] and "without -r" not in found[0][2]
    many = _findings(text.replace("-n 1 -a 2", "-n 2 -a 1"), "summit", "RANK002")
    assert many and "without -r" in many[0][2]


# ------------------------------------- a job script written from a here-document is linted
# The spot set 2026-11-28o's ytopt and nekRS generators (`cat > batch.job <<EOF ... #PBS -l
# filesystems=home:grand ... EOF`) and heldout-2026-11-27k's prot_lig_discdiff: the refusals
# were in the job the script writes, which lint did not read.
GENERATOR = ("#!/bin/bash\nnnds=4\ncat > batch.job <<{open}\n#!/bin/bash\n"
             "#PBS -l select=${{nnds}}:system=polaris\n#PBS -l walltime=01:00:00\n"
             "#PBS -l filesystems=home:theta-fs0\n#PBS -A MyProject\n#PBS -q prod\n"
             "cd {esc}$PBS_O_WORKDIR\npython {esc}$EXE --nodes ${{nnds}}\nEOF\nqsub batch.job\n")


def test_the_job_a_generator_writes_is_linted_on_its_lines():
    text = GENERATOR.format(open="EOF", esc="\\")
    found = _findings(text, "polaris", "ALCF003")
    assert [(line, sev) for line, sev, _ in found] == [(7, "error")]
    assert found[0][2].startswith("in the job script the here-document of line 3 writes:")
    # the generator's own values go in as it writes (nnds=4 on prod: under its minimum)
    assert _findings(text, "polaris", "QUEUE001")
    # and its variables are not the written job's unset ones
    assert _findings(text, "polaris", "TEXT019") == _findings(text, "polaris", "TEXT012") == []


def test_a_here_document_without_directives_is_not_a_job():
    text = GENERATOR.format(open="EOF", esc="\\").replace("#PBS", "# PBS")
    assert _findings(text, "polaris", "ALCF003") == []


# Unseen scripts after round 15 (jpata/particleflow): Ray's head and workers started in the
# background with srun, the training run by the batch shell itself in the foreground.
def test_ray_services_used_by_the_batch_shells_own_client_need_no_wait():
    text = (LUMI.replace("small", "standard-g") + "srun --nodes=1 --ntasks=1 -w $head "
            "singularity exec $IMG ./scripts/ray-head.sh &\nsleep 20\n"
            "srun --nodes=1 --ntasks=1 -w $w singularity exec $IMG ./scripts/ray-worker.sh &\n"
            "singularity exec $IMG ./scripts/ray-train.sh\n")
    assert _findings(text, "lumi", "LAUNCH007") == []
    # a background training with nothing after it is still told
    assert _findings(text.replace("singularity exec $IMG ./scripts/ray-train.sh\n", "")
                     .replace("ray-head", "train"), "lumi", "LAUNCH007")
