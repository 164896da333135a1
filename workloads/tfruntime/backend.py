"""Loading TensorFlow, its Keras 2 API and, on Intel GPUs, ITEX.

Keras 3 (the default `tf.keras` from TensorFlow 2.16) breaks MultiWorkerMirroredStrategy and
Horovod's Keras integration, so the runtime uses the Keras 2 API: the `tf_keras` package with
``TF_USE_LEGACY_KERAS=1`` (install it with ``pip install --no-deps tf-keras``; without
``--no-deps`` it pulls the GPU `tensorflow` wheel), or `tf.keras` itself up to TensorFlow 2.15.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from dataclasses import dataclass
from typing import Any


def prepare(precision: str) -> None:
    """Environment TensorFlow and ITEX read when they load (the user's settings win)."""
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    if precision == "tf32":
        # ITEX's switch for TF32 math on Intel GPUs (jobgen's Aurora scripts export it too)
        os.environ.setdefault("ITEX_FP32_MATH_MODE", "TF32")


@dataclass(frozen=True)
class Backend:
    tf: Any
    keras: Any
    itex: bool  # intel_extension_for_tensorflow was imported


@functools.cache
def load() -> Backend:
    import tensorflow as tf

    itex = importlib.util.find_spec("intel_extension_for_tensorflow") is not None
    if itex:
        import intel_extension_for_tensorflow  # noqa: F401  (registers the XPU device)
    if importlib.util.find_spec("tf_keras") is not None:
        import tf_keras as keras
    else:
        keras = tf.keras
        if not str(getattr(keras, "__version__", "2")).startswith("2"):
            raise RuntimeError(
                f"TensorFlow {tf.__version__} comes with Keras 3, which breaks "
                "MultiWorkerMirroredStrategy: pip install --no-deps tf-keras"
            )
    return Backend(tf, keras, itex)
