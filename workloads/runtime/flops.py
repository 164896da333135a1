"""Parameters and training FLOPs per sample of an app's model, counted, not estimated.

Method (the same as docs/measurements/workloads-originals-2026-11-25.md, and the one the
fidelity tests use for the originals): parameters are ``sum(p.numel())`` over the model's
unique parameters (tied weights once); training FLOPs per sample are those of one forward pass
and ``loss.backward()`` on a batch of 2 samples under ``torch.utils.flop_counter
.FlopCounterMode``, divided by 2. The counter counts matrix multiplications and convolutions
(2 FLOPs per multiply-add) and attention (scaled_dot_product_attention, full, not causal-
halved); element-wise work, normalisation and the optimizer are not counted.

The count runs on the ``meta`` device (shapes only, no arithmetic) so that a full-size model
counts in about a second; a model whose forward pass needs real values falls back to the CPU.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

METHOD = ("forward + loss.backward() under torch.utils.flop_counter.FlopCounterMode on a "
          "batch of 2, divided by 2 (matmul, convolution, attention; 2 FLOPs per "
          "multiply-add)")
COUNT_BATCH = 2


def count_params(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def _sample_batch(spec: Any, cfg: dict[str, Any], n: int = COUNT_BATCH
                  ) -> tuple[torch.Tensor, torch.Tensor]:
    task = spec.make_task(cfg, torch.device("cpu"))
    gen = torch.Generator().manual_seed(0)
    return task(gen, n)


def _count(model: nn.Module, loss_fn: Any, x: torch.Tensor, y: torch.Tensor) -> int:
    from torch.utils.flop_counter import FlopCounterMode

    counter = FlopCounterMode(display=False)
    with counter:
        loss = loss_fn(model(x), y)
        loss.backward()
    return int(counter.get_total_flops())


def sample_batch(spec: Any, cfg: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
    """The batch of :data:`COUNT_BATCH` samples the count runs on (made on the CPU)."""
    return _sample_batch(spec, cfg)


def train_flops(spec: Any, cfg: dict[str, Any], model: nn.Module | None = None,
                batch: tuple[torch.Tensor, torch.Tensor] | None = None,
                allow_cpu: bool = True) -> tuple[int, int, str]:
    """(parameters, training FLOPs per sample, where it was counted: "meta" or "cpu");
    ``allow_cpu`` False re-raises what stopped the meta count instead of counting on the
    CPU."""
    x, y = batch if batch is not None else _sample_batch(spec, cfg)
    try:
        with torch.device("meta"):
            meta_model = spec.build_model(cfg)
        meta_model.train()
        flops = _count(meta_model, spec.loss_fn, x.to("meta"), y.to("meta"))
        return count_params(meta_model), flops // COUNT_BATCH, "meta"
    except (NotImplementedError, RuntimeError):  # a kernel without a meta version
        if not allow_cpu:
            raise
        real = model if model is not None else spec.build_model(cfg)
        real.train()
        flops = _count(real, spec.loss_fn, x, y)
        real.zero_grad(set_to_none=True)
        return count_params(real), flops // COUNT_BATCH, "cpu"


# the batches the run-time count is taken at: 2 and 4, not 1 and 2, because BatchNorm in
# training refuses one value per channel (pointnet's head: "Expected more than 1 value per
# channel when training", torch.nn.functional._verify_batch_size)
COUNT_AT = (2, 4)

RUN_METHOD = ("forward + loss.backward() under torch.utils.flop_counter.FlopCounterMode on the "
              "meta device at batches of 2 and 4: a fixed cost per step (a model whose work "
              "does not grow with the batch, such as qcnn's quadrature filters) plus a cost "
              "per sample, evaluated at the run's batch (2 FLOPs per multiply-add)")


def train_flops_at(spec: Any, cfg: dict[str, Any], batch: int) -> int:
    """Training FLOPs per sample at the run's per-rank ``batch``: counted on the meta device
    at batches of 2 and 4 (:data:`COUNT_AT`), per step = fixed + per_sample x batch, so a cost
    that does not grow with the batch is shared among the batch's samples, not counted per
    sample."""
    counts = []
    for n in COUNT_AT:
        x, y = _sample_batch(spec, cfg, n)
        with torch.device("meta"):
            model = spec.build_model(cfg)
        model.train()
        counts.append(_count(model, spec.loss_fn, x.to("meta"), y.to("meta")))
    per_sample = (counts[1] - counts[0]) / (COUNT_AT[1] - COUNT_AT[0])
    fixed = max(counts[0] - per_sample * COUNT_AT[0], 0)
    return round(fixed / max(batch, 1) + per_sample)
