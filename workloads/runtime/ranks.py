"""Rank discovery for any launcher, shared by the PyTorch and TensorFlow runtimes.

Imports nothing but the standard library, so a TensorFlow run never imports torch.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

# (launcher, rank vars, local-rank vars, world-size vars, local-world-size vars); first hit wins.
# Order matters: a wrapper's RANK beats everything; MPI launchers beat Slurm because a batch
# script's environment carries SLURM_PROCID=0 for every rank that mpiexec starts.
_LAUNCHERS: tuple[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]],
                  ...] = (
    ("torchrun", ("RANK",), ("LOCAL_RANK",), ("WORLD_SIZE",), ("LOCAL_WORLD_SIZE",)),
    ("horovodrun", ("HOROVOD_RANK",), ("HOROVOD_LOCAL_RANK",), ("HOROVOD_SIZE",),
     ("HOROVOD_LOCAL_SIZE",)),
    ("openmpi", ("OMPI_COMM_WORLD_RANK",), ("OMPI_COMM_WORLD_LOCAL_RANK",),
     ("OMPI_COMM_WORLD_SIZE",), ("OMPI_COMM_WORLD_LOCAL_SIZE",)),
    ("jsrun", ("JSM_NAMESPACE_RANK",), ("JSM_NAMESPACE_LOCAL_RANK",), ("JSM_NAMESPACE_SIZE",),
     ("JSM_NAMESPACE_LOCAL_SIZE",)),
    ("pals", ("PALS_RANKID",), ("PALS_LOCAL_RANKID", "PMI_LOCAL_RANK"), ("PMI_SIZE",),
     ("PALS_LOCAL_SIZE", "PMI_LOCAL_SIZE")),
    ("mpich", ("PMI_RANK",), ("MPI_LOCALRANKID", "PMI_LOCAL_RANK"), ("PMI_SIZE",),
     ("MPI_LOCALNRANKS", "PMI_LOCAL_SIZE")),
    # SLURM_STEP_NUM_TASKS only exists inside an srun step, unlike SLURM_NTASKS.
    ("slurm", ("SLURM_PROCID",), ("SLURM_LOCALID",), ("SLURM_STEP_NUM_TASKS",),
     ("SLURM_STEP_TASKS_PER_NODE", "SLURM_TASKS_PER_NODE")),
)


@dataclass(frozen=True)
class DistEnv:
    rank: int
    local_rank: int
    world_size: int
    local_world_size: int
    launcher: str  # which variables were used ("none" for a plain single process)
    variables: tuple[str, ...] = ()  # the names read: rank, local rank, world, local world


# (launcher, a variable only it sets in each rank's environment); first hit wins. MPI
# launchers come before srun because MPICH's hydra starts its proxies with srun under Slurm.
_STARTERS: tuple[tuple[str, str], ...] = (
    ("spawn", "JOBGEN_SPAWN_ID"),  # jobgen's own spawner (workloads/spawn.py)
    ("torchrun", "TORCHELASTIC_RUN_ID"),
    ("horovodrun", "HOROVOD_RANK"),
    ("pals", "PALS_RANKID"),
    ("openmpi", "OMPI_COMM_WORLD_RANK"),
    ("jsrun", "JSM_NAMESPACE_RANK"),
    ("mpich", "MPI_LOCALRANKID"),
    ("srun", "SLURM_STEP_NUM_TASKS"),
)


def started_by(environ: Mapping[str, str] | None = None) -> str:
    """The launcher that started this process, from a variable only it sets ("none": started
    directly, "unknown": rank variables without a known launcher's mark).

    Unlike :attr:`DistEnv.launcher` (whose variables were read), this names the process
    manager: under MPICH with the jobgen wrapper the ranks read torch's RANK, but mpiexec
    started them.
    """
    env = os.environ if environ is None else environ
    for name, mark in _STARTERS:
        if env.get(mark) not in (None, ""):
            return name
    return "unknown" if env.get("RANK") not in (None, "") else "none"


def _first(env: Mapping[str, str], names: tuple[str, ...]) -> tuple[str, str] | None:
    """(name, value) of the first of ``names`` set to something."""
    for n in names:
        v = env.get(n)
        if v not in (None, ""):
            return n, v
    return None


def _int(value: str) -> int:
    # Slurm writes counts such as "4(x2)"; take the leading integer.
    m = re.match(r"\s*(\d+)", value)
    if not m:
        raise ValueError(f"cannot parse integer from {value!r}")
    return int(m.group(1))


def detect_dist_env(environ: Mapping[str, str] | None = None) -> DistEnv:
    """Rank, local rank and world size from whichever launcher started this process."""
    env = os.environ if environ is None else environ
    for launcher, rk, lrk, ws, lws in _LAUNCHERS:
        r = _first(env, rk)
        w = _first(env, ws)
        if launcher == "slurm" and w is None and r is not None and (
            env.get("SLURM_STEP_ID") or env.get("SLURM_STEPID")
        ):
            w = _first(env, ("SLURM_NTASKS",))
        if r is None or w is None:
            continue
        rank, world = _int(r[1]), _int(w[1])
        lr = _first(env, lrk)
        lw = _first(env, lws)
        local_world = _int(lw[1]) if lw is not None else world
        local_rank = _int(lr[1]) if lr is not None else rank % max(local_world, 1)
        if not 0 <= rank < world:
            raise ValueError(f"{launcher}: rank {rank} outside world size {world}")
        names = tuple(x[0] for x in (r, lr, w, lw) if x is not None)
        return DistEnv(rank, local_rank, world, local_world, launcher, names)
    return DistEnv(0, 0, 1, 1, "none")


def export_env(de: DistEnv) -> None:
    """Make RANK/LOCAL_RANK/WORLD_SIZE/LOCAL_WORLD_SIZE/MASTER_* visible to torch (env://)."""
    os.environ.setdefault("RANK", str(de.rank))
    os.environ.setdefault("LOCAL_RANK", str(de.local_rank))
    os.environ.setdefault("WORLD_SIZE", str(de.world_size))
    os.environ.setdefault("LOCAL_WORLD_SIZE", str(de.local_world_size))
    if not os.environ.get("MASTER_ADDR"):
        # All ranks on this node (or a single rank): the loopback address is correct.
        if de.world_size == 1 or de.local_world_size == de.world_size:
            os.environ["MASTER_ADDR"] = "127.0.0.1"
        else:
            raise RuntimeError(
                "MASTER_ADDR is not set for a multi-node run: the jobgen wrapper exports it; "
                "otherwise export MASTER_ADDR (first node's address) and MASTER_PORT"
            )
    os.environ.setdefault("MASTER_PORT", "29500")


#: Variables only a process manager that Horovod can join sets: horovodrun (Gloo), or an MPI
#: launcher (Open MPI / Spectrum MPI under jsrun, Cray PALS, MPICH hydra, PMIx). torchrun and a
#: plain process set none of them, and Horovod would then start as a world of one.
_HOROVOD_JOINABLE = ("HOROVOD_RANK", "OMPI_COMM_WORLD_RANK", "PALS_RANKID", "PMI_RANK",
                     "PMIX_RANK")


def horovod_joinable(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this process was started by something Horovod can initialise from."""
    env = os.environ if environ is None else environ
    return any(env.get(name) not in (None, "") for name in _HOROVOD_JOINABLE)


def ranks_per_device(environ: Mapping[str, str] | None = None) -> int:
    """Processes sharing each device, as the jobgen script says (JOBGEN_RANKS_PER_DEVICE)."""
    env = os.environ if environ is None else environ
    try:
        return max(int(env.get("JOBGEN_RANKS_PER_DEVICE") or 1), 1)
    except ValueError:
        return 1


def device_index(local_rank: int, device_count: int,
                 environ: Mapping[str, str] | None = None) -> int:
    """This rank's device among the ``device_count`` it sees.

    Where the site leaves every device visible, consecutive local ranks share a device:
    ``local_rank // JOBGEN_RANKS_PER_DEVICE`` (the jobgen script exports it; 1 when unset).
    Where a wrapper narrowed visibility (CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES,
    ZE_AFFINITY_MASK) the rank sees its own device only, and the modulo makes it device 0.
    """
    return (local_rank // ranks_per_device(environ)) % max(device_count, 1)
