"""The time budget of a run that must stop before its job's walltime ends (issue 34).

The job script exports ``JOBGEN_DEADLINE``: the epoch second at which the walltime jobgen
rendered ends, computed when the batch script starts. The run stops on its own, cleanly, after
a complete checkpoint, once the next chance to checkpoint would come too late:

    lead   = max(2 x the slowest checkpoint write so far, floor) + margin
    budget = deadline - lead

At each host sync (where the ranks already agree on signals) a rank wants to stop when the
next sync point, estimated from the steps' mean wall time, falls after the budget; the ranks
agree (any rank that wants to stop stops them all), write a checkpoint (unless the sync point
wrote one) and stop with exit code 0, without the FINISHED marker.

Why these numbers:

- *2 x the slowest checkpoint*: a write's time varies with the filesystem's load; twice the
  slowest seen keeps the last write inside the walltime when the next one is up to twice as
  slow (the rule issue 34 asks for).
- *floor* (:data:`FLOOR_S`, 30 s; ``--stop-lead`` replaces it): before the first write is
  measured the slowest is an estimate (:func:`estimate_seconds`), and a write measured at a
  few milliseconds (a small model on a local disk) says little about the next one on a loaded
  parallel filesystem.
- *margin* (:data:`MARGIN_S`, 30 s): what follows the last write before the walltime ends:
  the process group's shutdown and the interpreter's exit, the job script's exit trap, and the
  time the scheduler's clock ran before the batch script started (its prologue), which the
  script's deadline does not see.
- *the estimate before the first write*: the bytes rank 0 writes (parameters and optimizer
  state) at :data:`WRITE_RATE` (100 MB/s, a single writer to a loaded shared filesystem; an
  assumption, deliberately low, not a measurement of any site).

Importing this module imports no framework.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

FLOOR_S = 30.0
MARGIN_S = 30.0
WRITE_RATE = 100e6  # bytes per second, before the first checkpoint write is measured
DEADLINE_VAR = "JOBGEN_DEADLINE"


def estimate_seconds(state_bytes: int) -> float:
    """A checkpoint write's time before any is measured: ``state_bytes`` at WRITE_RATE."""
    return max(0, state_bytes) / WRITE_RATE


def deadline_from_env(environ: dict[str, str] | None = None) -> float | None:
    """``JOBGEN_DEADLINE`` as epoch seconds; None when unset, empty or not a number."""
    text = (environ if environ is not None else os.environ).get(DEADLINE_VAR, "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value > 0 else None


_IMPORTED = time.time()


def process_started() -> float:
    """This process's start, epoch seconds: from /proc (the kernel's start time in clock ticks
    after boot, and the boot time), so the interpreter's and the framework's imports count;
    where /proc cannot say, the time this module was imported."""
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        ticks = int(fields[19])  # field 22, starttime, counted after the command's ")"
        with open("/proc/stat", encoding="ascii") as fh:
            boot = next(int(line.split()[1]) for line in fh if line.startswith("btime "))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return _IMPORTED


def chain_link(environ: dict[str, str] | None = None) -> int | None:
    """``JOBGEN_CHAIN_LINK`` (set by `jobgen chain`), or None."""
    text = (environ if environ is not None else os.environ).get("JOBGEN_CHAIN_LINK", "")
    return int(text) if text.strip().isdigit() else None


@dataclass
class Budget:
    """The stop rule of one run: ``deadline`` (epoch seconds, None: no stop of its own),
    ``floor`` (the least lead before the margin), ``estimate`` (a write's time until one is
    measured)."""

    deadline: float | None
    floor: float = FLOOR_S
    margin: float = MARGIN_S
    estimate: float = 0.0
    slowest: float | None = None  # the slowest checkpoint write measured, seconds
    written: int = 0  # checkpoints written by this run

    def record(self, seconds: float) -> None:
        """One checkpoint write took ``seconds``."""
        self.written += 1
        self.slowest = seconds if self.slowest is None else max(self.slowest, seconds)

    def lead(self) -> float:
        write = self.slowest if self.slowest is not None else self.estimate
        return max(2.0 * write, self.floor) + self.margin

    def end(self) -> float | None:
        """The budget's end, epoch seconds (None: no deadline)."""
        return None if self.deadline is None else self.deadline - self.lead()

    def should_stop(self, steps_to_next: int, step_seconds: float,
                    now: float | None = None) -> bool:
        """True when the next sync point, ``steps_to_next`` steps of ``step_seconds`` away,
        falls after the budget's end (or the budget has run out already)."""
        end = self.end()
        if end is None:
            return False
        now = time.time() if now is None else now
        return now + max(steps_to_next, 0) * max(step_seconds, 0.0) >= end

    def describe(self) -> str:
        end = self.end()
        if end is None:
            return "no deadline"
        measured = (f"slowest checkpoint {self.slowest:.2f}s" if self.slowest is not None
                    else f"estimated checkpoint {self.estimate:.2f}s")
        return (f"lead {self.lead():.0f}s = max(2 x {measured}, floor {self.floor:g}s) + "
                f"margin {self.margin:g}s")
