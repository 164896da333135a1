"""The step loop, signal handling, NaN guard and result line shared by both frameworks.

A runtime (PyTorch in ``train.py``, TensorFlow in ``workloads.tfruntime``) sets up its device,
model and distribution, then hands :func:`run_steps` a few callables (:class:`Hooks`). What a
run does between steps is therefore the same in both: when it times, when it syncs with the
host, how it agrees on signals and non-finite losses across ranks, when it checkpoints and how
it stops. :func:`result_line` builds the JSON line with the same keys for both. Importing this
module imports no framework.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .budget import Budget, chain_link, process_started
from .exits import EXIT_NONFINITE
from .metrics import LossTrack, mfu
from .timing import StepTimer, percentile

_HANDLED_SIGNALS = ("SIGTERM", "SIGUSR1", "SIGUSR2")

#: The JSON result line's fields, in order, each with what it holds: the one table the docs'
#: field reference (docs/reference/result.md, `python3 docs/generate.py`) is written from.
RESULT_FIELDS: tuple[tuple[str, str], ...] = (
    ("app", "the bundled app's name (cosmictagger, gpt, ...)"),
    ("framework", "pytorch or tensorflow"),
    ("framework_version", "the framework's version string"),
    ("device", "the device type the run trained on: cpu, cuda, xpu"),
    ("device_name", "the device's own name (e.g. NVIDIA H100 80GB HBM3)"),
    ("device_stack", "the device's software stack (CUDA, ROCm or oneAPI version), null on "
     "the CPU"),
    ("precision", "the precision the run trained in (fp32, tf32, bf16, fp16)"),
    ("precision_requested", "the precision asked for (--precision)"),
    ("precision_note", "why the two differ, or null"),
    ("mode", "train (the whole step), or data (the input pipeline alone)"),
    ("size", "the configuration's name (also in config)"),
    ("world_size", "ranks in the run"),
    ("launcher", "what started the ranks, from a variable only it sets: torchrun, "
     "horovodrun, pals, openmpi, jsrun, mpich, srun, spawn; none for a lone process"),
    ("rank_variables", "the variables this rank read its rank, local rank and sizes from"),
    ("dist_backend", "the collectives' backend (gloo, nccl, xccl, ...), null alone"),
    ("batch_size", "samples per rank per micro-batch"),
    ("batch_size_requested", "the batch size asked for (--batch-size), or null"),
    ("batch_note", "why the batch size differs from the one asked for, or null"),
    ("gradient_accumulation_steps", "micro-batches per optimizer step on each rank"),
    ("global_batch_size", "batch_size x gradient_accumulation_steps x world_size"),
    ("steps", "optimizer steps asked for (--steps)"),
    ("warmup_steps", "steps left out of the timing (--warmup)"),
    ("timed_steps", "steps the rates and times below count"),
    ("resumed_from_step", "the checkpoint step the run resumed from, or null"),
    ("samples_per_sec", "training throughput of all ranks (the slowest rank's time)"),
    ("samples_per_sec_per_rank", "samples_per_sec / world_size"),
    ("step_time_ms_p50", "median step time, ms"),
    ("step_time_ms_p90", "90th percentile step time, ms"),
    ("step_time_ms_mean", "mean step time, ms"),
    ("elapsed_s", "seconds of the timed steps"),
    ("peak_mem_mb", "the device allocator's peak, MiB (null on the CPU)"),
    ("device_mem_mb", "the device's memory, MiB (null on the CPU)"),
    ("peak_mem_reserved_mb", "the allocator's peak reserved memory, MiB (null on the CPU)"),
    ("mem_headroom_mb", "device memory still free at the allocator's peak, MiB"),
    ("mem_headroom_pct", "the same, as a percentage of the device's memory"),
    ("first_loss", "rank 0's loss at the first step"),
    ("final_loss", "rank 0's loss at the last step"),
    ("param_sha256", "sha256 of the final parameters (equal runs: equal hashes)"),
    ("data", "the data directory, or null for synthetic data"),
    ("channels_last", "channels-last memory format used (PyTorch), else null"),
    ("compile", "torch.compile used (PyTorch)"),
    ("optimizer_impl", "the optimizer's implementation (foreach, fused), null in TensorFlow"),
    ("pin_memory", "pinned host memory for the data loader (PyTorch), else null"),
    ("seed", "the random seed"),
    ("config", "the configuration's name (--config)"),
    ("recipe", "the training recipe: optimizer, schedule, its parameters"),
    ("lr", "the recipe's base learning rate"),
    ("lr_last", "the rate the schedule gave the last step"),
    ("unit", "what one sample is counted as (samples, tokens, images)"),
    ("units_per_sec", "samples_per_sec x units per sample"),
    ("train_flops_per_sample", "counted training FLOPs per sample, or null"),
    ("flops_method", "how the FLOPs were counted"),
    ("peak_flops_per_sec", "the device's dense peak at the run's precision, or null"),
    ("peak_source", "where that peak comes from, or why there is none"),
    ("mfu", "model FLOPs utilisation: train_flops_per_sample x samples_per_sec / "
     "(peak x devices); null on the CPU and on devices the table lacks"),
    ("mfu_note", "how mfu was computed, or why it is null"),
    ("loss_window", "steps in each loss window (--loss-window)"),
    ("first_loss_window_mean", "mean loss of the first window"),
    ("final_loss_window_mean", "mean loss of the last window"),
    ("data_wait_s", "host seconds spent waiting for the next batch in the timed steps "
     "(the slowest rank's)"),
    ("data_wait_share", "data_wait_s / elapsed_s"),
    ("trials", "the per-trial results when the app ran several trials, else null"),
    ("chain_link", "this job's link in a `jobgen chain` (JOBGEN_CHAIN_LINK), else null"),
    ("checkpoint_seconds_max", "the slowest checkpoint write of this run, s (rank 0's), "
     "or null when it wrote none"),
    ("checkpoints_written", "checkpoints this run wrote"),
    ("stop_reason", "why the run ended: finished (its last step), already-finished (the "
     "FINISHED marker was there: nothing trained), time-budget (stopped after a checkpoint "
     "before the job's walltime, docs/walltime.md), or the signal's name (SIGTERM, SIGUSR1)"),
    ("restart_seconds", "a resumed run: seconds from the process's start to its first "
     "step, else null"),
)
#: The keys of the JSON result line, in order (workloads/README.md, "Measurement").
RESULT_KEYS = tuple(key for key, _ in RESULT_FIELDS)
#: Keys some runs add after RESULT_KEYS.
EXTRA_FIELDS: tuple[tuple[str, str], ...] = (
    ("ranks_per_device", "ranks sharing one device (PyTorch)"),
    ("instance", "this instance's index, when one job runs independent instances"),
    ("instances", "the number of instances"),
    ("<unit>_per_s", "the rate in the app's unit (tokens_per_s for gpt, images_per_s)"),
    ("profile_trace", "the profiler trace's path, under --profile torch"),
)
#: The memory keys a runtime that cannot measure them reports as null.
NO_HEADROOM = {"device_mem_mb": None, "peak_mem_reserved_mb": None, "mem_headroom_mb": None,
               "mem_headroom_pct": None}


class NonFiniteLoss(RuntimeError):
    def __init__(self, step: int, value: float) -> None:
        super().__init__(f"loss became {value} at step {step}")
        self.step = step
        self.value = value


class SignalFlag:
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
    def __init__(self, rank: int, instance: int | None = None) -> None:
        self.rank = rank
        self.tag = f"[workloads instance {instance}]" if instance is not None else "[workloads]"

    def info(self, msg: str) -> None:
        if self.rank == 0:
            print(f"{self.tag} {msg}", file=sys.stderr, flush=True)

    def all(self, msg: str) -> None:
        print(f"[workloads rank {self.rank}] {msg}", file=sys.stderr, flush=True)


def report_nonfinite(log: Logger, exc: NonFiniteLoss) -> int:
    log.all(f"ERROR: {exc}; stopping the run (non-finite loss at step {exc.step}). "
            "Lower --lr, use --precision fp32/bf16, or check the input data.")
    return EXIT_NONFINITE


@dataclass
class Hooks:
    """What the loop needs from a framework.

    ``batch(i)`` is the batch of step index ``i`` (0-based); ``train(batch, i)`` runs one
    optimizer step and returns the loss without waiting for the device; ``losses(handles)``
    brings those losses to the host (the only device sync besides the timer's);
    ``all_reduce(values, op)`` reduces floats over ranks (None: one process); ``save(step,
    first_loss)`` writes a checkpoint on every rank (None: no checkpointing); ``track`` keeps
    the windowed losses (None: a fresh one of ``--loss-window`` steps); ``sync_period``, when
    set, adds a host sync at every multiple of it (a windowed schedule: plateau); ``budget``,
    with a deadline and ``save``, stops the run after a checkpoint before the deadline
    (runtime/budget.py).
    """

    batch: Callable[[int], Any]
    train: Callable[[Any, int], Any]
    losses: Callable[[list[Any]], list[float]]
    all_reduce: Callable[[list[float], str], list[float]] | None
    save: Callable[[int, float | None], None] | None
    timer: StepTimer
    track: LossTrack | None = None
    sync_period: int = 0
    budget: Budget | None = None


@dataclass
class Outcome:
    step: int  # steps completed
    stop_signal: int  # 0, or the signal all ranks agreed to stop on
    first_loss: float | None
    last_loss: float | None
    warmup: int
    timed_steps: int
    elapsed_s: float  # the slowest rank's
    step_ms: list[float] = field(default_factory=list)
    track: LossTrack | None = None
    data_wait_s: float = 0.0  # host time spent fetching batches in the timed steps (max of ranks)
    budget_stop: bool = False  # the ranks agreed to stop for the time budget
    stop_reason: str | None = None  # finished, time-budget, SIG<name>
    checkpoint_seconds: list[float] = field(default_factory=list)  # this rank's writes
    restart_seconds: float | None = None  # resumed: process start to the first step


def warmup_steps(args: argparse.Namespace, start_step: int) -> int:
    """Untimed steps of this run: ``--warmup``, leaving at least one timed step."""
    return min(max(args.warmup, 0), max(args.steps - start_step - 1, 0))


def next_boundary(step: int, sync_every: int, ckpt_every: int, total: int,
                  *more: int) -> int:
    """The next step after ``step`` that needs a host sync: every ``sync_every`` steps, every
    ``ckpt_every`` steps (0: none), every period in ``more`` (0: none) and the last step."""
    nxt = (step // sync_every + 1) * sync_every
    for every in (ckpt_every, *more):
        if every:
            nxt = min(nxt, (step // every + 1) * every)
    return min(nxt, total)


def run_steps(args: argparse.Namespace, hooks: Hooks, log: Logger, flag: SignalFlag,
              rank: int, start_step: int, first_loss: float | None) -> Outcome:
    """Steps ``start_step``..``args.steps``; the device is synchronised only at the start and
    end of the timed region and every ``--sync-every`` steps (losses checked, log line, ranks
    agree on signals), and before a checkpoint.

    The loop does the least host work it can between syncs, because a launch-bound step pays
    for every line (benchmarks/workloads_overhead.py compares it with a bare loop): per-step
    checks are on precomputed locals, and the sync, checkpoint and signal logic runs only at
    the boundaries :func:`next_boundary` computes."""
    total = args.steps
    single = hooks.all_reduce is None
    warmup = warmup_steps(args, start_step)
    timed_from = start_step + warmup  # 0-based index of the first timed step
    sync_every = max(1, args.sync_every)
    ckpt_every = max(0, args.checkpoint_every) if hooks.save is not None else 0
    fixed = hooks.batch(start_step) if args.mode == "compute" else None
    track = hooks.track or LossTrack(getattr(args, "loss_window", 10))
    out = Outcome(start_step, 0, first_loss, None, warmup, 0, 0.0, track=track)
    window: list[Any] = []  # device losses since the last host sync
    window_start = start_step + 1
    timer = hooks.timer
    batch_of, train = hooks.batch, hooks.train
    compute = args.mode != "data"
    fail_at = args.debug_fail_at_step if args.debug_fail_rank == rank else None
    pause = args.debug_step_sleep
    clock = time.perf_counter
    waited = 0.0  # host time in batch_of during the timed steps
    budget = hooks.budget if hooks.save is not None else None
    if budget is not None and budget.deadline is None:
        budget = None
    t_run = clock()
    saving = 0.0  # seconds spent writing checkpoints (left out of the step-time estimate)
    restart_pending = start_step > 0

    def host_sync(step_done: int, want_stop: float = 0.0) -> None:
        """Check losses for NaN/inf, agree on signals and the time budget across ranks, log."""
        nonlocal window, window_start
        bad_step, bad_value = math.inf, 0.0
        if window:
            vals = hooks.losses(window)
            bad = [k for k, v in enumerate(vals) if not math.isfinite(v)]
            if bad:
                bad_step, bad_value = float(window_start + bad[0]), vals[bad[0]]
            if out.first_loss is None and window_start == 1:
                out.first_loss = vals[0]
            out.last_loss = vals[-1]
            track.add(window_start, vals)
        sig = float(flag.signum)
        if hooks.all_reduce is not None:
            bad_step, neg_sig, neg_stop = hooks.all_reduce([bad_step, -sig, -want_stop], "min")
            sig, want_stop = -neg_sig, -neg_stop
        if math.isfinite(bad_step):
            raise NonFiniteLoss(int(bad_step), bad_value if bad_value else math.nan)
        out.stop_signal = int(sig)
        out.budget_stop = want_stop > 0
        if timer.started:
            timer.collect()
        window = []
        window_start = step_done + 1
        if out.last_loss is not None:
            log.info(f"step {step_done}/{total} loss {out.last_loss:.6g}")

    period = hooks.sync_period
    boundary = next_boundary(start_step, sync_every, ckpt_every, total, period)
    gc.freeze()  # the model and optimizer are long-lived: keep them out of collector passes
    try:
        for i in range(start_step, total):
            if i == timed_from:
                timer.start()
            if fixed is not None:
                batch = fixed
            elif timer.started:
                t0 = clock()
                batch = batch_of(i)
                waited += clock() - t0
            else:
                batch = batch_of(i)
            if compute:
                if fail_at == i + 1:
                    raise RuntimeError(f"injected failure at step {i + 1} on rank {rank}")
                window.append(train(batch, i))
            if restart_pending:
                out.restart_seconds = time.time() - process_started()
                restart_pending = False
            if pause:
                time.sleep(pause)
            step = i + 1
            if timer.started:
                timer.mark()
            if step < boundary and not (single and flag.signum):
                continue
            out.step = step
            need_ckpt = hooks.save is not None and (
                (ckpt_every and step % ckpt_every == 0) or step == total)
            want_stop = 0.0
            if budget is not None and step < total:
                ahead = next_boundary(step, sync_every, ckpt_every, total, period) - step
                per_step = (clock() - t_run - saving) / (step - start_step)
                want_stop = float(budget.should_stop(ahead, per_step))
            host_sync(step, want_stop)
            boundary = next_boundary(step, sync_every, ckpt_every, total, period)
            if hooks.save is not None and (need_ckpt or out.stop_signal or out.budget_stop):
                t0 = clock()
                hooks.save(step, out.first_loss)
                spent = clock() - t0
                saving += spent
                out.checkpoint_seconds.append(spent)
                if budget is not None:
                    budget.record(spent)
            if out.stop_signal or out.budget_stop:
                break
    finally:
        gc.unfreeze()
    if out.stop_signal:
        out.stop_reason = signal.Signals(out.stop_signal).name
    elif out.budget_stop:
        out.stop_reason = "time-budget"
    else:
        out.stop_reason = "finished"
    if timer.started:
        timer.stop()
        out.timed_steps = max(0, out.step - timed_from)
    out.elapsed_s = timer.elapsed_s
    out.data_wait_s = waited
    if hooks.all_reduce is not None:
        out.elapsed_s, out.data_wait_s = hooks.all_reduce([out.elapsed_s, waited], "max")
    out.step_ms = timer.step_times_ms()
    return out


def stop_code(log: Logger, out: Outcome, checkpoint_dir: str | None, saved: bool) -> int:
    """Log why the run stops on a signal; the exit code is 128 + the signal number."""
    name = signal.Signals(out.stop_signal).name
    code = 128 + out.stop_signal
    where = (f"saved a checkpoint at step {out.step} in {checkpoint_dir}" if saved
             else "no --checkpoint-dir, nothing saved")
    log.info(f"received {name}: {where}; exiting with code {code}")
    return code


def finished_before(mgr: Any, loaded: Any,
                    args: argparse.Namespace, rank: int, log: Logger) -> bool:
    """True when the checkpoint directory says this training is done: its FINISHED marker is
    for these --steps and the newest checkpoint is the last step's (the run then trains
    nothing and exits 0). A marker that does not apply (other --steps, --no-resume) is
    removed by rank 0, so a chain's `test -f FINISHED` does not see it."""
    if mgr is None:
        return False
    marker = mgr.finished()
    if marker is None:
        return False
    if marker.get("step") == args.steps and loaded is not None and loaded[0] == args.steps:
        log.info(f"training already finished: {mgr.finished_path} says step {args.steps} of "
                 f"{args.steps}; nothing to do, exiting with code 0")
        return True
    if rank == 0 and mgr.clear_finished():
        log.info(f"note: removed {mgr.finished_path} (step {marker.get('step')}): this run "
                 f"trains to step {args.steps}" + (" from scratch (--no-resume)"
                                                   if args.no_resume else ""))
    return False


def time_budget(args: argparse.Namespace, log: Logger, estimate: float) -> Budget | None:
    """The run's stop rule from ``JOBGEN_DEADLINE`` and ``--stop-lead`` (runtime/budget.py);
    None without a deadline or without ``--checkpoint-dir`` (nothing to stop cleanly for)."""
    from .budget import FLOOR_S, deadline_from_env

    deadline = deadline_from_env()
    if deadline is None or not args.checkpoint_dir or args.mode != "train":
        return None
    lead = getattr(args, "stop_lead", None)
    budget = Budget(deadline, floor=FLOOR_S if lead is None else float(lead), estimate=estimate)
    left = deadline - time.time()
    log.info(f"time budget: the job ends in {left:.0f}s (JOBGEN_DEADLINE); the run stops after "
             f"a checkpoint once the next one would end later than {budget.describe()} before "
             "it")
    return budget


def stopped_for_budget(log: Logger, out: Outcome, budget: Budget | None,
                       checkpoint_dir: str | None) -> None:
    """Log the stop for the time budget (exit code 0, no FINISHED marker)."""
    why = budget.describe() if budget is not None else "time budget"
    log.info(f"stopped at step {out.step} for the time budget ({why}): checkpoint in "
             f"{checkpoint_dir}; the next job resumes from it; exiting with code 0")


def result_line(args: argparse.Namespace, out: Outcome, batch_size: int, world: int,
                start_step: int, devices: float = 1.0, units_per_sample: float | None = None,
                accum: int = 1, **values: Any) -> dict[str, Any]:
    """The JSON result: measurements from ``out`` plus the runtime's ``values`` for every other
    key of :data:`RESULT_KEYS` (a missing or unknown key is a bug, not a null).

    ``values`` carries ``train_flops_per_sample`` and ``peak_flops_per_sec`` (either may be
    None), from which MFU follows over ``devices`` devices; ``units_per_sample`` turns
    samples/s into the app's unit per second, also written as ``<unit>_per_s`` after the fixed
    keys (``tokens_per_s`` for GPT). ``accum`` micro-batches of ``batch_size`` make one step on
    each rank (gradient accumulation): the rates and the global batch count them all, as
    nanoGPT's ``estimate_mfu(batch_size * gradient_accumulation_steps, dt)`` does."""
    elapsed = out.elapsed_s
    per_rank = batch_size * accum * out.timed_steps / elapsed if elapsed > 0 else None
    total_rate = per_rank * world if per_rank is not None else None
    step_ms = out.step_ms
    track = out.track
    units = total_rate * units_per_sample if total_rate and units_per_sample else None
    flops, peak = values.get("train_flops_per_sample"), values.get("peak_flops_per_sec")
    utilisation = mfu(flops, total_rate, peak, devices)
    if utilisation is not None:
        mfu_note = (f"train_flops_per_sample x samples_per_sec / ({peak / 1e12:g} TFLOP/s x "
                    f"{devices:g} devices)")
    else:
        mfu_note = values.get("peak_source") if not peak else "no FLOP count or no throughput"
    if args.mode == "data":
        utilisation, mfu_note = None, "--mode data: no compute"
    measured = {
        "mode": args.mode, "world_size": world, "batch_size": batch_size,
        "gradient_accumulation_steps": accum,
        "global_batch_size": batch_size * accum * world, "steps": args.steps,
        "warmup_steps": out.warmup, "timed_steps": out.timed_steps,
        "resumed_from_step": start_step or None,
        "samples_per_sec": total_rate,
        "samples_per_sec_per_rank": per_rank,
        "step_time_ms_p50": percentile(step_ms, 50), "step_time_ms_p90": percentile(step_ms, 90),
        "step_time_ms_mean": sum(step_ms) / len(step_ms) if step_ms else None,
        "elapsed_s": elapsed, "first_loss": out.first_loss, "final_loss": out.last_loss,
        "data": args.data, "seed": args.seed, "units_per_sec": units, "mfu": utilisation,
        "mfu_note": mfu_note, "loss_window": track.window if track else None,
        "first_loss_window_mean": track.first_mean() if track else None,
        "final_loss_window_mean": track.last_mean() if track else None,
        "data_wait_s": out.data_wait_s if out.timed_steps else None,
        "data_wait_share": out.data_wait_s / elapsed if elapsed > 0 else None,
        "chain_link": chain_link(),
        "checkpoint_seconds_max": max(out.checkpoint_seconds, default=None),
        "checkpoints_written": len(out.checkpoint_seconds),
        "stop_reason": out.stop_reason,
        "restart_seconds": out.restart_seconds,
    }
    merged = {**measured, **values}
    if set(merged) != set(RESULT_KEYS) or len(merged) != len(measured) + len(values):
        raise AssertionError(f"result keys differ from RESULT_KEYS: {sorted(merged)}")
    result = {k: merged[k] for k in RESULT_KEYS}
    unit = result.get("unit")
    if unit and unit != "samples":
        result[f"{unit}_per_s"] = units
    return result


def emit(result: dict[str, Any]) -> None:
    """The JSON result line on stdout (for tools), then its gist for a person on stderr."""
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    sys.stderr.write(summary(result))
    sys.stderr.flush()


def _num(value: Any, spec: str = ".4g") -> str:
    return "-" if value is None else format(value, spec)


def summary(result: dict[str, Any]) -> str:
    """A few lines a person reads at the end of a run: throughput, MFU or why none, loss,
    time (the JSON line above has every field; docs/reference/result.md says what each is)."""
    tag = f"[{result.get('app')}]"
    world = result.get("world_size")
    rate = result.get("samples_per_sec")
    unit = result.get("unit") or "samples"
    line1 = (f"{tag} done: {_num(rate, '.1f')} samples/s on {world} rank(s) "
             f"({_num(result.get('samples_per_sec_per_rank'), '.1f')} per rank)")
    if unit != "samples" and result.get("units_per_sec") is not None:
        line1 += f", {_num(result.get('units_per_sec'), '.4g')} {unit}/s"
    mfu_value = result.get("mfu")
    note = str(result.get("mfu_note") or "")
    why = note.split(" (", 1)[0] or "no peak or no FLOP count"
    mfu_text = (f"MFU {mfu_value:.1%}" if mfu_value is not None
                else why if why.startswith("no MFU") else f"no MFU ({why})")
    line2 = (f"{tag} step {_num(result.get('step_time_ms_p50'), '.1f')} ms median; "
             f"{mfu_text}")
    elapsed = _num(result.get("elapsed_s"), ".2f")
    line3 = (f"{tag} loss {_num(result.get('first_loss'))} -> {_num(result.get('final_loss'))}"
             f"; {result.get('timed_steps')} timed step(s) in {elapsed} s "
             f"({result.get('precision')} on {result.get('device')})")
    lines = [line1, line2, line3]
    if result.get("profile_trace"):
        lines.append(f"{tag} profile trace: {result['profile_trace']}")
    return "".join(f"{ln}\n" for ln in lines)
