"""Common command line of every app: ``python -m workloads.<app> [--framework F] [options]``.

One parser for both frameworks: the options mean the same in each, and the few that belong to
one framework only (``--ipex``, ``--optimizer-impl``, ``--batch-size auto``; ``--xla``,
``--scale-lr``) are added for it. Torch-free on purpose: jobgen checks ``--app-args`` against
this parser at render time (:func:`check_args`) without importing a framework, and ``--check``
reports whether the app and its framework import before a job launches its ranks.
"""

from __future__ import annotations

import argparse
import os
import sys

from .exits import EXIT_ERROR, EXIT_INPUT, EXIT_NONFINITE, EXIT_OK
from .numerics import PRECISIONS

TYPE_CHECKING = False  # jobgen parses --app-args with this module while rendering: keep it light
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, Protocol

    class Described(Protocol):
        """What the parser shows of an app: its name, framework, default sizes and named
        configurations (an AppSpec or a TFAppSpec has them)."""

        name: str
        framework: str
        default_batch_size: int
        tiny_batch_size: int
        lr: float
        sizes: dict[str, Any]

__all__ = ["EXIT_ERROR", "EXIT_NONFINITE", "EXIT_OK", "build_parser", "check_args", "main"]
# After a signal: checkpoint written (when --checkpoint-dir is set), exit 128 + signal number
# (SIGTERM 143, SIGUSR1 138, SIGUSR2 140), the shell convention for "ended by that signal".

#: Optimizer implementations of ``--optimizer-impl`` (the ``foreach`` / ``fused`` switches).
OPTIMIZER_IMPLS = ("auto", "foreach", "fused", "for-loop")
FRAMEWORKS = ("pytorch", "tensorflow")
MODES = ("train", "data", "compute", "trials")


def batch_size_arg(text: str) -> int | str:
    """``--batch-size``: a positive integer, or ``auto`` (sized from the device's memory)."""
    if text == "auto":
        return text
    return positive_int(text, "batch size")


def positive_int(text: str, what: str = "whole number") -> int:
    """An option's positive integer; argparse's message names the option and ``what``."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive {what}")
    return value


def _seconds(text: str) -> float:
    """``--stop-lead``: seconds, 0 to one day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"{value:g} is not 0 to 86400 seconds")
    return value


def _samples(text: str) -> int:
    from .safeio import MAX_SAMPLES

    if len(text) > 12:
        raise argparse.ArgumentTypeError(f"{text[:20]!r}...: at most {MAX_SAMPLES} samples")
    value = positive_int(text, "number of samples")
    if value > MAX_SAMPLES:
        raise argparse.ArgumentTypeError(f"{value}: at most {MAX_SAMPLES} samples")
    return value


class _OneLineParser(argparse.ArgumentParser):
    """A refused option is one line (the value cut to a readable length), exit 2: no usage
    block of 30 lines in a job's log; --help has it."""

    def error(self, message: str):  # type: ignore[override]
        text = " ".join(message.split())
        if len(text) > 400:
            text = text[:400] + "..."
        self.exit(2, f"{self.prog}: error: {text} (--help lists the options)\n")


def build_parser(spec: Described) -> argparse.ArgumentParser:
    """The command line of ``spec`` (a PyTorch ``AppSpec`` or a TensorFlow ``TFAppSpec``)."""
    p = _OneLineParser(
        prog=f"python -m workloads.{spec.name}",
        description=f"{spec.name} training workload, {spec.framework} (prints one JSON result "
                    "line on stdout)",
    )
    _add_options(p, spec)
    return p


def _add_options(p: argparse.ArgumentParser, spec: Described) -> None:
    tf = spec.framework == "tensorflow"
    g = p.add_argument_group("run")
    g.add_argument("--framework", choices=(spec.framework,), default=spec.framework,
                   help="pytorch (default) or tensorflow, for the apps with a TensorFlow "
                        "version (workloads/README.md)")
    g.add_argument("--steps", type=int, default=100,
                   help="total optimizer steps (including warm-up); default 100")
    g.add_argument("--warmup", type=int, default=10,
                   help="first steps excluded from timing; default 10")
    if tf:
        g.add_argument("--batch-size", type=positive_int, default=None,
                       help=f"per-rank batch size (default {spec.default_batch_size}, "
                            f"--tiny {spec.tiny_batch_size})")
    else:
        g.add_argument("--batch-size", type=batch_size_arg, default=None,
                       help=f"per-rank batch size (default {spec.default_batch_size}, "
                            f"--tiny {spec.tiny_batch_size}); 'auto': the largest that fits "
                            "in the device's memory with headroom (the default on the CPU)")
    g.add_argument("--precision", choices=PRECISIONS, default="fp32" if tf else None,
                   help="default fp32" if tf else "default: the app's on this device (gpt: "
                        "nanoGPT's, bf16 on a GPU that has it), else fp32")
    g.add_argument("--device", choices=("auto", "cpu", "cuda", "xpu"), default="auto")
    g.add_argument("--tiny", action="store_true",
                   help="tiny model and batch (CPU tests): the same as --config tiny")
    configs = list(spec.sizes) if spec.sizes else None
    g.add_argument("--config", choices=configs, default=None, metavar="NAME",
                   help="named configuration: " + (", ".join(configs) if configs else "the "
                        "app's") + " (default: default, the original's own; the others are "
                        "the presets the study and the tutorials ran)")
    g.add_argument("--channels-last", action=argparse.BooleanOptionalAction, default=False,
                   help="no effect: the TensorFlow models are channels-last (NHWC / NDHWC)"
                   if tf else "channels-last memory format (2D / 3D conv apps)")
    g.add_argument("--compile", *(["--xla"] if tf else []),
                   action=argparse.BooleanOptionalAction, default=False if tf else None,
                   help="XLA-compile the forward and backward pass (jit_compile=True)"
                   if tf else "torch.compile the model (default: the app's on this device; "
                   "gpt: nanoGPT's compile=True on GPUs; else off)")
    if not tf:
        g.add_argument("--optimizer-impl", choices=OPTIMIZER_IMPLS, default=None,
                       help="optimizer implementation (Adam, AdamW, SGD): auto (PyTorch's "
                            "choice: foreach on GPUs), foreach, fused, for-loop (default: "
                            "the app's on this device, gpt: nanoGPT's fused AdamW on CUDA; "
                            "else auto)")
    g.add_argument("--mode", choices=MODES, default="train",
                   help="train: input pipeline + compute; data: input pipeline alone; "
                        "compute: compute alone on one synthetic batch; trials: all three "
                        "in one run (IO-only, synthetic-only, full), as SC22's benchy")
    g.add_argument("--trials", dest="mode", action="store_const", const="trials",
                   help="the same as --mode trials")
    if not tf:
        g.add_argument("--grad-accum", type=positive_int, default=None, metavar="N",
                       help="micro-batches per optimizer step over all ranks, divided by the "
                            "world size (nanoGPT's gradient_accumulation_steps); default: the "
                            "configuration's (gpt: 40, tiny 2; other apps 1)")
    g.add_argument("--lr", type=float, default=None,
                   help="base learning rate, used as given (default: the app's recipe, "
                        "scaled to the global batch where the recipe says so)")
    g.add_argument("--loss-window", type=positive_int, default=10, metavar="N",
                   help="steps per windowed loss: the JSON's first/final window means and the "
                        "plateau schedule's metric (default 10)")
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
    if not tf:
        d.add_argument("--pin-memory", action=argparse.BooleanOptionalAction, default=None,
                       help="page-locked host buffers for on-disk data (default: on CUDA only)")
    d.add_argument("--make-data", metavar="PATH", default=None,
                   help="write a small dataset to PATH in the original's format (the generic "
                        ".npy shards for an app without one) and exit")
    d.add_argument("--samples", type=_samples, default=1024,
                   help="samples for --make-data (1 to 2**31-1; more than 256 are estimated "
                        "and checked against the free space first)")
    d.add_argument("--shard-size", type=int, default=1024, help="samples per shard")
    if not tf:
        from .profiling import add_options

        add_options(p)
    c = p.add_argument_group("checkpoint")
    c.add_argument("--checkpoint-dir", default=None)
    c.add_argument("--checkpoint-every", type=int, default=0,
                   help="save every N steps (0: only at the end and on signals)")
    c.add_argument("--keep-checkpoints", type=int, default=2)
    c.add_argument("--no-resume", action="store_true",
                   help="ignore existing checkpoints in --checkpoint-dir")
    c.add_argument("--stop-lead", type=_seconds, default=None, metavar="SECONDS",
                   help="with --checkpoint-dir and a job deadline (JOBGEN_DEADLINE, set by "
                        "jobgen's scripts): stop after a checkpoint when the next would end "
                        "later than max(2 x the slowest checkpoint, SECONDS) + 30 s before "
                        "the deadline (default 30; docs/walltime.md)")
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
    x.add_argument("--check", action="store_true",
                   help="check that the app, its framework and these arguments load, print "
                        "one line and exit (job scripts run it once before the launch)")
    x.add_argument("--describe", action="store_true",
                   help="print one JSON line (parameters, training FLOPs per sample, shapes, "
                        "recipe, unit, source) for --config and exit without training")
    _add_app_options(p, spec.name, spec.framework)
    dbg = p.add_argument_group("debugging")
    dbg.add_argument("--inject-nan-at-step", type=int, default=None,
                     help="make the loss NaN at this (1-based) step")
    dbg.add_argument("--debug-fail-at-step", type=int, default=None,
                     help="raise an exception at this step (see --debug-fail-rank)")
    dbg.add_argument("--debug-fail-rank", type=int, default=0)
    dbg.add_argument("--debug-step-sleep", type=float, default=0.0, help=argparse.SUPPRESS)


def manifest_options(app: str) -> dict[str, dict[str, Any]]:
    """The app's own options, ``options:`` in ``workloads/<app>/manifest.yaml`` (the original's
    training flags that are not a configuration: ffn's ``--fov-policy``): option name ->
    ``{type: int|str, choices, default, help, frameworks}``; {} when there are none or the
    manifest cannot be read (an app outside the package)."""
    try:
        from workloads import load_manifest

        options = load_manifest(app).get("options") or {}
    except Exception:  # noqa: BLE001 - PyYAML's errors and unknown apps alike: no options
        return {}
    return {str(k): dict(v) for k, v in options.items()}


def _not_in(app: str, framework: str, where: Any) -> Any:
    def refuse(text: str) -> str:
        raise argparse.ArgumentTypeError(
            f"the {framework} version of {app} does not have it ({where}); use --framework "
            "pytorch")
    return refuse


def _add_app_options(p: argparse.ArgumentParser, app: str, framework: str) -> None:
    """The manifest's ``options:`` as ``--NAME``; the value lands in the configuration
    (:func:`workloads.runtime.contract.with_options`) under NAME with ``_`` for ``-``. A
    framework the option does not list refuses it with the manifest's ``missing`` reason."""
    options = manifest_options(app)
    if not options:
        return
    g = p.add_argument_group(f"{app} options")
    dests = []
    for name, o in options.items():
        dest = name.replace("-", "_")
        dests.append((dest, o.get("default")))
        kind: Any = positive_int if o.get("type") == "int" else str
        if framework not in o.get("frameworks", FRAMEWORKS):
            kind = _not_in(app, framework, o.get("missing", "not implemented"))
        g.add_argument(f"--{name}", dest=dest, type=kind, default=None,
                       choices=None if kind is not str else o.get("choices"),
                       help=f"{o.get('help', '')} (default {o.get('default')})")
    p.set_defaults(app_options=tuple(dests))


class _Refused(Exception):
    """argparse wanted to print and exit; :func:`check_args` turns that into a message."""


class _CheckingParser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        raise _Refused(message)

    def exit(self, status: int = 0, message: str | None = None):  # type: ignore[override]
        raise _Refused("--help and --version print and exit: they do not start a run")

    def print_help(self, file=None) -> None:  # noqa: ARG002 - nothing is printed while checking
        pass


class _Names:
    """Stand-in for an app spec where only the option names matter (help text is not shown)."""

    def __init__(self, name: str, framework: str, configs: Sequence[str] | None) -> None:
        self.name = name
        self.framework = framework
        self.default_batch_size = self.tiny_batch_size = 0
        self.lr = 0.0
        self.sizes = dict.fromkeys(configs) if configs else {}


def manifest_configs(app: str) -> list[str] | None:
    """The configuration names in ``workloads/<app>/manifest.yaml`` (``sizes:``), read
    without a framework; None when the manifest cannot be read."""
    try:
        from workloads import load_manifest

        sizes = load_manifest(app).get("sizes") or {}
    except Exception:  # noqa: BLE001 - PyYAML's errors too: the parser then takes any name
        return None
    return [str(k) for k in sizes] or None


def check_args(app: str, argv: Sequence[str], framework: str = "pytorch",
               configs: Sequence[str] | None = None
               ) -> tuple[argparse.Namespace | None, str | None]:
    """Parse an app's arguments for one framework's version without running anything:
    (namespace, None) or (None, error). Imports no framework, so jobgen calls it while
    rendering. ``configs``: the app's configuration names for ``--config`` (None: read from
    its manifest)."""
    if framework not in FRAMEWORKS:
        return None, f"no {framework} version (use one of {', '.join(FRAMEWORKS)})"
    if configs is None:
        configs = manifest_configs(app)
    parser = _CheckingParser(prog=f"python -m workloads.{app}", add_help=True)
    _add_options(parser, _Names(app, framework, configs))
    try:
        ns = parser.parse_args(list(argv))
    except _Refused as exc:
        return None, str(exc)
    error = _conflict(ns)
    return (None, error) if error else (ns, None)


def _conflict(args: argparse.Namespace) -> str | None:
    """Options that parse alone but not together."""
    if args.tiny and args.config not in (None, "tiny"):
        return f"--tiny means --config tiny; it conflicts with --config {args.config}"
    return None


def resolve(args: argparse.Namespace) -> argparse.Namespace:
    """``--tiny`` and ``--config`` as one: ``args.config`` is the name, ``args.tiny`` whether
    it is "tiny"."""
    from .contract import config_name

    args.config = config_name(args.tiny, args.config)
    args.tiny = args.config == "tiny"
    return args


def _input_error(exc: BaseException) -> bool:
    """A file the run was handed is refused (runtime/safeio.py InputError, also when a
    DataLoader worker raised it): print its one line, no traceback; True when it was one."""
    from .safeio import InputError

    if not isinstance(exc, InputError):
        return False
    # a DataLoader worker's exception comes back with the worker's traceback in its text
    # ("Caught InputError in DataLoader worker process 0. Original Traceback ..."): the text
    # after its last "InputError: " is the error's own
    text = str(exc)
    if "Original Traceback" in text:
        text = text.rsplit("InputError: ", 1)[-1]
    rank = os.environ.get("RANK", "0")
    print(f"[workloads rank {rank}] error: {' '.join(text.split())}", file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()
    return True


def _report_fatal(exc: BaseException) -> None:
    import traceback  # only when a run fails: jobgen imports this module while rendering

    rank = os.environ.get("RANK", "0")
    print(f"[workloads rank {rank}] FATAL {type(exc).__name__}: {exc}", file=sys.stderr)
    traceback.print_exc(file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()


def _ready(spec: Any, args: argparse.Namespace) -> None:
    """``--check``: everything a run imports is importable, and ``--data`` opens with the
    app's own reader and fits the configuration (:func:`data.check_data`); say with what, and
    leave. One line on stderr and exit 1 when not (the script's preflight shows that line)."""
    data = ""
    if spec.framework == "tensorflow":
        if args.data != "synthetic":
            print(f"[workloads] {spec.name} cannot start: the TensorFlow version trains on "
                  "--data synthetic only (datasets on disk: the PyTorch version)",
                  file=sys.stderr, flush=True)
            sys.exit(EXIT_ERROR)
        from workloads import tfruntime  # noqa: F401 - the rest of the TensorFlow runtime
        from workloads.tfruntime.backend import load, prepare

        prepare(args.precision)
        try:
            framework = load().tf  # TensorFlow, its Keras 2 API (tf-keras) and ITEX
            if args.dist_backend == "horovod":
                import horovod.tensorflow  # noqa: F401
        except (ImportError, RuntimeError) as exc:
            print(f"[workloads] {spec.name} cannot start: {type(exc).__name__}: {exc}",
                  file=sys.stderr, flush=True)
            sys.exit(EXIT_ERROR)
    else:
        import torch as framework

        from . import train  # noqa: F401 - numpy and the rest of the runtime
        if args.data != "synthetic":
            from .contract import with_options
            from .data import check_data

            try:
                data = "; --data " + check_data(spec, args.data,
                                                with_options(spec.sizes[args.config], args))
            except (OSError, ValueError, RuntimeError, KeyError, IndexError) as exc:
                text = " ".join(str(exc).split())
                print(f"[workloads] {spec.name} cannot read --data {args.data} ({args.config}):"
                      f" {type(exc).__name__}: {text}", file=sys.stderr, flush=True)
                sys.exit(EXIT_ERROR)
    print(f"[workloads] {spec.name} ready: {spec.framework} {framework.__version__}, Python "
          f"{sys.version.split()[0]} ({sys.executable}){data}", file=sys.stderr, flush=True)
    sys.exit(EXIT_OK)


def _describe(spec: Any, args: argparse.Namespace) -> None:
    """``--describe``: one JSON line about the configuration, no training."""
    import json

    if spec.framework == "tensorflow":
        from workloads.tfruntime.describe import describe
    else:
        from .describe import describe
    sys.stdout.write(json.dumps(describe(spec, args.config, args)) + "\n")
    sys.stdout.flush()
    sys.exit(EXIT_OK)


#: --make-data estimates its size from two small writes when it writes more samples than this
ESTIMATE_ABOVE = 256


def _tree_size(path: str) -> tuple[int, int]:
    """(bytes, files) under ``path``."""
    size = files = 0
    for root, _, names in os.walk(path):
        for n in names:
            try:
                size += os.lstat(os.path.join(root, n)).st_size
                files += 1
            except OSError:
                pass
    return size, files


def _estimate(spec: Any, name: str, cfg: dict[str, Any], out: str, samples: int,
              shard: int, seed: int) -> tuple[int, int]:
    """(bytes, files) ``samples`` will take: a linear fit through writes of 4 and 8 samples
    (a fixed part, such as unet3d's box, and a part per sample), in a scratch directory inside
    ``out``, removed again."""
    import shutil
    import tempfile

    from .data import make_data

    base = out
    if out.endswith((".h5", ".hdf5")):  # --make-data names the file itself
        base = os.path.dirname(os.path.abspath(out))
    os.makedirs(base, exist_ok=True)
    sizes = []
    for n in (4, 8):
        scratch = tempfile.mkdtemp(prefix=".estimate-", dir=base)
        try:
            make_data(spec, name, dict(cfg), scratch, n, shard, seed)
            sizes.append(_tree_size(scratch))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    (b4, f4), (b8, f8) = sizes
    per_b, per_f = max(b8 - b4, 0) / 4, max(f8 - f4, 0) / 4
    return int(b4 + per_b * (samples - 4)), int(f4 + per_f * (samples - 4))


def _write_error(out: str, exc: BaseException) -> str:
    """One line for a failed write: the system's reason (h5py's OSError carries it as
    ``errno = N`` in a long text) or the exception's first line."""
    import errno as errnos
    import re

    code = getattr(exc, "errno", None)
    if not isinstance(code, int):
        m = re.search(r"errno = (\d+)", str(exc))
        code = int(m.group(1)) if m else None
    if isinstance(code, int) and code in errnos.errorcode:
        return f"cannot write {out}: {os.strerror(code)}"
    from .safeio import one_line

    return f"cannot write {out}: {type(exc).__name__}: {one_line(exc, 200)}"


def _make_data(spec: Any, args: argparse.Namespace) -> None:
    """--make-data: the size estimated and checked against the free space first (a one-line
    refusal, exit 2); a failed write (disk full) is one line, exit 2."""
    import shutil

    from .contract import with_options
    from .data import make_data
    from .safeio import InputError

    cfg = with_options(spec.sizes[args.config], args)
    out = args.make_data
    try:
        if args.samples > ESTIMATE_ABOVE:
            need, files = _estimate(spec, args.config, cfg, out, args.samples,
                                    args.shard_size, args.seed)
            where = out if os.path.isdir(out) else os.path.dirname(os.path.abspath(out))
            free = shutil.disk_usage(where).free
            vfs = os.statvfs(where)
            if need > free or (vfs.f_files and files > vfs.f_favail):
                raise InputError(
                    f"--samples {args.samples}: about {need / 1e9:.3g} GB in {files} file(s), "
                    f"{where} has {free / 1e9:.3g} GB and {vfs.f_favail} inodes free; write "
                    "fewer samples or choose another place")
            print(f"[workloads] writing about {need / 1e9:.3g} GB ({files} file(s))",
                  file=sys.stderr, flush=True)
        written, fmt = make_data(spec, args.config, cfg, out, args.samples,
                                 args.shard_size, args.seed)
    except InputError as exc:
        print(f"[workloads] error: {exc}", file=sys.stderr, flush=True)
        sys.exit(EXIT_INPUT)
    except (OSError, MemoryError, RuntimeError) as exc:
        # h5py reports a failed write at close as RuntimeError("... errno = 27 ...")
        if isinstance(exc, RuntimeError) and "errno = " not in str(exc):
            raise
        print(f"[workloads] error: {_write_error(out, exc)}", file=sys.stderr, flush=True)
        sys.exit(EXIT_INPUT)
    print(f"[workloads] wrote {args.samples} {spec.name} samples ({args.config}, {fmt}) to "
          f"{written}", file=sys.stderr)
    sys.exit(EXIT_OK)


def main(spec: Any, argv: Sequence[str] | None = None) -> None:
    parser = build_parser(spec)
    args = parser.parse_args(argv)
    error = _conflict(args)
    if error:
        parser.error(error)
    resolve(args)
    if args.check:
        _ready(spec, args)
    if args.describe:
        _describe(spec, args)
    if spec.framework == "tensorflow":
        if args.make_data or args.data != "synthetic":
            parser.error("the TensorFlow version trains on --data synthetic only (datasets on "
                         "disk: the PyTorch version)")
        if args.mode == "trials":
            parser.error("--mode trials needs a data pipeline: the PyTorch version")
        from workloads.tfruntime import run
    else:
        from .train import run
    if args.make_data:
        _make_data(spec, args)
    try:
        rc = run(spec, args)
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - a failing rank must end the job
        if _input_error(exc):
            os._exit(EXIT_INPUT)
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
