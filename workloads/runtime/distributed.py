"""Rank discovery for any launcher, process-group setup and shutdown."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

import torch
import torch.distributed as dist

from .device import DeviceInfo, device_api
from .ranks import DistEnv, _int, detect_dist_env, export_env, ranks_per_device, started_by

__all__ = ["DistEnv", "detect_dist_env", "export_env", "init_distributed", "ranks_per_device",
           "shutdown", "started_by"]


@dataclass(frozen=True)
class Instance:
    """One of several independent trainings of a job (jobgen --instances-per-device)."""

    index: int
    count: int
    result_file: str | None  # where the job's summary step reads this instance's result


def detect_instance(environ: Mapping[str, str] | None = None) -> Instance | None:
    env = os.environ if environ is None else environ
    if not env.get("JOBGEN_INSTANCE"):
        return None
    index = _int(env["JOBGEN_INSTANCE"])
    count = _int(env.get("JOBGEN_INSTANCES") or str(index + 1))
    return Instance(index, count, env.get("JOBGEN_RESULT_FILE") or None)


SHARED_GPU = ("{n} ranks share each GPU, and NCCL/RCCL refuse two ranks of one communicator "
              "on one GPU ('Duplicate GPU detected')")


def backend_for(dev: DeviceInfo, per_device: int = 1) -> str:
    """nccl (CUDA and ROCm/RCCL), gloo where ranks share a GPU, xccl or ccl (XPU), gloo (CPU)."""
    if dev.type == "cuda":
        return "gloo" if per_device > 1 else "nccl"
    if dev.type == "xpu":
        is_xccl = getattr(dist, "is_xccl_available", None)
        if is_xccl is not None and is_xccl():
            return "xccl"
        try:
            import oneccl_bindings_for_pytorch  # noqa: F401
        except ImportError as exc:  # pragma: no cover - needs Intel stack
            raise RuntimeError(
                "no XPU collective backend: torch has no xccl and oneccl_bindings_for_pytorch "
                "is not installed (use --dist-backend gloo to test)"
            ) from exc
        return "ccl"
    return "gloo"


@dataclass
class DistContext:
    env: DistEnv
    backend: str | None  # None: single process, no process group
    device: DeviceInfo

    @property
    def enabled(self) -> bool:
        return self.backend is not None

    def collective_device(self) -> torch.device:
        return torch.device("cpu") if self.backend == "gloo" else self.device.device

    def barrier(self) -> None:
        if self.enabled:
            if self.backend == "nccl":
                dist.barrier(device_ids=[self.device.device.index])
            else:
                dist.barrier()

    def all_reduce(self, values: list[float], op: str = "max") -> list[float]:
        if not self.enabled:
            return values
        t = torch.tensor(values, dtype=torch.float64, device=self.collective_device())
        rop = {"max": dist.ReduceOp.MAX, "min": dist.ReduceOp.MIN, "sum": dist.ReduceOp.SUM}[op]
        dist.all_reduce(t, op=rop)
        return [float(v) for v in t.cpu().tolist()]


def init_distributed(de: DistEnv, dev: DeviceInfo, timeout_s: float,
                     backend: str | None = None) -> DistContext:
    """Create the process group when world_size > 1 (env:// rendezvous on MASTER_ADDR/PORT).

    The timeout bounds every collective, so a rank that died without the launcher noticing
    makes the others fail instead of hanging forever.
    """
    if de.world_size == 1:
        return DistContext(de, None, dev)
    per_device = ranks_per_device()
    if backend == "nccl" and dev.type == "cuda" and per_device > 1:
        raise RuntimeError(SHARED_GPU.format(n=per_device) + ": use --dist-backend gloo")
    backend = backend or backend_for(dev, per_device)
    if backend == "nccl":
        os.environ.setdefault("TORCH_NCCL_ASYNC_ERROR_HANDLING", "1")
    dist.init_process_group(backend=backend, init_method="env://", rank=de.rank,
                            world_size=de.world_size, timeout=timedelta(seconds=timeout_s))
    return DistContext(de, backend, dev)


def device_id(dev: DeviceInfo) -> str:
    """The device this rank opened, as the node knows it: its PCI address (domain:bus:device)
    where the framework gives it, else its UUID; '' for the CPU."""
    api = device_api(dev)
    if api is None or dev.device.index is None:
        return ""
    try:
        props = api.get_device_properties(dev.device.index)
    except Exception:  # noqa: BLE001 - a device without properties is reported as unknown
        return ""
    bus = getattr(props, "pci_bus_id", None)
    if isinstance(bus, int):
        return (f"{getattr(props, 'pci_domain_id', 0) or 0:04x}:{bus:02x}:"
                f"{getattr(props, 'pci_device_id', 0) or 0:02x}")
    uuid = getattr(props, "uuid", None)
    return str(uuid) if uuid else ""


def all_gather_objects(ctx: DistContext, obj: object) -> list:
    """Every rank's `obj`, in rank order, on every rank (one all-gather)."""
    if not ctx.enabled:
        return [obj]
    out: list = [None] * ctx.env.world_size
    dist.all_gather_object(out, obj)
    return out


def shutdown(ctx: DistContext) -> None:
    """Clean teardown: a barrier first, so no rank destroys the group (or exits and takes the
    rendezvous store with it) while a peer still has collectives in flight."""
    if ctx.enabled and dist.is_initialized():
        ctx.barrier()
        dist.destroy_process_group()


def configure_threads(de: DistEnv, dev: DeviceInfo) -> None:
    """Avoid CPU oversubscription when several ranks share a node and nobody set threads."""
    if "OMP_NUM_THREADS" in os.environ or de.local_world_size <= 1:
        return
    ncpu = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    torch.set_num_threads(max(1, (ncpu or 1) // de.local_world_size))
