"""TensorFlow runtime of the workload apps (cosmictagger, ffn): the same command line, step
loop, checkpoints, signals, NaN guard and JSON line as the PyTorch runtime (workloads/runtime),
with Horovod, MultiWorkerMirroredStrategy or one process for distribution.

Importing this package does not import TensorFlow: :func:`run` first sets the environment
TensorFlow reads when it loads (backend.prepare), then imports it.
"""

from __future__ import annotations

import argparse
from typing import Any


def run(spec: Any, args: argparse.Namespace) -> int:
    from .backend import prepare

    prepare(args.precision)
    from .train import run_training

    rc, _ = run_training(spec, args)
    return rc
