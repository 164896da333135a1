"""`jobgen collect`: the workloads' JSON result lines from each run's output, joined with the
manifest, best-of-N and spread per point, scaling efficiency, and precision vs fp32.

A run's output is the file submit recorded, else any file in the run's directory (scripts
submitted by hand write there too). Points without a result are flagged, never left out.
"""

from __future__ import annotations

import csv
import json
import re
import statistics
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from . import manifest as mf
from .progress import steps
from .sweep import SCRIPT

MATCH_BAND = 0.05  # reduced precision within +-5 % of fp32 "matched" it
# Why a run failed, most telling first: the workloads' FATAL line (the first rank's exception),
# jobgen's own fail-fast lines, then any error line (launchers add their summary after these).
FAILURES = (re.compile(r"\] FATAL "), re.compile(r"^jobgen: "),
            re.compile(r"Error|ERROR|error:|Killed|CANCELLED|TIMEOUT"))
INSTANCE_KEY = "instance"  # per-instance result lines carry it; a job's total line does not


@dataclass
class RunResult:
    """One run (repeat) of a point: its throughput or why there is none."""

    sweep: str
    point: str
    repeat: int
    status: str  # ok, failed, missing
    samples_per_sec: float | None
    output: str | None
    job_id: str | None
    reason: str | None
    result: dict[str, Any] | None


@dataclass
class Row:
    """One point of one sweep: best of its repeats and how they spread."""

    sweep: str
    point: str
    site: str
    device: str
    app: str
    precision: str
    nodes: int | None
    ranks_per_node: int | None
    ranks_per_device: int | None
    instances_per_device: int | None
    world_size: int | None
    devices: int | None
    repeats: int
    ok: int
    best: float | None  # samples/s, best of the repeats
    min: float | None
    max: float | None
    stdev: float | None
    per_device: float | None
    scaling_efficiency: float | None  # vs the smallest node count of the same series
    scaling_base_nodes: int | None
    vs_fp32: float | None  # best / best fp32 of the same configuration
    verdict: str | None  # helped, matched, hurt (reduced precision vs fp32)
    status: str  # ok, partial, failed, missing, invalid
    note: str | None
    # --monitor's files (jobgen.study.monitors): over the point's runs and nodes
    gpu_mem_peak_mib: float | None = None
    gpu_util_mean_pct: float | None = None
    cpu_busy_mean_pct: float | None = None
    host_mem_peak_mib: float | None = None

    @property
    def config(self) -> tuple[Any, ...]:
        """What a point is, less precision and nodes: one scaling series per config."""
        return (self.site, self.device, self.app, self.ranks_per_node, self.ranks_per_device,
                self.instances_per_device)


@dataclass
class Collection:
    rows: list[Row]
    runs: list[RunResult]

    @property
    def incomplete(self) -> list[Row]:
        return [r for r in self.rows if r.status not in ("ok", "invalid")]

    def as_dict(self) -> dict[str, Any]:
        return {"rows": [asdict(r) for r in self.rows], "runs": [asdict(r) for r in self.runs]}


# ---------------------------------------------------------------- reading outputs
def result_lines(text: str) -> list[dict[str, Any]]:
    """The workloads' JSON summary lines (they carry app and samples_per_sec)."""
    found = []
    for line in text.splitlines():
        s = line.strip()
        if not (s.startswith("{") and s.endswith("}")):
            continue
        try:
            data = json.loads(s)
        except ValueError:
            continue
        if isinstance(data, dict) and "app" in data and "samples_per_sec" in data:
            found.append(data)
    return found


def job_result(lines: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A job's result: its job-level line (the last, after a requeue), else the instances'
    per-instance lines summed into one."""
    jobs = [d for d in lines if d.get(INSTANCE_KEY) is None]
    if jobs:
        return jobs[-1]
    if not lines:
        return None
    last = {d[INSTANCE_KEY]: d for d in lines}  # the last line of each instance
    rates = [d.get("samples_per_sec") for d in last.values()]
    total = sum(rates) if all(r is not None for r in rates) else None  # type: ignore[arg-type]
    return {**lines[-1], INSTANCE_KEY: None, "instances": len(last), "samples_per_sec": total}


def _missing_instances(result: dict[str, Any] | None) -> str | None:
    """A job's instances summary that counts fewer results than instances it started."""
    if not result or not result.get("expected"):
        return None
    got, expected = result.get("instances") or 0, result["expected"]
    return f"{expected - got} of {expected} instances wrote no result" if got < expected else None


def _failure_line(text: str) -> str | None:
    lines = text.splitlines()
    for pattern in FAILURES:
        hits = [line.strip() for line in lines if pattern.search(line)]
        if hits:
            return hits[0][:200]
    return None


def _outputs(directory: Path, run: mf.Run) -> list[Path]:
    """The recorded output file (once it exists); without one (a script submitted by hand)
    the files in the run's directory, newest first."""
    if run.output:
        return [directory / run.output] if (directory / run.output).is_file() else []
    run_dir = directory / run.dir
    if not run_dir.is_dir():
        return []
    files = [p for p in run_dir.iterdir()
             if p.is_file() and p.name != SCRIPT and not p.name.startswith(".")]
    return sorted(files, key=lambda p: (-p.stat().st_mtime, p.name))


def read_run(directory: Path, point: mf.Point, run: mf.Run) -> RunResult:
    files = _outputs(directory, run)
    base = dict(sweep=str(directory), point=point.id, repeat=run.repeat, job_id=run.job_id)
    texts = [(p, p.read_text(encoding="utf-8", errors="replace")) for p in files]
    for path, text in texts:
        result = job_result(result_lines(text))
        short = _missing_instances(result)
        if short:
            return RunResult(**base, status="failed", samples_per_sec=None,
                             output=str(path.relative_to(directory)), reason=short,
                             result=result)
        if result is not None and result.get("samples_per_sec") is not None:
            late = (f"exit {run.exit_code} after the result line"
                    if run.exit_code not in (None, 0) else None)
            return RunResult(**base, status="ok", samples_per_sec=result["samples_per_sec"],
                             output=str(path.relative_to(directory)), reason=late,
                             result=result)
    output = str(texts[0][0].relative_to(directory)) if texts else None
    failed = _failure_line(texts[0][1]) if texts else None
    if run.exit_code not in (None, 0):
        return RunResult(**base, status="failed", samples_per_sec=None, output=output,
                         reason=f"exit {run.exit_code}: {failed or 'no result line'}",
                         result=None)
    if failed and FAILURES[0].search(failed):  # a rank died; other lines may be warnings
        return RunResult(**base, status="failed", samples_per_sec=None, output=output,
                         reason=failed, result=None)
    if run.submit_error:
        why = f"not submitted: {run.submit_error}"
    elif not texts:
        why = (f"no output yet (job {run.job_id})" if run.job_id else
               "not submitted (jobgen submit DIR, or submit its script from its directory)")
    else:
        why = "no result line yet (still running?)" + (f"; last error: {failed}" if failed
                                                        else "")
    return RunResult(**base, status="missing", samples_per_sec=None, output=output,
                     reason=why, result=None)


# ---------------------------------------------------------------- joining and statistics
def collect(directories: list[Path]) -> Collection:
    manifests = [(d, mf.read(d)) for d in directories]
    todo = [(d, m, p, r) for d, m in manifests for p in m.valid_points for r in p.runs]
    runs = [read_run(d, p, r) for d, m, p, r in steps(todo, "collect",
                                                      lambda t: f"{t[2].id} r{t[3].repeat}")]
    by_point: dict[tuple[str, str], list[RunResult]] = {}
    for res in runs:
        by_point.setdefault((res.sweep, res.point), []).append(res)
    rows = [_row(str(d), m, p, by_point.get((str(d), p.id), [])) for d, m in manifests
            for p in m.points]
    _scaling(rows)
    _versus_fp32(rows)
    return Collection(rows, runs)


def _row(sweep: str, m: mf.Manifest, point: mf.Point, runs: list[RunResult]) -> Row:
    plan = point.plan
    params = point.params
    rates = [r.samples_per_sec for r in runs if r.status == "ok" and r.samples_per_sec]
    nodes = plan.get("nodes", params.get("nodes"))
    per_node = max(plan.get("devices_per_node") or 0, 1)
    devices = nodes * per_node if nodes else None
    best = max(rates) if rates else None
    return Row(
        sweep=sweep, point=point.id, site=m.site, device=m.device,
        app=m.app or "program",
        precision=plan.get("precision") or params.get("precision") or "default",
        nodes=nodes, ranks_per_node=plan.get("ranks_per_node", params.get("ranks_per_node")),
        ranks_per_device=_per_device(plan, params, "ranks_per_device"),
        instances_per_device=_per_device(plan, params, "instances_per_device"),
        world_size=plan.get("world_size"), devices=devices, repeats=len(point.runs),
        ok=len(rates), best=best, min=min(rates) if rates else None,
        max=max(rates) if rates else None,
        stdev=statistics.stdev(rates) if len(rates) > 1 else None,
        per_device=best / devices if best and devices else None,
        scaling_efficiency=None, scaling_base_nodes=None, vs_fp32=None, verdict=None,
        status=_status(point, runs, rates), note=_note(point, runs),
        **_monitored(Path(sweep), point),
    )


def _monitored(sweep: Path, point: mf.Point) -> dict[str, float | None]:
    """Peak memory and mean utilisation from the runs' --monitor files (none: nothing)."""
    from .monitors import summarize

    found = summarize([sweep / run.dir for run in point.runs])
    if found is None:
        return {}
    return {"gpu_mem_peak_mib": found.gpu_mem_peak_mib,
            "gpu_util_mean_pct": found.gpu_util_mean_pct,
            "cpu_busy_mean_pct": found.cpu_busy_mean_pct,
            "host_mem_peak_mib": found.host_mem_peak_mib}


def _per_device(plan: dict[str, Any], params: dict[str, Any], key: str) -> int | None:
    """Ranks or instances per GPU device. A site without GPUs has no ranks per device to
    speak of (the plan says 1), but instances there are per node and are kept."""
    if key == "ranks_per_device" and plan and not plan.get("devices_per_node"):
        return None
    return plan.get(key, params.get(key))


def _status(point: mf.Point, runs: list[RunResult], rates: list[float]) -> str:
    if point.status == "invalid":
        return "invalid"
    if rates:
        return "ok" if len(rates) == len(point.runs) else "partial"
    return "failed" if any(r.status == "failed" for r in runs) else "missing"


def _note(point: mf.Point, runs: list[RunResult]) -> str | None:
    if point.status == "invalid":
        return point.error
    notes = [f"r{r.repeat}: {r.reason}" for r in runs if r.reason]
    ran = [r.result for r in runs if r.result]
    asked = point.plan.get("precision")
    if ran and asked and ran[0].get("precision") != asked:
        notes.append(f"ran as {ran[0].get('precision')} ({ran[0].get('precision_note')})")
    return "; ".join(notes) or None


def _scaling(rows: list[Row]) -> None:
    """Efficiency = (best/nodes) / (best/nodes at the series' smallest node count)."""
    series: dict[tuple[Any, ...], list[Row]] = {}
    for r in rows:
        if r.best and r.nodes:
            series.setdefault((*r.config, r.precision), []).append(r)
    for members in series.values():
        if len({r.nodes for r in members}) < 2:
            continue  # one node count: no scaling to speak of
        base = min(members, key=lambda r: r.nodes or 0)
        for r in members:
            r.scaling_base_nodes = base.nodes
            r.scaling_efficiency = (r.best / r.nodes) / (base.best / base.nodes)  # type: ignore


def _versus_fp32(rows: list[Row]) -> None:
    """Reduced precision against fp32 of the same configuration and node count."""
    fp32 = {(*r.config, r.nodes): r.best for r in rows if r.precision == "fp32" and r.best}
    for r in rows:
        ref = fp32.get((*r.config, r.nodes))
        if r.precision == "fp32" or not ref or not r.best:
            continue
        r.vs_fp32 = r.best / ref
        r.verdict = verdict(r.vs_fp32)


def verdict(ratio: float) -> str:
    if ratio > 1 + MATCH_BAND:
        return "helped"
    if ratio < 1 - MATCH_BAND:
        return "hurt"
    return "matched"


# ---------------------------------------------------------------- output
def write_files(collection: Collection, where: Path) -> tuple[Path, Path]:
    """results.csv (one row per point) and results.json (rows and every run) in `where`."""
    where.mkdir(parents=True, exist_ok=True)
    csv_path, json_path = where / "results.csv", where / "results.json"
    names = [f.name for f in fields(Row)]
    with open(csv_path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=names, lineterminator="\n")
        writer.writeheader()
        for r in collection.rows:
            writer.writerow({k: "" if v is None else v for k, v in asdict(r).items()})
    json_path.write_text(json.dumps(collection.as_dict(), indent=2, sort_keys=True) + "\n",
                         encoding="utf-8")
    return csv_path, json_path


def fmt(value: float | None, pct: bool = False) -> str:
    if value is None:
        return "-"
    if pct:
        return f"{value * 100:.0f}%"
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


STATUS_STYLE = {"ok": "green", "partial": "yellow", "failed": "red", "missing": "red",
                "invalid": "dim"}


def _monitor_cell(r: Row) -> str:
    if r.gpu_mem_peak_mib is None and r.gpu_util_mean_pct is None:
        return "-"
    return f"{fmt(r.gpu_mem_peak_mib)} / {fmt(r.gpu_util_mean_pct)}"


def table(collection: Collection) -> Any:
    """A Rich table of the rows; failed, missing and invalid points in colour with why."""
    from rich.table import Table
    from rich.text import Text

    t = Table(title="jobgen study: samples/s, best of the repeats")
    for name in ("site", "device", "app", "precision", "nodes", "ranks/node", "per device",
                 "best", "spread (min-max)", "ok/runs", "scaling eff.", "vs fp32",
                 "GPU mem peak MiB / util %", "status"):
        t.add_column(name, no_wrap=name in ("site", "app", "precision"))
    for r in collection.rows:
        share = "/".join(f"{k}{v}" for k, v in (("r", r.ranks_per_device),
                                                 ("i", r.instances_per_device)) if v) or "-"
        spread = f"{fmt(r.min)}-{fmt(r.max)}" if r.ok > 1 else "-"
        vs = f"{fmt(r.vs_fp32)}x {r.verdict}" if r.vs_fp32 else "-"
        status = r.status if not r.note or r.status == "ok" else f"{r.status}: {r.note}"
        t.add_row(r.site, r.device, r.app, r.precision, str(r.nodes or "-"),
                  str(r.ranks_per_node or "-"), share, fmt(r.best), spread,
                  f"{r.ok}/{r.repeats}", fmt(r.scaling_efficiency, pct=True), vs,
                  _monitor_cell(r), Text(status, style=STATUS_STYLE[r.status]))
    return t
