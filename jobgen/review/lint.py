"""`jobgen lint`: check any job script, generated or hand-written, against a site's rules.

Each rule is one function registered with its id and name; it reads the parsed script
(`scriptparse`) and the site profile and returns findings with a line, a message and a fix.
Values a script computes at run time (`$(wc -l < $PBS_NODEFILE)`) cannot be checked and are
skipped, never guessed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..plan.schedulers import PREFIX, walltime_limit
from ..profiles.cpus import MAX_CPUS, format_cpu_list, logical_cpus, parse_cpu_list
from ..profiles.model import EnvVar, Profile, Queue
from ..profiles.walltime import hms
from .scriptparse import (
    PREFIXES,
    Script,
    directive_items,
    launcher_items,
    launcher_name,
    substitute,
)


@dataclass(frozen=True)
class Finding:
    line: int
    rule: str
    name: str
    message: str
    fix: str

    def format(self, path: str) -> str:
        return f"{path}:{self.line}: {self.rule} {self.name}: {self.message} (fix: {self.fix})"

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "rule": self.rule, "name": self.name,
                "message": self.message, "fix": self.fix}


@dataclass(frozen=True)
class Item:
    line: int
    key: str
    value: str


class Context:
    """The script read against one profile, with the numbers the rules share."""

    def __init__(self, script: Script, profile: Profile) -> None:
        self.script = script
        self.profile = profile
        self.dialect = profile.scheduler.dialect
        self.prefix = PREFIX[self.dialect]
        self.items = [
            Item(d.line, key, value)
            for d in script.directives if d.prefix == self.prefix
            for key, value in directive_items(d.body)
        ]
        self.first_line = script.directives[0].line if script.directives else 1
        self.argv = _normalise(script.launch_argv)
        self.flags, self.program = launcher_items(self.argv) if self.argv else ([], [])
        self.launch_line = script.launch_line or 1
        node = profile.node
        self.cores = node.sockets * node.cores_per_socket
        self.logical = self.cores * node.threads_per_core

    def find(self, *keys: str) -> list[Item]:
        return [i for i in self.items if i.key in keys]

    def flag(self, *names: str) -> str | None:
        for key, value in self.flags:
            if key in names:
                return value
        return None

    def core_of(self, cpu: int) -> int:
        node = self.profile.node
        if node.smt_numbering == "blocked":
            return cpu % self.cores
        return cpu // node.threads_per_core

    @property
    def nodes(self) -> int | None:
        keys = {"pbs": ("-l select",), "slurm": ("--nodes", "-N"), "lsf": ("-nnodes",),
                "cobalt": ("-n", "--nodecount")}.get(self.dialect, ())
        for item in self.find(*keys):
            m = re.match(r"^([0-9]{1,9})", item.value)
            if m:
                return int(m.group(1))
        return 1 if self.dialect == "none" else None

    @property
    def ranks_per_node(self) -> int | None:
        d = self.profile.launcher.dialect
        value = None
        if d == "jsrun":
            a, r = _int(self.flag("-a", "--tasks_per_rs")), _int(self.flag("-r", "--rs_per_host"))
            return a * r if a and r else None
        if d == "srun":
            value = self.flag("--ntasks-per-node")
            if value is None:
                found = self.find("--ntasks-per-node")
                value = found[0].value if found else None
        elif d in ("pals", "mpich"):
            value = self.flag("--ppn", "-ppn")
        elif d == "openmpi":
            value = self.flag("-npernode", "--npernode", "-N")
        elif d == "torchrun":
            value = self.flag("--nproc-per-node", "--nproc_per_node")
        return _int(value)

    @property
    def total_ranks(self) -> int | None:
        d = self.profile.launcher.dialect
        if d == "jsrun":
            n, a = _int(self.flag("-n", "--nrs")), _int(self.flag("-a", "--tasks_per_rs"))
            return n * a if n and a else None
        if d == "srun":
            return _int(self.flag("-n", "--ntasks"))
        if d == "torchrun":
            return None
        return _int(self.flag("-n", "-np", "--np"))


def _int(value: str | None) -> int | None:
    """A count or index as written, or None when it is not a plain number of sane size."""
    return int(value) if value is not None and _COUNT.fullmatch(value) else None


def _normalise(argv: list[str]) -> list[str]:
    """jsrun's `-a6` and `-bpacked:7` spell flag and value as one word: split them."""
    if not argv or argv[0].rsplit("/", 1)[-1] != "jsrun":
        return list(argv)
    out = [argv[0]]
    for w in argv[1:]:
        # -n12, -a6, -c42, -g6, -r1, -bpacked:7, -dpacked (not -nnodes, a bsub option)
        m = re.match(r"^-([a-zA-Z])(\d+|(?<=-[bd])packed\S*|(?<=-b)rs|(?<=-b)none)$", w)
        out += [f"-{m.group(1)}", m.group(2)] if m else [w]
    return out


_COUNT = re.compile(r"[0-9]{1,9}")
RuleFn = Callable[[Context], list[Finding]]
RULES: list[tuple[str, str, RuleFn]] = []


def rule(rule_id: str, name: str) -> Callable[[Callable[..., Any]], RuleFn]:
    def register(fn: Callable[..., Any]) -> RuleFn:
        def run(ctx: Context) -> list[Finding]:
            return [Finding(line, rule_id, name, msg, fix) for line, msg, fix in fn(ctx)]

        RULES.append((rule_id, name, run))
        return run

    return register


Hit = tuple[int, str, str]


# ---------------------------------------------------------------- scheduler directives
@rule("SCHED001", "foreign-directives")
def _foreign(ctx: Context) -> list[Hit]:
    out = []
    for d in ctx.script.directives:
        if d.prefix != ctx.prefix:
            own = ctx.prefix or "no scheduler directives"
            out.append((d.line, f"{d.prefix} is {PREFIXES[d.prefix]} syntax; "
                        f"{ctx.profile.name} uses {ctx.dialect} ({own})",
                        f"write it as a {own} line or remove it"))
    return out


_ACCOUNT = {"pbs": ("-A",), "slurm": ("--account", "-A"), "lsf": ("-P",), "cobalt": ("-A",)}


@rule("SCHED002", "account-required")
def _account(ctx: Context) -> list[Hit]:
    keys = _ACCOUNT.get(ctx.dialect)
    if not keys or not ctx.profile.scheduler.account_required or ctx.find(*keys):
        return []
    return [(ctx.first_line, f"{ctx.profile.name} rejects jobs without a project to charge",
             f"add `{ctx.prefix} {keys[0]}{'=' if keys[0].startswith('--') else ' '}PROJECT`")]


_WALLTIME = {"pbs": ("-l walltime",), "slurm": ("--time", "-t"), "lsf": ("-W",),
             "cobalt": ("-t",)}


@rule("SCHED003", "walltime-required")
def _walltime_required(ctx: Context) -> list[Hit]:
    keys = _WALLTIME.get(ctx.dialect)
    if not keys or ctx.dialect == "slurm" or ctx.find(*keys):
        return []
    example = {"pbs": "-l walltime=01:00:00", "lsf": "-W 1:00", "cobalt": "-t 01:00:00"}
    return [(ctx.first_line, f"no walltime: {ctx.profile.name} requires one",
             f"add `{ctx.prefix} {example[ctx.dialect]}`")]


@rule("PBS001", "one-select")
def _one_select(ctx: Context) -> list[Hit]:
    if ctx.dialect != "pbs":
        return []
    selects = ctx.find("-l select")
    return [(i.line, "a second select: PBS takes one select statement per job (later ones "
             "replace or conflict with the first)", "merge the chunks into one "
             "`-l select=N:...` line") for i in selects[1:]]


@rule("PBS002", "select-required")
def _select_required(ctx: Context) -> list[Hit]:
    if ctx.dialect != "pbs" or ctx.find("-l select"):
        return []
    system = ctx.profile.scheduler.system_resource
    return [(ctx.first_line, "no `-l select`: the job gets no nodes to run on",
             f"add `#PBS -l select=NODES{':system=' + system if system else ''}`")]


@rule("ALCF002", "filesystems-required")
def _filesystems(ctx: Context) -> list[Hit]:
    fs = ctx.profile.scheduler.filesystems
    if ctx.dialect != "pbs" or fs is None or ctx.find("-l filesystems"):
        return []
    return [(ctx.first_line, f"{ctx.profile.name} refuses jobs without "
             "`-l filesystems` (\"Resource: filesystems is required\")",
             f"add `#PBS -l filesystems={':'.join(fs.default)}`")]


@rule("ALCF003", "unknown-filesystem")
def _unknown_fs(ctx: Context) -> list[Hit]:
    fs = ctx.profile.scheduler.filesystems
    if ctx.dialect != "pbs" or fs is None:
        return []
    out = []
    for item in ctx.find("-l filesystems"):
        bad = [x for x in re.split(r"[:,]", item.value) if x and x not in fs.valid]
        if bad:
            out.append((item.line, f"filesystem {', '.join(bad)} does not exist on "
                        f"{ctx.profile.name}", f"use any of {', '.join(fs.valid)} joined by ':'"))
    return out


@rule("LSF001", "nnodes")
def _nnodes(ctx: Context) -> list[Hit]:
    if ctx.dialect != "lsf":
        return []
    out = [(i.line, "`--nnodes` is not a bsub option: LSF spells it with one hyphen",
            "write `#BSUB -nnodes N`") for i in ctx.find("--nnodes")]
    out += [(i.line, "`-n` asks LSF for job slots, not nodes; jsrun then finds no resource sets",
             "write `#BSUB -nnodes N`") for i in ctx.find("-n")]
    return out


@rule("LSF002", "one-alloc-flags")
def _alloc_flags(ctx: Context) -> list[Hit]:
    if ctx.dialect != "lsf":
        return []
    flags = ctx.find("-alloc_flags")
    return [(i.line, "a second -alloc_flags line: LSF keeps only one",
             "put every flag in one quoted line, e.g. -alloc_flags \"gpumps smt4\"")
            for i in flags[1:]]


def _walltime_seconds(dialect: str, value: str) -> tuple[int | None, str | None]:
    """Seconds, or the problem with the value (format or arithmetic)."""
    v = value.strip()
    if dialect == "lsf":
        m = re.fullmatch(r"(?:([0-9]{1,9}):)?([0-9]{1,9})", v)
        if not m:
            return None, "format"
        h, mi = int(m.group(1) or 0), int(m.group(2))
        if m.group(1) is not None and mi >= 60:
            return None, f"{mi} minutes after the hours"
        return (h * 60 + mi) * 60, None
    if dialect == "slurm":
        m = re.fullmatch(r"(?:([0-9]{1,9})-)?([0-9]{1,9})(?::([0-9]{1,9}))?(?::([0-9]{1,9}))?", v)
        if not m:
            return None, "format"
        days = int(m.group(1) or 0)
        parts = [int(x) for x in m.groups()[1:] if x is not None]
        if m.group(1) is not None:  # D-HH[:MM[:SS]]
            parts += [0] * (3 - len(parts))
            h, mi, s = parts
        elif len(parts) == 1:
            h, mi, s = 0, parts[0], 0
        elif len(parts) == 2:
            h, mi, s = 0, parts[0], parts[1]
        else:
            h, mi, s = parts
        if (len(parts) >= 2 and (mi >= 60 and len(parts) == 3 or s >= 60)) or \
                (m.group(1) is not None and h >= 24):
            return None, "a field out of range"
        return ((days * 24 + h) * 60 + mi) * 60 + s, None
    if dialect == "cobalt" and _int(v) is not None:
        return int(v) * 60, None
    m = re.fullmatch(r"([0-9]{1,9}):([0-9]{1,9}):([0-9]{1,9})", v)
    if not m:
        return None, "format"
    h, mi, s = (int(x) for x in m.groups())
    if mi >= 60 or s >= 60:
        return None, f"{mi} minutes" if mi >= 60 else f"{s} seconds"
    return h * 3600 + mi * 60 + s, None


def _walltime_items(ctx: Context) -> list[Item]:
    return ctx.find(*_WALLTIME.get(ctx.dialect, ()))


@rule("LSF003", "walltime-format")
def _lsf_walltime(ctx: Context) -> list[Hit]:
    if ctx.dialect != "lsf":
        return []
    out = []
    for item in _walltime_items(ctx):
        _, problem = _walltime_seconds("lsf", item.value)
        if problem == "format":
            fix = "write [hours:]minutes, e.g. `-W 0:30` or `-W 30`"
            m = re.fullmatch(r"([0-9]{1,9}):([0-9]{1,9}):([0-9]{1,9})", item.value)
            if m:
                mins = int(m.group(1)) * 60 + int(m.group(2)) + (1 if int(m.group(3)) else 0)
                fix = f"write `-W {mins // 60}:{mins % 60:02d}` ([hours:]minutes)"
            out.append((item.line, f"-W {item.value}: LSF takes [hours:]minutes, not HH:MM:SS",
                        fix))
    return out


@rule("WALL002", "walltime-format")
def _walltime_format(ctx: Context) -> list[Hit]:
    if ctx.dialect in ("lsf", "none"):
        return []
    out = []
    for item in _walltime_items(ctx):
        _, problem = _walltime_seconds(ctx.dialect, item.value)
        if problem == "format":
            out.append((item.line, f"walltime {item.value!r} is not a {ctx.dialect} walltime",
                        "write HH:MM:SS, e.g. 01:30:00"))
    return out


@rule("WALL003", "walltime-arithmetic")
def _walltime_arith(ctx: Context) -> list[Hit]:
    out = []
    for item in _walltime_items(ctx):
        _, problem = _walltime_seconds(ctx.dialect, item.value)
        if problem and problem != "format":
            out.append((item.line, f"walltime {item.value} has {problem}: carry them into the "
                        "next field", "write minutes and seconds below 60, e.g. 1:30:00 for "
                        "90 minutes"))
    return out


def _queue(ctx: Context) -> tuple[Item | None, Queue | None]:
    keys = {"slurm": ("--partition", "-p")}.get(ctx.dialect, ("-q",))
    found = ctx.find(*keys)
    if not found:
        return None, None
    item = found[-1]
    return item, next((q for q in ctx.profile.scheduler.queues if q.name == item.value), None)


@rule("QUEUE002", "unknown-queue")
def _unknown_queue(ctx: Context) -> list[Hit]:
    item, queue = _queue(ctx)
    if item is None or queue is not None or not ctx.profile.scheduler.queues or \
            "$" in item.value:
        return []
    names = ", ".join(q.name for q in ctx.profile.scheduler.queues)
    return [(item.line, f"queue {item.value!r} is not a {ctx.profile.name} queue",
             f"use one of {names}")]


@rule("QUEUE001", "nodes-exceed-queue")
def _queue_nodes(ctx: Context) -> list[Hit]:
    item, queue = _queue(ctx)
    nodes = ctx.nodes
    if queue is None or item is None or nodes is None:
        return []
    top = queue.max_nodes
    if nodes < queue.min_nodes or (top is not None and nodes > top):
        other = [q.name for q in ctx.profile.scheduler.queues if q.purpose == "production" and
                 q.min_nodes <= nodes and (q.max_nodes is None or nodes <= q.max_nodes)]
        fix = f"use queue {other[0]}" if other else "change the node count"
        return [(item.line, f"queue {queue.name} takes {queue.min_nodes}-{top or '?'} nodes, "
                 f"the script asks for {nodes}", fix)]
    return []


@rule("WALL001", "walltime-exceeds-queue")
def _queue_walltime(ctx: Context) -> list[Hit]:
    _, queue = _queue(ctx)
    nodes = ctx.nodes
    if queue is None:
        return []
    out = []
    for item in _walltime_items(ctx):
        seconds, _ = _walltime_seconds(ctx.dialect, item.value)
        limit = walltime_limit(queue, nodes or queue.min_nodes)
        if seconds is not None and limit is not None and seconds > limit:
            out.append((item.line, f"walltime {hms(seconds)} is over queue {queue.name}'s "
                        f"limit of {hms(limit)} for {nodes or queue.min_nodes} node(s)",
                        f"ask for {hms(limit)} or less, or another queue"))
    return out


# ---------------------------------------------------------------- ranks and devices
_SHARING_SIGNS = {"mps": "nvidia-cuda-mps-control", "ccs": "ZEX_NUMBER_OF_CCS",
                  "alloc_flag": "gpumps"}


def _max_per_device(ctx: Context) -> int:
    """Ranks a device takes: more than one only where the script turns the site's sharing on."""
    sharing = getattr(ctx.profile, "device_sharing", None)
    if sharing is None:
        return int(getattr(ctx.profile.gpu_affinity, "max_ranks_per_device", 1))
    sign = _SHARING_SIGNS.get(sharing.method)
    if sign is None or sign in ctx.script.text:
        return max([1, *sharing.ranks_per_device])
    return 1


@rule("GPU001", "ranks-exceed-devices")
def _ranks_devices(ctx: Context) -> list[Hit]:
    ndev = ctx.profile.devices_per_node
    rpn = ctx.ranks_per_node
    if not ndev or rpn is None:
        return []
    limit = ndev * _max_per_device(ctx)
    out = []
    if rpn > limit:
        kind = (ctx.profile.node.gpus.subdevice_name or "GPU") if ctx.profile.node.gpus else "GPU"
        out.append((ctx.launch_line, f"{rpn} ranks per node but a {ctx.profile.name} node has "
                    f"{ndev} devices ({kind}s)", f"use {ndev} ranks per node or fewer"))
    if ctx.profile.launcher.dialect == "jsrun":
        g, r = _int(ctx.flag("-g", "--gpu_per_rs")), _int(ctx.flag("-r", "--rs_per_host")) or 1
        if g and g * r > ndev:
            out.append((ctx.launch_line, f"{g * r} GPUs per node requested from jsrun, the node "
                        f"has {ndev}", f"-g {ndev // r} or fewer per resource set"))
    for item in ctx.find("--gpus-per-node"):
        n = _int(item.value.split(":")[-1])
        if n and n > ndev:
            out.append((item.line, f"--gpus-per-node={n} but the node has {ndev}",
                        f"--gpus-per-node={ndev}"))
    return out


def _sharing_fix(ctx: Context) -> str:
    sharing = ctx.profile.device_sharing
    how = (f"; to share on purpose use the site's {sharing.method} sharing "
           "(jobgen render --ranks-per-device N)") if sharing else ""
    return f"give local rank i its own device{how}"


def _mask_for_all(ctx: Context) -> tuple[str, int] | None:
    """The value of the site's device variable that every local rank gets, and its line:
    set once outside the per-rank table, in the wrapper (values it computes from its own
    literal variables are followed) or in the batch script that the ranks inherit."""
    var = ctx.profile.gpu_affinity.variable
    if var is None or any(v == var for v, _, _ in ctx.script.masks.values()):
        return None
    known: dict[str, str] = {}
    in_wrapper = []
    for st in ctx.script.settings:
        if st.in_heredoc and st.value is not None:
            value = substitute(st.value, known)
            known[st.name] = value
            if st.name == var:
                in_wrapper.append((value, st.line))
    if len(in_wrapper) > 1:  # set in several places: per-rank branches, not one value
        return None
    if in_wrapper:
        found = in_wrapper[0]
    else:
        top = ctx.script.exported().get(var)
        found = (top.value, top.line) if top and top.value is not None else None
    return found if found and "$" not in found[0] and "`" not in found[0] else None


@rule("GPU004", "shared-device")
def _shared_device(ctx: Context) -> list[Hit]:
    """Several local ranks narrowed to one device, without the site's way of sharing it."""
    if not ctx.profile.devices_per_node:
        return []
    users: dict[tuple[str, str], list[int]] = {}
    for rank, (var, value, _) in sorted(ctx.script.masks.items()):
        if "$" not in value:
            users.setdefault((var, value), []).append(rank)
    limit = _max_per_device(ctx)
    out = []
    for (var, value), ranks in users.items():
        if len(ranks) > limit:
            out.append((ctx.script.masks[ranks[limit]][2], f"local ranks "
                        f"{', '.join(map(str, ranks))} all get {var}={value}: they share one "
                        f"device and the other devices stay idle", _sharing_fix(ctx)))
    common, rpn = _mask_for_all(ctx), ctx.ranks_per_node
    if common and rpn:
        value, line = common
        seen = len([d for d in value.split(",") if d])
        if rpn > seen * limit:
            out.append((line, f"every local rank gets {ctx.profile.gpu_affinity.variable}="
                        f"{value}: {rpn} ranks per node share {seen} device(s) and the other "
                        "devices stay idle", _sharing_fix(ctx)))
    return out


@rule("RANK001", "rank-arithmetic")
def _rank_arith(ctx: Context) -> list[Hit]:
    nodes, rpn, total = ctx.nodes, ctx.ranks_per_node, ctx.total_ranks
    out = []
    if nodes and rpn and total and total != nodes * rpn:
        out.append((ctx.launch_line, f"{total} ranks in all but {nodes} node(s) x {rpn} per node "
                    f"= {nodes * rpn}", f"launch {nodes * rpn} ranks (-n nodes x ranks per node)"))
    launcher_nodes = _int(ctx.flag("--nodes", "-N")) if ctx.profile.launcher.dialect == "srun" \
        else None
    if nodes and launcher_nodes and launcher_nodes != nodes:
        out.append((ctx.launch_line, f"the launcher asks for {launcher_nodes} node(s), the "
                    f"job has {nodes}", f"--nodes={nodes}"))
    return out


_HIERARCHY_VAR = "ZE_FLAT_DEVICE_HIERARCHY"


@rule("GPU002", "mask-hierarchy")
def _mask_hierarchy(ctx: Context) -> list[Hit]:
    gpus = ctx.profile.node.gpus
    if gpus is None or gpus.vendor != "intel":
        return []
    exported = ctx.script.exported().get(_HIERARCHY_VAR)
    mode = exported.value if exported and exported.value else ctx.profile.gpu_affinity.hierarchy
    out = []
    for _, (var, value, line) in sorted(ctx.script.masks.items()):
        if var != "ZE_AFFINITY_MASK" or "$" in value:
            continue
        composite = "." in value
        if mode == "FLAT" and composite:
            out.append((line, f"ZE_AFFINITY_MASK={value} is COMPOSITE syntax (GPU.tile) but "
                        "the device hierarchy is FLAT, where each tile is one device index",
                        f"use the flat index {_flat(value, gpus.subdevices_per_gpu)}"))
        elif mode == "COMPOSITE" and not composite and (_int(value) or 0) >= gpus.count:
            out.append((line, f"ZE_AFFINITY_MASK={value} is a tile index (FLAT) but the "
                        "hierarchy is COMPOSITE, where indices name whole GPUs",
                        "write GPU.tile, e.g. 0.1, or keep the FLAT hierarchy"))
    return out


def _flat(value: str, subs: int) -> str:
    g, _, t = value.partition(".")
    gpu, tile = _int(g), _int(t)
    return str(gpu * subs + tile) if gpu is not None and tile is not None else "N"


@rule("GPU003", "mask-out-of-range")
def _mask_range(ctx: Context) -> list[Hit]:
    ndev = ctx.profile.devices_per_node
    if not ndev:
        return []
    out = []
    for _, (var, value, line) in sorted(ctx.script.masks.items()):
        for part in value.split(","):
            if (_int(part) or 0) >= ndev:
                out.append((line, f"{var}={value}: device {part} does not exist on a node with "
                            f"{ndev} devices (0-{ndev - 1})", f"use a device index below {ndev}"))
    return out


# ---------------------------------------------------------------- CPU binding
def rank_cpus(ctx: Context) -> list[list[int]] | None:
    """The logical CPUs each local rank is bound to, as the launcher line says."""
    d = ctx.profile.launcher.dialect
    if d in ("pals", "srun"):
        bind = ctx.flag("--cpu-bind", "--cpu_bind")
        if bind is None or "$" in bind:
            return None
        bind = re.sub(r"^(?:verbose|v|quiet|q),", "", bind)
        try:
            if bind.startswith("list:"):
                return [parse_cpu_list(x) for x in bind[5:].split(":")]
            if re.match(r"^mask_cpu[:=]", bind):
                return [_mask_bits(m) for m in bind[9:].split(",")]
            if re.match(r"^map_cpu[:=]", bind):
                return [[int(x)] for x in bind[8:].split(",")]
        except ValueError:
            return None
        if bind == "depth":
            depth, rpn = _int(ctx.flag("--depth", "-d")), ctx.ranks_per_node
            free = [c for c in range(ctx.logical) if c not in _reserved_cpus(ctx)]
            if depth and rpn and depth * rpn <= len(free):  # more: CPU006's
                # Depth blocks fill the CPUs the job may use: the OS-reserved ones are not in
                # its cpuset (Aurora's docs show rank 0 on HWT 1-8 with core 0 reserved).
                return [free[i * depth:(i + 1) * depth] for i in range(rpn)]
        return None
    if d == "mpich":
        bind = ctx.flag("-bind-to", "--bind-to")
        if bind and bind.startswith("user:"):
            try:
                return [[int(c) for c in part.split("+")] for part in bind[5:].split(",")]
            except ValueError:
                return None
    return None


def _mask_bits(text: str) -> list[int]:
    if len(text) > MAX_CPUS // 4 + 2:
        raise ValueError(f"mask {text[:20]}... is wider than any node")
    value = int(text, 16)
    return [i for i in range(value.bit_length()) if value >> i & 1]


def _reserved_cpus(ctx: Context) -> set[int]:
    node = ctx.profile.node
    if node.reserved is None:
        return set()
    return set(logical_cpus(node.reserved.cores, ctx.cores, node.threads_per_core,
                            node.smt_numbering, True))


@rule("CPU003", "outside-node")
def _outside(ctx: Context) -> list[Hit]:
    out = []
    lists = rank_cpus(ctx)
    for rank, cpus in enumerate(lists or []):
        bad = [c for c in cpus if c >= ctx.logical]
        if bad:
            out.append((ctx.launch_line, f"local rank {rank} is bound to CPU "
                        f"{format_cpu_list(bad)}, but a {ctx.profile.name} node has CPUs "
                        f"0-{ctx.logical - 1}", "bind to CPUs that exist on the node"))
    return out


@rule("CPU001", "reserved-core")
def _reserved(ctx: Context) -> list[Hit]:
    reserved = _reserved_cpus(ctx)
    out = []
    for rank, cpus in enumerate(rank_cpus(ctx) or []):
        bad = sorted(set(cpus) & reserved)  # CPUs beyond the node: CPU003
        if bad:
            node = ctx.profile.node
            cores = format_cpu_list(node.reserved.cores) if node.reserved else ""
            out.append((ctx.launch_line, f"local rank {rank} is bound to CPU "
                        f"{format_cpu_list(bad)}, reserved for the OS on {ctx.profile.name} "
                        f"(cores {cores} and their SMT siblings)",
                        "bind to other cores; `jobgen render` computes lists clear of them"))
    return out


@rule("CPU002", "overlapping-cores")
def _overlap(ctx: Context) -> list[Hit]:
    owner: dict[int, int] = {}
    out = []
    for rank, all_cpus in enumerate(rank_cpus(ctx) or []):
        cpus = [c for c in all_cpus if c < ctx.logical]  # the rest is CPU003's
        shared = sorted({owner[ctx.core_of(c)] for c in cpus if ctx.core_of(c) in owner})
        if shared:
            out.append((ctx.launch_line, f"local rank {rank} shares cores with local rank(s) "
                        f"{', '.join(map(str, shared))}", "give each rank its own cores"))
        for c in cpus:
            owner.setdefault(ctx.core_of(c), rank)
    return out


@rule("CPU004", "bind-list-count")
def _bind_count(ctx: Context) -> list[Hit]:
    lists, rpn = rank_cpus(ctx), ctx.ranks_per_node
    bind = ctx.flag("--cpu-bind", "--cpu_bind") or ""
    if lists is None or rpn is None or bind.endswith("depth") or len(lists) == rpn:
        return []
    return [(ctx.launch_line, f"{len(lists)} CPU lists for {rpn} ranks per node: the launcher "
             "reuses or leaves out lists", f"give exactly {rpn} lists, one per local rank")]


@rule("CPU005", "rank-across-sockets")
def _across_sockets(ctx: Context) -> list[Hit]:
    node = ctx.profile.node
    out = []
    for rank, cpus in enumerate((rank_cpus(ctx) or []) if node.sockets > 1 else []):
        sockets = sorted({ctx.core_of(c) // node.cores_per_socket for c in cpus
                          if c < ctx.logical})
        if len(sockets) > 1:
            out.append((ctx.launch_line, f"local rank {rank} is bound to CPUs "
                        f"{format_cpu_list(cpus)} on sockets {' and '.join(map(str, sockets))}: "
                        "its threads migrate between sockets and their memory",
                        "keep each rank on one socket: --cpu-bind=list with per-socket lists "
                        "(`jobgen render` writes them), or a --depth that divides each socket's "
                        "usable cores"))
    return out


#: What launchers name a rank's index on its node; a wrapper computes its device from these.
_LOCAL_RANK_VARS = ("PMI_LOCAL_RANK", "PALS_LOCAL_RANKID", "SLURM_LOCALID",
                    "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "JSM_NAMESPACE_LOCAL_RANK")


def _device_index(value: str, ctx: Context) -> int | None:
    """The one device a mask value names, as an index into the profile's device list: "3",
    or "GPU.tile" on Intel GPUs (COMPOSITE syntax); None for lists and anything computed."""
    gpus = ctx.profile.node.gpus
    if gpus is None:
        return None
    value = value.strip().strip("\"'")
    index = _int(value)
    if index is None and gpus.vendor == "intel" and re.fullmatch(r"\d+\.\d+", value):
        index = _int(_flat(value, gpus.subdevices_per_gpu))
    return index if index is not None and index < len(gpus.devices) else None


def rank_devices(ctx: Context) -> dict[int, int]:
    """Local rank -> the one device the script narrows it to: from a per-rank table, or from
    the one line of the rank wrapper that computes the device variable from the local rank
    (ALCF's ``gpu=$((num_gpus - 1 - PMI_LOCAL_RANK % num_gpus))``), evaluated for each rank."""
    out = {rank: d for rank, (_, value, _) in ctx.script.masks.items()
           if (d := _device_index(value, ctx)) is not None}
    var, rpn = ctx.profile.gpu_affinity.variable, ctx.ranks_per_node
    wrapper = [st for st in ctx.script.settings if st.in_heredoc and st.value is not None]
    if out or var is None or not rpn or sum(st.name == var for st in wrapper) != 1:
        return out
    names = {*_LOCAL_RANK_VARS, ctx.profile.launcher.rank_env.local_rank}
    for rank in range(min(rpn, ctx.logical)):
        known = dict.fromkeys(names, str(rank))
        for st in wrapper:
            known[st.name] = substitute(st.value or "", known)
            if st.name == var and (d := _device_index(known[var], ctx)) is not None:
                out[rank] = d
    return out


@rule("CPU007", "rank-far-from-device")
def _far_from_device(ctx: Context) -> list[Hit]:
    """A rank bound to cores of one NUMA domain (socket) driving a device attached to another:
    every launch, copy and staged transfer crosses the CPUs' fabric."""
    node = ctx.profile.node
    cpus_of, gpus = rank_cpus(ctx), node.gpus
    if not cpus_of or gpus is None:
        return []
    devices, limit = rank_devices(ctx), _max_per_device(ctx)
    if max(Counter(devices.values()).values(), default=0) > limit or (
            ctx.ranks_per_node or 0) > ctx.profile.devices_per_node * limit:
        return []  # ranks share devices they should not (GPU001/GPU004): that fix comes first
    domains = {dom.id: set(parse_cpu_list(dom.cores)) for dom in node.numa}
    far = []
    for rank, index in sorted(devices.items()):
        if rank >= len(cpus_of):
            continue
        dev = gpus.devices[index]
        near = domains.get(dev.numa) if dev.numa is not None else None
        if near is None and dev.cores:
            near = set(parse_cpu_list(dev.cores))
        cores = {ctx.core_of(c) for c in cpus_of[rank] if c < ctx.logical}
        if near and cores and not cores & near:
            where = f"NUMA {dev.numa}, " if dev.numa is not None else ""
            far.append((rank, f"rank {rank} on cores {format_cpu_list(sorted(cores))} drives "
                        f"device {index} ({where}cores {format_cpu_list(sorted(near))})"))
    if not far:
        return []
    ranks = ", ".join(str(r) for r, _ in far)
    plural = "s" if len(far) > 1 else ""
    return [(ctx.launch_line, f"local rank{plural} {ranks}: the device is on a different NUMA "
             f"domain from the rank's cores ({'; '.join(t for _, t in far)})",
             "give each rank the device next to its cores, or bind it to the cores next to its "
             "device; `jobgen render` pairs them")]


@rule("CPU006", "cores-oversubscribed")
def _oversubscribed(ctx: Context) -> list[Hit]:
    """More cores (or hardware threads) per node asked for than the node has once its
    reserved cores are out: the launcher refuses the step or stacks ranks on the same cores."""
    reserved = len(_reserved_cpus(ctx))
    usable = ctx.cores - reserved // ctx.profile.node.threads_per_core
    d, tasks = ctx.profile.launcher.dialect, ctx.ranks_per_node
    out = []
    if d == "srun":
        item = next(iter(ctx.find("--cpus-per-task", "-c")), None)
        per_task = _int(ctx.flag("--cpus-per-task", "-c")) or (_int(item.value) if item else None)
        if per_task and tasks and per_task * tasks > usable:
            line = item.line if item else ctx.launch_line
            out.append((line, f"{tasks} tasks x --cpus-per-task={per_task} = {tasks * per_task} "
                        f"cores per node, but a {ctx.profile.name} node has {usable} usable",
                        f"--cpus-per-task={usable // tasks} or fewer"))
    if d == "pals":
        depth, threads = _int(ctx.flag("--depth", "-d")), ctx.logical - reserved
        if depth and tasks and depth * tasks > threads:
            out.append((ctx.launch_line, f"{tasks} ranks x --depth={depth} = {tasks * depth} "
                        f"hardware threads per node, but a {ctx.profile.name} node has "
                        f"{threads} usable", f"--depth={threads // tasks} or fewer"))
    if d == "jsrun":
        a, c = _int(ctx.flag("-a", "--tasks_per_rs")), _int(ctx.flag("-c", "--cpu_per_rs"))
        r = _int(ctx.flag("-r", "--rs_per_host")) or 1
        if c and c * r > usable:
            out.append((ctx.launch_line, f"{r} resource set(s) x -c {c} = {c * r} cores per "
                        f"node, but a {ctx.profile.name} node has {usable} usable",
                        f"-c {usable // r} or fewer"))
        m = re.fullmatch(r"packed:(\d+)", ctx.flag("-b", "--bind") or "")
        if a and c and m and a * int(m.group(1)) > c:
            out.append((ctx.launch_line, f"{a} tasks x packed:{m.group(1)} = "
                        f"{a * int(m.group(1))} cores, but the resource set has -c {c}",
                        f"-b packed:{c // a} or fewer"))
    return out


@rule("COPPER001", "copper-service-cores")
def _copper_cores(ctx: Context) -> list[Hit]:
    cu = ctx.profile.copper
    loads = any(re.fullmatch(rf"module load {re.escape(cu.module)}(/\S+)?", text)
                for _, text in ctx.script.modules) if cu else False
    if cu is None or not (loads or cu.launch in ctx.script.text):
        return []
    node = ctx.profile.node
    service = set(logical_cpus(cu.service_cores, ctx.cores, node.threads_per_core,
                               node.smt_numbering, True))
    out = []
    for rank, cpus in enumerate(rank_cpus(ctx) or []):
        bad = sorted(set(cpus) & service)
        if bad:
            out.append((ctx.launch_line, f"local rank {rank} is bound to CPU "
                        f"{format_cpu_list(bad)}, where Copper's daemons run (service cores "
                        f"{format_cpu_list(cu.service_cores)}): {cu.why}",
                        "bind the ranks clear of them; `jobgen render --copper` does"))
    return out


# ---------------------------------------------------------------- launcher dialect
_COMMANDS = {"pals": {"mpiexec", "mpirun"}, "srun": {"srun"}, "jsrun": {"jsrun"},
             "openmpi": {"mpirun", "mpiexec"}, "mpich": {"mpiexec", "mpirun"},
             "torchrun": {"torchrun"}}
_FOREIGN: dict[str, dict[str, str]] = {
    "pals": {"--map-by": "Open MPI", "--bind-to": "Open MPI", "-npernode": "Open MPI",
             "--npernode": "Open MPI", "-x": "Open MPI", "--report-bindings": "Open MPI",
             "--ntasks-per-node": "Slurm srun", "--cpus-per-task": "Slurm srun",
             "-bind-to": "MPICH hydra", "--nrs": "jsrun", "--tasks_per_rs": "jsrun"},
    "srun": {"--ppn": "Cray PALS", "-ppn": "Cray PALS", "--depth": "Cray PALS",
             "--envall": "Cray PALS", "-npernode": "Open MPI", "--npernode": "Open MPI",
             "--map-by": "Open MPI", "--bind-to": "Open MPI", "-x": "Open MPI",
             "--hostfile": "MPI", "-bind-to": "MPICH hydra"},
    "jsrun": {"-nnodes": "bsub", "-W": "bsub", "-P": "bsub", "-alloc_flags": "bsub",
              "-J": "bsub", "-q": "bsub", "-np": "mpirun", "--ppn": "Cray PALS",
              "-ppn": "MPICH", "--map-by": "Open MPI", "--bind-to": "Open MPI",
              "-npernode": "Open MPI", "--cpu-bind": "Cray PALS / srun",
              "--ntasks-per-node": "Slurm srun"},
    "openmpi": {"--ppn": "Cray PALS", "-ppn": "MPICH", "--depth": "Cray PALS",
                "--cpu-bind": "Cray PALS / srun", "--envall": "Cray PALS",
                "--genvall": "MPICH", "-genvall": "MPICH", "--ntasks-per-node": "Slurm srun"},
    "mpich": {"--map-by": "Open MPI", "--bind-to": "Open MPI", "-npernode": "Open MPI",
              "-x": "Open MPI", "--depth": "Cray PALS", "--cpu-bind": "Cray PALS / srun"},
    "torchrun": {"-n": "MPI", "-np": "MPI", "--ppn": "Cray PALS", "--cpu-bind": "Cray PALS"},
}


@rule("LAUNCH001", "wrong-launcher-dialect")
def _launcher_command(ctx: Context) -> list[Hit]:
    if not ctx.argv:
        return []
    command = ctx.argv[0].rsplit("/", 1)[-1]
    d = ctx.profile.launcher.dialect
    own = ctx.profile.launcher.command
    if command == own or launcher_name(command) in _COMMANDS.get(d, {own}):
        return []
    return [(ctx.launch_line, f"`{command}` does not launch ranks on {ctx.profile.name}, "
             f"which uses {ctx.profile.launcher.command} ({d})",
             f"launch with {ctx.profile.launcher.command}")]


@rule("LAUNCH002", "foreign-launcher-flag")
def _launcher_flags(ctx: Context) -> list[Hit]:
    if not ctx.argv or _launcher_command(ctx):
        return []
    d = ctx.profile.launcher.dialect
    foreign = _FOREIGN.get(d, {})
    out = []
    for key, value in ctx.flags:
        if key in foreign:
            out.append((ctx.launch_line, f"`{key}` is a {foreign[key]} option, not one of "
                        f"{ctx.profile.launcher.command} ({d})",
                        f"use the {ctx.profile.launcher.command} spelling; `jobgen render` "
                        "writes it"))
        elif key in ("--cpu-bind", "--cpu_bind") and d in ("pals", "srun"):
            style = re.sub(r"^(?:verbose|v|quiet|q),", "", value)
            if d == "srun" and (style.startswith("list:") or style in ("depth", "numa")):
                out.append((ctx.launch_line, f"--cpu-bind={value} is Cray PALS syntax; srun "
                            "takes map_cpu:, mask_cpu:, cores, ...",
                            "write --cpu-bind=mask_cpu:MASK,... or map_cpu:CPU,..."))
            if d == "pals" and re.match(r"^(?:mask_cpu|map_cpu)", style):
                out.append((ctx.launch_line, f"--cpu-bind={value} is Slurm srun syntax; Cray PALS "
                            "takes list:, depth, core, numa",
                            "write --cpu-bind=list:CPUS:CPUS:..."))
    return out


# ---------------------------------------------------------------- the profile's own facts
def _profile_env(profile: Profile) -> list[EnvVar]:
    """Every variable the profile names: its env, binding recipes and device sharing."""
    out = list(profile.env)
    out += [v for r in profile.cpu_binding.recipes for v in r.extra_env]
    out += list(profile.device_sharing.env) if profile.device_sharing else []
    return out


def _known_names(profile: Profile) -> set[str]:
    names = {v.name for v in _profile_env(profile)}
    names |= {x for x in (profile.gpu_affinity.variable, profile.launcher.rank_env.rank,
                          profile.launcher.rank_env.local_rank,
                          profile.launcher.rank_env.world_size,
                          profile.launcher.rank_env.local_size) if x}
    return names


def _distance(a: str, b: str, limit: int = 2) -> int:
    """Levenshtein distance, stopping once it exceeds `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
        if min(row) > limit:
            return limit + 1
    return row[-1]


@rule("ENV001", "misspelt-variable")
def _misspelt(ctx: Context) -> list[Hit]:
    known = _known_names(ctx.profile)
    by_name = {v.name: v for v in _profile_env(ctx.profile)}
    out = []
    for s in ctx.script.settings:
        if s.name in known or len(s.name) < 8:
            continue
        close = sorted(k for k in known if _distance(s.name, k) <= 2)
        if close:
            why = f" ({by_name[close[0]].why})" if close[0] in by_name else ""
            out.append((s.line, f"{s.name} is not a variable {ctx.profile.name} documents; "
                        f"the profile has {close[0]}{why}", f"rename it to {close[0]}"))
    return out


def _applies(var: EnvVar, nodes: int | None) -> bool:
    """Whether the profile asks for `var` in this script, as far as the script tells."""
    w = var.when
    if var.action == "unset" or w is None:
        return var.action != "unset"
    if w.precision or w.framework:
        return False  # the script does not say its precision or framework
    if nodes is None:
        return False
    return (w.min_nodes is None or nodes >= w.min_nodes) and \
        (w.max_nodes is None or nodes <= w.max_nodes)


def _loads(ctx: Context, module: str) -> bool:
    return any(re.fullmatch(rf"module load(?: \S+)* {re.escape(module)}(?:/\S+)?(?: \S+)*",
                            text) for _, text in ctx.script.modules)


def _family(name: str) -> str:
    """NCCL_SOCKET_IFNAME -> NCCL: the library a variable configures."""
    return name.split("_", 1)[0]


@rule("ENV002", "dropped-variable")
def _dropped(ctx: Context) -> list[Hit]:
    """A member of an essential set (`required`) missing, or a variable missing from a
    library's settings that the script does configure (it sets NCCL_* but not this one)."""
    if not ctx.argv:  # not a launch script: nothing to hold the variables against
        return []
    present = {s.name for s in ctx.script.settings}
    families = {_family(n) for n in present}
    nodes = ctx.nodes
    out = []
    for var in ctx.profile.env:
        if var.name in present or not _applies(var, nodes):
            continue
        if not var.required and _family(var.name) not in families:
            continue
        if var.preset_by and _loads(ctx, var.preset_by):
            continue
        group = f", one of the {var.required}" if var.required else ""
        value = var.value or ""
        out.append((ctx.launch_line, f"{var.name} is not set{group}: {var.why}",
                    f"export {var.name}={value} ({var.source})"))
    return out


# /tmp is each compute node's own (in memory on LUMI, the profile says) on every site.
_NODE_LOCAL = ("/tmp",)


def _node_local_paths(profile: Profile) -> dict[str, str]:
    """Variables the profile keeps on node-local storage, with the path it gives them: a
    `node_dir`, a value under /tmp or the node's local storage, or a reference to one of
    those (MIOPEN_CUSTOM_CACHE_DIR=${MIOPEN_USER_DB_PATH})."""
    local = profile.node.local_storage
    roots = (*_NODE_LOCAL, local.path.split("$", 1)[0].rstrip("/")) if local else _NODE_LOCAL
    out: dict[str, str] = {}
    for var in profile.env:
        value = var.value or ""
        ref = re.fullmatch(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?(/.*)?", value)
        if ref and ref.group(1) in out:
            value = out[ref.group(1)] + (ref.group(2) or "")
        if var.action == "set" and value.startswith("/") and (var.node_dir or any(
                value == r or value.startswith(r + "/") for r in roots)):
            out[var.name] = value
    return out


@rule("ENV003", "node-local-path")
def _node_local(ctx: Context) -> list[Hit]:
    """A path the profile keeps on node-local storage, moved to the shared home or another
    shared filesystem, where every node of the job contends for it."""
    exported = ctx.script.exported()
    by_name = {v.name: v for v in ctx.profile.env}
    out = []
    for name, path in _node_local_paths(ctx.profile).items():
        s = exported.get(name)
        if s is None or not s.value:
            continue
        root = "/" + path.split("/")[1]
        if s.value.startswith(("$HOME", "${HOME}", "~")) or \
                (s.value.startswith("/") and not s.value.startswith(root)):
            out.append((s.line, f"{name}={s.value} leaves node-local {root}: "
                        f"{by_name[name].why}", f"keep it under {root}, e.g. {path}"))
    return out


@rule("MASTER001", "foreign-master-suffix")
def _master_suffix(ctx: Context) -> list[Hit]:
    suffix = ctx.profile.launcher.master.suffix
    value = ctx.script.variables.get("MASTER_ADDR")
    if not suffix or not value:
        return []
    # the suffix after the short name: `${first%%.*}.hsn...` or `$(... | cut -d. -f1).hsn...`
    m = re.search(r"[)}]((?:\.[A-Za-z0-9-]+)+)[\"']?$", value)
    if not m or m.group(1) == suffix:
        return []
    line = next((s.line for s in ctx.script.settings if s.name == "MASTER_ADDR"),
                ctx.launch_line)
    return [(line, f"MASTER_ADDR ends in {m.group(1)}, but {ctx.profile.name}'s nodes are "
             f"{suffix} on the high-speed network: the ranks wait for a host they cannot reach",
             f"append {suffix}")]


@rule("SCHED004", "discouraged-directive")
def _discouraged(ctx: Context) -> list[Hit]:
    out = []
    for d in ctx.profile.scheduler.avoid:
        key = directive_items(d.value)[0][0]
        out += [(i.line, f"`{ctx.prefix} {d.value}`: {d.why}", f"remove it ({d.source})")
                for i in ctx.find(key)]
    return out


@rule("QUEUE003", "queue-directive-missing")
def _queue_directives(ctx: Context) -> list[Hit]:
    """The queue's own directives (LUMI small-g/dev-g: --exclusive, without which the CPU and
    GPU binding does not apply on nodes shared with other jobs) must be in the script."""
    item, queue = _queue(ctx)
    if item is None or queue is None:
        return []
    return [(item.line, f"queue {queue.name} needs `{ctx.prefix} {d.value}`: {d.why}",
             f"add `{ctx.prefix} {d.value}`")
            for d in queue.directives if not ctx.find(directive_items(d.value)[0][0])]


def _framework_markers(profile: Profile) -> dict[str, set[str]]:
    """Variables the profile sets for one framework only: a script exporting one is that
    framework's (TensorFlow's ITEX_*, Horovod's affinity)."""
    seen: dict[str, set[str]] = {}
    for v in profile.env:
        if v.when and v.when.framework:
            seen.setdefault(v.name, set()).add(v.when.framework)
    for r in profile.cpu_binding.recipes:
        for v in r.extra_env:
            seen.setdefault(v.name, set()).add(r.framework or "any")
    out: dict[str, set[str]] = {}
    for name, frameworks in seen.items():
        if len(frameworks) == 1 and "any" not in frameworks:
            out.setdefault(next(iter(frameworks)), set()).add(name)
    return out


@rule("MODULE001", "other-framework-module")
def _framework_module(ctx: Context) -> list[Hit]:
    present = {s.name for s in ctx.script.settings}
    frameworks = {f for f, names in _framework_markers(ctx.profile).items() if names & present}
    if len(frameworks) != 1:
        return []
    (framework,) = frameworks
    out = []
    for m in ctx.profile.modules:
        other = getattr(m, "framework", None)
        if m.action != "load" or not m.name or other in (None, framework):
            continue
        own = [x.name for x in ctx.profile.modules if getattr(x, "framework", None) == framework
               and x.action == "load" and x.name]
        for line, text in ctx.script.modules:
            if re.fullmatch(rf"module load {re.escape(m.name)}(?:/\S+)?", text):
                out.append((line, f"`{text}` is {ctx.profile.name}'s {other} stack, but this "
                            f"script runs {framework}: {m.why}",
                            f"load {', '.join(own) or f'the {framework} module'} instead"))
    return out


# ---------------------------------------------------------------- other vendors
_VENDOR_VARS = {
    "nvidia": re.compile(r"^(CUDA_|NCCL_|NVIDIA_)"),
    "amd": re.compile(r"^(ROCR_|HIP_|HSA_|MIOPEN_|RCCL_)"),
    "intel": re.compile(r"^(ZE_|ZEX_|CCL_|ONEAPI_|IPEX_|SYCL_|ONEAPI_DEVICE_SELECTOR)"),
}
_VENDOR_MODULES = {
    "nvidia": re.compile(r"\b(cuda|cudatoolkit|nvhpc|nccl|craype-accel-nvidia\w*)\b", re.I),
    "amd": re.compile(r"\b(rocm|amd-mixed|craype-accel-amd\w*)\b", re.I),
    "intel": re.compile(r"\b(oneapi|intel_compute_runtime)\b", re.I),
}
# NCCL_* names are what RCCL reads too; ROCm honours CUDA_VISIBLE_DEVICES.
_ALLOWED_ON = {"amd": {"nvidia"}}
_VENDOR_RULE = {"nvidia": ("VENDOR001", "cuda-on-intel"), "amd": ("VENDOR002", "rocm-elsewhere"),
                "intel": ("VENDOR003", "intel-elsewhere")}


def _vendor_hits(ctx: Context, vendor: str) -> list[Hit]:
    gpus = ctx.profile.node.gpus
    if gpus is None or gpus.vendor == vendor or vendor in _ALLOWED_ON.get(gpus.vendor, set()):
        return []
    out = []
    for s in ctx.script.settings:
        if _VENDOR_VARS[vendor].match(s.name):
            out.append((s.line, f"{s.name} is a {vendor.upper()} setting; {ctx.profile.name} has "
                        f"{gpus.vendor.upper()} GPUs ({gpus.model}), so it does nothing or "
                        "misleads", f"remove it{_instead(ctx)}"))
    for line, text in ctx.script.modules:
        if _VENDOR_MODULES[vendor].search(text):
            out.append((line, f"`{text}` loads {vendor.upper()} software on "
                        f"{ctx.profile.name} ({gpus.vendor.upper()} GPUs)", "remove it"))
    return out


def _instead(ctx: Context) -> str:
    var = ctx.profile.gpu_affinity.variable
    return f" (this site selects devices with {var})" if var else ""


@rule("VENDOR001", "cuda-on-intel")
def _cuda_elsewhere(ctx: Context) -> list[Hit]:
    return _vendor_hits(ctx, "nvidia")


@rule("VENDOR002", "rocm-elsewhere")
def _rocm_elsewhere(ctx: Context) -> list[Hit]:
    return _vendor_hits(ctx, "amd")


@rule("VENDOR003", "intel-elsewhere")
def _intel_elsewhere(ctx: Context) -> list[Hit]:
    return _vendor_hits(ctx, "intel")


# ---------------------------------------------------------------- the text itself
@rule("TEXT001", "crlf-line-endings")
def _crlf(ctx: Context) -> list[Hit]:
    line = next((n for n, text in enumerate(ctx.script.lines, 1) if text.endswith("\r")), None)
    if line is None:
        return []
    return [(line, "CRLF line endings: bash reads each \\r as part of the command, so "
             "`#!/bin/bash\\r` and every command fail", "convert with `dos2unix` or "
             "`sed -i 's/\\r$//'`")]


# ---------------------------------------------------------------- entry point
def lint(script: Script, profile: Profile) -> list[Finding]:
    ctx = Context(script, profile)
    findings = [f for _, _, fn in RULES for f in fn(ctx)]
    return sorted(findings, key=lambda f: (f.line, f.rule))


def rule_table() -> list[tuple[str, str]]:
    return [(rule_id, name) for rule_id, name, _ in RULES]
