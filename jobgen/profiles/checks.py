"""Semantic checks of a schema-valid profile: what types alone cannot say.

Each problem is one line, 'field.path: problem', so `jobgen validate` can print them all and
the loader can report the first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from typing import Any

from ..shell import CONTROL, NAME, SAFE_EXPANSION
from .cpus import parse_cpu_list
from .frameworks import variant_for
from .model import EnvVar, FrameworkStack, Profile, Queue, Sourced
from .walltime import is_walltime, parse_walltime

LAUNCHERS_FOR = {
    "pbs": {"pals", "mpich"},
    "cobalt": {"mpich", "openmpi", "pals"},
    "slurm": {"srun"},
    "lsf": {"jsrun"},
    "none": {"torchrun", "mpich", "openmpi"},
}
MASK_VARIABLES = {
    "nvidia": {"CUDA_VISIBLE_DEVICES"},
    "amd": {"ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"},
    "intel": {"ZE_AFFINITY_MASK"},
}


def _sourced(obj: Any, path: str) -> Iterator[tuple[str, Sourced]]:
    """Every sourced fact in the profile, with its field path."""
    if isinstance(obj, Sourced):
        yield path, obj
    if is_dataclass(obj):
        for f in fields(obj):
            yield from _sourced(getattr(obj, f.name), f"{path}.{f.name}" if path else f.name)
    elif isinstance(obj, list):
        for i, item in enumerate(obj):
            label = getattr(item, "name", None) or i
            yield from _sourced(item, f"{path}[{label}]")


def _strings(obj: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every string in the profile (dict keys too), with its field path."""
    if isinstance(obj, str):
        yield path, obj
    elif is_dataclass(obj):
        for f in fields(obj):
            yield from _strings(getattr(obj, f.name), f"{path}.{f.name}" if path else f.name)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield f"{path} key", str(key)
            yield from _strings(value, f"{path}[{key}]")
    elif isinstance(obj, list):
        for i, item in enumerate(obj):
            yield from _strings(item, f"{path}[{i}]")


def control_characters(p: Profile) -> list[str]:
    """Profiles are input too: no string may carry a line break or control character, since
    every one of them can reach a script (as a comment, a directive or a word)."""
    return [f"{path}: {text[:60]!r} contains a line break or control character; write it "
            "on one line" for path, text in _strings(p, "") if CONTROL.search(text)]


def check_profile(p: Profile) -> list[str]:
    """Every problem of a schema-valid profile, one line each, in the profile's order."""
    cores = _Cores(p)
    return [
        *control_characters(p),
        *_check_sources(p),
        *_check_node(p, cores),
        *_check_gpu_affinity(p),
        *_check_binding(p, cores),
        *_check_scheduler(p),
        *_check_storage(p),
        *_check_launcher(p),
        *_check_software(p),
        *_check_precision_and_copper(p, cores),
        *_check_machine(p),
    ]


class _Cores:
    """Core lists checked against the node: inside it, off reserved cores, none twice."""

    def __init__(self, p: Profile) -> None:
        node = p.node
        self.total = node.sockets * node.cores_per_socket
        self.reserved = set(node.reserved.cores) if node.reserved else set()

    def check(self, text: str, where: str, out: list[str],
              allow_reserved: bool = False) -> list[int] | None:
        """The cores of `text`; each problem appended to `out`."""
        try:
            cores = parse_cpu_list(text)
        except ValueError as exc:
            out.append(f"{where}: {exc}")
            return None
        total = self.total
        outside = [c for c in cores if c >= total]
        if outside:
            out.append(f"{where}: cores {outside} are outside the node's {total} cores "
                       f"(0-{total - 1})")
        clash = sorted(set(cores) & self.reserved)
        if clash and not allow_reserved:
            out.append(f"{where}: uses reserved cores {clash}; keep ranks off "
                       f"{sorted(self.reserved)}")
        if len(set(cores)) != len(cores):
            out.append(f"{where}: lists a core twice")
        return cores


def _check_sources(p: Profile) -> list[str]:
    """Every fact's source starts with a key of the profile's references."""
    out = []
    for path, fact in _sourced(p, ""):
        key = re.split(r"[\s:]", fact.source.strip(), maxsplit=1)[0]
        if key not in p.references:
            out.append(f"{path}.source: {key!r} is not a key of references "
                       f"(known: {', '.join(sorted(p.references)) or 'none'})")
    return out


def _check_node(p: Profile, cores: _Cores) -> list[str]:
    """Reserved cores and NUMA domains inside the node; devices numbered once each, on
    GPUs, cores and NUMA domains the node has."""
    out: list[str] = []
    node = p.node
    for c in sorted(cores.reserved):
        if c >= cores.total:
            out.append(f"node.reserved.cores: core {c} is outside the node's {cores.total} cores")
    seen_numa: set[int] = set()
    for dom in node.numa:
        got = cores.check(dom.cores, f"node.numa[{dom.id}].cores", out, allow_reserved=True)
        if seen_numa & set(got or []):
            out.append(f"node.numa[{dom.id}].cores: overlaps another NUMA domain")
        seen_numa |= set(got or [])
    gpus = node.gpus
    if gpus is None:
        return out
    ndev = p.devices_per_node
    if (gpus.subdevices_per_gpu > 1) != (gpus.subdevice_name is not None):
        out.append("node.gpus.subdevice_name: set it exactly when subdevices_per_gpu > 1")
    if not gpus.devices:
        return out
    indices = sorted(d.index for d in gpus.devices)
    if indices != list(range(ndev)):
        out.append(f"node.gpus.devices: indices must be 0..{ndev - 1} once each "
                   f"({gpus.count} GPUs x {gpus.subdevices_per_gpu}), got {indices}")
    for d in gpus.devices:
        where = f"node.gpus.devices[{d.index}]"
        if d.gpu >= gpus.count or d.subdevice >= gpus.subdevices_per_gpu:
            out.append(f"{where}: gpu {d.gpu}.{d.subdevice} does not exist on this node")
        if d.cores:
            cores.check(d.cores, f"{where}.cores", out)
        if d.numa is not None and node.numa and d.numa not in {n.id for n in node.numa}:
            out.append(f"{where}.numa: no NUMA domain {d.numa} in node.numa")
    return out


def _check_gpu_affinity(p: Profile) -> list[str]:
    """How ranks get their device fits the node's GPUs and their vendor."""
    out = []
    add = out.append
    aff, gpus, ndev = p.gpu_affinity, p.node.gpus, p.devices_per_node
    if gpus is None and aff.scheme != "none":
        add("gpu_affinity.scheme: a node without GPUs needs scheme 'none'")
    if gpus is not None and aff.scheme == "none":
        add("gpu_affinity.scheme: a node with GPUs needs scheme 'mask' or 'all_visible'")
    if aff.scheme == "mask":
        allowed = MASK_VARIABLES.get(gpus.vendor, set()) if gpus else set()
        if aff.variable not in allowed:
            add(f"gpu_affinity.variable: {aff.variable!r} does not select "
                f"{gpus.vendor if gpus else 'any'} devices (use one of {sorted(allowed)})")
    if aff.order and sorted(aff.order) != list(range(ndev)):
        add(f"gpu_affinity.order: must list each of the {ndev} devices once, got {aff.order}")
    if aff.hierarchy and (gpus is None or gpus.vendor != "intel"):
        add("gpu_affinity.hierarchy: FLAT/COMPOSITE applies to Intel GPUs only")
    if aff.order and aff.scheme != "mask":
        add("gpu_affinity.order: only a mask can reorder devices; with every device visible "
            "the program selects device LOCAL_RANK itself")
    if aff.whole_gpu is not None:
        if gpus is None or gpus.subdevices_per_gpu < 2:
            add("gpu_affinity.whole_gpu: needs GPUs with sub-devices (tiles or GCDs)")
        for var in aff.whole_gpu.env:
            out.extend(_check_env(var, "gpu_affinity.whole_gpu.env"))
    return out


def _check_binding(p: Profile, cores: _Cores) -> list[str]:
    """Each binding recipe: one per rank count, one core list per rank, no core twice, no
    more ranks than the devices allow."""
    out: list[str] = []
    ndev = p.devices_per_node
    sharing = p.device_sharing
    limit = ndev * max([1, *(sharing.ranks_per_device if sharing else [])]) if ndev \
        else cores.total
    seen_recipes: set[tuple[int, str | None]] = set()
    for r in p.cpu_binding.recipes:
        where = f"cpu_binding.recipes[{r.ranks_per_node}]"
        key = (r.ranks_per_node, r.framework)
        if key in seen_recipes:
            out.append(f"{where}: two recipes for {r.ranks_per_node} ranks per node")
        seen_recipes.add(key)
        if len(r.cpus) != r.ranks_per_node:
            out.append(f"{where}.cpus: {len(r.cpus)} lists for {r.ranks_per_node} ranks")
        used: dict[int, int] = {}
        for i, text in enumerate(r.cpus):
            for c in cores.check(text, f"{where}.cpus[{i}]", out) or []:
                if c in used:
                    out.append(f"{where}.cpus[{i}]: core {c} is also bound to rank {used[c]}")
                used[c] = i
        if r.ranks_per_node > limit:
            out.append(f"{where}: {r.ranks_per_node} ranks exceed the {limit} the devices allow")
    return out


def _check_scheduler(p: Profile) -> list[str]:
    """The launcher runs under this scheduler; its queues and resources are its dialect's."""
    out = []
    add = out.append
    sched = p.scheduler
    if p.launcher.dialect not in LAUNCHERS_FOR[sched.dialect]:
        add(f"launcher.dialect: {p.launcher.dialect!r} does not run under a "
            f"{sched.dialect!r} scheduler (use one of {sorted(LAUNCHERS_FOR[sched.dialect])})")
    if sched.dialect == "none" and sched.queues:
        add("scheduler.queues: a profile without a scheduler has no queues")
    if sched.dialect != "none" and not sched.queues:
        add("scheduler.queues: list at least one queue with its limits")
    if not is_walltime(sched.default_walltime):
        add(f"scheduler.default_walltime: {sched.default_walltime!r} is not HH:MM:SS")
    out.extend(_check_queues(p))
    if sched.filesystems:
        extra = sorted(set(sched.filesystems.default) - set(sched.filesystems.valid))
        if extra:
            add(f"scheduler.filesystems.default: {extra} not in valid filesystems")
    if sched.dialect != "pbs" and (sched.filesystems or sched.system_resource):
        add("scheduler: filesystems and system_resource are PBS (ALCF) resources")
    if sched.alloc_flags and sched.dialect != "lsf":
        add("scheduler.alloc_flags: only LSF has -alloc_flags")
    return out


def _check_queues(p: Profile) -> list[str]:
    """Each queue once, its limits readable and consistent, an unknown limit explained."""
    out: list[str] = []
    names: set[str] = set()
    for q in p.scheduler.queues:
        where = f"scheduler.queues[{q.name}]"
        if q.name in names:
            out.append(f"{where}: queue defined twice")
        names.add(q.name)
        if q.max_nodes is not None and q.min_nodes > q.max_nodes:
            out.append(f"{where}: min_nodes {q.min_nodes} is above max_nodes {q.max_nodes}")
        if (q.max_nodes is None or q.max_walltime is None) and not q.unconfirmed:
            out.append(f"{where}: a limit left unknown (null) must say why in 'unconfirmed'")
        if q.min_walltime is not None and not is_walltime(q.min_walltime):
            out.append(f"{where}.min_walltime: {q.min_walltime!r} is not HH:MM:SS")
        if q.max_walltime is None:
            continue
        if not is_walltime(q.max_walltime):
            out.append(f"{where}.max_walltime: {q.max_walltime!r} is not HH:MM:SS")
            continue
        out.extend(_check_walltime_limits(q, where))
    return out


def _check_walltime_limits(q: Queue, where: str) -> list[str]:
    out = []
    previous = 0
    for lim in q.walltime_limits:
        if not is_walltime(lim.max_walltime):
            out.append(f"{where}.walltime_limits: {lim.max_walltime!r} is not HH:MM:SS")
        elif parse_walltime(lim.max_walltime) > parse_walltime(q.max_walltime or ""):
            out.append(f"{where}.walltime_limits: {lim.max_walltime} exceeds the queue's "
                       f"{q.max_walltime}")
        if lim.max_nodes <= previous:
            out.append(f"{where}.walltime_limits: max_nodes must increase")
        previous = lim.max_nodes
    return out


def _check_launcher(p: Profile) -> list[str]:
    """The launcher's signal command, rendezvous host list and rank variables."""
    out = []
    rs = p.launcher.signal_ranks
    if rs and "SIGNUM" not in rs.command:
        out.append("launcher.signal_ranks.command: name the signal's place with the word SIGNUM")
    master = p.launcher.master
    if master.method == "hostfile" and not master.hostfile:
        out.append("launcher.master.hostfile: method 'hostfile' needs the host-list variable")
    for v in [p.launcher.rank_env.rank, p.launcher.rank_env.local_rank]:
        if not NAME.fullmatch(v):
            out.append(f"launcher.rank_env: {v!r} is not a variable name")
    return out


def _check_software(p: Profile) -> list[str]:
    """Module commands, environment variables, device sharing and the framework stack."""
    out = []
    add = out.append
    for m in p.modules:
        if (m.action == "purge") == (m.name is not None):
            add(f"modules[{m.name or m.action}]: 'purge' takes no name; other actions need one")
    env_lists = [("env", p.env)] + [
        (f"cpu_binding.recipes[{r.ranks_per_node}].extra_env", r.extra_env)
        for r in p.cpu_binding.recipes
    ]
    for prefix, env in env_lists:
        for var in env:
            out.extend(_check_env(var, prefix))
    if p.device_sharing:
        sh = p.device_sharing
        if not p.devices_per_node:
            add("device_sharing: a node without GPUs has no devices to share")
        if sh.method == "alloc_flag" and not (sh.alloc_flag and p.scheduler.dialect == "lsf"):
            add("device_sharing.alloc_flag: method alloc_flag needs an LSF alloc flag")
        if 1 in sh.ranks_per_device:
            add("device_sharing.ranks_per_device: list the shared counts (2 or more) only")
        for var in sh.env:
            out.extend(_check_env(var, "device_sharing.env"))
    if p.framework_stack and not any(m.name == p.framework_stack.module for m in p.modules):
        add(f"framework_stack.module: {p.framework_stack.module!r} is not loaded in modules")
    if p.framework_stack:
        out.extend(_check_releases(p.framework_stack))
    return out


def _check_precision_and_copper(p: Profile, cores: _Cores) -> list[str]:
    out = []
    prec = p.precision
    if prec.default not in prec.supported:
        out.append(f"precision.default: {prec.default} is not in supported {prec.supported}")
    if p.copper:
        for c in p.copper.service_cores:
            if c >= cores.total or c in cores.reserved:
                out.append(f"copper.service_cores: core {c} is outside the node or reserved")
    return out


def _check_machine(p: Profile) -> list[str]:
    """No queue is larger than the machine; a size warning applies below its size."""
    m = p.machine
    if m is None:
        return []
    out = [f"scheduler.queues[{q.name}]: max_nodes {q.max_nodes} is above machine.nodes "
           f"{m.nodes}" for q in p.scheduler.queues if (q.max_nodes or 0) > m.nodes]
    out += [f"machine.size_warnings[{w.above_nodes}]: above_nodes must be below machine.nodes "
            f"{m.nodes}" for w in m.size_warnings if w.above_nodes >= m.nodes]
    return out


def _check_releases(stack: FrameworkStack) -> list[str]:
    """Each listed release must be one its own variant's `since` selects (one truth)."""
    out = []
    for i, v in enumerate(stack.variants):
        for release in v.releases:
            if variant_for(stack, release) is not v:
                out.append(f"framework_stack.variants[{i}].releases: {release} falls under "
                           "another variant's 'since'")
    return out


def _check_storage(p: Profile) -> list[str]:
    """Storage paths are absolute and expand nothing but ${NAME}; an allocation flag is LSF's."""
    out = []
    local, shared = p.node.local_storage, p.node.shared_storage
    paths = [("node.local_storage.path", local.path)] if local else []
    paths += [(f"node.shared_storage.paths[{x}]", x) for x in (shared.paths if shared else [])]
    for where, path in paths:
        if not path.startswith("/") or not SAFE_EXPANSION.fullmatch(path):
            out.append(f"{where}: {path!r} must be an absolute path (${{NAME}} allowed)")
    if local and local.alloc_flag and p.scheduler.dialect != "lsf":
        out.append("node.local_storage.alloc_flag: only LSF has -alloc_flags")
    if local and local.broadcast and p.launcher.dialect not in ("pals", "mpich", "srun"):
        out.append("node.local_storage.broadcast: an MPI broadcast tool runs under mpiexec "
                   f"or srun, not {p.launcher.dialect}")
    return out


def _check_env(var: EnvVar, prefix: str) -> list[str]:
    where = f"{prefix}[{var.name}]"
    out = []
    if not NAME.fullmatch(var.name):
        out.append(f"{where}.name: {var.name!r} is not a valid environment variable name")
    if var.action == "unset" and var.value is not None:
        out.append(f"{where}.value: 'unset' takes no value")
    if var.action != "unset" and var.value is None:
        out.append(f"{where}.value: action {var.action!r} needs a value")
    if var.node_dir and (var.action != "set" or not (var.value or "").startswith(("/", "$"))):
        out.append(f"{where}.node_dir: a node directory is set to an absolute path")
    if var.make_dir and (var.node_dir or var.action != "set"
                         or not (var.value or "").startswith(("/", "$"))):
        out.append(f"{where}.make_dir: a directory made once (not node_dir) is set to an "
                   "absolute path")
    if var.expand and var.value is not None and not SAFE_EXPANSION.fullmatch(var.value):
        out.append(f"{where}.value: an expandable value may only reference ${{NAME}}; "
                   "no $(...), backquotes, quotes or backslashes")
    if var.when and var.when.min_nodes and var.when.max_nodes:
        if var.when.min_nodes > var.when.max_nodes:
            out.append(f"{where}.when: min_nodes is above max_nodes")
    return out
