"""Step timing that does not synchronise the device every step.

On CUDA / XPU an event is recorded at each step boundary and all are resolved once at the end;
on the CPU work is synchronous, so ``time.perf_counter`` at the boundaries is exact.
:class:`StepTimer` itself imports no framework: the PyTorch runtime builds it with
:func:`device_timer`, the TensorFlow runtime with its own device synchronisation.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .device import DeviceInfo


def _event_class(dev: DeviceInfo) -> Any:
    import torch

    if dev.type == "cuda":
        return torch.cuda.Event
    if dev.type == "xpu":
        return getattr(torch.xpu, "Event", None)
    return None


def device_timer(dev: DeviceInfo) -> StepTimer:
    """A timer for a torch device: device events on CUDA / XPU, ``perf_counter`` on the CPU."""
    from .device import synchronize

    return StepTimer(lambda: synchronize(dev), _event_class(dev))


class StepTimer:
    """``sync`` waits for the device; ``event_cls`` (None: host clock) records step boundaries
    on the device's own timeline."""

    def __init__(self, sync: Callable[[], None], event_cls: Any = None) -> None:
        self._sync = sync
        self._event_cls = event_cls
        self._marks: list = []
        self.t_start: float | None = None
        self.t_end: float | None = None

    @property
    def started(self) -> bool:
        return self.t_start is not None

    def start(self) -> None:
        self._sync()
        self.t_start = time.perf_counter()
        self._marks = []
        self.mark()

    def mark(self) -> None:
        """Record a step boundary (cheap, asynchronous on accelerators)."""
        if self._event_cls is not None:
            ev = self._event_cls(enable_timing=True)
            ev.record()
            self._marks.append(ev)
        else:
            self._marks.append(time.perf_counter())

    def stop(self) -> None:
        self._sync()
        self.t_end = time.perf_counter()

    @property
    def elapsed_s(self) -> float:
        if self.t_start is None or self.t_end is None:
            return 0.0
        return self.t_end - self.t_start

    def step_times_ms(self) -> list[float]:
        m = self._marks
        if len(m) < 2:
            return []
        if self._event_cls is not None:
            return [float(a.elapsed_time(b)) for a, b in zip(m[:-1], m[1:], strict=True)]
        return [(b - a) * 1e3 for a, b in zip(m[:-1], m[1:], strict=True)]


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    # linear interpolation, same as numpy's default
    pos = (len(s) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)
