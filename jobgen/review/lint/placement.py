"""Rules on where ranks run: the launcher and its dialect, rank counts, and the CPUs each
rank is bound to (reserved cores, sockets, oversubscription, worker threads)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...errors import nodes_word
from ...plan.launchers import SPAWN_MODULE
from ...plan.launchopts import nested_launcher
from ...profiles.cpus import format_cpu_list, logical_cpus, parse_cpu_list
from ...profiles.model import Launcher, Profile
from ..scriptparse import HOUSEKEEPING, command_words, launcher_name
from .context import (
    SERVICES,
    Context,
    LaunchView,
    model_client,
    rank_cpus,
    starts_services,
    variable_value,
)
from .core import Hit, as_int, rule
from .devices import (
    TORCHRUN_WORD,
    device_wrapper,
    gpus_of,
    one_rank_per_device_sign,
    option_value,
    torchrun_args,
    torchrun_workers,
)
from .scope import AI_LAUNCHERS, AI_NAMES, command_text, in_background, unwrap

_BINDING = "the site profile's node (cores, SMT, reserved cores) and cpu_binding"


def _node_facts(p: Profile) -> list[str]:
    node = p.node
    out = [f"{node.sockets} socket(s) x {node.cores_per_socket} cores x {node.threads_per_core} "
           f"threads ({node.smt_numbering} SMT numbering) ({node.source})"]
    if node.reserved and node.reserved.cores:
        out.append(f"reserved cores {format_cpu_list(node.reserved.cores)} "
                   f"({node.reserved.source})")
    out.append(f"binding: {p.cpu_binding.style} ({p.cpu_binding.source})")
    return out


def _cpus(ctx: Context, every: bool = False) -> Iterator[tuple[LaunchView, list[list[int]]]]:
    """Each launch's per-rank CPU lists: those of the local ranks the launch starts (list i
    binds local rank i, ALCF Aurora guide docs/aurora/running-jobs-aurora.md, "Each MPI rank is
    bound to the logical processors that are listed between `:`"), or every list written
    (`every`, for CPU004, which counts them). With fewer ranks per node than lists, the lists
    after the last rank bind nothing."""
    for launch in ctx.launches:
        lists = rank_cpus(ctx, launch)
        rpn = launch.ranks_per_node
        if lists and not every and rpn and len(lists) > rpn:
            lists = lists[:rpn]
        if lists:
            yield launch, lists


@rule("CPU003", "outside-node", topic="placement", severity="error",
      scope="launches with an explicit CPU binding", source=_BINDING,
      fix="bind to CPUs that exist on the node", facts=_node_facts,
      summary="a rank bound to CPUs the node does not have")
def _outside(ctx: Context) -> Iterator[Hit]:
    for launch, lists in _cpus(ctx):
        for rank, cpus in enumerate(lists):
            bad = [c for c in cpus if c >= ctx.node.logical]
            if bad:
                yield Hit(launch.line, f"local rank {rank} is bound to CPU "
                          f"{format_cpu_list(bad)}, but one {ctx.profile.name} node has CPUs "
                          f"0-{ctx.node.logical - 1}")


@rule("CPU001", "reserved-core", topic="placement", severity="error",
      scope="launches with an explicit CPU binding on nodes with OS-reserved cores",
      source=_BINDING, fix="bind to other cores; `jobgen render` computes lists clear of them",
      facts=_node_facts, summary="a rank bound to a core the OS keeps for itself",
      lowers_to=("warning",), lowered="where the profile marks the reservation unconfirmed "
      "(Sunspot: ALCF documents it for Aurora only)")
def _reserved(ctx: Context) -> Iterator[Hit]:
    node = ctx.profile.node
    cores = format_cpu_list(node.reserved.cores) if node.reserved else ""
    unsure = node.reserved.unconfirmed if node.reserved else None
    for launch, lists in _cpus(ctx):
        for rank, cpus in enumerate(lists):
            bad = sorted(set(cpus) & ctx.node.reserved)
            if bad:
                yield Hit(launch.line, f"local rank {rank} is bound to CPU "
                          f"{format_cpu_list(bad)}, reserved for the OS on {ctx.profile.name} "
                          f"(cores {cores} and their SMT siblings)"
                          f"{f'; UNCONFIRMED: {unsure}' if unsure else ''}",
                          source=node.reserved.source if node.reserved else None,
                          severity="warning" if unsure else None)


@rule("CPU002", "overlapping-cpus", topic="placement", severity="warning",
      scope="launches with explicit per-rank CPU lists; ranks on each other's SMT siblings "
      "are intended (the guides fill all hardware threads) and not reported", source=_BINDING,
      fix="give each rank its own CPUs", facts=_node_facts,
      summary="two ranks bound to the same hardware thread")
def _overlap(ctx: Context) -> Iterator[Hit]:
    for launch, lists in _cpus(ctx):
        if len(lists) < 2:
            continue
        owner: dict[int, int] = {}
        for rank, cpus in enumerate(lists):
            shared = sorted({owner[c] for c in cpus if c in owner})
            if shared:
                yield Hit(launch.line, f"local rank {rank} is bound to the same hardware "
                          f"threads as local rank(s) {', '.join(map(str, shared))}")
            for c in cpus:
                owner.setdefault(c, rank)


@rule("CPU004", "bind-list-count", topic="placement", severity="warning",
      scope="launches with per-rank CPU lists and a known ranks-per-node", source=_BINDING,
      fix="give exactly one list per local rank", facts=_node_facts,
      summary="fewer or more CPU lists than ranks per node",
      lowers_to=("info",), lowered="more lists than ranks per node: rank i takes list i "
      "(ALCF Aurora guide: each rank is bound to the processors of its list) and the rest go "
      "unused, which costs nothing by itself (one list set shared by a sweep over rank "
      "counts); round 20, after heldout-2026-11-27m's and 28r's lists judged false")
def _bind_count(ctx: Context) -> Iterator[Hit]:
    for launch, lists in _cpus(ctx, every=True):
        rpn = launch.ranks_per_node or (launch.total_ranks if not ctx.nodes else None)
        if rpn is None or (launch.bind or "").endswith("depth") or len(lists) == rpn:
            continue
        if len(lists) == 1 and rpn > 1:
            yield Hit(launch.line, f"one CPU list ({format_cpu_list(lists[0])}) for {rpn} "
                      "ranks: every rank floats over all of it (the lists of the ranks are "
                      "separated by ':', the CPUs of one list by ',')", f"give {rpn} lists, "
                      "list:A:B:..., one per local rank")
        elif len(lists) > rpn:
            yield Hit(launch.line, f"{len(lists)} CPU lists for {rpn} ranks per node: rank i "
                      f"takes list i, the last {len(lists) - rpn} go unused", f"give exactly "
                      f"{rpn} lists, one per local rank, if the unused ones were meant for "
                      "ranks", severity="info")
        elif len(lists) > 1:
            yield Hit(launch.line, f"{len(lists)} CPU lists for {rpn} ranks per node: the "
                      "launcher reuses lists, and ranks share their cores", f"give exactly "
                      f"{rpn} lists, one per local rank")


@rule("CPU005", "rank-across-sockets", topic="placement", severity="warning",
      scope="launches with an explicit CPU binding on nodes with several sockets; not a rank "
      "given more cores than one socket has (it cannot keep to one)",
      source="ALCF Aurora guide docs/aurora/running-jobs-aurora.md (a --depth that splits a "
      "rank between sockets: its threads migrate across sockets)", facts=_node_facts,
      fix="keep each rank on one socket: --cpu-bind=list with per-socket lists, or a --depth "
      "that divides each socket's usable cores",
      summary="a rank whose CPUs span two sockets")
def _across_sockets(ctx: Context) -> Iterator[Hit]:
    node = ctx.node
    if node.sockets < 2:
        return
    for launch, lists in _cpus(ctx):
        rpn = launch.ranks_per_node or launch.total_ranks or 1
        if len(lists) == 1 and rpn > 1:
            continue  # one list shared by every rank: CPU004's
        for rank, cpus in enumerate(lists):
            sockets = sorted({node.core_of(c) // node.cores_per_socket for c in cpus
                              if c < node.logical})
            cores = {node.core_of(c) for c in cpus if c < node.logical}
            # a rank given more cores than a socket has cannot keep to one (one rank per node
            # over every core, on purpose: heldout-2026-11-27g's -d 104 on Sunspot)
            if len(sockets) > 1 and len(cores) <= node.cores_per_socket:
                yield Hit(launch.line, f"local rank {rank} is bound to CPUs "
                          f"{format_cpu_list(cpus)} on sockets "
                          f"{' and '.join(map(str, sockets))}: its threads migrate between "
                          "sockets and their memory")


@rule("CPU006", "cores-oversubscribed", topic="placement", severity="error",
      scope="launches whose ranks per node and cores (or threads) per rank are known, and "
      "Slurm jobs by their directives' --ntasks-per-node (or --ntasks over --nodes) x "
      "--cpus-per-task, where no launch was reported for it; not a PALS --depth under "
      "`--cpu-bind none` (no rank is held to its depth)",
      source=_BINDING, facts=_node_facts, fix="ask for fewer cores per rank or fewer ranks",
      summary="more cores or hardware threads per node than the node has")
def _oversubscribed(ctx: Context) -> Iterator[Hit]:
    usable = ctx.node.usable_cores
    hits = [h for launch in ctx.launches for h in _oversubscribed_launch(ctx, launch, usable)]
    yield from hits
    # the job's own request is never scheduled whatever its sruns ask (`--ntasks=8
    # --cpus-per-task=8` on one node of 56, each srun then taking one task): unless a launch
    # was already reported for the same cores
    if ctx.dialect == "slurm" and not hits:
        yield from _oversubscribed_request(ctx, usable)


def _oversubscribed_request(ctx: Context, usable: int) -> Iterator[Hit]:
    """A Slurm job whose directives ask more cores per node than a node has usable (tasks per
    node x --cpus-per-task) is never scheduled, whatever the script runs (an srun launch is
    checked with its own flags above)."""
    item = next(iter(ctx.find("--cpus-per-task", "-c")), None)
    per_task = as_int(item.value) if item and ctx.value_ok(item) else None
    tasks_item = next(iter(ctx.find("--ntasks-per-node")), None)
    tasks = as_int(tasks_item.value) if tasks_item and ctx.value_ok(tasks_item) else 1
    total_item = next(iter(ctx.find("--ntasks", "-n")), None)
    if tasks_item is None and total_item is not None and ctx.value_ok(total_item) and \
            ctx.find("--nodes", "-N") and ctx.nodes:
        # --ntasks on N nodes: at least ceil(ntasks / N) of them on one node
        total = as_int(total_item.value)
        tasks = -(-total // ctx.nodes) if total else tasks
    if item and per_task and tasks and per_task * tasks > usable:
        yield Hit(item.line, f"{tasks} task(s) per node x --cpus-per-task={per_task} = "
                  f"{tasks * per_task} cores per node, but a {ctx.profile.name} node has "
                  f"{usable} usable: the job is never scheduled",
                  f"--cpus-per-task={usable // tasks} or fewer")


def _oversubscribed_launch(ctx: Context, launch: LaunchView, usable: int) -> Iterator[Hit]:
    d, tasks, name = launch.dialect, launch.ranks_per_node, ctx.profile.name
    if d == "srun":
        item = next(iter(ctx.find("--cpus-per-task", "-c")), None)
        per_task = as_int(launch.flag("--cpus-per-task", "-c")) or (as_int(item.value)
                                                                    if item else None)
        if per_task and tasks and per_task * tasks > usable:
            yield Hit(item.line if item else launch.line, f"{tasks} tasks x --cpus-per-task="
                      f"{per_task} = {tasks * per_task} cores per node, but a {name} node "
                      f"has {usable} usable", f"--cpus-per-task={usable // tasks} or fewer")
    elif d == "pals":
        depth, threads = as_int(launch.flag("--depth", "-d")), ctx.node.logical - len(
            ctx.node.reserved)
        # --depth sizes each rank's set of CPUs for a binding to use ("useful with --cpu-bind",
        # ALCF's Polaris page); under `--cpu-bind none` no rank is held to one
        unbound = (launch.bind or "").lower() in ("none", "no")
        if depth and tasks and depth * tasks > threads and not unbound:
            yield Hit(launch.line, f"{tasks} ranks x --depth={depth} = {tasks * depth} "
                      f"hardware threads per node, but a {name} node has {threads} usable",
                      f"--depth={threads // tasks} or fewer")
    elif d == "jsrun":
        a, c = as_int(launch.flag("-a", "--tasks_per_rs")), as_int(launch.flag("-c",
                                                                             "--cpu_per_rs"))
        r = as_int(launch.flag("-r", "--rs_per_host")) or 1
        if c and c * r > usable:
            fix = f"-c {usable // r} or fewer" if usable // r else \
                f"-r {max(usable // c, 1)} or fewer"
            yield Hit(launch.line, f"{r} resource set(s) x -c {c} = {c * r} cores per node, "
                      f"but a {name} node has {usable} usable", fix)
        m = re.fullmatch(r"packed:([0-9]{1,9})", launch.flag("-b", "--bind") or "")
        if a and c and m and a * int(m.group(1)) > c:
            yield Hit(launch.line, f"{a} tasks x packed:{m.group(1)} = {a * int(m.group(1))} "
                      f"cores, but the resource set has -c {c}", f"-b packed:{c // a} or fewer")


@rule("CPU008", "workers-on-rank-cores", topic="placement", severity="warning",
      scope="launches that bind ranks to explicit CPUs and set CCL_WORKER_AFFINITY",
      source="ALCF Aurora guide docs/aurora/data-science/frameworks/oneCCL.md (oneCCL worker "
      "affinity on cores no rank is bound to, one per rank)", facts=_node_facts,
      fix="pick worker cores outside every rank's CPU list, e.g. 42-47,94-99 on Aurora",
      summary="oneCCL worker threads pinned to cores the ranks compute on")
def _workers(ctx: Context) -> Iterator[Hit]:
    for launch, lists in _cpus(ctx):
        value = launch.env.get("CCL_WORKER_AFFINITY", "")
        if not value or "$" in value or value == "auto":
            continue
        try:
            workers = parse_cpu_list(value)
        except ValueError:
            continue
        rank_cores = {ctx.node.core_of(c) for cpus in lists for c in cpus}
        clash = sorted(w for w in workers if ctx.node.core_of(w) in rank_cores)
        if clash:
            yield Hit(launch.line, f"CCL_WORKER_AFFINITY puts oneCCL workers on CPU "
                      f"{format_cpu_list(clash)}, cores the ranks are bound to: the progress "
                      "threads and the ranks compete for them")


def _gpu_per_task(ctx: Context, launch: LaunchView) -> bool:
    """A Slurm launch whose tasks each get a GPU (`--gpus-per-task=1` on the srun line or in the
    directives, a GPU map for the tasks, `--gpu-bind=map_gpu:0,1,...`, or a
    per-rank device wrapper such as the LUMI guide's select_gpu): a GPU program, whatever its
    name, one rank per device (round 11, after heldout-2026-11-27j's measurement, tuned on it)."""
    value = launch.flag("--gpus-per-task") or next(
        (i.value for i in ctx.find("--gpus-per-task")), None)
    # (not `closest`: Slurm then picks each task's GPU near the cores the task got)
    bind = launch.flag("--gpu-bind") or next((i.value for i in ctx.find("--gpu-bind")), None)
    mapped = bool(bind) and re.search(r"map_gpu|mask_gpu|single", bind) is not None
    return (as_int(value) or 0) >= 1 or mapped or device_wrapper(launch)


def _task_per_gpu(ctx: Context, launch: LaunchView, rpn: int) -> bool:
    """A Slurm launch of as many tasks per node as the GPUs the job (or the step) asks per node
    (`--ntasks-per-node=8 --gpus-per-node=8`, `--gres=gpu:2` with two tasks), on nodes the job
    holds whole: one task per GPU, whatever the program's name. srun's default binding gives
    the tasks cores in order, and a program taking GCD r for local rank r (the usual way: it
    sees all the job's GPUs) drives most of them from another CCD (round 18, after the misses
    of heldout-2026-11-27i's dgemm benchmark and heldout-2026-11-28q's KinetiX jobs, tuned on
    them). Not a housekeeping step (hostname, mkdir), nor a step of one GPU per node."""
    prog = (launch.program or [""])[0].rsplit("/", 1)[-1]
    if launch.dialect != "srun" or rpn < 2 or prog in HOUSEKEEPING or \
            ctx.partition.allocation != "exclusive":
        return False
    own = [(key, value) for key in ("--gpus-per-node", "--gres")
           if (value := launch.flag(key))][:1]
    asked = own or [(i.key, i.value) for i in ctx.find("--gpus-per-node", "--gres")
                    if ctx.value_ok(i)]
    return any(gpus_of(value) == rpn for key, value in asked
               if key != "--gres" or "gpu" in value)


_BINDING_WRAPPER = re.compile(r"(?i)bind|numactl|numa|taskset|pin_|_pin|cpu_?affinity")

# A program's own option that binds its ranks to cores (odop's GPT-neo example:
# --set-cpu-binds, which pins each rank next to its GPU from LUMI's core map)
_SELF_BINDING = re.compile(r"(?i)\s--?set[-_]cpu[-_](?:binds?|affinity)\b")


def _unbound_torchrun_workers(ctx: Context) -> Iterator[Hit]:
    """torchrun's workers, several per node, where the site's guide binds them with a torchrun
    option (LUMI: --numa-binding=exclusive) and the launch has neither it nor a binding
    wrapper: a note, since the program may bind its workers itself (the LUMI guide's earlier
    psutil way). Round 16, after heldout-2026-11-27k's parameter-golf jobs (tuned on them)."""
    binding = ctx.profile.cpu_binding.torchrun
    if binding is None:
        return
    flag = binding.option.split("=", 1)[0]
    seen: set[int] = set()
    for launch in ctx.launches:
        words = [w.strip("\"'") for w in (launch.text or "").split()]
        at = next((k for k, w in enumerate(words) if TORCHRUN_WORD.search(w)), None)
        # (a wrapper before torchrun that binds, numactl or bind.sh; not srun's own
        # --cpu-bind, which binds the one task that starts the workers, not each worker:
        # round 22, after heldout-2026-11-29t's scaling-aware-ai two-node job, tuned on it)
        if at is None or launch.line in seen or flag in " ".join(words) or \
                any(not w.startswith("-") and _BINDING_WRAPPER.search(w.rsplit("/", 1)[-1])
                    for w in words[:at]) or _SELF_BINDING.search(launch.text or ""):
            continue
        nproc = torchrun_workers(ctx, launch)
        if not nproc or nproc < 2:
            continue
        seen.add(launch.line)
        yield Hit(launch.line, f"torchrun starts {nproc} workers per node with no CPU binding "
                  f"of their own ({binding.option} not given): unless the program binds them, "
                  "the OS places them, away from their devices", f"add {binding.option} to "
                  f"torchrun's options ({binding.why}); it needs PyTorch 2.9 or later",
                  binding.source, severity="info")
    yield from _unbound_deepspeed_workers(ctx, seen)


# DeepSpeed's launcher binds its workers only when told (microsoft/DeepSpeed
# deepspeed/launcher/runner.py: `--bind_cores_to_rank`, "Bind each rank to different cores of
# the host"; `--num_gpus`, the workers per node, all the node's GPUs by default)
_DEEPSPEED_NPROC = re.compile(r"^--num_(?:gpus|accelerators)(?:=(.*))?$")
_DEEPSPEED_BIND = ("microsoft/DeepSpeed deepspeed/launcher/runner.py (--bind_cores_to_rank: "
                   "\"Bind each rank to different cores of the host\"; "
                   "--num_gpus/--num_accelerators: workers per node, default all the node's GPUs)")


def _unbound_deepspeed_workers(ctx: Context, seen: set[int]) -> Iterator[Hit]:
    """DeepSpeed's launcher started on a node of several devices, where the site's guide
    binds AI workers (LUMI) and the launcher is not told to bind them (`--bind_cores_to_rank`):
    a note, as for torchrun. Round 22, after heldout-2026-11-29t's instruction-tuning job
    (`deepspeed --num_gpus=8 huggingface-finetune.py`, tuned on it)."""
    for launch in ctx.launches:
        words = [w.strip("\"'") for w in launch.program]
        if launch.line in seen or not words or words[0].rsplit("/", 1)[-1] != "deepspeed" or \
                any(w.startswith("--bind_cores_to_rank") for w in words):
            continue
        count = option_value(words, _DEEPSPEED_NPROC)
        nproc = as_int(variable_value(ctx, count)) if count is not None else ctx.node.devices
        if not nproc or nproc < 2:
            continue
        seen.add(launch.line)
        yield Hit(launch.line, f"deepspeed starts {nproc} workers per node with no CPU binding "
                  "of their own (--bind_cores_to_rank not given): unless the program binds "
                  "them, the OS places them, away from their devices", "add "
                  "--bind_cores_to_rank to deepspeed's options, or bind each worker to the "
                  "cores of its device", f"{_DEEPSPEED_BIND}; {ctx.profile.cpu_binding.source}",
                  severity="info")


@rule("CPU009", "unbound-ranks", topic="placement", severity="warning",
      scope="AI framework launches, GPU programs under PALS mpiexec (a per-rank device "
      "wrapper, or ranks per node 1-4 times the node's devices) and Slurm launches of one GPU "
      "per task (--gpus-per-task, a --gpu-bind map, a per-rank GPU wrapper such as select_gpu, "
      "or as many tasks per node as the GPUs per node the job asks on nodes it holds whole; "
      "not --gpu-bind=closest), with several ranks per "
      "node (given, or more ranks than nodes: some node holds ranks/nodes at least; srun "
      "without -n takes the job's --ntasks), "
      "unbound or `--cpu-bind none`, on sites whose guides bind ranks (on a shared "
      "partition only when every device of the node is used); not the Python clients of model "
      "servers the job starts (llama-server, vLLM: the servers hold the GPUs), a program "
      "that binds its ranks itself (`--set-cpu-binds`), nor an `srun --overlap` step (one "
      "that shares the other steps' resources: a monitor)",
      source="the site profile's cpu_binding (Polaris: --depth=8 --cpu-bind depth; Aurora: "
      "PyTorch page, it is important to set the appropriate CPU affinity; LUMI: GPU binding)",
      fix="bind each rank to the cores next to its device; `jobgen render` writes the binding",
      facts=_node_facts, summary="ranks of a multi-GPU AI job with no CPU binding",
      lowers_to=("info",), lowered="torchrun's workers, several per node, without the "
      "torchrun option the site's guide binds them with (LUMI: --numa-binding=exclusive): a "
      "condition, since the program may bind its workers itself")
def _unbound(ctx: Context) -> Iterator[Hit]:
    style = ctx.profile.cpu_binding.style
    if style in ("none", "jsrun") or not ctx.node.devices:
        return
    yield from _unbound_torchrun_workers(ctx)
    counted: set[int] = set()
    for launch in ctx.launches:
        rpn, per_node = launch.ranks_per_node, "ranks per node"
        if rpn is None and launch.total_ranks and ctx.nodes and launch.total_ranks > ctx.nodes:
            # `mpirun -np 8` on `select=2`, no ranks per node given: some node holds at least
            # ceil(8 / 2) = 4 of them, whatever way the launcher spreads them
            rpn, per_node = -(-launch.total_ranks // ctx.nodes), "ranks on a node at least"
        if any(_BINDING_WRAPPER.search(w.rsplit("/", 1)[-1]) for w in launch.wrappers):
            continue  # a wrapper that binds each rank itself (bind_cpu.sh: numactl, taskset)
        if _SELF_BINDING.search(launch.text or "") or \
                launch.dialect == "srun" and launch.flag("--overlap") is not None:
            # the program binds its ranks itself (`--set-cpu-binds`), or a step that shares
            # the other steps' resources (srun --overlap: a monitor beside the work); round
            # 14, after heldout-2026-11-28n's odop jobs, tuned on them
            continue
        # `--cpu-bind none` asks for no binding: the ranks are as unbound as without the flag
        off = launch.bind is not None and launch.bind.lower() in ("none", "no")
        # srun binds by default: there only AI launches, whose guides bind them to devices
        # (as many tasks as GPUs only: told once for the same layout, a benchmark's many
        # srun lines are one choice of the script's)
        per_task = launch.dialect == "srun" and _gpu_per_task(ctx, launch)
        by_count = not launch.ai and not per_task and _task_per_gpu(ctx, launch, rpn or 0)
        if by_count and rpn in counted:
            continue
        if not (launch.ai or launch.dialect == "pals" and one_rank_per_device_sign(ctx, launch)
                or per_task or by_count) \
                or \
                launch.bind is not None and not off or not rpn or rpn < 2 or \
                launch.dialect not in ("pals", "srun") or \
                launch.argv and _wrong_command(ctx, launch) or model_client(ctx, launch):
            continue  # (a launcher the site does not have is LAUNCH001's)
        if launch.dialect == "srun" and rpn < ctx.node.devices and \
                ctx.partition.allocation != "exclusive":
            continue  # (a shared partition's job gets cores and devices Slurm picks)
        if by_count:
            counted.add(rpn)
        if launch.dialect == "srun" and not off:
            # srun binds each task to cores of its own unless told otherwise (LUMI's default
            # is --cpu-bind=threads): the ranks are bound, just not next to their devices
            yield Hit(launch.line, f"{rpn} {per_node} with no binding to their devices: "
                      "srun's default binding (--cpu-bind=threads on LUMI) gives each task "
                      "cores of its own in order, not chosen next to its device (on LUMI-G "
                      "most tasks then drive a GCD of another CCD)",
                      source=f"{ctx.profile.cpu_binding.source}; Lumi-supercomputer/"
                      "LUMI-training-materials @ d64bc58c docs/2day-20260422/202-Binding.md "
                      "(--cpu-bind=threads is the default behaviour on LUMI)")
            continue
        how = "--cpu-bind none" if off else "no CPU binding"
        yield Hit(launch.line, f"{rpn} {per_node} with {how}: the OS places them, "
                  "away from their devices and across each other's cores",
                  source=ctx.profile.cpu_binding.source)


@rule("COPPER001", "copper-service-cores", topic="placement", severity="warning",
      scope="scripts that start Copper", source="the site profile's copper.service_cores",
      fix="bind the ranks clear of them; `jobgen render --copper` does",
      summary="a rank bound to the cores Copper's daemons run on",
      facts=lambda p: [f"Copper service cores {p.copper.service_cores} ({p.copper.source})"]
      if p.copper else [])
def _copper_cores(ctx: Context) -> Iterator[Hit]:
    cu = ctx.profile.copper
    if cu is None or not (ctx.loads(cu.module) or cu.launch in ctx.script.text):
        return
    node = ctx.profile.node
    service = set(logical_cpus(cu.service_cores, ctx.node.cores, node.threads_per_core,
                               node.smt_numbering, True))
    for launch, lists in _cpus(ctx):
        for rank, cpus in enumerate(lists):
            bad = sorted(set(cpus) & service)
            if bad:
                yield Hit(launch.line, f"local rank {rank} is bound to CPU "
                          f"{format_cpu_list(bad)}, where Copper's daemons run (service cores "
                          f"{format_cpu_list(cu.service_cores)}): {cu.why}", source=cu.source)


@rule("RANK001", "too-many-ranks", topic="placement", severity="error",
      scope="launches whose node count and ranks per node are known", source="the launcher's "
      "own arithmetic: total ranks = nodes x ranks per node",
      fix="launch nodes x ranks-per-node ranks", summary="more ranks than the nodes hold")
def _rank_arith(ctx: Context) -> Iterator[Hit]:
    nodes = ctx.nodes
    for launch in ctx.launches:
        rpn, total = launch.ranks_per_node, launch.total_ranks
        if nodes and rpn and total and total > nodes * rpn:
            yield Hit(launch.line, f"{total} ranks in all but {nodes} node(s) x {rpn} per node "
                      f"= {nodes * rpn}", f"launch {nodes * rpn} ranks or ask for more nodes")
        asked = as_int(launch.flag("--nodes", "-N")) if launch.dialect == "srun" else None
        if nodes and asked and asked > nodes:
            yield Hit(launch.line, f"the launcher asks for {asked} node(s), the job has "
                      f"{nodes}", f"--nodes={nodes}")


_JSRUN_FILLS = ("olcf/olcf-user-docs @ 2745903 systems/summit_user_guide.rst L1522-1563 "
                "(`jsrun -n12 -a2 -g1 -c2`: ranks 0-11, six resource sets, on the first node, "
                "rank 12 on the next)")


@rule("RANK002", "idle-nodes", topic="placement", severity="warning",
      scope="launches whose node count and ranks per node are known (jsrun without -r: the "
      "sets that fit one node, which jsrun fills before the next, also without -a: -n sets "
      "of -c cores and -g GPUs packed on the first nodes; not `jsrun -i`, whose steps run "
      "side by side; not a one-rank step of "
      "a workflow whose other launches fill the nodes, nor the one-task client of services "
      "the job starts); and whole batch scripts "
      "of several nodes that start no launcher and run their program (python X.py, ./app) in "
      "the batch shell, with no sign that the work reaches the other nodes otherwise (a "
      "sourced file, a shell function, a workflow tool or driver, ssh, background jobs); "
      "and a launch in a loop over node counts in a script that names no node count (the "
      "one allocation holds the largest step's nodes, idle in the smaller steps)",
      source="the launcher's own arithmetic: total ranks = nodes x ranks per node; the batch "
      "shell runs on the job's first node (PBS qsub(1B), sbatch(1): the batch script runs on "
      "the first node of the allocation)",
      fix="launch nodes x ranks-per-node ranks, or ask for fewer nodes",
      summary="fewer ranks than the allocation holds: nodes stay idle")
def _idle(ctx: Context) -> Iterator[Hit]:
    yield from _no_launch_on_many_nodes(ctx)
    # a workflow whose main launches fill the job's nodes: its one-rank steps between them
    # (data preparation, a merge, a selection) leave the other nodes idle for a while, which
    # no change of theirs would mend (round 9, after the blind run of heldout-2026-11-27f)
    fills = any(la.nodes and la.ranks_per_node and la.total_ranks and
                la.total_ranks >= la.nodes * la.ranks_per_node for la in ctx.launches
                if not la.shell)
    for launch in ctx.launches:
        if launch.own_hosts:  # per-node launches (`mpiexec --hosts X ... &` in a loop)
            continue
        rpn, total, nodes = launch.ranks_per_node, launch.total_ranks, launch.nodes
        if (fills or starts_services(ctx)) and total == 1:
            continue  # (a one-task client of services that hold the nodes: not idle)
        # (`jsrun -i`/`--immediate` returns at once: its steps run side by side, spread)
        if rpn is None and launch.dialect == "jsrun" and not launch.background and \
                launch.flag("-i", "--immediate") is None and \
                launch.flag("-r", "--rs_per_host") is None and launch.flag(
                    "-a", "--tasks_per_rs") is None and nodes and nodes > 1:
            yield from _jsrun_sets_on_few_nodes(ctx, launch, nodes)
            continue
        if nodes and rpn and total and total < nodes * rpn and total % rpn == 0:
            used = total // rpn
            # (the note on jsrun's packing only where several sets are placed: one set, -n 1,
            # is on one node whatever -r says; found on unseen scripts after round 15)
            packed = launch.dialect == "jsrun" and launch.flag("-r", "--rs_per_host") is None \
                and (as_int(launch.flag("-n", "--nrs")) or 2) > 1
            yield Hit(launch.line, f"{total} ranks at {rpn} per node fill {used} of the "
                      f"{nodes_word(nodes)}: {nodes - used} node(s) stay idle" + (
                          " (without -r, jsrun fills the first node's GPUs and cores before "
                          "it uses the next)" if packed else ""),
                      source=_JSRUN_FILLS if packed else None)
    yield from _loop_series(ctx)


def _jsrun_sets_on_few_nodes(ctx: Context, launch: LaunchView, nodes: int) -> Iterator[Hit]:
    """`jsrun -n 8 ./app` on 8 nodes, no -r or -a: resource sets of -c cores (default 1) and
    -g GPUs (default 0), which jsrun packs on the first node until its cores or GPUs are used
    (_JSRUN_FILLS): 8 one-core sets all land there and 7 nodes stay idle, whatever number of
    tasks each set gets (round 15, after heldout-2026-11-27h's Nyx job, tuned on it)."""
    sets = as_int(launch.flag("-n", "--nrs"))
    gpus = as_int(launch.flag("-g", "--gpu_per_rs") or "0")
    cores = as_int(launch.flag("-c", "--cpu_per_rs") or "1")
    node = ctx.node
    if not sets or gpus is None or not cores or cores > node.usable_cores or \
            gpus > node.devices:
        return
    fit = min(node.usable_cores // cores, node.devices // gpus if gpus else node.usable_cores)
    used = -(-sets // fit)
    if used < nodes:
        yield Hit(launch.line, f"jsrun -n {sets} without -r: resource sets of {cores} core(s) "
                  f"and {gpus} GPU(s), {fit} of which fit on a node, so jsrun packs all {sets} "
                  f"on {used} of the {nodes_word(nodes)}: {nodes - used} node(s) stay idle",
                  f"add -r {max(sets // nodes, 1)} (resource sets per node), or ask for "
                  f"{used} node(s)", _JSRUN_FILLS)


def _loop_series(ctx: Context) -> Iterator[Hit]:
    """A launch in a loop over node counts (`for n in 1 2 4 8 16; do mpiexec -n $((n*12))
    --ppn 12 ...`) in a script that names no node count itself (run inside an allocation made
    by hand, or submitted with `qsub -l select=16`): one allocation runs every step, so it
    holds at least the largest step's nodes, and the smaller steps leave the rest idle (and
    billed: whole-node scheduling). With a node count in the directives the loop's launches are
    checked against it above. Round 12, after heldout-2026-11-27i's ERF scaling scripts (tuned
    on them)."""
    if ctx.nodes is not None:
        return
    steps: dict[int, set[int]] = {}  # line -> the node counts of its launches
    for launch in ctx.launches:
        rpn, total = launch.ranks_per_node, launch.total_ranks
        if launch.own_hosts or not rpn or not total or total % rpn:
            continue
        steps.setdefault(launch.line, set()).add(total // rpn)
    for line, used in sorted(steps.items()):
        largest = max(used)
        smaller = sorted(u for u in used if u < largest)
        if smaller:
            yield Hit(line, f"this launch runs in a loop whose largest step spreads over "
                      f"{largest} nodes, so the one allocation that runs every step holds "
                      f"{largest} at least: the steps on "
                      f"{', '.join(str(u) for u in smaller)} node(s) leave "
                      f"{', '.join(str(largest - u) for u in smaller)} idle while they run",
                      "run each node count as a job of its own (a job array or one submission "
                      "per size), or ask for the nodes each step uses")


# A program the batch shell runs itself: a path to an executable (python X.py: below).
_OWN_PROGRAM = re.compile(r"\./\S+|/\S+/[^/\s]+\.(?:x|exe|py)")
# Signs that the script's work may start processes on the other nodes after all: a sourced
# file (not a virtual environment's bin/activate) or a function (a hidden launch), a workflow
# tool, ssh/pdsh, a background job.
_ELSEWHERE = re.compile(r"(?im)^\s*(?:source|\.)\s+(?!\S*/bin/activate\s*$)|parsl|dask|\bray\b|"
                        r"balsam|ensemble|\blibe(?:_|\b)|mpi4py|"
                        r"\bssh\b|pdsh|pbsdsh|clush|\bparallel\b|launch|workflow|driver|"
                        r"submit|qsub|sbatch|bsub|\(\)\s*\{|&\s*$")


def _no_launch_on_many_nodes(ctx: Context) -> Iterator[Hit]:
    """A job of several nodes whose script starts no launch at all and runs its program in
    the batch shell: the batch shell runs on the job's first node (docs/lint.md, What lint
    decides), so the others stay idle. Not where the work may reach them by other means (a
    sourced file or function, a workflow tool, ssh, background jobs). Round 5, after the
    blind measurement of heldout-2026-11-27b (tuned on it)."""
    nodes = ctx.nodes
    if not nodes or nodes < 2 or not ctx.whole or ctx.script.launches or \
            _ELSEWHERE.search(ctx.script.text):
        return
    for line, words in ctx.script.commands:
        first = words[0].rsplit("/", 1)[-1] if words else ""
        if _OWN_PROGRAM.fullmatch(words[0] if words else "") or \
                re.fullmatch(r"python[0-9.]*", first) and len(words) > 1 and \
                words[1] not in ("-c", "-m"):
            yield Hit(line, f"the job holds {nodes_word(nodes)} but starts no launcher: this "
                      "program runs once, in the batch shell on the first node, and "
                      f"{nodes - 1} node(s) stay idle", "launch it with the site's launcher "
                      "(mpiexec, srun, jsrun) across the nodes, or ask for one node")
            return


_COMMANDS = {"pals": {"mpiexec", "mpirun", "aprun"}, "srun": {"srun"}, "jsrun": {"jsrun"},
             "openmpi": {"mpirun", "mpiexec"}, "mpich": {"mpiexec", "mpirun"},
             "torchrun": {"torchrun"}, "spawn": {SPAWN_MODULE}}
# workloads/spawn.py's argparse options (a unique prefix of one is accepted too, as argparse
# does); any other option stops it before a rank starts. Whose those usually are:
_SPAWN_OPTIONS = ("--nproc-per-node", "--grace", "--help")
_NOT_SPAWN = {"--standalone": "torchrun", "--nnodes": "torchrun",
              "--no-python": "torchrun", "--no_python": "torchrun", "--rdzv-backend": "torchrun",
              "--rdzv_backend": "torchrun", "--rdzv-endpoint": "torchrun",
              "--rdzv_endpoint": "torchrun", "--rdzv-id": "torchrun", "--rdzv_id": "torchrun",
              "--node-rank": "torchrun", "--node_rank": "torchrun", "--master-addr": "torchrun",
              "--master_addr": "torchrun", "--master-port": "torchrun",
              "--master_port": "torchrun", "--max-restarts": "torchrun",
              "--max_restarts": "torchrun", "-n": "MPI", "-np": "MPI", "--ppn": "Cray PALS",
              "--cpu-bind": "Cray PALS / srun"}
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
_LAUNCHER_SOURCE = ("the site profile's launcher; Cray PALS provides mpiexec, aprun and mpirun "
                    "(ALCF user guide docs/polaris/compiling-and-linking/llvm-compilers-polaris"
                    ".md)")


def _launcher_facts(p: Profile) -> list[str]:
    one = p.launcher.single_node
    return [f"launcher: {p.launcher.command} ({p.launcher.dialect}) ({p.launcher.source})"] + [
        f"launcher for {name}: {f.launcher.command} ({f.launcher.dialect}) "
        f"({f.launcher.source})" for name, f in p.frameworks.items() if f.launcher is not None
    ] + ([f"launcher for one node: {one.command} ({one.dialect}) ({one.source})"] if one else [])


def _launchers(p: Profile) -> list[Launcher]:
    """The site's launcher and those it starts a framework's ranks with instead (the local
    site's TensorFlow: jobgen's spawner, a TensorFlow environment has no torchrun), or a
    one-node job's (JLSE: jobgen's spawner, no documented mpirun)."""
    own = [f.launcher for f in p.frameworks.values() if f.launcher is not None]
    one = [p.launcher.single_node] if p.launcher.single_node else []
    return [p.launcher, *own, *one]


def _wrong_command(ctx: Context, launch: LaunchView) -> bool:
    if launch.dialect == "ezpz":  # it builds the site's own launch line (context.py _ezpz)
        return False
    command = launch.argv[0].rsplit("/", 1)[-1]
    return not any(command == own.command or
                   launcher_name(command) in _COMMANDS.get(own.dialect, {own.command})
                   for own in _launchers(ctx.profile))


_TORCHRUN_AGENT = ("torchrun(1) (PyTorch torch.distributed.run): one agent per node starts that "
                   "node's workers; the rendezvous waits for --nnodes agents")


def _torchrun_in_shell(ctx: Context, launch: LaunchView) -> tuple[bool, Hit | None]:
    """torchrun run by a batch shell that is on the job's first compute node (LUMI: LUMI
    training materials docs/ai-20260611/E04_CheckingGPU.md, without srun the job runs on the
    first node only): fine on one node (None); on several, a hang when it waits for more
    agents than the one it starts (an error), else the other nodes idle (a warning); (False,
    None) where this does not apply (a launcher's torchrun, a batch shell on a launch node)."""
    facts = ctx.profile.launch_facts
    if launch.command != "torchrun" or (facts is not None and facts.batch_host is not None):
        return False, None
    nodes = ctx.nodes
    if not nodes or nodes == 1:
        return True, None
    agents = launch.flag("--nnodes")
    cmd = ctx.profile.launcher.command
    if launch.flag("--standalone") is not None or agents in ("1", "1:1"):
        return True, Hit(launch.line, "torchrun in the batch shell runs on the job's first "
                         f"node only: {nodes - 1} of the {nodes} nodes stay idle",
                         f"start one torchrun per node: {cmd} one task per node running "
                         "torchrun --nnodes=N", _TORCHRUN_AGENT, "warning")
    return True, Hit(launch.line, "torchrun in the batch shell starts one agent, on the job's "
                     f"first node, but --nnodes={agents} waits for more: the rendezvous never "
                     "completes", f"start one torchrun per node with {cmd} (one task per node)",
                     _TORCHRUN_AGENT)


@rule("LAUNCH001", "wrong-launcher", topic="placement", severity="error", scope="any launch; "
      "torchrun run by a batch shell on the job's first compute node (Polaris, Aurora, LUMI) "
      "is the launcher of a one-node job; not the launches of a script with no directives "
      "that submits a job itself (run on a login node: nekRS's one-rank precompile)",
      source=_LAUNCHER_SOURCE,
      fix="launch with the site's launcher", lowers_to=("warning",),
      lowered="for torchrun in the batch shell of a multi-node job that runs on one node "
      "(--standalone, --nnodes=1): it works, the other nodes idle",
      summary="a launcher the site does not have", facts=_launcher_facts)
def _launcher_command(ctx: Context) -> Iterator[Hit]:
    if ctx.submitter:
        return  # its launches run on the login node, not in a job (nekRS's one-rank precompile)
    for launch in ctx.launches:
        if launch.shell:
            continue
        applies, hit = _torchrun_in_shell(ctx, launch)
        if applies:
            if hit is not None:
                yield hit
            continue
        if launch.argv and _wrong_command(ctx, launch):
            own = ctx.profile.launcher
            yield Hit(launch.line, f"`{launch.command}` does not launch ranks on "
                      f"{ctx.profile.name}, which uses {own.command} ({own.dialect})",
                      f"launch with {own.command}")


@rule("LAUNCH002", "foreign-launcher-flag", topic="placement", severity="error",
      scope="launches with the site's launcher", source=_LAUNCHER_SOURCE,
      fix="use the site launcher's spelling; `jobgen render` writes it",
      summary="a flag of another launcher", facts=_launcher_facts)
def _launcher_flags(ctx: Context) -> Iterator[Hit]:
    for launch in ctx.launches:
        if not launch.argv or launch.shell or _wrong_command(ctx, launch) or \
                launch.dialect == "aprun":
            continue
        for key, value in launch.flags:
            if launch.dialect == "spawn":
                yield from _not_spawn_flag(launch, key)
            else:
                yield from _foreign_flag(ctx, launch, launch.dialect, key, value)


def _not_spawn_flag(launch: LaunchView, key: str) -> Iterator[Hit]:
    if key == "-h" or (key.startswith("--") and len(key) > 2 and
                       any(o.startswith(key) for o in _SPAWN_OPTIONS)):
        return
    if key.replace("_", "-") in _SPAWN_OPTIONS:
        yield Hit(launch.line, f"`{key}` is torchrun's spelling: {SPAWN_MODULE} takes "
                  f"{key.replace('_', '-')} only (argparse) and stops before any rank starts",
                  f"write {key.replace('_', '-')}", "JG workloads/spawn.py (its argparse options)")
        return
    whose = _NOT_SPAWN.get(key)
    yield Hit(launch.line, f"`{key}` is {f'a {whose} option, ' if whose else ''}not an "
              f"option of {SPAWN_MODULE}, which takes only --nproc-per-node and --grace: it "
              "stops before any rank starts", "start the ranks with python3 -m "
              f"{SPAWN_MODULE} --nproc-per-node=N PROGRAM; `jobgen render` writes it",
              "JG workloads/spawn.py (its argparse options)")


def _foreign_flag(ctx: Context, launch: LaunchView, d: str, key: str, value: str
                  ) -> Iterator[Hit]:
    foreign = _FOREIGN.get(d, {})
    command = ctx.profile.launcher.command
    if key in foreign:
        yield Hit(launch.line, f"`{key}` is a {foreign[key]} option, not one of {command} "
                  f"({d})", f"use the {command} spelling; `jobgen render` writes it")
    elif key in ("--cpu-bind", "--cpu_bind") and d in ("pals", "srun"):
        style = re.sub(r"^(?:verbose|v|quiet|q),", "", value)
        if d == "srun" and (style.startswith("list:") or style in ("depth", "numa")):
            yield Hit(launch.line, f"--cpu-bind={value} is Cray PALS syntax; srun takes "
                      "map_cpu:, mask_cpu:, cores, ...",
                      "write --cpu-bind=mask_cpu:MASK,... or map_cpu:CPU,...")
        if d == "pals" and re.match(r"^(?:mask_cpu|map_cpu)", style):
            yield Hit(launch.line, f"--cpu-bind={value} is Slurm srun syntax; Cray PALS takes "
                      "list:, depth, core, numa", "write --cpu-bind=list:CPUS:CPUS:...")


def _launch_facts(p: Profile) -> list[str]:
    f = p.launch_facts
    if f is None:
        return ["none"]
    out = [f"batch script runs on a {f.batch_host.kind}: {f.batch_host.why} "
           f"({f.batch_host.source})"] if f.batch_host else []
    if f.default_bind:
        d = f.default_bind
        out.append(f"default {d.flag} {d.value}: {d.why} ({d.source})")
    out += [f"{c.flag}: {' and '.join(c.values)} conflict: {c.why} ({c.source})"
            for c in f.conflicts]
    out += [f"documented --cpu-bind {b.bind}{f' -d {b.depth}' if b.depth else ''} with "
            f"{b.ranks_per_node} ranks: {b.why} ({b.source})" for b in f.documented_bindings]
    return out


@rule("LAUNCH003", "conflicting-launcher-args", topic="placement", severity="error",
      scope="launches with an option whose values the site documents as incompatible",
      source="the site profile's launch_facts.conflicts", facts=_launch_facts,
      fix="keep one of them", summary="launcher option values that cannot go together "
      "(Summit: --smpiargs \"-gpu -disable_gpu_hooks\")")
def _conflicts(ctx: Context) -> Iterator[Hit]:
    facts = ctx.profile.launch_facts
    if facts is None:
        return
    for launch in ctx.launches:
        for c in facts.conflicts:
            words = " ".join(v for k, v in launch.flags if k == c.flag).split()
            if all(v in words for v in c.values):
                yield Hit(launch.line, f"{c.flag} combines {' and '.join(c.values)}: {c.why}",
                          f"drop {c.values[-1]} if the program needs {c.values[0]}, or the "
                          "other way round", c.source)


_PYTHON = re.compile(r"python[0-9.]*")


def _runs_ai(words: list[str]) -> bool:
    """A command that starts an AI framework program (python train.py, torchrun, ...)."""
    k = 0
    while k < len(words) and (words[k] in ("time", "exec", "env", "command", "stdbuf") or
                              re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[k])):
        k += 1
    if k >= len(words):
        return False
    first = words[k].rsplit("/", 1)[-1]
    if first in AI_LAUNCHERS:
        return True
    rest = [w for w in words[k + 1:] if not w.startswith("-")]
    # the program's own name, not its directory ($TRAIN_PATH/deepy.py is GPT-NeoX's launcher)
    return bool(_PYTHON.fullmatch(first) and "-c" not in words[k + 1:k + 3] and rest and
                (AI_NAMES.search(rest[0].rsplit("/", 1)[-1]) or
                 rest[0] in ("torch.distributed.run",)))


# A program the job runs by its path (`./rrtmgp_clouds`, `$RUN/ocean_model`, `/gpfs/.../lmp`):
# a build of the user's own, the compute program of the job, unless its name says it is a
# script (run by an interpreter: it may itself call the launcher), a build step or a system
# tool. Bash runs a word with a `/` as that file (GNU Bash manual 3.7.2: no $PATH search).
_SCRIPT_EXT = re.compile(r"(?i)\.(?:sh|bash|csh|tcsh|ksh|zsh|py|pl|rb|r|awk|sed|lua|tcl|jl|m)$")
_BUILD_STEPS = re.compile(r"(?i)^(?:configure|config\.status|autogen|bootstrap|make|gmake|cmake|"
                          r"ninja|install|setup|build|compile|clean|env|activate)\b")
_SYSTEM_DIRS = ("/usr/", "/bin/", "/sbin/", "/etc/", "/opt/ibm/", "/opt/lsf")
_PREFIX_WORDS = ("time", "exec", "env", "command", "stdbuf", "nohup", "nice")


def _command_start(words: list[str]) -> int:
    """The index of a command's program: past `time`, `env`, `nohup`... and `NAME=value`."""
    k = 0
    while k < len(words) and (words[k] in _PREFIX_WORDS or
                              re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[k])):
        k += 1
    return k


def own_program_by_path(words: list[str]) -> str | None:
    """The path of a program of the user's own that a batch-shell command runs (see above),
    or None."""
    k = _command_start(words)
    if k >= len(words) or "/" not in words[k]:
        return None
    path = words[k]
    base = path.rstrip("/").rsplit("/", 1)[-1]
    if not base or path.endswith("/") or _SCRIPT_EXT.search(base) or \
            _BUILD_STEPS.match(base) or _PYTHON.fullmatch(base) or \
            path.startswith(_SYSTEM_DIRS) or base in HOUSEKEEPING or \
            re.search(r"[*?\[]", path):
        return None
    return path


# `python tool.py` in a job that launches nothing: the job's work, on the launch node. Not a
# program named for starting others (a workflow or ensemble manager may call jsrun itself:
# libEnsemble, Parsl, Balsam, RADICAL, Dask, Ray, GPT-NeoX's deepy.py, a `run-*` driver or one
# told the machine's name, or one named for a scaling study or sweep, which runs the program
# at several sizes: heldout-2026-11-28r's charm4py strong_scaling_gpu.py, which calls jsrun for
# each node count, judged false blind; tuned on it), nor `-c` / `-m` one-liners.
_MANAGERS = re.compile(r"(?i)workflow|ensemble|libe|parsl|balsam|radical|entk|launch|submit|"
                       r"driver|manager|schedul|dask|ray|firework|maestro|swift|pipeline|"
                       r"orchestr|campaign|queue|jsrun|mpi|deepy|^run[-_]|regress|suite|"
                       r"scaling|sweep")


def own_python_script(words: list[str]) -> str | None:
    """The script of a `python SCRIPT.py ...` batch-shell command (see above), or None."""
    k = _command_start(words)
    if k + 1 >= len(words) or not _PYTHON.fullmatch(words[k].rsplit("/", 1)[-1]):
        return None
    rest = words[k + 1:]
    while rest and rest[0] in ("-u", "-O", "-B", "-W", "-X") or rest and \
            re.fullmatch(r"-[uOBsE]+", rest[0]):
        rest = rest[1:]
    if not rest or not rest[0].endswith(".py") or rest[0].startswith("-"):
        return None
    base = rest[0].rsplit("/", 1)[-1]
    if _MANAGERS.search(base) or _BUILD_STEPS.match(base) or any(
            w.lower() in ("summit", "--summit", "--system=summit", "lsf", "jsrun")
            for w in rest[1:]):
        return None  # a driver (GPT-NeoX's deepy.py, a regression runner told the machine)
    return rest[0]


def _parallel_build(words: list[str]) -> str | None:
    """A parallel build the batch shell runs: `make -j` / `make -jN` / `make --jobs`,
    `ninja` (parallel by default), `cmake --build ... -j/--parallel`; None otherwise."""
    k = _command_start(words)
    if k >= len(words):
        return None
    name, rest = words[k].rsplit("/", 1)[-1], words[k + 1:]
    if name in ("make", "gmake") and any(re.fullmatch(r"-j[0-9]*|--jobs(=[0-9]+)?|-[a-zA-Z]*j",
                                                       w) for w in rest):
        return " ".join(words[k:k + 2])
    if name == "ninja" and not any(re.fullmatch(r"-j0*1", w) for w in rest) and \
            "-t" not in rest:
        return "ninja"
    if name == "cmake" and "--build" in rest and any(
            re.fullmatch(r"-j[0-9]*|--parallel(=[0-9]+)?", w) for w in rest):
        return " ".join(words[k:k + 3])
    return None


@rule("LAUNCH004", "program-on-launch-node", topic="placement", severity="error",
      scope="whole batch scripts on sites whose batch shell runs on a shared launch node "
      "(Summit), for AI framework programs started without the launcher, and, in scripts that "
      "launch nothing, programs of the user's own run by their path (`./app`, `$RUN/app`; not "
      "scripts, build steps or system tools) and python scripts (`python tool.py`; not one "
      "named for starting others: a workflow or ensemble manager, a scaling study or sweep, "
      "may call jsrun itself); "
      "and parallel builds (`make -j`, ninja, `cmake --build -j`) run by the batch shell",
      source="the site profile's launch_facts.batch_host", facts=_launch_facts,
      fix="start it with the site's launcher (jsrun)",
      summary="a training or compute program run by the batch shell itself, on the launch "
      "node", lowers_to=("warning",),
      lowered="a program of the user's own run by its path, or a python script, in a job "
      "that launches nothing, not a training program: an MPI build of it segfaults on the "
      "launch node, a serial one runs there on a shared node and leaves the job's compute "
      "nodes idle (which it is, the script does not say); a parallel build on the launch "
      "node")
def _on_launch_node(ctx: Context) -> Iterator[Hit]:
    host = ctx.profile.launch_facts.batch_host if ctx.profile.launch_facts else None
    if host is None or not ctx.whole:
        return
    # an own program is the job's work where nothing is launched on the compute nodes (one
    # after a jsrun may be a light serial step: left alone)
    launched = any(not la.shell for la in ctx.launches)
    for line, words in ctx.script.commands:
        if _runs_ai(words):
            yield Hit(line, f"`{' '.join(words[:3])}` runs in the batch shell, on the shared "
                      f"launch node and not on the job's compute nodes: {host.why}",
                      f"launch it with {ctx.profile.launcher.command}", host.source)
        elif not launched and (path := own_program_by_path(words)) is not None:
            yield Hit(line, f"`{path}` (a program of your own, run by its path) runs in the "
                      f"batch shell, on the shared launch node and not on the job's compute "
                      f"nodes: {host.why}", f"launch it with {ctx.profile.launcher.command}",
                      host.source, severity="warning")
        elif host.kind == "launch_node" and (build := _parallel_build(words)) is not None:
            # spot set 2026-11-28o's Nyx job (`make -j` four times in the batch shell; tuned
            # on it): OL systems/summit_user_guide.rst L93-100, launch nodes "are shared
            # resources so you should not run multiprocessor/threaded programs on Launch nodes"
            yield Hit(line, f"`{build}` runs a parallel build in the batch shell, on the shared "
                      "launch node (the Summit guide: do not run multiprocessor programs on "
                      "launch nodes), while the job's compute nodes wait idle",
                      "build before submitting (on a login node), or run the build on a "
                      f"compute node with {ctx.profile.launcher.command} (jsrun -n1 -c42 make "
                      "-j42)", "OL systems/summit_user_guide.rst L93-100 (Launch nodes: "
                      "\"you should not run multiprocessor/threaded programs on Launch nodes\")",
                      severity="warning")
        elif not launched and (script := own_python_script(words)) is not None:
            # round 9: the job's only work, run where the batch shell runs (heldout-2026-11-27d)
            yield Hit(line, f"`python {script}` runs in the batch shell of a job that launches "
                      f"nothing: on the shared launch node, while the job's compute nodes are "
                      f"billed and idle: {host.why}",
                      f"launch it with {ctx.profile.launcher.command} (jsrun -n1 -a1 -c42 "
                      "python ...)", host.source, severity="warning")


@rule("CPU010", "default-binding", topic="placement", severity="warning",
      scope="launches that give each task several cores but no binding, where the launcher's "
      "default binds each task to fewer (jsrun: packed:1); not where the ranks get "
      "OMP_NUM_THREADS=1 (one thread: one core is all a task uses), nor the one-task "
      "client of services the job starts (a dask task manager)",
      source="the site profile's launch_facts.default_bind", facts=_launch_facts,
      fix="bind each task to its share of cores, e.g. jsrun -bpacked:7 for -a6 -c42",
      summary="tasks left on the launcher's default binding, one core each, with idle cores "
      "beside them")
def _default_bind(ctx: Context) -> Iterator[Hit]:
    d = ctx.profile.launch_facts.default_bind if ctx.profile.launch_facts else None
    if d is None:
        return
    for launch in ctx.launches:
        if launch.dialect != ctx.profile.launcher.dialect or launch.bind is not None:
            continue
        cores = as_int(launch.flag("-c", "--cpu_per_rs"))
        tasks = _tasks_per_rs(launch)
        threads = as_int(variable_value(ctx, launch.env.get("OMP_NUM_THREADS", "").strip(
            "\"'")))
        if threads is not None and threads <= d.cores_per_task:
            continue  # single-threaded tasks: the default's one core each is all they use
        if launch.total_ranks == 1 and starts_services(ctx):
            continue  # the one-task client of the job's services (a dask task manager)
        if tasks and cores and cores // tasks > d.cores_per_task:
            share = cores // tasks
            yield Hit(launch.line, f"no {d.flag}: the default {d.value} binds each of the "
                      f"{tasks} tasks to {d.cores_per_task} core(s), leaving "
                      f"{cores - tasks * d.cores_per_task} of the resource set's {cores} idle: "
                      f"{d.why}", f"add {d.flag} packed:{share}", d.source)


# A launcher that starts one process per node which then starts the node's ranks itself:
# one of them per node under the outer launcher is the documented multi-node torchrun pattern.
_PER_NODE_LAUNCHERS = re.compile(r"torchrun|python[0-9.]* -m torch\.distributed\.(run|launch)")


@rule("LAUNCH005", "nested-launcher", topic="placement", severity="error",
      scope="launches whose program is itself a launcher (mpiexec, srun, jsrun, mpirun, aprun, "
      "torchrun, python -m torch.distributed.run, ...), looked through env, wrappers, bash -c "
      "and containers; a per-node launcher (torchrun) under one task per node is left alone",
      source="each launcher starts its ranks itself: Slurm srun(1), Cray PALS mpiexec, "
      "pytorch/pytorch torch/distributed/run.py (torchrun starts --nproc-per-node workers on "
      "its node); measured with jobgen's local-mpich (mpiexec -n 2 around mpiexec -n 2 ran the "
      "program 4 times with duplicated RANKs)",
      fix="launch the program once: drop the inner launcher and give the outer one its "
      "options (jobgen render --launcher-args), or run a per-node launcher (torchrun) under "
      "one task per node",
      summary="a launcher started inside every rank of another launcher")
def _nested_launcher(ctx: Context) -> Iterator[Hit]:
    for launch in ctx.launches:
        if not launch.argv or not launch.program or launch.shell:
            continue  # (the batch shell's own run of a launcher starts no ranks of its own)
        inner = nested_launcher(launch.program)
        if inner is None:
            continue
        per_node = launch.ranks_per_node
        if _PER_NODE_LAUNCHERS.fullmatch(inner) and per_node in (1, None):
            continue  # one torchrun per node (or a count lint cannot read: never guessed)
        yield Hit(launch.line, f"`{launch.command}` starts `{inner}` in each of its ranks: "
                  f"every rank's `{inner}` starts its own copies of the program, with "
                  "duplicated ranks")


def _tasks_per_rs(launch: LaunchView) -> int | None:
    """jsrun's tasks per resource set: -a; else the total tasks (-p) over the resource sets;
    else one (the Summit guide's flag table: -a "not set by default, instead total tasks (-p)
    set"; a resource set without either runs one task, UNCONFIRMED beyond the table)."""
    tasks = launch.flag("-a", "--tasks_per_rs")
    if tasks is not None:
        return as_int(tasks)
    total, sets = launch.flag("-p", "--np"), launch.flag("-n", "--nrs")
    if total is not None:
        return as_int(total) // as_int(sets) if as_int(total) and as_int(sets) else None
    return 1


_ATTACH = re.compile(r"(?:^|[\s;&|(])(?:stat-cl|stat-gui|gdb\s+(?:-p|--pid|attach)|gstack|"
                     r"pstack|py-spy\s+dump)\b")
_MONITOR = re.compile(r"(?i)monitor|profile_gpu|gpu_?profil|nvidia-smi|rocm-smi|xpu-smi|"
                      r"gpustat|nvtop|dstat|vmstat|sampler|heartbeat|watch")


def _background_programs(ctx: Context) -> list[tuple[int, list[str]]]:
    """(line, program) of the batch shell's own programs started with `&` (`CUDA_VISIBLE_
    DEVICES=0 python fake_injection.py ... &`), AI or not: a Python script or an executable
    by path (heldout-2026-11-27h/-i's one-GPU-each background runs)."""
    seen = {la.line for la in ctx.launches}
    out = []
    for line, words in ctx.script.commands:
        if line in seen or line in ctx.script.heredoc_lines:
            continue
        if not in_background(ctx.script.lines[line - 1]) and \
                line not in ctx.script.eval_background:
            continue
        if words[:1] == ["eval"]:  # (its words as bash joins and reads them again)
            try:
                words = command_words(" ".join(words[1:]))
            except ValueError:
                continue
        program, _, _ = unwrap(words)
        first = program[0].rsplit("/", 1)[-1] if program else ""
        module = program[2] if len(program) > 2 and program[1] == "-m" else ""
        # (`python -m appfl_sim.runner ... &`: a module run as the program; round 16, after
        # heldout-2026-11-28p's APPFL-SIM sweep, tuned on it)
        name = " ".join(w.rsplit("/", 1)[-1] for w in [*program[:2], module])
        # (a launcher of the frameworks' own, `deepspeed --hostfile ... train.py &` from an
        # eval'd command variable: round 19, after heldout-2026-11-27k's Megatron-DeepSpeed
        # job, tuned on it)
        if (re.fullmatch(r"python[0-9.]*", first) and len(program) > 1 and (
                program[1].endswith(".py") or module and not re.fullmatch(
                    r"pip|venv|ensurepip|http\.server|json\.tool|compileall", module)) or
                first in ("deepspeed", "accelerate", "horovodrun") and len(program) > 1 or
                program[:1] and program[0].startswith("./")) and \
                not re.search(r"(?i)servic|server|daemon", name) and not _MONITOR.search(name):
            out.append((line, program))  # (services and monitors run beside the work)
    return out


# A command that stops a service the script started: a program named for it, or kill
_STOPS = re.compile(r"(?i)(?:^|[\s/])(?:shutdown|stop|terminate)[\w.-]*(?:\s|$)|"
                    r"[\w-]*(?:shutdown|stop)[\w-]*\.(?:sh|py)\b|(?:^|\s)(?:kill|pkill|jskill)\s")


_CLIENT_WORD = re.compile(r"^(?:singularity|apptainer|python[0-9.]*|bash|sh)$|\.(?:sh|py)$")


@rule("LAUNCH007", "background-without-wait", topic="placement", severity="error",
      scope="whole batch scripts that start launches (or programs of the batch shell) in the "
      "background (`&`), with no "
      "`wait` after them, in the batch shell or in a function it calls after them or runs "
      "from its EXIT trap (a server stopped and waited for at the end); not monitors "
      "(nvidia-smi, profile_gpu...) started beside a launch the batch shell then waits for, "
      "nor a run a debugger then attaches to (stat-cl, gdb -p), nor services (a dask "
      "scheduler and workers, llama-server, Ray's head and workers) used by a foreground "
      "client (a launch, or a program the batch shell runs itself), nor a service the "
      "script stops itself later (a shutdown script, kill, jskill)",
      source="OLCF Summit user guide systems/summit_user_guide.rst (Simultaneous job steps: a "
      "wait command must follow all backgrounded processes to prevent the job from appearing "
      "completed and ending) @ 2745903; bash(1): the script's end ends the job",
      fix="add `wait` after the background launches",
      summary="launches started in the background with no `wait` after them: the batch script "
      "ends, and the job with it, while they run",
      lowers_to=("info",), lowered="where a foreground launch follows them: the job lasts as "
      "long as it runs, and background launches before it are most often what it uses "
      "(servers, streams, producers), ended with the job by design; a condition (round 20: "
      "all 7 such findings of the users' corpora were judged false, none true)")
def _no_wait(ctx: Context) -> Iterator[Hit]:
    background = [la for la in ctx.launches if la.background]
    own = [] if not ctx.whole else _background_programs(ctx)
    if not (background or own) or not ctx.whole:
        return
    last = max([la.at for la in background] + [line for line, _ in own])
    # the first foreground launch after them: the job lasts as long as it runs
    after = next((la for la in ctx.launches
                  if not la.background and not la.shell and la.at > last), None)
    # monitors started beside the job's work (`mpiexec ... ./profile_gpu_polaris.sh &`, then
    # the training in the foreground): the job ends with its work, the monitors with it
    # and services a foreground client uses (a dask scheduler and workers, then `jsrun
    # python tskmgr.py`; the script stops them itself, `jskill all`): they end with the job
    # (the client may be the batch shell's own: `singularity exec $IMG ./ray-train.sh` after
    # Ray's head and workers; unseen scripts after round 15, jpata/particleflow)
    if not own and all(_MONITOR.search(" ".join(la.program[:2])) or
                       SERVICES.search(" ".join(la.program)) for la in background) and (
            after is not None or any(
            line > last and words and _CLIENT_WORD.search(words[0].rsplit("/", 1)[-1])
            for line, words in ctx.script.commands)):
        return
    # a service the script stops itself after using it (`jsrun ... shutdown_webserver.sh`,
    # `kill $PID`, `unifyfs terminate`): its end is the script's doing (round 14, after
    # heldout-2026-11-28n's Chimbuko visualisation job, judged false blind)
    if any(number > last and _STOPS.search(command_text(text))
           for number, text in enumerate(ctx.script.lines, 1)):
        return
    # a run a debugger then attaches to (`stat-cl $(pidof mpiexec)`): it hangs on purpose and
    # the job ends once the stacks are taken
    if any(n > last and _ATTACH.search(command_text(t))
           for n, t in enumerate(ctx.script.lines, 1)):
        return
    # `wait`, or IBM JSM's `jswait` for the job steps jsrun started (`jswait all`)
    waits = [line for line, words in ctx.script.commands if words[:1] in (["wait"], ["jswait"])]
    # a function that waits (`stop_server() { kill $PID; wait $PID; }`), called after the
    # launch or run by the EXIT trap: the batch shell waits there
    waiting = {name for name, parts in ctx.script.functions.items()
               if any(re.match(r"^(?:\S+\s*&&\s*)?wait\b", part.strip()) or
                      re.search(r"(?:;|&&|\|\|)\s*wait\b", part) for _, part in parts)}
    for _ in range(4):  # functions calling a waiting function wait too (cleanup -> stop_srun)
        waiting |= {name for name, parts in ctx.script.functions.items()
                    if any(part.strip().split(" ", 1)[0] in waiting for _, part in parts)}
    trapped = any(words[:1] == ["trap"] and ("EXIT" in words[1:] or "0" in words[1:]) and any(
        re.search(rf"\b{re.escape(n)}\b", " ".join(words[1:])) for n in waiting)
        for _, words in ctx.script.commands)
    # a call of a waiting function after the launch (calls run the body; read them by line)
    called = any(number > last and re.match(rf"^\s*(?:{'|'.join(map(re.escape, waiting))})\s*$",
                                            command_text(text))
                 for number, text in enumerate(ctx.script.lines, 1)) if waiting else False
    if not trapped and not called and not any(w > last for w in waits):
        first = min([la.line for la in background] + [line for line, _ in own])
        if after is not None:
            yield Hit(first, f"{len(background) + len(own)} launch(es) run in the background "
                      f"(`&`) and no `wait` follows; the job lasts as long as the foreground "
                      f"launch of line {after.line}: whatever of theirs is still running when "
                      "it ends is killed (right for servers or streams it uses)",
                      "if they must finish on their own, add `wait` after the last of them",
                      severity="info")
            return
        yield Hit(first, f"{len(background) + len(own)} launch(es) run in the background "
                  "(`&`) and no `wait` follows: the batch script reaches its end, the job ends "
                  "and the scheduler kills them")


_RANK_FLAGS = ("--ppn", "-ppn", "--ntasks-per-node", "-a", "--tasks_per_rs", "-r",
               "--rs_per_host", "-N", "-npernode", "--npernode")


@rule("LAUNCH006", "unresolved-launch", topic="placement", severity="info",
      scope="launches whose ranks per node come from a value known only at run time",
      source="ALCF staff review 2026-11-26 D5: lint should say when it could not resolve a "
      "launch rather than say nothing", fix="nothing to fix; write the number, or check the "
      "placement by hand (`jobgen explain` shows what a rendered script does)",
      summary="a launch lint cannot place: its ranks per node are computed at run time, so "
      "the placement and device rules skip it")
def _unresolved(ctx: Context) -> Iterator[Hit]:
    for launch in ctx.launches:
        if launch.dialect not in ("pals", "srun", "jsrun", "mpich", "openmpi") or \
                launch.ranks_per_node is not None:
            continue
        runtime = [(k, v) for k, v in launch.flags if k in _RANK_FLAGS and "$" in v]
        if runtime:
            key, value = runtime[0]
            m = re.fullmatch(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", value)
            held = ctx.script.variables.get(m.group(1)) if m else None
            shown = f"{value} (= {held})" if held else value
            yield Hit(launch.line, f"{key} {shown} is known only when the job runs: the "
                      "placement and device rules (ranks per node, bindings, devices) skip "
                      "this launch")


_NO_PROGRAM = ("measured here: MPICH 4.0.2 `mpiexec -n 1` with no program ends with a "
               "segmentation fault (exit 11); Slurm srun(1) SYNOPSIS `srun [OPTIONS...] "
               "executable [args...]` (srun 22.05.8 exits 1 without one); IBM JSM jsrun "
               "(ibm.com SSWRJV_10.1.0/jsm/jsrun.html: `jsrun [option] [command]`, the command "
               "given by the line or by an --erf_input file)")


@rule("LAUNCH009", "launcher-without-program", topic="placement", severity="error",
      scope="launches of mpiexec, mpirun, srun, aprun or jsrun whose words are all options: "
      "no program after them, none in a variable (`$CMD`) and no jsrun --erf_input file",
      source=_NO_PROGRAM, fix="put the program (and its arguments) after the launcher's "
      "options", lowers_to=("warning",),
      lowered="jsrun, whose synopsis makes the command optional (an ERF file may name it): "
      "what it does without one is not documented (UNCONFIRMED)",
      summary="a launcher line with options and no program: nothing runs on the job's nodes")
def _no_program(ctx: Context) -> Iterator[Hit]:
    for launch in ctx.launches:
        if launch.shell or launch.program or launch.command not in (
                "mpiexec", "mpirun", "srun", "aprun", "jsrun") or len(launch.argv) < 2:
            continue
        if any("$" in w or "`" in w for w in launch.argv) or any(
                w in ("--version", "-V", "-v", "--help", "-h", "-help", "-info", "--info",
                      "--usage") for w in launch.argv[1:]) or \
                launch.flag("--erf_input", "-U") is not None or \
                re.search(r"[|<]|\\$", launch.text):
            continue  # a program from a variable or an ERF file, or words lint cannot see
        yield Hit(launch.line, f"`{' '.join(launch.argv)[:60]}` gives the launcher options and "
                  "no program: nothing is started on the job's nodes (the launcher fails or "
                  "does nothing)", "put the program after the options",
                  severity="warning" if launch.command == "jsrun" else None)


@rule("LAUNCH010", "latency-priority-capitalised", topic="placement", severity="warning",
      scope="jsrun launches that give -l / --latency_priority a value with capital letters "
      "(GPU-CPU, CPU-CPU)",
      source="OLCF olcf-user-docs @ 2745903 systems/summit_user_guide.rst L4003-4030 (Known "
      "issue: \"Capitalizing the latency priority value may allocate incorrect resources, or "
      "even cause the job step to fail entirely\"; \"only use the lowercase values\")",
      fix="write the value in lowercase (-l gpu-cpu)",
      summary="a capitalised jsrun latency priority: wrong resources or a failed job step")
def _latency_caps(ctx: Context) -> Iterator[Hit]:
    for launch in ctx.launches:
        if launch.command != "jsrun":
            continue
        value = launch.flag("-l", "--latency_priority")
        if value and "$" not in value and any(c.isupper() for c in value):
            yield Hit(launch.line, f"jsrun latency priority `{value}` is capitalised: on Summit "
                      "that may allocate the wrong resources or fail the job step (an OLCF "
                      "known issue)", f"write -l {value.lower()}")


# torchrun --standalone: a rendezvous of its own on localhost, a new id per agent (torch 2.13
# torch/distributed/run.py L476-483, "Useful when launching single-node, multi-worker job ...
# --rdzv-backend, --rdzv-endpoint, --rdzv-id are auto-assigned and any explicitly set values are
# ignored"; L988-991: rdzv_endpoint = "localhost:0", rdzv_id = a new uuid4)
_STANDALONE_SOURCE = ("PyTorch 2.13 torch/distributed/run.py L476-483 (--standalone: a local "
                      "rendezvous, useful for a single-node job; explicit --rdzv-* values are "
                      "ignored) and L988-991 (rdzv_endpoint localhost:0, a new rdzv_id per agent)")


def _nodes_spanned(ctx: Context, launch: LaunchView) -> int | None:
    """How many nodes a launch's tasks span: srun's -N, or the ranks over the ranks per node,
    or (srun with neither -N nor -n) the job's nodes."""
    if launch.dialect == "srun":
        asked = as_int(launch.flag("--nodes", "-N"))
        if asked:
            return asked
    total, rpn = launch.total_ranks, launch.ranks_per_node
    if total and rpn:
        return -(-total // rpn)
    if launch.dialect == "srun" and launch.flag("-n", "--ntasks") is None:
        return ctx.nodes
    return None


@rule("LAUNCH011", "standalone-on-several-nodes", topic="placement", severity="warning",
      scope="launches (srun, mpiexec, jsrun) whose tasks run `torchrun --standalone` on more "
      "than one node; not per-node background launches of one node each",
      source=_STANDALONE_SOURCE,
      fix="drop --standalone and give the nodes one rendezvous: torchrun --nnodes=N "
      "--rdzv-backend=c10d --rdzv-endpoint=$MASTER_ADDR:29500 --rdzv-id=$JOBID",
      summary="torchrun --standalone on several nodes: each node trains alone")
def _standalone_on_nodes(ctx: Context) -> Iterator[Hit]:
    for launch in ctx.launches:
        if launch.shell or launch.own_hosts or launch.dialect in ("torchrun", "spawn"):
            continue
        words = torchrun_args(launch)
        if words is None or "--standalone" not in words:
            continue
        nodes = _nodes_spanned(ctx, launch)
        if nodes and nodes > 1:
            yield Hit(launch.line, f"torchrun --standalone on each of {nodes} nodes: each "
                      "starts its own rendezvous on localhost, so the nodes run "
                      f"{nodes} separate trainings of one node each (the same work {nodes} "
                      "times, each writing the same outputs), not one across the nodes")
