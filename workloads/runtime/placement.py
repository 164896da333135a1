"""The run-time placement check of the bundled apps: does each rank run where the plan says?

jobgen's per-rank wrapper exports this rank's row of the plan (JOBGEN_PLACEMENT_*: its CPUs,
NUMA node and device mask) and has already compared what the launcher gave the rank. After
the framework is imported and the device opened (binding can change at `import torch` or at
NCCL start-up), each rank reports again, now with the device the framework opened (PCI bus
id or UUID), every rank receives every report through one all-gather, and rank 0 prints the
job's table: one line per node whose ranks all agree with the plan, every rank of any other
node in full. Ranks of one node that opened the same device (when the plan gives each its
own) or started with the same local rank disagree too. A mismatch stops every rank before
training (exit 2) unless the script says `warn`.

Standard library only (the TensorFlow runtime and the benchmark import it); the framework's
parts come in as functions (`device_id`, `gather`), so tests can inject them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .exits import EXIT_PLACEMENT

SYSFS_CPUS = "/sys/devices/system/cpu"


@dataclass(frozen=True)
class Report:
    """What one rank found, next to what the plan expected ('' where the plan says nothing)."""

    rank: int
    host: str
    local_rank: int
    cpus: str  # the kernel's list notation: 0-7,64-71
    numa: str  # NUMA nodes of those CPUs, '' where sysfs does not say
    mask: str  # the device mask variable's value ('unset' when unset; '' when none planned)
    device: str  # the device the framework opened: PCI bus id or UUID ('' for the CPU)
    want_cpus: str = ""
    want_threads: str = ""  # the same cores with all their SMT threads
    want_numa: str = ""
    want_mask: str = ""
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    def seen(self, mask_variable: str) -> str:
        parts = [f"CPUs {self.cpus or '-'}", f"NUMA {self.numa or '-'}"]
        if mask_variable:
            parts.append(f"{mask_variable} {self.mask or '-'}")
        if self.device:
            parts.append(f"device {self.device}")
        return ", ".join(parts)


def cpu_list(cpus: Iterable[int]) -> str:
    """{0, 1, 2, 5} -> '0-2,5': the kernel's notation (Cpus_allowed_list), sorted."""
    items = sorted(set(cpus))
    out: list[str] = []
    i = 0
    while i < len(items):
        j = i
        while j + 1 < len(items) and items[j + 1] == items[j] + 1:
            j += 1
        out.append(str(items[i]) if i == j else f"{items[i]}-{items[j]}")
        i = j + 1
    return ",".join(out)


def numa_of(cpus: Iterable[int], sysfs: str = SYSFS_CPUS) -> str:
    """The NUMA nodes of `cpus` from sysfs (cpuN/nodeM), in order of first appearance."""
    nodes: list[str] = []
    for cpu in sorted(set(cpus)):
        try:
            names = os.listdir(f"{sysfs}/cpu{cpu}")
        except OSError:
            continue
        for name in names:
            if name.startswith("node") and name[4:].isdigit() and name[4:] not in nodes:
                nodes.append(name[4:])
    return ",".join(nodes)


@dataclass(frozen=True)
class Expected:
    """This rank's row of the plan, as the wrapper exported it."""

    mode: str  # stop | warn
    host: str
    cpus: str
    threads: str
    numa: str
    mask_variable: str
    mask: str


def expected(environ: Mapping[str, str] | None = None) -> Expected | None:
    """The plan's row for this rank, or None when the script asked for no check (or this
    process was not started by a jobgen script)."""
    env = os.environ if environ is None else environ
    mode = env.get("JOBGEN_PLACEMENT_CHECK", "")
    if mode not in ("stop", "warn"):
        return None
    return Expected(mode, env.get("JOBGEN_PLACEMENT_HOST") or os.uname().nodename,
                    env.get("JOBGEN_PLACEMENT_CPUS", ""), env.get("JOBGEN_PLACEMENT_THREADS", ""),
                    env.get("JOBGEN_PLACEMENT_NUMA", ""),
                    env.get("JOBGEN_PLACEMENT_MASK_VARIABLE", ""),
                    env.get("JOBGEN_PLACEMENT_MASK", ""))


def own_report(rank: int, local_rank: int, want: Expected, device: str = "",
               affinity: Iterable[int] | None = None,
               environ: Mapping[str, str] | None = None, sysfs: str = SYSFS_CPUS) -> Report:
    """This rank's report, compared with its own row of the plan."""
    env = os.environ if environ is None else environ
    mine = sorted(os.sched_getaffinity(0) if affinity is None else affinity)
    cpus, numa = cpu_list(mine), numa_of(mine, sysfs)
    mask = env.get(want.mask_variable, "unset") if want.mask_variable else ""
    problems = []
    if want.cpus and cpus not in (want.cpus, want.threads or want.cpus):
        also = f" (or {want.threads} with their SMT threads)" if want.threads else ""
        problems.append(f"CPUs expected {want.cpus}{also}, got {cpus}")
    if want.numa and numa and numa != want.numa:
        problems.append(f"NUMA node expected {want.numa}, got {numa}")
    if want.mask_variable and want.mask and mask != want.mask:
        problems.append(f"{want.mask_variable} expected {want.mask}, got {mask}")
    return Report(rank, want.host, local_rank, cpus, numa, mask, device, want.cpus,
                  want.threads, want.numa, want.mask, tuple(problems))


def with_node_problems(reports: Sequence[Report], ranks_per_device: int = 1) -> list[Report]:
    """The reports in rank order, with what only a node's reports together show: a local rank
    started twice, and (each rank on its own device) two ranks that opened one device."""
    by_rank = sorted(reports, key=lambda r: r.rank)
    local_seen: dict[tuple[str, int], int] = {}
    device_seen: dict[tuple[str, str], int] = {}
    out = []
    for r in by_rank:
        extra = []
        first = local_seen.setdefault((r.host, r.local_rank), r.rank)
        if first != r.rank:
            extra.append(f"local rank {r.local_rank} started twice on {r.host} (rank {first} "
                         "too)")
        if r.device and ranks_per_device <= 1:
            first = device_seen.setdefault((r.host, r.device), r.rank)
            if first != r.rank:
                extra.append(f"device {r.device} also opened by rank {first}: the plan gives "
                             "each rank its own")
        out.append(r if not extra else Report(**{**r.__dict__,
                                                 "problems": (*r.problems, *extra)}))
    return out


def table(reports: Sequence[Report], mode: str, world: int, mask_variable: str = "") -> list[str]:
    """The job's table (reports with their node problems, in rank order): a line per node
    whose ranks all agree with the plan, every rank of any other node in full."""
    by_host: dict[str, list[Report]] = {}
    for r in reports:
        by_host.setdefault(r.host, []).append(r)
    bad = sum(not r.ok for r in reports)
    lines = [f"placement check ({mode}): {len(reports)} of {world} ranks reported, "
             + (f"{bad} differ from the plan" if bad else "all as planned")]
    for host, rs in by_host.items():
        if any(not r.ok for r in rs):
            lines += [f"  {host} rank {r.rank} (local {r.local_rank}): "
                      f"{'; '.join(r.problems) or 'ok'} ({r.seen(mask_variable)})" for r in rs]
            continue
        rs = sorted(rs, key=lambda r: r.local_rank)
        first, last = min(r.rank for r in rs), max(r.rank for r in rs)
        span = (f"rank {first}" if len(rs) == 1 else f"ranks {first}-{last}"
                if last - first + 1 == len(rs) else f"{len(rs)} ranks from {first} to {last}")
        line = (f"  {host}: {span} as planned: CPUs {' '.join(r.cpus or '-' for r in rs)}; "
                f"NUMA {' '.join(r.numa or '-' for r in rs)}")
        if mask_variable:
            line += f"; {mask_variable} {' '.join(r.mask or '-' for r in rs)}"
        if any(r.device for r in rs):
            line += f"; devices {' '.join(r.device or '-' for r in rs)}"
        lines.append(line)
    missing = sorted(set(range(world)) - {r.rank for r in reports})
    if missing:
        lines.append(f"  not reported: ranks {cpu_list(missing)}")
    return lines


def stop_line(reports: Sequence[Report], mode: str) -> str | None:
    """The one line that says why the job stops (or, with warn, that it goes on)."""
    bad = [r for r in reports if not r.ok]
    if not bad:
        return None
    r = bad[0]
    more = f" (and {len(bad) - 1} more ranks: the table above)" if len(bad) > 1 else ""
    head = (f"placement check: rank {r.rank} (host {r.host}, local rank {r.local_rank}): "
            f"{'; '.join(r.problems)}{more}")
    if mode == "stop":
        return (f"{head}; stopped before training (exit {EXIT_PLACEMENT}; render with "
                "--placement-check warn to run anyway)")
    return f"{head}; training anyway (--placement-check warn)"


def check(rank: int, local_rank: int, world: int, gather: Callable[[Report], list[Report]],
          emit: Callable[[str], None], device: str = "", ranks_per_device: int = 1,
          environ: Mapping[str, str] | None = None,
          affinity: Iterable[int] | None = None) -> int:
    """Run the check on this rank: 0 to go on, EXIT_PLACEMENT to stop (every rank gets the
    same answer, from the same gathered reports). `gather` is an all-gather across the job;
    `emit` prints a line (rank 0 only)."""
    want = expected(environ)
    if want is None:
        return 0
    mine = own_report(rank, local_rank, want, device, affinity, environ)
    reports = with_node_problems(gather(mine), ranks_per_device)
    line = stop_line(reports, want.mode)
    if rank == 0:
        for text in table(reports, want.mode, world, want.mask_variable):
            emit(text)
        if line:
            emit(line)
    return EXIT_PLACEMENT if line and want.mode == "stop" else 0
