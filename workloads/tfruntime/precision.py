"""Numeric precision in TensorFlow: fp32, tf32, bf16 (``mixed_bfloat16``), fp16 (``mixed_float16``
with a LossScaleOptimizer). What a request becomes on the CPU is the PyTorch runtime's rule
(runtime/numerics.py): ``tf32`` runs fp32 and ``fp16`` falls back to bf16, both in the JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from workloads.runtime.numerics import effective_precision

from .device import TFDevice

_POLICY = {"bf16": "mixed_bfloat16", "fp16": "mixed_float16"}


@dataclass
class TFPrecision:
    requested: str
    effective: str
    policy: str  # the Keras mixed-precision policy
    loss_scale: bool  # wrap the optimizer in a LossScaleOptimizer
    notes: list[str] = field(default_factory=list)


def setup_precision(tf: Any, keras: Any, requested: str, dev: TFDevice) -> TFPrecision:
    """Set TF32 and the global Keras policy; call before building the model. ``requested`` is
    one of the command line's choices (fp32, tf32, bf16, fp16)."""
    effective, notes = effective_precision(requested, dev.type,
                                           ("mixed_float16", "mixed_bfloat16"))
    # TensorFlow enables TF32 on Ampere and later by default: fp32 must turn it off. On Intel
    # GPUs ITEX reads ITEX_FP32_MATH_MODE instead (backend.prepare).
    tf.config.experimental.enable_tensor_float_32_execution(requested == "tf32")
    policy = _POLICY.get(effective, "float32")
    keras.mixed_precision.set_global_policy(policy)
    return TFPrecision(requested, effective, policy, effective == "fp16", notes)
