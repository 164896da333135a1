"""Prelaunch time at full-machine size: how long each site's rendered script takes from its
start to the launch of the ranks, for the whole machine and for 2 nodes.

    python3 benchmarks/prelaunch_scale.py [--runs 11] [--sites aurora,lumi]

Each script is rendered for a user program (`-- python3 train.py`, so the preflight is the
cheap `command -v python3`, not the bundled app's import of its framework) and run under
bash against its scheduler's host list at that size (tests/emulation/allocation.py:
`$PBS_NODEFILE`, `$LSB_DJOB_HOSTFILE` with each node once per slot, `$COBALT_NODEFILE`, Slurm's
node list through the `scontrol` stand-in, here without its pause between 4 KiB blocks).
The launchers and `module` are stand-ins that return at once, so the time measured is the
batch shell's own work before the launch (node check, rendezvous, job directory, wrapper,
preflight) plus the stand-ins' starts. One sample of each case per round, so machine load
hits them alike; reported: best, median and worst wall time of the runs. The difference
between the full-machine and the 2-node time is what grows with the host count (target: the
full-machine prelaunch under 1 s at Aurora's 10,624 nodes).
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
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from emulation.allocation import allocation, full_machine_plan  # noqa: E402
from emulation.harness import install_bin  # noqa: E402

from jobgen.plan.build import Request, build_plan  # noqa: E402
from jobgen.profiles.load import load_profile  # noqa: E402
from jobgen.text.render import render  # noqa: E402

SITES = ["aurora", "polaris", "sunspot", "lumi", "summit", "jlse-mi250"]
STUBS = ("mpiexec", "srun", "jsrun", "mpirun", "jskill", "module", "conda", "singularity",
         "apptainer")


def stand_ins(dest: Path) -> Path:
    full = install_bin(dest / "emu")
    bin_dir = dest / "bin"
    bin_dir.mkdir()
    for name in ("scontrol", "_emu.py"):
        (bin_dir / name).write_bytes((full / name).read_bytes())
        (bin_dir / name).chmod(0o755)
    for name in STUBS:
        (bin_dir / name).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / name).chmod(0o755)
    return bin_dir


def case(site: str, nodes: int | None, scratch: Path, bin_dir: Path
         ) -> tuple[Path, dict[str, str], int]:
    """The script for `nodes` nodes of `site` (None: the whole machine, through the site's
    documented route where no queue takes it), its job environment and its node count."""
    work = scratch / f"{site}-{nodes or 'full'}"
    work.mkdir()
    command = ("python3", "train.py")
    if nodes is None:
        plan = full_machine_plan(site, work, command)
    else:
        plan = build_plan(load_profile(site), Request(site=site, nodes=nodes, account="proj",
                                                      command=command))
    script = work / "job.sh"
    script.write_text(render(plan))
    env, _ = allocation(site, plan.dialect, plan.nodes, work, work)
    return script, {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(work), "USER": "bench",
                    "LANG": "C.UTF-8", "JOBGEN_EMU_BLOCK_DELAY": "0", **env}, plan.nodes


def once(script: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(["bash", str(script)], env=env, cwd=script.parent, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--sites", default=",".join(SITES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jobgen-prelaunch-") as tmp:
        scratch = Path(tmp)
        bin_dir = stand_ins(scratch)
        cases = {}
        for site in args.sites.split(","):
            for nodes in (2, None):
                script, env, size = case(site, nodes, scratch, bin_dir)
                cases[(site, size)] = (script, env)
        times: dict[tuple[str, int], list[float]] = {key: [] for key in cases}
        for _ in range(args.runs):
            for key, (script, env) in cases.items():
                times[key].append(once(script, env))
    print(f"prelaunch wall time, {args.runs} runs each (best / median / worst, ms)")
    print(f"{'site':<12} {'nodes':>6}  {'best':>7} {'median':>7} {'worst':>7}")
    for (site, nodes), samples in times.items():
        ms = [t * 1000 for t in samples]
        print(f"{site:<12} {nodes:>6}  {min(ms):7.1f} {statistics.median(ms):7.1f} "
              f"{max(ms):7.1f}")


if __name__ == "__main__":
    main()
