"""What a checkpoint write costs each bundled app, and the lead its time budget then uses
(docs/walltime.md, issue 34).

    python3 benchmarks/checkpoint_cost.py [--config tiny] [--repeats 3] [--apps gpt,ffn]
                                          [--tensorflow] [--app-args '--batch-size 1']

Each app runs as its own process for a few steps with ``--checkpoint-dir`` (a fresh scratch
directory every run) and ``--checkpoint-every 2``; the run's slowest write,
``checkpoint_seconds_max`` of its result line, is one sample. Printed per app: the median and
the spread (min-max) of the samples, the checkpoint's size on disk, and the lead the app's
budget would use with that write time: ``max(2 x write, floor) + margin`` with the app's own
floor (30 s) and with jobgen's default signal lead (120 s, passed as ``--stop-lead``). On a
loaded machine the write times vary; the spread says by how much.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workloads import APPS  # noqa: E402
from workloads.runtime.budget import FLOOR_S, MARGIN_S  # noqa: E402

TF_APPS = ("cosmictagger", "ffn")
JOBGEN_LEAD = 120  # jobgen's default signal lead (jobgen.plan.build.DEFAULT_STOP_LEAD)


def size_of(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def one_run(app: str, config: str, framework: str, steps: int,
            extra: list[str]) -> tuple[float, int]:
    """(the run's slowest checkpoint write in seconds, bytes of its newest checkpoint)."""
    scratch = Path(tempfile.mkdtemp(prefix="ckcost-"))
    try:
        cmd = [sys.executable, "-m", f"workloads.{app}", "--config", config, "--device", "cpu",
               "--workers", "0", "--steps", str(steps), "--warmup", "1",
               "--checkpoint-dir", str(scratch / "ck"), "--checkpoint-every", "2"]
        if framework != "pytorch":
            cmd += ["--framework", framework]
        cmd += extra
        env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
               "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}
        env.pop("JOBGEN_DEADLINE", None)
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800,
                              cwd=scratch)
        if proc.returncode != 0:
            raise RuntimeError(f"{app} ({framework}) failed: {proc.stderr[-600:]}")
        line = json.loads([ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1])
        newest = max((scratch / "ck").glob("step_*"))
        return float(line["checkpoint_seconds_max"]), size_of(newest)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def lead(write: float, floor: float) -> float:
    return max(2 * write, floor) + MARGIN_S


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default="tiny", help="the apps' configuration (default tiny)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--apps", default=",".join(sorted(APPS)))
    ap.add_argument("--app-args", default="",
                    help="more arguments for every app, e.g. '--batch-size 1 --grad-accum 1' "
                         "for a large --config on the CPU (a write's cost does not depend on "
                         "the batch)")
    ap.add_argument("--tensorflow", action="store_true",
                    help="also the TensorFlow versions (cosmictagger, ffn)")
    args = ap.parse_args()
    runs = [(a, "pytorch") for a in args.apps.split(",")]
    if args.tensorflow:
        runs += [(a, "tensorflow") for a in args.apps.split(",") if a in TF_APPS]
    print(f"checkpoint cost, --config {args.config}, {args.repeats} runs each, CPU, "
          f"{os.cpu_count()} CPUs (load average {os.getloadavg()[0]:.1f})")
    print(f"{'app':<14} {'framework':<11} {'size MB':>8} {'write s median':>15} "
          f"{'min-max':>15} {'lead (floor 30)':>16} {'lead (jobgen 120)':>18}")
    for app, framework in runs:
        samples, size = [], 0
        for _ in range(args.repeats):
            write, size = one_run(app, args.config, framework, args.steps,
                                  shlex.split(args.app_args))
            samples.append(write)
        med = statistics.median(samples)
        print(f"{app:<14} {framework:<11} {size / 1e6:>8.2f} {med:>15.3f} "
              f"{min(samples):>7.3f}-{max(samples):<7.3f} {lead(max(samples), FLOOR_S):>15.0f}s "
              f"{lead(max(samples), JOBGEN_LEAD):>17.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
