"""Each bundled app's training step beside a minimal transcription of its original's step, at
the same configuration, batch and shapes, on the CPU:

    python3 benchmarks/apps_vs_originals.py                       # every case, 3 runs each
    python3 benchmarks/apps_vs_originals.py --cases gpt-tiny,resnet50-default --runs 5

Bundled: the app as a user runs it (``python -m workloads.APP --config C --batch-size B
--grad-accum 1 --steps S --warmup W --device cpu --precision fp32 --no-compile --workers 0``),
its JSON ``samples_per_sec`` (synthetic data made on the device, the runtime's timing).
Original: ``benchmarks/original_steps.py`` (the original's step structure and data layout with
the bundled model; its docstring says what each transcribes). Each run is a fresh process;
the two sides alternate run by run (bundled, original, bundled, ...) so machine load hits
both alike, each pinned to the same cores with ``taskset`` when it is there (``--cores``,
default the first two), ``OMP_NUM_THREADS`` = that many cores and ``OMP_WAIT_POLICY=PASSIVE``
(spinning OpenMP threads on shared cores made repeats differ 20x).

Reported per case: the median samples/s of each side with its min and max, the ratio of the
medians (bundled / original) and the range of the per-round ratios. A ratio whose range
contains 1.0 does not separate the two: "within noise". Under the table row, a comment line
gives each side's minor page faults and CPU seconds (user + system) per run, from the child's
``getrusage``: glibc's heap trimming makes a fresh process fault 0 to ~250k times a step
depending on its heap layout (ffn: docs/benchmarks.md), which moves samples/s by several
percent on either side; ``MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=17179869184`` in the
environment reaches both sides and takes that out. Results of a run on the shared 2-core
development machine: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Usage:
    """A finished run's own CPU seconds (user + system) and minor page faults."""

    cpu_s: float
    minflt: int


def _children() -> tuple[float, int]:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime, r.ru_minflt


def _run(cmd: list[str], cores: list[int], timeout: float, what: str
         ) -> tuple[str, Usage]:
    """Run one side (the only child at a time, so the children's rusage delta is its own)."""
    cpu0, flt0 = _children()
    res = subprocess.run(cmd, cwd=ROOT, env=_env(cores), capture_output=True, text=True,
                         timeout=timeout)
    if res.returncode != 0:
        raise RuntimeError(f"{what}: exit {res.returncode}: {res.stderr[-500:]}")
    cpu1, flt1 = _children()
    return res.stdout, Usage(cpu1 - cpu0, flt1 - flt0)


@dataclass(frozen=True)
class Case:
    app: str
    config: str
    batch: int
    steps: int
    warmup: int

    @property
    def name(self) -> str:
        return f"{self.app}-{self.config}"


#: sizes a 2-core CPU runs in tens of seconds per run (the full-size GPT and CosmicTagger
#: default take minutes a step there)
CASES = (
    Case("anisosgs", "default", 1, 4000, 200),
    Case("cosmictagger", "tiny", 2, 30, 5),
    Case("cosmictagger", "a21", 1, 4, 1),
    Case("ffn", "default", 4, 12, 2),
    Case("gpt", "tiny", 8, 200, 20),
    Case("pointnet", "default", 2, 5, 1),
    Case("qcnn", "default", 4, 4, 1),
    Case("resnet50", "default", 2, 6, 2),
    Case("unet3d", "default", 1, 5, 1),
)


def _env(cores: list[int]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PMI_", "OMPI_", "SLURM_", "PALS_"))
           and k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["OMP_NUM_THREADS"] = str(len(cores))
    env["OMP_WAIT_POLICY"] = "PASSIVE"
    return env


def _pin(cores: list[int]) -> list[str]:
    taskset = shutil.which("taskset")
    return [taskset, "-c", ",".join(map(str, cores))] if taskset else []


def _json(out: str) -> dict:
    lines = [ln for ln in out.splitlines() if ln.startswith("{")]
    if not lines:
        raise RuntimeError("no JSON line")
    return json.loads(lines[-1])


def bundled(case: Case, cores: list[int], timeout: float) -> tuple[float, Usage]:
    cmd = [*_pin(cores), sys.executable, "-m", f"workloads.{case.app}", "--config", case.config,
           "--batch-size", str(case.batch), "--grad-accum", "1", "--steps", str(case.steps),
           "--warmup", str(case.warmup), "--device", "cpu", "--precision", "fp32",
           "--no-compile", "--workers", "0"]
    out, usage = _run(cmd, cores, timeout, f"{case.name} bundled")
    return float(_json(out)["samples_per_sec"]), usage


def original(case: Case, cores: list[int], timeout: float) -> tuple[float, Usage]:
    cmd = [*_pin(cores), sys.executable, str(ROOT / "benchmarks" / "original_steps.py"),
           case.app, case.config, str(case.batch), str(case.steps), str(case.warmup)]
    out, usage = _run(cmd, cores, timeout, f"{case.name} original")
    return float(_json(out)["samples_per_sec"]), usage


def measure(case: Case, runs: int, cores: list[int], timeout: float
            ) -> tuple[list[float], list[float], list[Usage], list[Usage]]:
    ours, theirs = [], []
    our_use, their_use = [], []
    for r in range(runs):
        # alternate which side goes first, so a load trend does not favour one
        order = (bundled, original) if r % 2 == 0 else (original, bundled)
        for side in order:
            value, usage = side(case, cores, timeout)
            (ours if side is bundled else theirs).append(value)
            (our_use if side is bundled else their_use).append(usage)
    return ours, theirs, our_use, their_use


def usage_line(case: Case, ours: list[Usage], theirs: list[Usage]) -> str:
    """Each side's minor page faults and CPU seconds a run, median [min, max]."""
    def spread(values: list[float], fmt: str) -> str:
        return (f"{statistics.median(values):{fmt}} [{min(values):{fmt}}, "
                f"{max(values):{fmt}}]")

    return (f"# {case.name}: minor page faults a run, bundled "
            f"{spread([u.minflt / 1e3 for u in ours], '.0f')} k, original "
            f"{spread([u.minflt / 1e3 for u in theirs], '.0f')} k; CPU s a run (user + system), "
            f"bundled {spread([u.cpu_s for u in ours], '.1f')}, original "
            f"{spread([u.cpu_s for u in theirs], '.1f')}")


def report(case: Case, ours: list[float], theirs: list[float]) -> str:
    ratio = statistics.median(ours) / statistics.median(theirs)
    rounds = [a / b for a, b in zip(ours, theirs, strict=True)]
    verdict = "within noise" if min(rounds) <= 1.0 <= max(rounds) else (
        "faster" if ratio > 1 else "slower")
    return (f"| {case.name} | {case.batch} | {statistics.median(ours):.4g} "
            f"[{min(ours):.4g}, {max(ours):.4g}] | {statistics.median(theirs):.4g} "
            f"[{min(theirs):.4g}, {max(theirs):.4g}] | {ratio:.2f} "
            f"[{min(rounds):.2f}, {max(rounds):.2f}] | {verdict} |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", default="", help="comma-separated APP-CONFIG names (default all: "
                   + ", ".join(c.name for c in CASES) + ")")
    p.add_argument("--runs", type=int, default=3, help="runs of each side (default 3)")
    p.add_argument("--cores", default="0,1", help="cores to pin both sides to (default 0,1)")
    p.add_argument("--timeout", type=float, default=900, help="seconds a run may take")
    args = p.parse_args(argv)
    wanted = [c for c in args.cases.split(",") if c]
    known = {c.name: c for c in CASES}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        print(f"unknown case(s) {', '.join(unknown)}; choose from {', '.join(known)}",
              file=sys.stderr)
        return 2
    cores = [int(c) for c in args.cores.split(",")]
    print(f"# {args.runs} interleaved runs a side, cores {args.cores}"
          f"{'' if _pin(cores) else ' (no taskset: not pinned)'}, OMP_NUM_THREADS={len(cores)}"
          + "".join(f", {k}={v}" for k, v in sorted(os.environ.items())
                    if k.startswith("MALLOC_")))
    print("| case | batch | bundled samples/s median [min, max] | original step samples/s "
          "median [min, max] | bundled / original [per-round range] | |")
    print("|---|---:|---|---|---|---|")
    for case in [known[w] for w in wanted] or list(CASES):
        ours, theirs, our_use, their_use = measure(case, args.runs, cores, args.timeout)
        print(report(case, ours, theirs), flush=True)
        print(usage_line(case, our_use, their_use), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
