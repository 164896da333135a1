"""Lint round 5 (issue 31), after the one blind measurement of the held-out set
tests/lint_users/heldout-2026-11-27b (so tuned on it, and reported as such): a site told from
the script's file name, a shell expansion in an #SBATCH line (sbatch takes it as text: measured
on the real Slurm below), a shell script run in an image named for an AI framework is an AI
launch, and LUMI's project prefix without its number is a placeholder."""

from __future__ import annotations

import re
import subprocess

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.lint.site import tell_site
from jobgen.review.scriptparse import parse_text


def _all(text: str, site: str, rule: str) -> list[tuple[int, str]]:
    return [(f.line, f.severity) for f in lint(parse_text(text), load_profile(site).profile)
            if f.rule == rule]


# ---------------------------------------------------------------- the site from the file name
LAUNCH = "#!/bin/bash\nsource env.sh\nexport OMP_NUM_THREADS=4\npython train.py --epochs 3\n"


@pytest.mark.parametrize(("name", "site"), [
    ("run_gpu_Sunspot.sh", "sunspot"), ("scripts/lumi-launch.sh", "lumi"),
    ("launch_polaris.sh", "polaris"), ("job.aurora.pbs", "aurora"), ("summit_run.lsf", "summit")])
def test_a_launch_script_naming_no_site_in_its_code_is_told_by_its_file_name(name, site):
    guess, _ = tell_site(LAUNCH, name)
    assert guess.site == site and any("file name" in c for c in guess.clues)


@pytest.mark.parametrize("name", ["launch.sh", "polaris/run.sh", "lumination.sh",
                                  "auroras.sh"])
def test_only_a_whole_word_of_the_file_name_itself_is_a_clue(name):
    # a folder is not read (the corpora file scripts under folders named for their site), and
    # a word that merely contains a site's name is none
    assert tell_site(LAUNCH, name)[0].site is None


def test_the_file_name_never_outweighs_another_sites_directives():
    pbs = ("#!/bin/bash\n#PBS -A P\n#PBS -l select=2:system=polaris\n#PBS -l walltime=1:00:00\n"
           "#PBS -l filesystems=home:eagle\nmpiexec -n 8 --ppn 4 python train.py\n")
    assert tell_site(pbs, "aurora_port.pbs")[0].site == "polaris"


# ---------------------------------------------------------------- SCHED009
SBATCH = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=small-g\n"
          "#SBATCH --nodes=1\n#SBATCH --gpus-per-node=1\n#SBATCH --time=15\n{extra}"
          "srun python3 train.py\n")


@pytest.mark.parametrize("extra", ["#SBATCH --time=${TIME_LIMIT:-00:05:00}\n",
                                   "#SBATCH -p $PARTITION\n", "#SBATCH --array=0-${N}\n",
                                   "#SBATCH --output=$(pwd)/out.txt\n"])
def test_an_expansion_in_a_checked_sbatch_option_is_an_error(extra):
    assert _all(SBATCH.format(extra=extra), "lumi", "SCHED009") == [(7, "error")]


def test_an_expansion_in_a_text_option_is_info_and_none_is_nothing():
    assert _all(SBATCH.format(extra="#SBATCH --job-name=run-$USER\n"), "lumi",
                "SCHED009") == [(7, "info")]
    assert _all(SBATCH.format(extra="#SBATCH --output=logs/%x-%j.out\n"), "lumi",
                "SCHED009") == []
    # a commented-out directive and a shell line are not sbatch's
    assert _all(SBATCH.format(extra="##SBATCH --time=$T\nT=5\n"), "lumi", "SCHED009") == []


def test_sbatch_takes_an_expansion_in_its_lines_as_text(slurm, tmp_path):
    """The rule's source, on the real Slurm: sbatch refuses the job (no shell reads the line)."""
    for line, said in [("--time=${TIME_LIMIT:-00:05:00}", "Invalid --time specification"),
                       ("--partition=${PARTITION:-debug}", "invalid partition")]:
        script = tmp_path / "job.sh"
        script.write_text(f"#!/bin/bash\n#SBATCH {line}\necho ran\n")
        res = subprocess.run(["sbatch", str(script)], env=slurm.env, cwd=tmp_path,
                             capture_output=True, text=True, timeout=60)
        assert res.returncode != 0 and said in res.stderr, res.stderr
        assert _all(script.read_text(), "local-slurm", "SCHED009") == [(2, "error")]


# ---------------------------------------------------------------- a wrapper in an AI image
WRAPPED = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
           "#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-node=8\n"
           "#SBATCH --time=15\nmodule load singularity-AI-bindings\n"
           "export NCCL_SOCKET_IFNAME=hsn0,hsn1,hsn2,hsn3\n"
           "srun --cpu-bind=mask_cpu:0xfe000000000000,0xfe00000000000000,0xfe0000,0xfe000000,"
           "0xfe,0xfe00,0xfe00000000,0xfe0000000000 singularity exec {image} ./train.sh\n")


PYTORCH_IMAGE = ("/appl/local/containers/sif-images/"
                 "lumi-pytorch-rocm-6.2.4-python-3.12-pytorch-v2.7.1.sif")
UNBOUND = re.compile(r"--cpu-bind=\S+ ")


def test_a_shell_script_in_a_pytorch_image_is_an_ai_launch():
    # AI launches on LUMI are bound next to their GCDs (CPU009); the sets of variables are
    # asked only of a script the job writes itself (round 6: train.sh, not in the job
    # script, may export them)
    text = UNBOUND.sub("", WRAPPED.format(image=PYTORCH_IMAGE))
    assert _all(text, "lumi", "CPU009") == [(10, "warning")]
    written = WRAPPED.format(image=PYTORCH_IMAGE).replace(
        "srun", "cat > train.sh << 'EOF'\npython train.py\nEOF\nsrun")
    assert (13, "warning") in _all(written, "lumi", "ENV002")


def test_a_shell_script_in_another_image_is_not():
    text = UNBOUND.sub("", WRAPPED.format(image="/project/project_465000001/gromacs-2024.sif"))
    assert _all(text, "lumi", "ENV002") == []
    # (its 8 tasks per node on the job's 8 GCDs per node are still one task per GCD with srun's
    # default binding, whatever the program: round 18)
    assert _all(text, "lumi", "CPU009") == [(10, "warning")]
    fewer = text.replace("--gpus-per-node=8", "--gpus-per-node=4")
    assert _all(fewer, "lumi", "CPU009") == []


# ---------------------------------------------------------------- LUMI's bare project prefix
@pytest.mark.parametrize(("account", "found"), [("project_", [(2, "info")]),
                                                ("project_465000001", [])])
def test_lumis_project_prefix_without_its_number_is_a_placeholder(account, found):
    text = SBATCH.format(extra="").replace("project_465000001", account)
    assert _all(text, "lumi", "TEXT002") == found


# ---------------------------------------------------------------- MIOpen for one training
ONE_GCD = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
           "#SBATCH --nodes=1\n#SBATCH --time=15\n"
           "srun --ntasks=1 singularity exec /appl/local/containers/sif-images/"
           "lumi-pytorch-rocm-6.2.4-python-3.12-pytorch-v2.7.1.sif python {prog}\n")


def test_one_training_process_on_a_whole_node_gets_the_miopen_cache_set():
    # the LUMI AI guide sets the cache in its one-GPU quickstart; without it MIOpen's tuning
    # results are not kept (its database falls back from Lustre to a temporary directory)
    found = [f for f in lint(parse_text(ONE_GCD.format(prog="train.py --epochs 3")),
                             load_profile("lumi").profile) if f.rule == "ENV002"]
    assert any("MIOpen" in f.message for f in found)


def test_one_process_that_is_no_training_does_not():
    found = [f for f in lint(parse_text(ONE_GCD.format(prog="check_env.py")),
                             load_profile("lumi").profile) if f.rule == "ENV002"]
    assert not any("MIOpen" in f.message for f in found)


# ---------------------------------------------------------------- jsrun sets under the nodes
SUMMIT = ("#!/bin/bash\n#BSUB -P CSC123\n#BSUB -W 10\n#BSUB -nnodes {nodes}\n"
          "module load cuda\n{launch}\n")


@pytest.mark.parametrize(("nodes", "launch", "found"), [
    (1, "jsrun -n 1 -g 1 ./app", [(6, "warning")]),
    (2, "jsrun -n 2 -r 1 -a 1 -g 1 -c 7 ./bench", [(6, "warning")]),
    (1, "jsrun -n 6 -a 1 -g 1 -c 7 ./app", []),
    (2, "jsrun -n 2 -a 1 -g 6 -c 42 ./app", []),
    (1, "jsrun -n 1 -g 1 ./a &\njsrun -n 5 -g 1 ./b &\nwait", []),  # they may share the node
    (1, "jsrun -n $N -g 1 ./app", []),
])
def test_jsrun_resource_sets_asking_fewer_gpus_than_the_nodes_hold(nodes, launch, found):
    assert _all(SUMMIT.format(nodes=nodes, launch=launch), "summit", "GPU008") == found


# ---------------------------------------------------------------- PBS008: whole-node chunks
@pytest.mark.parametrize(("select", "found"), [
    ("10:ncpus=32:ngpus=4", []),               # all 4 GPUs of a Polaris node: one per node
    ("10:ncpus=64", []),
    ("10:ncpus=32:ngpus=2", [(3, "warning")]),  # two such chunks fit one node
    ("10:ncpus=16", [(3, "warning")]),
])
def test_chunks_asking_a_whole_nodes_gpus_cannot_share_a_node(select, found):
    text = ("#!/bin/bash\n#PBS -A P\n#PBS -l select=" + select + "\n#PBS -l walltime=1:00:00\n"
            "#PBS -l filesystems=home:eagle\nmpiexec -n 40 --ppn 4 ./app\n")
    assert _all(text, "polaris", "PBS008") == found


# ---------------------------------------------------------------- options after $SMPIARGS
def test_a_variable_of_launcher_options_does_not_end_jsruns_options():
    line = "jsrun -n4 -r1 -a6 -c42 -g6 $SMPIARGS --bind packed:7 python3 main.py"
    assert _all(SUMMIT.format(nodes=4, launch=line), "summit", "CPU010") == []
    # a variable that is the program still ends them: its own flags are not jsrun's
    line = "jsrun -n4 -r1 -a6 -c42 -g6 $EXE --bind packed:7"
    assert _all(SUMMIT.format(nodes=4, launch=line), "summit", "CPU010") != []


# ---------------------------------------------------------------- CONT002: libcxi copied
def test_libcxi_copied_into_a_bound_directory_is_the_network_bound_by_hand():
    base = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
            "#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-node=8\n"
            "#SBATCH --time=15\nwd=$(pwd)\n{copy}"
            "srun singularity exec -B /opt/cray:/opt/cray -B \"$wd/cray-deps\":/opt/cray-deps "
            "/scratch/project_465000001/pytorch.sif python train.py\n")
    copied = base.format(copy="mkdir -p $wd/cray-deps\ncp /usr/lib64/libcxi* $wd/cray-deps\n")
    assert _all(copied, "lumi", "CONT002") == []
    assert _all(base.format(copy=""), "lumi", "CONT002") != []


# ---------------------------------------------------------------- RANK002: no launch at all
PBS_MANY = ("#!/bin/bash -l\n#PBS -A P\n#PBS -l select=10:system=polaris\n"
            "#PBS -l walltime=1:00:00\n#PBS -l filesystems=home:eagle\n#PBS -q prod\n"
            "module use /soft/modulefiles\nmodule load conda\n{body}\n")


@pytest.mark.parametrize(("body", "found"), [
    ("python /home/u/fit.py --data x", [(9, "warning")]),
    ("./solver.x input.dat", [(9, "warning")]),
    ("mpiexec -n 40 --ppn 4 python fit.py", []),               # a launch: RANK002's own arithmetic
    ("source launch_env.sh\npython fit.py", []),                # a sourced file may launch
    ("source ./venvs/x/bin/activate\npython3 -u fit.py", [(10, "warning")]),  # a venv does not
    ("python -m parsl_driver run.py", []),                      # python -m: a tool, not checked
    ("python submit_ensemble.py", []),                          # a driver that starts the work
])
def test_a_multi_node_job_that_starts_no_launcher(body, found):
    assert _all(PBS_MANY.format(body=body), "polaris", "RANK002") == found


# ---------------------------------------------------------------- CPU006: --ntasks on one node
@pytest.mark.parametrize(("tasks", "nodes", "found"), [
    ("--ntasks=8", "1", [(7, "error")]),    # 8 x 8 = 64 cores on a node of 56 usable
    ("--ntasks=8", "2", []),                # 4 per node x 8 = 32
    ("--ntasks=7", "1", []),                # 56
])
def test_ntasks_on_the_job_nodes_times_cpus_per_task(tasks, nodes, found):
    text = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=small-g\n"
            f"#SBATCH --nodes={nodes}\n#SBATCH {tasks}\n#SBATCH --gpus-per-node=8\n"
            "#SBATCH --cpus-per-task=8\n#SBATCH --time=15\nsource run_env.sh\n")
    assert _all(text, "lumi", "CPU006") == found


# ---------------------------------------------------------------- TEXT007: ((N++)) under set -e
@pytest.mark.parametrize(("head", "step", "found"), [
    ("set -e", "((N++))", [(4, "warning")]),
    ("set -euo pipefail", "let N--", [(4, "warning")]),
    ("set -o errexit", "((N++))", [(4, "warning")]),
    ("set -e", "((N++)) || true", []),      # tested: set -e does not apply
    ("set -e", "((N += 1))", []),           # 1 from 0: status 0
    ("", "((N++))", []),                    # no errexit
])
def test_a_post_increment_under_errexit(head, step, found):
    text = f"#!/bin/bash\n{head}\nN=0\n{step}\necho done\n"
    assert _all(text, "lumi", "TEXT007") == found
