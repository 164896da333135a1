"""The precision a run gets on its device, the same for both frameworks (imports neither).

* ``tf32`` on the CPU is a no-op: the run is plain fp32 and the JSON says so.
* ``fp16`` on the CPU falls back to ``bf16`` (CPU fp16 kernels are slow or missing); the
  JSON reports ``precision: bf16, precision_requested: fp16``.
"""

from __future__ import annotations

PRECISIONS = ("fp32", "tf32", "bf16", "fp16")


def effective_precision(requested: str, device_type: str,
                        half: tuple[str, str]) -> tuple[str, list[str]]:
    """(the precision the run uses, notes for the log and the JSON); ``half`` names the
    framework's fp16 and bf16 modes, for the note."""
    if requested not in PRECISIONS:
        raise ValueError(f"unknown precision {requested!r}; choose from {PRECISIONS}")
    if device_type == "cpu" and requested == "tf32":
        return "fp32", ["tf32 has no effect on the CPU: ran in fp32"]
    if device_type == "cpu" and requested == "fp16":
        return "bf16", [f"{half[0]} is not used on the CPU: fell back to {half[1]}"]
    return requested, []
