"""Lint round 9 (issue 31), tuned on the held-out sets measured before
(tests/lint_users/heldout-2026-11-27b/-c/-d), before the set 2026-11-27e was gathered or seen."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text


def _all(text: str, site: str, rule: str) -> list[tuple[int, str]]:
    return [(f.line, f.severity) for f in lint(parse_text(text), load_profile(site).profile)
            if f.rule == rule]


# ------------------------------------------ GPU008: jsrun in a launch script
# A script run inside a job (no #BSUB lines) does not say the job's nodes, but a jsrun's -r sets
# are on every node it uses, and the job has at least one node: -r 2 -g 1 leaves 4 of Summit's 6
# GPUs idle whatever the size (heldout-2026-11-27d exawind-summit).
@pytest.mark.parametrize(("launch", "found"), [
    ("jsrun --nrs 2 --rs_per_host 2 --cpu_per_rs 1 --gpu_per_rs 1 ./exawind in.yaml",
     [(3, "warning")]),
    ("jsrun -n8 -r4 -a1 -c1 -g1 ./app", [(3, "warning")]),
    ("jsrun -n 1 -g 1 ./app", [(3, "warning")]),       # one node at least: 5 of its 6 idle
    ("jsrun -n 12 -r 6 -a 1 -g 1 ./app", []),            # every GPU of each node
    ("jsrun -n 8 -a 1 -g 1 ./app", []),                  # 8 sets may fill the nodes it has
    ("jsrun -n 2 -r 2 -g 3 ./app", []),
    ("jsrun -n 2 -r 2 -g 0 ./cpu_app", []),              # a CPU program asks for no GPU
    ("for g in 1 2 3; do\n  jsrun -n 1 -r 1 -g $g ./scale\ndone", []),  # a scaling study
    ("jsrun -n 1 -g 1 ./a &\njsrun -n 1 -g 1 ./b &\nwait", []),  # several at once share it
])
def test_a_jsrun_of_a_script_without_directives_is_held_to_the_node_it_uses(launch, found):
    text = f"#!/bin/bash\nmodule load cuda\n{launch}\n"
    assert _all(text, "summit", "GPU008") == found


# ------------------------------------------ TEXT009: a comment in a continuation
@pytest.mark.parametrize(("body", "found"), [
    ("jsrun -n6 -g1 ./app \\\n#--list \\\n--out=a.csv", [(4, "warning")]),
    ("srun python train.py \\\n    # --resume \\\n    --epochs 3", [(4, "warning")]),
    ("srun python train.py \\\n    # one comment\n    # and another\n    --epochs 3",
     [(4, "warning")]),
    ("srun python train.py \\\n    --epochs 3\n# a comment after the command", []),
    ("srun python train.py \\\n# ends the command on purpose\necho done", []),  # not its words
    ("srun python train.py \\\n    --epochs 3 \\\n    --lr 1", []),
    ("cat <<EOF\nsrun x \\\n# text\n  --y\nEOF", []),  # a here-document's text
])
def test_a_comment_line_inside_a_continued_command_ends_it(body, found):
    text = f"#!/bin/bash\n\n{body}\n"
    assert _all(text, "lumi", "TEXT009") == found


# ------------------------------------------ SCHED010: $0 in a Slurm job
LUMI = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=small-g\n"
        "#SBATCH --time=00:30:00\n{body}\nsrun python \"$ROOT/train.py\"\n")


@pytest.mark.parametrize(("body", "found"), [
    ('ROOT="$(cd "$(dirname "$0")" && pwd)"', [(5, "warning")]),
    ('ROOT=$(dirname $(readlink -f $0))', [(5, "warning")]),
    ('SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"\nROOT=$SCRIPT_DIR',
     [(5, "warning")]),
    ('ROOT="${0%/*}"', [(5, "warning")]),
    ('ROOT=$(realpath "$BASH_SOURCE")', [(5, "warning")]),
    ('ROOT="${SLURM_SUBMIT_DIR:-$(dirname "$0")}"', []),   # the script knows the copy
    ('ROOT=$(dirname "$(scontrol show job "$SLURM_JOB_ID" | grep -oP "Command=\\K.*")")', []),
    ('NAME=$(basename "$0")\nROOT=/scratch/project_465000001/me', []),  # the name only
    ('# ROOT=$(dirname "$0")\nROOT=/scratch/project_465000001/me', []),  # a comment
    ('ROOT=$(dirname "$10")', []),
])
def test_a_slurm_batch_script_taking_its_directory_from_dollar0(body, found):
    assert _all(LUMI.format(body=body), "lumi", "SCHED010") == found


def test_a_script_without_sbatch_directives_is_not_held_to_it():
    # a launch script run by bash inside the job (not spooled by slurmd): $0 is its own path
    text = '#!/bin/bash\nROOT="$(dirname "$0")"\nsrun python "$ROOT/train.py"\n'
    assert _all(text, "lumi", "SCHED010") == []
    pbs = '#!/bin/bash\n#PBS -A P\n#PBS -l select=1\nROOT="$(dirname "$0")"\nmpiexec ./a\n'
    # PBS (round 10): MOM runs its copy too (openpbs start_exec.c L3269-3320, read, not
    # measured: no PBS here), so a #PBS script is held to it
    assert _all(pbs, "polaris", "SCHED010") == [(4, "warning")]


def test_slurmd_runs_a_copy_whose_directory_is_not_the_scripts(slurm, tmp_path):
    """The fact SCHED010 stands on, with the real slurmd that .ci/run installs: in a batch job
    $0 and ${BASH_SOURCE[0]} name slurmd's spooled copy, and the files beside the submitted
    script are not beside it."""
    (tmp_path / "helper.txt").write_text("beside the script\n")
    script = tmp_path / "where.sh"
    script.write_text(
        "#!/bin/bash\n#SBATCH --job-name=where\n#SBATCH --output=where-%j.out\n"
        'echo "zero=$0"\necho "source=${BASH_SOURCE[0]}"\n'
        'echo "submit=$SLURM_SUBMIT_DIR"\n'
        'if [ -e "$(dirname "$0")/helper.txt" ]; then echo beside=yes; else echo beside=no; fi\n'
        'if [ -e "$SLURM_SUBMIT_DIR/helper.txt" ]; then echo submit_has=yes; fi\n')
    job = slurm.wait(slurm.submit(script))
    out = (tmp_path / f"where-{job.id}.out").read_text()
    assert job.state == "COMPLETED", out
    values = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    assert values["zero"].endswith("/slurm_script") and values["zero"] != str(script)
    assert values["source"] == values["zero"]
    assert values["submit"] == str(tmp_path)
    assert values["beside"] == "no" and values["submit_has"] == "yes"


# ------------------------------------------ LAUNCH004: python on the launch node
SUMMIT_JOB = ("#!/bin/bash\n#BSUB -P CSC123\n#BSUB -W 10\n#BSUB -nnodes 1\n"
              "module load python\n{body}\n")


@pytest.mark.parametrize(("body", "found"), [
    ("python check_redist.py", [(6, "warning")]),
    ("python3 -u tools/make_dists.py --out d.h5", [(6, "warning")]),
    ("python check_redist.py\njsrun -n1 -a1 -c42 ./app", []),   # a job that launches: a step
    ("python -c 'import numpy'", []),
    ("python -m pip install --user h5py", []),
    ("python run_ensemble.py", []),          # a manager that may call jsrun itself
    ("python3 run-problems.py summit", []),  # a driver told the machine
    ("python $TRAIN_PATH/deepy.py train.py cfg.yml", []),  # GPT-NeoX's launcher
    ("python setup.py install", []),          # a build step
])
def test_a_python_script_in_an_lsf_job_that_launches_nothing_runs_on_the_launch_node(
        body, found):
    assert _all(SUMMIT_JOB.format(body=body), "summit", "LAUNCH004") == found


# ------------------------------------------ ENV004: servers' settings
POLARIS = ("#!/bin/bash\n#PBS -A P\n#PBS -l select=1\n#PBS -l walltime=1:00:00\n"
           "#PBS -l filesystems=home:eagle\n{body}\n")


@pytest.mark.parametrize(("body", "found"), [
    ("OLLAMA_MODELS=/eagle/P/models\nstart() {\n  nohup ollama serve > log 2>&1 &\n}\nstart\nwait",
     [(6, "warning")]),
    ("HF_HOME=/eagle/P/hf\npython infer.py", [(6, "warning")]),
    ("export OLLAMA_MODELS=/eagle/P/models\nollama serve &\nwait", []),
    ("OLLAMA_PORT_START=11400\nollama serve --port $OLLAMA_PORT_START &\nwait", []),  # read
    ("python infer.py\nHF_HOME=/eagle/P/hf", []),        # after the program: for nothing started
    ("HF_HOME=/eagle/P/hf\necho done", []),               # nothing started that reads it
])
def test_a_servers_setting_assigned_without_export_before_it_starts(body, found):
    assert _all(POLARIS.format(body=body), "polaris", "ENV004") == found


# ------------------------------------------ CONT002/CONT005: EasyBuild modules
LUMI_CONTAINER = ("#!/bin/bash\n#SBATCH --account=project_465000001\n"
                  "#SBATCH --partition=standard-g\n"
                  "#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=8\n"
                  "#SBATCH --time=1:00:00\nmodule load LUMI {module}\n"
                  "export MIOPEN_USER_DB_PATH=/tmp/$USER-miopen\n"
                  "export MIOPEN_CUSTOM_CACHE_DIR=$MIOPEN_USER_DB_PATH\n"
                  "srun singularity exec $SIF python /scratch/project_465000001/train.py\n")


@pytest.mark.parametrize(("module", "found"), [
    ("PyTorch/2.2.2-rocm-5.6.1-python-3.10-vllm-0.4.0.post1-singularity-20240617", []),
    ("PyTorch/2.2.0-rocm-5.6.1-python-3.10", ["CONT002", "CONT005"]),  # no container module
])
def test_lumis_easybuild_container_modules_bind_the_network_and_filesystems(module, found):
    text = LUMI_CONTAINER.format(module=module)
    rules = [f.rule for f in lint(parse_text(text), load_profile("lumi").profile)
             if f.rule in ("CONT002", "CONT005")]
    assert sorted(rules) == found


# ------------------------------------------ LAUNCH009: no program
@pytest.mark.parametrize(("site", "launch", "found"), [
    ("summit", "jsrun -n1 -a1 -c21 -g0 -bpacked:21", [(3, "warning")]),
    ("polaris", "mpiexec -n 8 --ppn 4 --depth 8 --cpu-bind depth", [(3, "error")]),
    ("lumi", "srun --ntasks=8 --cpu-bind=cores", [(3, "error")]),
    ("summit", "jsrun -n1 -a1 -c21 -g0 -bpacked:21 ./fhe", []),
    ("polaris", "mpiexec --version", []),
    ("polaris", "mpiexec -n 8 --ppn 4 $CMD", []),        # the program in a variable
    ("summit", "jsrun --erf_input=app.erf", []),          # an ERF file names the program
])
def test_a_launcher_line_with_options_and_no_program(site, launch, found):
    text = f"#!/bin/bash\n\n{launch}\n"
    assert _all(text, site, "LAUNCH009") == found


# ------------------------------------------ ENV009: any GPU program of jsrun
@pytest.mark.parametrize(("launches", "found"), [
    ("jsrun -n6 -a1 -c7 -g1 ./exawind a.yaml\njsrun -n6 -a1 -c7 -g1 ./exawind b.yaml",
     [(4, "warning")]),                              # said once for a program of no framework
    ("jsrun -n6 -a1 -c7 -g0 ./cpu_app", []),         # no GPU asked
])
def test_cuda_launch_blocking_before_a_gpu_jsrun(launches, found):
    text = f"#!/bin/bash\nmodule load cuda\nexport CUDA_LAUNCH_BLOCKING=1\n{launches}\n"
    assert _all(text, "summit", "ENV009") == found


# ------------------------------------------ TEXT010 / TEXT011: functions
@pytest.mark.parametrize(("body", "found"), [
    ('run() {\n  local a=$1\n  local b=$2\n  local c=$3\n  echo "$a $b $c"\n}\nrun x y',
     [(6, "warning")]),
    ('run() {\n  echo "$1 $2 $3"\n}\nrun x y z', []),
    ('run() {\n  echo "$1 ${3:-none}"\n}\nrun x', []),           # a default: optional
    ('run() {\n  [ -z "$2" ] && return\n  echo "$2"\n}\nrun x', []),  # tested: optional
    ('run() {\n  echo "$1 $2"\n}\nrun "$@"', []),                  # whatever the script gets
    ('run() {\n  local host=$1\n  local unused=$2\n  ssh "$host" hostname\n}\nrun h', []),
    ('run() {\n  echo "$3"\n}\ntrap run EXIT', []),                 # not only called
])
def test_a_function_reading_an_argument_no_call_passes(body, found):
    text = f"#!/bin/bash\n\n{body}\n"
    assert _all(text, "polaris", "TEXT010") == found


@pytest.mark.parametrize(("body", "found"), [
    ("find_free_ollama_port() {\n  echo 11400\n}\nport=$(find_free_port)\necho $port",
     [(6, "warning")]),
    ("start_server() {\n  echo up\n}\nstart_sever", [(6, "warning")]),
    ("find_free_port() {\n  echo 1\n}\nport=$(find_free_port)", []),
    ("start_server() {\n  echo up\n}\nsource ./env.sh\nstart_servers", []),  # may be there
    ("start_server() {\n  echo up\n}\nnvidia_smi_log", []),          # nothing close
])
def test_a_call_of_a_function_the_script_never_defines(body, found):
    text = f"#!/bin/bash\n\n{body}\n"
    assert _all(text, "polaris", "TEXT011") == found


# ------------------------------------------ after the blind run of 2026-11-27e
def test_a_launch_fed_by_a_pipe_is_read():
    # `echo INPUT | jsrun ...` (heldout-2026-11-27e faces): the pipeline's second command runs
    text = ("#!/bin/bash\n#BSUB -P CSC123\n#BSUB -W 10\n#BSUB -nnodes 1\n"
            'echo "1 1 1 15" | jsrun --smpiargs="-gpu" -n1 -c7 -EOMP_NUM_THREADS=7 -g1 ./faces\n')
    script = parse_text(text)
    assert [la.argv[0] for la in script.launches] == ["jsrun"]
    assert _all(text, "summit", "GPU008") == [(5, "warning")]
    assert _all(text, "summit", "CPU010") == [(5, "warning")]
    # a pipe inside quotes is no pipeline
    quoted = parse_text("#!/bin/bash\necho 'a | jsrun -n1 ./x'\n")
    assert quoted.launches == []


@pytest.mark.parametrize(("count", "found"), [
    ("$(nvidia-smi -L | wc -l)", [(7, "warning")]),
    ("$(nvidia-smi --list-gpus | wc -l)", [(7, "warning")]),
    # not the node's GPUs: ranks per node unknown, but -n 8 on 2 nodes puts 4 on a node at
    # least (round 10), still unbound
    ("$(cat gpus.txt | wc -l)", [(7, "warning")]),
])
def test_the_nodes_gpu_count_read_with_nvidia_smi_is_the_nodes_devices(count, found):
    text = ("#!/bin/bash\n#PBS -A P\n#PBS -l select=2:system=polaris\n#PBS -l walltime=1:00:00\n"
            f"#PBS -l filesystems=home:eagle\nNGPUS_PER_NODE={count}\n"
            "mpiexec -n 8 --ppn $NGPUS_PER_NODE --cpu-bind none ./set_affinity_gpu_polaris.sh "
            "python3 main.py\n")
    assert _all(text, "polaris", "CPU009") == found


@pytest.mark.parametrize(("body", "found"), [
    ("mpiexec -n 8 --ppn ${NRANKS_PER_NODE} --depth 8 --cpu-bind depth ./app",
     [(8, "warning")]),                                   # RANKS_PER_NODE is what it sets
    ("mpiexec -n 8 --ppn 4 ./app --strategy $pruning_strategy", [(8, "warning")]),
    ("mpiexec -n 8 --ppn $RANKS_PER_NODE ./app", []),
    ("mpiexec -n 8 --ppn 4 ./app --strategy ${strategy:-greedy}", []),   # a default
    ("mpiexec -n 8 --ppn 4 ./app --out $PBS_O_WORKDIR/out", []),       # the job's
    ("mpiexec -n 8 --ppn 4 ./app --data $your_path_in_polaris", []),   # a placeholder
    ("for s in a b; do\n  mpiexec -n 8 --ppn 4 ./app --s $s\ndone", []),
    ("read -r -d '' CMD <<'EOS' || true\n./app\nEOS\nmpiexec -n 8 --ppn 4 bash -c \"$CMD\"", []),
])
def test_a_launch_reading_a_variable_nothing_sets(body, found):
    text = ("#!/bin/bash\n#PBS -A P\n#PBS -l select=2:system=polaris\n#PBS -l walltime=1:00:00\n"
            "#PBS -l filesystems=home:eagle\nexport RANKS_PER_NODE=4\nsource ./venv/bin/activate\n"
            f"{body}\n")
    assert _all(text, "polaris", "TEXT012") == found


def test_a_sourced_file_of_the_scripts_own_may_set_lower_case_variables():
    text = ("#!/bin/bash\nsource ./params.sh\n"
            "mpiexec -n 8 --ppn 4 ./app --strategy $pruning_strategy\n")
    assert _all(text, "polaris", "TEXT012") == []


@pytest.mark.parametrize(("body", "found"), [
    # a GPU monitor beside the training, which the batch shell waits for
    ("mpiexec -n 8 --ppn 4 ./profile_gpu_polaris.sh &\nmpiexec -n 8 --ppn 4 python train.py", []),
    # a run that hangs on purpose, a debugger attached to it
    ("mpiexec -n 8 --ppn 4 ./hang &\nsleep 30\nstat-cl $(pidof mpiexec)", []),
    ("mpiexec -n 8 --ppn 4 python train.py &", [(6, "error")]),
])
def test_background_launches_that_need_no_wait(body, found):
    text = ("#!/bin/bash\n#PBS -A P\n#PBS -l select=2:system=polaris\n#PBS -l walltime=1:00:00\n"
            f"#PBS -l filesystems=home:eagle\n{body}\n")
    assert _all(text, "polaris", "LAUNCH007") == found


@pytest.mark.parametrize(("threads", "found"), [("1", []), ("7", [(6, "warning")])])
def test_single_threaded_tasks_need_no_more_than_the_default_core(threads, found):
    text = ("#!/bin/bash\n#BSUB -P CSC123\n#BSUB -W 10\n#BSUB -nnodes 1\n"
            f"t={threads}\nOMP_NUM_THREADS=$t jsrun -n 6 -a 1 -c 7 -g 1 -r 6 ./gem_main\n")
    assert _all(text, "summit", "CPU010") == found


@pytest.mark.parametrize(("output", "found"), [
    ("-o app.rank_%q{OMPI_COMM_WORLD_RANK}", []),   # the Summit guide's per-rank reports
    ("-o app", [("PROF002", 5)]),                   # one name for all six
])
def test_summits_guide_profiles_every_rank_with_a_report_each(output, found):
    text = ("#!/bin/bash\n#BSUB -P CSC123\n#BSUB -W 10\n#BSUB -nnodes 1\n"
            f"jsrun -n 6 -a 1 -c 7 -g 1 -bpacked:7 nsys profile {output} ./app\n")
    assert [(f.rule, f.line) for f in lint(parse_text(text), load_profile("summit").profile)
            if f.rule.startswith("PROF")] == found


@pytest.mark.parametrize(("extra", "found"), [
    ("", [(2, "info")]),                                   # SBATCH_ACCOUNT may give it
    ("#SBATCH --account=project_465000001\n", []),
])
def test_lumis_account_may_come_from_sbatch_account(extra, found):
    text = ("#!/bin/bash\n#SBATCH --partition=small-g\n#SBATCH --time=1:00:00\n" + extra +
            "srun python train.py\n")
    assert _all(text, "lumi", "SCHED002") == found


def test_an_lsf_script_without_any_required_directive_is_submitted_with_them():
    # `bsub -P $proj -nnodes $nn -W $wt job.lsf` (heldout-2026-11-27e UnifyFS jobs)
    bare = "#!/bin/bash -l\n#BSUB -J ior\n#BSUB -o ior.o%J\njsrun -n 6 -a 1 -c 7 ./ior\n"
    # said at info: the bsub line may give them, or they were forgotten (heldout-2026-11-27g)
    assert sorted((f.rule, f.severity) for f in lint(parse_text(bare),
                                                     load_profile("summit").profile)
                  if f.rule.startswith("SCHED00")) == [
        ("SCHED002", "info"), ("SCHED003", "info"), ("SCHED007", "info")]
    some = "#!/bin/bash -l\n#BSUB -J ior\n#BSUB -W 10\njsrun -n 6 -a 1 -c 7 ./ior\n"
    assert {f.rule for f in lint(parse_text(some), load_profile("summit").profile)} >= {
        "SCHED002", "SCHED007"}


@pytest.mark.parametrize(("depth", "found"), [("4", [(6, "warning")]), ("8", [])])
def test_polaris_affinity_wrapper_gives_the_guides_reverse_order(depth, found):
    text = ("#!/bin/bash\n#PBS -A P\n#PBS -l select=4:system=polaris\n#PBS -l walltime=1:00:00\n"
            "#PBS -l filesystems=home:eagle\n"
            f"mpiexec -n 16 --ppn 4 --depth={depth} --cpu-bind depth "
            "./set_affinity_gpu_polaris.sh python train.py\n")
    assert _all(text, "polaris", "CPU007") == found


@pytest.mark.parametrize(("launch", "found"), [
    ('srun python worker.py --rank "${SLURM_PROCID}" --world 8', [(5, "error")]),
    ("srun bash -c 'python worker.py --rank $SLURM_PROCID'", []),   # expanded per rank
    ("srun torchrun --nnodes=2 --nproc_per_node=8 --node_rank $SLURM_PROCID "
     "--rdzv_backend c10d --rdzv_endpoint $MASTER_ADDR:29500 train.py", []),  # not read
    ("srun torchrun --nnodes=2 --nproc_per_node=8 --node_rank $SLURM_PROCID "
     "--master_addr $MASTER_ADDR train.py", [(5, "error")]),      # static: every node 0
])
def test_a_per_rank_variable_in_a_launchs_own_words(launch, found):
    text = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=small-g\n"
            f"#SBATCH --time=1:00:00\n{launch}\n")
    assert _all(text, "lumi", "ENV008") == found


@pytest.mark.parametrize(("partition", "mem", "gpus", "found"), [
    ("small-g", "0", 1, [(5, "warning")]),
    ("small-g", "0", 8, []),            # all 8 GCDs: a whole node's bill anyway
    ("small-g", "120G", 1, []),
    ("standard-g", "0", 8, []),         # whole nodes: memory included
])
def test_all_the_nodes_memory_on_a_partition_billed_by_slices(partition, mem, gpus, found):
    text = ("#!/bin/bash\n#SBATCH --account=project_465000001\n"
            f"#SBATCH --partition={partition}\n#SBATCH --gpus-per-node={gpus}\n"
            f"#SBATCH --mem={mem}\n#SBATCH --time=1:00:00\nsrun python train.py\n")
    assert _all(text, "lumi", "QUEUE007") == found


@pytest.mark.parametrize(("site", "launch", "found"), [
    ("polaris", "mpiexec -n 8 --ppn 4 nsys profile -o ${PBS_O_WORKDIR}/nsys/ python train.py",
     [("PROF002", "warning")]),                  # one name for all: PROF002 says both
    ("polaris", "mpiexec -n 8 --ppn 4 nsys profile -o rep_%q{PMI_RANK} python train.py",
     [("PROF001", "warning")]),                  # per-rank names, every rank profiled
    ("summit", "jsrun -n6 -r6 -a1 -c7 -g1 -bpacked:7 nsys profile -o rep ./app",
     [("PROF002", "warning")]),
    ("summit", "jsrun -n6 -r6 -a1 -c7 -g1 -bpacked:7 ncu -o rep_%q{OMPI_COMM_WORLD_RANK} ./app",
     []),                                        # the Summit guide's own recipe
    ("polaris", "mpiexec -n 1 --ppn 1 nsys profile -o rep python train.py", []),  # one rank
])
def test_profiler_reports_named_for_every_rank(site, launch, found):
    text = f"#!/bin/bash\n\n{launch}\n"
    got = [(f.rule, f.severity) for f in lint(parse_text(text), load_profile(site).profile)
           if f.rule.startswith("PROF")]
    assert got == found


@pytest.mark.parametrize(("test", "found"), [
    ("[ decode_len -gt 0 ]", [(3, "warning")]),
    ("[ 0 -lt decode_len ]", [(3, "warning")]),
    ('[ "$decode_len" -gt 0 ]', []),
    ("[[ decode_len -gt 0 ]]", []),        # [[ ]] reads names as variables in arithmetic
    ("[ other -gt 0 ]", []),               # not a name the script sets: left alone
])
def test_an_integer_test_on_a_variables_name(test, found):
    text = f"#!/bin/bash\ndecode_len=1\nif {test}; then echo yes; fi\n"
    assert _all(text, "lumi", "TEXT013") == found


@pytest.mark.parametrize(("site", "module", "found"), [
    ("summit", "nvphc", [(2, "warning")]),          # nvhpc, two letters swapped
    ("summit", "nvhpc/21.3", []),
    ("summit", "cudaa", [(2, "warning")]),          # cuda, a letter added
    ("summit", "gcc", []),                          # short names are left alone
    ("polaris", "cudatoolkit-standalone/12.0.0", []),
    ("lumi", "singularity-AI-binding", [(2, "warning")]),
    ("lumi", "my-own-stack", []),                   # nothing close: a module of the user's
])
def test_a_module_name_a_slip_away_from_one_the_guide_loads(site, module, found):
    text = f"#!/bin/bash\nmodule load {module}\n./app\n"
    assert _all(text, site, "MODULE005") == found


@pytest.mark.parametrize(("line", "found"), [
    ("    torchrun --nproc_per_node=4 \\ ", [(4, "warning")]),   # backslash, blank: ends there
    ("    torchrun --nproc_per_node=4 \\", []),                  # a real continuation
])
def test_a_backslash_and_blank_inside_a_command_string_ssh_runs(line, found):
    text = ("#!/bin/bash\nfor h in a b; do\n  ssh $h \" cd run && \\\n" + line +
            "\n    train.py\" &\ndone\nwait\n")
    assert _all(text, "polaris", "TEXT004") == found


# ------------------------------------------ after the blind run of 2026-11-27f
POLARIS2 = ("#!/bin/bash\n#PBS -A P\n#PBS -l select=2:system=polaris\n#PBS -l walltime=1:00:00\n"
            "#PBS -l filesystems=home:eagle\n{body}\n")


@pytest.mark.parametrize(("body", "found"), [
    # a workflow: the training fills both nodes, the one-rank steps between it are no waste
    ("mpiexec -n 1 --ppn 1 python prep.py\nmpiexec -n 8 --ppn 4 --depth 8 --cpu-bind depth "
     "./set_affinity_gpu_polaris.sh python train.py\nmpiexec -n 1 --ppn 1 python merge.py", []),
    # nothing fills them: the one rank is the job's work
    ("mpiexec -n 1 --ppn 1 python prep.py", [(6, "warning")]),
])
def test_one_rank_steps_of_a_workflow_whose_launches_fill_the_nodes(body, found):
    assert _all(POLARIS2.format(body=body), "polaris", "RANK002") == found


def test_a_launch_through_a_wrapper_that_binds_each_rank_is_bound():
    body = "mpiexec -n 24 --ppn 12 ./scripts/bind_cpu.sh python check.py"
    text = ("#!/bin/bash\n#PBS -A P\n#PBS -l select=2\n#PBS -l walltime=1:00:00\n"
            f"#PBS -l filesystems=flare\n{body}\n")
    assert _all(text, "aurora", "CPU009") == []


def test_a_launchs_python_in_a_variable_is_python():
    body = ("PY=$HOME/miniconda3/envs/x/bin/python\nexport CUDA_LAUNCH_BLOCKING=1\n"
            "mpirun -np 8 $PY main_trainer.py --epochs 3")
    assert _all(POLARIS2.format(body=body), "polaris", "ENV009") == [(8, "warning")]


def test_a_commented_interactive_qsub_is_not_how_the_script_is_submitted():
    text = ("#!/bin/bash -l\n#PBS -q debug\n#PBS -l select=2:ncpus=64:ngpus=4,walltime=1:00:00\n"
            "# qsub -q debug -I -l select=2,walltime=1:00:00\ncd $PBS_O_WORKDIR\n"
            "mpiexec -n 8 --ppn 4 ./app\n")
    assert {f.rule for f in lint(parse_text(text), load_profile("polaris").profile)} >= {
        "SCHED002", "ALCF002"}


def test_a_walltime_is_not_held_to_a_queue_the_node_count_is_outside_of():
    text = ("#!/bin/bash\n#PBS -A P\n#PBS -q prod\n#PBS -l select=4:system=polaris\n"
            "#PBS -l walltime=24:00:00\n#PBS -l filesystems=home:eagle\nmpiexec -n 16 --ppn 4 "
            "./app\n")
    rules = {f.rule for f in lint(parse_text(text), load_profile("polaris").profile)}
    assert "QUEUE001" in rules and "WALL001" not in rules


@pytest.mark.parametrize(("site", "first", "found"), [
    ("lumi", "#!/bin/bash/", [(1, "error")]),        # sbatch execs it: bad interpreter
    ("polaris", "#!/bin/bash/ -l", [(1, "warning")]),
    ("polaris", "#!/bin/bash -l", []),
])
def test_a_shebang_naming_a_directory(site, first, found):
    text = f"{first}\nsrun python train.py\n" if site == "lumi" else \
        f"{first}\nmpiexec -n 4 --ppn 4 ./app\n"
    assert _all(text, site, "TEXT003") == found


# ------------------------------------------ after the blind run of 2026-11-27g
@pytest.mark.parametrize(("body", "found"), [
    # `\$SLURM_PROCID` kept for each task's own shell (srun bash -c "$LAUNCHER")
    ('export LAUNCHER="accelerate launch --machine_rank \\$SLURM_PROCID \\\n'
     '    --num_machines 2"\nsrun --ntasks-per-node=1 bash -c "$LAUNCHER train.py"', []),
    ('export LAUNCHER="accelerate launch --machine_rank $SLURM_PROCID"\n'
     'srun --ntasks-per-node=1 bash -c "$LAUNCHER train.py"', [(5, "error")]),
    # one task per node: every task's local rank is the batch shell's 0
    ("export LOCAL_RANK=$SLURM_LOCALID\nsrun --ntasks-per-node=1 torchrun --nproc_per_node=8 "
     "train.py", []),
    ("export RANK=$SLURM_PROCID\nsrun --ntasks-per-node=8 python train.py", [(5, "error")]),
])
def test_per_rank_variables_the_batch_shell_does_not_expand_or_that_agree(body, found):
    text = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=dev-g\n"
            f"#SBATCH --time=1:00:00\n{body}\n")
    assert _all(text, "lumi", "ENV008") == found
