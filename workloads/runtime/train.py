"""The training loop shared by every app."""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import signal
import sys
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
)
from .precision import setup_precision
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
    def __init__(self, rank: int, instance: Instance | None = None) -> None:
        self.rank = rank
        self.tag = f"[workloads instance {instance.index}]" if instance else "[workloads]"

    def info(self, msg: str) -> None:
        if self.rank == 0:
            print(f"{self.tag} {msg}", file=sys.stderr, flush=True)

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
                      start_step, fmt)


def run(spec: AppSpec, args: argparse.Namespace) -> int:
    rc, _ = run_training(spec, args)
    return rc


def run_training(spec: AppSpec, args: argparse.Namespace,
                 emit_json: bool = True) -> tuple[int, dict[str, Any] | None]:
    """Run one training job; returns (exit code, result dict on rank 0)."""
    denv = detect_dist_env()
    export_env(denv)
    instance = detect_instance()
    if instance is not None:
        args = _for_instance(args, instance)
    log = Logger(denv.rank, instance)
    dev = select_device(args.device, denv.local_rank, args.ipex)
    configure_threads(denv, dev)
    ctx = init_distributed(denv, dev, args.dist_timeout, args.dist_backend)
    flag = _SignalFlag()
    flag.install()
    try:
        return _run(spec, args, ctx, dev, log, flag, emit_json, instance)
    except NonFiniteLoss as exc:
        log.all(f"ERROR: {exc}; stopping the run (non-finite loss at step {exc.step}). "
                "Lower --lr, use --precision fp32/bf16, or check the input data.")
        shutdown(ctx)
        return EXIT_NONFINITE, None
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
         log: Logger, flag: _SignalFlag, emit_json: bool,
         instance: Instance | None = None) -> tuple[int, dict[str, Any] | None]:
    rank, world = ctx.env.rank, ctx.env.world_size
    size = "tiny" if args.tiny else "default"
    cfg = dict(spec.sizes[size])
    batch_size = args.batch_size or (spec.tiny_batch_size if args.tiny else
                                     spec.default_batch_size)
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

    torch.manual_seed(args.seed)
    np.random.seed(args.seed % 2**32)
    import random

    random.seed(args.seed)

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
        saved_meta = state.get("meta", {})
        if saved_meta.get("app") != spec.name or saved_meta.get("config") != cfg:
            raise RuntimeError(f"checkpoint in {args.checkpoint_dir} is for "
                               f"{saved_meta.get('app')} {saved_meta.get('size')}, not "
                               f"{spec.name} {size}")
        if saved_meta.get("world_size") != world or saved_meta.get("batch_size") != batch_size:
            log.info("warning: resuming with a different world size or batch size; the run "
                     "will not reproduce an uninterrupted one")
        raw_model.load_state_dict(state["model"])

    train_model: nn.Module = raw_model
    if ctx.enabled and args.mode != "data":
        from torch.nn.parallel import DistributedDataParallel as DDP

        ids = [dev.device.index] if dev.type in ("cuda", "xpu") and not after_ddp else None
        train_model = DDP(raw_model, device_ids=ids)
        if after_ddp:
            train_model.to(dev.device)  # moves raw_model's parameters in place
    # The optimizer and its state after the model's last move, so they sit on its device.
    optimizer = torch.optim.AdamW(raw_model.parameters(), lr=lr)
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
    timer = StepTimer(dev)
    remaining = total - start_step
    warmup = min(max(args.warmup, 0), max(remaining - 1, 0))
    timed_from = start_step + warmup  # 0-based index of the first timed step
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

    for i in range(start_step, total):
        if i == timed_from:
            timer.start()
        if args.mode == "data":
            x, y = source.get(i)
        else:
            x, y = fixed_batch if fixed_batch is not None else source.get(i)
            if args.debug_fail_at_step == i + 1 and args.debug_fail_rank == rank:
                raise RuntimeError(f"injected failure at step {i + 1} on rank {rank}")
            with prec.autocast():
                out = train_model(x)
                loss = loss_fn(out, y)
            if args.inject_nan_at_step == i + 1:
                loss = loss * float("nan")
            if scaler is not None:
                scaler.scale(loss).backward()
                scaler.step(optimizer)
                scaler.update()
            else:
                loss.backward()
                optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            window.append(loss.detach())
        if args.debug_step_sleep:
            time.sleep(args.debug_step_sleep)
        step = i + 1
        if timer.started:
            timer.mark()
        need_ckpt = mgr is not None and (
            (ckpt_every and step % ckpt_every == 0) or step == total)
        if (step % sync_every == 0 or step == total or need_ckpt
                or (not ctx.enabled and flag.signum)):
            host_sync(step)
        if mgr is not None and (need_ckpt or stop_signal):
            save(step)
        if stop_signal:
            name = signal.Signals(stop_signal).name
            code = 128 + stop_signal
            where = (f"saved a checkpoint at step {step} in {args.checkpoint_dir}" if mgr
                     else "no --checkpoint-dir, nothing saved")
            log.info(f"received {name}: {where}; exiting with code {code}")
            shutdown(ctx)
            return code, None
    if timer.started:
        timer.stop()

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
            "launcher": ctx.env.launcher,
            "dist_backend": ctx.backend,
            "batch_size": batch_size,
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
            "first_loss": first_loss,
            "final_loss": last_loss,
            "param_sha256": param_sha256(raw_model) if args.mode != "data" else None,
            "data": args.data,
            "channels_last": fmt is not None,
            "compile": bool(args.compile),
            "seed": args.seed,
            "ranks_per_device": ranks_per_device(),
        }
        if instance is not None:
            result["instance"] = instance.index
            result["instances"] = instance.count
        if emit_json:
            sys.stdout.write(json.dumps(result) + "\n")
            sys.stdout.flush()
        if instance is not None and instance.result_file:
            _write_result(instance.result_file, result)
    shutdown(ctx)
    return 0, result

