"""The TensorFlow training run: device, precision, distribution, model, checkpoint, then the
step loop shared with the PyTorch runtime (runtime/loop.py)."""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from workloads.runtime import checkpoint as ckpt
from workloads.runtime.budget import estimate_seconds
from workloads.runtime.contract import (
    Recipe,
    batch_size_of,
    config_name,
    model_config,
    recipe_of,
    with_options,
)
from workloads.runtime.loop import (
    NO_HEADROOM,
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
from workloads.runtime.metrics import LossTrack, PlateauRule, peak_for
from workloads.runtime.ranks import detect_dist_env, export_env, ranks_per_device, started_by
from workloads.runtime.seeds import mix_seed
from workloads.runtime.timing import StepTimer

from .backend import Backend, load
from .device import TFDevice, configure_threads, peak_memory_mb, select_device, synchronize
from .distributed import TFDist, init_distributed
from .precision import TFPrecision, setup_precision
from .spec import TFAppSpec


def _variables(obj: Any) -> list[Any]:
    """A model's or optimizer's variables (``variables`` is a method on Keras 2 optimizers)."""
    v = obj.variables
    return list(v() if callable(v) else v)


def _local(v: Any, dist: TFDist) -> Any:
    """This rank's own copy of a variable. Under MultiWorkerMirroredStrategy the batch-norm
    statistics are sync-on-read: reading the variable itself would average them over the
    workers (a collective), while each worker trains with its own, as Horovod ranks do."""
    if dist.kind == "multiworker":
        return dist.strategy.experimental_local_results(v)[0]
    return v


def _values(variables: list[Any], dist: TFDist) -> list[tuple[str, np.ndarray]]:
    """(name, value) of this rank's copy of every variable."""
    return [(v.name, np.array(_local(v, dist).numpy())) for v in variables]


def param_sha256(values: list[tuple[str, np.ndarray]]) -> str:
    """Hash of every model variable (names, dtypes, shapes, bytes)."""
    h = hashlib.sha256()
    for name, a in values:
        a = np.ascontiguousarray(a)
        h.update(f"{name}:{a.dtype}:{tuple(a.shape)};".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _restore(variables: list[Any], saved: list[tuple[str, np.ndarray]], what: str) -> None:
    """Assign saved values (to every copy of a distributed variable)."""
    if [(n, a.shape) for n, a in saved] != [(v.name, tuple(v.shape)) for v in variables]:
        raise RuntimeError(f"checkpoint {what} variables do not match this model")
    for v, (_, a) in zip(variables, saved, strict=True):
        v.assign(a)


def run_training(spec: TFAppSpec, args: argparse.Namespace,
                 emit_json: bool = True) -> tuple[int, dict[str, Any] | None]:
    """Run one training job; returns (exit code, result dict on rank 0)."""
    denv = detect_dist_env()
    launcher = started_by()  # before export_env adds torch-style names to the environment
    export_env(denv)
    be = load()
    dev = select_device(be.tf, args.device, denv.local_rank)
    configure_threads(be.tf, denv)
    dist = init_distributed(be.tf, denv, dev, args.dist_backend, args.dist_timeout)
    log = Logger(dist.rank)
    flag = SignalFlag()
    flag.install()
    try:
        code, result = _run(spec, args, be, dev, dist, (launcher, denv.variables), log, flag,
                            emit_json)
    except NonFiniteLoss as exc:  # every rank raises it at the same sync point
        code, result = report_nonfinite(log, exc), None
    finally:
        flag.restore()
    dist.leave(args.dist_timeout)  # nobody leaves while a peer may still read its buffers
    return code, result


def _rate(be: Backend, recipe: Recipe, base: float, total: int,
          samples_per_step: int = 1) -> Any:
    """The learning rate Keras is given: ``base`` (constant, plateau) or a schedule of the
    optimizer's step count, the formulas of runtime/schedules.py ``lr_at`` (nanoGPT's get_lr
    for warmup_cosine; the schedules counted in samples, staircase and warmup_flat_decay, as
    a table of its float64 values looked up by step), so a restored step count restores the
    rate."""
    if recipe.schedule in ("constant", "plateau"):
        return base
    tf = be.tf
    if recipe.schedule != "warmup_cosine" and recipe.schedule != "cosine":
        from workloads.runtime.schedules import lr_at

        table = tf.constant([lr_at(recipe, base, i, total, samples_per_step)
                             for i in range(total)], tf.float32)

        class Table(be.keras.optimizers.schedules.LearningRateSchedule):
            def __call__(self, step: Any) -> Any:
                return tf.gather(table, tf.minimum(tf.cast(step, tf.int32), total - 1))

            def get_config(self) -> dict[str, Any]:
                return {"base": base}

        return Table()
    warmup = recipe.warmup_steps if recipe.schedule == "warmup_cosine" else 0
    decay = recipe.decay_steps or total
    span = float(max(decay - warmup, 1))
    low = recipe.min_lr

    class WarmupCosine(be.keras.optimizers.schedules.LearningRateSchedule):
        def __call__(self, step: Any) -> Any:
            it = tf.cast(step, tf.float32)
            ratio = tf.clip_by_value((it - warmup) / span, 0.0, 1.0)
            cosine = low + 0.5 * (1.0 + tf.cos(3.141592653589793 * ratio)) * (base - low)
            ramp = base * (it + 1.0) / (warmup + 1.0)
            return tf.where(it < warmup, ramp, tf.where(it > decay, low, cosine))

        def get_config(self) -> dict[str, Any]:
            return {"base": base}

    return WarmupCosine()


def _optimizer(be: Backend, lr: float, prec: TFPrecision, model: Any, recipe: Recipe,
               total: int, samples_per_step: int = 1) -> Any:
    """The recipe's optimizer in Keras (without a recipe: AdamW as the PyTorch apps use it,
    weight decay 0.01, eps 1e-8) with its clipping, its state created now so a checkpoint can
    be restored before the first step."""
    keras = be.keras
    clip: dict[str, float] = {}
    if recipe.clip_grad_norm:
        clip["global_clipnorm"] = recipe.clip_grad_norm
    if recipe.clip_grad_value:
        clip["clipvalue"] = recipe.clip_grad_value
    rate = _rate(be, recipe, lr, total, samples_per_step)
    if recipe.optimizer == "sgd":
        opt = keras.optimizers.SGD(learning_rate=rate, momentum=recipe.momentum,
                                   nesterov=recipe.nesterov,
                                   weight_decay=recipe.weight_decay or None, **clip)
    else:
        # Keras applies weight decay decoupled for Adam too (torch's Adam adds it to the
        # gradient): the recipes that name Adam use none
        cls = keras.optimizers.AdamW if recipe.optimizer == "adamw" else keras.optimizers.Adam
        opt = cls(learning_rate=rate, beta_1=recipe.betas[0], beta_2=recipe.betas[1],
                  epsilon=recipe.eps, weight_decay=recipe.weight_decay or None, **clip)
    if not recipe.decay_1d:
        opt.exclude_from_weight_decay(
            var_list=[v for v in model.trainable_variables if len(v.shape) < 2])
    opt.build(model.trainable_variables)
    if prec.loss_scale:
        opt = keras.mixed_precision.LossScaleOptimizer(opt)
    return opt


def _set_rate(opt: Any, value: float) -> None:
    inner = getattr(opt, "inner_optimizer", opt)
    inner.learning_rate = value


def _get_rate(opt: Any) -> float:
    inner = getattr(opt, "inner_optimizer", opt)
    return float(np.array(inner.learning_rate))


def _last_rate(recipe: Recipe, base: float, opt: Any, total: int,
               samples_per_step: int) -> float:
    """The rate the last step trained at: the plateau's current rate, else the schedule's
    formula (runtime/schedules.py, the one Keras is given) at the last step."""
    if recipe.schedule == "plateau":
        return _get_rate(opt)
    from workloads.runtime.schedules import lr_at

    return lr_at(recipe, base, max(total - 1, 0), total, samples_per_step)


def _resume(loaded: tuple[int, dict[str, Any], Any], model: Any, opt: Any,
            meta: dict[str, Any], where: str, log: Logger) -> tuple[int, float | None]:
    """Restore rank 0's model and optimizer variables; returns (step, first loss)."""
    step, state, _ = loaded
    ckpt.check_meta(state.get("meta", {}), meta, where, log.info)
    _restore(_variables(model), state["model"], "model")
    _restore(_variables(opt), state["optimizer"], "optimizer")
    log.info(f"resumed from the checkpoint of step {step} in {where}")
    return step, state.get("first_loss")


def _restore_own(loaded: tuple[int, dict[str, Any], Any], model: Any, dist: TFDist,
                 trainer: Any = None) -> None:
    """Each rank takes back its own batch-norm statistics (non-trainable variables), which it
    kept apart from every other rank's while training, and its examples in flight (a
    ``trainer``'s state: ffn's FOV movement)."""
    own = loaded[2]
    if own is None:
        if trainer is not None:
            trainer.load_state(None)  # says why in one line
        return
    local = [_local(v, dist) for v in model.non_trainable_variables]
    _restore(local, own["non_trainable"], "per-rank")
    if trainer is not None:
        trainer.load_state(own.get("trainer"))


def _train_step(be: Backend, spec: TFAppSpec, model: Any, opt: Any, dist: TFDist,
                prec: TFPrecision, xla: bool,
                trainer: Any = None) -> Callable[[Any, Any, Any], Any]:
    """One optimizer step as a tf.function: (x, y, factor) -> this rank's loss. ``factor``
    multiplies the loss (1, or NaN for --inject-nan-at-step) without retracing. With --xla the
    forward pass and its gradient are XLA-compiled; gradient all-reduce stays outside (Horovod's
    tape, or MultiWorkerMirroredStrategy's optimizer). A ``trainer`` (TFAppSpec.make_trainer)
    turns (x, y) into the network's input and target before the step and takes the network's
    output after it."""
    tf = be.tf

    def fwd(x: Any, y: Any) -> tuple[Any, Any]:
        out = model(x, training=True)
        return spec.loss_fn(out, y), out

    forward = tf.function(fwd, jit_compile=xla)
    variables = model.trainable_variables
    # MultiWorkerMirroredStrategy sums gradients over replicas; Horovod's tape averages them
    replicas = dist.world_size if dist.kind == "multiworker" else 1

    def replica_step(x: Any, y: Any, factor: Any) -> Any:
        with tf.GradientTape() as tape:
            loss, out = forward(x, y)
            loss = loss * factor
            objective = loss / replicas
            if prec.loss_scale:
                objective = opt.get_scaled_loss(objective)
        if dist.kind == "horovod":
            tape = dist.hvd.DistributedGradientTape(tape)
        grads = tape.gradient(objective, variables)
        if prec.loss_scale:
            grads = opt.get_unscaled_gradients(grads)
        opt.apply_gradients(zip(grads, variables, strict=True))
        return loss, out

    @tf.function
    def step(x: Any, y: Any, factor: Any) -> Any:
        if trainer is not None:
            x, y, ctx = trainer.select(x)
        if dist.kind == "multiworker":
            per_replica = dist.strategy.run(replica_step, args=(x, y, factor))
            loss, out = (dist.strategy.experimental_local_results(r)[0] for r in per_replica)
        else:
            loss, out = replica_step(x, y, factor)
        if trainer is not None:
            trainer.feedback(out, ctx)
        return loss

    return step


def _run(spec: TFAppSpec, args: argparse.Namespace, be: Backend, dev: TFDevice, dist: TFDist,
         started: tuple[str, tuple[str, ...]], log: Logger, flag: SignalFlag,
         emit_json: bool) -> tuple[int, dict[str, Any] | None]:
    tf, keras = be.tf, be.keras
    rank, world = dist.rank, dist.world_size
    size = config_name(bool(getattr(args, "tiny", False)), getattr(args, "config", None))
    cfg = with_options(spec.sizes[size], args)
    recipe = recipe_of(spec, cfg)
    batch_size = args.batch_size or batch_size_of(spec, size, cfg)
    lr = args.lr if args.lr is not None else recipe.scaled_lr(batch_size * world, world)
    if args.scale_lr:
        lr *= world
    if args.steps < 1:
        raise ValueError("--steps must be >= 1")
    prec = setup_precision(tf, keras, args.precision, dev)
    for note in prec.notes:
        log.info(f"note: {note}")
    if args.channels_last:
        log.info("note: --channels-last has no effect: the TensorFlow models are channels-last")
    keras.utils.set_random_seed(args.seed)

    mgr = None
    loaded = None
    if args.checkpoint_dir and args.mode == "train":
        mgr = ckpt.CheckpointManager(args.checkpoint_dir, rank, args.keep_checkpoints,
                                     ckpt.NPZ)
        if not args.no_resume:
            loaded = mgr.load_latest()
    elif args.checkpoint_dir:
        log.info(f"note: checkpointing is disabled in --mode {args.mode}")
    done = finished_before(mgr, loaded, args, rank, log)

    scope = dist.strategy.scope() if dist.kind == "multiworker" else contextlib.nullcontext()
    with scope:
        model = spec.build_model(cfg)
        opt = _optimizer(be, lr, prec, model, recipe, args.steps, batch_size * world)
    meta = {"app": spec.name, "size": size, "config": model_config(cfg),
            "batch_size": batch_size, "world_size": world}
    plateau = (PlateauRule(recipe.factor, -(-max(recipe.patience, 0) // args.loss_window),
                           recipe.min_lr) if recipe.schedule == "plateau" else None)

    def on_window(mean: float) -> None:
        assert plateau is not None
        if dist.enabled:
            mean = dist.all_reduce([mean], "sum")[0] / world
        _set_rate(opt, plateau.step(mean, _get_rate(opt)))

    track = LossTrack(args.loss_window, on_window if plateau is not None else None)
    start_step, first_loss = 0, None
    if loaded is not None:
        start_step, first_loss = _resume(loaded, model, opt, meta, args.checkpoint_dir, log)
        track.load(loaded[1].get("loss_track"))
        if plateau is not None and loaded[1].get("plateau"):
            plateau.load(loaded[1]["plateau"]["rule"])
            _set_rate(opt, loaded[1]["plateau"]["lr"])
    if dist.kind == "horovod":  # every rank starts from rank 0's variables
        dist.hvd.broadcast_variables(_variables(model), root_rank=0)
        dist.hvd.broadcast_variables(_variables(opt), root_rank=0)
    trainer = (spec.make_trainer(cfg, batch_size, args.seed, rank)
               if spec.make_trainer is not None else None)  # outside the strategy's scope
    if loaded is not None:
        _restore_own(loaded, model, dist, trainer)

    task = tf.function(spec.make_task(cfg))

    def batch(i: int) -> Any:
        z = mix_seed(args.seed, rank, i)
        return task(tf.constant([z >> 32, z & 0xFFFFFFFF], tf.int64), batch_size)

    step_fn = _train_step(be, spec, model, opt, dist, prec, bool(args.compile), trainer)
    one, nan = tf.constant(1.0), tf.constant(float("nan"))

    def train(xy: Any, i: int) -> Any:
        return step_fn(xy[0], xy[1], nan if args.inject_nan_at_step == i + 1 else one)

    def save(step_done: int, first: float | None) -> None:
        assert mgr is not None
        t0 = time.perf_counter()
        state = None
        if rank == 0:
            state = {"model": _values(_variables(model), dist),
                     "optimizer": _values(_variables(opt), dist), "step": step_done,
                     "first_loss": first, "meta": meta, "loss_track": track.state(),
                     "plateau": {"rule": plateau.state(), "lr": _get_rate(opt)}
                     if plateau is not None else None,
                     "data_position": {"kind": "synthetic", "step": step_done, "seed": args.seed}}
        own = {"non_trainable": _values(model.non_trainable_variables, dist)}
        if trainer is not None:
            own["trainer"] = trainer.state()
        d = mgr.save(step_done, state, own, dist.barrier,
                     {"app": spec.name, "size": size, "framework": "tensorflow"})
        log.info(f"checkpoint step {step_done} -> {d} ({time.perf_counter() - t0:.2f}s)")

    # rank 0 writes the variables of the model and the optimizer (their bytes as they are)
    budget = time_budget(args, log, estimate_seconds(sum(
        int(np.prod(v.shape)) * v.dtype.size for v in _variables(model) + _variables(opt))))
    log.info(f"{spec.name} ({size}) on {dev.name} [{dev.type}], TensorFlow {tf.__version__}, "
             f"{dist.backend or 'one process'}, world size {world}, batch {batch_size}/rank, "
             f"lr {lr:g} ({recipe.optimizer}, {recipe.schedule}), "
             f"precision {prec.effective} ({prec.policy}), xla {bool(args.compile)}, "
             f"mode {args.mode}, steps {start_step}->{args.steps} "
             f"(warm-up {warmup_steps(args, start_step)})")
    hooks = Hooks(
        batch=batch, train=train,
        losses=lambda window: [float(v) for v in tf.stack(window).numpy()],
        all_reduce=dist.all_reduce if dist.enabled else None,
        save=save if mgr is not None else None,
        timer=StepTimer(lambda: synchronize(tf, dev)), track=track,
        sync_period=args.loss_window if plateau is not None else 0, budget=budget)
    out = run_steps(args, hooks, log, flag, rank, start_step, first_loss)
    if done:
        out.stop_reason = "already-finished"

    result: dict[str, Any] | None = None
    if rank == 0:
        digest = param_sha256(_values(_variables(model), dist)) if args.mode != "data" else None
        result = result_line(
            args, out, batch_size, world, start_step,
            app=spec.name, framework="tensorflow", framework_version=tf.__version__,
            device=dev.type, device_name=dev.name, device_stack=dev.stack,
            precision=prec.effective, precision_requested=prec.requested,
            precision_note="; ".join(prec.notes) or None, size=size,
            launcher=started[0], rank_variables=list(started[1]), dist_backend=dist.backend,
            batch_size_requested=args.batch_size, batch_note=None,
            peak_mem_mb=peak_memory_mb(tf, dev), **NO_HEADROOM, param_sha256=digest,
            channels_last=True, compile=bool(args.compile), optimizer_impl=None,
            pin_memory=None, devices=world / ranks_per_device(),
            units_per_sample=spec.units_per_sample(cfg) if spec.units_per_sample else None,
            config=size, recipe=recipe.as_dict(), lr=lr,
            lr_last=_last_rate(recipe, lr, opt, args.steps, batch_size * world),
            unit=spec.unit,
            train_flops_per_sample=None,
            flops_method="not counted in TensorFlow: the PyTorch version's count is "
                         "python -m workloads.APP --describe",
            peak_flops_per_sec=peak_for(dev.name, dev.type, prec.effective)[0],
            peak_source=peak_for(dev.name, dev.type, prec.effective)[1], trials=None)
        if emit_json:
            emit(result)
        if mgr is not None and out.stop_reason == "finished":
            mgr.mark_finished(out.step, digest)
    if out.stop_signal:
        return stop_code(log, out, args.checkpoint_dir, mgr is not None), None
    if out.budget_stop:
        stopped_for_budget(log, out, budget, args.checkpoint_dir)
    return 0, result
