"""Cold-process render time of `jobgen render` against a bare `python -c pass`, in one run.

    python3 benchmarks/render_speed.py [--runs 21]

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


def sample(cmd: list[str], env: dict[str, str], runs: int, fresh_cache: bool) -> list[float]:
    times = []
    for _ in range(runs):
        if fresh_cache:
            env = dict(env, JOBGEN_CACHE_DIR=tempfile.mkdtemp(prefix="jobgen-bench-"))
        start = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    opts = parser.parse_args()
    py = sys.executable
    env = dict(os.environ, JOBGEN_CACHE_DIR=tempfile.mkdtemp(prefix="jobgen-bench-"))
    # Measure what users get: compiled bytecode (.pyc) kept between runs, as after pip install.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([py, "-m", "jobgen", *ARGS], env=env, stdout=subprocess.DEVNULL, check=True)
    rows = [("python -c pass", sample([py, "-c", "pass"], env, opts.runs, False))]
    script = Path(py).parent / "jobgen"
    cases = [("python -m jobgen render (warm cache)", [py, "-m", "jobgen", *ARGS], False)]
    if script.exists():
        cases.append(("jobgen render (console script, warm cache)", [str(script), *ARGS], False))
    cases.append(("python -m jobgen render (empty cache)", [py, "-m", "jobgen", *ARGS], True))
    for label, cmd, fresh in cases:
        rows.append((label, sample(cmd, env, opts.runs, fresh)))
    base = statistics.median(rows[0][1])
    print(f"{'case':45} {'median ms':>10} {'min ms':>8} {'x python -c pass':>17}")
    for label, times in rows:
        med = statistics.median(times)
        print(f"{label:45} {med * 1000:10.1f} {min(times) * 1000:8.1f} {med / base:17.2f}")
    print(f"({opts.runs} runs each, {os.cpu_count()} CPUs, {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
