"""The placement check's cost at 1,024 ranks (256 nodes x 4): target under 1 s per job.

    python3 benchmarks/placement_check.py [--nodes 256] [--ranks-per-node 4] [--runs 11]

Two paths, each from 1,024 simulated rank reports:

- the bundled apps (workloads/runtime/placement.py): every rank's own comparison (in the job
  the ranks do it at once; here one after another, so this over-counts by the rank count),
  then what every rank does with the gathered reports (node problems, the verdict) and what
  rank 0 adds (the table). The all-gather itself is one collective of about 100 bytes a rank
  (not simulated: it needs 1,024 processes).
- a user's program (the wrapper's awk table, jobgen/plan/placecheck.py TABLE_AWK): 1,024
  report files, the glob the completing rank does, and awk over them; the per-rank bash work
  (taskset, sysfs) is measured once, by running the rendered wrapper's check for one rank.

Reported: best, median and worst wall time of the runs, and the spread (worst - best).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from jobgen.plan.placecheck import TABLE_AWK  # noqa: E402
from workloads.runtime import placement as pc  # noqa: E402


def reports(nodes: int, rpn: int) -> tuple[list[dict[str, str]], list[list[int]]]:
    """Each rank's exported row (as the wrapper exports it) and its CPUs, as on Polaris:
    8 cores a rank, 4 ranks a node, device mask = its GPU."""
    rows, cpus = [], []
    for rank in range(nodes * rpn):
        local = rank % rpn
        mine = list(range(8 * local, 8 * local + 8))
        rows.append({"JOBGEN_PLACEMENT_CHECK": "stop",
                     "JOBGEN_PLACEMENT_HOST": f"x{rank // rpn:04d}",
                     "JOBGEN_PLACEMENT_CPUS": pc.cpu_list(mine),
                     "JOBGEN_PLACEMENT_THREADS": pc.cpu_list([*mine, *(c + 32 for c in mine)]),
                     "JOBGEN_PLACEMENT_NUMA": str(local),
                     "JOBGEN_PLACEMENT_MASK_VARIABLE": "CUDA_VISIBLE_DEVICES",
                     "JOBGEN_PLACEMENT_MASK": str(3 - local),
                     "CUDA_VISIBLE_DEVICES": str(3 - local)})
        cpus.append(mine)
    return rows, cpus


def app_path(rows: list[dict[str, str]], cpus: list[list[int]], rpn: int) -> float:
    start = time.perf_counter()
    gathered = [pc.own_report(r, r % rpn, pc.expected(env), f"0000:{r % rpn:02x}:00",
                              cpus[r], env, sysfs="/nonexistent")
                for r, env in enumerate(rows)]
    checked = pc.with_node_problems(gathered)
    pc.stop_line(checked, "stop")
    lines = pc.table(checked, "stop", len(rows), "CUDA_VISIBLE_DEVICES")
    assert len(lines) == len(rows) // rpn + 1, lines[:3]
    return time.perf_counter() - start


def write_files(directory: Path, nodes: int, rpn: int) -> None:
    for rank in range(nodes * rpn):
        local = rank % rpn
        c = f"{8 * local}-{8 * local + 7}"
        (directory / f"rank-{rank}").write_text(
            f"{rank} x{rank // rpn:04d} {local} {c} {c} {local} {local} {3 - local} "
            f"{3 - local} ok\n")


def awk_path(directory: Path, world: int) -> float:
    script = ('files=("$1"/rank-*); [ "${#files[@]}" -ge "$2" ] && '
              'awk -v mode=stop -v world="$2" -v mask=CUDA_VISIBLE_DEVICES "$3" "${files[@]}"')
    start = time.perf_counter()
    out = subprocess.run(["bash", "-c", script, "bash", str(directory), str(world), TABLE_AWK],
                         capture_output=True, text=True, check=True).stdout
    elapsed = time.perf_counter() - start
    assert "all as planned" in out.splitlines()[0], out[:300]
    return elapsed


def one_rank_wrapper(tmp: Path) -> float:
    """One rank's bash check, as rendered for local-mpich (taskset, sysfs, report, glob)."""
    from jobgen.plan.build import Request, build_plan
    from jobgen.profiles.load import load_profile
    from jobgen.text.render import render

    text = render(build_plan(load_profile("local-mpich"),
                             Request(site="local-mpich", nodes=1, command=("true",))))
    start = text.index("<<'JOBGEN_EOF'\n") + len("<<'JOBGEN_EOF'\n")
    wrapper = tmp / "rank-wrapper.sh"
    wrapper.write_text(text[start:text.index("\nJOBGEN_EOF\n", start) + 1])
    wrapper.chmod(0o755)
    (tmp / "placement").mkdir(exist_ok=True)
    env = {"PATH": "/usr/bin:/bin", "MPI_LOCALRANKID": "0", "PMI_RANK": "1"}
    t0 = time.perf_counter()
    subprocess.run([str(wrapper), "true"], env=env, check=True)
    with_check = time.perf_counter() - t0
    bare = tmp / "bare.sh"
    bare.write_text('#!/bin/bash\nexec "$@"\n')
    bare.chmod(0o755)
    t0 = time.perf_counter()
    subprocess.run([str(bare), "true"], env=env, check=True)
    (tmp / "placement" / "rank-1").unlink()
    for f in (tmp / "placement").glob("*.local-0"):
        f.unlink()
    return with_check - (time.perf_counter() - t0)


def summary(name: str, samples: list[float]) -> str:
    s = sorted(samples)
    return (f"{name:<52} best {s[0] * 1000:8.1f} ms  median {statistics.median(s) * 1000:8.1f}"
            f" ms  worst {s[-1] * 1000:8.1f} ms  spread {(s[-1] - s[0]) * 1000:6.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=256)
    parser.add_argument("--ranks-per-node", type=int, default=4)
    parser.add_argument("--runs", type=int, default=11)
    opts = parser.parse_args()
    nodes, rpn = opts.nodes, opts.ranks_per_node
    rows, cpus = reports(nodes, rpn)
    app, awk, one = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        files = Path(tmp) / "placement"
        files.mkdir()
        write_files(files, nodes, rpn)
        scratch = Path(tmp) / "one"
        scratch.mkdir()
        for _ in range(opts.runs):  # interleaved, so machine load hits all alike
            app.append(app_path(rows, cpus, rpn))
            awk.append(awk_path(files, nodes * rpn))
            one.append(one_rank_wrapper(scratch))
    print(f"placement check, {nodes} nodes x {rpn} ranks = {nodes * rpn} ranks, "
          f"{opts.runs} runs")
    print(summary("apps: all ranks' comparisons + gathered checks + table", app))
    print(summary("user program: glob + awk table over the rank files", awk))
    print(summary("one rank's wrapper check (its own time, in parallel)", one))
    worst = max(app) if max(app) > max(awk) else max(awk)
    print(f"worst per-job cost measured: {worst * 1000:.1f} ms (target < 1000 ms)")
    return 0 if worst < 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
