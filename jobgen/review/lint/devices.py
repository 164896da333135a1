"""Rules on the devices ranks use: how many there are, which one each rank gets, the device
hierarchy (Intel FLAT vs COMPOSITE) and what it does to masks, launcher flags and wrappers."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from ...profiles.cpus import format_cpu_list, parse_cpu_list
from ...profiles.model import DocumentedBinding, HierarchyWrapper, Profile
from ..arith import evaluate
from ..scriptparse import HOUSEKEEPING, substitute
from .context import (
    TRAIN_ENTRY,
    VENDOR_MASKS,
    Context,
    LaunchView,
    is_python,
    mask_value,
    model_client,
    rank_cpus,
    variable_value,
    vendor_masks,
)
from .core import Hit, as_int, rule
from .pbsplace import select_chunks
from .scope import AI_NAMES, data_script, find_placeholder, unwrap

#: What launchers name a rank's index on its node; a wrapper computes its device from these.
_LOCAL_RANK_VARS = ("PMI_LOCAL_RANK", "PALS_LOCAL_RANKID", "SLURM_LOCALID",
                    "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "JSM_NAMESPACE_LOCAL_RANK")
_SHARING_SIGNS = {"mps": "nvidia-cuda-mps-control", "ccs": "ZEX_NUMBER_OF_CCS",
                  "alloc_flag": "gpumps"}
_DEVICES = "the site profile's node.gpus (and device_hierarchy, device_sharing)"
AI_SCOPE = "AI framework launches (an MPI program may run more ranks than devices)"


def _device_facts(p: Profile) -> list[str]:
    gpus = p.node.gpus
    if gpus is None:
        return ["no GPUs"]
    out = [f"{gpus.count} x {gpus.model}, {p.devices_per_node} devices per node ({gpus.source})"]
    if p.device_hierarchy:
        h = p.device_hierarchy
        out.append(f"{h.variable}: default {h.default}, set by modules {h.modules} ({h.source})")
        out += [f"{m.name}: {m.devices} devices ({m.source})" for m in h.modes]
        out += [f"{f.flag} fails under {', '.join(f.fails_under)}: {f.error} ({f.source})"
                for f in h.launcher_flags]
        out += [f"{w.name} needs {w.requires}: {w.why} ({w.source})" for w in h.wrappers]
    if p.device_sharing:
        s = p.device_sharing
        out.append(f"sharing: {s.method}, {s.ranks_per_device} ranks per device ({s.source})")
    return out


# ---------------------------------------------------------------- the hierarchy of a launch
def hierarchy(ctx: Context, launch: LaunchView) -> tuple[str | None, str]:
    """The device hierarchy mode the launch's ranks see, and what decided it."""
    h = ctx.profile.device_hierarchy
    if h is None:
        return None, ""
    for name in (h.variable, f"APPTAINERENV_{h.variable}", f"SINGULARITYENV_{h.variable}"):
        value = launch.env.get(name, "").upper()
        if value in ("FLAT", "COMPOSITE"):
            return value, f"{name}={value}"
    for line, module in reversed(ctx.modules_loaded(launch.at)):
        for name, mode in h.modules.items():
            if module == name or module.startswith(name + "/"):
                return mode, f"`module load {module}` (line {line}) sets {mode}"
    return h.default, f"the default {h.default}"


def devices(ctx: Context, launch: LaunchView) -> int:
    """Devices a program sees per node, in the launch's hierarchy mode."""
    mode, _ = hierarchy(ctx, launch)
    h = ctx.profile.device_hierarchy
    found = next((m.devices for m in h.modes if m.name == mode), None) if h else None
    return found if found is not None else ctx.node.devices


def _default_mode_only(ctx: Context, launch: LaunchView, rpn: int) -> bool:
    """The ranks exceed the devices only under the hierarchy mode lint assumes because the
    script sets none (Aurora's default COMPOSITE, 6 devices), and fit under another (FLAT, 12):
    the mode is set where lint cannot see it, in a file the script sources or the frameworks
    module loaded before the job (a venv made from it, a shell profile)."""
    h = ctx.profile.device_hierarchy
    mode, why = hierarchy(ctx, launch)
    return h is not None and mode == h.default and why == f"the default {h.default}" and (
        rpn <= max((m.devices for m in h.modes), default=0) * max_per_device(ctx))


def max_per_device(ctx: Context) -> int:
    """Ranks a device takes: more than one only where the script turns the site's sharing on."""
    sharing = ctx.profile.device_sharing
    if sharing is None:
        return 1
    if sharing.method == "alloc_flag":  # read from the directives, not a commented-out one
        on = alloc_flags(ctx)
        return max([1, *sharing.ranks_per_device]) if on is None or \
            sharing.alloc_flag in on else 1
    sign = _SHARING_SIGNS.get(sharing.method)
    if sign is None or sign in ctx.script.text:
        return max([1, *sharing.ranks_per_device])
    return 1


def alloc_flags(ctx: Context) -> set[str] | None:
    """The LSF allocation flags the job asks for (`#BSUB -alloc_flags "gpumps smt4"`), none
    when it names none; None where one is computed at run time (lint cannot tell)."""
    out: set[str] = set()
    for item in ctx.find("-alloc_flags"):
        if not ctx.value_ok(item):
            return None
        out |= set(item.value.strip("\"'").lower().split())
    return out


def _uses_devices(launch: LaunchView) -> bool:
    return launch.ai


_DEVICE_WRAPPER = re.compile(r"(?i)(gpu|tile|affinity|gcd)")
# a script named for the GPU that does no per-rank selection: cleaning up, checking, listing
# (heldout-2026-11-29t's `mpiexec --ppn 1 ./gpu_cleanup.sh`, judged false as a GPU program)
_NOT_DEVICE_WRAPPER = re.compile(r"(?i)clean|kill|reset|check|monitor|status|query|info|smi")


def _device_wrapper_name(name: str) -> bool:
    """A wrapper's file name that says it gives its rank a device (gpu_tile_compact.sh,
    set_affinity_gpu_polaris.sh, select_gpu), not one named for cleaning or checking GPUs."""
    return bool(_DEVICE_WRAPPER.search(name)) and not _NOT_DEVICE_WRAPPER.search(name)
_GPU_WORDS = re.compile(r"(?i)gpu|tile|cuda|xpu|sycl|nccl|rccl|oneccl|rocm|hip")


def one_rank_per_device_sign(ctx: Context, launch: LaunchView) -> bool:
    """A launch of a program that is not known as AI but drives the node's devices: a
    per-rank device wrapper (set_affinity_gpu_polaris.sh, gpu_tile_compact.sh, select_gpu) or
    a training wrapper (train.sh), or ranks per node a small multiple (1-4) of the node's
    devices or GPUs, the way GPU programs are launched (one rank per GPU, per tile, or a few
    sharing one), in a script whose commands speak of GPUs (GPUS_PER_NODE, --device cuda,
    nccl-tests); an MPI hello world with 16 ranks per node is not one."""
    names = [w.rsplit("/", 1)[-1] for w in launch.wrappers]
    if any(_device_wrapper_name(n) or AI_NAMES.search(n) for n in names):
        return True
    if data_script(launch.program):
        return False  # pack_hdf5.py, test_h5_buffer_io.py: data work on the CPUs
    rpn = launch.ranks_per_node
    gpus = ctx.profile.node.gpus
    counts = {devices(ctx, launch), ctx.node.devices, gpus.count if gpus else 0} - {0}
    return bool(rpn) and any(rpn % n == 0 and rpn <= 4 * n for n in counts) and \
        _speaks_of_gpus(ctx)


def _speaks_of_gpus(ctx: Context) -> bool:
    """Whether the script's commands (not its comments) speak of GPUs; read once per script
    (a script may be megabytes long and hold many launches)."""
    known = getattr(ctx, "_speaks_of_gpus", None)
    if known is None:
        known = any(_GPU_WORDS.search(line) for line in ctx.script.lines
                    if not line.lstrip().startswith("#"))
        ctx._speaks_of_gpus = known  # type: ignore[attr-defined]
    return known


# ---------------------------------------------------------------- which device each rank gets
def _device_index(value: str, ctx: Context) -> int | None:
    gpus = ctx.profile.node.gpus
    if gpus is None:
        return None
    value = value.strip().strip("\"'")
    index = as_int(value)
    if index is None and gpus.vendor == "intel" and re.fullmatch(r"\d+\.\d+", value):
        index = as_int(_flat(value, gpus.subdevices_per_gpu))
    return index if index is not None and index < len(gpus.devices) else None


def _flat(value: str, subs: int) -> str:
    g, _, t = value.partition(".")
    gpu, tile = as_int(g), as_int(t)
    return str(gpu * subs + tile) if gpu is not None and tile is not None else "N"


def _documented_wrapper(ctx: Context, launch: LaunchView) -> HierarchyWrapper | None:
    """The site's own per-rank device wrapper the launch runs (gpu_tile_compact.sh), if any."""
    h = ctx.profile.device_hierarchy
    names = {w.rsplit("/", 1)[-1] for w in launch.wrappers}
    return next((w for w in (h.wrappers if h else []) if w.name in names), None)


# PALS mpiexec's `--gpu-bind=list:0.0:0.1:...`: local rank r gets the r-th entry, a tile given as
# GPU.tile (argonne-lcf/user-guides @ 7d04a3f9 docs/aurora/running-jobs-aurora.md L564-591: "The
# `--gpu-bind=list` argument gives the mapping of MPI ranks to GPU-tiles", rank 0 on 0.0 ... rank
# 11 on 5.1); a list of plain indices fails to launch there (L595-610, "Failed to parse implicit
# GPU selection"), so only GPU.tile entries name a device.
_TILE_ENTRY = re.compile(r"\d+\.\d+")
GPU_BIND_SOURCE = ("argonne-lcf/user-guides @ 7d04a3f9 docs/aurora/running-jobs-aurora.md L564-591 "
                   "(--gpu-bind=list maps MPI ranks to GPU tiles, rank r to the r-th entry)")


def _gpu_bind_list(launch: LaunchView) -> list[str] | None:
    """The entries of a PALS launch's `--gpu-bind=list:...` (`["0.0", "0.1", ...]`), or None
    where the launch gives no such list."""
    value = (launch.flag("--gpu-bind") or "").strip("\"'") if launch.dialect == "pals" else ""
    kind, _, rest = value.partition(":")
    return rest.split(":") if kind == "list" and rest else None


def gpu_bind_tiles(ctx: Context, launch: LaunchView) -> dict[int, int] | None:
    """Local rank -> tile (flat index) of a PALS launch's `--gpu-bind=list:GPU.tile:...`, for
    the launch's ranks per node (rank r takes entry r; ranks beyond the list are left out);
    None where the launch has no such list or one entry is not a GPU.tile of the node."""
    gpus, rpn, entries = ctx.profile.node.gpus, launch.ranks_per_node, _gpu_bind_list(launch)
    if gpus is None or entries is None or not rpn:
        return None
    if not all(_TILE_ENTRY.fullmatch(e) for e in entries):
        return None
    tiles = [_device_index(e, ctx) for e in entries]
    if any(t is None for t in tiles):
        return None
    return {r: t for r, t in enumerate(tiles[:min(rpn, ctx.node.logical)]) if t is not None}


def rank_devices(ctx: Context, launch: LaunchView) -> dict[int, int]:
    """Local rank -> the one device the script narrows it to: from a per-rank table, from the
    launcher's own per-rank list (PALS `--gpu-bind=list:0.0:0.1:...`), or from the one line of
    the rank wrapper that computes the device variable from the local rank (ALCF's
    ``gpu=$((num_gpus - 1 - PMI_LOCAL_RANK % num_gpus))``, LUMI's select_gpu)."""
    out = {rank: d for rank, (_, value, _) in ctx.script.masks.items()
           if (d := _device_index(value, ctx)) is not None}
    listed = None if out or launch.wrappers else gpu_bind_tiles(ctx, launch)
    if listed:
        return listed
    var, rpn = ctx.profile.gpu_affinity.variable, launch.ranks_per_node
    known_wrapper = _documented_wrapper(ctx, launch)
    if not out and rpn and known_wrapper is not None and known_wrapper.device_of_rank:
        for rank in range(min(rpn, ctx.node.logical)):
            d = evaluate(known_wrapper.device_of_rank.replace("LOCAL_RANK", str(rank)))
            if d is not None and 0 <= d < ctx.node.devices:
                out[rank] = d
        return out
    affinity = ctx.profile.gpu_affinity
    if not out and rpn and affinity.wrapper and affinity.order and any(
            w.rsplit("/", 1)[-1] == affinity.wrapper for w in launch.wrappers) and not any(
            st.in_heredoc and st.name == var for st in ctx.script.settings):
        # the site's wrapper, not written by the script: the guide's order (ALCF's
        # set_affinity_gpu_polaris.sh: gpu=$((num_gpus - 1 - local_rank % num_gpus)))
        return {rank: affinity.order[rank % len(affinity.order)]
                for rank in range(min(rpn, ctx.node.logical))}
    wrapper = [st for st in ctx.script.settings if st.in_heredoc and st.value is not None]
    if out or var is None or not rpn or not launch.wrappers or \
            sum(st.name == var for st in wrapper) != 1:
        return out
    names = {*_LOCAL_RANK_VARS, ctx.profile.launcher.rank_env.local_rank}
    for rank in range(min(rpn, ctx.node.logical)):
        known = dict.fromkeys(names, str(rank))
        for st in wrapper:
            known[st.name] = substitute(st.value or "", known)
            if st.name == var and (d := _device_index(known[var], ctx)) is not None:
                out[rank] = d
    return out


def _mask_for_all(ctx: Context, launch: LaunchView) -> tuple[str, int] | None:
    """The value of the device variable every local rank of the launch gets, and its line:
    set once in the wrapper, or in the batch script before the launch."""
    var = ctx.profile.gpu_affinity.variable
    if var is None or any(v == var for v, _, _ in ctx.script.masks.values()):
        return None
    known: dict[str, str] = {}
    in_wrapper = []
    for st in ctx.script.settings:
        if st.in_heredoc and st.value is not None:
            known[st.name] = substitute(st.value, known)
            if st.name == var:
                in_wrapper.append((known[st.name], st.line))
    if len(in_wrapper) > 1 or in_wrapper and not launch.wrappers:
        return None
    if in_wrapper:
        found = in_wrapper[0]
    else:
        top = ctx.script.exported(launch.at).get(var)
        found = (top.value, top.line) if top and top.value is not None else None
    return found if found and "$" not in found[0] and "`" not in found[0] else None


TORCHRUN_WORD = re.compile(r"(?:^|/)torchrun$|^torch\.distributed\.run$")


def torchrun_args(launch: LaunchView) -> list[str] | None:
    """The words after torchrun in a launch's program (`torchrun ...`, `python -m
    torch.distributed.run ...`), or None where it runs no torchrun."""
    words = launch.program
    at = next((k for k, w in enumerate(words[:4]) if TORCHRUN_WORD.search(w)), None)
    return None if at is None else words[at + 1:]
_NPROC = re.compile(r"^--nproc[-_]per[-_]node(?:=(.*))?$")


def torchrun_workers(ctx: Context, launch: LaunchView) -> int | None:
    """The workers per node torchrun starts in a launch (`torchrun --nproc_per_node=4`,
    `python -m torch.distributed.run --nproc-per-node gpu`: the node's devices), or None
    where the launch runs no torchrun or the count is not known before the job runs."""
    words = [w.strip("\"'") for w in (launch.text or "").split()]
    at = next((k for k, w in enumerate(words) if TORCHRUN_WORD.search(w)), None)
    if at is None:
        return None
    value = option_value(words[at + 1:], _NPROC)
    if value is None:
        return None
    if re.fullmatch(r"\$\{?SLURM_GPUS_(?:ON|PER)_NODE\}?", value):
        # Slurm's count of the job's GPUs on the node (sbatch(1) OUTPUT ENVIRONMENT
        # VARIABLES: SLURM_GPUS_ON_NODE, SLURM_GPUS_PER_NODE): what --gpus-per-node asked
        # (round 22, after heldout-2026-11-29t's instruction-tuning DPO job)
        asked = [gpus_of(i.value) for i in ctx.find("--gpus-per-node") if ctx.value_ok(i)]
        return next((n for n in asked if n), None)
    return as_int(variable_value(ctx, value)) or (
        ctx.node.devices if value in ("gpu", "auto") else None)


def option_value(words: list[str], option: re.Pattern[str]) -> str | None:
    """The value of the first word the option's pattern matches (its one group: what follows
    `=`), or the word after it (`--nproc_per_node 4`), unquoted; None where no word matches."""
    for k, word in enumerate(words):
        m = option.match(word)
        if m:
            value = m.group(1) if m.group(1) is not None else \
                (words[k + 1] if k + 1 < len(words) else "")
            return value.strip("\"'")
    return None


def _sharing_fix(ctx: Context) -> str:
    sharing = ctx.profile.device_sharing
    how = (f"; to share on purpose use the site's {sharing.method} sharing "
           "(jobgen render --ranks-per-device N)") if sharing else ""
    return f"give local rank i its own device{how}"


# ---------------------------------------------------------------- rules
@rule("GPU001", "ranks-exceed-devices", topic="devices", severity="error",
      scope=AI_SCOPE + "; under the device hierarchy the script (or a module it loads) sets: "
      "ranks that fit another mode are not reported under a default lint only assumes; not a "
      "Python program whose only sign of a framework is the module it runs under (`module load "
      "frameworks`: the site's Python, mpi4py's too), nor a per-rank wrapper named for cleaning "
      "or checking the GPUs (gpu_cleanup.sh)",
      source=_DEVICES, fix="use one rank per device, or the site's device sharing",
      summary="more ranks per node than devices, without the site's sharing",
      facts=_device_facts)
def _ranks_devices(ctx: Context) -> Iterator[Hit]:
    for item in ctx.find("--gpus-per-node"):
        n = as_int(item.value.split(":")[-1])
        if n and ctx.node.devices and n > ctx.node.devices:
            yield Hit(item.line, f"--gpus-per-node={n} but the node has {ctx.node.devices}",
                      f"--gpus-per-node={ctx.node.devices}")
    for launch in ctx.launches:
        yield from _launch_devices(ctx, launch)


def _launch_devices(ctx: Context, launch: LaunchView) -> Iterator[Hit]:
    ndev = devices(ctx, launch)
    rpn = launch.ranks_per_node
    if ndev and launch.dialect == "jsrun":
        # resource sets that ask for more GPUs per node than it has, whatever they run: a
        # resource set "may not span a node" (olcf-user-docs @ 2745903 summit_user_guide.rst
        # L1344-1347), so jsrun cannot place them (the rule's scope said so; the check ran
        # for AI programs only until round 13, heldout-2026-11-27m's `jsrun -r 50 -g 1`)
        g = as_int(launch.flag("-g", "--gpu_per_rs"))
        r = as_int(launch.flag("-r", "--rs_per_host")) or 1
        if g and g * r > ndev:
            yield Hit(launch.line, f"{g * r} GPUs per node requested from jsrun, the node has "
                      f"{ndev}", f"-g {ndev // r} or fewer per resource set" if ndev // r
                      else f"-r {ndev // g} or fewer (-g {g})")
    if not ndev or not _uses_devices(launch):
        return
    limit = ndev * max_per_device(ctx)
    if rpn is not None and rpn > limit and _default_mode_only(ctx, launch, rpn):
        return
    if rpn is not None and rpn > limit and launch.ai_by_module and not device_wrapper(launch):
        # a Python program whose only sign of a framework is the module it runs under, with
        # more ranks than devices: a CPU program of that Python (mpi4py), most likely (round
        # 21, heldout-2026-11-29t's pi_mpi4py.py at 16-128 ranks per node, judged false)
        return
    if rpn is not None and rpn > limit:
        mode, why = hierarchy(ctx, launch)
        kind = f" under {mode} ({why})" if mode else ""
        yield Hit(launch.line, f"{rpn} ranks per node but one {ctx.profile.name} node has "
                  f"{ndev} devices{kind}", f"use {ndev} ranks per node or fewer, or the "
                  "site's device sharing")


@rule("GPU004", "shared-device", topic="devices", severity="error",
      scope=AI_SCOPE + "; and jsrun resource sets of any program that ask for GPUs (-g) with "
      "more tasks (-a) than GPUs, in whole LSF batch scripts without -alloc_flags gpumps or "
      "gpudefault (Summit's EXCLUSIVE_PROCESS V100s)",
      source=_DEVICES + "; OL systems/summit_user_guide.rst @ 2745903 L957-961 (GPU Compute "
      "Modes: EXCLUSIVE_PROCESS)", fix="give local rank i its own device", facts=_device_facts,
      summary="several ranks narrowed to one device without the site's sharing")
def _shared_device(ctx: Context) -> Iterator[Hit]:
    if not ctx.node.devices:
        return
    limit = max_per_device(ctx)
    ai = [launch for launch in ctx.launches if _uses_devices(launch)]
    users: dict[tuple[str, str], list[int]] = {}
    for rank, (var, value, _) in sorted(ctx.script.masks.items()):
        if "$" not in value:
            users.setdefault((var, value), []).append(rank)
    for (var, value), ranks in users.items():
        if ai and len(ranks) > limit:
            yield Hit(ctx.script.masks[ranks[limit]][2], f"local ranks "
                      f"{', '.join(map(str, ranks))} all get {var}={value}: they share one "
                      "device and the other devices stay idle", _sharing_fix(ctx))
    yield from _exclusive_process_shared(ctx)
    for launch in ai:
        # (torchrun in the batch shell: its workers per node; round 19, after
        # heldout-2026-11-27e's f_verl reproducer, two workers under ZE_AFFINITY_MASK=0,
        # tuned on it)
        common = _mask_for_all(ctx, launch)
        rpn = launch.ranks_per_node or (torchrun_workers(ctx, launch) if launch.command ==
                                        "torchrun" or launch.shell else None)
        if common and rpn:
            value, line = common
            seen = len([d for d in value.split(",") if d])
            if rpn > seen * limit:
                yield Hit(line, f"every local rank of the launch on line {launch.line} gets "
                          f"{ctx.profile.gpu_affinity.variable}={value}: {rpn} ranks per node "
                          f"share {seen} device(s) and the other devices stay idle",
                          _sharing_fix(ctx))


# Summit's V100s run in EXCLUSIVE_PROCESS mode: "the GPU is assigned to only a single process
# at a time" (olcf/olcf-user-docs @ 2745903 systems/summit_user_guide.rst L957-961); several
# processes share one only under MPS (-alloc_flags gpumps, L942-953) or the DEFAULT compute mode
# (-alloc_flags gpudefault, L964-971). A resource set's tasks see only its GPUs (L1336-1340: a
# resource set is a cgroup; L1522-1530 "Multiple tasks, single GPU per RS": -a2 -g1, 2 tasks on
# one GPU): more tasks than GPUs in a set leaves tasks that find every GPU of their set taken.
# The site profile's device_sharing names the flag. Whole batch scripts only: a launch script
# or a guide's jsrun line gets its bsub options elsewhere.
_COMPUTE_MODE_FLAGS = ("gpudefault",)


def _exclusive_process_shared(ctx: Context) -> Iterator[Hit]:
    sharing = ctx.profile.device_sharing
    if sharing is None or sharing.method != "alloc_flag" or not sharing.alloc_flag or \
            not ctx.whole:
        return
    flags = alloc_flags(ctx)
    if flags is None or sharing.alloc_flag in flags or any(f in flags for f in
                                                            _COMPUTE_MODE_FLAGS):
        return
    for launch in ctx.launches:
        if launch.dialect != "jsrun":
            continue
        gpus = as_int(launch.flag("-g", "--gpu_per_rs"))
        tasks = as_int(launch.flag("-a", "--tasks_per_rs"))
        if tasks is None and launch.flag("-p", "--np") is not None:
            total, sets = as_int(launch.flag("-p", "--np")), as_int(launch.flag("-n", "--nrs"))
            tasks = total // sets if total and sets and total % sets == 0 else None
        if gpus and tasks and tasks > gpus:
            yield Hit(launch.line, f"{tasks} tasks share the {gpus} GPU(s) of each resource set "
                      f"(jsrun -a {tasks} -g {gpus}) without -alloc_flags "
                      f"{sharing.alloc_flag}: the GPUs are in EXCLUSIVE_PROCESS mode, one "
                      f"process each, so {tasks - gpus} task(s) of each set find no free GPU",
                      f"add `#BSUB -alloc_flags {sharing.alloc_flag}` (MPS), or use one task "
                      f"per GPU (-a {gpus})", "OL systems/summit_user_guide.rst @ 2745903 "
                      "L957-961 (GPU Compute Modes: EXCLUSIVE_PROCESS, the GPU is assigned to "
                      "only a single process at a time), L942-953 (MPS: -alloc_flags gpumps)")


@rule("GPU002", "mask-hierarchy", topic="devices", severity="error",
      scope="Intel GPU sites, per-rank ZE_AFFINITY_MASK values", source=_DEVICES,
      fix="write the mask in the syntax of the hierarchy in force", facts=_device_facts,
      summary="a ZE_AFFINITY_MASK in the other hierarchy's syntax")
def _mask_hierarchy(ctx: Context) -> Iterator[Hit]:
    gpus = ctx.profile.node.gpus
    if gpus is None or gpus.vendor != "intel" or not ctx.launches:
        return
    mode, why = hierarchy(ctx, ctx.launches[-1])
    for _, (var, value, line) in sorted(ctx.script.masks.items()):
        if var != "ZE_AFFINITY_MASK" or "$" in value:
            continue
        composite = "." in value
        if mode == "FLAT" and composite:
            yield Hit(line, f"ZE_AFFINITY_MASK={value} is COMPOSITE syntax (GPU.tile) but the "
                      f"device hierarchy is FLAT ({why}), where each tile is one device index",
                      f"use the flat index {_flat(value, gpus.subdevices_per_gpu)}")
        elif mode == "COMPOSITE" and not composite and (as_int(value) or 0) >= gpus.count:
            yield Hit(line, f"ZE_AFFINITY_MASK={value} is a tile index (FLAT) but the "
                      f"hierarchy is COMPOSITE ({why}), where indices name whole GPUs",
                      "write GPU.tile, e.g. 0.1, or set the FLAT hierarchy")


@rule("GPU003", "mask-out-of-range", topic="devices", severity="error",
      scope="per-rank device masks", source=_DEVICES, fix="use a device index the node has",
      facts=_device_facts, summary="a device mask naming a device the node does not have")
def _mask_range(ctx: Context) -> Iterator[Hit]:
    ndev = ctx.node.devices
    if not ndev:
        return
    for _, (var, value, line) in sorted(ctx.script.masks.items()):
        for part in value.split(","):
            if (as_int(part) or 0) >= ndev:
                yield Hit(line, f"{var}={value}: device {part} does not exist on a node with "
                          f"{ndev} devices (0-{ndev - 1})", f"use a device index below {ndev}")


@rule("GPU005", "flag-fails-under-hierarchy", topic="devices", severity="error",
      scope="launches on sites with a device hierarchy; and PALS `--gpu-bind=list` of whole "
      "GPUs (`list:0:1:2:3:4:5`) on Intel GPU sites, which fails under either mode",
      source="the site profile's device_hierarchy.launcher_flags; argonne-lcf/user-guides @ "
      "7d04a3f9 docs/aurora/running-jobs-aurora.md L595-601 (implicit scaling via "
      "--gpu-bind=list:0:1:2:3:4:5: launch failed)", facts=_device_facts,
      fix="drop the flag and select devices in the program (or a wrapper), or switch to the "
      "hierarchy the flag works under",
      summary="a launcher flag that fails under the hierarchy mode in force")
def _hierarchy_flag(ctx: Context) -> Iterator[Hit]:
    h = ctx.profile.device_hierarchy
    if h is None:
        return
    for launch in ctx.launches:
        mode, why = hierarchy(ctx, launch)
        failed = False
        for f in h.launcher_flags:
            if launch.flag(f.flag) is not None and mode in f.fails_under:
                failed = True
                yield Hit(launch.line, f"{f.flag} under {mode} ({why}): the launch fails "
                          f"({f.error}); {f.why}", source=f.source)
        entries = _gpu_bind_list(launch)
        if not failed and entries and all(e.isdigit() for e in entries) and \
                ctx.profile.node.gpus is not None and ctx.profile.node.gpus.vendor == "intel":
            # whole GPUs (implicit scaling) in the list: the guide's own try fails as well
            value = "list:" + ":".join(entries)
            yield Hit(launch.line, f"--gpu-bind={value} lists whole GPUs, not GPU.tile "
                      f"entries: the launch fails (\"launch failed on <node>: Failed to parse "
                      f"implicit GPU selection\"), whatever the hierarchy ({mode}, {why})",
                      "list one GPU.tile per rank (--gpu-bind=list:0.0:0.1:1.0:...), or drop "
                      "the flag and give each rank its device with a wrapper",
                      "argonne-lcf/user-guides @ 7d04a3f9 docs/aurora/running-jobs-aurora.md "
                      "L595-601 (limitations of --gpu-bind=list: implicit scaling via "
                      "--gpu-bind=list:0:1:2:3:4:5 fails to launch)")


@rule("GPU006", "device-list-length", topic="devices", severity="warning",
      scope="Intel GPU sites: ZEX_NUMBER_OF_CCS and --gpu-bind lists (not a CCS list of ones, "
      "every device's default)",
      source="ALCF Aurora guide docs/aurora/running-jobs-aurora.md (Running with multiple "
      "CCSs: under FLAT the list names 12 tiles, under COMPOSITE 6 GPUs)", facts=_device_facts,
      fix="list every device of the hierarchy in force (0-11 under FLAT, 0-5 under COMPOSITE)",
      summary="a device list whose length fits the other hierarchy mode")
def _device_list(ctx: Context) -> Iterator[Hit]:
    h = ctx.profile.device_hierarchy
    if h is None:
        return
    counts = {m.name: m.devices for m in h.modes}
    for launch in ctx.launches:
        mode, why = hierarchy(ctx, launch)
        ndev = counts.get(mode or "")
        value = launch.env.get("ZEX_NUMBER_OF_CCS", "")
        pairs = re.findall(r"(\d+):(\d+)", value)
        indices = sorted({int(i) for i, _ in pairs})
        if not ndev or not indices:
            continue
        # every listed count 1: the default for every device ("By default, all EUs are
        # assigned to a single CCS"), listed or not
        if all(int(n) == 1 for _, n in pairs) and max(indices) < ndev:
            continue
        others = [n for m, n in counts.items() if m != mode]
        if max(indices) >= ndev:
            yield Hit(launch.line, f"ZEX_NUMBER_OF_CCS={value} names device {max(indices)}, "
                      f"but under {mode} ({why}) the node has devices 0-{ndev - 1}")
        elif len(indices) in others and len(indices) < ndev and (launch.ranks_per_node or
                                                                  0) > len(indices):
            yield Hit(launch.line, f"ZEX_NUMBER_OF_CCS={value} lists {len(indices)} devices, "
                      f"the count of the other hierarchy; under {mode} ({why}) devices "
                      f"{len(indices)}-{ndev - 1} keep one CCS while "
                      f"{launch.ranks_per_node} ranks per node share them")


@rule("GPU007", "wrapper-against-hierarchy", topic="devices", severity="warning",
      scope="launches through a per-rank device wrapper the site documents",
      source="the site profile's device_hierarchy.wrappers", facts=_device_facts,
      fix="drop the wrapper and select the device in the program (torch.xpu.set_device"
      "(local_rank)), or set the hierarchy the wrapper needs",
      summary="a device wrapper used under the wrong hierarchy or a module advised against")
def _wrapper(ctx: Context) -> Iterator[Hit]:
    h = ctx.profile.device_hierarchy
    if h is None:
        return
    for launch in ctx.launches:
        mode, why = hierarchy(ctx, launch)
        for w in h.wrappers:
            if not any(word.rsplit("/", 1)[-1] == w.name for word in launch.wrappers):
                continue
            against = [m for m in w.advised_against_with if ctx.loads(m, launch.at)]
            if mode != w.requires or against:
                reason = f"the hierarchy is {mode} ({why})" if mode != w.requires else \
                    f"the docs advise against it with module {against[0]}"
                yield Hit(launch.line, f"{w.name} needs {w.requires} and {reason}: {w.why}",
                          source=w.source)


def _binding_facts(p: Profile) -> list[str]:
    out = _device_facts(p)
    docs = p.launch_facts.documented_bindings if p.launch_facts else []
    out += [f"documented --cpu-bind {b.bind}{f' -d {b.depth}' if b.depth else ''} "
            f"({b.ranks_per_node} ranks): info, instead {b.instead} ({b.source})" for b in docs]
    return out


def _documented(ctx: Context, launch: LaunchView,
                devices_of: dict[int, int]) -> DocumentedBinding | None:
    """The guide's own binding, with the guide's device order (Polaris: reverse), if the
    launch uses exactly that."""
    docs = ctx.profile.launch_facts.documented_bindings if ctx.profile.launch_facts else []
    depth = as_int(launch.flag("--depth", "-d"))
    order = ctx.profile.gpu_affinity.order
    if order and any(d != order[r % len(order)] for r, d in devices_of.items()):
        return None
    return next((b for b in docs if launch.bind == b.bind and depth == b.depth and
                 launch.ranks_per_node == b.ranks_per_node), None)


@rule("CPU007", "rank-far-from-device", topic="placement", severity="warning",
      scope="launches that bind CPUs and name each rank's device (a per-rank mask or wrapper)",
      source="the site profile's node.gpus.devices (NUMA domain and cores of each device)",
      facts=_binding_facts, fix="give each rank the device next to its cores; `jobgen render` "
      "pairs them", summary="a rank bound to cores on another NUMA domain than its device",
      lowers_to=("info",), lowered="for a binding the site's guide gives on purpose "
      "(launch_facts.documented_bindings: Polaris --cpu-bind depth -d 16), with the list "
      "that keeps each rank next to its device; and, said as a condition, for ranks of a "
      "Python AI program bound to explicit cores on a node of several NUMA domains of one "
      "socket (Polaris, LUMI-G) where the script names no device per rank: the frameworks' "
      "usual choice, local rank r on device r")
def _far_from_device(ctx: Context) -> Iterator[Hit]:
    gpus = ctx.profile.node.gpus
    if gpus is None or ctx.node.family and not ctx.node.devices:
        return
    for launch in ctx.launches:
        cpus_of = rank_cpus(ctx, launch)
        devices_of = rank_devices(ctx, launch) if cpus_of else {}
        if not devices_of:
            if cpus_of:
                hits = list(_far_whatever_the_mapping(ctx, launch, cpus_of))
                yield from hits or _far_by_local_rank(ctx, launch, cpus_of)
            continue
        limit = max_per_device(ctx)
        if max(Counter(devices_of.values()).values(), default=0) > limit or (
                launch.ranks_per_node or 0) > ctx.node.devices * limit:
            continue  # ranks share devices they should not (GPU001/GPU004): that fix first
        far = _far(ctx, cpus_of or [], devices_of)
        if not far:
            continue
        ranks = ", ".join(str(r) for r, _ in far)
        where = f"local rank(s) {ranks}: the device is on a different NUMA domain from the " \
            f"rank's cores ({'; '.join(t for _, t in far)})"
        yield _far_hit(ctx, launch, where, devices_of)


def _far_hit(ctx: Context, launch: LaunchView, where: str,
             devices_of: dict[int, int]) -> Hit:
    """CPU007's finding: a warning, or info where the guide gives this binding on purpose."""
    doc = _documented(ctx, launch, devices_of)
    if doc is None:
        return Hit(launch.line, where)
    return Hit(launch.line, f"{where}; the guide gives this binding on purpose: {doc.why}",
               f"to keep each rank next to its device with as many threads, --cpu-bind "
               f"{doc.instead}", doc.source, "info")


def _far_whatever_the_mapping(ctx: Context, launch: LaunchView,
                              cpus_of: list[list[int]]) -> Iterator[Hit]:
    """One rank per device of a GPU program whose device per rank lint cannot see (a wrapper
    of the user's own): each device is driven by one rank, so a socket whose devices
    outnumber the ranks bound to its cores has devices driven from the other socket, whichever
    rank gets which (Aurora `--cpu-bind depth --depth=1` with 12 ranks: all on cores 1-12 of
    socket 0, and the 6 tiles of GPUs 3-5 on socket 1 driven from there)."""
    gpus = ctx.profile.node.gpus
    rpn, ndev = launch.ranks_per_node, devices(ctx, launch)
    if gpus is None or not gpus.devices or not rpn or rpn != ndev or len(cpus_of) < rpn or \
            _mask_for_all(ctx, launch) is not None or \
            not (launch.ai or one_rank_per_device_sign(ctx, launch)) or \
            _per_rank_devices(ctx, launch) != 1:
        return
    # across sockets only (Aurora, Sunspot: a NUMA domain per socket); the finer domains of
    # one socket (Polaris, LUMI) get the per-rank check with the frameworks' usual mapping
    node = ctx.profile.node
    if node.sockets < 2 or len(node.numa) != node.sockets:
        return
    domains = {dom.id: frozenset(parse_cpu_list(dom.cores)) for dom in node.numa}
    near_of: dict[frozenset[int], set[int]] = {}
    composite = ndev == gpus.count and len(gpus.devices) > gpus.count
    if ndev != len(gpus.devices) and not composite:
        return
    for dev in gpus.devices:
        near = domains.get(dev.numa) if dev.numa is not None else None
        if near is None and dev.cores:
            near = frozenset(parse_cpu_list(dev.cores))
        if near is None:
            return
        near_of.setdefault(near, set()).add(dev.gpu if composite else dev.index)
    for near, devs in sorted(near_of.items(), key=lambda kv: min(kv[0])):
        close = sum(1 for cpus in cpus_of[:rpn]
                    if {ctx.node.core_of(c) for c in cpus if c < ctx.node.logical} & near)
        if close < len(devs):
            where = (f"{rpn} ranks per node, one per device: {close} of them bound to cores "
                     f"near the {len(devs)} device(s) of the socket of cores "
                     f"{format_cpu_list(sorted(near))}, so at least {len(devs) - close} rank(s) "
                     f"drive one of those from the other socket, whichever rank gets which "
                     f"device")
            yield _far_hit(ctx, launch, where, {})
            return


# The frameworks' usual device choice, local rank r on device r: Horovod docs/pytorch.rst ("With
# the typical setup of one GPU per process, set this to local rank. The first process on the
# server will be allocated the first GPU"; torch.cuda.set_device(hvd.local_rank())); PyTorch
# docs/source/notes/ddp.rst's example (model.to(rank), device_ids=[rank]).
_USUAL_MAPPING = ("Horovod docs/pytorch.rst (\"With the typical setup of one GPU per process, set "
                  "this to local rank\"); PyTorch docs/source/notes/ddp.rst (model.to(rank), "
                  "device_ids=[rank])")


def _far_by_local_rank(ctx: Context, launch: LaunchView,
                       cpus_of: list[list[int]]) -> Iterator[Hit]:
    """One rank per device of an AI program, bound to explicit cores, on a node of several
    NUMA domains of one socket (Polaris, LUMI-G), with no device variable or wrapper in the
    script: the program picks its device itself, which lint cannot see. With the frameworks'
    usual choice (local rank r on device r) some ranks drive a device of another domain, which
    is why the site's wrapper gives the devices in another order (Polaris: reverse). Info, as
    a program may pick otherwise (heldout-2026-11-27f's GKNB/ALBAND takes device_count() - 1 -
    local_rank); the misses it answers: heldout-2026-11-27l's ai-science-training-series runs."""
    gpus, rpn, node = ctx.profile.node.gpus, launch.ranks_per_node, ctx.profile.node
    # (fewer ranks than devices too: a one-rank-per-node run still has rank 0 on device 0)
    if gpus is None or not rpn or not launch.ai or rpn > len(gpus.devices) or \
            len(node.numa) < 2 or node.sockets > 1 and len(node.numa) == node.sockets or \
            launch.wrappers or _mask_for_all(ctx, launch) is not None or \
            not is_python((launch.program or [""])[0]):
        return
    per_rank = _per_rank_devices(ctx, launch)
    if per_rank not in (1, None) or per_rank is None and rpn != 1:
        return
    far = _far(ctx, cpus_of, {r: r for r in range(rpn)})
    if not far:
        return
    affinity = ctx.profile.gpu_affinity
    helper = (f"; the site's {affinity.wrapper} gives device {list(affinity.order)} to local "
              f"ranks 0-{len(affinity.order) - 1} for this reason") if affinity.wrapper and \
        affinity.order else ""
    ranks = ", ".join(str(r) for r, _ in far)
    yield Hit(launch.line, f"the script names no device per rank, so the program picks one: "
              f"if it takes device r for local rank r (torch.cuda.set_device(local_rank), the "
              f"usual way), local rank(s) {ranks} drive a device on another NUMA domain than "
              f"their cores ({'; '.join(t for _, t in far)}){helper}",
              f"check which device your program takes; to keep each rank next to its device, "
              f"run it under {affinity.wrapper or 'a per-rank device wrapper'} or bind the "
              f"ranks to the cores of their devices", f"{_USUAL_MAPPING}; the site profile's "
              f"node.gpus.devices", "info")


def _far(ctx: Context, cpus_of: list[list[int]], devices_of: dict[int, int]
         ) -> list[tuple[int, str]]:
    node = ctx.profile.node
    gpus = node.gpus
    assert gpus is not None
    domains = {dom.id: set(parse_cpu_list(dom.cores)) for dom in node.numa}
    far = []
    for rank, index in sorted(devices_of.items()):
        if rank >= len(cpus_of):
            continue
        dev = gpus.devices[index]
        near = domains.get(dev.numa) if dev.numa is not None else None
        if near is None and dev.cores:
            near = set(parse_cpu_list(dev.cores))
        cores = {ctx.node.core_of(c) for c in cpus_of[rank] if c < ctx.node.logical}
        if near and cores and not cores & near:
            where = f"NUMA {dev.numa}, " if dev.numa is not None else ""
            far.append((rank, f"rank {rank} on cores {format_cpu_list(sorted(cores))} drives "
                        f"device {index} ({where}cores {format_cpu_list(sorted(near))})"))
    return far


# ---------------------------------------------------------------- devices left idle
# A program that drives several devices from one rank (a launcher that starts its own
# processes, JAX, an inference server, tensor or model parallelism, a count of GPUs given to
# the program, TensorFlow's MirroredStrategy) may use the whole node with fewer ranks.
_MULTI_DEVICE = re.compile(
    r"(?i)jax|vllm|sglang|serve|server|tensor.?parallel|model.?parallel|pipeline.?parallel|"
    r"(?:^|[-_.])tp[=_]|num.?gpus|n.?gpus|gpus.?per|nproc|devices=|--gpus|mirrored|"
    r"dataparallel\b|accelerate|lightning")
_MULTI_LAUNCHERS = frozenset({
    "torchrun", "deepspeed", "accelerate", "horovodrun", "vllm", "ray", "launch.py", "deepy.py"})
# (and a program named for one device, EA_pytorch_single_GPU_example.py: round 19, after
# heldout-2026-11-27m's ai-science-training-series homework, tuned on it)
_ONE_PER_DEVICE = re.compile(r"(?i)ddp|distributed|horovod|hvd|allreduce|single[-_]?(?:gpu|device)|"
                             r"(?:^|[-_])(?:one|1)[-_]?gpu(?:[-_.]|$)")


def _whole_nodes(ctx: Context) -> tuple[str, str] | None:
    """Why the job has its nodes to itself (and pays for all their devices), and the source
    that says so; None where it may share them."""
    billing = ctx.profile.scheduler.billing
    family = ctx.partition.family
    queue = ctx.partition.queue
    if queue is None and any(q.shared_nodes for q in ctx.profile.scheduler.queues) and any(
            not ctx.value_ok(i) for i in ctx.find("-q")):
        # `#PBS -q ${QUEUE}` filled in by a tool: maybe a queue of shared nodes (Aurora's
        # debug), so lint cannot tell (round 11, after heldout-2026-11-27j, tuned on it)
        return None
    if queue is not None and queue.shared_nodes:
        # the queue's nodes may run other jobs: the devices a job does not use are not held
        # for it, unless its chunks ask for every GPU of the node (ngpus=6 on Aurora)
        gpus = ctx.profile.node.gpus.count if ctx.profile.node.gpus else 0
        select = [i for i in ctx.find("-l select") if ctx.value_ok(i)]
        chunks = select_chunks(select[-1].value) if select else []
        if not gpus or not chunks or any(r.get("ngpus") != str(gpus) for _, r in chunks):
            return None
        return (f"its chunks ask for every GPU of the node (ngpus={gpus}), which it then "
                "holds", queue.source)
    if ctx.partition.allocation is not None:
        if ctx.partition.allocation != "exclusive":
            return None
        name = ctx.partition.item.value if ctx.partition.item else "the partition"
        if family and ctx.partition.item and family.partitions.get(name) != "exclusive":
            # a partition of shared nodes taken whole with --exclusive: all its cores are the
            # job's, billed by LUMI's slices as a whole node (billing.md, small-g/dev-g)
            billing = ctx.profile.scheduler.billing
            return (f"--exclusive gives the job whole {name} nodes, all their cores billed "
                    "(by the partition's slices of cores, a whole node's bill)",
                    billing.source if billing else family.source)
        return f"{name} allocates (and bills) whole nodes", family.source if family else ""
    if ctx.dialect in ("pbs", "lsf") and billing is not None and "whole nodes" in billing.why:
        return "the scheduler gives (and charges) the job whole nodes", billing.source
    return None


def _per_rank_devices(ctx: Context, launch: LaunchView) -> int | None:
    """How many devices each rank drives: 1 for a program launched one rank per device,
    None where a rank may drive several (or the script says how many, `--gpus-per-task`)."""
    words = [w.rsplit("/", 1)[-1] for w in launch.program]
    # (a framework's training command, fairseq-train, starts one process per visible GPU
    # itself: fairseq/distributed/utils.py call_main, torch.multiprocessing.spawn)
    if not words or words[0] in _MULTI_LAUNCHERS or TRAIN_ENTRY.search(words[0]) or \
            "-m" in words[1:3] and any(
            w.startswith(("torch.distributed", "deepspeed", "accelerate", "vllm"))
            for w in words):
        return None
    image = launch.container.image if launch.container else ""
    if any(_MULTI_DEVICE.search(w) for w in [*launch.program, image, *launch.wrappers]):
        return None
    var = ctx.profile.gpu_affinity.variable
    if var and "," in launch.env.get(var, ""):
        return None
    per_task = as_int(launch.flag("--gpus-per-task") or next(
        (i.value for i in ctx.find("--gpus-per-task")), None))
    if per_task is not None:
        return per_task
    if device_wrapper(launch):  # the wrapper narrows each rank to one device
        return 1
    if launch.ranks_per_node == 1 and not any(_ONE_PER_DEVICE.search(w) for w in
                                              [*launch.program, *launch.env]):
        return None  # one process per node may drive all its devices (DataParallel)
    if launch.ranks_per_node == 1 and re.search(r"(?i)tensorflow|keras|\btf\b",
                                                " ".join(launch.program)):
        return None
    return 1


@rule("GPU008", "idle-devices", topic="devices", severity="warning",
      scope="launches of GPU programs (AI frameworks, per-rank device wrappers) on nodes the "
      "job has to itself (ALCF and OLCF PBS/LSF jobs outside queues of shared nodes such as "
      "Aurora's debug, LUMI standard-g or --exclusive), with "
      "one device per rank, or one process (also the batch shell's own) narrowed to fewer "
      "devices than the node has (ZE_AFFINITY_MASK=0, CUDA_VISIBLE_DEVICES=0) or told to use "
      "one (`--device xpu`, a program named for one GPU, Python code moving its work to "
      "\"xpu\"/\"cuda\": the current "
      "device), or a Slurm job asking for fewer devices per node (--gpus-per-node, "
      "--gres=gpu:N, or --gpus in all) than a whole-node partition's nodes have, or for none "
      "at all there (no GPU option on LUMI standard-g: a CPU-only job on nodes billed whole), "
      "or a PBS job every step of which is CPU work (a program it builds with a host compiler "
      "and no GPU option, decompression, `python -c` code importing no GPU library; no GPU "
      "module or device variable), "
      "or a jsrun "
      "whose resource sets ask for fewer GPUs in all (-n x -g) than the job's nodes hold, "
      "whatever it runs, or processes narrowed by a literal list of the vendor's variable "
      "(CUDA_VISIBLE_DEVICES=0 exported to all ranks, one-process runs each given a device) "
      "whose devices together are fewer than the node's, whatever they run; otherwise "
      "not launchers that start their own processes (torchrun, DeepSpeed), JAX, inference "
      "servers and the Python clients of the servers a job starts, tensor parallelism, "
      "TensorFlow with one rank per node, background per-node launches; and a Summit job "
      "none of whose steps can reach a GPU (every jsrun without -g or with -g 0, or no jsrun "
      "at all), where the batch shell runs nothing that may start steps itself",
      source="the site profile's node.gpus (devices per node, in the device hierarchy's "
      "mode) and scheduler.billing / partition_families (whole-node allocation)",
      fix="run one rank per device (the node's device count per node), or ask for a "
      "shared partition with the devices you use", facts=_device_facts,
      summary="fewer ranks per node than the node's devices, on nodes allocated whole: the "
      "other devices are billed and idle", lowers_to=("info",),
      lowered="for one process of an AI program whose device use the script does not say "
      "(the frameworks' default is one device; its code may use more), and for a partition "
      "of shared nodes taken whole with --exclusive (LUMI small-g, dev-g: the node's cores "
      "and memory may be what the job took it for), said as a condition; and for a Summit "
      "job whose every jsrun says -g 0 (a CPU-only job on purpose)")
def _idle_devices(ctx: Context) -> Iterator[Hit]:
    yield from _serial_steps(ctx)
    whole = _whole_nodes(ctx)
    if whole is None or not ctx.node.devices:
        return
    gpuless = list(_no_step_asks_gpus(ctx, whole)) or list(_cpu_only_steps(ctx, whole))
    if gpuless:  # no step of the job can reach a GPU: said once for the whole job
        yield from gpuless
        return
    asked = list(_asked_fewer_devices(ctx, whole))
    if asked:  # the job asked for fewer devices than its whole nodes have: whatever it runs
        yield from asked
        return
    jsruns = [la for la in ctx.launches if la.dialect == "jsrun"]
    together = list(_background_jsruns_fewer_gpus(ctx, jsruns, whole)) if any(
        la.background for la in jsruns) else []
    if together:  # steps started side by side (jsrun places each itself): told as a group
        yield from together
        return
    if any(la.own_hosts for la in ctx.launches if not la.shell):
        return
    hits = [*_jsrun_fewer_gpus(ctx, whole), *_one_device_processes(ctx, whole),
            *_idle_per_launch(ctx, whole)]
    # (a line the rule warns about needs no note beside the warning)
    warned = {h.line for h in hits if h.severity is None}
    yield from (h for h in hits if h.severity is None or h.line not in warned)


def _idle_per_launch(ctx: Context, whole: tuple[str, str]) -> Iterator[Hit]:
    """GPU008's narrowed processes and launches of fewer ranks than devices per node."""
    narrowed = _narrowed(ctx)
    yield from _shared_mask(ctx, whole, narrowed)
    for launch in ctx.launches:
        rpn = 1 if launch.shell else launch.ranks_per_node
        masked = _masked_devices(launch) if rpn == 1 else None
        if any(launch is la for la, _ in narrowed) or launch.shell and any(
                not la.shell and (la.ai or device_wrapper(la)) for la in ctx.launches):
            continue  # (the job's narrowed processes are told together; a process of the
            # batch shell beside launches of GPU programs is a step of theirs)
        if launch.shell and masked is None or launch.dialect == "spawn" or rpn is None or \
                not (launch.ai or device_wrapper(launch) or gpu_bind_tiles(ctx, launch)) or \
                model_client(ctx, launch):
            continue  # (a model server's clients hold no device: the servers do)
        tiles = _tiles_of_wrapper(ctx, launch, rpn)
        if tiles is not None:  # the site's per-tile wrapper: one tile per rank, counted so
            used, total, name, formula = tiles
            subs = ctx.profile.node.gpus.subdevices_per_gpu if ctx.profile.node.gpus else 1
            idle = [g for g in range(total // max(subs or 1, 1))
                    if not any(t // (subs or 1) == g for t in used)]
            gpus = f", GPUs {format_cpu_list(idle)} untouched" if idle else ""
            listed = name.startswith("--")  # the launcher's own list, not a wrapper
            how = f"bound by {name}, one tile each (local rank r takes its entry r: tiles " \
                f"{format_cpu_list(sorted(used))})" if listed else \
                f"through {name}, one tile each (local rank r takes tile {formula})"
            if len(used) < total:
                source = _idle_source(ctx, whole)
                yield Hit(launch.line, f"{rpn} rank(s) per node {how}: {total - len(used)} "
                          f"of the node's {total} tiles idle{gpus}, and {whole[0]}",
                          f"use {total} ranks per node (one per tile)",
                          f"{source}; {GPU_BIND_SOURCE}" if listed and source else source)
            continue
        per_rank = masked or _per_rank_devices(ctx, launch)
        ndev = devices(ctx, launch)
        if per_rank is not None and ndev and rpn * per_rank == ndev:
            yield from _last_node_idle(ctx, launch, rpn, ndev, whole)
        if per_rank is None or not ndev or rpn * per_rank >= ndev:
            continue
        mode, why = hierarchy(ctx, launch)
        kind = f" under {mode} ({why})" if mode else ""
        yield Hit(launch.line, f"{rpn} rank(s) per node, one device each, on {ndev} devices "
                  f"per node{kind}: {ndev - rpn * per_rank} device(s) of each node idle, and "
                  f"{whole[0]}", f"use {ndev} ranks per node (one per device)",
                  _idle_source(ctx, whole))


# Batch-shell commands that start no job step themselves: the shell's own words, file and
# text tools, fetching, packing, builds, environments (a program of the user's, a Python
# script, a function or a variable may call jsrun: the job's GPU use is then unknown).
_NO_STEP = frozenset({
    "cd", "echo", "printf", "mkdir", "rmdir", "cp", "mv", "rm", "ln", "ls", "cat", "touch",
    "chmod", "chgrp", "date", "sleep", "hostname", "pwd", "export", "unset", "set", "module",
    "ml", "conda", "spack", "sed", "awk", "grep", "egrep", "cut", "tr", "sort", "uniq", "wc",
    "head", "tail", "tee", "find", "tar", "gzip", "gunzip", "zip", "unzip", "bzip2", "xz",
    "wget", "curl", "rsync", "git", "singularity", "apptainer", "pip", "pip3", "make",
    "cmake", "ninja", "jswait", "wait", "true", "false", "exit", "test", "[", "[[", "read",
    "let", "local", "declare", "readonly", "shift", "if", "then", "else", "elif", "fi", "for",
    "while", "until", "do", "done", "case", "esac", "return", "trap", "ulimit", "umask",
    "which", "type", "dirname", "basename", "realpath", "readlink", "seq", "expr", "du", "df",
    "stat", "md5sum", "sha256sum", "diff", "cmp", "lfs", "free", "uname", "whoami", "id",
    "nproc", "lscpu", "bjobs", "bsub", "sync", "env", "time", "{", "}", "(", ")",
    # the Summit guide's Spectral step, which waits for the library's copies to GPFS
    # (summit_user_guide.rst L3700, L3745 @ 2745903)
    "spectral_wait.py"})
# A sourced file that sets up an environment (not one that may run the job's steps)
_SETUP_FILE = re.compile(r"(?i)activate|env|setup|conda\.sh|modules?\b|bashrc|profile")


def _starts_no_step(words: list[str]) -> bool:
    """A batch-shell command that starts no job step (see _NO_STEP), sources a setup file
    (_SETUP_FILE) or only assigns a variable."""
    name = words[0].rsplit("/", 1)[-1] if words else ""
    if name in ("source", ".") and len(words) > 1:
        return bool(_SETUP_FILE.search(words[1].rsplit("/", 1)[-1]))
    return name in _NO_STEP or bool(words) and bool(
        re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]))


def _options_placeholder(la: LaunchView) -> bool:
    """A documentation placeholder among a jsrun's options (`jsrun <options> ./a.out`): one
    before its last literal option, or with no option at all; not one for the program after
    them (WarpX's `jsrun -n 2 -c 21 ... -b rs <path/to/executable>`)."""
    m = find_placeholder(la.text)
    if m is None:
        return False
    if not la.flags or re.search(r"(?i)option|flag|resource|\.\.\.", m.group(0)):
        return True
    key, value = la.flags[-1]
    last = la.text.rfind(f"{key} {value}" if value else key)
    return last < 0 or m.start() < last


def _no_step_asks_gpus(ctx: Context, whole: tuple[str, str]) -> Iterator[Hit]:
    """A Summit job none of whose steps can reach a GPU: its jsruns all ask for none (-g 0,
    or no -g, whose default is 0), or it starts no jsrun at all and its batch shell works on
    the launch node. A resource set is a cgroup of what it asks for, so its processes see no
    GPU; the job is billed for its whole nodes, six GPUs each, all idle (round 15, after the
    misses of heldout-2026-11-27d/m and -28n's CPU-only Summit jobs: fairseq-preprocess, a
    simulator, a web server, a container build; tuned on them). Only where every batch-shell
    command is one that starts no step (see _NO_STEP) and each jsrun's options are literal."""
    facts = ctx.profile.launch_facts
    host = facts.batch_host if facts else None
    if ctx.dialect != "lsf" or host is None or host.kind != "launch_node" or \
            not ctx.own_directives() or not ctx.find("-nnodes"):
        return
    if any(not la.shell and la.command != "jsrun" for la in ctx.launches):
        return  # (mpirun with a host file: its own placement)
    jsruns = [la for la in ctx.launches if la.command == "jsrun"]
    if jsruns and all(la.program and la.program[0] in HOUSEKEEPING | {"echo", "hostname"}
                      for la in jsruns):
        return  # steps that only look at the node or move files (the guide's NVMe example)
    for la in jsruns:
        head = ([*la.wrappers, *la.program] or [""])[0]
        if _options_placeholder(la):
            return  # a documentation placeholder for the options (`jsrun <options> ./a.out`);
            # not one for the program (WarpX's CPU template: `jsrun -n 2 -c 21
            # <path/to/executable>` still asks no GPU; spot set 2026-11-28o, tuned on it)
        gpus = la.flag("-g", "--gpu_per_rs")
        if gpus is not None and as_int(gpus) != 0 or la.flag("-U", "--erf_input") or \
                any("$" in key for key, _ in la.flags) or \
                head.startswith("$") and "/" not in head and (
                    "/" not in variable_value(ctx, head) or gpus is None):
            return  # asks for GPUs, or for what lint cannot read
    for line, words in ctx.script.commands:
        if any(line == la.line for la in jsruns):
            continue
        if not _starts_no_step(words):
            return  # a program that may start steps itself: the job's GPU use is unknown
    nodes = ctx.nodes
    ndev = ctx.node.devices
    held = f"{nodes * ndev} GPUs of its {nodes} node(s)" if nodes else \
        f"the {ndev} GPUs of each of its nodes"
    source = (f"{_JSRUN_NO_GPU}; {_idle_source(ctx, whole)}")
    if jsruns:
        lines = len({la.line for la in jsruns})
        if all(la.flag("-g", "--gpu_per_rs") for la in jsruns):
            # every step says -g 0: a CPU-only program on purpose (the Summit guide's own
            # CPU-only layouts, tests/lint_review's summit_c03): a note, not a warning
            yield Hit(jsruns[0].line, f"every jsrun asks -g 0 ({lines} line(s)): a CPU-only "
                      f"job on GPU nodes, whose {held} stay idle, and {whole[0]}",
                      "if the program has GPU work, give its resource sets GPUs (-g); "
                      "CPU-only analysis belongs on Andes, OLCF's cluster for it", source,
                      "info")
            return
        yield Hit(jsruns[0].line, f"no step of this job asks for a GPU (no -g on "
                  f"{'any' if lines > 1 else 'its'} jsrun line: jsrun's default is 0 GPUs per "
                  f"resource set, and a resource set sees only what it asks for): a GPU "
                  f"program sees none, and the {held} stay idle, while {whole[0]}",
                  "give the GPU program's resource sets their GPUs (-g N); for CPU-only work "
                  "say -g 0, or run analysis on Andes, OLCF's cluster for it", source)
        return
    first = next((line for line, words in ctx.script.commands if words and words[0] not in (
        "cd", "echo", "export", "module", "source", ".", "conda", "spack")), None)
    if first is not None:
        yield Hit(first, f"the job starts no jsrun: its batch shell runs every command on a "
                  f"shared launch node, and the {held} (and their cores) stay idle, while "
                  f"{whole[0]}", "run the work with jsrun on the job's nodes (jsrun -n1 -c42 "
                  "for a serial or threaded step), or outside a Summit job",
                  f"{host.source}; {_idle_source(ctx, whole)}")


# Host compilers (the MPI wrappers, Cray's, GNU's, LLVM's): what they build without a GPU
# option or source is a CPU program
_HOST_COMPILERS = frozenset({"mpicc", "mpicxx", "mpic++", "mpiCC", "mpif77", "mpif90", "mpifort",
                             "cc", "CC", "ftn", "gcc", "g++", "gfortran", "clang", "clang++"})
# What makes a build GPU code: CUDA/HIP sources, OpenACC, OpenMP offload, CUDA Fortran, SYCL,
# the GPU runtimes' libraries
_GPU_BUILD = re.compile(r"(?i)\.(?:cu|hip)$|^-(?:acc|cuda|mp=gpu|gpu=|fopenmp-targets|fsycl|"
                        r"foffload|fopenacc|l(?:cuda|cudart|cublas|nccl|amdhip64|ze_loader))")
_DECOMPRESS = frozenset({"gunzip", "zcat", "bgzip", "pigz", "unpigz", "unxz", "zstd", "unzstd",
                         "bunzip2", "tabix"})
# Python code that may reach a GPU: the frameworks and the GPU array libraries
_GPU_PYTHON = re.compile(r"(?i)torch|tensorflow|jax|cupy|cuda|numba|keras|xpu|rapids|cudf|dpnp|"
                         r"dpctl|triton|intel_extension")
# Modules that bring GPU compilers, runtimes or frameworks (Polaris's conda is its PyTorch)
_GPU_MODULES = re.compile(r"(?i)accel|cuda|nvhpc|nvidia|frameworks|conda|torch|tensorflow|rocm|"
                          r"oneapi|jax|kokkos|hip")


def _host_build(words: list[str]) -> str | None:
    """The program a host compiler builds without a GPU option or source (`mpicxx -O2 t.cpp -o
    ./t`); None for any other command."""
    if not words or words[0].rsplit("/", 1)[-1] not in _HOST_COMPILERS or "-o" not in words[:-1]:
        return None
    if any(_GPU_BUILD.search(w) for w in words[1:]):
        return None
    return words[words.index("-o") + 1].rsplit("/", 1)[-1]


def _cpu_only_steps(ctx: Context, whole: tuple[str, str]) -> Iterator[Hit]:
    """A PBS job on whole GPU nodes none of whose steps can use a GPU: its launches run
    programs the job itself builds with a host compiler and no GPU option (`mpicxx t.cpp -o t`,
    then `mpiexec -n 128 ./t`), and its batch shell only decompresses, moves files or runs
    `python -c` code that imports no GPU library; no GPU module loaded, no device variable set.
    The node's GPUs are billed and idle. Round 22, after heldout-2026-11-29u's MPICH collective
    tests and genome setup jobs on Polaris (tuned on them)."""
    if ctx.dialect != "pbs" or any(la.ai or la.shell or device_wrapper(la)
                                   for la in ctx.launches):
        return
    if any(_GPU_MODULES.search(m) for _, m in ctx.modules_loaded(None)) or any(
            name in ctx.script.text for names in VENDOR_MASKS.values() for name in names):
        return
    built: dict[str, int] = {}
    work: list[tuple[int, str]] = []
    for line, words in ctx.script.commands:
        name = words[0].rsplit("/", 1)[-1] if words else ""
        program = _host_build(words)
        if program is not None:
            built[program] = line
        elif name in _DECOMPRESS:
            work.append((line, f"{name} (line {line})"))
        elif is_python(name) and len(words) > 2 and words[1] == "-c":
            if _GPU_PYTHON.search(words[2]):
                return
            work.append((line, f"python -c code that imports no GPU library (line {line})"))
        elif name not in HOUSEKEEPING and not _starts_no_step(words):
            return  # a program lint cannot place on the CPU
    for la in ctx.launches:
        program = (la.program or [""])[0].rsplit("/", 1)[-1]
        if la.wrappers or built.get(program, la.line) >= la.line:
            return  # a program the job did not build before it, or run through a wrapper
        work.append((la.line, f"{program} (line {la.line}), built by a host compiler with no "
                    f"GPU option on line {built[program]}"))
    if not work:
        return
    ndev = ctx.node.devices
    steps = "; ".join(dict.fromkeys(what for _, what in sorted(work)))
    yield Hit(min(line for line, _ in work), f"no step of this job uses a GPU: {steps} run on "
              f"the CPU, so the {ndev} GPUs of each node stay idle, and {whole[0]}",
              "give the GPUs work, or run CPU-only work on a machine of CPU nodes, where it "
              "pays for no idle GPUs", _idle_source(ctx, whole))


_JSRUN_NO_GPU = ("olcf/olcf-user-docs @ 2745903 systems/summit_user_guide.rst (jsrun flags: "
                 "--gpu_per_rs/-g, Number of GPUs per resource set, default 0; Resource Sets: "
                 "a resource set is a cgroup, controlling which resources of a node are "
                 "visible; Software: analysis tasks should be done on the Andes cluster)")


def gpus_of(value: str) -> int | None:
    """The GPU count of --gres=gpu[:type]:N, --gpus=[type:]N or --gpus-per-node=[type:]N."""
    m = re.fullmatch(r"(?:gpu(?::[A-Za-z0-9_]+)?:)?(?:[A-Za-z0-9_]+:)?([0-9]{1,9})",
                     value.strip("\"'"))
    return int(m.group(1)) if m else None


def _serial_steps(ctx: Context) -> Iterator[Hit]:
    """Steps of K GPUs run one after another in a loop (a foreground `srun --gres=gpu:1` per
    file) in a job that asked for N > K per node and starts no step in the background: N - K
    of the GPUs it pays for stay idle the whole loop (round 14, after heldout-2026-11-28n's
    fineweb labelling job, tuned on it)."""
    if ctx.dialect != "slurm" or any(la.background for la in ctx.launches):
        return
    asked = [n for i in ctx.find("--gpus-per-node", "--gres") if ctx.value_ok(i)
             and (n := gpus_of(i.value)) and (i.key != "--gres" or "gpu" in i.value)]
    if ctx.nodes not in (None, 1) or not asked:
        return
    told: set[int] = set()
    for launch in ctx.launches:
        if launch.dialect != "srun" or not launch.looped or launch.line in told:
            continue
        own = launch.flag("--gres", "--gpus", "-G", "--gpus-per-node")
        step = gpus_of(own) if own else None
        if step and step < max(asked):
            told.add(launch.line)
            yield Hit(launch.line, f"each step of this loop asks {step} GPU(s) and runs in the "
                      f"foreground, one after another, in a job that holds {max(asked)}: "
                      f"{max(asked) - step} of them idle (and billed) the whole loop",
                      "start each step in the background (`srun ... &`, `wait` after the "
                      "loop), or ask the job for the GPUs one step uses",
                      "Slurm srun(1): a job step runs until it ends; the batch script goes on "
                      "after a foreground step only when it has ended (bash(1) &: "
                      "asynchronous)")


def _last_node_idle(ctx: Context, launch: LaunchView, rpn: int, ndev: int,
                    whole: tuple[str, str]) -> Iterator[Hit]:
    """Ranks that fill every node's devices but the last's: `-n 32 -ppn 6` on 6 nodes puts
    2 ranks on the sixth, whose other 4 devices stay idle (round 14, after heldout-2026-11-28n's
    PyQUDA job, tuned on it)."""
    total, nodes = launch.total_ranks, launch.nodes
    if not total or not nodes or launch.own_hosts or total % rpn == 0 or \
            -(-total // rpn) != nodes:
        return
    last = total % rpn
    yield Hit(launch.line, f"{total} ranks at {rpn} per node, one device each, fill {nodes - 1} "
              f"node(s) and put {last} on the last: {ndev - last} of its {ndev} devices idle, "
              f"and {whole[0]}", f"launch {nodes * rpn} ranks ({rpn} per node on {nodes} "
              f"nodes), or ask for {total // rpn} node(s) and {total // rpn * rpn} ranks",
              _idle_source(ctx, whole))


def _tiles_of_wrapper(ctx: Context, launch: LaunchView,
                      rpn: int) -> tuple[set[int], int, str, str] | None:
    """(the tiles the ranks of a node take, the node's tiles, the wrapper's name and its
    rank-to-tile formula in the site's guide) for a launch
    through the site's documented per-tile wrapper (Aurora's gpu_tile_compact.sh: each rank
    gets one tile, ZE_AFFINITY_MASK=GPU.tile, so the node's 12 tiles, not its 6 GPUs, are what
    the ranks fill; round 14, after heldout-2026-11-27b's nek2ascent job, tuned on it)."""
    listed = None if launch.wrappers else gpu_bind_tiles(ctx, launch)
    if listed:  # the launcher's own tile list (PALS --gpu-bind=list:0.0:0.1:...)
        return set(listed.values()), ctx.node.devices, "--gpu-bind=list", ""
    wrapper = _documented_wrapper(ctx, launch)
    if wrapper is None or not wrapper.device_of_rank or not rpn or any(
            w.rsplit("/", 1)[-1] == wrapper.name and w.startswith(("./", "../", "$"))
            for w in launch.wrappers):
        return None  # (a copy of the user's own, `./gpu_tile_compact.sh`: maybe changed)
    used = set(rank_devices(ctx, launch).values())
    formula = wrapper.device_of_rank.replace("LOCAL_RANK", "r")
    return (used, ctx.node.devices, wrapper.name, formula) if used else None


# One process told to use one device: a device argument naming the backend without an index
# (`--device xpu`, `--device=cuda:0`), or Python code (a here-document, `python -c`) that moves
# its work to it (`.to("xpu")`, `device = "xpu"`). PyTorch's "xpu" (and "cuda") is the current
# device, index 0, one tile of the 12 an Aurora process sees (argonne-lcf/user-guides @ 7d04a3f9
# docs/aurora/data-science/frameworks/pytorch.md L37-50: "Number of tiles = 12", "Current tile
# = 0"; L131 "training a PyTorch model on a single GPU tile" with model.to("xpu")).
_BACKENDS = {"intel": "xpu", "nvidia": "cuda", "amd": "cuda"}
_TORCH_DEVICE = ("PyTorch docs/source/tensor_attributes.rst, torch.device (a device without an "
                 "ordinal is the current device of its type, e.g. 'cuda' is 'cuda:X' with X "
                 "torch.cuda.current_device())")
_ONE_TILE = ("argonne-lcf/user-guides @ 7d04a3f9 docs/aurora/data-science/frameworks/pytorch.md "
             "L37-50 (one process sees 12 tiles, current tile 0), L131 (model.to(\"xpu\"): a "
             "model on a single GPU tile)")
# One process of a framework uses one device unless its code spreads the work: TensorFlow
# "code, and tf.keras models will transparently run on a single GPU ... The simplest way to run
# on multiple GPUs ... is using Distribution Strategies" (tensorflow/docs site/en/guide/
# gpu.ipynb); PyTorch's device without an index is the current one (_TORCH_DEVICE).
# A program told to run on the CPU (`--device=cpu`, `--accelerator cpu`, `--no-cuda`)
_ON_CPU = re.compile(r"(?i)--?(?:device|accelerator|backend)[= ]cpu\b|--(?:no[-_](?:cuda|gpu)|"
                     r"cpu(?:[-_]only)?)(?:\s|$)")
_FARMS_OUT = re.compile(r"(?i)parsl|workflow|parallel|executor|dask|\bray\b|mpi|launch")
_DEFAULT_DEVICE = ("tensorflow/docs site/en/guide/gpu.ipynb (tf.keras models run on a single "
                   "GPU; several GPUs need a distribution strategy); " + _TORCH_DEVICE)
_ONE_DEVICE_CODE = (r"""\.to\(\s*["']{b}(?::0)?["']|torch\.device\(\s*["']{b}(?::0)?["']|"""
                    r"""\bdevice\s*=\s*["']{b}(?::0)?["']""")
_MULTI_FLAG = re.compile(r"(?i)--?(?:tp|pp|dp|ws|world[-_]size|ngpu|gpus|devices|nproc\w*)")
_MULTI_CODE = re.compile(
    r"(?i)device_map|dataparallel|init_process_group|torch\.distributed|set_device|local_rank|"
    r"(?:xpu|cuda):[1-9]|tensor.?parallel|deepspeed|accelerate|mpi4py|horovod|\bjax\b|vllm|"
    r"\bray\b|multiprocessing|spawn")


def _one_device_processes(ctx: Context, whole: tuple[str, str]) -> Iterator[Hit]:
    """A process the batch shell runs itself (on the job's first node), or a launch of one
    rank per node, that uses one device (see above) of a whole node, with no device variable
    or wrapper narrowing it (GPU008's masked case) and no sign of using several."""
    gpus, ndev = ctx.profile.node.gpus, ctx.node.devices
    backend = _BACKENDS.get(gpus.vendor) if gpus else None
    if backend is None or ndev < 2:
        return
    facts = ctx.profile.launch_facts
    candidates: list[tuple[int, list[str], str]] = []
    # the batch shell's own process is the job's work only where no launch starts ranks (a
    # check such as `python -c "...device='xpu'..."` before an mpiexec is not); Summit's
    # batch shell runs on the launch node (LAUNCH004)
    if (facts is None or facts.batch_host is None) and \
            all(la.shell for la in ctx.launches):
        candidates += [(line, unwrap(words)[0], "one process")
                       for line, words in ctx.script.commands
                       if not any(name in ctx.script.exported(line) for name in _VISIBLE)]
    candidates += [(la.line, la.program, "one rank per node") for la in ctx.launches
                   if not la.shell and la.ranks_per_node == 1 and not la.wrappers and
                   la.dialect != "spawn" and not any(name in la.env for name in _VISIBLE)]
    one_code = re.compile(_ONE_DEVICE_CODE.format(b=backend))
    # the AI programs among them whose device use the script does not say: one process of
    # PyTorch or TensorFlow uses one device unless its code spreads the work (info: the code
    # may; heldout-2026-11-27f/i/j/l's one-process Polaris jobs, read in their repositories)
    # (a program in a variable, `python $DRIVER`, or one that farms work out, `--parsl_executor`,
    # run_parallel_workflow.py, may start its own ranks: not told; the batch shell's only)
    usual = {la.line for la in ctx.launches if la.shell and la.ai and
             not model_client(ctx, la) and is_python((la.program or [""])[0]) and
             len(la.program) > 1 and
             re.fullmatch(r"[\w.-]+\.py", la.program[1].rsplit("/", 1)[-1]) and
             not any(_FARMS_OUT.search(w) for w in la.program) and
             not _ON_CPU.search(" ".join(la.program)) and
             not any(name in la.env for name in _VISIBLE) and not _MULTI_DEVICE.search(
                 la.container.image if la.container else "") and
             not _MULTI_CODE.search(_python_code(ctx, la.line, la.program))}
    for line, program, who in candidates:
        if not program or program[0].rsplit("/", 1)[-1] in _MULTI_LAUNCHERS or any(
                _MULTI_DEVICE.search(w) or _MULTI_FLAG.fullmatch(w) for w in program):
            continue
        told = _device_argument(program, backend)
        if told is None and is_python(program[0]):
            code = _python_code(ctx, line, program)
            if code and one_code.search(code) and not _MULTI_CODE.search(code):
                told = f'code that moves its work to "{backend}"'
        if told is None:
            if line in usual and who == "one process":
                yield Hit(line, f"{who} of an AI program on a node of {ndev} devices, with no "
                          "sign in the script of using more than one (no launcher, device "
                          "count, DataParallel or strategy in its words): if it uses one "
                          f"device (the frameworks' default), {ndev - 1} device(s) of each "
                          f"node idle, and {whole[0]}", f"check how many devices the program "
                          f"uses; if one, run one rank per device ({ndev} per node, e.g. "
                          f"mpiexec -n {ndev} --ppn {ndev} with a device per rank), or ask "
                          "for a shared queue or partition where the site has one",
                          f"{_DEFAULT_DEVICE}; {_idle_source(ctx, whole)}", "info")
            continue
        if told is not None:
            yield Hit(line, f"{who} that uses one device ({told}: {backend} is the "
                      f"current device, index 0) on a node of {ndev} devices: {ndev - 1} "
                      f"device(s) of each node idle, and {whole[0]}",
                      f"run one rank per device ({ndev} per node, e.g. mpiexec -n {ndev} "
                      f"--ppn {ndev} with a device per rank), or use the node's devices from "
                      "the program", "; ".join((_TORCH_DEVICE, _ONE_TILE) if backend == "xpu"
                                               else (_TORCH_DEVICE,)) + "; " +
                      _idle_source(ctx, whole))


def _device_argument(program: list[str], backend: str) -> str | None:
    """`--device xpu` / `--device=xpu:0` / `-d gpu` among a program's words: one device."""
    one = re.compile(rf"(?i)(?:{backend}|gpu)(?::0)?")
    for k, w in enumerate(program[1:], 1):
        key, eq, value = w.partition("=")
        if key in ("--device", "-device", "--device-type", "--device_type") and not eq and \
                k + 1 < len(program):
            value = program[k + 1]
        elif not (eq and key in ("--device", "-device", "--device-type", "--device_type")):
            continue
        if one.fullmatch(value.strip("\"'")):
            return f"{key} {value}"
    return None


def _python_code(ctx: Context, line: int, program: list[str]) -> str:
    """The code a python command runs from its words (`python -c CODE`) or from the
    here-document after its line (`python - <<'EOF'`)."""
    if "-c" in program[1:3]:
        k = program.index("-c")
        return program[k + 1] if k + 1 < len(program) else ""
    if len(program) > 1 and program[1] != "-":
        return ""
    body = []
    number = line + 1
    while number in ctx.script.heredoc_lines:
        body.append(ctx.script.lines[number - 1])
        number += 1
    return "\n".join(body)


def _idle_source(ctx: Context, whole: tuple[str, str]) -> str:
    """Where an idle-device finding's facts come from: the node's devices and why the job
    has its nodes whole."""
    gpus = ctx.profile.node.gpus
    return "; ".join(x for x in (gpus.source if gpus else "", whole[1]) if x)


# Data staged into the node's memory (its /tmp, /dev/shm): what a job takes a node whole for
_NODE_MEMORY = re.compile(r"(?m)^[^#\n]*\b(?:cp|rsync|tar|unzip|sbcast|mv)\b[^\n]*"
                          r"(?:/tmp\b|/dev/shm|\$\{?TMPDIR\b)")


def _asked_fewer_devices(ctx: Context, whole: tuple[str, str]) -> Iterator[Hit]:
    """A Slurm job that asks for K < N devices per node (`--gpus-per-node=K`,
    `--gres=gpu:K`) on a partition that gives (and bills) whole nodes: N - K stay idle,
    whatever the script runs (also where lint cannot see the launch: a sourced file)."""
    family, item = ctx.partition.family, ctx.partition.item
    if ctx.dialect != "slurm" or not family or not item or \
            family.partitions.get(item.value) != "exclusive" and (
                ctx.partition.allocation != "exclusive" or _NODE_MEMORY.search(ctx.script.text)):
        # (a shared partition taken whole with --exclusive is billed as a whole node too,
        # LUMI's slices of cores and memory; not where the job fills the node's memory with
        # staged data, which is what it took the node for)
        return
    ndev = ctx.node.devices
    # a shared partition taken whole (--exclusive): idle devices are the bill's price only
    # where the job did not take the node for its memory or cores: a condition, a note
    taken = family.partitions.get(item.value) != "exclusive"
    if not taken and ndev and not _asks_gpus(ctx):
        # no GPU asked at all on a partition that gives and bills whole GPU nodes (standard-g:
        # 4 GPU-hours per node-hour): every device of the job's nodes is paid for and none is
        # the job's; the guide sends serial pre/post-processing to the small partitions (round
        # 19, after heldout-2026-11-27l's sft-pipeline stage 1 and heldout-2026-11-28r's
        # SBGM data split, standard-g jobs asking no GPU: tuned on them)
        billing = ctx.profile.scheduler.billing
        yield Hit(item.line, f"{item.value} gives (and bills) whole GPU nodes, and the job asks "
                  f"for none of their {ndev} devices (no --gpus-per-node, --gpus or "
                  f"--gres=gpu): all {ndev} device(s) of each node idle and paid for",
                  "run CPU-only work on the site's CPU partition"
                  + (" (LUMI-C: small, standard)" if ctx.profile.name == "lumi" else "")
                  + f", or ask for the node's {ndev} devices (--gpus-per-node={ndev}) and use "
                  "them", (f"{billing.source}; " if billing else "") + _SERIAL_ON_SMALL)
        return
    for item in ctx.find("--gpus-per-node", "--gres"):
        value = item.value.strip("\"'")
        if item.key == "--gres":
            m = re.fullmatch(r"gpu(?::[A-Za-z0-9_]+)?:([0-9]+)", value)
            value = m.group(1) if m else ""
        n = as_int(value.split(":")[-1]) if ctx.value_ok(item) else None
        if n == 0 and ndev and item.key == "--gpus-per-node":
            # a CPU-only job on GPU nodes billed whole: every device idle and paid for (LUMI's
            # GPU partitions bill GPU hours, a node taken whole 4 an hour; CPU work belongs on
            # LUMI-C: spot set 2026-11-28o's rapid-earthquake jobs, small-g --exclusive
            # --gpus-per-node=0; tuned on them)
            yield Hit(item.line, f"{item.key}=0 on nodes of {ndev} devices: a CPU-only job "
                      f"that holds GPU nodes whole, all {ndev} device(s) of each idle, and "
                      f"{whole[0]}", "run CPU-only work on the site's CPU partition"
                      + (" (LUMI-C: small, standard)" if ctx.profile.name == "lumi" else "")
                      + ", or give the job's program the GPUs it pays for",
                      _idle_source(ctx, whole))
            continue
        if n and ndev and n < ndev:
            unless = (": unless the job needs the node's memory or cores, a job of "
                      f"{n} GCD(s) without --exclusive pays for those alone") if taken else ""
            yield Hit(item.line, f"{item.key}={item.value} on nodes of {ndev} devices: "
                      f"{ndev - n} device(s) of each node idle, and {whole[0]}{unless}",
                      f"ask for all {ndev} devices and use them, or a shared partition that "
                      "bills the devices you ask for",
                      _idle_source(ctx, whole), "info" if taken else None)
    # --gpus=N (-G N): the job's devices in all; its nodes (one where it names none) hold more
    nodes = ctx.nodes if ctx.find("--nodes", "-N") else 1
    for item in ctx.find("--gpus", "-G"):
        n = as_int(item.value.strip("\"'").split(":")[-1]) if ctx.value_ok(item) else None
        if n and ndev and nodes and n < nodes * ndev:
            yield Hit(item.line, f"{item.key}={item.value} on {nodes} node(s) of {ndev} "
                      f"devices: {nodes * ndev - n} device(s) idle, and {whole[0]}",
                      f"ask for all {nodes * ndev} devices and use them, or a shared "
                      "partition that bills the devices you ask for",
                      _idle_source(ctx, whole))


_SERIAL_ON_SMALL = ("Lumi-supercomputer/lumi-userguide @ 6c3a26c0 docs/runjobs/scheduled-jobs/"
                    "partitions.md (Small partitions: \"Allocating an entire node for a serial "
                    "pre/post-processing job or for an application that can only use a single "
                    "GPU is not an efficient use of the resources\")")
# The options a Slurm job asks GPUs with (sbatch(1): --gpus, -G, --gpus-per-node,
# --gpus-per-task, --gpus-per-socket, --gres=gpu..., --tres-per-task=gres/gpu...)
_GPU_OPTIONS = ("--gpus", "-G", "--gpus-per-node", "--gpus-per-task", "--gpus-per-socket")
_GPU_OPTION_TEXT = re.compile(r"--(?:gpus|gpus-per-(?:node|task|socket))\b|(?:^|\s)-G\s*\d|"
                              r"--(?:gres|tres-per-task)[= ]\S*gpu")


def _asks_gpus(ctx: Context) -> bool:
    """The job asks for GPUs somewhere lint can see: a directive, an srun of its own, or the
    sbatch command its comments give (`# sbatch --gpus-per-node=8 job.sh`); or it cannot
    tell (a directive lint cannot read, a value in a variable)."""
    # (also a GPU option misspelt, `--gpus_per_node=8`: SCHED013 tells the spelling)
    if ctx.find(*_GPU_OPTIONS) or any(
            "gpu" in i.value for i in ctx.find("--gres", "--tres-per-task")) or any(
            "gpu" in i.key.lower() for i in ctx.items):
        return True
    if not ctx.own_directives() or any("$" in d.text for d in ctx.own_directives()):
        return True
    if any(_GPU_OPTION_TEXT.search(c) for c in ctx.submit_commands()):
        return True
    return any(_GPU_OPTION_TEXT.search(la.text or "") for la in ctx.launches)


def _background_jsruns_fewer_gpus(ctx: Context, jsruns: list[LaunchView],
                                   whole: tuple[str, str]) -> Iterator[Hit]:
    """Steps started together in the background (`jsrun -n 1 -g 1 ... &` five times, then
    `wait`) whose resource sets ask for fewer GPUs in all than the job's whole nodes hold: the
    rest stay idle while they run. Only a group of literal -n and -g, none in a loop or a
    function, between two waits (round 17, after heldout-2026-11-28q's PAN_of_HGF OpenMM jobs:
    five one-GPU productions on a six-GPU node; tuned on them)."""
    nodes, ndev = (ctx.nodes if ctx.whole else None), ctx.node.devices
    if not nodes or not ndev:
        return
    waits = sorted(line for line, words in ctx.script.commands if words and words[0] == "wait")
    groups: list[list[LaunchView]] = []
    for launch in jsruns:
        prev = groups[-1][-1] if groups and groups[-1] else None
        if prev is None or not prev.background or any(
                prev.line < w < launch.line for w in waits):
            groups.append([])
        groups[-1].append(launch)
    for group in groups:
        if not all(la.background and not la.looped and la.at == la.line for la in group):
            continue
        asked = [(as_int(la.flag("-n", "--nrs")), as_int(la.flag("-g", "--gpu_per_rs")))
                 for la in group]
        if any(n is None or g is None for n, g in asked) or any(la.flag("-r", "--rs_per_host")
                                                                 for la in group):
            continue
        used = sum(n * g for n, g in asked if n and g)
        if not used or used >= nodes * ndev:
            continue
        yield Hit(group[0].line, f"{len(group)} step(s) started together in the background "
                  f"ask for {used} GPU(s) in all (lines {', '.join(str(la.line) for la in group)})"
                  f": {nodes * ndev - used} of the {nodes * ndev} GPUs of the job's {nodes} "
                  f"node(s) stay idle while they run, and {whole[0]}",
                  f"start one more step per idle GPU, or give the steps all {nodes * ndev} "
                  "GPUs", _idle_source(ctx, whole))


def _jsrun_fewer_gpus(ctx: Context, whole: tuple[str, str]) -> Iterator[Hit]:
    """A jsrun whose resource sets ask for fewer GPUs in all (-n sets x -g GPUs each) than
    the job's whole nodes hold: the rest stay idle whatever the program is (a resource set is
    a cgroup of the GPUs it asks for: olcf/olcf-user-docs @ 2745903 systems/summit_user_guide.rst
    L1336-1340). Only a launch the batch shell waits for alone (not one of several started in
    the background, which may share the nodes), with literal -n and -g. Round 5, after the
    blind measurement of heldout-2026-11-27b (tuned on it)."""
    jsruns = [la for la in ctx.launches if la.dialect == "jsrun"]
    if any(la.background for la in jsruns):
        return  # (_background_jsruns_fewer_gpus's)
    # the job's nodes where its directives say them; else (a script run inside a job, or one
    # submitted with options) the job has at least one node: a bound that is never too high
    known = ctx.nodes if ctx.whole else None
    ndev = ctx.node.devices
    # a line run with several sizes (a loop over GPU counts: a scaling study) is not held to
    # the bound: its sizes are the point
    sizes: dict[int, set[tuple[str, ...]]] = {}
    for launch in jsruns:
        sizes.setdefault(launch.line, set()).add(tuple(launch.argv))
    for launch in jsruns:
        if known is None and len(sizes[launch.line]) > 1:
            continue
        sets = as_int(launch.flag("-n", "--nrs"))
        per_host = as_int(launch.flag("-r", "--rs_per_host"))
        gpus = as_int(launch.flag("-g", "--gpu_per_rs"))
        if not gpus or not ndev:
            continue  # -g 0: a CPU program, which asks for no GPU
        if known is None and per_host and per_host * gpus < ndev:
            # -r sets on every node the launch uses, whatever the job's size (round 9)
            yield Hit(launch.line, f"jsrun -r {per_host} -g {gpus}: {per_host * gpus} GPU(s) "
                      f"of each node's {ndev}, {ndev - per_host * gpus} idle on every node it "
                      f"uses, and {whole[0]}", f"use all {ndev} GPUs of each node (-r "
                      f"{ndev // _fit(gpus, ndev)} -g {_fit(gpus, ndev)})",
                      _idle_source(ctx, whole))
            continue
        nodes = known if known is not None else 1
        if sets is None and per_host and not launch.flag("-n", "--nrs"):
            sets = per_host * nodes  # -r alone: that many sets on every node of the job
        if not sets:
            continue
        idle = nodes * ndev - sets * gpus
        if idle > 0 and (known is not None or sets * gpus < ndev):
            # GPUs per set that divide the node's (6: 1, 2, 3 or 6), sets to fill every node
            fit = _fit(gpus, ndev)
            shown = f"-n {sets} -g {gpus}" if launch.flag("-n", "--nrs") else \
                f"-r {per_host} -g {gpus}"
            held = f"the {nodes * ndev} on {nodes} node(s)" if known is not None else \
                f"the {ndev} of the job's first node (at least)"
            yield Hit(launch.line, f"jsrun {shown}: {sets * gpus} GPU(s) of {held}, {idle} "
                      f"idle, and {whole[0]}",
                      f"use all {ndev} GPUs of each node (-n {nodes * ndev // fit} -g {fit}"
                      f", {ndev // fit} resource set(s) per node), or ask for fewer nodes",
                      _idle_source(ctx, whole))


def _fit(gpus: int, ndev: int) -> int:
    """GPUs per resource set that divide the node's (6: 1, 2, 3 or 6), at most `gpus`."""
    return max(d for d in range(1, min(gpus, ndev) + 1) if ndev % d == 0)


# The variables that narrow what devices a process sees (Level Zero, CUDA, HIP, ROCr).
_VISIBLE = ("ZE_AFFINITY_MASK", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
            "ROCR_VISIBLE_DEVICES")


def _masked_devices(launch: LaunchView) -> int | None:
    """How many devices one process sees when the script narrows them to a literal list
    (ZE_AFFINITY_MASK=0: one): the process can use no more. None where it is not narrowed
    (one process may drive all the node's devices) or the list is computed."""
    listed = _mask_list(launch)
    return len(listed) if listed is not None else None


def _mask_list(launch: LaunchView) -> list[str] | None:
    """The literal device list a launch's processes are narrowed to (`CUDA_VISIBLE_DEVICES=0,1`,
    also with a trailing comma, `CUDA_VISIBLE_DEVICES=0,`: CUDA reads the list up to the first
    entry that is not a device), or None (not narrowed, or computed)."""
    for name in _VISIBLE:
        value = mask_value(name, launch.env.get(name, "")).rstrip(",")
        if re.fullmatch(r"[0-9]+(?:\.[0-9]+)?(?:,[0-9]+(?:\.[0-9]+)?)*", value):
            return value.split(",")
    return None


def _narrowed(ctx: Context) -> list[tuple[LaunchView, list[str]]]:
    """The launches whose processes a literal list of the vendor's variable narrows (see
    _shared_mask), with their lists; none where another launch of a GPU program may use the
    devices they leave."""
    names = vendor_masks(ctx.profile)
    narrowed: list[tuple[LaunchView, list[str]]] = []
    for launch in ctx.launches:
        listed = _mask_list(launch)
        if listed is None or launch.dialect == "spawn" or device_wrapper(launch) or \
                not any(n in launch.env for n in names) or model_client(ctx, launch):
            continue
        if launch.shell or launch.ranks_per_node is not None:
            narrowed.append((launch, listed))
    others = [la for la in ctx.launches if all(la is not n for n, _ in narrowed) and
              not la.shell and (la.ai or device_wrapper(la))]
    return [] if others else narrowed


def _shared_mask(ctx: Context, whole: tuple[str, str],
                 narrowed: list[tuple[LaunchView, list[str]]]) -> Iterator[Hit]:
    """Processes narrowed by a literal device list that, all together, leave devices of a
    node allocated whole unused: every rank of a launch that sees the same exported list
    (`export CUDA_VISIBLE_DEVICES=0` before `mpiexec -n 4 --ppn 4`: four ranks on GPU 0, as
    under MPS), or the one-process commands of the batch shell, each given its own list
    (`CUDA_VISIBLE_DEVICES=0 python a.py &`, `CUDA_VISIBLE_DEVICES=1 python b.py`): their
    devices in all, against the node's. A process narrowed by its vendor's variable runs on
    the devices listed, whatever lint knows of the program (CUDA Programming Guide, CUDA
    Environment Variables: "Only the devices whose index is present in the sequence are
    visible to CUDA applications"). Not where a per-rank wrapper sets the device again, nor
    for a model server's clients. Round 11, after the blind measurement of
    heldout-2026-11-27i (tuned on it)."""
    if not narrowed:
        return
    names = vendor_masks(ctx.profile)
    used = {d for _, listed in narrowed for d in listed}
    first = narrowed[0][0]
    ndev = devices(ctx, first)
    if not ndev or len(used) >= ndev:
        return
    ranks = "its ranks" if not first.shell and (first.ranks_per_node or 1) > 1 else \
        "the process(es)"
    shown = ", ".join(sorted(used, key=lambda d: [int(x) for x in d.split(".")]))
    mode, why = hierarchy(ctx, first)
    kind = f" under {mode} ({why})" if mode else ""
    yield Hit(first.line, f"{ranks} narrowed to device(s) {shown} "
              f"({'/'.join(n for n in names if n in first.env)}) on {ndev} devices per "
              f"node{kind}: {ndev - len(used)} device(s) of the node idle, and {whole[0]}",
              f"give each rank its own device ({ndev} ranks per node, a device per local "
              "rank), or list every device of the node",
              "CUDA Programming Guide, CUDA Environment Variables (CUDA_VISIBLE_DEVICES: only "
              "the devices listed are visible); " + _idle_source(ctx, whole))


def device_wrapper(launch: LaunchView) -> bool:
    """A per-rank device wrapper runs the program (set_affinity_gpu_polaris.sh, select_gpu)."""
    return any(_device_wrapper_name(w.rsplit("/", 1)[-1]) for w in launch.wrappers)
