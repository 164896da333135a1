"""The training loop shared by every app."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from . import checkpoint as ckpt
from .data import DiskSource, ShardDataset, SyntheticSource
from .device import DeviceInfo, peak_memory_mb, reset_peak_memory, select_device
from .distributed import (
    DistContext,
    Instance,
    configure_threads,
    detect_dist_env,
    detect_instance,
    export_env,
    init_distributed,
    ranks_per_device,
    shutdown,
    started_by,
)
from .loop import (
    Hooks,
    Logger,
    NonFiniteLoss,
    SignalFlag,
    emit,
    report_nonfinite,
    result_line,
    run_steps,
    stop_code,
    warmup_steps,
)
from .memory import MemoryFit, fit_batch, headroom
from .precision import PrecisionPlan, setup_precision
from .spec import AppSpec
from .timing import device_timer


def param_sha256(model: nn.Module) -> str:
    """Hash of every parameter and buffer (names, dtypes, shapes, bytes)."""
    h = hashlib.sha256()
    for name, t in model.state_dict().items():
        t = t.detach().cpu().contiguous()
        h.update(f"{name}:{t.dtype}:{tuple(t.shape)};".encode())
        h.update(t.reshape(-1).view(torch.uint8).numpy().tobytes())
    return h.hexdigest()


def _memory_format(spec: AppSpec, enabled: bool) -> torch.memory_format | None:
    if not enabled or spec.spatial_dims is None:
        return None
    return torch.channels_last if spec.spatial_dims == 2 else torch.channels_last_3d


def make_optimizer(params: Any, lr: float, impl: str) -> torch.optim.Optimizer:
    """AdamW with the requested implementation ("auto": PyTorch's own choice)."""
    kwargs = {"auto": {}, "foreach": {"foreach": True}, "fused": {"fused": True},
              "for-loop": {"foreach": False}}[impl]
    return torch.optim.AdamW(params, lr=lr, **kwargs)


def optimizer_impl(impl: str, dev: DeviceInfo) -> str:
    """What "auto" means: AdamW picks foreach for GPU tensors and the for-loop on the CPU."""
    if impl != "auto":
        return impl
    return "foreach" if dev.type in ("cuda", "xpu") else "for-loop"


def _auto_batch(spec: AppSpec, cfg: dict[str, Any], dev: DeviceInfo, ctx: DistContext,
                prec: PrecisionPlan, fmt: torch.memory_format | None, default: int,
                lr: float, impl: str) -> MemoryFit:
    """``--batch-size auto``: probe a throw-away copy of the model (memory.fit_batch); every
    rank takes the smallest answer so the global batch is the same everywhere."""
    param_bytes = [0]

    def make_step():
        model = spec.build_model(cfg).to(dev.device)
        if fmt is not None:
            model = model.to(memory_format=fmt)
        param_bytes[0] = sum(p.numel() * p.element_size() for p in model.parameters())
        opt = make_optimizer(model.parameters(), lr, impl)
        task = spec.make_task(cfg, dev.device)
        gen = torch.Generator(device=dev.device)

        def step(batch: int) -> None:
            gen.manual_seed(batch)
            x, y = task(gen, batch)
            if fmt is not None:
                x = x.contiguous(memory_format=fmt)
            with prec.autocast():
                loss = spec.loss_fn(model(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)

        return step

    # DDP keeps a second copy of the gradients in its buckets.
    fit = fit_batch(make_step, dev, default, lambda: param_bytes[0] if ctx.enabled else 0)
    if ctx.enabled:
        agreed = int(ctx.all_reduce([float(fit.batch)], op="min")[0])
        if agreed != fit.batch:
            fit = MemoryFit(agreed, f"{fit.note}; {agreed}, the smallest of all ranks")
    return fit


def _build_source(spec: AppSpec, args: argparse.Namespace, cfg: dict[str, Any],
                  dev: DeviceInfo, ctx: DistContext, batch_size: int, start_step: int,
                  fmt: torch.memory_format | None) -> SyntheticSource | DiskSource:
    rank, world = ctx.env.rank, ctx.env.world_size
    if args.data == "synthetic":
        task = spec.make_task(cfg, dev.device)
        return SyntheticSource(task, batch_size, args.seed, rank, dev.device, fmt)
    dataset = spec.open_dataset(args.data, cfg) if spec.open_dataset else None
    if dataset is None:
        dataset = ShardDataset(args.data, app=spec.name, config=cfg)
    return DiskSource(dataset, batch_size, args.seed, rank, world, dev.device, args.workers,
                      start_step, fmt, args.pin_memory)


def run(spec: AppSpec, args: argparse.Namespace) -> int:
    rc, _ = run_training(spec, args)
    return rc


def run_training(spec: AppSpec, args: argparse.Namespace,
                 emit_json: bool = True) -> tuple[int, dict[str, Any] | None]:
    """Run one training job; returns (exit code, result dict on rank 0)."""
    denv = detect_dist_env()
    launcher = started_by()  # before export_env adds torch's names to the environment
    export_env(denv)
    instance = detect_instance()
    if instance is not None:
        args = _for_instance(args, instance)
    log = Logger(denv.rank, instance.index if instance else None)
    dev = select_device(args.device, denv.local_rank, args.ipex)
    configure_threads(denv, dev)
    ctx = init_distributed(denv, dev, args.dist_timeout, args.dist_backend)
    flag = SignalFlag()
    flag.install()
    try:
        return _run(spec, args, ctx, dev, log, flag, emit_json, launcher, instance)
    except NonFiniteLoss as exc:
        rc = report_nonfinite(log, exc)
        shutdown(ctx)
        return rc, None
    finally:
        flag.restore()


def _for_instance(args: argparse.Namespace, instance: Instance) -> argparse.Namespace:
    """An instance of several independent trainings: its own seed and checkpoints."""
    out = argparse.Namespace(**vars(args))
    out.seed = args.seed + instance.index
    if args.checkpoint_dir:
        out.checkpoint_dir = str(Path(args.checkpoint_dir) / f"instance-{instance.index}")
    return out


def _model_after_ddp(dev: DeviceInfo, ctx: DistContext, args: argparse.Namespace) -> bool:
    """Ranks sharing an Intel GPU tile (several CCSs): ALCF's PyTorch guide says to move the
    model to the XPU only after the DDP wrapper, to avoid hangs."""
    return dev.type == "xpu" and ctx.enabled and args.mode != "data" and ranks_per_device() > 1


def _write_result(path: str, result: dict[str, Any]) -> None:
    """The result line, also in the file the job's summary step reads (written atomically)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(result) + "\n", encoding="utf-8")
    os.replace(tmp, target)


def _run(spec: AppSpec, args: argparse.Namespace, ctx: DistContext, dev: DeviceInfo,
         log: Logger, flag: SignalFlag, emit_json: bool, launcher: str,
         instance: Instance | None = None) -> tuple[int, dict[str, Any] | None]:
    rank, world = ctx.env.rank, ctx.env.world_size
    size = "tiny" if args.tiny else "default"
    cfg = dict(spec.sizes[size])
    default_batch = spec.tiny_batch_size if args.tiny else spec.default_batch_size
    lr = args.lr if args.lr is not None else spec.lr
    total = args.steps
    if total < 1:
        raise ValueError("--steps must be >= 1")
    prec = setup_precision(args.precision, dev)
    for note in prec.notes:
        log.info(f"note: {note}")
    fmt = _memory_format(spec, args.channels_last)
    if args.channels_last and fmt is None:
        log.info(f"note: --channels-last has no effect on {spec.name} (no conv layers)")

    # --- checkpoint: resume before building the data source (its position depends on it) ---
    mgr = None
    start_step = 0
    first_loss: float | None = None
    loaded = None
    if args.checkpoint_dir and args.mode == "train":
        mgr = ckpt.CheckpointManager(args.checkpoint_dir, rank, args.keep_checkpoints)
        if not args.no_resume:
            loaded = mgr.load_latest()
    elif args.checkpoint_dir:
        log.info(f"note: checkpointing is disabled in --mode {args.mode}")

    batch_note = None
    if args.batch_size != "auto":
        batch_size = args.batch_size or default_batch
    elif loaded is not None:  # a resumed run keeps the batch it was sized with
        batch_size = int(loaded[1].get("meta", {}).get("batch_size") or default_batch)
        batch_note = f"auto batch {batch_size}: kept from the checkpoint"
    else:
        fit = _auto_batch(spec, cfg, dev, ctx, prec, fmt, default_batch, lr, args.optimizer_impl)
        batch_size, batch_note = fit.batch, fit.note
    if batch_note:
        log.info(batch_note)

    # seeded after the auto-batch probe, so a run draws the same numbers with or without it
    torch.manual_seed(args.seed)
    np.random.seed(args.seed % 2**32)
    random.seed(args.seed)

    source = _build_source(spec, args, cfg, dev, ctx, batch_size,
                           loaded[0] if loaded else 0, fmt)

    after_ddp = _model_after_ddp(dev, ctx, args)
    raw_model = spec.build_model(cfg)
    if not after_ddp:
        raw_model = raw_model.to(dev.device)
    if fmt is not None:
        raw_model = raw_model.to(memory_format=fmt)
    scaler = prec.scaler
    meta = {"app": spec.name, "size": size, "config": cfg, "batch_size": batch_size,
            "world_size": world}

    if loaded is not None:
        start_step, state, rng = loaded
        ckpt.check_meta(state.get("meta", {}), meta, args.checkpoint_dir, log.info)
        raw_model.load_state_dict(state["model"])

    train_model: nn.Module = raw_model
    if ctx.enabled and args.mode != "data":
        from torch.nn.parallel import DistributedDataParallel as DDP

        ids = [dev.device.index] if dev.type in ("cuda", "xpu") and not after_ddp else None
        train_model = DDP(raw_model, device_ids=ids)
        if after_ddp:
            train_model.to(dev.device)  # moves raw_model's parameters in place
    # The optimizer and its state after the model's last move, so they sit on its device.
    optimizer = make_optimizer(raw_model.parameters(), lr, args.optimizer_impl)
    if loaded is not None:
        _, state, rng = loaded
        optimizer.load_state_dict(state["optimizer"])
        if scaler is not None and state.get("scaler"):
            scaler.load_state_dict(state["scaler"])
        first_loss = state.get("first_loss")
        if rng is not None:
            ckpt.restore_rng(rng, dev)
        log.info(f"resumed from {mgr.step_dir(start_step) if mgr else '?'} at step {start_step}")

    if args.compile and args.mode != "data":
        train_model = torch.compile(train_model)  # type: ignore[assignment]
    train_model.train()

    loss_fn = spec.loss_fn
    reset_peak_memory(dev)
    warmup = warmup_steps(args, start_step)
    log.info(f"{spec.name} ({size}) on {dev.name} [{dev.type}], world size {world}, "
             f"batch {batch_size}/rank, precision {prec.effective}, mode {args.mode}, "
             f"steps {start_step}->{total} (warm-up {warmup})")

    # One optimizer step with the least host work: a launch-bound step (qcnn on an H100) pays
    # for every attribute lookup and context object (benchmarks/workloads_overhead.py).
    amp = prec.autocast()  # one context object, re-entered every step
    nan_at = args.inject_nan_at_step
    zero_grad = optimizer.zero_grad

    def train(batch: tuple[torch.Tensor, torch.Tensor], i: int) -> torch.Tensor:
        x, y = batch
        with amp:
            loss = loss_fn(train_model(x), y)
        if nan_at == i + 1:
            loss = loss * float("nan")
        if scaler is None:
            loss.backward()
            optimizer.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        zero_grad(set_to_none=True)
        return loss.detach()

    def save(step_done: int, first: float | None) -> None:
        assert mgr is not None
        t0 = time.perf_counter()
        state = None
        if rank == 0:
            state = {"model": raw_model.state_dict(), "optimizer": optimizer.state_dict(),
                     "scaler": scaler.state_dict() if scaler is not None else None,
                     "step": step_done, "first_loss": first, "meta": meta,
                     "data_position": {"kind": source.kind, "step": step_done,
                                       "seed": args.seed}}
        d = mgr.save(step_done, state, ckpt.capture_rng(dev), ctx.barrier,
                     {"app": spec.name, "size": size})
        log.info(f"checkpoint step {step_done} -> {d} ({time.perf_counter() - t0:.2f}s)")

    hooks = Hooks(
        batch=source.get, train=train,
        losses=lambda window: torch.stack(window).float().cpu().tolist(),
        all_reduce=(lambda v, op: ctx.all_reduce(v, op=op)) if ctx.enabled else None,
        save=save if mgr is not None else None,
        timer=device_timer(dev, pool=max(1, args.sync_every) + 2))
    out = run_steps(args, hooks, log, flag, rank, start_step, first_loss)
    if out.stop_signal:
        shutdown(ctx)
        return stop_code(log, out, args.checkpoint_dir, mgr is not None), None

    result: dict[str, Any] | None = None
    if rank == 0:
        result = result_line(
            args, out, batch_size, world, start_step,
            app=spec.name, framework="pytorch", framework_version=torch.__version__,
            device=dev.type, device_name=dev.name, device_stack=dev.stack,
            precision=prec.effective, precision_requested=prec.requested,
            precision_note="; ".join(prec.notes) or None, size=size,
            launcher=launcher, rank_variables=list(ctx.env.variables), dist_backend=ctx.backend,
            batch_size_requested=args.batch_size, batch_note=batch_note,
            peak_mem_mb=peak_memory_mb(dev), **headroom(dev),
            param_sha256=param_sha256(raw_model) if args.mode != "data" else None,
            channels_last=fmt is not None, compile=bool(args.compile),
            optimizer_impl=optimizer_impl(args.optimizer_impl, dev),
            pin_memory=getattr(source, "pin_memory", None))
        result["ranks_per_device"] = ranks_per_device()
        if instance is not None:
            result["instance"] = instance.index
            result["instances"] = instance.count
        if emit_json:
            emit(result)
        if instance is not None and instance.result_file:
            _write_result(instance.result_file, result)
    shutdown(ctx)
    return 0, result
