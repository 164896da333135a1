"""The runtime's start-up check, batch sizing, optimizer choice, result line, step timing and
the pointnet pooling that compile + bf16 turned into NaN."""

from __future__ import annotations

import pytest
from workloads_testlib import TINY, needs_torch, run_app


@needs_torch
def test_check_says_ready_in_one_line_and_trains_nothing() -> None:
    res = run_app("qcnn", *TINY, "--check", "--steps", "5")
    assert res.returncode == 0, res.stderr
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("[workloads] qcnn ready: pytorch "), lines


@needs_torch
def test_check_refuses_bad_arguments_like_a_run() -> None:
    res = run_app("qcnn", "--check", "--bogus-flag")
    assert res.returncode == 2 and "unrecognized arguments: --bogus-flag" in res.stderr


@pytest.mark.slow
@needs_torch
def test_batch_size_auto_on_the_cpu_keeps_the_default_and_says_so() -> None:
    out = run_app("anisosgs", *TINY, "--steps", "3", "--warmup", "1", "--batch-size",
                  "auto").result()
    assert out["batch_size"] == 32 and out["batch_size_requested"] == "auto"
    assert out["batch_note"] == ("auto batch on the CPU: no device memory to size it from, "
                                 "the default 32")
    # no device memory on the CPU: the headroom keys are there, empty
    assert {k: out[k] for k in ("device_mem_mb", "peak_mem_reserved_mb", "mem_headroom_mb",
                                "mem_headroom_pct")} == dict.fromkeys(
        ("device_mem_mb", "peak_mem_reserved_mb", "mem_headroom_mb", "mem_headroom_pct"))


@pytest.mark.slow
@needs_torch
@pytest.mark.parametrize(("impl", "reported"), [("auto", "for-loop"), ("foreach", "foreach"),
                                                ("fused", "fused"), ("for-loop", "for-loop")])
def test_optimizer_implementations_train_and_are_reported(impl: str, reported: str) -> None:
    out = run_app("qcnn", *TINY, "--steps", "4", "--warmup", "1", "--optimizer-impl",
                  impl).result()
    assert out["optimizer_impl"] == reported
    assert out["final_loss"] < out["first_loss"] * 1.5  # it trained, nothing exploded


@needs_torch
def test_step_timer_resolves_every_step_across_collects() -> None:
    import torch

    from workloads.runtime.device import DeviceInfo
    from workloads.runtime.timing import device_timer

    timer = device_timer(DeviceInfo(torch.device("cpu"), "cpu", "cpu", "cpu", False), pool=4)
    timer.start()
    for step in range(1, 11):
        timer.mark()
        if step % 3 == 0:  # the loop's host syncs
            timer.collect()
    timer.stop()
    assert len(timer.step_times_ms()) == 10
    assert all(t >= 0 for t in timer.step_times_ms())


@needs_torch
def test_pointnet_pooling_sends_each_gradient_to_one_point() -> None:
    """max(dim) backward routes by the forward's index; amax's splits over ties, found again
    by an exact comparison that compile + bf16 can make find nothing (0/0 = NaN)."""
    import torch

    from workloads.pointnet.model import global_max_pool

    feat = torch.zeros(2, 3, 5, requires_grad=True)  # every point ties (a dead ReLU channel)
    global_max_pool(feat).sum().backward()
    assert feat.grad is not None
    assert (feat.grad != 0).sum(dim=2).eq(1).all()


@pytest.mark.slow
@needs_torch
def test_pointnet_pooling_keeps_gradients_finite_under_compile_and_bf16() -> None:
    """The H100's "NaN loss at step 2" (bf16 + compile): a batch-norm + ReLU producer, the
    global max pooling and the concatenation back to every point, compiled, under bf16
    autocast. With `amax` the same graph gives non-finite gradients here (torch 2.13, CPU)."""
    import torch
    import torch.nn.functional as F

    from workloads.pointnet.model import global_max_pool

    torch.manual_seed(0)
    x = torch.randn(4, 16, 256, requires_grad=True)
    w = torch.randn(32, 16, requires_grad=True)

    def step(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            feat = F.relu(F.batch_norm(torch.einsum("oc,bcn->bon", w, x), None, None,
                                       training=True))
            pooled = global_max_pool(feat)
            both = torch.cat([feat, pooled.expand(-1, -1, feat.shape[2])], dim=1)
        return (both.float() ** 2).mean()

    torch._dynamo.reset()
    torch.compile(step)(x, w).backward()
    assert x.grad is not None and w.grad is not None
    assert torch.isfinite(x.grad).all() and torch.isfinite(w.grad).all()
