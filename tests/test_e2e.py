"""Rendered scripts run for real: plain bash with torchrun or MPICH, and a real local Slurm
(1 node x 2 ranks, 2 nodes x 1 rank, two 2-node jobs at once), requeue after a preemption
signal, and fail-fast."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, run_jobgen
from slurm_cluster import SlurmCluster, ensure_node_names, missing_tools

pytest.importorskip("torch", reason="the workloads need torch (pip install torch==2.13.0)")

TINY = "--tiny --steps 6 --warmup 2"


def render(tmp: Path, *args: str, name: str = "job.sh") -> Path:
    res = run_jobgen("render", *args, "--out", str(tmp / name))
    assert res.returncode == 0, res.stderr
    return tmp / name


def json_line(text: str) -> dict:
    lines = [x for x in text.splitlines() if x.startswith("{")]
    assert len(lines) == 1, text[-3000:]
    return json.loads(lines[0])


def run_script(script: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(script)], capture_output=True, text=True,
                          cwd=script.parent, timeout=timeout)


# ---------------------------------------------------------------- plain bash
@pytest.mark.slow
def test_local_quickstart_pipes_into_bash(tmp_path):
    """The README quick start: `jobgen render --site local --app cosmictagger | bash`."""
    script = run_jobgen("render", "--site", "local", "--app", "cosmictagger",
                        "--app-args", TINY).stdout
    res = subprocess.run(["bash"], input=script, capture_output=True, text=True,
                         cwd=tmp_path, timeout=180)
    assert res.returncode == 0, res.stderr[-3000:]
    result = json_line(res.stdout)
    assert result["app"] == "cosmictagger" and result["world_size"] == 2
    assert result["steps"] == 6 and result["samples_per_sec"] > 0


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("mpiexec.mpich") is None,
                    reason="MPICH is not installed (apt-get install mpich; .ci/run does)")
def test_local_mpich_runs_two_ranks(tmp_path):
    script = render(tmp_path, "--site", "local-mpich", "--app", "ffn", "--app-args", TINY,
                    "--env", "MASTER_PORT=29731")
    res = run_script(script)
    assert res.returncode == 0, res.stderr[-3000:]
    result = json_line(res.stdout)
    assert result["world_size"] == 2 and result["app"] == "ffn"


@pytest.mark.slow
def test_local_fail_fast_when_a_rank_dies(tmp_path):
    script = render(tmp_path, "--site", "local", "--app", "anisosgs", "--app-args",
                    "--tiny --steps 400 --warmup 1 --debug-fail-at-step 3 --debug-fail-rank 1 "
                    "--debug-step-sleep 0.05")
    start = time.monotonic()
    res = run_script(script, timeout=120)
    assert res.returncode != 0
    assert time.monotonic() - start < 60, "a dead rank must end the job, not hang it"


# ---------------------------------------------------------------- a real Slurm
# (the `slurm` fixture, one cluster for the whole session, is in conftest.py)
def submit_and_wait(slurm: SlurmCluster, script: Path, timeout: float = 180):
    job_id = slurm.submit(script)
    job = slurm.wait(job_id, timeout)
    out = script.parent / f"{job.fields['JobName']}-{job_id}.out"
    return job, out.read_text() if out.exists() else ""


@pytest.mark.slow
def test_slurm_one_node_two_ranks(slurm, tmp_path):
    script = render(tmp_path, "--site", "local-slurm", "--app", "cosmictagger", "--nodes", "1",
                    "--ranks-per-node", "2", "--app-args", TINY, "--job-name", "one")
    job, out = submit_and_wait(slurm, script)
    assert job.state == "COMPLETED", out[-3000:]
    result = json_line(out)
    assert result["world_size"] == 2 and result["steps"] == 6
    assert job.fields["NumNodes"] == "1"


@pytest.mark.slow
def test_slurm_two_nodes_one_rank_each(slurm, tmp_path):
    script = render(tmp_path, "--site", "local-slurm", "--app", "gpt", "--nodes", "2",
                    "--app-args", TINY, "--job-name", "two")
    job, out = submit_and_wait(slurm, script)
    assert job.state == "COMPLETED", out[-3000:]
    assert job.fields["NodeList"] == "jgn[1-2]"
    result = json_line(out)
    assert result["world_size"] == 2 and result["app"] == "gpt"
    assert not (tmp_path / ".jobgen" / job.id).exists(), "the wrapper directory is cleaned up"


@pytest.mark.slow
def test_slurm_requeue_resumes_with_nothing_lost_or_repeated(slurm, tmp_path):
    args = ["--site", "local-slurm", "--app", "anisosgs", "--nodes", "2", "--app-args",
            "--tiny --steps 40 --warmup 2 --checkpoint-every 5 --sync-every 2 "
            "--debug-step-sleep 0.2"]
    reference = render(tmp_path, *args, "--job-name", "ref", "--checkpoint-dir",
                       str(tmp_path / "ck-ref"), name="ref.sh")
    job, out = submit_and_wait(slurm, reference)
    assert job.state == "COMPLETED", out[-3000:]
    expected = json_line(out)

    script = render(tmp_path, *args, "--job-name", "rq", "--requeue", "2",
                    "--checkpoint-dir", str(tmp_path / "ck"), name="rq.sh")
    job_id = slurm.submit(script)
    deadline = time.monotonic() + 60
    while not list((tmp_path / "ck").glob("step_*")) and time.monotonic() < deadline:
        time.sleep(0.2)  # wait until the run is under way and has checkpointed once
    assert slurm.run("scancel", "--signal=USR1", "--batch", job_id).returncode == 0
    slurm.wait(job_id, 60, until=("PENDING",))
    job = slurm.job(job_id)
    assert job.fields["Restarts"] == "1"
    # Slurm holds a requeued job back until its credential expires (cred_expire, 10 s here).
    job = slurm.wait(job_id, 180)
    out = (tmp_path / f"rq-{job_id}.out").read_text()
    assert job.state == "COMPLETED", out[-3000:]
    assert "requeueing job" in out and "received SIGUSR1" in out
    # the stopped run's result line (issue 34: it says why it stopped), then the resumed run's
    stopped, result = (json.loads(x) for x in out.splitlines() if x.startswith("{"))
    assert stopped["stop_reason"] == "SIGUSR1" and stopped["checkpoints_written"] >= 1
    assert result["stop_reason"] == "finished" and (tmp_path / "ck" / "FINISHED").is_file()
    assert 0 < result["resumed_from_step"] < 40
    assert result["steps"] == expected["steps"] == 40
    assert result["param_sha256"] == expected["param_sha256"]
    assert result["final_loss"] == expected["final_loss"]


@pytest.mark.slow
def test_two_two_node_jobs_at_once_on_one_host_both_succeed(slurm, tmp_path):
    """Both jobs' first ranks are on this host (jgn1): each takes the rendezvous port its job
    id gives it (29500 + id mod 1000), so the second does not fail with EADDRINUSE as it did
    with the fixed 29500. The jobs are checked to have run at the same time."""
    args = ["--site", "local-slurm", "--app", "gpt", "--nodes", "2", "--app-args",
            "--tiny --steps 24 --warmup 2 --debug-step-sleep 0.25"]
    scripts = []
    for name in ("pa", "pb"):
        (tmp_path / name).mkdir()
        scripts.append(render(tmp_path / name, *args, "--job-name", name))
    ids = [slurm.submit(script) for script in scripts]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # both running at once, at some moment
        states = [slurm.job(i).state for i in ids]
        if states == ["RUNNING", "RUNNING"] or "FAILED" in states:
            break
        time.sleep(0.3)
    assert states == ["RUNNING", "RUNNING"], states
    jobs = [slurm.wait(i, 240) for i in ids]
    for job, script in zip(jobs, scripts, strict=True):
        out = script.parent / f"{job.fields['JobName']}-{job.id}.out"
        text = out.read_text() if out.exists() else ""
        assert job.state == "COMPLETED", text[-3000:]
        assert job.fields["NodeList"] == "jgn[1-2]"
        assert json_line(text)["world_size"] == 2
    assert len({29500 + int(i) % 1000 for i in ids}) == 2, ids


@pytest.mark.slow
def test_slurm_fail_fast_when_a_rank_dies(slurm, tmp_path):
    script = render(tmp_path, "--site", "local-slurm", "--app", "anisosgs", "--nodes", "2",
                    "--job-name", "dies", "--app-args",
                    "--tiny --steps 2000 --warmup 1 --debug-fail-at-step 3 --debug-fail-rank 1 "
                    "--debug-step-sleep 0.05")
    start = time.monotonic()
    job, out = submit_and_wait(slurm, script, timeout=120)
    assert job.state == "FAILED", out[-3000:]
    assert job.fields["ExitCode"] != "0:0"
    assert time.monotonic() - start < 60, "a dead rank must end the job within seconds"


def _slurm_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tests.slurm_cluster", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_readme_commands_start_use_and_stop_the_test_slurm(tmp_path):
    """`python3 -m tests.slurm_cluster start|status|stop`, as the README tells users."""
    missing = missing_tools()
    if missing or ensure_node_names():
        pytest.skip(f"Slurm is not usable here ({', '.join(missing) or 'node names'})")
    state = tmp_path / "state"
    start = _slurm_tool("start", "--dir", str(state))
    try:
        assert start.returncode == 0, start.stderr
        assert start.stdout.strip() == f"export SLURM_CONF={state / 'slurm.conf'}"
        status = _slurm_tool("status", "--dir", str(state))
        assert status.returncode == 0 and "idle" in status.stderr
        assert _slurm_tool("start", "--dir", str(state)).returncode == 2  # already running
        script = render(tmp_path, "--site", "local-slurm", "--app", "ffn", "--app-args", TINY,
                        "--env", "MASTER_PORT=29733", "--job-name", "readme")
        cluster = SlurmCluster(state)
        job = cluster.wait(cluster.submit(script))
        out = (tmp_path / f"readme-{job.id}.out").read_text()
        assert job.state == "COMPLETED", out[-3000:]
        assert json_line(out)["steps"] == 6
    finally:
        stop = _slurm_tool("stop", "--dir", str(state))
    assert stop.returncode == 0 and "stopped 3 daemon(s)" in stop.stderr
    assert _slurm_tool("status", "--dir", str(state)).returncode == 1
