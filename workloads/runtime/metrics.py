"""The figures the originals report besides samples/s, for both frameworks (imports neither).

* Model FLOPs utilisation: counted training FLOPs per sample (runtime/flops.py) x samples/s over
  the devices' peak (:data:`PEAKS`, dense tensor-core figures from the vendors' datasheets, by
  the run's precision). MFU is null on the CPU and on devices the table lacks, with the reason.
* The windowed loss (:class:`LossTrack`): the mean of the first and of the last ``window``
  steps' losses instead of single steps, and the windowed metric ReduceLROnPlateau reacts to.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Peak:
    """A device model's dense peak in TFLOP/s per device torch / TensorFlow sees."""

    match: tuple[str, ...]  # every one of these (lower case) is in the device name
    name: str
    tflops: dict[str, float]  # precision -> TFLOP/s (dense, no sparsity)
    source: str
    note: str = ""


_H100 = "NVIDIA H100 Tensor Core GPU datasheet (https://www.nvidia.com/en-us/data-center/h100/)"
PEAKS: tuple[Peak, ...] = (
    Peak(("h100", "pcie"), "NVIDIA H100 PCIe",
         {"fp32": 51.2, "tf32": 378.0, "bf16": 756.0, "fp16": 756.0},
         _H100 + ": FP32 51, TF32 756*, BF16 1,513* TFLOPS, * with sparsity (dense: half)"),
    Peak(("h100",), "NVIDIA H100 SXM",
         {"fp32": 66.9, "tf32": 494.7, "bf16": 989.4, "fp16": 989.4},
         _H100 + ": FP32 67, TF32 989*, BF16 1,979* TFLOPS, * with sparsity (dense: half)",
         "an H100 whose name does not say PCIe is taken for the SXM part"),
    Peak(("h200",), "NVIDIA H200 SXM",
         {"fp32": 66.9, "tf32": 494.7, "bf16": 989.4, "fp16": 989.4},
         "NVIDIA H200 datasheet (https://www.nvidia.com/en-us/data-center/h200/): FP32 67, "
         "TF32 989*, BF16 1,979* TFLOPS, * with sparsity (dense: half)"),
    Peak(("a100",), "NVIDIA A100",
         {"fp32": 19.5, "tf32": 156.0, "bf16": 312.0, "fp16": 312.0},
         "NVIDIA A100 datasheet (https://www.nvidia.com/en-us/data-center/a100/): FP32 19.5, "
         "TF32 156, BF16 312 TFLOPS dense; nanoGPT's estimate_mfu uses the same 312"),
    Peak(("mi250x",), "AMD Instinct MI250X (one GCD)",
         {"fp32": 47.85, "tf32": 47.85, "bf16": 191.5, "fp16": 191.5},
         "AMD Instinct MI250X specifications (https://www.amd.com/en/products/accelerators/"
         "instinct/mi200/mi250x.html): FP32 matrix 95.7, BF16 383.0 TFLOPS per MI250X = two "
         "GCDs, each a device",
         "no TF32 on CDNA2: tf32 runs are rated at the FP32 matrix peak"),
    Peak(("mi250",), "AMD Instinct MI250 (one GCD)",
         {"fp32": 45.25, "tf32": 45.25, "bf16": 181.05, "fp16": 181.05},
         "AMD ROCm documentation, AMD Instinct MI250 microarchitecture (rocm.docs.amd.com/en/"
         "latest/conceptual/gpu-arch/mi250.html, table mi250-perf-table): Matrix FP32 90.5, "
         "Matrix FP16 and BF16 362.1 TFLOPS per MI250 OAM = two GCDs, each a device",
         "no TF32 on CDNA2: tf32 runs are rated at the FP32 matrix peak; a name that says "
         "MI250X is matched by the MI250X row first"),
    Peak(("v100", "pcie"), "NVIDIA V100 PCIe",
         {"fp32": 14.0, "tf32": 14.0, "fp16": 112.0},
         "NVIDIA Tesla V100 datasheet (images.nvidia.com/content/technologies/volta/pdf/"
         "volta-v100-datasheet-update-us-1165301-r5.pdf): V100 PCIe single precision 14, "
         "tensor 112 TFLOPS - UNCONFIRMED: the datasheet was not readable in this session",
         "Volta has no TF32 (tf32 runs are rated at the FP32 peak) and no bf16 tensor cores "
         "(no bf16 peak)"),
    Peak(("v100",), "NVIDIA V100 SXM2",
         {"fp32": 15.7, "tf32": 15.7, "fp16": 125.0},
         "NVIDIA Tesla V100 datasheet (images.nvidia.com/content/technologies/volta/pdf/"
         "volta-v100-datasheet-update-us-1165301-r5.pdf): V100 SXM2 single precision 15.7, "
         "tensor 125 TFLOPS; the 125 also in NVIDIA's 'Programming Tensor Cores in CUDA 9' "
         "(developer.nvidia.com/programming-tensor-cores-cuda-9-0) - the 15.7: UNCONFIRMED, "
         "the datasheet was not readable in this session",
         "Summit's Tesla V100-SXM2-16GB; Volta has no TF32 (tf32 runs are rated at the FP32 "
         "peak) and no bf16 tensor cores (no bf16 peak)"),
    Peak(("max 1550",), "Intel Data Center GPU Max 1550 (one tile)",
         {"fp32": 26.2, "tf32": 209.7, "bf16": 419.4, "fp16": 419.4},
         "Intel Data Center GPU Max 1550 (ark.intel.com/content/www/us/en/ark/products/232873): "
         "128 Xe cores at 1.6 GHz, 838.9 TFLOPS BF16/FP16, 419.4 TF32, 52.4 FP32 per "
         "2-tile GPU; halved per tile (Aurora exposes each tile as a device) - UNCONFIRMED: "
         "the figures are computed from the core count and clock, not read from Intel's page",
         "ALCF measured BF16 GEMM 256 TFLOP/s per tile at Aurora's 1.5 GHz "
         "(argonne-lcf/user-guides docs/aurora/node-performance-overview)"),
)


def peak_for(device_name: str, device_type: str, precision: str
             ) -> tuple[float | None, str]:
    """(peak FLOP/s of one device at ``precision``, source) or (None, why not)."""
    if device_type == "cpu":
        return None, "no MFU on the CPU: no peak in the table (it depends on the cores a " \
                     "rank gets and their vector units)"
    name = device_name.lower()
    for peak in PEAKS:
        if all(m in name for m in peak.match):
            tflops = peak.tflops.get(precision)
            if tflops is None:
                return None, f"no {precision} peak for {peak.name}"
            note = f"; {peak.note}" if peak.note else ""
            return tflops * 1e12, f"{peak.name} {precision} {tflops:g} TFLOP/s: " \
                                  f"{peak.source}{note}"
    return None, f"no peak in the table for {device_name!r} (runtime/metrics.py PEAKS)"


def mfu(flops_per_sample: float | None, samples_per_sec: float | None, peak: float | None,
        devices: float) -> float | None:
    """Model FLOPs utilisation of ``devices`` devices, or None where a figure is missing."""
    if not flops_per_sample or not samples_per_sec or not peak or devices <= 0:
        return None
    return flops_per_sample * samples_per_sec / (peak * devices)


class LossTrack:
    """Losses by step, as the host sees them at its syncs: the first and last ``window``-step
    means, and a callback at every multiple of ``window`` with that window's mean (plateau).

    All of it is in :meth:`state` for a checkpoint, so a resumed run reports and schedules as
    an uninterrupted one."""

    def __init__(self, window: int,
                 on_window: Callable[[float], None] | None = None) -> None:
        self.window = max(1, window)
        self.on_window = on_window
        self.first: list[float] = []
        self.last: collections.deque[float] = collections.deque(maxlen=self.window)
        self.pending: list[float] = []  # losses of the current, unfinished window

    def add(self, first_step: int, values: list[float]) -> None:
        """Losses of steps ``first_step``, ``first_step + 1``, ... (1-based)."""
        w = self.window
        for k, v in enumerate(values):
            step = first_step + k
            if step <= w:
                self.first.append(v)
            self.last.append(v)
            if self.on_window is not None:
                self.pending.append(v)
                if step % w == 0:
                    mean = sum(self.pending) / len(self.pending)
                    self.pending = []
                    self.on_window(mean)

    @staticmethod
    def _mean(values: Any) -> float | None:
        values = list(values)
        return sum(values) / len(values) if values else None

    def first_mean(self) -> float | None:
        return self._mean(self.first)

    def last_mean(self) -> float | None:
        return self._mean(self.last)

    def state(self) -> dict[str, Any]:
        return {"window": self.window, "first": list(self.first), "last": list(self.last),
                "pending": list(self.pending)}

    def load(self, state: dict[str, Any] | None) -> None:
        if not state or state.get("window") != self.window:
            return
        self.first = list(state["first"])
        self.last = collections.deque(state["last"], maxlen=self.window)
        self.pending = list(state["pending"])


class PlateauRule:
    """ReduceLROnPlateau's rule without a framework (the TensorFlow runtime's plateau; the
    PyTorch runtime uses torch's own): mode "min", relative threshold 1e-4, no cool-down. After
    more than ``patience`` windows without a new best, the rate is multiplied by ``factor``
    (not below ``min_lr``)."""

    def __init__(self, factor: float, patience: int, min_lr: float,
                 threshold: float = 1e-4) -> None:
        self.factor = factor
        self.patience = patience
        self.min_lr = min_lr
        self.threshold = threshold
        self.best = float("inf")
        self.bad = 0

    def step(self, value: float, lr: float) -> float:
        """The rate after a window whose mean loss is ``value``."""
        if value < self.best * (1.0 - self.threshold):
            self.best, self.bad = value, 0
        else:
            self.bad += 1
        if self.bad > self.patience:
            self.bad = 0
            return max(lr * self.factor, self.min_lr)
        return lr

    def state(self) -> dict[str, Any]:
        return {"best": self.best, "bad": self.bad}

    def load(self, state: dict[str, Any] | None) -> None:
        if state:
            self.best, self.bad = float(state["best"]), int(state["bad"])
