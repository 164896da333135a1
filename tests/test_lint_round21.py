"""Lint round 21 (issue 31): PALS mpiexec's own per-rank GPU list, `--gpu-bind=list:0.0:0.1:...`
(argonne-lcf/user-guides @ 7d04a3f9 docs/aurora/running-jobs-aurora.md L564-601: rank r takes
entry r, a GPU.tile; a list of whole GPUs fails to launch). Lint did not read it: a DFT-FE job
with the guide's 12-entry lists and 6 ranks per node (heldout-2026-11-29t, read after its blind
run) got a CPU007 warning on each of its 19 launches, "ranks drive devices of the other socket",
though its 6 ranks take tiles 0.0-2.1 next to their cores 1-48; and no word of the 6 tiles (GPUs
3-5) its ranks leave idle."""

from __future__ import annotations

import random

import pytest

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import parse_text

CPUS = "list:1-8:9-16:17-24:25-32:33-40:41-48:53-60:61-68:69-76:77-84:85-92:93-100"
TILES = ["0.0", "0.1", "1.0", "1.1", "2.0", "2.1", "3.0", "3.1", "4.0", "4.1", "5.0", "5.1"]


def aurora(launch: str, env: str = "") -> str:
    return ("#!/bin/bash\n#PBS -l select=4\n#PBS -l walltime=0:30:00\n#PBS -q prod\n"
            "#PBS -A proj\n#PBS -l filesystems=home:flare\n" + env + launch + "\n")


def findings(text: str, rule: str | None = None):
    out = lint(parse_text(text), load_profile("aurora").profile)
    return [f for f in out if rule is None or f.rule == rule]


def test_the_guides_twelve_entry_lists_with_six_ranks_bind_near_and_leave_six_tiles_idle():
    text = aurora(f"mpiexec -n 24 --ppn 6 --cpu-bind={CPUS} "
                  f"--gpu-bind=list:{':'.join(TILES)} ./dftfe in.prm")
    assert not [f for f in findings(text, "CPU007") if f.severity == "warning"]
    idle = findings(text, "GPU008")
    assert len(idle) == 1 and idle[0].severity == "warning", idle
    assert "tiles 0-5" in idle[0].message and "6 of the node's 12 tiles idle" in \
        idle[0].message and "GPUs 3-5 untouched" in idle[0].message


def test_the_guides_twelve_ranks_fill_the_node():
    text = aurora(f"mpiexec -n 48 --ppn 12 --cpu-bind={CPUS} "
                  f"--gpu-bind=list:{':'.join(TILES)} ./a.out")
    assert not findings(text, "GPU008") and not findings(text, "CPU007")
    assert not findings(text, "GPU005")


def test_a_list_that_sends_ranks_of_socket_0_to_tiles_of_socket_1_is_far():
    # cores 1-48 (socket 0) with tiles of GPUs 3-5 (socket 1)
    tiles = TILES[6:] + TILES[:6]
    text = aurora(f"mpiexec -n 48 --ppn 12 --cpu-bind={CPUS} --gpu-bind=list:{':'.join(tiles)} "
                  "./a.out")
    far = findings(text, "CPU007")
    assert far and far[0].severity == "warning" and "rank 0 on cores 1-8 drives device 6" in \
        far[0].message, far


@pytest.mark.parametrize("value", ["list:0:1:2:3:4:5", "list:0:1:2:3:4:5:6:7:8:9:10:11"])
def test_a_list_of_whole_gpus_fails_to_launch(value):
    text = aurora(f"mpiexec -n 24 --ppn 6 --cpu-bind=list:1-16:17-32:33-48:53-68:69-84:85-100 "
                  f"--gpu-bind={value} ./a.out")
    fails = findings(text, "GPU005")
    assert len(fails) == 1 and fails[0].severity == "error"
    assert "Failed to parse implicit GPU selection" in fails[0].message


def test_under_flat_the_profiles_own_failure_is_told_once():
    text = aurora("mpiexec -n 24 --ppn 6 --gpu-bind=list:0:1:2:3:4:5 ./a.out",
                  "export ZE_FLAT_DEVICE_HIERARCHY=FLAT\n")
    fails = findings(text, "GPU005")
    assert len(fails) == 1 and "under FLAT" in fails[0].message


def test_the_list_in_a_variable_as_the_guide_writes_it():
    text = aurora("mpiexec -n ${NTOTRANKS} --ppn ${NRANKS_PER_NODE} ${CPU_BIND_SCHEME} "
                  "${GPU_BIND_SCHEME} ./dftfe in.prm",
                  "cd \"$PBS_O_WORKDIR\"\nNRANKS_PER_NODE=6\nNTOTRANKS=24\n"
                  f"export CPU_BIND_SCHEME=\"--cpu-bind={CPUS}\"\n"
                  f"export GPU_BIND_SCHEME=\"--gpu-bind=list:{':'.join(TILES)}\"\n")
    assert [f.rule for f in findings(text) if f.severity == "warning"] == ["GPU008"]


def test_generated_lists_count_exactly_the_tiles_the_ranks_take():
    rng = random.Random(21)
    for _ in range(60):
        rpn = rng.randint(1, 12)
        tiles = rng.sample(TILES, rng.randint(rpn, 12))
        text = aurora(f"mpiexec -n {rpn * 4} --ppn {rpn} --gpu-bind=list:{':'.join(tiles)} ./a.out")
        used = {int(t.split(".")[0]) * 2 + int(t.split(".")[1]) for t in tiles[:rpn]}
        idle = findings(text, "GPU008")
        if len(used) == 12:
            assert not idle, (tiles, rpn)
        else:
            assert len(idle) == 1 and f"{12 - len(used)} of the node's 12 tiles idle" in \
                idle[0].message, (tiles, rpn, idle)
