"""Device selection: CUDA (also ROCm builds), Intel XPU, CPU."""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from typing import Any

import torch

from .ranks import device_index  # torch-free, shared with the TensorFlow runtime


@dataclass(frozen=True)
class DeviceInfo:
    device: torch.device
    type: str  # "cuda" | "xpu" | "cpu"
    name: str  # human-readable device name
    stack: str  # "cuda" | "rocm" | "xpu" | "cpu"
    ipex: bool  # intel_extension_for_pytorch was imported


def _xpu_native_available() -> bool:
    xpu = getattr(torch, "xpu", None)
    try:
        return bool(xpu is not None and xpu.is_available())
    except Exception:  # pragma: no cover - broken driver stacks
        return False


def maybe_import_ipex(want: bool | None) -> bool:
    """Import intel_extension_for_pytorch only when installed and wanted.

    ``want`` None means automatic: import it only if native ``torch.xpu`` is not available
    (older stacks needed IPEX to register the device). ``WORKLOADS_IPEX=0/1`` overrides.
    """
    env = os.environ.get("WORKLOADS_IPEX")
    if want is None and env is not None:
        want = env.strip().lower() not in ("0", "false", "no", "")
    if want is False:
        return False
    if importlib.util.find_spec("intel_extension_for_pytorch") is None:
        if want:
            raise RuntimeError("--ipex requested but intel_extension_for_pytorch is not installed")
        return False
    if want is None and _xpu_native_available():
        return False
    import intel_extension_for_pytorch  # noqa: F401

    return True


def select_device(requested: str, local_rank: int, ipex: bool | None = None) -> DeviceInfo:
    """Pick the device for this rank (see :func:`device_index`)."""
    requested = requested.lower()
    if requested not in ("auto", "cpu", "cuda", "xpu"):
        raise ValueError(f"unknown device {requested!r}")
    used_ipex = False
    if requested in ("xpu", "auto"):
        used_ipex = maybe_import_ipex(ipex)
    if requested == "auto":
        if torch.cuda.is_available():
            requested = "cuda"
        elif _xpu_native_available():
            requested = "xpu"
        else:
            requested = "cpu"
    if requested == "cuda":
        if not torch.cuda.is_available():
            raise RuntimeError("--device cuda requested but torch.cuda.is_available() is False")
        idx = device_index(local_rank, torch.cuda.device_count())
        torch.cuda.set_device(idx)
        stack = "rocm" if getattr(torch.version, "hip", None) else "cuda"
        return DeviceInfo(torch.device("cuda", idx), "cuda", torch.cuda.get_device_name(idx),
                          stack, used_ipex)
    if requested == "xpu":
        if not _xpu_native_available():
            raise RuntimeError("--device xpu requested but torch.xpu.is_available() is False")
        idx = device_index(local_rank, torch.xpu.device_count())
        torch.xpu.set_device(idx)
        return DeviceInfo(torch.device("xpu", idx), "xpu", torch.xpu.get_device_name(idx),
                          "xpu", used_ipex)
    return DeviceInfo(torch.device("cpu"), "cpu", "cpu", "cpu", used_ipex)


def device_api(dev: DeviceInfo) -> Any:
    """torch.cuda or torch.xpu for an accelerator, None for the CPU (or an XPU torch lacks)."""
    return {"cuda": torch.cuda, "xpu": getattr(torch, "xpu", None)}.get(dev.type)


def synchronize(dev: DeviceInfo) -> None:
    if dev.type == "cuda":
        torch.cuda.synchronize(dev.device)
    elif dev.type == "xpu":
        torch.xpu.synchronize(dev.device)


def reset_peak_memory(dev: DeviceInfo) -> None:
    if dev.type == "cuda":
        torch.cuda.reset_peak_memory_stats(dev.device)
    elif dev.type == "xpu" and hasattr(torch.xpu, "reset_peak_memory_stats"):
        torch.xpu.reset_peak_memory_stats(dev.device)


def peak_memory_mb(dev: DeviceInfo) -> float | None:
    """Peak allocated device memory in MiB, None where unknown (CPU)."""
    if dev.type == "cuda":
        return torch.cuda.max_memory_allocated(dev.device) / 2**20
    if dev.type == "xpu" and hasattr(torch.xpu, "max_memory_allocated"):
        return torch.xpu.max_memory_allocated(dev.device) / 2**20
    return None
