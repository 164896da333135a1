"""Device memory: the per-rank batch that fills it (``--batch-size auto``) and the headroom a run
left (reported in the result line).

The study's default batches use a few percent of a large GPU (cosmictagger 8, resnet50 64 and
gpt 8 peaked at 4.3, 3.7 and 10.3 GB of an 80 GB H100:
docs/measurements/h100-2026-11-23.md). ``auto`` runs
two probe steps on a throw-away copy of the model, fits peak memory as ``base + slope * batch``
and takes the largest batch within :data:`TARGET_FRACTION` of the memory free before the probe.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import dataclass

import torch

from .device import DeviceInfo, device_api

#: Share of the memory free at start that the auto batch may use: the rest absorbs allocator
#: fragmentation, the DDP buckets' growth and the difference between the probe and the run.
TARGET_FRACTION = 0.85
#: Auto batches above this are rounded down to a multiple of it (tensor-core friendly shapes).
ROUND_TO = 8


@dataclass(frozen=True)
class MemoryFit:
    batch: int
    note: str


def free_and_total(dev: DeviceInfo) -> tuple[int, int] | None:
    """(free, total) bytes of the device now; None where the framework cannot tell (CPU)."""
    api = device_api(dev)
    if api is None:
        return None
    if hasattr(api, "mem_get_info"):
        free, total = api.mem_get_info(dev.device)
        return int(free), int(total)
    props = api.get_device_properties(dev.device)
    total = int(props.total_memory)
    return total - int(api.memory_reserved(dev.device)), total


def headroom(dev: DeviceInfo) -> dict[str, float | None]:
    """Total memory, peak reserved by this process and what stayed free at the peak (MiB)."""
    info = free_and_total(dev)
    api = device_api(dev)
    if info is None or api is None:
        return {"device_mem_mb": None, "peak_mem_reserved_mb": None, "mem_headroom_mb": None,
                "mem_headroom_pct": None}
    free, total = info
    peak = int(api.max_memory_reserved(dev.device))
    # Free now, plus what the allocator holds now but not at its peak: free at the peak.
    spare = max(0, free + int(api.memory_reserved(dev.device)) - peak)
    return {"device_mem_mb": total / 2**20, "peak_mem_reserved_mb": peak / 2**20,
            "mem_headroom_mb": spare / 2**20, "mem_headroom_pct": 100.0 * spare / total}


def choose_batch(base: float, slope: float, budget: float, floor: int) -> int:
    """Largest batch with ``base + slope * batch <= budget``, rounded down to a multiple of
    :data:`ROUND_TO` when above it; never below ``floor`` (the app's default)."""
    if slope <= 0:
        return floor
    batch = int((budget - base) // slope)
    if batch > ROUND_TO:
        batch -= batch % ROUND_TO
    return max(floor, batch)


def _out_of_memory(exc: RuntimeError) -> bool:
    """CUDA's and XPU's out-of-memory errors (RuntimeError subclasses in every release)."""
    oom = getattr(torch, "OutOfMemoryError", None)
    return (oom is not None and isinstance(exc, oom)) or "out of memory" in str(exc).lower()


def fit_batch(make_step: Callable[[], Callable[[int], None]], dev: DeviceInfo, default: int,
              extra_bytes: Callable[[], int]) -> MemoryFit:
    """Probe one training step at the default batch and twice it, on the throw-away model that
    ``make_step()`` builds, and return the batch that fills :data:`TARGET_FRACTION` of the
    memory free before the probe.

    ``extra_bytes()``, asked after the probe, is memory the run needs beyond it (DDP's
    gradient buckets).
    """
    api = device_api(dev)
    info = free_and_total(dev)
    if api is None or info is None:
        return MemoryFit(default, "auto batch on the CPU: no device memory to size it from, "
                                  f"the default {default}")
    free = info[0]
    before = api.memory_allocated(dev.device)
    step_at = make_step()
    try:
        peaks = []
        for batch in (default, 2 * default):
            api.reset_peak_memory_stats(dev.device)
            try:
                step_at(batch)
            except RuntimeError as exc:
                if not _out_of_memory(exc):
                    raise
                return MemoryFit(default, f"auto batch: batch {batch} does not fit; the "
                                          f"default {default}")
            peaks.append(api.max_memory_allocated(dev.device) - before)
        slope = (peaks[1] - peaks[0]) / default
        base = peaks[0] - slope * default + extra_bytes()
        batch = choose_batch(base, slope, TARGET_FRACTION * free, default)
        while batch > default:  # confirm: the fit is linear, the allocator is not
            try:
                step_at(batch)
                break
            except RuntimeError as exc:
                if not _out_of_memory(exc):
                    raise
                _release(api)
                batch = max(default, int(batch * 0.8) // ROUND_TO * ROUND_TO)
    finally:
        del step_at
        _release(api)
    return MemoryFit(batch, f"auto batch {batch}: {peaks[0] / 2**20:.0f} MiB at batch "
                            f"{default}, {slope / 2**20:.2f} MiB more per sample, "
                            f"{TARGET_FRACTION:.0%} of {free / 2**20:.0f} MiB free")


def _release(api) -> None:
    gc.collect()
    api.empty_cache()
