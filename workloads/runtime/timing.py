"""Step timing that does not synchronise the device every step.

On CUDA / XPU an event is recorded at each step boundary and resolved at the next host sync;
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


def device_timer(dev: DeviceInfo, pool: int = 0) -> StepTimer:
    """A timer for a torch device: device events on CUDA / XPU (``pool`` of them made before
    the loop), ``perf_counter`` on the CPU."""
    from .device import device_api, synchronize

    api = device_api(dev)
    event_cls = getattr(api, "Event", None)
    stream = api.current_stream(dev.device) if event_cls is not None else None
    return StepTimer(lambda: synchronize(dev), event_cls, stream, pool)


class StepTimer:
    """Step boundaries of the timed region, resolved into step times at the host syncs.

    ``sync`` waits for the device; ``event_cls`` (None: host clock) records boundaries on the
    device's own timeline, on ``stream``. A launch-bound step (qcnn on an H100: ~3 ms of
    kernel launches) pays for every microsecond of host work the loop adds, so a boundary
    costs one ``record`` call on a stream looked up once: the events come from a pool created
    (and their device events allocated by a first record) before the loop, and
    :meth:`collect`, called where the loop synchronises anyway, turns the recorded boundaries
    into milliseconds and returns the events to the pool.
    """

    def __init__(self, sync: Callable[[], None], event_cls: Any = None, stream: Any = None,
                 pool: int = 0) -> None:
        self._sync = sync
        self._event_cls = event_cls
        self._stream = stream
        self._pool = [self._new_event() for _ in range(pool)] if event_cls is not None else []
        self._marks: list = []
        self._times: list[float] = []
        self.started = False
        self.t_start: float | None = None
        self.t_end: float | None = None

    def _new_event(self) -> Any:
        assert self._event_cls is not None
        ev = self._event_cls(enable_timing=True)
        ev.record(self._stream)  # allocates the device event (lazily created otherwise)
        return ev

    def start(self) -> None:
        self._sync()
        self.t_start = time.perf_counter()
        self.started = True
        self._marks = []
        self._times = []
        self.mark()

    def mark(self) -> None:
        """Record a step boundary (cheap, asynchronous on accelerators)."""
        if self._event_cls is None:
            self._marks.append(time.perf_counter())
            return
        ev = self._pool.pop() if self._pool else self._new_event()
        ev.record(self._stream)
        self._marks.append(ev)

    def collect(self) -> None:
        """Turn the boundaries recorded so far into step times; keep the last as the start of
        the next step. Waits for the last boundary (free where the caller just synchronised)."""
        m = self._marks
        if len(m) < 2:
            return
        if self._event_cls is None:
            self._times += [(b - a) * 1e3 for a, b in zip(m[:-1], m[1:], strict=True)]
        else:
            m[-1].synchronize()
            self._times += [float(a.elapsed_time(b)) for a, b in zip(m[:-1], m[1:], strict=True)]
            self._pool += m[:-1]
        self._marks = [m[-1]]

    def stop(self) -> None:
        self._sync()
        self.t_end = time.perf_counter()
        self.collect()

    @property
    def elapsed_s(self) -> float:
        if self.t_start is None or self.t_end is None:
            return 0.0
        return self.t_end - self.t_start

    def step_times_ms(self) -> list[float]:
        return list(self._times)


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    # linear interpolation, same as numpy's default
    pos = (len(s) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)
