"""Profiling and TensorBoard scalars in the bundled apps (``--profile``, ``--tensorboard``).

As the SC22 tutorial's train.py does with ``--enable_manual_profiling``, a profiled rank marks
each step of the chosen range and its phases (data, forward, backward, optimizer) with ranges
the site's profiler shows, and drives the capture range at the chosen steps:

* ``torch``: torch.profiler records steps A..B-1 (a custom schedule in absolute step indices,
  one warm-up step before A) and writes ``rank-N.<time>.pt.trace.json`` to ``--profile-dir``,
  a Chrome trace that TensorBoard's profiler plugin and Perfetto open; the phases are
  record_function ranges.
* ``nsys``: NVTX ranges, and torch.cuda.profiler.start()/stop() (cudaProfilerStart/Stop) at
  steps A and B, which ``nsys -c cudaProfilerApi`` turns into the capture range.
* ``rocprof``/``rocprofv3``: the same calls; on ROCm builds torch.cuda.nvtx writes roctx
  ranges. ``unitrace``/``vtune``: ITT ranges (torch.profiler.itt) where available.

Only the ranks of ``--profile-ranks`` do any of this, and only in the chosen steps; the
others, and every rank without ``--profile``, run the loop untouched. No range adds a device
sync: they are host-side markers, and the phases come from module and optimizer hooks
(forward pre/post, optimizer step pre/post), so the training step itself is not edited.

``--tensorboard DIR`` (rank 0): the loss of every step, the step time and the throughput of
each window between host syncs, written with the small event writer in tbevents.py when the
loop brings the losses to the host (it adds no sync).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
import time
from collections.abc import Callable
from typing import Any

TOOLS = ("torch", "nsys", "rocprof", "rocprofv3", "unitrace", "vtune")
#: tools whose capture range the program's profiler start/stop drives
PROFILER_API = ("nsys",)


def add_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("profiling (docs/profiling.md)")
    g.add_argument("--profile", choices=TOOLS, default=None,
                   help="profile the chosen ranks and steps: torch (PyTorch profiler trace), or "
                        "mark them for the site's profiler the rank runs under")
    g.add_argument("--profile-ranks", default="0", metavar="LIST", type=_ranks_text,
                   help="ranks to profile, e.g. 0 or 0,14 or 0-3 (default 0)")
    g.add_argument("--profile-steps", default=None, metavar="A:B", type=_steps_text,
                   help="step indices A to B-1 to profile (default: 10 steps after the warm-up)")
    g.add_argument("--profile-dir", default="profile", metavar="DIR",
                   help="where --profile torch writes rank-N.*.pt.trace.json (default profile)")
    g.add_argument("--tensorboard", default=None, metavar="DIR",
                   help="write loss, throughput and step time as TensorBoard scalars (rank 0)")


#: a rank or step number has at most this many digits (jobgen's own parser allows 1024 ranks
#: of a job; a number past 10^12 is no rank and no step): the text is checked before int()
_NUM = r"[0-9]{1,12}"
_RANKS = re.compile(rf"{_NUM}(-{_NUM})?(,{_NUM}(-{_NUM})?){{0,1023}}")
_STEPS = re.compile(rf"({_NUM}):({_NUM})")


def _ranks_text(text: str) -> str:
    """argparse type of --profile-ranks: bounded syntax before any number is built."""
    if len(text) > 32768 or not _RANKS.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r}{'...' if len(text) > 40 else ''}: give ranks like 0 or 0,14 or 0-3"
            " (at most 1024 items of up to 12 digits)")
    return text


def _steps_text(text: str) -> str:
    m = _STEPS.fullmatch(text) if len(text) <= 32 else None
    if not m or int(m.group(2)) <= int(m.group(1)):
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r}{'...' if len(text) > 40 else ''}: give A:B with A < B, numbers of "
            "up to 12 digits")
    return text


class Ranks:
    """The ranks --profile-ranks names, as ranges: ``0-999999999999`` is two numbers, not a
    set of 10^12 (issue 36, N15)."""

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        self.ranges = ranges

    def __contains__(self, rank: object) -> bool:
        return isinstance(rank, int) and any(lo <= rank <= hi for lo, hi in self.ranges)


def parse_ranks(text: str) -> Ranks:
    from .safeio import InputError

    try:
        _ranks_text(text)
    except argparse.ArgumentTypeError as exc:
        raise InputError(f"--profile-ranks {exc}") from None
    ranges = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        ranges.append((int(lo), int(hi or lo)))
    return Ranks(ranges)


def step_range(args: argparse.Namespace) -> tuple[int, int]:
    """[A, B) in 0-based step indices, inside the run."""
    if args.profile_steps:
        from .safeio import InputError

        try:
            _steps_text(args.profile_steps)
        except argparse.ArgumentTypeError as exc:
            raise InputError(f"--profile-steps {exc}") from None
        m = _STEPS.fullmatch(args.profile_steps)
        assert m is not None
        first, stop = int(m.group(1)), int(m.group(2))
        if stop > args.steps:
            raise InputError(f"--profile-steps {args.profile_steps}: the run has {args.steps} "
                             "steps")
        return first, stop
    first = min(max(args.warmup, 0), max(args.steps - 1, 0))
    return first, min(first + 10, args.steps)


class _Marks:
    """A stack of named host-side ranges on one backend (push/pop pairs)."""

    def __init__(self, push: Callable[[str], Any], pop: Callable[[], Any]) -> None:
        self.push, self.pop = push, pop


def _marks(tool: str, device_type: str) -> _Marks | None:
    import torch

    if tool == "torch":
        stack: list[Any] = []

        def push(name: str) -> None:
            rf = torch.profiler.record_function(name)
            rf.__enter__()
            stack.append(rf)

        return _Marks(push, lambda: stack.pop().__exit__(None, None, None))
    if device_type == "cuda":  # NVTX; roctx on ROCm builds
        return _Marks(torch.cuda.nvtx.range_push, torch.cuda.nvtx.range_pop)
    itt = getattr(torch.profiler, "itt", None)
    if itt is not None and itt.is_available():
        return _Marks(itt.range_push, itt.range_pop)
    return None  # no marker API here: ranges are no-ops


PHASES = ("data", "forward", "backward", "optimizer")


def _traces(directory: str, rank: int) -> set[str]:
    import glob
    import os

    return set(glob.glob(os.path.join(glob.escape(directory), f"rank-{rank}.*.pt.trace.json")))


def phase_table(averages: Any, rank: int, first: int, stop: int) -> str:
    """The recorded steps' phases, per step, on this rank: host time of each range (the
    record_function ranges the Observer opens), from torch.profiler's key averages. On a GPU
    the host launches work that runs later, so device time is in the trace, not here."""
    by_name = {e.key: e for e in averages}
    marked = [e for e in averages if e.key.startswith("ProfilerStep")]  # ProfilerStep*
    steps = max(sum(e.count for e in marked), 1)
    step_total = sum(e.cpu_time_total for e in marked)
    rows = [(name, by_name[name].cpu_time_total / steps / 1000.0) for name in PHASES
            if name in by_name]
    total = step_total / steps / 1000.0
    out = [f"profile of rank {rank}, steps {first}-{stop - 1}: host ms per step by phase"]
    out += [f"  {name:<10} {ms:9.2f} ms  {ms / total:6.1%}" if total else
            f"  {name:<10} {ms:9.2f} ms" for name, ms in rows]
    if total:
        out.append(f"  {'step':<10} {total:9.2f} ms  (the whole step)")
    return "\n".join(out)


class Observer:
    """One rank's profiling and TensorBoard: wraps the loop's hooks, closes at the end."""

    def __init__(self, args: argparse.Namespace, rank: int, device_type: str,
                 global_batch: int, log: Callable[[str], None]) -> None:
        self.args, self.rank, self.log = args, rank, log
        self.device_type = device_type
        self.global_batch = global_batch
        self.tool = args.profile if rank in parse_ranks(args.profile_ranks) else None
        self.first, self.stop = step_range(args) if self.tool else (0, 0)
        self.marks = _marks(self.tool, device_type) if self.tool else None
        self.torch_prof: Any = None
        self.open: list[str] = []  # the phase ranges open in the current step
        self.active = False
        self.writer: Any = None
        if args.tensorboard and rank == 0:
            from .tbevents import EventWriter

            self.writer = EventWriter(args.tensorboard)
        self.last_t: float | None = None
        self.next_step = 0
        self.trace_path: str | None = None  # the torch trace this rank wrote

    # ------------------------------------------------------------ hooks on the model and optimizer
    def attach(self, model: Any, optimizer: Any) -> None:
        if self.marks is None:
            return
        model.register_forward_pre_hook(lambda *_: self._phase("forward"))
        model.register_forward_hook(lambda *_: self._phase("backward"))
        optimizer.register_step_pre_hook(lambda *_: self._phase("optimizer"))
        optimizer.register_step_post_hook(lambda *_: self._phase(None))

    def _phase(self, name: str | None) -> None:
        if not self.active or self.marks is None:
            return
        while self.open:
            self.open.pop()
            self.marks.pop()
        if name is not None:
            self.marks.push(name)
            self.open.append(name)

    # ------------------------------------------------------------ the loop's hooks
    def wrap(self, hooks: Any, start_step: int = 0) -> Any:
        """The loop's hooks with this rank's ranges, capture calls and scalars added."""
        changes: dict[str, Any] = {}
        if self.tool:
            changes.update(batch=self._batch(hooks.batch), train=self._train(hooks.train))
            if self.tool == "torch":
                self._start_torch(start_step)
        if self.writer is not None:
            self.next_step = start_step + 1
            changes["losses"] = self._losses(hooks.losses)
        return dataclasses.replace(hooks, **changes) if changes else hooks

    def _batch(self, batch_of: Callable[[int], Any]) -> Callable[[int], Any]:
        marks, first, stop = self.marks, self.first, self.stop

        def batch(i: int) -> Any:
            if marks is None or not first <= i < stop:
                return batch_of(i)
            marks.push("data")
            try:
                return batch_of(i)
            finally:
                marks.pop()

        return batch

    def _train(self, train: Callable[[Any, int], Any]) -> Callable[[Any, int], Any]:
        import torch

        first, stop, marks = self.first, self.stop, self.marks
        # cudaProfilerStart/Stop (hipProfilerStart/Stop on ROCm) bound nsys -c cudaProfilerApi
        api = self.device_type == "cuda" and self.tool in (*PROFILER_API, "rocprof", "rocprofv3")

        def step(batch: Any, i: int) -> Any:
            if i == first and api:
                torch.cuda.profiler.start()
            self.active = first <= i < stop
            if self.active and marks is not None:
                marks.push(f"step {i}")
            try:
                return train(batch, i)
            finally:
                if self.active and marks is not None:
                    self._phase(None)
                    marks.pop()
                self.active = False
                if i == stop - 1 and api:
                    torch.cuda.profiler.stop()
                if self.torch_prof is not None:
                    self.torch_prof.step()

        return step

    def _start_torch(self, start_step: int) -> None:
        """torch.profiler with a schedule in absolute step indices: nothing before A - 1, a
        warm-up step, steps A..B-1 recorded, the trace written when step B - 1 ends."""
        import torch
        from torch.profiler import ProfilerAction

        first, stop = self.first, self.stop

        def schedule(step: int) -> ProfilerAction:
            if step == first - 1:
                return ProfilerAction.WARMUP
            if first <= step < stop - 1:
                return ProfilerAction.RECORD
            if step == stop - 1:
                return ProfilerAction.RECORD_AND_SAVE
            return ProfilerAction.NONE

        activities = [torch.profiler.ProfilerActivity.CPU]
        if self.device_type == "cuda":
            activities.append(torch.profiler.ProfilerActivity.CUDA)
        elif self.device_type == "xpu" and hasattr(torch.profiler.ProfilerActivity, "XPU"):
            activities.append(torch.profiler.ProfilerActivity.XPU)
        handler = torch.profiler.tensorboard_trace_handler(self.args.profile_dir,
                                                           worker_name=f"rank-{self.rank}")

        def ready(done: Any) -> None:
            before = _traces(self.args.profile_dir, self.rank)
            handler(done)
            new = sorted(_traces(self.args.profile_dir, self.rank) - before)
            self.trace_path = new[-1] if new else None
            say = f"[workloads rank {self.rank}] "  # whichever rank was profiled
            text = phase_table(done.key_averages(), self.rank, first, stop)
            if self.trace_path:
                text += (f"\ntrace: {self.trace_path} (Perfetto UI or chrome://tracing open "
                         "it; docs/profiling.md)")
            print("\n".join(say + ln for ln in text.splitlines()), file=sys.stderr, flush=True)

        prof = torch.profiler.profile(activities=activities, schedule=schedule,
                                      on_trace_ready=ready)
        prof.step_num = start_step  # ProfilerStep#i names step i of the run
        prof.current_action = schedule(start_step)
        prof.start()
        self.torch_prof = prof
        self.log(f"profile: torch on rank {self.rank}, steps {first}-{stop - 1} -> "
                 f"{self.args.profile_dir}/rank-{self.rank}.*.pt.trace.json")

    def _losses(self, losses: Callable[[list[Any]], list[float]]
                ) -> Callable[[list[Any]], list[float]]:
        writer = self.writer

        def host_losses(window: list[Any]) -> list[float]:
            values = losses(window)  # the loop's own sync
            now = time.perf_counter()
            step = self.next_step
            for k, v in enumerate(values):
                writer.scalar("loss/train", v, step + k)
            last = step + len(values) - 1
            if self.last_t is not None and values:
                dt = (now - self.last_t) / len(values)
                writer.scalar("time/step_ms", dt * 1000.0, last)
                if dt > 0:
                    writer.scalar("throughput/samples_per_sec", self.global_batch / dt, last)
            self.last_t = now
            self.next_step = last + 1
            writer.flush()
            return values

        return host_losses

    def close(self) -> None:
        if self.torch_prof is not None:
            self.torch_prof.stop()
            self.torch_prof = None
        if self.writer is not None:
            self.writer.close()
