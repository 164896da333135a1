"""Issue 35's provenance for real: a local sweep (MPICH, a user's program in a git tree) runs its
scripts, each job writes `jobgen-runs/*/provenance.json` with bash alone, and `jobgen collect`
shows each run's digests and flags runs that ran on different software."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run_jobgen

from jobgen.study import manifest as mf
from jobgen.study.provenance import text

pytestmark = pytest.mark.skipif(shutil.which("mpiexec.mpich") is None,
                                reason="needs MPICH's mpiexec.mpich (apt install mpich)")

PROGRAM = 'import json\nprint(json.dumps({"app": "toy", "samples_per_sec": 10.0}))\n'
# A stand-in for the job's Python that answers the package listing (`python -c CODE` with
# importlib.metadata, jobgen.plan.runrecord.FREEZE) from the run directory's freeze.txt and runs
# the real interpreter for everything else. The real listing prints one `name==version` line
# per installed distribution on stdout, as `pip freeze` does, and exits 0.
FAKE_PYTHON = f"""#!/bin/bash
if [ "$1" = -c ] && [[ $2 == *importlib.metadata* ]]; then
    exec cat freeze.txt
fi
exec {sys.executable} "$@"
"""
# Hostile values: quotes, backslash, tab, newline, a control byte, `$(...)`, invalid UTF-8.
HOSTILE = 'a"b\\c\td\ne\x01f $(touch /tmp/jobgen-pwned) caf\udcff'
MODULES = 'gcc/12.2:"evil"\nname:caf\udce9/1'


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.email=t@example.org", "-c", "user.name=t",
                           "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture
def program(tmp_path) -> tuple[Path, Path, str]:
    """toy.py in a git tree, committed and then edited (dirty); the fake Python."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "toy.py").write_text(PROGRAM)
    git(repo, "init", "-q")
    git(repo, "add", "toy.py")
    git(repo, "commit", "-q", "-m", "toy")
    (repo / "toy.py").write_text(PROGRAM + "# edited\n")
    fake = tmp_path / "py" / "python3"
    fake.parent.mkdir()
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    return repo / "toy.py", fake, git(repo, "rev-parse", "HEAD")


def records(out: Path) -> dict[str, dict]:
    found = {}
    for path in sorted(out.glob("*/r*/jobgen-runs/*/provenance.json")):
        found[path.parts[len(out.parts) + 1]] = json.loads(path.read_bytes())
    return found


@pytest.mark.slow  # two real jobs (MPICH) and a collect
def test_a_local_sweep_records_provenance_and_collect_flags_different_packages(
        tmp_path, program):
    toy, fake, commit = program
    out = tmp_path / "s"
    res = run_jobgen("sweep", "--site", "local-mpich", "--ranks-per-node", "1", "--repeat", "2",
                     "--env", "JOBGEN_TEST_QUOTE=it's \"x\" \\ $HOME", "--out", str(out),
                     "--", str(fake), str(toy))
    assert res.returncode == 0, res.stderr
    (out / "rpn1/r1/freeze.txt").write_text("numpy==1.26.4\ntorch==2.3.0\n")
    (out / "rpn1/r2/freeze.txt").write_text("numpy==2.0.0\ntorch==2.3.0\n")
    res = run_jobgen("submit", str(out), env={"JOBGEN_HOSTILE": HOSTILE,
                                              "PYTHONPATH": HOSTILE,
                                              "LOADEDMODULES": MODULES})
    assert res.returncode == 0, res.stderr
    assert not Path("/tmp/jobgen-pwned").exists()
    found = records(out)
    assert set(found) == {"r1", "r2"}
    script = (out / "rpn1/r1/job.sh").read_bytes()
    rec = found["r1"]
    # the script digest is the script as submitted ($0: bash runs job.sh itself here)
    assert rec["script"] == {"path": "job.sh", "sha256": hashlib.sha256(script).hexdigest(),
                             "status": "ok"}
    assert rec["profile"]["site"] == "local-mpich" and len(rec["profile"]["sha256"]) == 64
    assert rec["program"]["commit"] == commit and rec["program"]["dirty"] is True
    assert rec["program"]["toplevel"] == str(toy.parent)
    assert rec["packages"]["tool"] == "python importlib.metadata"
    assert rec["packages"]["python"] == str(fake)
    assert rec["packages"]["list"] == "numpy==1.26.4\ntorch==2.3.0\n"
    assert rec["hosts"] == {"from": "HOSTNAME", "list": [os.uname().nodename]}
    # every byte of a hostile value survives, as bytes (invalid UTF-8 shown as U+FFFD)
    pythonpath = text(rec["env"]["PYTHONPATH"])
    assert pythonpath.endswith(HOSTILE.replace("\udcff", "\ufffd"))
    assert text(rec["modules"]["loaded"]) == MODULES.replace("\udce9", "\ufffd")
    assert text(rec["env"]["JOBGEN_TEST_QUOTE"]) == "it's \"x\" \\ $HOME"
    assert rec["env"]["JOBGEN_RUN_DIR"].endswith(rec["run_id"])
    assert rec["modules"]["status"].startswith("absent: no LMOD_CMD")

    res = run_jobgen("collect", str(out), env={"COLUMNS": "200"})
    assert res.returncode == 0, res.stderr
    table = res.stdout[res.stdout.index("provenance ("):]
    # columns with one value in every row move to the line above the table (textable)
    assert f"point: rpn1 · profile: {rec['profile']['sha256'][:12]} · " in table
    assert f"program: {commit[:12]}+dirty" in table
    rows = {w[0]: w[1:] for w in (line.split() for line in table.splitlines())
            if w and w[0] in ("r1", "r2")}
    assert rows["r1"][0] == hashlib.sha256(script).hexdigest()[:12]
    assert rows["r1"][1] != rows["r2"][1]  # the packages
    assert res.stdout.endswith("\n")
    warnings = [x for x in res.stderr.splitlines() if "different software" in x]
    assert len(warnings) == 1 and "packages differ (2 digests" in warnings[0], res.stderr
    assert "rpn1 r1" in warnings[0] and "rpn1 r2" in warnings[0]
    runs = json.loads((out / "results.json").read_text())["runs"]
    assert [r["provenance"]["program_dirty"] for r in runs] == [True, True]
    assert [r["provenance"]["script_as_generated"] for r in runs] == [True, True]

    pytest.importorskip("matplotlib")
    res = run_jobgen("report", str(out), "--out", str(tmp_path / "r.html"))
    assert res.returncode == 0, res.stderr
    assert "packages differ (2 digests" in res.stderr
    assert "packages differ (2 digests" in (tmp_path / "r.html").read_text()

    # the same packages again: no warning
    (out / "rpn1/r2/freeze.txt").write_text("numpy==1.26.4\ntorch==2.3.0\n")
    res = run_jobgen("submit", str(out), "--again")
    assert res.returncode == 0, res.stderr
    res = run_jobgen("collect", str(out))
    assert "different software" not in res.stderr, res.stderr


def test_missing_git_and_module_tools_are_recorded_as_absent_and_the_job_runs(tmp_path):
    """PATH without git, LMOD_CMD naming no file: both recorded as absent, the run is ok."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "mktemp", "rm", "cat", "chmod", "mkdir", "tail", "mpiexec.mpich",
                 "hydra_pmi_proxy", "sha256sum", "timeout"):
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    (bin_dir / "python3").symlink_to(sys.executable)
    assert shutil.which("git", path=str(bin_dir)) is None
    repo = tmp_path / "prog"
    repo.mkdir()
    (repo / "toy.py").write_text(PROGRAM)
    out = tmp_path / "s"
    res = run_jobgen("sweep", "--site", "local-mpich", "--ranks-per-node", "1", "--out",
                     str(out), "--", "python3", str(repo / "toy.py"))
    assert res.returncode == 0, res.stderr
    res = run_jobgen("submit", str(out), env={"PATH": f"{bin_dir}", "LMOD_CMD": "/nowhere/lmod"})
    assert res.returncode == 0, res.stderr
    [rec] = records(out).values()
    assert rec["program"]["status"] == "absent: git not found" and rec["program"]["dirty"] is None
    assert rec["modules"]["status"] == "absent: /nowhere/lmod not found"
    assert rec["modules"]["tool"] == "lmod"
    m = mf.load(out)
    assert m.points[0].runs[0].exit_code == 0
    res = run_jobgen("collect", str(out))
    assert res.returncode == 0, res.stderr


@pytest.mark.parametrize("site", ["aurora", "lumi", "summit", "jlse-mi250"])
def test_a_plain_rendered_script_records_its_hosts_from_the_schedulers_list(site, tmp_path):
    """A `jobgen render` script (no sweep) under the emulated PBS, Slurm, LSF and Cobalt
    allocations: provenance.json in the submit directory's jobgen-runs, hosts from the
    scheduler's own list, the script's digest its own bytes."""
    from emulation.harness import install_bin, run_script
    from test_site_emulation import SITES, plan_for

    from jobgen.text.render import render

    emu_bin = install_bin(tmp_path / "bin")
    plan = plan_for(site)
    text = render(plan)
    run = run_script(text, SITES[site], tmp_path / "run", emu_bin)
    [path] = (run.workdir / "jobgen-runs").glob("*/provenance.json")
    rec = json.loads(path.read_bytes())
    name = plan.record.hosts_name
    assert rec["hosts"]["from"] == name
    if site == "lumi":  # SLURM_JOB_NODELIST as Slurm writes it
        assert rec["hosts"]["list"] == [SITES[site].nodelist]
    else:  # the host file's distinct lines (LSF's names its batch host first)
        assert [h for h in rec["hosts"]["list"] if not h.startswith("batch")] == \
            list(SITES[site].hosts)
    assert rec["profile"]["sha256"] == plan.profile_digest
    assert rec["script"]["status"] == "ok"
    assert rec["script"]["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert path.parent.name == rec["run_id"] and rec["run_id"].startswith(plan.job_name + ".")
