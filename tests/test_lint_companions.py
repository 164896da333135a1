"""Lint reads the files a job script sources where they exist beside it (issue 31: "settings
in files lint does not read" were the largest class of misses on users' scripts). A job starts
in the directory it was submitted from, usually the script's own or its repository's root, so
lint looks in the script's directory and up to three above it. What such a file exports,
assigns and loads is the script's from the `source` line on.

Measured on the users' repositories (tests/lint_users/inrepo-2026-11-27.md): reading gave 9
new findings, all true once two rule bugs it exposed were fixed, and 2 right silencings; but
dropping ENV002's caution after a file was read gave 4 true and 5 false findings (the
programs were mpi4py, independent TensorFlow runs, a toy), so ENV002 keeps it: after a script
sources a file of its own, a documented set may be exported there or be moot."""

from __future__ import annotations

import json

import pytest
from helpers import run_jobgen

from jobgen.profiles.load import load_profile
from jobgen.review.lint import lint
from jobgen.review.scriptparse import COMPANION_BYTES, parse_file

POLARIS = ("#!/bin/bash\n#PBS -A proj\n#PBS -q debug\n#PBS -l select=1:system=polaris\n"
           "#PBS -l walltime=00:30:00\n#PBS -l filesystems=home:eagle\n{body}\n")
# zerosum's scripts/job-polaris-sycl.sh: a shared setup file narrows every rank to GPU 0
SOURCING = ('source "${PBS_O_WORKDIR}/scripts/sourceme-common.sh"\n'
            "mpiexec -n 4 --ppn 4 --depth 8 --cpu-bind depth ./build/bin/lu-decomp-mpi")
COMMON = "export OMP_NUM_THREADS=8\nexport CUDA_VISIBLE_DEVICES=0\n"


def _repo(tmp_path, body: str, files: dict[str, str], template: str = POLARIS):
    (tmp_path / "jobs").mkdir()
    job = tmp_path / "jobs" / "job.sh"
    job.write_text(template.format(body=body))
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return job


def _rules(job, site: str = "polaris", follow: bool = True) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in lint(parse_file(job, follow=follow), load_profile(site).profile):
        out.setdefault(f.rule, []).append(f.message)
    return out


def test_a_sourced_file_beside_the_job_gives_the_script_its_exports(tmp_path):
    # scripts/ is in the repository's root, the job script in jobs/: the job starts there
    job = _repo(tmp_path, SOURCING, {"scripts/sourceme-common.sh": COMMON})
    found = _rules(job)
    assert any("device(s) 0 " in m for m in found.get("GPU008", []))
    assert parse_file(job, follow=True).sourced == [(7, tmp_path / "scripts" /
                                                     "sourceme-common.sh")]


def test_without_the_file_or_without_follow_nothing_is_read(tmp_path):
    job = _repo(tmp_path, SOURCING, {})
    assert "GPU008" not in _rules(job)
    job = _repo(tmp_path / "b", SOURCING, {"scripts/sourceme-common.sh": COMMON}) \
        if (tmp_path / "b").mkdir() is None else None
    # follow=False (the corpus measurements, `lint()` on text): nothing is read from disk
    assert "GPU008" not in _rules(job, follow=False)
    assert parse_file(job).read == []


SUMMIT = ("#!/bin/bash\n#BSUB -P ABC123\n#BSUB -W 0:30\n#BSUB -nnodes 2\n{body}\n")


def test_per_rank_variables_a_sourced_file_sets_in_the_batch_shell_are_reported(tmp_path):
    # mbirhelical's export_DDP_envvars.sh, sourced before jsrun: every rank gets the batch
    # shell's (empty) value
    body = ("source export_DDP_envvars.sh\n"
            "jsrun -n 12 -r 6 -a 1 -g 1 -c 7 -b packed:7 python train.py --epochs 3")
    envvars = ("export RANK=$OMPI_COMM_WORLD_RANK\n"
               "export LOCAL_RANK=$OMPI_COMM_WORLD_LOCAL_RANK\n")
    job = _repo(tmp_path, body, {"jobs/export_DDP_envvars.sh": envvars}, SUMMIT)
    assert len(_rules(job, "summit").get("ENV008", [])) == 2


def test_a_value_the_sourced_file_gives_resolves_the_launch(tmp_path):
    # oumi's polaris_init.sh sets NRANKS=1: the launch is no longer unresolved
    body = 'source ./polaris_init.sh\nmpiexec -n ${NRANKS} --ppn ${NRANKS} ./worker.sh'
    job = _repo(tmp_path, body, {"jobs/polaris_init.sh": "export NRANKS=1\n"})
    assert "LAUNCH006" not in _rules(job)
    (tmp_path / "jobs" / "polaris_init.sh").unlink()
    assert "LAUNCH006" in _rules(job)


def test_documented_sets_keep_their_caution_after_a_read_sourced_file(tmp_path):
    # the file read lacks the NCCL set, but the program may not use it (an mpi4py or a
    # TensorFlow-per-node program, as the in-repo measurement found): still no ENV002
    body = ('source ./env.sh\nmpiexec -n 8 --ppn 4 --depth 16 --cpu-bind depth '
            'python train.py --epochs 3')
    job = _repo(tmp_path, body.replace("select=1", "select=2"), {"jobs/env.sh": "export X=1\n"},
                POLARIS.replace("select=1", "select=2"))
    assert "ENV002" not in _rules(job)


@pytest.mark.parametrize("word", [
    '"${PBS_O_WORKDIR}/scripts/sourceme-common.sh"',
    '$(pwd -P)/scripts/sourceme-common.sh',
    '$THIS/../scripts/sourceme-common.sh',
    # a path through the repository's clone elsewhere: its tail under a base
    '"${HOME}/zerosum/scripts/sourceme-common.sh"',
    '/lus/eagle/projects/x/zerosum/scripts/sourceme-common.sh',
])
def test_the_ways_scripts_name_their_files(tmp_path, word):
    body = SOURCING.replace('"${PBS_O_WORKDIR}/scripts/sourceme-common.sh"', word)
    job = _repo(tmp_path, body, {"scripts/sourceme-common.sh": COMMON})
    assert "GPU008" in _rules(job), word


def test_functions_and_oversized_files_are_not_read_as_settings(tmp_path):
    # a function's exports run only when it is called; a file over the bound is not read
    job = _repo(tmp_path, SOURCING,
                {"scripts/sourceme-common.sh": "setup() {\n" + COMMON + "}\n"})
    assert "GPU008" not in _rules(job)
    (tmp_path / "scripts" / "sourceme-common.sh").write_text(COMMON + "#" * COMPANION_BYTES)
    assert "GPU008" not in _rules(job)


def test_a_file_sourcing_itself_ends(tmp_path):
    common = "source scripts/sourceme-common.sh\n" + COMMON
    job = _repo(tmp_path, SOURCING, {"scripts/sourceme-common.sh": common})
    assert "GPU008" in _rules(job)


def test_the_cli_names_the_files_it_read(tmp_path):
    job = _repo(tmp_path, SOURCING, {"scripts/sourceme-common.sh": COMMON})
    res = run_jobgen("lint", str(job))
    assert "also read: " in res.stderr + res.stdout
    assert "sourceme-common.sh (sourced, line 7)" in res.stderr + res.stdout
    res = run_jobgen("lint", str(job), "--format", "json")
    assert json.loads(res.stdout)["files_read"] == [
        f"{tmp_path / 'scripts' / 'sourceme-common.sh'} (sourced, line 7)"]


def test_a_module_the_sites_guide_loads_is_no_other_vendors_software(tmp_path):
    # Polaris's oneapi (SYCL on the A100s, docs/polaris/programming-models/sycl-polaris.md):
    # found wrong by the in-repo measurement (zerosum's sourceme-polaris-sycl.sh)
    text = POLARIS.format(body="module use /soft/modulefiles\nmodule load oneapi/upstream\n"
                               "mpiexec -n 4 --ppn 4 ./app")
    job = tmp_path / "job.sh"
    job.write_text(text)
    found = _rules(job)
    assert "VENDOR003" not in found and "MODULE002" not in found
    job.write_text(text.replace("oneapi/upstream", "oneapi/release/2023.2.1"))
    assert "MODULE002" in _rules(job)  # that one was removed, and not rebuilt


def test_hostile_companions_are_skipped_without_a_hang_or_a_traceback(tmp_path):
    # a FIFO (reading would block), a symlink loop, a directory, a non-UTF-8 file, /dev/zero:
    # none is a regular text file of bounded size, so none is read, and lint goes on
    import os
    body = ("source ./fifo.sh\nsource ./loop.sh\nsource ./dir.sh\nsource ./binary.sh\n"
            "source /dev/zero\n" + SOURCING)
    job = _repo(tmp_path, body, {"scripts/sourceme-common.sh": COMMON,
                                 "jobs/binary.sh": ""})
    os.mkfifo(tmp_path / "jobs" / "fifo.sh")
    os.symlink("loop.sh", tmp_path / "jobs" / "loop.sh")
    (tmp_path / "jobs" / "dir.sh").mkdir()
    (tmp_path / "jobs" / "binary.sh").write_bytes(b"export A=\xff\xfe\n")
    script = parse_file(job, follow=True)
    assert [p.name for _, p in script.sourced] == ["sourceme-common.sh"]
    res = run_jobgen("lint", str(job), timeout=60)
    assert res.returncode in (0, 1) and "Traceback" not in res.stderr
    assert "GPU008" in res.stdout
