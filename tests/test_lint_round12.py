"""Lint round 12 (issue 31), tuned on the held-out sets measured before
(tests/lint_users/heldout-2026-11-27b..k): misses of rules lint already has, read where lint
could not see the launch or its values."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text


def _findings(text: str, site: str, rule: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.severity, f.message) for f in
            lint(parse_text(text), load_profile(site).profile) if f.rule == rule]


# ---------------------------------------------- RANK002: a loop over node counts in one job
# A script with no node count of its own that loops over node counts (heldout-2026-11-27i's
# ERF scaling scripts): one allocation runs every step, so it holds the largest step's nodes
# and the smaller steps leave the rest idle.
SCALING = ("#!/bin/bash\nNRANKS_PER_NODE=12\nfor n_nodes in {sizes}\ndo\n"
           "  NTOTRANKS=$(( n_nodes * NRANKS_PER_NODE ))\n"
           "  mpiexec -n $NTOTRANKS --ppn $NRANKS_PER_NODE --depth=8 --cpu-bind depth ./app\n"
           "done\n")


def test_a_loop_over_node_counts_leaves_the_largest_steps_nodes_idle_in_the_smaller():
    found = _findings(SCALING.format(sizes="1 2 4 8 16"), "aurora", "RANK002")
    assert [(line, sev) for line, sev, _ in found] == [(6, "warning")]
    assert "largest step spreads over 16 nodes" in found[0][2]
    assert "steps on 1, 2, 4, 8 node(s) leave 15, 14, 12, 8 idle" in found[0][2]


@pytest.mark.parametrize("text", [
    SCALING.format(sizes="4 4"),  # every step the same size
    SCALING.format(sizes="16"),
    # each step on hosts of its own, beside the others
    SCALING.format(sizes="1 2").replace("./app", "./app &"),
])
def test_steps_of_one_size_or_on_their_own_hosts_are_not_reported(text):
    assert _findings(text, "aurora", "RANK002") == []


def test_with_a_node_count_in_the_directives_each_step_is_checked_against_it():
    # (the existing check: one finding per smaller step, against select=16)
    text = SCALING.format(sizes="8 16").replace(
        "#!/bin/bash\n", "#!/bin/bash\n#PBS -A proj\n#PBS -q prod\n#PBS -l select=16\n"
        "#PBS -l walltime=01:00:00\n#PBS -l filesystems=home:flare\n")
    found = _findings(text, "aurora", "RANK002")
    assert len(found) == 1 and "fill 8 of the 16 nodes" in found[0][2]


# ------------------------------ python -m debugpy / cProfile / pdb: the script they run
LUMI = ("#!/bin/bash\n#SBATCH --account=project_462000001\n#SBATCH --partition=standard-g\n"
        "#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=1\n"
        "#SBATCH --time=01:00:00\nSIF=/appl/local/containers/sif-images/pytorch.sif\n{body}\n")


@pytest.mark.parametrize("runner", [
    "python -m debugpy --listen 0.0.0.0:5678 --wait-for-client",
    "python3 -m cProfile -o prof.out",
    "python -m pdb",
])
def test_a_python_runner_module_runs_the_script_after_its_options(runner):
    body = f'singularity exec "$SIF" bash -lc "$WITH_CONDA && {runner} ablation.py --epochs 100"'
    found = _findings(LUMI.format(body=body), "lumi", "ENV002")
    assert [(line, sev) for line, sev, _ in found] == [(9, "warning")]
    assert "MIOPEN_USER_DB_PATH" in found[0][2]


def test_python_m_of_another_module_is_not_looked_through():
    # `python -m http.server` is no runner of a script: nothing is read as a training
    body = 'singularity exec "$SIF" python -m http.server 8000'
    assert _findings(LUMI.format(body=body), "lumi", "ENV002") == []


# ------------------------------------------------ csh: setenv and set as assignments
SUMMIT_CSH = ("#!/bin/csh\n#BSUB -P CSC304\n#BSUB -W 0:10\n#BSUB -nnodes 1\n#BSUB -q debug\n"
              "module load cuda\n{body}\n")


def test_a_csh_scripts_setenv_gives_the_launch_its_values():
    body = ("set exe = ~/ELPA/main\nsetenv NUM_RES 4\nsetenv OMP_NUM_THREADS 7\n"
            "jsrun -n $NUM_RES -a 1 -g 1 -c 7 -b packed:7 $exe 2048")
    found = _findings(SUMMIT_CSH.format(body=body), "summit", "GPU008")
    assert [(line, sev) for line, sev, _ in found] == [(10, "warning")]
    assert "jsrun -n 4 -g 1: 4 GPU(s) of the 6" in found[0][2]


def test_setenv_with_every_gpu_is_clean_and_bash_set_is_no_assignment():
    body = "setenv NUM_RES 6\njsrun -n $NUM_RES -a 1 -g 1 -c 7 -b packed:7 ./main"
    assert _findings(SUMMIT_CSH.format(body=body), "summit", "GPU008") == []
    # in a bash script `set -e` and `set x = 4` are no assignments of csh's
    bash = SUMMIT_CSH.format(body="set NUM_RES = 4\njsrun -n $NUM_RES -a 1 -g 1 -c 7 ./main")
    bash = bash.replace("#!/bin/csh", "#!/bin/bash")
    assert _findings(bash, "summit", "GPU008") == []


# ------------------------- the site's framework module makes the batch shell's python an AI run
AURORA = ("#!/bin/bash\n#PBS -A proj\n#PBS -q debug\n#PBS -l select=1\n#PBS -l walltime=01:00:00\n"
          "#PBS -l filesystems=home:flare\n{module}\npython run_test.py --config $cfg{tail}\n")


def test_a_python_program_after_the_sites_framework_module_is_read_as_a_launch():
    # Aurora's `frameworks` module is the profile's PyTorch module: `module add` loads it too
    for module in ("module load frameworks", "module add frameworks",
                   "module load frameworks/2025.0"):
        found = _findings(AURORA.format(module=module, tail=""), "aurora", "TEXT012")
        assert [(line, sev) for line, sev, _ in found] == [(8, "warning")], module
    # no framework module: a Python script of unknown purpose, not read as the job's launch
    assert _findings(AURORA.format(module="module load cmake", tail=""), "aurora", "TEXT012") == []


def test_an_unset_extra_arguments_word_at_the_lines_end_is_not_reported():
    # `... --config polaris $args`: the hook for `qsub -v args=...`; empty, it changes nothing
    text = AURORA.format(module="module load frameworks", tail=" --device xpu $args")
    assert [m for _, _, m in _findings(text, "aurora", "TEXT012")] == [
        m for _, _, m in _findings(AURORA.format(module="module load frameworks", tail=""),
                                   "aurora", "TEXT012")]
    assert all("$args" not in m for _, _, m in _findings(text, "aurora", "TEXT012"))
    # after an option it is the option's value: still reported
    text = AURORA.format(module="module load frameworks", tail=" --device $dev")
    assert any("$dev" in m for _, _, m in _findings(text, "aurora", "TEXT012"))


# ------------------------------------------ a module's fallback after || is not a misspelling
POLARIS_MOD = ("#!/bin/bash\n#PBS -A proj\n#PBS -q debug\n#PBS -l select=1:system=polaris\n"
               "#PBS -l walltime=00:30:00\n#PBS -l filesystems=home:eagle\n{module}\n"
               "mpiexec -n 4 --ppn 4 ./app\n")


def test_a_fallback_module_after_or_is_not_read_as_loaded():
    # found by the in-repo run (Ok-Topk-Analysis's polaris_env_modules.sh): `module load a
    # 2>/dev/null || module load b` loads b only where a fails; the redirection is the shell's
    module = ("module load craype-accel-nvidia80 2>/dev/null || "
              "module load craype-accel-nvidia70 2>/dev/null || true")
    assert _findings(POLARIS_MOD.format(module=module), "polaris", "MODULE005") == []
    # both of an && list load, and a misspelt one there is still reported
    module = "module load craype-accel-nvidia80 && module load craype-accel-nvidia70"
    found = _findings(POLARIS_MOD.format(module=module), "polaris", "MODULE005")
    assert len(found) == 1 and "craype-accel-nvidia70" in found[0][2]


# -------------------------------------------- TEXT006: an unresolved git merge conflict
# heldout-2026-11-27l's test_amd_embedding.sh (DylanJoo/mdrag): committed with the markers; the
# `<<<<<<<` line was read as a here-document, so lint refused the file as no job script.
CONFLICT = ("<<<<<<< Updated upstream\n#!/bin/sh\n#SBATCH --account=project_465000001\n"
            "#SBATCH --partition=small-g\n#SBATCH --gres=gpu:nvidia_rtx_a6000:1\n"
            "#SBATCH --time=120:00:00\n=======\n#!/bin/bash\n"
            "#SBATCH --account=project_465000001\n#SBATCH --partition=small-g\n"
            "#SBATCH --gpus-per-node=1\n#SBATCH --time=01:00:00\n>>>>>>> Stashed changes\n"
            "srun python embed.py --epochs 1\n")


def test_conflict_markers_are_the_one_finding():
    found = [(f.rule, f.line, f.severity, f.message) for f in
             lint(parse_text(CONFLICT), load_profile("lumi").profile)]
    assert [(r, line, sev) for r, line, sev, _ in found] == [("TEXT006", 1, "error")]
    assert "marker lines 1, 7, 13" in found[0][3] and "not the first line" in found[0][3]


@pytest.mark.parametrize("text", [
    # a here-document whose delimiter looks like none of git's markers
    "#!/bin/bash\ncat <<EOF > a.txt\n=======\nEOF\nsrun ./app\n",
    # `=======` alone (a banner echoed by the script) opens no conflict
    "#!/bin/bash\necho =======\n=======\nsrun ./app\n",
])
def test_no_conflict_without_an_opening_marker(text):
    script = parse_text(text)
    assert script.conflicts == []
