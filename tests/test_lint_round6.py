"""Lint round 6 (issue 31), before the blind measurement of the held-out set
tests/lint_users/heldout-2026-11-27c (so not tuned on it): idle devices on a queue whose nodes
other jobs share, launches written into a variable and run from it, and wrapper scripts named
for a framework."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text


def _all(text: str, site: str, rule: str) -> list[tuple[int, str]]:
    return [(f.line, f.severity) for f in lint(parse_text(text), load_profile(site).profile)
            if f.rule == rule]


# ---------------------------------------------------------------- GPU008 on shared nodes
AURORA_ONE_TILE = ("#!/bin/bash\n#PBS -A P\n#PBS -q {queue}\n#PBS -l select={select}\n"
                   "#PBS -l walltime=00:30:00\n#PBS -l filesystems=home:flare\n"
                   "module load frameworks\n"
                   "mpiexec -n 1 --ppn 1 --cpu-bind list:1-8 python train.py --device xpu\n")


@pytest.mark.parametrize(("queue", "select", "found"), [
    ("capacity", "1", [(8, "warning")]),     # whole nodes: 11 tiles idle and billed
    ("debug", "1", []),                      # "64 nodes (non-exclusive)": not held for the job
    ("debug", "1:ngpus=6", [(8, "warning")]),  # asks every GPU of the node, then holds them
    ("debug", "1:ngpus=1", []),
])
def test_idle_tiles_count_only_where_the_job_holds_them(queue, select, found):
    text = AURORA_ONE_TILE.format(queue=queue, select=select)
    assert _all(text, "aurora", "GPU008") == found


# ---------------------------------------------------------------- a launch kept in a variable
CMD_OVER_LINES = ("#!/bin/bash\n#PBS -A P\n#PBS -q prod\n#PBS -l select=512\n"
                  "#PBS -l walltime=01:00:00\n#PBS -l filesystems=home:flare\n"
                  "module load frameworks\n"
                  'CMD="mpiexec -np 6144 -ppn 12 -envall \\\n\t     ./gpu_tile_compact.sh \\\n'
                  '\t     ./Benchmark_dwf --mpi 8.8.8.12"\n'
                  "$CMD | tee out.txt\n")


def test_a_launch_written_over_continued_lines_inside_double_quotes_is_read_from_its_variable():
    # bash removes backslash-newline inside double quotes (bash(1) QUOTING), so CMD is one
    # line; `$CMD` runs it: 12 unbound ranks per node of a GPU wrapper
    from jobgen.review.scriptparse import parse_text as parse
    script = parse(CMD_OVER_LINES)
    assert script.variables["CMD"].split()[:4] == ["mpiexec", "-np", "6144", "-ppn"]
    assert "\\" not in script.variables["CMD"]
    assert _all(CMD_OVER_LINES, "aurora", "CPU009") == [(11, "warning")]


def test_an_escaped_backslash_at_the_end_of_a_quoted_line_is_no_continuation():
    from jobgen.review.scriptparse import _join_continued
    lines = ['X="a \\', 'b"', 'Y="a \\\\', 'b"']
    assert _join_continued(lines, 1, lines[0]) == ('X="a b"', 2)  # \<newline>: removed
    assert _join_continued(lines, 3, lines[2]) == ('Y="a \\\\\nb"', 4)  # \\: a backslash


# ---------------------------------------------------------------- a wrapper named for PyTorch
LUMI_WRAPPED = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
                "#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-node=8\n"
                "#SBATCH --time=01:00:00\n"
                "CONTAINER_SCRIPT=$(pwd -P)/run_pytorch.sh\n"
                "srun singularity exec -B /pfs:/pfs $CONTAINER $CONTAINER_SCRIPT $CFG main.yaml\n")


def test_a_script_named_for_a_framework_that_srun_runs_through_a_variable_is_an_ai_launch():
    # eight ranks on a standard-g node with srun's default binding: CPU009; the MIOpen cache
    # is not asked for, as run_pytorch.sh (not in the script) may set it
    assert _all(LUMI_WRAPPED, "lumi", "CPU009") == [(9, "warning")]
    assert _all(LUMI_WRAPPED, "lumi", "ENV002") == []


def test_a_script_the_job_writes_itself_is_read_for_the_settings():
    written = LUMI_WRAPPED.replace(
        "CONTAINER_SCRIPT=$(pwd -P)/run_pytorch.sh\n",
        "CONTAINER_SCRIPT=$(pwd -P)/run_pytorch.sh\ncat > $(pwd -P)/run_pytorch.sh << 'EOF'\n"
        "#!/bin/bash\npython train.py --epochs 3\nEOF\n")
    assert [r for r, _ in _all(written, "lumi", "ENV002")] == [13]


def test_a_per_rank_device_wrapper_is_no_script_that_hides_settings():
    text = LUMI_WRAPPED.replace("$CONTAINER_SCRIPT $CFG main.yaml",
                                "./select_gpu.sh python train.py --epochs 3")
    assert [r for r, _ in _all(text, "lumi", "ENV002")] == [9]
