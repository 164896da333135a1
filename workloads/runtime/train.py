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
from . import placement
from .budget import estimate_seconds
from .contract import (
    Recipe,
    batch_size_of,
    config_name,
    model_config,
    recipe_of,
    with_options,
)
from .data import DiskSource, SyntheticSource, open_data
from .device import DeviceInfo, peak_memory_mb, reset_peak_memory, select_device
from .distributed import (
    DistContext,
    Instance,
    all_gather_objects,
    configure_threads,
    detect_dist_env,
    detect_instance,
    device_id,
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
    finished_before,
    report_nonfinite,
    result_line,
    run_steps,
    stop_code,
    stopped_for_budget,
    time_budget,
    warmup_steps,
)
from .memory import MemoryFit, fit_batch, headroom
from .metrics import LossTrack, peak_for
from .optim import Schedule, make_clipper
from .optim import make_optimizer as recipe_optimizer
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


def make_optimizer(params: Any, lr: float, impl: str,
                   recipe: Recipe | None = None) -> torch.optim.Optimizer:
    """The recipe's optimizer (None: AdamW with torch's defaults) with the requested
    implementation ("auto": PyTorch's own choice)."""
    from .contract import legacy_recipe

    return recipe_optimizer(params, recipe or legacy_recipe(lr), lr, impl)


def optimizer_impl(impl: str, dev: DeviceInfo) -> str:
    """What "auto" means: Adam, AdamW and SGD pick foreach for GPU tensors and the for-loop
    on the CPU."""
    if impl != "auto":
        return impl
    return "foreach" if dev.type in ("cuda", "xpu") else "for-loop"


def _auto_batch(spec: AppSpec, cfg: dict[str, Any], dev: DeviceInfo, ctx: DistContext,
                prec: PrecisionPlan, fmt: torch.memory_format | None, default: int,
                lr: float, impl: str, recipe: Recipe | None = None) -> MemoryFit:
    """``--batch-size auto``: probe a throw-away copy of the model (memory.fit_batch); every
    rank takes the smallest answer so the global batch is the same everywhere."""
    param_bytes = [0]

    def make_step():
        model = spec.build_model(cfg).to(dev.device)
        if fmt is not None:
            model = model.to(memory_format=fmt)
        param_bytes[0] = sum(p.numel() * p.element_size() for p in model.parameters())
        opt = make_optimizer(model.parameters(), lr, impl, recipe)
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
        source = SyntheticSource(task, batch_size, args.seed, rank, dev.device, fmt)
        if args.mode == "train":  # untimed, as the originals make their synthetic batch
            source.draw_ahead(start_step, args.steps)
        return source
    dataset = open_data(spec, args.data, cfg)
    return DiskSource(dataset, batch_size, args.seed, rank, world, dev.device, args.workers,
                      start_step, fmt, args.pin_memory)


def run(spec: AppSpec, args: argparse.Namespace) -> int:
    rc, _ = run_training(spec, args)
    return rc


#: what --precision, --compile and --optimizer-impl mean when neither the command line nor
#: the app (AppSpec.run_defaults) sets them
RUNTIME_DEFAULTS = {"precision": "fp32", "compile": False, "optimizer_impl": "auto"}


def fill_defaults(spec: AppSpec, args: argparse.Namespace, dev: DeviceInfo) -> list[str]:
    """The options left unset (None) take the app's default on ``dev``, else the runtime's;
    returns a note for each value the app chose."""
    name = config_name(bool(getattr(args, "tiny", False)), getattr(args, "config", None))
    own = spec.run_defaults(dev, name) if spec.run_defaults is not None else {}
    notes = []
    for key, fallback in RUNTIME_DEFAULTS.items():
        if getattr(args, key, None) is not None:
            continue
        if key in own:
            value, why = own[key]
            setattr(args, key, value)
            notes.append(f"{key.replace('_', '-')} {value}: {spec.name} {name}'s default on "
                         f"{dev.type} ({why})")
        else:
            setattr(args, key, fallback)
    return notes


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
    for note in fill_defaults(spec, args, dev):
        log.info(f"note: {note}")
    configure_threads(denv, dev)
    ctx = init_distributed(denv, dev, args.dist_timeout, args.dist_backend)
    # before the model is built: each rank where the plan puts it (jobgen's script asks)
    code = placement.check(denv.rank, denv.local_rank, denv.world_size,
                           lambda report: all_gather_objects(ctx, report), log.info,
                           device_id(dev), ranks_per_device())
    if code:
        shutdown(ctx)
        return code, None
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


def _checkpoints(args: argparse.Namespace, rank: int, log: Logger
                 ) -> tuple[ckpt.CheckpointManager | None, Any]:
    """The checkpoint manager (train mode with --checkpoint-dir) and what it resumes from."""
    if args.checkpoint_dir and args.mode == "train":
        mgr = ckpt.CheckpointManager(args.checkpoint_dir, rank, args.keep_checkpoints)
        return mgr, (None if args.no_resume else mgr.load_latest())
    if args.checkpoint_dir:
        log.info(f"note: checkpointing is disabled in --mode {args.mode}")
    return None, None


def _flops(spec: AppSpec, cfg: dict[str, Any], batch: int) -> tuple[int | None, str]:
    """Training FLOPs per sample at the run's batch, for the result line and its MFU (on the
    meta device only: a model that needs real values is counted by --describe, not at the end
    of every run)."""
    from .flops import RUN_METHOD, train_flops_at

    try:
        return train_flops_at(spec, cfg, batch), RUN_METHOD
    except Exception as exc:  # noqa: BLE001 - a count that fails must not fail a finished run
        return None, f"not counted at run time ({type(exc).__name__}); see --describe"


def _run(spec: AppSpec, args: argparse.Namespace, ctx: DistContext, dev: DeviceInfo,
         log: Logger, flag: SignalFlag, emit_json: bool, launcher: str,
         instance: Instance | None = None) -> tuple[int, dict[str, Any] | None]:
    rank, world = ctx.env.rank, ctx.env.world_size
    name = config_name(bool(getattr(args, "tiny", False)), getattr(args, "config", None))
    cfg = with_options(spec.sizes[name], args)
    default_batch = batch_size_of(spec, name, cfg)
    recipe = recipe_of(spec, cfg)
    if args.steps < 1:
        raise ValueError("--steps must be >= 1")
    prec = setup_precision(args.precision, dev)
    for note in prec.notes:
        log.info(f"note: {note}")
    fmt = _memory_format(spec, args.channels_last)
    if args.channels_last and fmt is None:
        log.info(f"note: --channels-last has no effect on {spec.name} (no conv layers)")

    # --- checkpoint: resume before building the data source (its position depends on it) ---
    mgr, loaded = _checkpoints(args, rank, log)
    done = finished_before(mgr, loaded, args, rank, log)
    batch_note = None
    if args.batch_size != "auto":
        batch_size = args.batch_size or default_batch
    elif loaded is not None:  # a resumed run keeps the batch it was sized with
        batch_size = int(loaded[1].get("meta", {}).get("batch_size") or default_batch)
        batch_note = f"auto batch {batch_size}: kept from the checkpoint"
    else:
        fit = _auto_batch(spec, cfg, dev, ctx, prec, fmt, default_batch,
                          recipe.scaled_lr(default_batch * world, world), args.optimizer_impl,
                          recipe)
        batch_size, batch_note = fit.batch, fit.note
    if batch_note:
        log.info(batch_note)
    lr = args.lr if args.lr is not None else recipe.scaled_lr(batch_size * world, world)
    accum = _grad_accum(args, cfg, world, log)

    # seeded after the auto-batch probe, so a run draws the same numbers with or without it
    torch.manual_seed(args.seed)
    np.random.seed(args.seed % 2**32)
    random.seed(args.seed)

    start = loaded[0] if loaded else 0
    # a step's micro-batches come as one batch of batch_size x accum, split in _train_step
    source = None if args.mode == "trials" else _build_source(
        spec, args, cfg, dev, ctx, batch_size * accum, start, fmt)
    recipe = _epoch_samples(recipe, source, log)

    after_ddp = _model_after_ddp(dev, ctx, args)
    raw_model = spec.build_model(cfg)
    if not after_ddp:
        raw_model = raw_model.to(dev.device)
    if fmt is not None:
        raw_model = raw_model.to(memory_format=fmt)
    meta = {"app": spec.name, "size": name, "config": model_config(cfg),
            "batch_size": batch_size, "world_size": world, "grad_accum": accum}
    if loaded is not None:
        ckpt.check_meta(loaded[1].get("meta", {}), meta, args.checkpoint_dir, log.info)
        raw_model.load_state_dict(loaded[1]["model"])
        own = loaded[2] or {}
        if "module" in own and hasattr(raw_model, "load_rank_state"):  # issue 22: ffn's FOV
            raw_model.load_rank_state(own["module"])

    train_model: nn.Module = raw_model
    ddp = None
    if ctx.enabled and args.mode != "data":
        from torch.nn.parallel import DistributedDataParallel as DDP

        ids = [dev.device.index] if dev.type in ("cuda", "xpu") and not after_ddp else None
        train_model = ddp = DDP(raw_model, device_ids=ids)
        if after_ddp:
            train_model.to(dev.device)  # moves raw_model's parameters in place
    # The optimizer and its state after the model's last move, so they sit on its device.
    optimizer = make_optimizer(raw_model.parameters(), lr, args.optimizer_impl, recipe)
    schedule = Schedule(optimizer, recipe, lr, args.steps, args.loss_window,
                        batch_size * accum * world, raw_model)
    track = LossTrack(args.loss_window, _plateau(schedule, ctx, world) if schedule.windowed
                      else None)
    first_loss = _resume(loaded, optimizer, prec.scaler, schedule, track, dev)
    # rank 0 writes the model and the optimizer's state (about two moments a parameter)
    budget = time_budget(args, log, estimate_seconds(3 * sum(
        p.numel() * p.element_size() for p in raw_model.parameters())))
    if loaded is not None:
        log.info(f"resumed from {mgr.step_dir(start) if mgr else '?'} at step {start}")

    if args.compile and args.mode != "data":
        train_model = torch.compile(train_model)  # type: ignore[assignment]
    train_model.train()

    reset_peak_memory(dev)
    micro = f" x {accum} micro-steps" if accum > 1 else ""
    log.info(f"{spec.name} ({name}) on {dev.name} [{dev.type}], world size {world}, "
             f"batch {batch_size}/rank{micro}, lr {lr:g} ({recipe.optimizer}, {recipe.schedule}), "
             f"precision {prec.effective}, mode {args.mode}, steps {start}->{args.steps} "
             f"(warm-up {warmup_steps(args, start)})")
    observer = _observer(args, rank, dev, batch_size * accum * world, log, train_model,
                         optimizer)
    train = _train_step(spec, train_model, optimizer, prec, schedule,
                        make_clipper(list(raw_model.parameters()), recipe, args.optimizer_impl),
                        args.inject_nan_at_step, accum, ddp)

    def save(step_done: int, first: float | None) -> None:
        assert mgr is not None and source is not None
        t0 = time.perf_counter()
        state = None
        if rank == 0:
            scaler = prec.scaler
            state = {"model": raw_model.state_dict(), "optimizer": optimizer.state_dict(),
                     "scaler": scaler.state_dict() if scaler is not None else None,
                     "schedule": schedule.state_dict(), "loss_track": track.state(),
                     "step": step_done, "first_loss": first, "meta": meta,
                     "data_position": {"kind": source.kind, "step": step_done,
                                       "seed": args.seed}}
        own = ckpt.capture_rng(dev)
        if hasattr(raw_model, "rank_state"):  # a model's per-rank state (ffn's FOV examples)
            own["module"] = raw_model.rank_state()
        d = mgr.save(step_done, state, own, ctx.barrier, {"app": spec.name, "size": name})
        log.info(f"checkpoint step {step_done} -> {d} ({time.perf_counter() - t0:.2f}s)")

    def hooks(batch_source: Any, with_save: bool, loss_track: LossTrack) -> Hooks:
        made = Hooks(
            batch=batch_source.get, train=train,
            losses=lambda window: torch.stack(window).float().cpu().tolist(),
            all_reduce=(lambda v, op: ctx.all_reduce(v, op=op)) if ctx.enabled else None,
            save=save if with_save else None,
            timer=device_timer(dev, pool=max(1, args.sync_every) + 2), track=loss_track,
            sync_period=loss_track.window if loss_track.on_window is not None else 0,
            budget=budget)
        return observer.wrap(made, start) if observer is not None else made

    trials = None
    if args.mode == "trials":
        out, trials, source = _trials(spec, args, cfg, dev, ctx, batch_size * accum, fmt, hooks,
                                      log, flag, track)
    else:
        assert source is not None
        out = run_steps(args, hooks(source, mgr is not None, track), log, flag, rank, start,
                        first_loss)
    if observer is not None:
        observer.close()
    if done:
        out.stop_reason = "already-finished"
    stopped = bool(out.stop_signal or out.budget_stop)
    if stopped and args.mode == "trials":
        shutdown(ctx)
        return stop_code(log, out, args.checkpoint_dir, mgr is not None), None

    result: dict[str, Any] | None = None
    if rank == 0:
        result = _result(spec, args, out, dev, ctx, prec, launcher, name, cfg, recipe, lr,
                         batch_size, batch_note, start, raw_model, fmt, source, trials, accum,
                         lr_last=schedule.current_lr())
        if instance is not None:
            result["instance"] = instance.index
            result["instances"] = instance.count
        if observer is not None and observer.trace_path:
            result["profile_trace"] = observer.trace_path
        if emit_json:
            emit(result)
        if instance is not None and instance.result_file:
            _write_result(instance.result_file, result)
        if mgr is not None and out.stop_reason == "finished":
            mgr.mark_finished(out.step, result["param_sha256"])
    shutdown(ctx)
    if out.stop_signal:
        return stop_code(log, out, args.checkpoint_dir, mgr is not None), None
    if out.budget_stop:
        stopped_for_budget(log, out, budget, args.checkpoint_dir)
    return 0, result


def _observer(args: argparse.Namespace, rank: int, dev: DeviceInfo, global_batch: int,
              log: Logger, model: nn.Module, optimizer: torch.optim.Optimizer) -> Any:
    """--profile and --tensorboard (profiling.py); None without them, or in trials mode."""
    if not (getattr(args, "profile", None) or getattr(args, "tensorboard", None)):
        return None
    if args.mode == "trials":
        log.info("note: --profile and --tensorboard are off in --mode trials (three runs)")
        return None
    from .profiling import Observer

    observer = Observer(args, rank, dev.type, global_batch, log.info)
    observer.attach(model, optimizer)
    return observer


def _plateau(schedule: Schedule, ctx: DistContext, world: int) -> Any:
    """The plateau schedule's window callback: the window's mean loss over all ranks (every
    rank must take the same decision, or the replicas' rates would differ)."""
    def on_window(mean: float) -> None:
        if ctx.enabled:
            mean = ctx.all_reduce([mean], op="sum")[0] / world
        schedule.window_loss(mean)

    return on_window


def _resume(loaded: Any, optimizer: torch.optim.Optimizer, scaler: Any, schedule: Schedule,
            track: LossTrack, dev: DeviceInfo) -> float | None:
    """Restore the optimizer, scaler, schedule, windowed losses and RNG states; returns the
    run's first loss."""
    if loaded is None:
        return None
    _, state, rng = loaded
    optimizer.load_state_dict(state["optimizer"])
    if scaler is not None and state.get("scaler"):
        scaler.load_state_dict(state["scaler"])
    schedule.load_state_dict(state.get("schedule"))
    track.load(state.get("loss_track"))
    if rng is not None:
        ckpt.restore_rng(rng, dev)
    return state.get("first_loss")


def _train_step(spec: AppSpec, model: nn.Module, optimizer: torch.optim.Optimizer,
                prec: PrecisionPlan, schedule: Schedule, clip: Any,
                nan_at: int | None, accum: int = 1, ddp: nn.Module | None = None) -> Any:
    """One optimizer step with the least host work: a launch-bound step (qcnn on an H100) pays
    for every attribute lookup and context object (benchmarks/workloads_overhead.py).

    ``accum`` > 1: nanoGPT's gradient accumulation (karpathy/nanoGPT@3adf61e train.py, lines
    290-312): the step's batch is ``accum`` micro-batches; each one's loss is divided by
    ``accum`` before its backward pass, and under DDP ``require_backward_grad_sync`` is True
    only on the last micro-step (the gradients are all-reduced once); then clipping and one
    optimizer step. The loss returned is the step's mean (the sum of the divided losses)."""
    amp = prec.autocast()  # one context object, re-entered every step
    scaler = prec.scaler
    zero_grad = optimizer.zero_grad
    set_lr = schedule.apply  # None for a constant rate
    loss_fn = spec.loss_fn

    def update() -> None:
        if scaler is None:
            if clip is not None:
                clip()
            optimizer.step()
        else:
            if clip is not None:
                scaler.unscale_(optimizer)
                clip()
            scaler.step(optimizer)
            scaler.update()
        zero_grad(set_to_none=True)

    def train(batch: tuple[torch.Tensor, torch.Tensor], i: int) -> torch.Tensor:
        x, y = batch
        if set_lr is not None:
            set_lr(i)
        with amp:
            loss = loss_fn(model(x), y)
        if nan_at == i + 1:
            loss = loss * float("nan")
        if scaler is None:
            loss.backward()
        else:
            scaler.scale(loss).backward()
        update()
        return loss.detach()

    def train_accum(batch: tuple[Any, Any], i: int) -> torch.Tensor:
        x, y = batch
        if set_lr is not None:
            set_lr(i)
        micro = _batch_len(y) // accum
        total = None
        for k in range(accum):
            if ddp is not None:
                ddp.require_backward_grad_sync = k == accum - 1
            lo, hi = k * micro, (k + 1) * micro
            with amp:
                loss = loss_fn(model(_rows(x, lo, hi)), _rows(y, lo, hi)) / accum
            if nan_at == i + 1:
                loss = loss * float("nan")
            if scaler is None:
                loss.backward()
            else:
                scaler.scale(loss).backward()
            total = loss.detach() if total is None else total + loss.detach()
        update()
        assert total is not None
        return total

    return train if accum == 1 else train_accum


def _batch_len(t: Any) -> int:
    return len(t[0]) if isinstance(t, tuple | list) else len(t)


def _rows(t: Any, lo: int, hi: int) -> Any:
    """Rows ``lo:hi`` of a batch (a tensor, or a tuple/list of them): one micro-batch."""
    if isinstance(t, tuple | list):
        return type(t)(_rows(u, lo, hi) for u in t)
    return t[lo:hi]


def _grad_accum(args: argparse.Namespace, cfg: dict[str, Any], world: int, log: Logger) -> int:
    """Micro-steps per optimizer step on each rank: ``--grad-accum`` or the configuration's
    ``grad_accum`` (nanoGPT's ``gradient_accumulation_steps``, over all ranks) divided by the
    world size, as nanoGPT's train.py does (``gradient_accumulation_steps //=
    ddp_world_size`` after asserting it divides). Where the world size does not divide it,
    nanoGPT stops; this runs ``max(1, total // world)`` and says so."""
    total = getattr(args, "grad_accum", None) or int(cfg.get("grad_accum") or 1)
    if total == 1:
        return 1
    per_rank = max(1, total // world)
    if total % world:
        log.info(f"note: gradient accumulation {total} is not a multiple of the world size "
                 f"{world} (nanoGPT asserts it is): {per_rank} micro-steps per rank, "
                 f"{per_rank * world} in all; set --grad-accum to a multiple of {world}")
    return per_rank


def _epoch_samples(recipe: Recipe, source: Any, log: Logger) -> Recipe:
    """A schedule in epochs (warmup_flat_decay) counts the files' samples, as the original's
    ``_train_data_size`` is the size of its training file; synthetic data keeps the recipe's
    ``epoch_samples`` (the original's synthetic fetcher says 1e6)."""
    if recipe.schedule != "warmup_flat_decay" or getattr(source, "kind", None) != "disk":
        return recipe
    import dataclasses

    n = len(source.dataset)
    log.info(f"note: {recipe.schedule} counts epochs of {n} samples (the data set's size)")
    return dataclasses.replace(recipe, epoch_samples=n)


TRIALS = (("io", "data"), ("synthetic", "compute"), ("full", "train"))


def _trials(spec: AppSpec, args: argparse.Namespace, cfg: dict[str, Any], dev: DeviceInfo,
            ctx: DistContext, batch_size: int, fmt: torch.memory_format | None, hooks: Any,
            log: Logger, flag: SignalFlag, track: LossTrack) -> tuple[Any, dict[str, Any], Any]:
    """SC22's benchy trials in one run: IO-only (the loader alone), synthetic-only (compute on
    one device-made batch) and full (loader + compute), each ``--steps`` steps with
    ``--warmup`` untimed; returns the full trial's outcome, the three rates and its source."""
    rank, world = ctx.env.rank, ctx.env.world_size
    rates: dict[str, Any] = {"data": "synthetic" if args.data == "synthetic" else "disk"}
    out = source = None
    for trial, mode in TRIALS:
        sub = argparse.Namespace(**{**vars(args), "mode": mode})
        if trial == "synthetic":
            source = SyntheticSource(spec.make_task(cfg, dev.device), batch_size, args.seed,
                                     rank, dev.device, fmt)
        else:
            source = _build_source(spec, sub, cfg, dev, ctx, batch_size, 0, fmt)
        loss_track = track if trial == "full" else LossTrack(track.window)
        out = run_steps(sub, hooks(source, False, loss_track), log, flag, rank, 0, None)
        if out.stop_signal:
            return out, rates, source
        rate = batch_size * world * out.timed_steps / out.elapsed_s if out.elapsed_s else None
        rates[f"{trial}_samples_per_sec"] = rate
        rates[f"{trial}_data_wait_share"] = (out.data_wait_s / out.elapsed_s
                                             if out.elapsed_s else None)
    log.info("trials (samples/s): " + ", ".join(
        f"{t} {rates[f'{t}_samples_per_sec'] or 0:.6g}" for t, _ in TRIALS)
        + f" ({rates['data']} data)")
    return out, rates, source


def _result(spec: AppSpec, args: argparse.Namespace, out: Any, dev: DeviceInfo,
            ctx: DistContext, prec: PrecisionPlan, launcher: str, name: str,
            cfg: dict[str, Any], recipe: Recipe, lr: float, batch_size: int,
            batch_note: str | None, start: int, raw_model: nn.Module,
            fmt: torch.memory_format | None, source: Any,
            trials: dict[str, Any] | None, accum: int = 1,
            lr_last: float | None = None) -> dict[str, Any]:
    """Rank 0's JSON line (``lr`` the recipe's base rate, ``lr_last`` the rate its schedule
    gave the last step)."""
    world = ctx.env.world_size
    flops, method = _flops(spec, cfg, batch_size)
    peak, peak_source = peak_for(dev.name, dev.type, prec.effective)
    per_device = ranks_per_device()
    units = spec.units_per_sample(cfg) if spec.units_per_sample else None
    result = result_line(
        args, out, batch_size, world, start, devices=world / per_device,
        units_per_sample=units, accum=accum,
        app=spec.name, framework="pytorch", framework_version=torch.__version__,
        device=dev.type, device_name=dev.name, device_stack=dev.stack,
        precision=prec.effective, precision_requested=prec.requested,
        precision_note="; ".join(prec.notes) or None, size=name,
        launcher=launcher, rank_variables=list(ctx.env.variables),
        dist_backend=ctx.backend, batch_size_requested=args.batch_size, batch_note=batch_note,
        peak_mem_mb=peak_memory_mb(dev), **headroom(dev),
        param_sha256=param_sha256(raw_model) if args.mode != "data" else None,
        channels_last=fmt is not None, compile=bool(args.compile),
        optimizer_impl=optimizer_impl(args.optimizer_impl, dev),
        pin_memory=getattr(source, "pin_memory", None), config=name,
        recipe=recipe.as_dict(), lr=lr, lr_last=lr_last, unit=spec.unit,
        train_flops_per_sample=flops,
        flops_method=method, peak_flops_per_sec=peak, peak_source=peak_source,
        trials=trials)
    result["ranks_per_device"] = per_device
    return result
