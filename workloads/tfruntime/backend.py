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
import sys
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
        no_keras2 = RuntimeError(
            f"TensorFlow {tf.__version__} comes with Keras 3, which breaks "
            "MultiWorkerMirroredStrategy, and tf-keras (Keras 2) is not installed: "
            f"{os.path.basename(sys.executable)} -m pip install --no-deps "
            f"'tf-keras~={'.'.join(tf.__version__.split('.')[:2])}.0'")
        if _major_minor(tf.__version__) >= "2.16":  # tf.keras is Keras 3 from 2.16 on
            raise no_keras2
        keras = tf.keras
        if not str(getattr(keras, "__version__", "2")).startswith("2"):
            raise no_keras2
    return Backend(tf, keras, itex)


def _major_minor(version: str) -> str:
    """"2.21.0" -> "2.21", zero-padded for comparison as text ("2.9" -> "2.09")."""
    major, minor = (version.split(".") + ["0"])[:2]
    return f"{major}.{int(''.join(c for c in minor if c.isdigit()) or 0):02d}"
