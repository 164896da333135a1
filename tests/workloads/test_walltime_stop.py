"""Issue 34: the bundled apps stop on their own before the job's walltime, after a complete
checkpoint (runtime/budget.py), and mark a finished training with FINISHED.

The arithmetic and the loop's decision run in-process (no framework); one app run with a
deadline a few seconds away stops cleanly with exit 0 and no FINISHED, the same command
resumes and finishes with FINISHED and the parameters of an uninterrupted run, and a third
start finds FINISHED and trains nothing."""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import pytest
from workloads_testlib import TINY, base_env, needs_tf, needs_torch, run_app

from workloads.runtime import budget as bmod
from workloads.runtime.budget import Budget, chain_link, deadline_from_env, estimate_seconds
from workloads.runtime.checkpoint import CheckpointManager
from workloads.runtime.cli import check_args
from workloads.runtime.loop import Hooks, Logger, SignalFlag, result_line, run_steps
from workloads.runtime.timing import StepTimer


# ------------------------------------------------------------------ the arithmetic
def test_lead_is_twice_the_slowest_write_or_the_floor_plus_the_margin():
    b = Budget(deadline=1000.0, floor=30, margin=30, estimate=5)
    assert b.lead() == 60  # before any write: max(2 x 5 estimated, 30) + 30
    b = Budget(deadline=1000.0, floor=30, margin=30, estimate=40)
    assert b.lead() == 110  # a large state's estimate: 2 x 40 + 30
    b.record(3.0)
    b.record(20.0)
    b.record(7.0)
    assert (b.slowest, b.written) == (20.0, 3)
    assert b.lead() == 70  # measured now: 2 x the slowest (20) + 30
    assert b.end() == 1000 - 70
    assert Budget(deadline=None).end() is None


def test_stop_when_the_next_sync_point_falls_after_the_budget():
    b = Budget(deadline=1000.0, floor=10, margin=20)  # budget ends at 970
    assert not b.should_stop(10, 1.0, now=959.0)  # next sync at 969: still inside
    assert b.should_stop(10, 1.0, now=960.0)  # next sync at 970: too late, stop now
    assert b.should_stop(0, 1.0, now=975.0)  # past the budget already
    assert not Budget(deadline=None).should_stop(10**6, 10.0, now=0.0)


def test_estimate_deadline_and_chain_link_from_the_environment():
    assert estimate_seconds(int(bmod.WRITE_RATE) * 3) == 3.0
    assert deadline_from_env({"JOBGEN_DEADLINE": "1795732918"}) == 1795732918.0
    for bad in ("", "  ", "soon", "-5", "0"):
        assert deadline_from_env({"JOBGEN_DEADLINE": bad}) is None
    assert deadline_from_env({}) is None
    assert chain_link({"JOBGEN_CHAIN_LINK": "3"}) == 3
    assert chain_link({"JOBGEN_CHAIN_LINK": "x"}) is None and chain_link({}) is None


def test_process_start_is_before_now():
    assert 0 <= time.time() - bmod.process_started() < 24 * 3600


def test_stop_lead_is_an_app_option_checked_at_render_time():
    ns, err = check_args("pointnet", ["--stop-lead", "90"])
    assert err is None and ns.stop_lead == 90.0
    for bad in ("-1", "soon", "100000"):
        ns, err = check_args("pointnet", ["--stop-lead", bad])
        assert ns is None and "--stop-lead" in err


# ------------------------------------------------------------------ the loop, in-process
def _args(steps: int, **kw) -> argparse.Namespace:
    base = dict(steps=steps, warmup=1, sync_every=5, checkpoint_every=0, mode="train",
                debug_fail_at_step=None, debug_fail_rank=0, debug_step_sleep=0.0,
                loss_window=5)
    return argparse.Namespace(**{**base, **kw})


def _loop(args: argparse.Namespace, budget: Budget | None, start: int = 0):
    saved: list[int] = []

    def save(step: int, first: float | None) -> None:
        time.sleep(0.01)  # a write that takes time, so it is measured
        saved.append(step)

    hooks = Hooks(batch=lambda i: i, train=lambda b, i: 1.0 / (i + 1),
                  losses=lambda w: [float(v) for v in w], all_reduce=None, save=save,
                  timer=StepTimer(lambda: None), budget=budget)
    out = run_steps(args, hooks, Logger(1), SignalFlag(), 0, start, None)
    return out, saved


def test_the_loop_stops_after_a_checkpoint_once_the_budget_is_spent():
    # the budget ends 0.3 s from now; steps take 0.02 s, a sync every 5 steps
    budget = Budget(deadline=time.time() + 100.3, floor=0, margin=100)
    out, saved = _loop(_args(10_000, debug_step_sleep=0.02), budget)
    assert out.budget_stop and out.stop_reason == "time-budget" and not out.stop_signal
    assert 5 <= out.step < 100 and out.step % 5 == 0
    assert saved == [out.step]  # one checkpoint, of the step it stopped at
    assert budget.written == 1 and budget.slowest is not None and budget.slowest >= 0.01
    assert out.checkpoint_seconds == [pytest.approx(budget.slowest)]
    assert out.timed_steps == out.step - 1  # the timing covers the steps it ran


def test_a_checkpoint_on_the_stop_step_is_not_written_twice():
    budget = Budget(deadline=time.time() + 100.3, floor=0, margin=100)
    out, saved = _loop(_args(10_000, debug_step_sleep=0.02, checkpoint_every=5), budget)
    assert out.budget_stop and len(saved) == len(set(saved)) and saved[-1] == out.step


def test_without_a_deadline_the_loop_runs_to_the_end():
    out, saved = _loop(_args(12), Budget(deadline=None))
    assert not out.budget_stop and out.stop_reason == "finished" and out.step == 12
    assert saved == [12]


def test_the_last_step_is_a_finish_not_a_budget_stop():
    # the budget is spent from the start, but the first sync point is the last step
    out, saved = _loop(_args(4), Budget(deadline=time.time() + 1, floor=0, margin=100))
    assert out.stop_reason == "finished" and not out.budget_stop and saved == [4]


def test_a_resumed_run_reports_its_restart_time_and_the_result_line_the_new_fields(
        monkeypatch):
    monkeypatch.setenv("JOBGEN_CHAIN_LINK", "2")
    out, _ = _loop(_args(12), None, start=6)
    assert out.restart_seconds is not None and 0 <= out.restart_seconds < 24 * 3600
    args = _args(12, data="synthetic", seed=0)
    values = {k: None for k in ("app", "framework", "framework_version", "device",
                                "device_name", "device_stack", "precision",
                                "precision_requested", "precision_note", "size", "launcher",
                                "rank_variables", "dist_backend", "batch_size_requested",
                                "batch_note", "peak_mem_mb", "device_mem_mb",
                                "peak_mem_reserved_mb", "mem_headroom_mb", "mem_headroom_pct",
                                "param_sha256", "channels_last", "compile", "optimizer_impl",
                                "pin_memory", "config", "recipe", "lr", "lr_last", "unit",
                                "train_flops_per_sample", "flops_method",
                                "peak_flops_per_sec", "peak_source", "trials")}
    line = result_line(args, out, 2, 1, 6, **values)
    assert line["chain_link"] == 2 and line["stop_reason"] == "finished"
    assert line["checkpoints_written"] == 1 and line["checkpoint_seconds_max"] > 0
    assert line["restart_seconds"] == out.restart_seconds
    assert list(line)[-5:] == ["chain_link", "checkpoint_seconds_max", "checkpoints_written",
                               "stop_reason", "restart_seconds"]


def test_finished_marker_is_written_atomically_and_read_back(tmp_path):
    mgr = CheckpointManager(tmp_path / "ck", rank=0)
    assert mgr.finished() is None and not mgr.clear_finished()
    mgr.mark_finished(40, "ab" * 32)
    assert (tmp_path / "ck" / "FINISHED").is_file()
    doc = mgr.finished()
    assert doc["step"] == 40 and doc["param_sha256"] == "ab" * 32 and doc["time"] > 0
    assert [p.name for p in (tmp_path / "ck").iterdir()] == ["FINISHED"]  # no temp file left
    (tmp_path / "ck" / "FINISHED").write_text("not json")
    assert mgr.finished() is None  # unreadable: treated as absent
    assert mgr.clear_finished() and not (tmp_path / "ck" / "FINISHED").exists()


# ------------------------------------------------------------------ a real app
def _deadline_env(seconds: float) -> dict[str, str]:
    return base_env(JOBGEN_DEADLINE=f"{time.time() + seconds:.3f}")


@pytest.mark.slow
@needs_torch
def test_an_app_stops_before_its_deadline_resumes_and_finishes(tmp_path: Path) -> None:
    app, steps = "pointnet", 30
    ck = tmp_path / "ck"
    args = [*TINY, "--steps", str(steps), "--warmup", "1", "--sync-every", "2",
            "--checkpoint-dir", str(ck), "--stop-lead", "0"]
    # the budget ends ~6 s after the start (deadline - 30 s margin - 2 x a write); at 0.5 s a
    # step the run would need 15 s and more
    first = run_app(app, *args, "--debug-step-sleep", "0.5", env=_deadline_env(36))
    assert first.returncode == 0, first.stderr
    line = first.result()
    assert line["stop_reason"] == "time-budget", first.stderr
    stopped = int(first.stderr.split("stopped at step ")[1].split()[0])
    assert 1 <= stopped < steps
    assert (ck / f"step_{stopped:09d}" / "COMPLETE").is_file()
    assert line["checkpoints_written"] == 1 and line["checkpoint_seconds_max"] > 0
    assert not (ck / "FINISHED").exists()

    second = run_app(app, *args)  # the next link: no deadline, resumes and finishes
    assert second.returncode == 0, second.stderr
    done = second.result()
    assert done["resumed_from_step"] == stopped and done["stop_reason"] == "finished"
    assert done["restart_seconds"] is not None and done["restart_seconds"] > 0
    marker = json.loads((ck / "FINISHED").read_text())
    assert marker["step"] == steps and marker["param_sha256"] == done["param_sha256"]
    whole = run_app(app, *TINY, "--steps", str(steps), "--warmup", "1")
    assert whole.returncode == 0, whole.stderr
    assert done["param_sha256"] == whole.result()["param_sha256"]

    third = run_app(app, *args)  # a link after the end: nothing to train
    assert third.returncode == 0, third.stderr
    again = third.result()
    assert again["stop_reason"] == "already-finished" and again["checkpoints_written"] == 0
    assert again["param_sha256"] == done["param_sha256"]
    assert "training already finished" in third.stderr

    longer = run_app(app, *[a if a != str(steps) else str(steps + 2) for a in args])
    assert longer.returncode == 0, longer.stderr  # more --steps: the old marker is removed
    assert "note: removed" in longer.stderr and json.loads(
        (ck / "FINISHED").read_text())["step"] == steps + 2


@pytest.mark.slow
@needs_tf
def test_tensorflow_app_stops_for_the_budget_without_finished(tmp_path: Path) -> None:
    ck = tmp_path / "ck"
    args = [*TINY, "--framework", "tensorflow", "--steps", "40", "--warmup", "1",
            "--sync-every", "2", "--checkpoint-dir", str(ck), "--stop-lead", "0"]
    res = run_app("cosmictagger", *args, "--debug-step-sleep", "0.5",
                  env=_deadline_env(40), timeout=300)
    assert res.returncode == 0, res.stderr
    line = res.result()
    assert line["stop_reason"] == "time-budget" and line["steps"] == 40
    stopped = int(res.stderr.split("stopped at step ")[1].split()[0])
    assert (ck / f"step_{stopped:09d}" / "COMPLETE").is_file()
    assert not (ck / "FINISHED").exists()
    assert os.environ.get("JOBGEN_DEADLINE") is None  # the test's own environment is untouched
