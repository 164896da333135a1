"""Common command line of every app: ``python -m workloads.<app> [--framework F] [options]``.

One parser for both frameworks: the options mean the same in each, and the few that belong to
one framework only (``--ipex``; ``--xla``, ``--scale-lr``) are added for it. Importing this
module imports no framework.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any

from .loop import EXIT_NONFINITE

EXIT_OK = 0
EXIT_ERROR = 1
__all__ = ["EXIT_ERROR", "EXIT_NONFINITE", "EXIT_OK", "build_parser", "main"]
# After a signal: checkpoint written (when --checkpoint-dir is set), exit 128 + signal number
# (SIGTERM 143, SIGUSR1 138, SIGUSR2 140), the shell convention for "ended by that signal".


def build_parser(spec: Any) -> argparse.ArgumentParser:
    """The command line of ``spec`` (a PyTorch ``AppSpec`` or a TensorFlow ``TFAppSpec``)."""
    tf = spec.framework == "tensorflow"
    p = argparse.ArgumentParser(
        prog=f"python -m workloads.{spec.name}",
        description=f"{spec.name} training workload, {spec.framework} (prints one JSON result "
                    "line on stdout)",
    )
    g = p.add_argument_group("run")
    g.add_argument("--framework", choices=(spec.framework,), default=spec.framework,
                   help="pytorch (default) or tensorflow, for the apps with a TensorFlow "
                        "version (workloads/README.md)")
    g.add_argument("--steps", type=int, default=100,
                   help="total optimizer steps (including warm-up); default 100")
    g.add_argument("--warmup", type=int, default=10,
                   help="first steps excluded from timing; default 10")
    g.add_argument("--batch-size", type=int, default=None,
                   help=f"per-rank batch size (default {spec.default_batch_size}, "
                        f"--tiny {spec.tiny_batch_size})")
    g.add_argument("--precision", choices=("fp32", "tf32", "bf16", "fp16"), default="fp32")
    g.add_argument("--device", choices=("auto", "cpu", "cuda", "xpu"), default="auto")
    g.add_argument("--tiny", action="store_true", help="tiny model and batch (CPU tests)")
    g.add_argument("--channels-last", action="store_true",
                   help="no effect: the TensorFlow models are channels-last (NHWC / NDHWC)"
                   if tf else "channels-last memory format (2D / 3D conv apps)")
    g.add_argument("--compile", *(["--xla"] if tf else []), action="store_true",
                   help="XLA-compile the forward and backward pass (jit_compile=True)"
                   if tf else "torch.compile the model")
    g.add_argument("--mode", choices=("train", "data", "compute"), default="train",
                   help="train: input pipeline + compute; data: input pipeline alone; "
                        "compute: compute alone on one synthetic batch")
    g.add_argument("--lr", type=float, default=None, help=f"learning rate (default {spec.lr})")
    if tf:
        g.add_argument("--scale-lr", action="store_true",
                       help="multiply the learning rate by the number of workers (Horovod's "
                            "advice for a global batch that grows with them)")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--sync-every", type=int, default=20,
                   help="steps between host syncs (loss check, log line, signal agreement)")
    d = p.add_argument_group("data")
    d.add_argument("--data", default="synthetic",
                   help="'synthetic' (generated on the device) or a dataset path")
    d.add_argument("--workers", type=int, default=2, help="DataLoader workers per rank")
    d.add_argument("--make-data", metavar="PATH", default=None,
                   help="write a synthetic dataset to PATH and exit")
    d.add_argument("--samples", type=int, default=1024, help="samples for --make-data")
    d.add_argument("--shard-size", type=int, default=1024, help="samples per shard")
    c = p.add_argument_group("checkpoint")
    c.add_argument("--checkpoint-dir", default=None)
    c.add_argument("--checkpoint-every", type=int, default=0,
                   help="save every N steps (0: only at the end and on signals)")
    c.add_argument("--keep-checkpoints", type=int, default=2)
    c.add_argument("--no-resume", action="store_true",
                   help="ignore existing checkpoints in --checkpoint-dir")
    x = p.add_argument_group("distributed / platform")
    if tf:
        x.add_argument("--dist-backend", choices=("auto", "horovod", "multiworker"),
                       default="auto", help="auto: Horovod when importable and launched by MPI "
                       "or horovodrun, else MultiWorkerMirroredStrategy")
    else:
        x.add_argument("--dist-backend", default=None, help="override nccl / xccl / ccl / gloo")
    x.add_argument("--dist-timeout", type=float, default=300.0,
                   help="collective timeout in seconds (a dead rank fails the others)")
    if not tf:
        x.add_argument("--ipex", action=argparse.BooleanOptionalAction, default=None,
                       help="import intel_extension_for_pytorch (default: only if torch.xpu "
                            "is not natively available)")
    dbg = p.add_argument_group("debugging")
    dbg.add_argument("--inject-nan-at-step", type=int, default=None,
                     help="make the loss NaN at this (1-based) step")
    dbg.add_argument("--debug-fail-at-step", type=int, default=None,
                     help="raise an exception at this step (see --debug-fail-rank)")
    dbg.add_argument("--debug-fail-rank", type=int, default=0)
    dbg.add_argument("--debug-step-sleep", type=float, default=0.0, help=argparse.SUPPRESS)
    return p


def _report_fatal(exc: BaseException) -> None:
    rank = os.environ.get("RANK", "0")
    print(f"[workloads rank {rank}] FATAL {type(exc).__name__}: {exc}", file=sys.stderr)
    traceback.print_exc(file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()


def main(spec: Any, argv: Sequence[str] | None = None) -> None:
    parser = build_parser(spec)
    args = parser.parse_args(argv)
    if spec.framework == "tensorflow":
        if args.make_data or args.data != "synthetic":
            parser.error("the TensorFlow version trains on --data synthetic only (datasets on "
                         "disk: the PyTorch version)")
        from workloads.tfruntime import run
    else:
        from .train import run
    if args.make_data:
        from .data import make_dataset

        size = "tiny" if args.tiny else "default"
        cfg = dict(spec.sizes[size])
        out = make_dataset(spec, size, cfg, args.make_data, args.samples, args.shard_size,
                           args.seed)
        print(f"[workloads] wrote {args.samples} {spec.name} samples ({size}) to {out}",
              file=sys.stderr)
        sys.exit(EXIT_OK)
    try:
        rc = run(spec, args)
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - a failing rank must end the job
        _report_fatal(exc)
        # No destroy_process_group here: peers may be stuck in a collective. Exit now; the
        # launcher tears the job down and the peers' collective timeout covers the rest.
        os._exit(EXIT_ERROR)
    sys.stdout.flush()
    sys.stderr.flush()
    # Everything is written (checkpoints fsynced, the JSON line flushed) and the process group
    # is destroyed. Leave without interpreter teardown: C++ static destructors of the
    # collective backends' threads have crashed a clean exit under MPICH ("terminate called
    # without an active exception") while the job had already succeeded.
    os._exit(rc)
