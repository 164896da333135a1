"""``python -m workloads.describe_all [--apps a,b] [--with-tiny]``: the ``--describe`` line of
every bundled app and configuration (PyTorch versions), one JSON line each, in a stable order.

tools/apps_doc.py renders these lines, beside the originals' counts of
tests/workloads/test_fidelity.py, into docs/apps.md.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Iterator
from typing import Any

from workloads import APPS


def describe_all(apps: tuple[str, ...] = APPS, with_tiny: bool = False
                 ) -> Iterator[dict[str, Any]]:
    from workloads.runtime.describe import describe

    for app in sorted(apps):
        spec = importlib.import_module(f"workloads.{app}.model").APP
        for name in spec.sizes:
            if name != "tiny" or with_tiny:
                yield describe(spec, name)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m workloads.describe_all", description=__doc__)
    p.add_argument("--apps", default=",".join(APPS), help="comma-separated apps (default: all)")
    p.add_argument("--with-tiny", action="store_true", help="include the tiny configurations")
    args = p.parse_args(argv)
    apps = tuple(a for a in args.apps.split(",") if a)
    unknown = sorted(set(apps) - set(APPS))
    if unknown:
        p.error(f"unknown apps {unknown}; known: {', '.join(APPS)}")
    for line in describe_all(apps, args.with_tiny):
        sys.stdout.write(json.dumps(line) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
