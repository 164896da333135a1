"""The originals' training steps, transcribed minimally, for benchmarks/apps_vs_originals.py.

    python3 benchmarks/original_steps.py APP CONFIG BATCH STEPS WARMUP

prints one JSON line: ``{"samples_per_sec": ...}`` over the steps after ``WARMUP``.

Each function is the original training script's step at the bundled configuration's shapes:
the model is the bundled app's (``build_model``: parameters and FLOPs equal to the original's,
tests/workloads/test_fidelity.py), the rest is the original's: how the batch is laid out and
fed, the optimizer as its script builds it (torch defaults, no foreach/fused switches), the
order of zero_grad / forward / loss / backward / clip / step / schedule. One synthetic batch is
made before the loop (the originals' synthetic modes do the same: CosmicTagger's fetcher slices
a pre-made array, SC22's benchy 'synthetic' trial reuses one batch); nanoGPT's ``get_batch``
runs each step on a uint16 token array, as its train.py does. Timed with ``perf_counter``
around the steps after the warm-up, on whatever threads ``OMP_NUM_THREADS`` allows.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

Step = Callable[[], None]


def _batch(spec: Any, cfg: dict[str, Any], batch: int) -> tuple[Any, Any]:
    task = spec.make_task(cfg, torch.device("cpu"))
    return task(torch.Generator().manual_seed(0), batch)


def cosmictagger(spec: Any, cfg: dict[str, Any], batch: int) -> Step:
    """coreyjadams/CosmicTagger@156c480 src/utils/torch/trainer.py: ``Adam(params, 1.0)`` +
    ``LambdaLR(lr_calculator)`` (lines 192-199); ``train_step``: ``zero_grad``, forward of
    ``torch.chunk(x, 3, dim=1)`` plane by plane through every module (uresnet2D.py
    ``UResNet.forward``: the bundled model's split layout), ``LossCalculator``, backward,
    ``step``, ``lr_scheduler.step()`` (lines 700-790; the accuracy/IoU metrics left out)."""
    from workloads.runtime.schedules import lr_at

    model = spec.build_model(cfg).set_layout("split")
    recipe = spec.recipe
    opt = torch.optim.Adam(model.parameters(), 1.0)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda step: lr_at(recipe, recipe.lr, step, 10**9, batch))
    x, y = _batch(spec, cfg, batch)
    model.train()

    def step() -> None:
        opt.zero_grad()
        loss = spec.loss_fn(model(x), y)
        loss.backward()
        opt.step()
        sched.step()

    return step


def gpt(spec: Any, cfg: dict[str, Any], batch: int) -> Step:
    """karpathy/nanoGPT@3adf61e train.py: ``get_batch`` (random offsets into the uint16 token
    array, ``torch.stack`` of int64 slices), ``get_lr`` set on every group, one micro-step
    (``gradient_accumulation_steps`` 1 here, as the bundled run's ``--grad-accum 1``):
    ``logits, loss = model(X, Y)``, the next ``get_batch``, ``scaler.scale(loss).backward()``
    (a disabled GradScaler in fp32), ``clip_grad_norm_(1.0)``, ``scaler.step``,
    ``scaler.update``, ``zero_grad(set_to_none=True)``; AdamW from ``configure_optimizers``
    (decay on dim >= 2, no fused on the CPU)."""
    from workloads.runtime.schedules import lr_at

    model = spec.build_model(cfg)
    recipe = spec.recipe
    decay = [p for p in model.parameters() if p.dim() >= 2]
    nodecay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": recipe.weight_decay},
                             {"params": nodecay, "weight_decay": 0.0}],
                            lr=recipe.lr, betas=recipe.betas)
    scaler = torch.amp.GradScaler("cpu", enabled=False)
    t = cfg["seq_len"]
    rng = np.random.default_rng(0)
    data = rng.integers(0, cfg["vocab"], size=t * batch * 64, dtype=np.uint16)

    def get_batch() -> tuple[torch.Tensor, torch.Tensor]:
        ix = torch.randint(len(data) - t, (batch,))
        x = torch.stack([torch.from_numpy((data[i:i + t]).astype(np.int64)) for i in ix])
        y = torch.stack([torch.from_numpy((data[i + 1:i + 1 + t]).astype(np.int64))
                         for i in ix])
        return x, y

    state = {"it": 0, "xy": get_batch()}
    model.train()

    def step() -> None:
        lr = lr_at(recipe, recipe.lr, state["it"], 10**9)
        for g in opt.param_groups:
            g["lr"] = lr
        x, y = state["xy"]
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1), ignore_index=-1)
        state["xy"] = get_batch()
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), recipe.clip_grad_norm)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
        state["it"] += 1

    return step


def resnet50(spec: Any, cfg: dict[str, Any], batch: int) -> Step:
    """pytorch/vision references/classification/train.py ``train_one_epoch``: ``output =
    model(image)``, ``loss = criterion(output, target)``, ``optimizer.zero_grad()``,
    ``loss.backward()``, ``optimizer.step()``; SGD(lr 0.1 x batch / 256, momentum 0.9,
    weight decay 1e-4) from its ``main``."""
    model = spec.build_model(cfg)
    opt = torch.optim.SGD(model.parameters(), lr=0.1 * batch / 256, momentum=0.9,
                          weight_decay=1e-4)
    criterion = torch.nn.CrossEntropyLoss()
    image, target = _batch(spec, cfg, batch)
    model.train()

    def step() -> None:
        output = model(image)
        loss = criterion(output, target)
        opt.zero_grad()
        loss.backward()
        opt.step()

    return step


def unet3d(spec: Any, cfg: dict[str, Any], batch: int) -> Step:
    """NERSC/sc22-dl-tutorial@21ea7dc train.py lines 102-130: ``lr_schedule`` (utils
    __init__.py) before each step, ``optimizer.zero_grad()``, ``gen = model(inp)``,
    ``UNet.loss_func`` (L1 with lambda_rho 0), ``loss.backward()``, ``optimizer.step()``;
    ``optim.Adam(lr=start_lr)``."""
    model = spec.build_model(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    inp, tar = _batch(spec, cfg, batch)
    tot = 10 * (65536 // batch)
    state = {"iters": 0}
    model.train()

    def step() -> None:
        state["iters"] += 1
        opt.param_groups[0]["lr"] = 0.5 * math.sqrt(batch / 64) * 2e-4 * (
            1 + math.cos(math.pi * state["iters"] / tot))
        opt.zero_grad()
        gen = model(inp)
        loss = F.l1_loss(gen, tar)
        loss.backward()
        opt.step()

    return step


def generic(spec: Any, cfg: dict[str, Any], batch: int) -> Step:
    """The loop the remaining originals share: ``optimizer.zero_grad()``, forward, the
    original's loss, ``backward()``, the recipe's clipping, ``optimizer.step()``, with the
    recipe's optimizer at torch's defaults otherwise. anisoSGS: SimAI-Bench offline_train.py
    ``train`` (Adam(lr x ranks), MSE); qcnn: QuadConv_AE's Lightning ``training_step``
    (Adam 1e-4, MSE); PointNet part_seg/train.py's ``train_op`` (Adam, seg loss + 1e-3
    orthogonality; TensorFlow 1 originally); FFN train.py's SGD with clip by value 0.7
    (TensorFlow 1 originally; the FOV movement is the bundled model's)."""
    model = spec.build_model(cfg)
    recipe = spec.recipe
    if recipe.optimizer == "sgd":
        opt: torch.optim.Optimizer = torch.optim.SGD(model.parameters(), lr=recipe.lr,
                                                     momentum=recipe.momentum)
    else:
        opt = torch.optim.Adam(model.parameters(), lr=recipe.lr)
    x, y = _batch(spec, cfg, batch)
    model.train()

    def step() -> None:
        opt.zero_grad()
        loss = spec.loss_fn(model(x), y)
        loss.backward()
        if recipe.clip_grad_value:
            torch.nn.utils.clip_grad_value_(model.parameters(), recipe.clip_grad_value)
        opt.step()

    return step


STEPS: dict[str, Callable[[Any, dict[str, Any], int], Step]] = {
    "cosmictagger": cosmictagger, "gpt": gpt, "resnet50": resnet50, "unet3d": unet3d,
    "anisosgs": generic, "qcnn": generic, "pointnet": generic, "ffn": generic,
}


def main(argv: list[str]) -> int:
    app, config, batch, steps, warmup = argv[0], argv[1], *map(int, argv[2:5])
    import importlib

    spec = importlib.import_module(f"workloads.{app}.model").APP
    torch.manual_seed(0)
    cfg = dict(spec.sizes[config])
    step = STEPS[app](spec, cfg, batch)
    for _ in range(warmup):
        step()
    t0 = time.perf_counter()
    for _ in range(steps - warmup):
        step()
    dt = time.perf_counter() - t0
    print(json.dumps({"app": app, "config": config, "batch": batch,
                      "samples_per_sec": (steps - warmup) * batch / dt}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
