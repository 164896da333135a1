"""The training loop shared by every app."""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import math
import signal
import sys
import time
from typing import Any

import numpy as np
import torch
from torch import nn

from . import checkpoint as ckpt
from .data import DiskSource, ShardDataset, SyntheticSource
from .device import DeviceInfo, peak_memory_mb, reset_peak_memory, select_device
from .distributed import (
    DistContext,
    configure_threads,
    detect_dist_env,
    export_env,
    init_distributed,
    shutdown,
    started_by,
)
from .memory import MemoryFit, fit_batch, headroom
from .precision import PrecisionPlan, setup_precision
from .spec import AppSpec
from .timing import StepTimer, percentile

EXIT_NONFINITE = 3
_HANDLED_SIGNALS = ("SIGTERM", "SIGUSR1", "SIGUSR2")


class NonFiniteLoss(RuntimeError):
    def __init__(self, step: int, value: float) -> None:
        super().__init__(f"loss became {value} at step {step}")
        self.step = step
        self.value = value


class _SignalFlag:
    """Signal handlers only set a flag; the loop acts on it at the next step boundary."""

    def __init__(self) -> None:
        self.signum = 0
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        for name in _HANDLED_SIGNALS:
            sig = getattr(signal, name, None)
            if sig is not None:
                self._previous[sig] = signal.signal(sig, self._handler)

    def _handler(self, signum: int, frame: object) -> None:
        if not self.signum:
            self.signum = signum

    def restore(self) -> None:
        for sig, prev in self._previous.items():
            signal.signal(sig, prev)
        self._previous.clear()


class Logger:
    def __init__(self, rank: int) -> None:
        self.rank = rank

    def info(self, msg: str) -> None:
        if self.rank == 0:
            print(f"[workloads] {msg}", file=sys.stderr, flush=True)

    def all(self, msg: str) -> None:
        print(f"[workloads rank {self.rank}] {msg}", file=sys.stderr, flush=True)


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


def _next_boundary(step: int, sync_every: int, ckpt_every: int, total: int) -> int:
    """The next step after ``step`` that needs a host sync: every ``sync_every`` steps, every
    ``ckpt_every`` steps (0: none) and the last step."""
    nxt = (step // sync_every + 1) * sync_every
    if ckpt_every:
        nxt = min(nxt, (step // ckpt_every + 1) * ckpt_every)
    return min(nxt, total)


def run(spec: AppSpec, args: argparse.Namespace) -> int:
    rc, _ = run_training(spec, args)
    return rc


def run_training(spec: AppSpec, args: argparse.Namespace,
                 emit_json: bool = True) -> tuple[int, dict[str, Any] | None]:
    """Run one training job; returns (exit code, result dict on rank 0)."""
    denv = detect_dist_env()
    launcher = started_by()  # before export_env adds torch's names to the environment
    export_env(denv)
    log = Logger(denv.rank)
    dev = select_device(args.device, denv.local_rank, args.ipex)
    configure_threads(denv, dev)
    ctx = init_distributed(denv, dev, args.dist_timeout, args.dist_backend)
    flag = _SignalFlag()
    flag.install()
    try:
        return _run(spec, args, ctx, dev, log, flag, emit_json, launcher)
    except NonFiniteLoss as exc:
        log.all(f"ERROR: {exc}; stopping the run (non-finite loss at step {exc.step}). "
                "Lower --lr, use --precision fp32/bf16, or check the input data.")
        shutdown(ctx)
        return EXIT_NONFINITE, None
    finally:
        flag.restore()


def _run(spec: AppSpec, args: argparse.Namespace, ctx: DistContext, dev: DeviceInfo,
         log: Logger, flag: _SignalFlag, emit_json: bool,
         launcher: str) -> tuple[int, dict[str, Any] | None]:
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

    torch.manual_seed(args.seed)
    np.random.seed(args.seed % 2**32)
    import random

    random.seed(args.seed)

    source = _build_source(spec, args, cfg, dev, ctx, batch_size,
                           loaded[0] if loaded else 0, fmt)

    model = spec.build_model(cfg).to(dev.device)
    if fmt is not None:
        model = model.to(memory_format=fmt)
    raw_model = model
    optimizer = make_optimizer(raw_model.parameters(), lr, args.optimizer_impl)
    scaler = prec.scaler
    meta = {"app": spec.name, "size": size, "config": cfg, "batch_size": batch_size,
            "world_size": world}

    if loaded is not None:
        start_step, state, rng = loaded
        saved_meta = state.get("meta", {})
        if saved_meta.get("app") != spec.name or saved_meta.get("config") != cfg:
            raise RuntimeError(f"checkpoint in {args.checkpoint_dir} is for "
                               f"{saved_meta.get('app')} {saved_meta.get('size')}, not "
                               f"{spec.name} {size}")
        if saved_meta.get("world_size") != world or saved_meta.get("batch_size") != batch_size:
            log.info("warning: resuming with a different world size or batch size; the run "
                     "will not reproduce an uninterrupted one")
        raw_model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        if scaler is not None and state.get("scaler"):
            scaler.load_state_dict(state["scaler"])
        first_loss = state.get("first_loss")
        if rng is not None:
            ckpt.restore_rng(rng, dev)
        log.info(f"resumed from {mgr.step_dir(start_step) if mgr else '?'} at step {start_step}")

    train_model: nn.Module = raw_model
    if ctx.enabled and args.mode != "data":
        from torch.nn.parallel import DistributedDataParallel as DDP

        ids = [dev.device.index] if dev.type in ("cuda", "xpu") else None
        train_model = DDP(raw_model, device_ids=ids)
    if args.compile and args.mode != "data":
        train_model = torch.compile(train_model)  # type: ignore[assignment]
    train_model.train()

    loss_fn = spec.loss_fn
    remaining = total - start_step
    warmup = min(max(args.warmup, 0), max(remaining - 1, 0))
    timed_from = start_step + warmup  # 0-based index of the first timed step
    timer = StepTimer(dev, pool=max(1, args.sync_every) + 2)
    sync_every = max(1, args.sync_every)
    ckpt_every = max(0, args.checkpoint_every)
    fixed_batch = source.get(start_step) if args.mode == "compute" else None
    window: list[torch.Tensor] = []  # detached losses since the last host sync
    window_start = start_step + 1
    last_loss: float | None = None
    stop_signal = 0
    step = start_step  # steps completed
    reset_peak_memory(dev)
    log.info(f"{spec.name} ({size}) on {dev.name} [{dev.type}], world size {world}, "
             f"batch {batch_size}/rank, precision {prec.effective}, mode {args.mode}, "
             f"steps {start_step}->{total} (warm-up {warmup})")

    def host_sync(step_done: int) -> None:
        """Check losses for NaN/inf, agree on signals across ranks, log."""
        nonlocal window, window_start, last_loss, first_loss, stop_signal
        bad_step = math.inf
        bad_value = 0.0
        if window:
            vals = torch.stack(window).float().cpu()
            finite = torch.isfinite(vals)
            if not bool(finite.all()):
                i = int((~finite).nonzero()[0, 0])
                bad_step, bad_value = float(window_start + i), float(vals[i])
            if first_loss is None and window_start == 1:
                first_loss = float(vals[0])
            last_loss = float(vals[-1])
        sig = float(flag.signum)
        if ctx.enabled:
            bad_step, neg_sig = ctx.all_reduce([bad_step, -sig], op="min")
            sig = -neg_sig
        if math.isfinite(bad_step):
            raise NonFiniteLoss(int(bad_step), bad_value if bad_value else math.nan)
        stop_signal = int(sig)
        if timer.started:
            timer.collect()
        window = []
        window_start = step_done + 1
        if last_loss is not None:
            log.info(f"step {step_done}/{total} loss {last_loss:.6g}")

    def save(step_done: int) -> None:
        assert mgr is not None
        t0 = time.perf_counter()
        state = None
        if rank == 0:
            state = {"model": raw_model.state_dict(), "optimizer": optimizer.state_dict(),
                     "scaler": scaler.state_dict() if scaler is not None else None,
                     "step": step_done, "first_loss": first_loss, "meta": meta,
                     "data_position": {"kind": source.kind, "step": step_done,
                                       "seed": args.seed}}
        d = mgr.save(step_done, state, ckpt.capture_rng(dev), ctx.barrier,
                     {"app": spec.name, "size": size})
        log.info(f"checkpoint step {step_done} -> {d} ({time.perf_counter() - t0:.2f}s)")

    # The step loop below does the least host work it can between syncs: a launch-bound step
    # pays for every line (benchmarks/workloads_overhead.py compares it with a bare loop).
    # Per-step checks are on precomputed locals; the sync, checkpoint and signal logic runs
    # only at the boundaries `_next_boundary` computes.
    compute = args.mode != "data"
    fail_at = args.debug_fail_at_step if args.debug_fail_rank == rank else None
    nan_at = args.inject_nan_at_step
    pause = args.debug_step_sleep
    single = not ctx.enabled
    amp = prec.autocast()  # re-entered every step (one context object, not one per step)
    boundary = _next_boundary(start_step, sync_every, ckpt_every if mgr else 0, total)
    gc.freeze()  # the model and optimizer are long-lived: keep them out of collector passes
    for i in range(start_step, total):
        if i == timed_from:
            timer.start()
        if compute:
            x, y = fixed_batch if fixed_batch is not None else source.get(i)
            if fail_at == i + 1:
                raise RuntimeError(f"injected failure at step {i + 1} on rank {rank}")
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
            optimizer.zero_grad(set_to_none=True)
            window.append(loss.detach())
        else:
            source.get(i)
        if pause:
            time.sleep(pause)
        step = i + 1
        if timer.started:
            timer.mark()
        if step < boundary and not (single and flag.signum):
            continue
        need_ckpt = mgr is not None and (
            (ckpt_every and step % ckpt_every == 0) or step == total)
        host_sync(step)
        boundary = _next_boundary(step, sync_every, ckpt_every if mgr else 0, total)
        if mgr is not None and (need_ckpt or stop_signal):
            save(step)
        if stop_signal:
            gc.unfreeze()
            name = signal.Signals(stop_signal).name
            code = 128 + stop_signal
            where = (f"saved a checkpoint at step {step} in {args.checkpoint_dir}" if mgr
                     else "no --checkpoint-dir, nothing saved")
            log.info(f"received {name}: {where}; exiting with code {code}")
            shutdown(ctx)
            return code, None
    if timer.started:
        timer.stop()
    gc.unfreeze()

    timed_steps = max(0, total - timed_from) if timer.started else 0
    elapsed = timer.elapsed_s
    if ctx.enabled:
        elapsed = ctx.all_reduce([elapsed], op="max")[0]
    step_ms = timer.step_times_ms()
    result: dict[str, Any] | None = None
    if rank == 0:
        per_rank = batch_size * timed_steps / elapsed if elapsed > 0 else None
        result = {
            "app": spec.name,
            "framework": "pytorch",
            "framework_version": torch.__version__,
            "device": dev.type,
            "device_name": dev.name,
            "device_stack": dev.stack,
            "precision": prec.effective,
            "precision_requested": prec.requested,
            "precision_note": "; ".join(prec.notes) or None,
            "mode": args.mode,
            "size": size,
            "world_size": world,
            "launcher": launcher,
            "rank_variables": list(ctx.env.variables),
            "dist_backend": ctx.backend,
            "batch_size": batch_size,
            "batch_size_requested": args.batch_size,
            "batch_note": batch_note,
            "global_batch_size": batch_size * world,
            "steps": total,
            "warmup_steps": warmup,
            "timed_steps": timed_steps,
            "resumed_from_step": start_step or None,
            "samples_per_sec": per_rank * world if per_rank is not None else None,
            "samples_per_sec_per_rank": per_rank,
            "step_time_ms_p50": percentile(step_ms, 50),
            "step_time_ms_p90": percentile(step_ms, 90),
            "step_time_ms_mean": sum(step_ms) / len(step_ms) if step_ms else None,
            "elapsed_s": elapsed,
            "peak_mem_mb": peak_memory_mb(dev),
            **headroom(dev),
            "first_loss": first_loss,
            "final_loss": last_loss,
            "param_sha256": param_sha256(raw_model) if args.mode != "data" else None,
            "data": args.data,
            "channels_last": fmt is not None,
            "compile": bool(args.compile),
            "optimizer_impl": optimizer_impl(args.optimizer_impl, dev),
            "pin_memory": getattr(source, "pin_memory", None),
            "seed": args.seed,
        }
        if emit_json:
            sys.stdout.write(json.dumps(result) + "\n")
            sys.stdout.flush()
    shutdown(ctx)
    return 0, result

