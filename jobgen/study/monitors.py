"""`--monitor`'s per-node files read back for `jobgen collect`: peak device memory and mean
utilisation of the GPUs, mean CPU busy share and peak host memory of a run.

A run's script writes `jobgen-runs/<job name>.<job id>/monitor/HOST.gpu.csv` and `HOST.cpu.csv`
beside itself (templates/_monitor.j2). The GPU files are the site sampler's own text:

- nvidia-smi `--query-gpu=timestamp,index,utilization.gpu,memory.used,memory.total
  --format=csv,noheader,nounits`: no header, the query's fields in order;
- xpu-smi dump: a header line (`GPU Utilization (%)`, `GPU Memory Used (MiB)`), values may be
  N/A (ALCF's own example shows N/A utilisation);
- rocm-smi `--csv`: a header before every sample (`GPU use (%)`, `VRAM Total Used Memory (B)`,
  and with `--showpower` the drawn power, `Average Graphics Package Power (W)`, which an MI250X
  reports on the first GCD of each module, the second reading `N/A (Secondary die)`).

Lines that are not samples (a tool's warning, a cut last line) are skipped, never guessed at.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

_UTIL = ("utilization.gpu", "gpu utilization (%)", "gpu use (%)")
_MEM_MIB = ("memory.used", "gpu memory used (mib)")
_MEM_BYTES = ("vram total used memory (b)",)
# rocm-smi's showPower (ROCm/rocm_smi_lib python_smi_tools/rocm_smi.py): Average on MI250X,
# Current Socket on newer GPUs
_POWER_W = ("average graphics package power (w)", "current socket graphics package power (w)")
NVIDIA_FIELDS = ("timestamp", "index", "utilization.gpu", "memory.used", "memory.total")


@dataclass(frozen=True)
class MonitorSummary:
    nodes: int  # nodes with monitor files
    gpu_mem_peak_mib: float | None
    gpu_util_mean_pct: float | None
    cpu_busy_mean_pct: float | None
    host_mem_peak_mib: float | None
    # mean drawn power of the devices that report it (an MI250X module: on its first GCD)
    gpu_power_mean_w: float | None = None


def _number(text: str) -> float | None:
    try:
        return float(text.strip().split()[0])
    except (ValueError, IndexError):
        return None  # N/A, [Not Supported], empty


def gpu_samples(text: str) -> tuple[list[float], list[float]]:
    """(utilisation %, memory used MiB) of every device sample in one node's GPU file."""
    util, mem, _ = gpu_power_samples(text)
    return util, mem


def gpu_power_samples(text: str) -> tuple[list[float], list[float], list[float]]:
    """(utilisation %, memory used MiB, drawn power W) of every device sample in one node's
    GPU file; power only where the sampler reports it (rocm-smi --showpower)."""
    util: list[float] = []
    mem: list[float] = []
    power: list[float] = []
    columns: list[str] | None = None
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if len(cells) < 3:
            continue
        lowered = [c.lower() for c in cells]
        if any(name in lowered for name in (*_UTIL, *_MEM_MIB, *_MEM_BYTES, *_POWER_W,
                                            "device")):
            columns = lowered  # a header (xpu-smi once, rocm-smi before every sample)
            continue
        names = columns or list(NVIDIA_FIELDS)
        if len(cells) != len(names):
            continue
        row = dict(zip(names, cells, strict=True))
        u = next((_number(row[k]) for k in _UTIL if k in row), None)
        m = next((_number(row[k]) for k in _MEM_MIB if k in row), None)
        if m is None:
            b = next((_number(row[k]) for k in _MEM_BYTES if k in row), None)
            m = b / 2**20 if b is not None else None
        w = next((_number(row[k]) for k in _POWER_W if k in row), None)
        if u is not None:
            util.append(u)
        if m is not None:
            mem.append(m)
        if w is not None:
            power.append(w)
    return util, mem, power


def cpu_samples(text: str) -> tuple[list[float], list[float]]:
    """(CPU busy %, memory used MiB) of one node's CPU file (time_s,cpu_busy_pct,mem_used_mib,
    mem_total_mib)."""
    busy: list[float] = []
    mem: list[float] = []
    for line in text.splitlines()[1:]:
        cells = line.split(",")
        if len(cells) == 4 and all(_number(c) is not None for c in cells):
            busy.append(float(cells[1]))
            mem.append(float(cells[2]))
    return busy, mem


def summarize(run_dirs: list[Path]) -> MonitorSummary | None:
    """The monitor files under the runs' directories; None when a run has none."""
    gpu_files = [p for d in run_dirs for p in sorted(d.glob("jobgen-runs/*/monitor/*.gpu.csv"))]
    cpu_files = [p for d in run_dirs for p in sorted(d.glob("jobgen-runs/*/monitor/*.cpu.csv"))]
    if not gpu_files and not cpu_files:
        return None
    util: list[float] = []
    gmem: list[float] = []
    watts: list[float] = []
    busy: list[float] = []
    hmem: list[float] = []
    for p in gpu_files:
        u, m, w = gpu_power_samples(p.read_text(encoding="utf-8", errors="replace"))
        util += u
        gmem += m
        watts += w
    for p in cpu_files:
        b, m = cpu_samples(p.read_text(encoding="utf-8", errors="replace"))
        busy += b
        hmem += m
    nodes = len({p.name.split(".")[0] for p in (*gpu_files, *cpu_files)})
    return MonitorSummary(nodes, max(gmem) if gmem else None,
                          sum(util) / len(util) if util else None,
                          sum(busy) / len(busy) if busy else None,
                          max(hmem) if hmem else None,
                          sum(watts) / len(watts) if watts else None)
