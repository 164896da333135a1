"""Issue 33: synthetic batches drawn before the timed steps (runtime/data.py
``SyntheticSource.draw_ahead``). At anisosgs's batch of 1, drawing each step's batch in the
loop took 10-15% of the step (docs/benchmarks.md); the originals make their synthetic batch
before their loop. The batches must stay the ones a per-step draw gives, so a run's
parameters (param_sha256) do not change."""

from __future__ import annotations

import contextlib
import dataclasses
import io

import pytest
from workloads_testlib import needs_torch

pytestmark = needs_torch


def _batches(source, steps):
    return [source.get(i) for i in steps]


def _equal(a, b) -> bool:
    import torch

    return all(torch.equal(x, y) for (x1, y1), (x2, y2) in zip(a, b, strict=True)
               for x, y in ((x1, x2), (y1, y2)))


def test_batches_drawn_ahead_are_the_per_step_batches() -> None:
    import torch

    from workloads.anisosgs.model import APP
    from workloads.runtime.data import SyntheticSource

    cfg = dict(APP.sizes["default"])
    make = lambda: SyntheticSource(APP.make_task(cfg, torch.device("cpu")), 1, 7,  # noqa: E731
                                   0, torch.device("cpu"))
    per_step = _batches(make(), range(3, 40))
    ahead = make()
    assert ahead.draw_ahead(3, 40) == 37
    # a second draw of the same step inside get() would give equal values: prove get hands
    # out the stored tensors by counting the task's calls
    calls = []
    task = ahead.task
    ahead.task = lambda gen, n: calls.append(n) or task(gen, n)
    assert _equal(_batches(ahead, range(3, 40)), per_step)
    assert calls == []
    # each stored batch is handed out once; a step outside the drawn range is drawn then
    assert _equal([ahead.get(3), ahead.get(40)], _batches(make(), [3, 40]))
    assert len(calls) == 2


def test_a_run_too_large_for_the_budget_draws_only_its_first_batch() -> None:
    import torch

    from workloads.anisosgs.model import APP
    from workloads.runtime.data import AHEAD_OVERHEAD, SyntheticSource

    cfg = dict(APP.sizes["default"])
    source = SyntheticSource(APP.make_task(cfg, torch.device("cpu")), 1, 0, 0,
                             torch.device("cpu"))
    # one batch: 6 + 6 float32 values
    assert source.draw_ahead(0, 10, budget=10 * (48 + AHEAD_OVERHEAD)) == 10
    assert source.draw_ahead(0, 11, budget=10 * (48 + AHEAD_OVERHEAD)) == 1
    assert source.draw_ahead(5, 5) == 0


def _run(spec, mode: str = "train"):
    from workloads.runtime.cli import build_parser, resolve
    from workloads.runtime.train import run_training

    args = resolve(build_parser(spec).parse_args(
        ["--config", "default", "--batch-size", "1", "--steps", "30", "--warmup", "2",
         "--sync-every", "7", "--device", "cpu", "--mode", mode]))
    with contextlib.redirect_stderr(io.StringIO()):
        rc, result = run_training(spec, args, emit_json=False)
    assert rc == 0 and result is not None
    return result


def test_a_run_draws_its_batches_before_the_first_step_with_the_same_result(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from workloads.anisosgs.model import APP
    from workloads.runtime import data

    drawn: list[int] = []
    at_first_loss: list[int] = []

    def make_task(cfg, device):
        task = APP.make_task(cfg, device)
        return lambda gen, n: drawn.append(n) or task(gen, n)

    def loss_fn(out, y):
        if not at_first_loss:
            at_first_loss.append(len(drawn))
        return APP.loss_fn(out, y)

    spec = dataclasses.replace(APP, make_task=make_task, loss_fn=loss_fn)
    ahead = _run(spec)
    assert at_first_loss == [30]  # all 30 batches before step 1's forward pass

    monkeypatch.setattr(data, "AHEAD_BYTES", 0)  # the budget fits nothing: drawn per step
    drawn.clear()
    at_first_loss.clear()
    per_step = _run(spec)
    assert at_first_loss == [1]
    assert per_step["param_sha256"] == ahead["param_sha256"]
    assert per_step["final_loss"] == ahead["final_loss"]
