"""Whole-machine allocations as each scheduler presents them to a batch script (tests and
benchmarks/prelaunch_scale.py): the host-list file or node list, and the job's variables.

Host names follow each site's pattern (Aurora's and Polaris' x-names, LUMI's nidNNNNNN,
Summit's a01n01) and are unique; their number is the site's machine size from its profile
(`machine.nodes`), or, where the profile does not know it, `UNKNOWN_SIZE`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

# No site here is larger than Aurora: a site whose size is not known is run at Aurora's size.
UNKNOWN_SIZE = 10_624
JOBID = {"pbs": "8765432.aurora-pbs-0001.hostmgmt.cm.aurora.alcf.anl.gov", "slurm": "9876543",
         "lsf": "3456789", "cobalt": "654321", "none": ""}
DOMAIN = {"aurora": ".hostmgmt2000.cm.aurora.alcf.anl.gov",
          "sunspot": ".hostmgmt2000.cm.sunspot.alcf.anl.gov",
          "polaris": ".hsn.cm.polaris.alcf.anl.gov"}
LSF_SLOTS = 42  # Summit: LSF lists each compute node once per core slot


def machine_size(profile) -> int:
    """The whole machine in nodes: the profile's machine.nodes, else the largest queue."""
    if profile.machine:
        return profile.machine.nodes
    if profile.scheduler.dialect == "none":
        return 1
    sizes = [q.max_nodes for q in profile.scheduler.queues if q.max_nodes]
    known = [q for q in profile.scheduler.queues if q.max_nodes is None]
    return UNKNOWN_SIZE if known or not sizes else max(sizes)


def host_names(site: str, dialect: str, n: int) -> list[str]:
    if dialect == "slurm":
        return [f"nid{5000 + i:06d}" for i in range(n)]
    if dialect == "lsf":
        return [f"{chr(97 + i // 648)}{i // 18 % 36 + 1:02d}n{i % 18 + 1:02d}" for i in range(n)]
    if dialect == "cobalt":
        return [f"amdgpu{i + 1:05d}" for i in range(n)]
    return [f"x{3000 + i // 128}c{i // 16 % 8}s{i // 2 % 8}b{i % 2}n0{DOMAIN.get(site, '')}"
            for i in range(n)]


def allocation(site: str, dialect: str, n: int, scratch: Path, workdir: Path
               ) -> tuple[dict[str, str], list[str]]:
    """The batch script's environment for an n-node job, and its compute hosts in order."""
    hosts = host_names(site, dialect, n)
    jobid = JOBID[dialect]
    if dialect == "pbs":
        nodefile = scratch / "pbs_nodefile"
        nodefile.write_text("".join(f"{h}\n" for h in hosts))
        return {"PBS_NODEFILE": str(nodefile), "PBS_O_WORKDIR": str(workdir),
                "PBS_JOBID": jobid, "PBS_ENVIRONMENT": "PBS_BATCH"}, hosts
    if dialect == "slurm":
        nodelist = f"nid[{5000:06d}-{5000 + n - 1:06d}]"
        return {"SLURM_JOB_NUM_NODES": str(n), "SLURM_JOB_NODELIST": nodelist,
                "SLURM_NODELIST": nodelist, "SLURM_SUBMIT_DIR": str(workdir),
                "SLURM_JOB_ID": jobid, "SLURM_JOBID": jobid}, hosts
    if dialect == "lsf":
        hostfile = scratch / "lsb_djob_hostfile"
        hostfile.write_text("batch3\n" + "".join(f"{h}\n" * LSF_SLOTS for h in hosts))
        mcpu = " ".join(["batch3 1", *(f"{h} {LSF_SLOTS}" for h in hosts)])
        return {"LSB_DJOB_HOSTFILE": str(hostfile), "LS_SUBCWD": str(workdir),
                "LSB_JOBID": jobid, "LSB_MCPU_HOSTS": mcpu}, hosts
    if dialect == "cobalt":
        nodefile = scratch / "cobalt_nodefile"
        nodefile.write_text("".join(f"{h}\n" for h in hosts))
        return {"COBALT_NODEFILE": str(nodefile), "COBALT_JOBID": jobid,
                "COBALT_JOBSIZE": str(n)}, hosts
    return {}, ["127.0.0.1"]


def expected_master(plan, hosts: list[str]) -> str | None:
    """MASTER_ADDR the site's recipe builds: the first compute host, on the high-speed
    network's name where the site has one; None where torchrun finds its own."""
    if plan.master.method == "localhost":
        return "127.0.0.1" if plan.local_rendezvous else None
    first = hosts[0]
    return first.split(".")[0] + plan.master.suffix if plan.master.suffix else first


def _as_dict(record) -> dict:
    """A profile record (the render path's) or model dataclass (the validator's) as a dict."""
    import dataclasses

    return dataclasses.asdict(record) if dataclasses.is_dataclass(record) else dict(record)


def full_machine_plan(site: str, scratch: Path, command: tuple[str, ...]):
    """The plan of a whole-machine job of `command`. Where no queue takes the whole machine
    (Polaris' prod stops at 496 nodes, LUMI's standard-g at 1024), it goes through the
    route the site documents (a reservation, LUMI's bench partition), written as a by-request
    queue in a user profile that extends the site, as a user given that route would."""
    from jobgen.errors import JobgenError
    from jobgen.plan.build import Request, build_plan
    from jobgen.profiles.load import load_profile

    profile = load_profile(site).profile
    nodes = machine_size(profile)
    account = None if site.startswith("local") else "proj"
    request = Request(site=site, nodes=nodes, account=account, command=command)
    try:
        return build_plan(load_profile(site), request)
    except JobgenError:
        route = profile.machine.full_machine if profile.machine else None
        if route is None:
            raise
    # a by-request queue the profile lists for it (LUMI's bench partition), else the route
    for q in profile.scheduler.queues:
        if q.purpose == "by_request" and (q.max_nodes or 0) >= nodes:
            return build_plan(load_profile(site), Request(
                site=site, nodes=nodes, account=account, command=command, queue=q.name))
    queue = {"name": "full-machine", "min_nodes": 1, "max_nodes": nodes,
             "max_walltime": "06:00:00", "purpose": "by_request", "why": route.route,
             "source": route.source}
    user = scratch / "profiles"
    user.mkdir(exist_ok=True)
    (user / f"{site}.yaml").write_text(json.dumps({
        "name": site, "extends": site,
        "scheduler": {"queues": [*map(_as_dict, profile.scheduler.queues), queue]}}))
    saved = os.environ.get("JOBGEN_PROFILE_PATH")
    os.environ["JOBGEN_PROFILE_PATH"] = str(user)
    try:
        return build_plan(load_profile(site), Request(**{
            **{k: getattr(request, k) for k in ("site", "nodes", "account", "command")},
            "queue": "full-machine"}))
    finally:
        if saved is None:
            os.environ.pop("JOBGEN_PROFILE_PATH")
        else:
            os.environ["JOBGEN_PROFILE_PATH"] = saved
