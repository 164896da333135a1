"""Sum the result lines of independent training instances: ``python -m workloads.summarize``.

A job rendered with ``jobgen render --instances-per-device N`` runs N trainings per device that
share nothing but the device; each prints its own JSON result line (with ``instance``) and
writes it to ``$JOBGEN_RESULT_FILE``. After the launch the job script runs this module on
those files and prints one more JSON line, ``"summary": "instances"``, whose
``samples_per_sec`` is the job's total throughput: the sum over the instances (they ran at the
same time). Standard library only: summing needs no torch.

    python -m workloads.summarize [--expect N] PATH...   # files, directories of *.json, or -

Exit 0 with the summary; 1 when fewer than ``--expect`` results are found or one has no
throughput (the job did not do what it was asked).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any


def _lines(paths: Iterable[str]) -> Iterator[str]:
    for name in paths:
        if name == "-":
            yield from sys.stdin
            continue
        path = Path(name)
        files = sorted(path.glob("*.json")) if path.is_dir() else [path]
        for f in files:
            yield from f.read_text(encoding="utf-8").splitlines()


def read_results(paths: Iterable[str]) -> list[dict[str, Any]]:
    """The training result objects among the lines (other lines and summaries skipped)."""
    out = []
    for line in _lines(paths):
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict) and "samples_per_sec" in item and "summary" not in item:
            out.append(item)
    return out


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Total and per-instance throughput of instances that ran side by side."""
    rates = [float(r["samples_per_sec"]) for r in results
             if isinstance(r.get("samples_per_sec"), (int, float))]
    apps = sorted({str(r.get("app")) for r in results})
    return {
        "summary": "instances",
        "app": apps[0] if len(apps) == 1 else apps,
        "instances": len(results),
        "instance_ids": sorted(r["instance"] for r in results if "instance" in r),
        "samples_per_sec": sum(rates) if rates else None,
        "samples_per_sec_per_instance_mean": sum(rates) / len(rates) if rates else None,
        "samples_per_sec_per_instance_min": min(rates) if rates else None,
        "samples_per_sec_per_instance_max": max(rates) if rates else None,
        "elapsed_s_max": max((float(r["elapsed_s"]) for r in results
                              if isinstance(r.get("elapsed_s"), (int, float))), default=None),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m workloads.summarize",
                                description="sum the result lines of training instances")
    p.add_argument("paths", nargs="+", help="result files, directories of *.json, or -")
    p.add_argument("--expect", type=int, default=None, help="instances the job started")
    args = p.parse_args(argv)
    results = read_results(args.paths)
    summary = summarize(results)
    if args.expect is not None:
        summary["expected"] = args.expect
    print(json.dumps(summary), flush=True)
    missing = (args.expect or 0) - len(results)
    if not results:
        print("[workloads] summary: no result lines found", file=sys.stderr)
        return 1
    if missing > 0:
        print(f"[workloads] summary: {missing} of {args.expect} instances wrote no result",
              file=sys.stderr)
        return 1
    if any(not isinstance(r.get("samples_per_sec"), (int, float)) for r in results):
        print("[workloads] summary: an instance has no throughput (no timed steps?)",
              file=sys.stderr)
        return 1
    print(f"[workloads] {len(results)} instances: {summary['samples_per_sec']:.6g} samples/s "
          "in all", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
