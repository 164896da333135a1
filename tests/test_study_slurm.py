"""The study's submit, status and cancel for real, under the test Slurm (tests/slurm_cluster.py):
squeue's and scancel's answers, sbatch's refusals, and Slurm's qsub wrapper taken for what it
is (not PBS). Each test waits for real jobs: slow."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from helpers import run_jobgen

from jobgen.study import manifest as mf

pytestmark = pytest.mark.slow
RESULT = "import json; print(json.dumps({'app': 'mine', 'samples_per_sec': 5.0}))"


def states(sweep: Path, env: dict[str, str]) -> list[dict]:
    res = run_jobgen("status", str(sweep), "--format", "json", env=env)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def wait_for(check, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the jobs did not get there in time"
        time.sleep(0.5)


def test_status_and_cancel_follow_the_jobs_through_squeue_and_scancel(slurm, tmp_path):
    sweep = tmp_path / "s"
    res = run_jobgen("sweep", "--site", "local-slurm", "--nodes", "1", "--repeat", "2",
                     "--out", str(sweep), "--submit", "--", "sleep", "300", env=slurm.env)
    assert res.returncode == 0, res.stderr
    ids = [r.job_id for p in mf.load(sweep).valid_points for r in p.runs]
    assert all(ids)
    now = states(sweep, slurm.env)
    assert {s["state"] for s in now} <= {"queued", "running"}
    assert {s["word"] for s in now} <= {"PENDING", "CONFIGURING", "RUNNING"}
    table = run_jobgen("status", str(sweep), env=slurm.env)
    assert ids[0] in table.stdout and all(len(x) <= 80 for x in table.stdout.splitlines())
    res = run_jobgen("cancel", str(sweep), env=slurm.env)
    assert res.returncode == 0, res.stderr
    assert res.stderr.strip() == f"cancelled 2 job(s): {ids[0]} {ids[1]}"
    for job_id in ids:
        assert slurm.wait(job_id).state == "CANCELLED"
    after = states(sweep, slurm.env)
    assert [(s["state"], s["word"]) for s in after] == [("failed", "CANCELLED")] * 2
    res = run_jobgen("cancel", str(sweep), env=slurm.env)
    assert res.returncode == 0 and "nothing to cancel" in res.stderr


def test_max_in_flight_and_wait_submit_the_next_run_when_the_first_is_done(slurm, tmp_path):
    sweep = tmp_path / "s"
    res = run_jobgen("sweep", "--site", "local-slurm", "--nodes", "1", "--repeat", "2",
                     "--out", str(sweep), "--", "python3", "-c", RESULT, env=slurm.env)
    assert res.returncode == 0, res.stderr
    res = run_jobgen("submit", str(sweep), "--max-in-flight", "1", "--wait", "--poll", "1",
                     env=slurm.env, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "1 run(s) held back; checking again in 1 s" in res.stderr
    first, second = (slurm.wait(r.job_id) for p in mf.load(sweep).valid_points
                     for r in p.runs)
    assert first.state == second.state == "COMPLETED"
    # Slurm's own record: the second job was submitted once the first had ended
    assert second.fields["SubmitTime"] >= first.fields["EndTime"]
    wait_for(lambda: [s["state"] for s in states(sweep, slurm.env)] == ["done", "done"])
    assert [s["word"] for s in states(sweep, slurm.env)] == ["COMPLETED"] * 2


def test_a_refused_sbatch_stops_the_submit_and_is_recorded(slurm, tmp_path):
    sweep = tmp_path / "s"
    res = run_jobgen("sweep", "--site", "local-slurm", "--nodes", "1", "--repeat", "3",
                     "--out", str(sweep), "--", "true", env=slurm.env)
    assert res.returncode == 0, res.stderr
    env = {**slurm.env, "SBATCH_PARTITION": "nosuch"}  # sbatch: invalid partition
    res = run_jobgen("submit", str(sweep), env=env)
    assert res.returncode == 1
    assert "r1: sbatch failed: sbatch: error: invalid partition specified: nosuch" in res.stderr
    assert "stopped after the first failure: 2 run(s) not submitted" in res.stderr
    runs = [r for p in mf.load(sweep).valid_points for r in p.runs]
    assert runs[0].submit_error and runs[0].job_id is None and not runs[0].maybe_submitted
    assert [r.submit_error for r in runs[1:]] == [None, None]
    collected = run_jobgen("collect", str(sweep), "--format", "json")
    assert collected.returncode == 1
    assert "r1: not submitted: sbatch: error: invalid partition" in json.loads(
        collected.stdout)[0]["note"]
    res = run_jobgen("submit", str(sweep), "--keep-going", env=env)
    assert res.returncode == 1 and res.stderr.count("sbatch failed") == 3


def test_slurms_qsub_wrapper_is_not_taken_for_pbs(slurm, tmp_path):
    qsub = shutil.which("qsub")
    if qsub is None or b"Slurm" not in Path(qsub).read_bytes()[:4096]:
        pytest.skip("Slurm's qsub wrapper is not installed (apt-get install slurm-wlm-torque; "
                    ".ci/run does)")
    sweep = tmp_path / "s"
    res = run_jobgen("sweep", "--site", "polaris", "-A", "proj", "--app", "qcnn", "--nodes",
                     "1,2", "--repeat", "3", "--out", str(sweep))
    assert res.returncode == 0, res.stderr
    res = run_jobgen("submit", str(sweep), env=slurm.env)
    assert res.returncode == 2
    [line] = res.stderr.splitlines()
    assert line.startswith("jobgen: error: the qsub here is not polaris's PBS: `qsub --version` "
                           "answered 'Unknown option: version'")
    runs = [r for p in mf.load(sweep).valid_points for r in p.runs]
    assert not any(r.job_id or r.maybe_submitted or r.submit_error for r in runs)
    queue = slurm.run("squeue", "--noheader", "--format=%j")
    assert "qcnn" not in queue.stdout


def test_cancel_of_a_copied_sweep_leaves_the_originals_jobs_running(slurm, tmp_path):
    """Issue 36 N6: squeue's %j, %u and %Z say whose job it is; a copy's runs are other
    directories, so `cancel` of the copy sends nothing and the original's jobs run on."""
    sweep = tmp_path / "s"
    res = run_jobgen("sweep", "--site", "local-slurm", "--nodes", "1", "--repeat", "2",
                     "--out", str(sweep), "--submit", "--", "sleep", "300", env=slurm.env)
    assert res.returncode == 0, res.stderr
    ids = [r.job_id for p in mf.load(sweep).valid_points for r in p.runs]
    twin = tmp_path / "s2"
    shutil.copytree(sweep, twin)
    res = run_jobgen("cancel", str(twin), env=slurm.env)
    assert res.returncode == 2 and "a copied sweep?" in res.stderr, res.stderr
    assert {s["state"] for s in states(sweep, slurm.env)} <= {"queued", "running"}
    notes = [s["note"] for s in states(twin, slurm.env)]
    assert all(n and n.startswith("not this sweep's job") for n in notes), notes
    res = run_jobgen("cancel", str(sweep), env=slurm.env)
    assert res.returncode == 0 and res.stderr.strip() == f"cancelled 2 job(s): {ids[0]} {ids[1]}"
    for job_id in ids:
        assert slurm.wait(job_id).state == "CANCELLED"
