"""The study's tables for people: collect's results and status's jobs, 80 columns wide when
the output is not a terminal (see textable)."""

from __future__ import annotations

from .collect import Collection, fmt, too_few_runs, verdict_text
from .textable import Column, render

RESULT_COLUMNS = [
    Column("site", 9), Column("device", 8), Column("app", 8), Column("precision", 9),
    Column("nodes", 10, right=True), Column("ranks/node", 10, right=True),
    Column("ranks/dev", 6, right=True), Column("inst/dev", 6, right=True),
    Column("best", 10, right=True), Column("min-max", 8, right=True),
    Column("per dev", 2, right=True), Column("ok/runs", 7, right=True),
    Column("scaling", 4, right=True), Column("vs fp32", 9),
    # --monitor's figures (jobgen.study.monitors), shown when some run was monitored; below
    # every throughput column in importance: the first left out on a narrow terminal
    Column("GPU mem", 1, right=True), Column("GPU use", 1, right=True),
    Column("GPU W", 1, right=True), Column("CPU use", 1, right=True),
    Column("host mem", 1, right=True),
    Column("status", 10),
]
MONITOR_COLUMNS = ("GPU mem", "GPU use", "GPU W", "CPU use", "host mem")
RESULT_TITLE = ("jobgen study: samples/s of the whole job (all ranks together), best of the "
                "repeats; min-max over the repeats")
MONITOR_NOTE = ("GPU mem, host mem: peak over the runs and nodes; GPU use, CPU use: mean; "
                "GPU W: mean drawn power of the GPUs that report it (--monitor)")


def results_table(collection: Collection, width: int) -> str:
    rows, notes = [], []
    for r in collection.rows:
        rows.append([
            r.site, r.device, r.app, r.precision, _int(r.nodes), _int(r.ranks_per_node),
            _int(r.ranks_per_device), _int(r.instances_per_device), fmt(r.best),
            f"{fmt(r.min)}-{fmt(r.max)}" if r.ok > 1 else "-", fmt(r.per_device),
            f"{r.ok}/{r.repeats}", fmt(r.scaling_efficiency, pct=True), verdict_text(r),
            _gib(r.gpu_mem_peak_mib), _pct(r.gpu_util_mean_pct), _watts(r.gpu_power_mean_w),
            _pct(r.cpu_busy_mean_pct),
            _gib(r.host_mem_peak_mib), r.status])
        notes.append(r.note if r.status != "ok" or r.note else None)
    columns, rows = _without_unmonitored(RESULT_COLUMNS, rows)
    monitored = len(columns) == len(RESULT_COLUMNS)
    footer = "; ".join(t for t in (too_few_runs(collection.rows),
                                   MONITOR_NOTE if monitored else None) if t) or None
    return render(RESULT_TITLE, columns, rows, notes, width, footer=footer)


def _without_unmonitored(columns: list[Column], rows: list[list[str]]
                         ) -> tuple[list[Column], list[list[str]]]:
    """The monitor columns only when some run was monitored (else every cell is '-')."""
    at = [i for i, c in enumerate(columns) if c.title in MONITOR_COLUMNS]
    if any(row[i] != "-" for row in rows for i in at):
        return columns, rows
    keep = [i for i in range(len(columns)) if i not in at]
    return [columns[i] for i in keep], [[row[i] for i in keep] for row in rows]


def _gib(mib: float | None) -> str:
    return "-" if mib is None else f"{mib / 1024:.1f}GiB"


def _watts(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}W"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}%"


STATUS_COLUMNS = [Column("point", 9), Column("run", 8), Column("job id", 7),
                  Column("state", 10), Column("scheduler says", 5)]


def status_table(title: str, states: list[dict[str, str | None]], width: int) -> str:
    rows = [[s["point"] or "-", f"r{s['repeat']}", s["job_id"] or "-", s["state"] or "-",
             s["word"] or "-"] for s in states]
    notes = [s.get("note") for s in states]
    return render(title, STATUS_COLUMNS, rows, notes, width)


def _int(value: int | None) -> str:
    return "-" if value is None else str(value)


PROVENANCE_COLUMNS = [Column("point", 9), Column("run", 8), Column("script", 6),
                      Column("profile", 5), Column("modules", 4), Column("packages", 7),
                      Column("program", 3)]
PROVENANCE_TITLE = ("provenance (each run's jobgen-runs/*/provenance.json): sha256 of the "
                    "script, profile, modules and Python packages, the program's git commit")
PROVENANCE_NOTE = ("script*: not the script jobgen wrote for the run (edited, or the "
                   "scheduler ran a copy of its own); -: not recorded")


def provenance_table(collection: Collection, width: int) -> str | None:
    """One line per run that wrote a provenance record (None when none did)."""
    from .provenance import short

    rows, notes = [], []
    for r in collection.runs:
        p = r.provenance
        if not p:
            continue
        script = short(p.get("script")) + ("*" if p.get("script_as_generated") is False
                                           else "")
        rows.append([r.point, f"r{r.repeat}", script, short(p.get("profile")),
                     short(p.get("modules")), short(p.get("packages")),
                     short(p.get("program"))])
        notes.append(None)
    if not rows:
        return None
    return render(PROVENANCE_TITLE, PROVENANCE_COLUMNS, rows, notes, width,
                  footer=PROVENANCE_NOTE)
