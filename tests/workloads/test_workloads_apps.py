"""Every app trains with --tiny on the CPU: one process, torchrun (2 ranks), MPICH (2 ranks)."""

from __future__ import annotations

import pytest
from workloads_testlib import TINY, needs_mpich, needs_torch, run_app

from workloads import APPS

REQUIRED_KEYS = {
    "app", "framework", "device", "precision", "world_size", "batch_size", "steps",
    "samples_per_sec", "samples_per_sec_per_rank", "step_time_ms_p50", "step_time_ms_p90",
    "peak_mem_mb", "final_loss", "first_loss",
}


def _check(res, app: str, world: int, steps: int) -> dict:
    assert res.returncode == 0, res.stderr[-3000:]
    out = res.result()
    assert REQUIRED_KEYS <= out.keys()
    assert out["app"] == app
    assert out["framework"] == "pytorch"
    assert out["device"] == "cpu"
    assert out["world_size"] == world
    assert out["steps"] == steps
    assert out["samples_per_sec"] > 0
    assert out["samples_per_sec_per_rank"] == pytest.approx(out["samples_per_sec"] / world)
    assert out["peak_mem_mb"] is None  # unknown on the CPU
    assert out["step_time_ms_p90"] >= out["step_time_ms_p50"] > 0
    return out


@pytest.mark.slow
@needs_torch
@pytest.mark.parametrize("app", APPS)
def test_single_process(app: str) -> None:
    res = run_app(app, *TINY, "--steps", "4", "--warmup", "1")
    out = _check(res, app, 1, 4)
    assert out["launcher"] == "none" and out["dist_backend"] is None


@pytest.mark.slow
@needs_torch
@pytest.mark.parametrize("app", APPS)
def test_torchrun_two_ranks(app: str) -> None:
    res = run_app(app, *TINY, "--steps", "3", "--warmup", "1", launcher="torchrun")
    out = _check(res, app, 2, 3)
    assert out["launcher"] == "torchrun" and out["dist_backend"] == "gloo"


@pytest.mark.slow
@needs_torch
@needs_mpich
@pytest.mark.parametrize("app", APPS)
def test_mpich_two_ranks(app: str) -> None:
    res = run_app(app, *TINY, "--steps", "3", "--warmup", "1", launcher="mpich")
    out = _check(res, app, 2, 3)
    assert out["launcher"] == "mpich" and out["dist_backend"] == "gloo"
