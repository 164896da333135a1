"""Lint's fixes from the second held-out measurement of issue 31
(tests/lint_users/heldout-2026-11-27/README.md), made after that set was measured blind."""

from __future__ import annotations

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.lint.queue import walltime_seconds
from jobgen.review.scriptparse import parse_text

POLARIS = ("#!/bin/bash -l\n#PBS -A proj\n#PBS -l select=1:system=polaris\n"
           "#PBS -l walltime={wt}\n#PBS -l filesystems=home:eagle\n#PBS -q {queue}\n"
           "echo hello\n")


def _findings(text: str, site: str) -> dict[str, str]:
    return {f.rule: f.severity for f in lint(parse_text(text), load_profile(site).profile)}


# The schedulers add a walltime's fields up with no upper bound on minutes or seconds:
# OpenPBS decode_time (src/lib/Libattr/attr_fn_time.c @ 07d7660c: rv = rv * 60 + field),
# Slurm time_str2secs (src/common/parse_time.c: h * 3600 + m * 60 + s), IBM bsub -W ("The
# minutes can be specified as a number greater than 59"). 0:60:00 is one hour, not an error.
@pytest.mark.parametrize(("dialect", "value", "seconds"), [
    ("pbs", "0:60:00", 3600), ("pbs", "00:90:00", 5400), ("pbs", "1:00:90", 3690),
    ("slurm", "0:90:00", 5400), ("slurm", "90:75", 5475), ("lsf", "1:90", 9000),
])
def test_uncarried_walltime_fields_are_added_up_as_the_schedulers_do(dialect, value, seconds):
    got, note = walltime_seconds(dialect, value)
    assert got == seconds and note


def test_an_uncarried_walltime_is_style_not_an_error():
    found = _findings(POLARIS.format(wt="0:60:00", queue="debug"), "polaris")
    assert found.get("WALL003") == "info"


def test_the_queue_limit_is_checked_on_the_added_up_walltime():
    # debug on Polaris: at most 1 hour; 0:90:00 is 1 h 30 min to PBS, so over the limit
    found = _findings(POLARIS.format(wt="0:90:00", queue="debug"), "polaris")
    assert "WALL001" in found, found


LUMI = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition={part}\n"
        "#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=1\n#SBATCH {gpus}\n#SBATCH --time=15\n"
        "source run/common.sh\n")


# LUMI standard-g gives and bills whole nodes of 8 GCDs (the site profile's partition family):
# asking for fewer leaves the rest idle whatever the script runs, also when the launch is in a
# sourced file lint cannot read.
@pytest.mark.parametrize("gpus", ["--gpus-per-node=1", "--gres=gpu:2", "--gpus-per-node=6"])
def test_fewer_gpus_than_a_whole_standard_g_node_are_idle_devices(gpus):
    assert "GPU008" in _findings(LUMI.format(part="standard-g", gpus=gpus), "lumi")


@pytest.mark.parametrize(("part", "gpus"), [
    ("standard-g", "--gpus-per-node=8"), ("small-g", "--gpus-per-node=1"),
    ("standard-g", "--gpus-per-node=$NGPUS")])
def test_a_whole_node_or_a_shared_partition_asks_for_no_idle_devices(part, gpus):
    assert "GPU008" not in _findings(LUMI.format(part=part, gpus=gpus), "lumi")


def test_a_shared_partition_taken_whole_for_its_memory_is_not_called_idle_devices():
    # (round 14: a note said as a condition, not a warning: the node's memory may be what
    # the job took it for; heldout-2026-11-28n's readers called such jobs waste)
    text = LUMI.format(part="small-g", gpus="--gpus-per-node=1").replace(
        "#SBATCH --time", "#SBATCH --exclusive\n#SBATCH --mem=0\n#SBATCH --time")
    assert _findings(text, "lumi").get("GPU008") in (None, "info")


# LUMI-G nodes leave 56 of 64 cores usable (low-noise mode: LUMI user guide, lumig-job.md
# "jobs requesting 64 cores/node will never run"); the site profile's reserved cores.
@pytest.mark.parametrize(("cpus", "tasks", "found"), [
    ("63", "1", True), ("8", "8", True), ("56", "1", False), ("7", "8", False)])
def test_a_slurm_request_over_the_usable_cores_is_never_scheduled(cpus, tasks, found):
    text = ("#!/bin/bash\n#SBATCH --account=project_465000001\n#SBATCH --partition=standard-g\n"
            f"#SBATCH --nodes=1\n#SBATCH --ntasks-per-node={tasks}\n#SBATCH --gpus-per-node=8\n"
            f"#SBATCH --cpus-per-task={cpus}\n#SBATCH --time=15\npython3 train.py\n")
    assert ("CPU006" in _findings(text, "lumi")) is found
