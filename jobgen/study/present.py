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
    Column("scaling", 4, right=True), Column("vs fp32", 9), Column("status", 10),
]
RESULT_TITLE = ("jobgen study: samples/s of the whole job (all ranks together), best of the "
                "repeats; min-max over the repeats")


def results_table(collection: Collection, width: int) -> str:
    rows, notes = [], []
    for r in collection.rows:
        rows.append([
            r.site, r.device, r.app, r.precision, _int(r.nodes), _int(r.ranks_per_node),
            _int(r.ranks_per_device), _int(r.instances_per_device), fmt(r.best),
            f"{fmt(r.min)}-{fmt(r.max)}" if r.ok > 1 else "-", fmt(r.per_device),
            f"{r.ok}/{r.repeats}", fmt(r.scaling_efficiency, pct=True), verdict_text(r),
            r.status])
        notes.append(r.note if r.status != "ok" or r.note else None)
    return render(RESULT_TITLE, RESULT_COLUMNS, rows, notes, width,
                  footer=too_few_runs(collection.rows))


STATUS_COLUMNS = [Column("point", 9), Column("run", 8), Column("job id", 7),
                  Column("state", 10), Column("scheduler says", 5)]


def status_table(title: str, states: list[dict[str, str | None]], width: int) -> str:
    rows = [[s["point"] or "-", f"r{s['repeat']}", s["job_id"] or "-", s["state"] or "-",
             s["word"] or "-"] for s in states]
    notes = [s.get("note") for s in states]
    return render(title, STATUS_COLUMNS, rows, notes, width)


def _int(value: int | None) -> str:
    return "-" if value is None else str(value)
