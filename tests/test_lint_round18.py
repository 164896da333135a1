"""Lint round 18 (issue 31), tuned on blind misses the script itself shows: a Slurm launch of as
many tasks per node as the GPUs the job asks per node, on nodes it holds whole, with srun's
default binding (heldout-2026-11-27i's dgemm benchmark, heldout-2026-11-28q's KinetiX jobs)."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text


def _findings(text: str, site: str, rule: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.severity, f.message) for f in
            lint(parse_text(text), load_profile(site).profile) if f.rule == rule]


# ------------------------------------------------- CPU009: one task per GPU, srun's default
def lumi(partition: str = "standard-g", tasks: int = 2, gpus: str = "--gpus-per-node=2",
         extra: str = "") -> str:
    return ("#!/bin/bash\n#SBATCH -A project_465000567\n#SBATCH -t 02:00:00\n#SBATCH -N 1\n"
            f"#SBATCH -p {partition}\n#SBATCH --ntasks-per-node={tasks}\n#SBATCH {gpus}\n{extra}")


@pytest.mark.parametrize("gpus, tasks", [("--gpus-per-node=2", 2), ("--gpus-per-node=8", 8),
                                         ("--gres=gpu:4", 4), ("--gres=gpu:mi250:8", 8)])
def test_as_many_tasks_as_gpus_per_node_unbound_on_whole_nodes_is_reported(gpus, tasks):
    text = lumi(tasks=tasks, gpus=gpus) + "srun bin/nekcrf_bk --backend HIP --n-states 238000\n"
    found = _findings(text, "lumi", "CPU009")
    assert [(line, sev) for line, sev, _ in found] == [(8, "warning")]
    assert f"{tasks} ranks per node with no binding" in found[0][2]
    assert "srun's default binding" in found[0][2]


def test_a_benchmarks_many_identical_launches_are_told_once():
    runs = "".join(f"srun bin/nekcrf_bk --n-states {n}\nrm -rf .cache/\n" for n in (1, 2, 3, 4))
    found = _findings(lumi() + runs, "lumi", "CPU009")
    assert [line for line, _, _ in found] == [8]


def test_the_layout_is_told_again_for_another_count_of_tasks():
    text = lumi(tasks=8, gpus="--gpus-per-node=8") + "srun ./app\nsrun --ntasks-per-node=8 " \
        "./app2\nsrun -n 4 --ntasks-per-node=4 --gpus-per-node=4 ./app3\n"
    assert [line for line, _, _ in _findings(text, "lumi", "CPU009")] == [8, 10]


@pytest.mark.parametrize("partition, tasks, gpus, extra, run", [
    # a shared partition: Slurm picks the cores and GCDs of the job
    ("small-g", 2, "--gpus-per-node=2", "", "srun ./app\n"),
    # fewer tasks than GPUs: not one task per GPU (a rank may drive several)
    ("standard-g", 2, "--gpus-per-node=8", "", "srun ./app\n"),
    # one task per node
    ("standard-g", 1, "--gpus-per-node=1", "", "srun ./app\n"),
    # bound next to the GCDs (the LUMI guide's map)
    ("standard-g", 8, "--gpus-per-node=8", "",
     "srun --cpu-bind=map_cpu:49,57,17,25,1,9,33,41 ./app\n"),
    # a housekeeping step
    ("standard-g", 2, "--gpus-per-node=2", "", "srun hostname\n"),
    # a monitor beside the work
    ("standard-g", 2, "--gpus-per-node=2", "", "srun --overlap ./monitor\n"),
])
def test_other_layouts_are_left_alone(partition, tasks, gpus, extra, run):
    text = lumi(partition, tasks, gpus, extra) + run
    assert _findings(text, "lumi", "CPU009") == []


def test_a_shared_partition_taken_whole_counts_as_whole_nodes():
    text = lumi("small-g", 8, "--gpus-per-node=8", "#SBATCH --exclusive\n") + "srun ./app\n"
    assert [line for line, _, _ in _findings(text, "lumi", "CPU009")] == [9]
