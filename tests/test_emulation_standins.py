"""Issue 30: the stand-ins are as strict as the tools they imitate (tests/emulation/README.md
lists each one's source and failure modes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from emulation.harness import install_bin

PBS = Path(__file__).resolve().parent / "emulation" / "pbs"


@pytest.fixture(scope="module")
def emu_bin(tmp_path_factory):
    return install_bin(tmp_path_factory.mktemp("emu-bin"))


def run(argv, env=None, timeout=20):
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", **(env or {})}, timeout=timeout)


def pbs(tool: str, *args: str, state: Path) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, PBS / tool, *args], {"JOBGEN_EMU_PBS": str(state)})


def test_qsub_refuses_a_missing_script_as_openpbs_does(tmp_path):
    res = pbs("qsub", str(tmp_path / "nope.sh"), state=tmp_path / "pbs")
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr == "qsub: script file:: No such file or directory\n"
    res = pbs("qsub", str(tmp_path), state=tmp_path / "pbs")
    assert res.returncode == 1 and res.stderr == "qsub: script not a file\n"


def test_qstat_of_an_unknown_job_says_so_and_exits_153(tmp_path):
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/bash\n")
    job = pbs("qsub", str(script), state=tmp_path / "pbs").stdout.strip()
    res = pbs("qstat", "-x", "-f", "-F", "json", job, "999.pbs01", state=tmp_path / "pbs")
    assert res.returncode == 153 and res.stderr == "qstat: Unknown Job Id 999.pbs01\n"
    assert job in res.stdout


@pytest.mark.parametrize("tool, argv", [
    ("xpu-smi", ["dump", "-d", "-1", "-m", "0,5,18", "-i", "0.5"]),
    ("xpu-smi", ["dump", "-d", "-1", "-m", "0,5,18", "-i", "0"]),
    ("nvidia-smi", ["--query-gpu=index,utilization.gpu", "--format=csv", "-l", "0.5"]),
])
def test_samplers_take_whole_seconds_only(tool, argv, emu_bin):
    res = run([emu_bin / tool, *argv])
    assert res.returncode == 2 and "second" in res.stderr


def test_nsys_needs_a_writable_tmpdir(tmp_path, emu_bin):
    argv = [emu_bin / "nsys", "profile", "-o", tmp_path / "rep", "true"]
    res = run(argv, {"TMPDIR": str(tmp_path / "missing")})
    assert res.returncode == 1 and "TMPDIR" in res.stderr
    assert not (tmp_path / "rep.nsys-rep").exists()
    assert run(argv, {"TMPDIR": str(tmp_path)}).returncode == 0
    assert (tmp_path / "rep.nsys-rep").exists()


def test_no_stand_in_makes_a_missing_report_directory(tmp_path, emu_bin):
    res = run([emu_bin / "nsys", "profile", "-o", tmp_path / "no" / "rep", "true"],
              {"TMPDIR": str(tmp_path)})
    assert res.returncode == 1 and not (tmp_path / "no").exists()


def test_dbcast_exits_0_without_a_copy_when_it_runs_alone_or_cannot_read(tmp_path, emu_bin):
    src = tmp_path / "a.tar"
    src.write_bytes(b"x" * 100)
    dest = tmp_path / "node" / "copy.tar"
    alone = run([emu_bin / "dbcast", src, dest], {"PMI_LOCAL_SIZE": "1", "PMI_RANK": "0"})
    assert alone.returncode == 0 and "at least two tasks per node" in alone.stderr
    unreadable = run([emu_bin / "dbcast", tmp_path / "none.tar", dest],
                     {"PMI_LOCAL_SIZE": "2", "PMI_RANK": "0", "PMI_LOCAL_RANK": "0"})
    assert unreadable.returncode == 0 and "Cannot read input file" in unreadable.stderr
    assert not dest.exists()
    ok = run([emu_bin / "dbcast", src, dest], {"PMI_LOCAL_SIZE": "2", "PMI_RANK": "0",
                                                "PMI_LOCAL_RANK": "0"})
    assert ok.returncode == 0 and dest.read_bytes() == src.read_bytes()
