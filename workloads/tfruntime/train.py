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
from workloads.runtime.loop import (
    NO_HEADROOM,
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
from workloads.runtime.ranks import detect_dist_env, export_env, started_by
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


def _optimizer(be: Backend, lr: float, prec: TFPrecision, model: Any) -> Any:
    """AdamW as the PyTorch apps use it (weight decay 0.01, eps 1e-8), its state created now so
    a checkpoint can be restored before the first step."""
    keras = be.keras
    opt = keras.optimizers.AdamW(learning_rate=lr, weight_decay=0.01, epsilon=1e-8)
    opt.build(model.trainable_variables)
    if prec.loss_scale:
        opt = keras.mixed_precision.LossScaleOptimizer(opt)
    return opt


def _resume(loaded: tuple[int, dict[str, Any], Any], model: Any, opt: Any,
            meta: dict[str, Any], where: str, log: Logger) -> tuple[int, float | None]:
    """Restore rank 0's model and optimizer variables; returns (step, first loss)."""
    step, state, _ = loaded
    ckpt.check_meta(state.get("meta", {}), meta, where, log.info)
    _restore(_variables(model), state["model"], "model")
    _restore(_variables(opt), state["optimizer"], "optimizer")
    log.info(f"resumed from the checkpoint of step {step} in {where}")
    return step, state.get("first_loss")


def _restore_own(loaded: tuple[int, dict[str, Any], Any], model: Any, dist: TFDist) -> None:
    """Each rank takes back its own batch-norm statistics (non-trainable variables), which it
    kept apart from every other rank's while training."""
    own = loaded[2]
    if own is None:
        return
    local = [_local(v, dist) for v in model.non_trainable_variables]
    _restore(local, own["non_trainable"], "per-rank")


def _train_step(be: Backend, spec: TFAppSpec, model: Any, opt: Any, dist: TFDist,
                prec: TFPrecision, xla: bool) -> Callable[[Any, Any, Any], Any]:
    """One optimizer step as a tf.function: (x, y, factor) -> this rank's loss. ``factor``
    multiplies the loss (1, or NaN for --inject-nan-at-step) without retracing. With --xla the
    forward pass and its gradient are XLA-compiled; gradient all-reduce stays outside (Horovod's
    tape, or MultiWorkerMirroredStrategy's optimizer)."""
    tf = be.tf
    forward = tf.function(lambda x, y: spec.loss_fn(model(x, training=True), y), jit_compile=xla)
    variables = model.trainable_variables
    # MultiWorkerMirroredStrategy sums gradients over replicas; Horovod's tape averages them
    replicas = dist.world_size if dist.kind == "multiworker" else 1

    def replica_step(x: Any, y: Any, factor: Any) -> Any:
        with tf.GradientTape() as tape:
            loss = forward(x, y) * factor
            objective = loss / replicas
            if prec.loss_scale:
                objective = opt.get_scaled_loss(objective)
        if dist.kind == "horovod":
            tape = dist.hvd.DistributedGradientTape(tape)
        grads = tape.gradient(objective, variables)
        if prec.loss_scale:
            grads = opt.get_unscaled_gradients(grads)
        opt.apply_gradients(zip(grads, variables, strict=True))
        return loss

    @tf.function
    def step(x: Any, y: Any, factor: Any) -> Any:
        if dist.kind == "multiworker":
            per_replica = dist.strategy.run(replica_step, args=(x, y, factor))
            return dist.strategy.experimental_local_results(per_replica)[0]
        return replica_step(x, y, factor)

    return step


def _run(spec: TFAppSpec, args: argparse.Namespace, be: Backend, dev: TFDevice, dist: TFDist,
         started: tuple[str, tuple[str, ...]], log: Logger, flag: SignalFlag,
         emit_json: bool) -> tuple[int, dict[str, Any] | None]:
    tf, keras = be.tf, be.keras
    rank, world = dist.rank, dist.world_size
    size = "tiny" if args.tiny else "default"
    cfg = dict(spec.sizes[size])
    batch_size = args.batch_size or (spec.tiny_batch_size if args.tiny else
                                     spec.default_batch_size)
    lr = args.lr if args.lr is not None else spec.lr
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
                                     ckpt.PICKLE)
        if not args.no_resume:
            loaded = mgr.load_latest()
    elif args.checkpoint_dir:
        log.info(f"note: checkpointing is disabled in --mode {args.mode}")

    scope = dist.strategy.scope() if dist.kind == "multiworker" else contextlib.nullcontext()
    with scope:
        model = spec.build_model(cfg)
        opt = _optimizer(be, lr, prec, model)
    meta = {"app": spec.name, "size": size, "config": cfg, "batch_size": batch_size,
            "world_size": world}
    start_step, first_loss = 0, None
    if loaded is not None:
        start_step, first_loss = _resume(loaded, model, opt, meta, args.checkpoint_dir, log)
    if dist.kind == "horovod":  # every rank starts from rank 0's variables
        dist.hvd.broadcast_variables(_variables(model), root_rank=0)
        dist.hvd.broadcast_variables(_variables(opt), root_rank=0)
    if loaded is not None:
        _restore_own(loaded, model, dist)

    task = tf.function(spec.make_task(cfg))

    def batch(i: int) -> Any:
        z = mix_seed(args.seed, rank, i)
        return task(tf.constant([z >> 32, z & 0xFFFFFFFF], tf.int64), batch_size)

    step_fn = _train_step(be, spec, model, opt, dist, prec, bool(args.compile))
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
                     "first_loss": first, "meta": meta,
                     "data_position": {"kind": "synthetic", "step": step_done, "seed": args.seed}}
        own = {"non_trainable": _values(model.non_trainable_variables, dist)}
        d = mgr.save(step_done, state, own, dist.barrier,
                     {"app": spec.name, "size": size, "framework": "tensorflow"})
        log.info(f"checkpoint step {step_done} -> {d} ({time.perf_counter() - t0:.2f}s)")

    log.info(f"{spec.name} ({size}) on {dev.name} [{dev.type}], TensorFlow {tf.__version__}, "
             f"{dist.backend or 'one process'}, world size {world}, batch {batch_size}/rank, "
             f"lr {lr:g}, precision {prec.effective} ({prec.policy}), xla {bool(args.compile)}, "
             f"mode {args.mode}, steps {start_step}->{args.steps} "
             f"(warm-up {warmup_steps(args, start_step)})")
    hooks = Hooks(
        batch=batch, train=train,
        losses=lambda window: [float(v) for v in tf.stack(window).numpy()],
        all_reduce=dist.all_reduce if dist.enabled else None,
        save=save if mgr is not None else None,
        timer=StepTimer(lambda: synchronize(tf, dev)))
    out = run_steps(args, hooks, log, flag, rank, start_step, first_loss)
    if out.stop_signal:
        return stop_code(log, out, args.checkpoint_dir, mgr is not None), None

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
            pin_memory=None)
        if emit_json:
            emit(result)
    return 0, result
