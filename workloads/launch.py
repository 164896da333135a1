"""``python -m workloads.<app> [--framework pytorch|tensorflow] ...``: pick the framework's
version of an app before importing either framework.

The PyTorch version is ``workloads.<app>.model``, the TensorFlow one (cosmictagger, ffn)
``workloads.<app>.tf_model``; both run through the same command line (runtime/cli.py).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

FRAMEWORKS = ("pytorch", "tensorflow")
_MODULE = {"pytorch": "model", "tensorflow": "tf_model"}


def requested_framework(argv: Sequence[str]) -> str:
    """The value of ``--framework`` in ``argv`` (pytorch when absent); exits 2 on a bad one."""
    peek = argparse.ArgumentParser(add_help=False)
    peek.add_argument("--framework", choices=FRAMEWORKS, default="pytorch")
    known, _ = peek.parse_known_args(argv)
    return known.framework


def main(app: str, argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    framework = requested_framework(args)
    module = f"workloads.{app}.{_MODULE[framework]}"
    if importlib.util.find_spec(module) is None:
        print(f"python -m workloads.{app}: {app} has no {framework} version", file=sys.stderr)
        sys.exit(2)
    from workloads.runtime.cli import main as cli_main

    cli_main(importlib.import_module(module).APP, args)
