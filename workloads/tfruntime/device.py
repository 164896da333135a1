"""Device selection as TensorFlow sees it after the per-rank wrapper narrowed visibility.

``--device cuda`` is TensorFlow's ``GPU`` (NVIDIA, and AMD in ROCm builds), ``--device xpu`` the
``XPU`` device ITEX registers on Intel GPUs. This rank's device is ``device_index(LOCAL_RANK,
count)`` (runtime/ranks.py) and the only one left visible, so ``/GPU:0`` / ``/XPU:0`` is it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from workloads.runtime.ranks import DistEnv, device_index

KINDS = {"cuda": "GPU", "xpu": "XPU"}


@dataclass(frozen=True)
class TFDevice:
    type: str  # "cuda" | "xpu" | "cpu" (the --device names)
    logical: str  # "GPU:0" | "XPU:0" | "CPU:0"
    name: str  # human-readable device name
    stack: str  # "cuda" | "rocm" | "xpu" | "cpu"


def select_device(tf: Any, requested: str, local_rank: int) -> TFDevice:
    """Pick this rank's device and hide the others; call before TensorFlow initialises."""
    requested = requested.lower()
    if requested == "auto":
        found = [t for t, kind in KINDS.items() if tf.config.list_physical_devices(kind)]
        requested = found[0] if found else "cpu"
    if requested == "cpu":
        for kind in KINDS.values():
            if tf.config.list_physical_devices(kind):
                tf.config.set_visible_devices([], kind)
        return TFDevice("cpu", "CPU:0", "cpu", "cpu")
    if requested not in KINDS:
        raise ValueError(f"unknown device {requested!r}")
    kind = KINDS[requested]
    devices = tf.config.list_physical_devices(kind)
    if not devices:
        raise RuntimeError(f"--device {requested} requested but TensorFlow sees no {kind} "
                           "device (for xpu: is intel_extension_for_tensorflow installed?)")
    dev = devices[device_index(local_rank, len(devices))]
    tf.config.set_visible_devices([dev], kind)
    if kind == "GPU":
        tf.config.experimental.set_memory_growth(dev, True)
    details = tf.config.experimental.get_device_details(dev)
    stack = "xpu" if kind == "XPU" else ("rocm" if tf.test.is_built_with_rocm() else "cuda")
    return TFDevice(requested, f"{kind}:0", str(details.get("device_name", dev.name)), stack)


def configure_threads(tf: Any, denv: DistEnv) -> None:
    """CPU threads per rank: OMP_NUM_THREADS when set, else the rank's share of its CPUs when
    several ranks share a node (as the PyTorch runtime does)."""
    threads = os.environ.get("OMP_NUM_THREADS")
    if threads and threads.isdigit():
        n = int(threads)
    elif denv.local_world_size > 1:
        ncpu = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        n = max(1, (ncpu or 1) // denv.local_world_size)
    else:
        return
    tf.config.threading.set_intra_op_parallelism_threads(n)
    tf.config.threading.set_inter_op_parallelism_threads(min(n, 2))


def synchronize(tf: Any, dev: TFDevice) -> None:
    """Wait for this rank's device: fetch the value of an op queued behind the work already on
    its stream (``tf.test.experimental.sync_devices`` also waits for the remote workers of a
    MultiWorkerMirroredStrategy and fails there). The CPU runs synchronously."""
    if dev.type != "cpu":
        with tf.device(dev.logical):
            tf.reduce_sum(tf.zeros((1,))).numpy()


def peak_memory_mb(tf: Any, dev: TFDevice) -> float | None:
    """Peak device memory in MiB, None on the CPU or where TensorFlow does not report it."""
    if dev.type == "cpu":
        return None
    try:
        return tf.config.experimental.get_memory_info(dev.logical)["peak"] / 2**20
    except (ValueError, KeyError, RuntimeError):
        return None
