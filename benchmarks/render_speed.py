"""Cold-process render time of `jobgen render` against a bare `python -c pass` and LLNL
HPC-launcher's `launch --dry-run`, in one run.

    python3 benchmarks/render_speed.py [--runs 21]

Measure a non-editable install: an editable one adds its import hook to every interpreter
start, the floor's too, and flatters the ratio. A venv that sees the system's packages
through a path file (not --system-site-packages, which would run the system's .pth hooks)
does it without downloading jobgen's dependencies again:

    python3 -m venv V
    SITE=$(python3 -c 'import site; print(site.getsitepackages()[0])')
    echo "$SITE" > V/lib/python3.X/site-packages/deps.pth
    V/bin/pip install --no-deps --force-reinstall .   # or a wheel of this checkout
    V/bin/pip install --no-deps hpc-launcher          # its one dependency, psutil, is common
    V/bin/python benchmarks/render_speed.py

The script says which jobgen it measures and refuses an editable one. Every sample is a new
interpreter started in an empty directory (so no checkout shadows the install), one sample of
each case per round, so machine load hits them alike; medians of wall time and of CPU time
(user + system of the child, steadier on a shared machine) are reported. "warm cache" is the
normal case (validated profile, app manifest and compiled templates from the cache);
"empty cache" is the first render after installing or editing a profile. PYTHONDONTWRITEBYTECODE
is dropped for the runs: with it every import is compiled from source on every run.
"""

from __future__ import annotations

import argparse
import os
import resource
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
FLOOR, WARM, PEER = ("python -c pass", "python -m jobgen render (warm cache)",
                     "HPC-launcher launch --dry-run")
# What the measured interpreter imports jobgen from, and whether an editable hook is loaded.
PROBE = ("import sys, jobgen; print(jobgen.__file__); "
         "print(any('__editable__' in type(f).__module__ or '__editable__' in repr(f) "
         "for f in sys.meta_path))")


def once(cmd: list[str], env: dict[str, str], cwd: str, fresh_cache: bool) -> tuple[float, float]:
    """Wall and CPU seconds of one run of `cmd`."""
    if fresh_cache:
        env = dict(env, JOBGEN_CACHE_DIR=tempfile.mkdtemp(prefix="jobgen-bench-"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def measured_install(py: str, env: dict[str, str], cwd: str) -> str:
    """Where the measured jobgen lives; refuses an editable install."""
    probe = subprocess.run([py, "-c", PROBE], env=env, cwd=cwd, capture_output=True, text=True)
    out = probe.stdout.split()
    if probe.returncode != 0 or out[1] == "True" or not Path(out[0]).is_relative_to(sys.prefix):
        found = f"imports jobgen from {out[0]}, editable hook loaded: {out[1]}" if out else \
            "cannot import jobgen outside a checkout"
        sys.exit(f"render_speed: {py} {found}; measure a non-editable install in a venv "
                 "(see the docstring)")
    return out[0]


def cases(py: str, out: str) -> list[tuple[str, list[str], bool]]:
    bindir = Path(py).parent
    found = [(FLOOR, [py, "-c", "pass"], False), (WARM, [py, "-m", "jobgen", *ARGS], False)]
    if (bindir / "jobgen").exists():
        found.append(("jobgen render (console script, warm cache)",
                      [str(bindir / "jobgen"), *ARGS], False))
    found.append(("python -m jobgen render --out F --force (warm)",
                  [py, "-m", "jobgen", *ARGS, "--out", out, "--force"], False))
    found.append(("python -m jobgen render (empty cache)", [py, "-m", "jobgen", *ARGS], True))
    if (bindir / "launch").exists():
        found.append((PEER, [str(bindir / "launch"), *HPC_LAUNCHER], False))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    opts = parser.parse_args()
    py = sys.executable
    env = dict(os.environ, JOBGEN_CACHE_DIR=tempfile.mkdtemp(prefix="jobgen-bench-"))
    # Measure what users get: compiled bytecode (.pyc) kept between runs, as after pip install.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cwd = tempfile.mkdtemp(prefix="jobgen-bench-cwd-")
    where = measured_install(py, env, cwd)
    todo = cases(py, os.path.join(cwd, "job.pbs"))
    for _, cmd, fresh in todo:  # warm the cache, the page cache and the .pyc files
        once(cmd, env, cwd, fresh)
    wall: dict[str, list[float]] = {label: [] for label, _, _ in todo}
    cpu: dict[str, list[float]] = {label: [] for label, _, _ in todo}
    for _ in range(opts.runs):
        for label, cmd, fresh in todo:
            w, c = once(cmd, env, cwd, fresh)
            wall[label].append(w)
            cpu[label].append(c)
    med = {k: statistics.median(v) for k, v in wall.items()}
    cmed = {k: statistics.median(v) for k, v in cpu.items()}
    print(f"jobgen from {where}")
    print(f"{'case':48} {'wall ms':>8} {'min ms':>7} {'x floor':>8} {'cpu ms':>7} {'x floor':>8}")
    for label in wall:
        print(f"{label:48} {med[label] * 1000:8.1f} {min(wall[label]) * 1000:7.1f} "
              f"{med[label] / med[FLOOR]:8.2f} {cmed[label] * 1000:7.1f} "
              f"{cmed[label] / cmed[FLOOR]:8.2f}")
    if PEER in med:
        print(f"jobgen render / HPC-launcher dry run: wall {med[WARM] / med[PEER]:.2f}, "
              f"cpu {cmed[WARM] / cmed[PEER]:.2f} "
              f"({'faster' if med[WARM] < med[PEER] else 'slower'})")
    else:
        print("HPC-launcher is not installed beside this Python (pip install --no-deps "
              "hpc-launcher): compared with the floor only")
    print(f"({opts.runs} rounds, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}, "
          f"Python {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
