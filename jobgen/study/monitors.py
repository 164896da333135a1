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

Lines that are not samples (a tool's warning, a cut last line) are skipped, never guessed at;
so are values that are not finite numbers of sensible size (`nan`, `inf`, beyond `MAX_VALUE`).

The files are read inside the sweep as every other file there (jobgen.study.files): never
through a link (a linked `jobgen-runs`, run or `monitor` directory or file is a one-line
refusal), regular files only (a FIFO never hangs collect), in chunks of bounded size
(`MAX_FILE` per file, beyond it a one-line refusal; a line over `MAX_LINE` is skipped), summed
as they are read: memory does not grow with the file.
"""

from __future__ import annotations

import errno
import math
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..errors import JobgenError
from .files import READ_FLAGS, SweepDir

_UTIL = ("utilization.gpu", "gpu utilization (%)", "gpu use (%)")
_MEM_MIB = ("memory.used", "gpu memory used (mib)")
_MEM_BYTES = ("vram total used memory (b)",)
# rocm-smi's showPower (ROCm/rocm_smi_lib python_smi_tools/rocm_smi.py): Average on MI250X,
# Current Socket on newer GPUs
_POWER_W = ("average graphics package power (w)", "current socket graphics package power (w)")
NVIDIA_FIELDS = ("timestamp", "index", "utilization.gpu", "memory.used", "memory.total")
MAX_FILE = 256 << 20  # 256 MiB per node and sampler: 24 h of 8 GPUs every 5 s is ~40 MB
MAX_LINE = 4096  # a sample line is under 200 bytes (rocm-smi's header under 1 KB)
MAX_VALUE = 1e15  # MiB or %: a larger value is no sample
MAX_NODES = 100_000  # monitor files of one run's directory


@dataclass(frozen=True)
class MonitorSummary:
    nodes: int  # nodes with monitor files
    gpu_mem_peak_mib: float | None
    gpu_util_mean_pct: float | None
    cpu_busy_mean_pct: float | None
    host_mem_peak_mib: float | None
    # mean drawn power of the devices that report it (an MI250X module: on its first GCD)
    gpu_power_mean_w: float | None = None


@dataclass
class _Stat:
    """A running mean and peak (values are bounded, so the sum stays finite)."""

    total: float = 0.0
    count: int = 0
    peak: float | None = None

    def add(self, value: float) -> None:
        self.total += value
        self.count += 1
        self.peak = value if self.peak is None else max(self.peak, value)

    @property
    def mean(self) -> float | None:
        return self.total / self.count if self.count else None


@dataclass
class _Gpu:
    util: _Stat = field(default_factory=_Stat)
    mem: _Stat = field(default_factory=_Stat)
    power: _Stat = field(default_factory=_Stat)  # W, where the sampler reports it
    columns: list[str] | None = None

    def line(self, line: str) -> None:
        cells = [c.strip() for c in line.split(",")]
        if len(cells) < 3:
            return
        lowered = [c.lower() for c in cells]
        if any(name in lowered for name in (*_UTIL, *_MEM_MIB, *_MEM_BYTES, *_POWER_W,
                                            "device")):
            self.columns = lowered  # a header (xpu-smi once, rocm-smi before every sample)
            return
        names = self.columns or list(NVIDIA_FIELDS)
        if len(cells) != len(names):
            return
        row = dict(zip(names, cells, strict=True))
        u = next((_number(row[k]) for k in _UTIL if k in row), None)
        m = next((_number(row[k]) for k in _MEM_MIB if k in row), None)
        if m is None:
            b = next((_number(row[k]) for k in _MEM_BYTES if k in row), None)
            m = b / 2**20 if b is not None else None
        w = next((_number(row[k]) for k in _POWER_W if k in row), None)
        if u is not None:
            self.util.add(u)
        if m is not None:
            self.mem.add(m)
        if w is not None:
            self.power.add(w)


@dataclass
class _Cpu:
    busy: _Stat = field(default_factory=_Stat)
    mem: _Stat = field(default_factory=_Stat)
    header: bool = True

    def line(self, line: str) -> None:
        if self.header:  # time_s,cpu_busy_pct,mem_used_mib,mem_total_mib
            self.header = False
            return
        values = [_number(c) for c in line.split(",")]
        if len(values) == 4 and all(v is not None for v in values):
            self.busy.add(values[1])  # type: ignore[arg-type]
            self.mem.add(values[2])  # type: ignore[arg-type]


def _number(text: str) -> float | None:
    """A sample's value: a finite number from 0 to MAX_VALUE, else None (N/A, [Not
    Supported], empty, nan, inf, 1e400, negative)."""
    try:
        value = float(text.strip().split()[0])
    except (ValueError, IndexError):
        return None
    return value if math.isfinite(value) and 0 <= value <= MAX_VALUE else None


def gpu_samples(text: str) -> tuple[_Stat, _Stat]:
    """(utilisation %, memory used MiB) of the device samples in one node's GPU file."""
    util, mem, _ = gpu_power_samples(text)
    return util, mem


def gpu_power_samples(text: str) -> tuple[_Stat, _Stat, _Stat]:
    """(utilisation %, memory used MiB, drawn power W) of the device samples in one node's
    GPU file; power only where the sampler reports it (rocm-smi --showpower)."""
    gpu = _Gpu()
    for line in text.splitlines():
        gpu.line(line)
    return gpu.util, gpu.mem, gpu.power


def cpu_samples(text: str) -> tuple[_Stat, _Stat]:
    """(CPU busy %, memory used MiB) of one node's CPU file."""
    cpu = _Cpu()
    for line in text.splitlines():
        cpu.line(line)
    return cpu.busy, cpu.mem


def _lines(where: SweepDir, rel: str) -> Iterator[str]:
    """The lines of the regular file `rel` of the sweep, read in chunks (never via a link,
    never more than MAX_FILE bytes; a line over MAX_LINE is skipped)."""
    names = rel.split("/")
    try:
        with where.directory("/".join(names[:-1])) as parent:
            fd = os.open(names[-1], READ_FLAGS, dir_fd=parent)
    except OSError as exc:
        raise where._error(rel, exc, "a monitor file") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise JobgenError(f"{where.path / rel}: not a regular file, not read as a monitor "
                              "file (remove it)")
        if st.st_size > MAX_FILE:
            raise JobgenError(f"{where.path / rel}: {st.st_size} bytes is too large for a "
                              f"monitor file (the limit is {MAX_FILE >> 20} MiB)")
        rest, left, skipping = b"", MAX_FILE, False
        while left > 0:
            chunk = os.read(fd, min(1 << 20, left))
            if not chunk:
                break
            left -= len(chunk)
            *whole, rest = (rest + chunk).split(b"\n")
            for line in whole:
                if not skipping and len(line) <= MAX_LINE:
                    yield line.decode("utf-8", errors="replace")
                skipping = False
            if len(rest) > MAX_LINE:
                rest, skipping = b"", True
        if rest and not skipping and len(rest) <= MAX_LINE:
            yield rest.decode("utf-8", errors="replace")
    except OSError as exc:
        raise where._error(rel, exc, "a monitor file") from None
    finally:
        os.close(fd)


def _entries(where: SweepDir, rel: str) -> list[tuple[str, int]]:
    """(name, mode) of the entries of the directory `rel` (missing: none), sorted; the
    directory itself is never reached through a link."""
    try:
        with where.directory(rel) as fd, os.scandir(fd) as it:
            found = []
            for entry in it:
                found.append((entry.name, entry.stat(follow_symlinks=False).st_mode))
                if len(found) > MAX_NODES:
                    raise JobgenError(f"{where.path / rel}: more than {MAX_NODES} entries; "
                                      "not a run's monitor directory")
            return sorted(found)
    except FileNotFoundError:
        return []
    except NotADirectoryError as exc:
        raise where._error(rel, exc) from None
    except OSError as exc:
        raise where._error(rel, exc, "a monitor directory") from None


def monitor_files(where: SweepDir, run_dir: str) -> list[str]:
    """`jobgen-runs/*/monitor/*.{gpu,cpu}.csv` under a run's directory ('' is the sweep's),
    relative to the sweep. A link or other non-file where a file or directory of that pattern
    stands is a one-line refusal (never followed); anything else is left alone."""
    base = f"{run_dir}/jobgen-runs" if run_dir else "jobgen-runs"
    found = []
    for job, mode in _entries(where, base):
        if job.startswith("."):
            continue
        if stat.S_ISLNK(mode):
            raise where._error(f"{base}/{job}", OSError(errno.ELOOP, "a link"))
        if not stat.S_ISDIR(mode):
            continue
        for name, kind in _entries(where, f"{base}/{job}/monitor"):
            if name.endswith((".gpu.csv", ".cpu.csv")):
                if not stat.S_ISREG(kind) and not stat.S_ISLNK(kind):
                    raise JobgenError(f"{where.path / base / job / 'monitor' / name}: not a "
                                      "regular file, not read as a monitor file (remove it)")
                found.append(f"{base}/{job}/monitor/{name}")
    return found


def summarize(where: SweepDir, run_dirs: list[str]) -> MonitorSummary | None:
    """The monitor files under the runs' directories; None when a run has none."""
    files = [rel for d in run_dirs for rel in monitor_files(where, d)]
    if not files:
        return None
    gpu, cpu = _Gpu(), _Cpu()
    for rel in files:
        if rel.endswith(".gpu.csv"):
            gpu.columns = None
            for line in _lines(where, rel):
                gpu.line(line)
        else:
            cpu.header = True
            for line in _lines(where, rel):
                cpu.line(line)
    nodes = len({rel.rpartition("/")[2].split(".")[0] for rel in files})
    return MonitorSummary(nodes, gpu.mem.peak, gpu.util.mean, cpu.busy.mean, cpu.mem.peak,
                          gpu.power.mean)
