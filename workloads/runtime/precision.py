"""Numeric precision: fp32, tf32, bf16 autocast, fp16 autocast with gradient scaling.

What a request becomes on the CPU (tf32: fp32; fp16: bf16 autocast) is decided in
``numerics.py``, for both frameworks (documented in workloads/README.md).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

import torch

from .device import DeviceInfo
from .numerics import effective_precision


@dataclass
class PrecisionPlan:
    requested: str
    effective: str
    device_type: str
    autocast_dtype: torch.dtype | None
    scaler: torch.amp.GradScaler | None
    notes: list[str] = field(default_factory=list)

    def autocast(self) -> contextlib.AbstractContextManager:
        if self.autocast_dtype is None:
            return contextlib.nullcontext()
        return torch.autocast(self.device_type, dtype=self.autocast_dtype)


def _set_tf32(dev: DeviceInfo, enabled: bool) -> None:
    if dev.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = enabled
        torch.backends.cudnn.allow_tf32 = enabled
        torch.set_float32_matmul_precision("high" if enabled else "highest")
    elif dev.type == "xpu":
        torch.set_float32_matmul_precision("high" if enabled else "highest")
        mkldnn = getattr(torch.backends, "mkldnn", None)
        if mkldnn is not None and hasattr(mkldnn, "allow_tf32"):
            mkldnn.allow_tf32 = enabled
        if dev.ipex:
            import intel_extension_for_pytorch as ipex

            mode = ipex.FP32MathMode.TF32 if enabled else ipex.FP32MathMode.FP32
            ipex.set_fp32_math_mode(mode=mode, device="xpu")


def setup_precision(requested: str, dev: DeviceInfo) -> PrecisionPlan:
    effective, notes = effective_precision(requested, dev.type,
                                           ("fp16 autocast", "bf16 autocast"))
    if dev.type != "cpu":
        _set_tf32(dev, requested == "tf32")
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(effective)
    scaler = torch.amp.GradScaler(dev.type) if effective == "fp16" else None
    return PrecisionPlan(requested, effective, dev.type, dtype, scaler, notes)
