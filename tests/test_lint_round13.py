"""Lint round 13 (issue 31), tuned on the held-out sets measured before
(tests/lint_users/heldout-2026-11-27b..l): a file name that names another site than the code,
another site's queue on a site whose queue list is not public, and two notes (info) for what a
program decides itself, which lint cannot read: the device each rank takes, and how many
devices one process uses."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.lint.site import tell_site
from jobgen.review.scriptparse import parse_text


def _findings(text: str, site: str, rule: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.severity, f.message) for f in
            lint(parse_text(text), load_profile(site).profile) if f.rule == rule]


# ------------------------------------- the file's name against the code's clues: ask --site
# heldout-2026-11-27k's train_llama_alcf_aurora.sh asks filesystems=eagle (Polaris's) under a
# name that says Aurora; lint picked Polaris silently and reported nothing of the job's two
# refusals on Aurora.
PBS = ("#!/bin/bash\n#PBS -A proj\n#PBS -q prod\n#PBS -l select=48\n#PBS -l walltime=06:00:00\n"
       "#PBS -l filesystems=eagle:home\ncd $PBS_O_WORKDIR\n")


def test_a_file_name_naming_another_site_than_the_code_makes_a_conflict():
    guess, _ = tell_site(PBS, "scripts/train_llama_alcf_aurora.sh")
    assert guess.site is None
    assert "several sites" in guess.reason
    assert any(c.startswith("polaris: filesystem eagle") for c in guess.clues)
    assert any("aurora: the file name (train_llama_alcf_aurora.sh)" in c for c in guess.clues)


@pytest.mark.parametrize("name, site", [
    ("train_polaris.sh", "polaris"),  # the name agrees with the code
    ("train.sh", "polaris"),  # the name names no site
    ("polaris_to_aurora.sh", "polaris"),  # the name names two: not one site's name
])
def test_a_file_name_that_agrees_or_names_no_one_site_leaves_the_code_to_decide(name, site):
    assert tell_site(PBS, f"scripts/{name}")[0].site == site


def test_with_the_site_told_both_refusals_on_aurora_are_reported():
    profile = load_profile("aurora").profile
    found = {(f.rule, f.line, f.severity) for f in lint(parse_text(PBS), profile)}
    assert ("QUEUE001", 3, "error") in found  # prod takes 256+ nodes on Aurora
    assert ("ALCF003", 6, "error") in found  # no eagle on Aurora


# ------------------------- QUEUE002: another site's queue where the queue list is not public
def test_another_sites_queue_on_sunspot_is_a_note_as_its_queue_list_is_not_public():
    text = PBS.replace("select=48", "select=2").replace("eagle:home", "home:tegu")
    found = _findings(text, "sunspot", "QUEUE002")
    assert [(line, sev) for line, sev, _ in found] == [(3, "info")]
    assert "one of aurora's queues" in found[0][2] and "not public" in found[0][2]


def test_another_sites_queue_on_a_site_with_a_public_queue_list_stays_an_error():
    text = PBS.replace("-q prod", "-q workq").replace("select=48", "select=2").replace(
        "eagle:home", "home:flare")
    found = _findings(text, "aurora", "QUEUE002")
    assert [(line, sev) for line, sev, _ in found] == [(3, "error")]
    assert "one of sunspot's queues, not one of aurora's" in found[0][2]


# ----------------------------- CPU007 (info): the device a rank takes when the script says none
# ALCF's own training course binds `list:0,1:8,9:16,17:24,25` and the program takes GPU r for
# local rank r (heldout-2026-11-27l, read in the repositories); on Polaris GPU 0 is next to
# cores 24-31 (the guide's wrapper gives the GPUs in reverse).
POLARIS = ("#!/bin/bash\n#PBS -A proj\n#PBS -q debug\n#PBS -l select=1\n"
           "#PBS -l walltime=01:00:00\n#PBS -l filesystems=home:eagle\n"
           "module use /soft/modulefiles\nmodule load conda\n{body}\n")


def test_ranks_bound_in_core_order_with_no_device_per_rank_get_a_note():
    body = "mpiexec -n 4 --ppn 4 --cpu-bind list:0,1:8,9:16,17:24,25 python train_ddp.py"
    found = _findings(POLARIS.format(body=body), "polaris", "CPU007")
    assert [(line, sev) for line, sev, _ in found] == [(9, "info")]
    assert "if it takes device r for local rank r" in found[0][2]
    assert "local rank(s) 0, 1, 2, 3" in found[0][2]
    assert "set_affinity_gpu_polaris.sh gives device [3, 2, 1, 0]" in found[0][2]


def test_one_rank_per_node_on_core_0_gets_the_note_too():
    body = "mpiexec -n 2 --ppn 1 --cpu-bind list:0 python train_ddp.py"
    found = _findings(POLARIS.format(body=body), "polaris", "CPU007")
    assert [(line, sev) for line, sev, _ in found] == [(9, "info")]
    assert "local rank(s) 0 " in found[0][2]


@pytest.mark.parametrize("body", [
    # ranks bound next to the GPU of their local rank: nothing far
    "mpiexec -n 4 --ppn 4 --cpu-bind list:24-31:16-23:8-15:0-7 python train_ddp.py",
    # the site's wrapper says which GPU each rank takes (the guide's reverse order)
    "mpiexec -n 4 --ppn 4 --cpu-bind list:0-7:8-15:16-23:24-31 ./set_affinity_gpu_polaris.sh "
    "python train_ddp.py",
    # no binding: nothing to compare
    "mpiexec -n 4 --ppn 4 python train_ddp.py",
    # not an AI program
    "mpiexec -n 4 --ppn 4 --cpu-bind list:0:8:16:24 ./stream",
])
def test_ranks_next_to_their_usual_device_or_with_the_mapping_seen_get_no_note(body):
    assert _findings(POLARIS.format(body=body), "polaris", "CPU007") == []


def test_a_mapping_the_script_gives_is_checked_as_before_a_warning():
    # (CUDA_VISIBLE_DEVICES per rank in a wrapper the script writes: the existing check)
    body = ("cat > gpu.sh <<'EOF'\n#!/bin/bash\nexport CUDA_VISIBLE_DEVICES=$PMI_LOCAL_RANK\n"
            "exec \"$@\"\nEOF\nchmod +x gpu.sh\n"
            "mpiexec -n 4 --ppn 4 --cpu-bind list:0-7:8-15:16-23:24-31 ./gpu.sh python "
            "train_ddp.py")
    found = _findings(POLARIS.format(body=body), "polaris", "CPU007")
    assert [sev for _, sev, _ in found] == ["warning"]


# ------------------------- GPU008 (info): one process whose device use the script does not say
# heldout-2026-11-27f/i/j/l: one `python train.py` in the batch shell of a whole Polaris node,
# its one device read in the program's own code.
def test_one_ai_process_in_the_batch_shell_of_a_whole_node_gets_a_note():
    found = _findings(POLARIS.format(body="python train_resnet34.py --epochs 10"), "polaris",
                      "GPU008")
    assert [(line, sev) for line, sev, _ in found] == [(9, "info")]
    assert "if it uses one device" in found[0][2] and "3 device(s) of each node idle" in \
        found[0][2]


@pytest.mark.parametrize("body", [
    "python $DRIVER --config run.yaml",  # the program is in a variable
    "python cifar10.py --rounds 40 --parsl_executor polaris_local",  # it farms work out
    "python run_parallel_workflow.py",
    "CUDA_VISIBLE_DEVICES=0,1,2,3 python train.py",  # the script says its devices
    "python -c 'import torch; print(torch.cuda.device_count())'",  # a check, no program
    "python train.py --ngpus 4",  # it says it uses several
    "mpiexec -n 4 --ppn 4 python train.py",  # a launch: no batch-shell process
])
def test_a_process_whose_devices_the_script_says_or_cannot_say_gets_no_note(body):
    assert [sev for _, sev, _ in _findings(POLARIS.format(body=body), "polaris", "GPU008")
            if sev == "info"] == []


def test_a_process_told_to_use_one_device_keeps_the_warning_and_no_note_beside_it():
    found = _findings(POLARIS.format(body="python train.py --device cuda"), "polaris",
                      "GPU008")
    assert [sev for _, sev, _ in found] == ["warning"]


def test_a_shared_queue_gets_no_note():
    # LUMI small-g is allocated by resources: the node is not billed whole
    text = ("#!/bin/bash\n#SBATCH --account=project_462000001\n#SBATCH --partition=small-g\n"
            "#SBATCH --nodes=1\n#SBATCH --gpus=1\n#SBATCH --time=01:00:00\n"
            "python train.py --epochs 3\n")
    assert _findings(text, "lumi", "GPU008") == []


# -------------------------------------------- RANK002: jsrun without -r fills the first node
# OLCF's Summit guide (olcf/olcf-user-docs @ 2745903 systems/summit_user_guide.rst L1522-1563):
# `jsrun -n12 -a2 -g1 -c2` puts ranks 0-11 (six sets, the node's six GPUs) on the first node and
# rank 12 on the next. heldout-2026-11-27j's XGCm jobs ask -nnodes 2 for six one-GPU sets.
SUMMIT = "#!/bin/bash\n#BSUB -P PHY122\n#BSUB -W 0:10\n#BSUB -nnodes {nodes}\n{body}\n"


def test_jsrun_without_rs_per_host_fills_the_first_node_and_leaves_the_next_idle():
    text = SUMMIT.format(nodes=2, body="jsrun -n 6 -a 1 -c 1 -g 1 ./XGCm input")
    found = _findings(text, "summit", "RANK002")
    assert [(line, sev) for line, sev, _ in found] == [(5, "warning")]
    assert "6 ranks at 6 per node fill 1 of the 2 nodes" in found[0][2]
    assert "without -r, jsrun fills the first node" in found[0][2]


@pytest.mark.parametrize("nodes, body", [
    (2, "jsrun -n 12 -a 1 -c 1 -g 1 ./XGCm input"),  # 12 one-GPU sets: both nodes
    (2, "jsrun -n 6 -r 3 -a 1 -c 7 -g 1 ./XGCm input"),  # -r spreads them
    (2, "jsrun -n 2 -a 1 -c 42 -g 6 ./XGCm input"),  # a whole node per set
    (1, "jsrun -n 6 -a 1 -c 1 -g 1 ./XGCm input"),
])
def test_jsrun_sets_that_reach_every_node_are_not_reported(nodes, body):
    assert _findings(SUMMIT.format(nodes=nodes, body=body), "summit", "RANK002") == []


# ------------------------------------ after the blind run of heldout-2026-11-27m (tuned on it)
LUMI = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=small-g\n"
        "#SBATCH --nodes=1\n#SBATCH --gpus-per-node=1\n#SBATCH --ntasks-per-node=1\n"
        "#SBATCH --time=01:00:00\n{body}\n")


def test_a_library_variable_with_its_prefix_misspelt_is_reported():
    found = _findings(LUMI.format(body="export NCLL_DEBUG=WARN\nsrun python train.py"), "lumi",
                      "ENV001")
    assert [(line, sev) for line, sev, _ in found] == [(8, "error")]
    assert "the library reads NCCL_DEBUG" in found[0][2]


@pytest.mark.parametrize("name", [
    "NCCL_MIN_CHANNELS",  # under NCCL's own prefix: ENV007's (an unknown NCCL variable)
    "MY_DEBUG_X",  # far from every library variable
])
def test_names_under_a_library_prefix_or_far_from_one_are_not_env001(name):
    assert _findings(LUMI.format(body=f"export {name}=1\nsrun python train.py"), "lumi",
                     "ENV001") == []


@pytest.mark.parametrize("line", [
    '#bsub -env "all, mdir=chr22, input=input.cfg" -J chr22 2_validate_and_select_best.lsf',
    "#sbatch --export=mdir=chr22 --job-name=validate 2_validate_and_select_best.sbatch",
])
def test_a_commented_out_submission_command_is_no_misspelt_directive(line):
    text = SUMMIT.format(nodes=1, body=f"{line}\njsrun -n 1 -a 1 -c 42 -g 6 -b packed:42 ./app")
    assert _findings(text, "summit", "SCHED011") == []


def test_a_lowercase_directive_in_the_directive_block_is_still_reported():
    text = "#!/bin/bash\n#BSUB -P ABC123\n#bsub -W 30\n#BSUB -nnodes 1\njsrun -n 1 ./app\n"
    assert [line for line, _, _ in _findings(text, "summit", "SCHED011")] == [3]


@pytest.mark.parametrize("prefix", ["timeout 360", "timeout -s KILL 2h",
                                    "$subdir/with_postgresql.sh tile_22"])
def test_a_launch_behind_timeout_or_a_wrapper_scripts_arguments_is_read(prefix):
    text = SUMMIT.format(nodes=1, body=f"{prefix} jsrun -r 50 -g 1 -c 7 -b packed:7 ./app")
    found = {f.rule for f in lint(parse_text(text), load_profile("summit").profile)}
    assert {"GPU001", "CPU006"} <= found


def test_jsrun_sets_per_host_whose_gpus_outnumber_the_node_are_gpu001s():
    # (GPU001 has told this since round 4; no second rule for it)
    found = _findings(SUMMIT.format(nodes=1, body="jsrun -r 7 -g 1 -c 6 -b packed:6 ./app"),
                      "summit", "GPU001")
    assert [(line, sev) for line, sev, _ in found] == [(5, "error")]
    assert _findings(SUMMIT.format(nodes=1, body="jsrun -r 6 -g 1 -c 7 ./app"), "summit",
                     "GPU001") == []


def test_a_summit_module_removed_with_rhel8_is_an_error():
    # olcf-user-docs software/software-news.rst L709-852 (August 2021: versions removed)
    body = "module load open-ce/1.1.3-py37-0\nmodule load cuda/10.1.243\njsrun -n 1 ./app"
    found = _findings(SUMMIT.format(nodes=1, body=body), "summit", "MODULE002")
    assert [(line, sev) for line, sev, _ in found] == [(5, "error"), (6, "error")]
    assert "a build of open-ce/1.1.3" in found[0][2] and "August 17-19, 2021" in found[1][2]
    ok = SUMMIT.format(nodes=1, body="module load cuda/11.0.3\njsrun -n 1 ./app")
    assert _findings(ok, "summit", "MODULE002") == []


def test_an_escaped_dollar_in_an_export_outside_a_here_document():
    found = _findings(LUMI.format(body="export ROCR_VISIBLE_DEVICES=\\$SLURM_LOCALID\n"
                                       "srun python train.py"), "lumi", "TEXT014")
    assert [(line, sev) for line, sev, _ in found] == [(8, "warning")]
    assert "the text $SLURM_LOCALID" in found[0][2]


@pytest.mark.parametrize("body", [
    # in the here-document of the wrapper: the escape defers the expansion to each rank
    "cat << EOF > select_gpu\n#!/bin/bash\nexport ROCR_VISIBLE_DEVICES=\\$SLURM_LOCALID\n"
    "exec \\$*\nEOF\nsrun ./select_gpu python train.py",
    # in a string another shell runs
    'srun bash -c "export LOCAL_RANK=\\$SLURM_LOCALID && python train.py"',
    # evaluated later on purpose
    "export CMD=\\$HOME/run.sh\neval \"$CMD\"",
])
def test_an_escaped_dollar_where_the_escape_is_meant_is_not_reported(body):
    assert _findings(LUMI.format(body=body), "lumi", "TEXT014") == []


# ----------------------------- PBS009: a relative path before any cd, from the home directory
# OpenPBS src/resmom/start_exec.c L4438-4465: the job starts in the user's home directory.
PBS_JOB = ("#!/bin/bash -l\n#PBS -A proj\n#PBS -q debug\n#PBS -l select=1\n"
           "#PBS -l walltime=01:00:00\n#PBS -l filesystems=home:eagle\n{body}\n")


@pytest.mark.parametrize("body, line, path", [
    ("# cd $PBS_O_WORKDIR\npython ./3_ml_in_the_loop.py", 8, "./3_ml_in_the_loop.py"),
    ("source ../polaris_env_modules.sh\ncd $PBS_O_WORKDIR", 7, "../polaris_env_modules.sh"),
    ("mpiexec -n 4 --ppn 4 ./hello_affinity", 7, "./hello_affinity"),
    ("OMP_NUM_THREADS=1 bash run.sh", 7, "run.sh"),
])
def test_a_relative_path_before_any_cd_in_a_pbs_job(body, line, path):
    found = _findings(PBS_JOB.format(body=body), "polaris", "PBS009")
    assert [(n, sev) for n, sev, _ in found] == [(line, "warning")]
    assert f"`{path}` is a relative path" in found[0][2]


@pytest.mark.parametrize("body", [
    "cd $PBS_O_WORKDIR\npython train.py",
    "cd /eagle/proj/run && ./app",
    "source $PBS_O_WORKDIR/env.sh\npython train.py",  # the sourced file may change directory
    "python /eagle/proj/train.py",
    "python path/to/application.py",  # a placeholder
    "python -c 'import torch'",
])
def test_a_cd_first_or_full_paths_are_not_reported(body):
    assert _findings(PBS_JOB.format(body=body), "polaris", "PBS009") == []


def test_slurm_and_scripts_without_pbs_directives_are_not_pbs009s():
    # (sbatch starts the job where it was submitted; a script without directives is run by hand)
    assert _findings("#!/bin/bash\ncd_not=1\npython train.py\nmpiexec -n 4 ./app\n", "polaris",
                     "PBS009") == []
    assert _findings(LUMI.format(body="python train.py"), "lumi", "PBS009") == []


# ------------------------- CPU011 for jsrun: a resource set's default one core, many workers
# OLCF Summit guide summit_user_guide.rst L1537-1538: "The default -c core count is 1".
@pytest.mark.parametrize("body", [
    "jsrun -n1 fairseq-preprocess --only-source --workers 60",
    "export OMP_NUM_THREADS=8\njsrun -n 6 -a 1 -g 1 ./app",
    "jsrun -n 6 -a 2 -c 2 -g 1 python train.py --num_workers 4",
])
def test_jsrun_tasks_of_one_core_with_more_threads(body):
    found = _findings(SUMMIT.format(nodes=1, body=body), "summit", "CPU011")
    assert [sev for _, sev, _ in found] == ["warning"]
    assert "jsrun's default -c is 1" in found[0][2]


@pytest.mark.parametrize("body", [
    "jsrun -n1 -c 42 -b packed:42 fairseq-preprocess --workers 40",
    "jsrun -n1 -b none fairseq-preprocess --workers 60",  # unbound: threads float
    "jsrun -n 6 -a 1 -c 7 -g 1 python train.py --num_workers 1",
])
def test_jsrun_tasks_with_their_cores_or_one_thread_are_not_reported(body):
    assert _findings(SUMMIT.format(nodes=1, body=body), "summit", "CPU011") == []
