"""`jobgen chain` under the real test Slurm (tests/slurm_cluster.py): sbatch's
--dependency=afterany and --export, a bundled app trained across three links (each of the
first two stopped by the walltime's warning signal, sent early with `scancel --signal=USR1
--batch`, the signal Slurm sends at `--signal=B:USR1@60`) ending with the parameters of one
uninterrupted run, the stall cap, cancel leaving nothing queued, and a link killed by the real
time limit (SIGTERM, then SIGKILL after KillWait: no exit trap runs). Real jobs: slow."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import run_jobgen

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow
APP_ARGS = "--config tiny --steps 200 --checkpoint-every 20"
FAILER = "#!/bin/bash\necho 'cannot read the data' >&2\nexit 3\n"


def wait_for(check, timeout: float = 150, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def squeue_ids(slurm, ids: list[str]) -> list[str]:
    res = slurm.run("squeue", "--noheader", "--format=%i", f"--jobs={','.join(ids)}")
    return res.stdout.split()


def result_line(path: Path) -> dict:
    lines = [x for x in path.read_text().splitlines() if '"param_sha256"' in x]
    assert lines, path.read_text()[-3000:]
    return json.loads(lines[-1][lines[-1].index("{"):])


def complete_steps(ck: Path) -> list[int]:
    return sorted(int(p.parent.name[5:]) for p in ck.glob("step_*/COMPLETE"))


def test_a_bundled_app_trains_across_three_links_to_one_runs_parameters(slurm, tmp_path):
    alone = tmp_path / "alone"
    alone.mkdir()
    res = subprocess.run([sys.executable, "-m", "workloads.gpt", *APP_ARGS.split(),
                          "--device", "cpu", "--precision", "fp32", "--workers", "1"],
                         cwd=alone, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    expected = next(json.loads(x[x.index("{"):]) for x in res.stdout.splitlines()
                    if '"param_sha256"' in x)["param_sha256"]

    work = tmp_path / "chain"
    work.mkdir()
    script = work / "job.slurm"
    render = run_jobgen("render", "--site", "local-slurm", "--app", "gpt", "--nodes", "1",
                        "--checkpoint-dir", "ck", "--app-args", APP_ARGS, env=slurm.env)
    assert render.returncode == 0, render.stderr
    script.write_text(render.stdout)
    res = run_jobgen("chain", str(script), "--links", "3", env=slurm.env)
    assert res.returncode == 0, res.stderr
    ids = [line.split()[-1] for line in res.stdout.splitlines()]
    assert len(ids) == 3
    ck = work / "ck"
    for k, job_id in enumerate(ids[:2], 1):  # links 1 and 2: stopped by the warning signal
        before = max(complete_steps(ck), default=0)
        wait_for(lambda b=before: max(complete_steps(ck), default=0) > b, what=f"link {k}'s "
                 "first checkpoint")
        slurm.run("scancel", "--signal=USR1", "--batch", job_id)
        slurm.wait(job_id)
    job = slurm.wait(ids[2], timeout=240)
    assert job.state == "COMPLETED", job.fields
    chain_dir = Path(f"{script}.chain")
    records = [json.loads((chain_dir / f"link-{k}.json").read_text()) for k in (1, 2, 3)]
    assert [r["progress"] for r in records] == [True, True, True]
    assert records[0]["step_before"] == 0 and records[0]["exit_code"] != 0
    assert records[1]["step_before"] == records[0]["step_after"] > 0
    assert records[2]["step_after"] == 200 and records[2]["exit_code"] == 0
    outputs = json.loads(run_jobgen("status", str(chain_dir), "--format", "json",
                                    env=slurm.env).stdout)["links"]
    final = result_line(Path(outputs[2]["output"]))
    assert final["resumed_from_step"] == records[1]["step_after"]
    assert final["param_sha256"] == expected
    found = run_jobgen("collect", str(chain_dir), "--format", "json", env=slurm.env)
    assert found.returncode == 0, found.stderr
    chain = json.loads(found.stdout)
    assert (chain["steps"], chain["last_step"], chain["links_run"]) == (200, 200, 3)
    assert chain["links"][2]["param_sha256"] == expected
    assert [x["steps"] for x in chain["links"]] == [r["step_after"] - r["step_before"]
                                                    for r in records]


def test_a_failing_chain_stops_at_the_cap_and_cancel_leaves_nothing_queued(slurm, tmp_path):
    prog = tmp_path / "prog.sh"
    prog.write_text(FAILER)
    prog.chmod(0o755)
    script = tmp_path / "job.slurm"
    render = run_jobgen("render", "--site", "local-slurm", "--nodes", "1", "--", str(prog),
                        env=slurm.env)
    assert render.returncode == 0, render.stderr
    script.write_text(render.stdout)
    res = run_jobgen("chain", str(script), "--links", "4", env=slurm.env)
    assert res.returncode == 0, res.stderr
    ids = [line.split()[-1] for line in res.stdout.splitlines()]
    assert [slurm.wait(i).state for i in ids] == ["FAILED", "FAILED", "CANCELLED",
                                                  "CANCELLED"]
    chain_dir = Path(f"{script}.chain")
    assert (chain_dir / "STOPPED").read_text() == (
        "link 2: 2 link(s) in a row made no progress (the cap is 2)\n")
    rows = json.loads(run_jobgen("status", str(chain_dir), "--format", "json",
                                 env=slurm.env).stdout)["links"]
    assert [(r["state"], r["exit_code"]) for r in rows[:2]] == [("failed", 3), ("failed", 3)]
    assert "cannot read the data" in Path(rows[0]["output"]).read_text()

    # a second chain, cancelled while its first link waits in the queue
    long = tmp_path / "long.sh"
    long.write_text("#!/bin/bash\nsleep 300\n")
    long.chmod(0o755)
    script2 = tmp_path / "long.slurm"
    render = run_jobgen("render", "--site", "local-slurm", "--nodes", "1", "--", str(long),
                        env=slurm.env)
    script2.write_text(render.stdout)
    res = run_jobgen("chain", str(script2), "--links", "3", env=slurm.env)
    assert res.returncode == 0, res.stderr
    ids = [line.split()[-1] for line in res.stdout.splitlines()]
    cancel = run_jobgen("cancel", f"{script2}.chain", env=slurm.env)
    assert cancel.returncode == 0, cancel.stderr
    assert cancel.stderr.strip() == f"cancelled 3 link(s): {ids[2]} {ids[1]} {ids[0]}"
    wait_for(lambda: not squeue_ids(slurm, ids) or all(
        slurm.job(i).state == "CANCELLED" for i in ids), what="the cancelled links")
    assert {slurm.job(i).state for i in ids} == {"CANCELLED"}


# A program that checkpoints every second and ignores SIGTERM (as a program that needs longer to
# save than the scheduler's grace time does): in link 1 it never ends by itself, so the real time
# limit ends it (Slurm: SIGTERM, then SIGKILL after KillWait; slurm.conf(5) KillWait); in link 2
# it resumes, writes one checkpoint more and exits 0.
STUBBORN = """#!/bin/bash
trap '' TERM USR1
n=0
for d in ck/step_*/COMPLETE; do [ -f "$d" ] || continue; d=${d%/COMPLETE}; n=$((10#${d##*_})); done
while :; do
    sleep 1
    n=$((n + 1))
    mkdir -p "ck/step_$(printf %09d "$n")" && : > "ck/step_$(printf %09d "$n")/COMPLETE"
    [ "$JOBGEN_CHAIN_LINK" = 1 ] || exit 0
done
"""


def test_a_link_killed_by_the_real_time_limit_is_recorded_by_the_next_and_counts_its_progress(
        slurm, tmp_path):
    """Before: the killed link left no link-1.json, so link 2 counted it as a link without
    progress and, with --max-stalled 1, stopped the chain at its start although link 1 had
    written dozens of checkpoints."""
    prog = tmp_path / "stubborn.sh"
    prog.write_text(STUBBORN)
    prog.chmod(0o755)
    script = tmp_path / "job.slurm"
    render = run_jobgen("render", "--site", "local-slurm", "--nodes", "1", "--walltime",
                        "00:01:00", "--", str(prog), env=slurm.env)
    assert render.returncode == 0, render.stderr
    script.write_text(render.stdout)
    res = run_jobgen("chain", str(script), "--links", "2", "--max-stalled", "1",
                     "--checkpoint-dir", "ck", env=slurm.env)
    assert res.returncode == 0, res.stderr
    ids = [line.split()[-1] for line in res.stdout.splitlines()]
    first = slurm.wait(ids[0], timeout=240)
    assert first.state == "TIMEOUT", first.fields
    assert slurm.wait(ids[1], timeout=120).state == "COMPLETED"
    chain_dir = Path(f"{script}.chain")
    one = json.loads((chain_dir / "link-1.json").read_text())
    two = json.loads((chain_dir / "link-2.json").read_text())
    assert one["exit_code"] == 137 and one["progress"] is True and one["step_before"] == 0
    assert one["step_after"] == two["step_before"] > 20  # ran past 60 s: one step a second
    assert two["step_after"] == two["step_before"] + 1 and two["exit_code"] == 0
    assert (chain_dir / "STOPPED").read_text() == "link 2: the training is finished\n"
    rows = json.loads(run_jobgen("status", str(chain_dir), "--format", "json",
                                 env=slurm.env).stdout)["links"]
    out = Path(rows[1]["output"]).read_text()
    assert "link 1 was killed before it could record its end" in out
    assert f"checkpoint step 0 -> {one['step_after']}" in rows[0]["note"]
