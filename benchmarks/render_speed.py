"""Cold-process render time of `jobgen render` against a bare `python -c pass` and LLNL
HPC-launcher's `launch --dry-run` (when installed), in one run.

    python3 benchmarks/render_speed.py [--runs 21]

Install both without editable hooks (an editable install adds an import hook to every start,
the floor's too): `python3 -m venv V --system-site-packages; V/bin/pip install --no-deps
--no-build-isolation .; V/bin/pip install hpc-launcher; V/bin/python benchmarks/render_speed.py`.
The cases run interleaved (one sample of each per round), so machine load hits them alike.

Every sample is a new interpreter, as a user's shell starts it. "warm cache" is the normal
case (the validated profile, app manifest and compiled templates come from ~/.cache/jobgen);
"empty cache" is the first render after installing or editing a profile. The ratio the
render issue asks about is warm-cache median / `python -c pass` median. PYTHONDONTWRITEBYTECODE
is dropped for the runs: with it every import is compiled from source on every run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ARGS = ["render", "--site", "aurora", "--app", "cosmictagger", "--nodes", "2", "-A", "proj"]


# HPC-launcher's dry run for a comparable job: 2 nodes of 12 ranks, printed, not submitted.
HPC_LAUNCHER = ["--dry-run", "--scheduler", "slurm", "-N", "2", "-n", "12", "-t", "30", "--",
                "python3", "train.py"]


def once(cmd: list[str], env: dict[str, str], fresh_cache: bool) -> float:
    if fresh_cache:
        env = dict(env, JOBGEN_CACHE_DIR=tempfile.mkdtemp(prefix="jobgen-bench-"))
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    opts = parser.parse_args()
    py = sys.executable
    env = dict(os.environ, JOBGEN_CACHE_DIR=tempfile.mkdtemp(prefix="jobgen-bench-"))
    # Measure what users get: compiled bytecode (.pyc) kept between runs, as after pip install.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([py, "-m", "jobgen", *ARGS], env=env, stdout=subprocess.DEVNULL, check=True)
    bindir = Path(py).parent
    cases = [("python -c pass", [py, "-c", "pass"], False),
             ("python -m jobgen render (warm cache)", [py, "-m", "jobgen", *ARGS], False)]
    if (bindir / "jobgen").exists():
        cases.append(("jobgen render (console script, warm cache)",
                      [str(bindir / "jobgen"), *ARGS], False))
    cases.append(("python -m jobgen render (empty cache)", [py, "-m", "jobgen", *ARGS], True))
    launcher = bindir / "launch"
    if launcher.exists():
        cases.append(("HPC-launcher launch --dry-run", [str(launcher), *HPC_LAUNCHER], False))
    for _, cmd, fresh in cases:  # warm the page cache and the .pyc files
        once(cmd, env, fresh)
    times: dict[str, list[float]] = {label: [] for label, _, _ in cases}
    for _ in range(opts.runs):
        for label, cmd, fresh in cases:
            times[label].append(once(cmd, env, fresh))
    med = {label: statistics.median(t) for label, t in times.items()}
    base = med["python -c pass"]
    print(f"{'case':45} {'median ms':>10} {'min ms':>8} {'x python -c pass':>17}")
    for label, t in times.items():
        print(f"{label:45} {med[label] * 1000:10.1f} {min(t) * 1000:8.1f} "
              f"{med[label] / base:17.2f}")
    warm = med["python -m jobgen render (warm cache)"]
    peer = med.get("HPC-launcher launch --dry-run")
    if peer is None:
        print("HPC-launcher is not installed here (pip install hpc-launcher): compared with "
              "the floor only")
    else:
        print(f"jobgen render / HPC-launcher dry run: {warm / peer:.2f} "
              f"({'faster' if warm < peer else 'slower'})")
    print(f"({opts.runs} rounds, {os.cpu_count()} CPUs, {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
