"""Launcher dialects: the argument list that starts the ranks, with each flag's reason.

One function per dialect, registered by name. Each returns the launcher's arguments as
groups of shell words (a flag and its value) with why and source, so `explain` can show them
and the template only joins them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..frozen import Frozen
from ..profiles.cpus import cpu_mask, format_cpu_list
from ..registry import Registry
from ..shell import Var, Word
from .placement import Slot

TYPE_CHECKING = False  # typing costs a few ms to import; annotations only need it here
if TYPE_CHECKING:  # the render path reads profiles as records (jobgen.profiles.records)
    from ..profiles.model import Profile


class LaunchArg(Frozen):
    words: tuple[Word, ...]
    why: str
    source: str
    layer: str = "plan"
    unconfirmed: str | None = None


class LaunchShape(Frozen):
    nodes: int
    ranks_per_node: int
    slots: tuple[Slot, ...]
    gpus_per_node: int
    forwarded_env: tuple[str, ...]  # variables the ranks need from the batch script
    # jsrun: cores of one resource set per device (ranks sharing a GPU); 0: one set per node
    resource_set_cores: int = 0
    # CPUs per rank where the slots name none (part of a node shared by resource: Slurm picks
    # the cores); 0: the slots' own
    cpus: int = 0


#: `python -m torch.distributed.run` is torchrun, bound to that Python (--python on torchrun sites)
TORCHRUN_MODULE = "torch.distributed.run"
#: jobgen's own process spawner (workloads/spawn.py): torchrun's job on one machine, no torch
SPAWN_MODULE = "workloads.spawn"

LauncherFn = Callable[["Profile", LaunchShape], list[LaunchArg]]
LAUNCHERS: Registry[LauncherFn] = Registry()
launcher = LAUNCHERS.register


def _arg(profile: Profile, why: str, *words: Word) -> LaunchArg:
    return LaunchArg(tuple(words), why, profile.launcher.source)


def _binding(profile: Profile, why: str, *words: Word) -> LaunchArg:
    b = profile.cpu_binding
    return LaunchArg(tuple(words), why, b.source, "plan", b.unconfirmed)


def _profile_args(profile: Profile) -> list[LaunchArg]:
    return [
        LaunchArg((a.value,), a.why, a.source, "profile", a.unconfirmed)
        for a in profile.launcher.args
    ]


def _verbose(profile: Profile) -> str:
    return "verbose," if profile.cpu_binding.verbose else ""


def cpus_per_rank(profile: Profile, shape: LaunchShape) -> int:
    return shape.cpus or min((len(s.cpus) for s in shape.slots), default=0)


@launcher("pals")
def _pals(profile: Profile, shape: LaunchShape) -> list[LaunchArg]:
    total = shape.nodes * shape.ranks_per_node
    out = [
        _arg(profile, "total ranks", "-n", str(total)),
        _arg(profile, "ranks per node", "--ppn", str(shape.ranks_per_node)),
    ]
    style = profile.cpu_binding.style
    if style == "list":
        lists = ":".join(format_cpu_list(s.cpus) for s in shape.slots)
        out.append(_binding(profile, "each local rank on its own cores, in local-rank order",
                            f"--cpu-bind={_verbose(profile)}list:{lists}"))
    elif style == "depth":
        out.append(_binding(profile, "contiguous block of CPUs per rank",
                            f"--depth={cpus_per_rank(profile, shape)}"))
        out.append(_binding(profile, "bind each rank to its depth block",
                            f"--cpu-bind={_verbose(profile)}depth"))
    return out + _profile_args(profile)


@launcher("srun")
def _srun(profile: Profile, shape: LaunchShape) -> list[LaunchArg]:
    out = [
        _arg(profile, "all nodes of the job", f"--nodes={shape.nodes}"),
        _arg(profile, "ranks per node", f"--ntasks-per-node={shape.ranks_per_node}"),
    ]
    per = cpus_per_rank(profile, shape)
    if per:
        out.append(_arg(profile, "srun does not inherit --cpus-per-task from sbatch (Slurm 22.05+)",
                        f"--cpus-per-task={per}"))
    out.append(LaunchArg(("--kill-on-bad-exit=1",), "fail fast: a rank that fails ends the "
                         "whole step instead of leaving the others waiting",
                         "Slurm srun(1) --kill-on-bad-exit"))
    if profile.cpu_binding.style == "mask":
        # Masks as wide as the highest CPU they name, in 64-bit words (as the site docs write them).
        top = max((c for s in shape.slots for c in s.cpus), default=0)
        width = 64 * (top // 64 + 1)
        masks = ",".join(cpu_mask(s.cpus, width) for s in shape.slots)
        out.append(_binding(profile, "one CPU mask per local rank, next to its device",
                            f"--cpu-bind={_verbose(profile)}mask_cpu:{masks}"))
    return out + _profile_args(profile)


@launcher("jsrun")
def _jsrun(profile: Profile, shape: LaunchShape) -> list[LaunchArg]:
    if shape.resource_set_cores:
        return _jsrun_per_device(profile, shape)
    usable = sum(len(s.cores) for s in shape.slots)
    per = cpus_per_rank(profile, shape)
    out = [
        _arg(profile, "one resource set per node", "--nrs", str(shape.nodes)),
        _arg(profile, "resource sets per host", "--rs_per_host", "1"),
        _arg(profile, "tasks (ranks) per resource set", "--tasks_per_rs",
             str(shape.ranks_per_node)),
        _arg(profile, "every GPU of the node in the resource set", "--gpu_per_rs",
             str(shape.gpus_per_node)),
        _binding(profile, "the cores of the resource set", "--cpu_per_rs", str(usable)),
        _binding(profile, "each task packed on its own consecutive cores", f"--bind=packed:{per}"),
        _arg(profile, "tasks placed in order", "--launch_distribution", "packed"),
    ]
    return out + _profile_args(profile)


def _jsrun_per_device(profile: Profile, shape: LaunchShape) -> list[LaunchArg]:
    """One resource set per GPU holding the ranks that share it: jsrun places each set on
    its GPU's socket and shows its tasks only that GPU."""
    sh = profile.device_sharing
    source = sh.source if sh else profile.launcher.source
    devices = len({s.device for s in shape.slots})
    tasks = shape.ranks_per_node // max(devices, 1)

    def arg(text: str, *words: str) -> LaunchArg:
        return LaunchArg(tuple(words), text, source, "plan", sh.unconfirmed if sh else None)

    out = [
        arg("one resource set per GPU in use, on every node", "--nrs",
            str(shape.nodes * devices)),
        arg("resource sets per host: one per GPU in use", "--rs_per_host", str(devices)),
        arg("the ranks sharing one GPU", "--tasks_per_rs", str(tasks)),
        arg("one GPU per resource set, the only one its tasks see", "--gpu_per_rs", "1"),
        _binding(profile, "the GPU's share of its socket's cores", "--cpu_per_rs",
                 str(shape.resource_set_cores)),
        _binding(profile, "each task packed on its own consecutive cores",
                 f"--bind=packed:{cpus_per_rank(profile, shape)}"),
        _arg(profile, "tasks placed in order", "--launch_distribution", "packed"),
    ]
    return out + _profile_args(profile)


@launcher("mpich")
def _mpich(profile: Profile, shape: LaunchShape) -> list[LaunchArg]:
    out = [
        _arg(profile, "total ranks", "-n", str(shape.nodes * shape.ranks_per_node)),
        _arg(profile, "ranks per node", "-ppn", str(shape.ranks_per_node)),
    ]
    if profile.cpu_binding.style == "list":
        lists = ",".join("+".join(str(c) for c in s.cpus) for s in shape.slots)
        out.append(_binding(profile, "each local rank on its own cores (hydra user binding)",
                            "-bind-to", f"user:{lists}"))
    return out + _profile_args(profile)


@launcher("openmpi")
def _openmpi(profile: Profile, shape: LaunchShape) -> list[LaunchArg]:
    out = [
        _arg(profile, "total ranks", "-np", str(shape.nodes * shape.ranks_per_node)),
        _arg(profile, "ranks per node", "-npernode", str(shape.ranks_per_node)),
    ]
    master = profile.launcher.master
    if master.hostfile:
        out.append(_arg(profile, "the job's hosts", "--hostfile", Var(master.hostfile)))
    # Open MPI starts remote ranks with a login environment: forward the module setup
    # (PATH, LD_LIBRARY_PATH) and everything the script exported.
    for name in ("PATH", "LD_LIBRARY_PATH", *shape.forwarded_env):
        out.append(_arg(profile, f"Open MPI forwards only what -x names: {name}", "-x", name))
    return out + _profile_args(profile)


@launcher("torchrun")
def _torchrun(profile: Profile, shape: LaunchShape) -> list[LaunchArg]:
    return [
        _arg(profile, "single node; torchrun picks the rendezvous", "--standalone"),
        _arg(profile, "one node", "--nnodes=1"),
        _arg(profile, "ranks on this machine", f"--nproc-per-node={shape.ranks_per_node}"),
        _arg(profile, "the per-rank wrapper is a script, not a Python file", "--no-python"),
    ] + _profile_args(profile)


@launcher("spawn")
def _spawn(profile: Profile, shape: LaunchShape) -> list[LaunchArg]:
    return [
        _arg(profile, "ranks on this machine", f"--nproc-per-node={shape.ranks_per_node}"),
    ] + _profile_args(profile)


def framework_launcher(profile: Profile, framework: str) -> Profile:
    """The profile with `frameworks.F.launcher` as its launcher, where the site starts this
    framework's ranks differently (a TensorFlow environment has no torchrun)."""
    support = profile.frameworks.get(framework)
    own = getattr(support, "launcher", None) if support is not None else None
    if own is None:
        return profile
    if isinstance(profile, dict):  # the render path's records
        from ..profiles.records import ProfileRecord

        return ProfileRecord({**profile, "launcher": own})
    import dataclasses

    return dataclasses.replace(profile, launcher=own)


def single_node_launcher(profile: Profile, nodes: int) -> Profile:
    """The profile with `launcher.single_node` as its launcher for a one-node job, where the
    site's multi-node launcher is not documented (JLSE: no public source provides mpirun)."""
    own = getattr(profile.launcher, "single_node", None)
    if nodes != 1 or own is None:
        return profile
    if isinstance(profile, dict):  # the render path's records
        from ..profiles.records import ProfileRecord

        return ProfileRecord({**profile, "launcher": own})
    import dataclasses

    return dataclasses.replace(profile, launcher=own)


PerNodeFn = Callable[["Profile", int], list[Word]]
# How a launcher runs one task on each node (MPS daemons, data staging).
PER_NODE: Registry[PerNodeFn] = Registry()
per_node = PER_NODE.register


@per_node("pals")
def _pals_per_node(profile: Profile, nodes: int) -> list[Word]:
    return [profile.launcher.command, "-n", str(nodes), "--ppn", "1"]


@per_node("srun")
def _srun_per_node(profile: Profile, nodes: int) -> list[Word]:
    return [profile.launcher.command, f"--nodes={nodes}", "--ntasks-per-node=1"]


@per_node("jsrun")
def _jsrun_per_node(profile: Profile, nodes: int) -> list[Word]:
    return [profile.launcher.command, "--nrs", str(nodes), "--rs_per_host", "1",
            "--tasks_per_rs", "1", "--cpu_per_rs", "1"]


@per_node("mpich")
def _mpich_per_node(profile: Profile, nodes: int) -> list[Word]:
    return [profile.launcher.command, "-n", str(nodes), "-ppn", "1"]


@per_node("openmpi")
def _openmpi_per_node(profile: Profile, nodes: int) -> list[Word]:
    words: list[Word] = [profile.launcher.command, "-np", str(nodes), "-npernode", "1"]
    if profile.launcher.master.hostfile:
        words += ["--hostfile", Var(profile.launcher.master.hostfile)]
    # remote tasks start with a login environment: the module setup's PATH and libraries, as
    # the ranks' mpirun forwards them (the monitor's rocm-smi comes from the rocm module)
    return [*words, "-x", "PATH", "-x", "LD_LIBRARY_PATH"]


@per_node("torchrun")
@per_node("spawn")
def _torchrun_per_node(profile: Profile, nodes: int) -> list[Word]:
    return []  # one machine: run the command directly


def per_node_ranks(profile: Profile, nodes: int, ranks: int) -> list[Word]:
    """A launch of `ranks` tasks on each of `nodes` nodes (an MPI tool that needs several
    processes per node: dbcast)."""
    dialect, command = profile.launcher.dialect, profile.launcher.command
    if dialect == "pals":
        return [command, "-n", str(nodes * ranks), "--ppn", str(ranks)]
    if dialect == "mpich":
        return [command, "-n", str(nodes * ranks), "-ppn", str(ranks)]
    if dialect == "srun":
        return [command, f"--nodes={nodes}", f"--ntasks-per-node={ranks}"]
    raise ValueError(f"no per-node launch of several tasks for {dialect}")
