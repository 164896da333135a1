"""`jobgen collect`: the workloads' JSON result lines from each run's output, joined with the
manifest, best-of-N and spread per point, scaling efficiency, and precision vs fp32.

A run's output is the file submit recorded, else any regular file in the run's directory
(scripts submitted by hand write there too). Points without a result are flagged, never left
out. Outputs are read from their end (the last `MAX_BYTES`: the result line is the last line
a job prints), never through a link.

Precision against fp32 is a verdict only when the repeats say so: "helped" or "hurt" when the
two sets of runs fall into separate ranges (every run of one faster than every run of the
other) and that is unlikely to be luck (`chance` <= `ALPHA`); "within noise" otherwise.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import statistics
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import JobgenError
from ..textfile import MAX_BYTES
from . import manifest as mf
from . import provenance
from .files import SweepDir
from .jsonin import JsonError, drop_unreadable, load_json
from .sweep import SCRIPT

ALPHA = 0.1  # a verdict needs separate ranges that luck gives at most 1 time in 10
# Why a run failed, most telling first: the workloads' FATAL line (the first rank's exception),
# jobgen's own fail-fast lines, then any error line (launchers add their summary after these).
FAILURES = (re.compile(r"\] FATAL "), re.compile(r"^jobgen: "),
            re.compile(r"Error|ERROR|error:|Killed|CANCELLED|TIMEOUT"))
INSTANCE_KEY = "instance"  # per-instance result lines carry it; a job's total line does not
MAX_LINE = 1 << 20  # a result line is a few KB
MAX_DEPTH = 16


MAX_RATE = 1e12  # samples/s: no job comes near; beyond it ratios of rates could overflow
Rate = Annotated[float, Field(ge=0, le=MAX_RATE, allow_inf_nan=False)]
Count = Annotated[int, Field(ge=0, le=mf.MAX_NUMBER)]
Short = Annotated[str, Field(max_length=500)]


class ResultLine(BaseModel):
    """The fields of a workload's JSON result line that collect reads (others are ignored)."""

    model_config = ConfigDict(extra="ignore", strict=True)
    app: Annotated[str, Field(min_length=1, max_length=200)]
    samples_per_sec: Rate | None
    samples_per_sec_per_rank: Rate | None = None
    world_size: Count | None = None
    instance: Count | None = None
    instances: Count | None = None
    expected: Count | None = None
    precision: Short | None = None
    precision_note: Short | None = None
    summary: Short | None = None


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
    # the job's provenance.json: the digest of its script, profile, modules, packages and
    # program commit (jobgen.study.provenance); None when the run wrote none
    provenance: dict[str, Any] | None = None


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
    best: float | None  # samples/s of the whole job (all ranks), best of the repeats
    min: float | None
    max: float | None
    stdev: float | None
    per_device: float | None
    scaling_efficiency: float | None  # vs the smallest node count of the same series
    scaling_base_nodes: int | None
    vs_fp32: float | None  # best / best fp32 of the same configuration
    verdict: str | None  # helped, hurt, within noise (reduced precision vs fp32)
    chance: float | None  # how often luck alone separates the two sets of runs this way
    status: str  # ok, partial, failed, missing, invalid
    note: str | None
    runs: list[float] = field(default_factory=list)  # samples/s of every ok run
    # --monitor's files (jobgen.study.monitors): over the point's runs and nodes
    gpu_mem_peak_mib: float | None = None
    gpu_util_mean_pct: float | None = None
    cpu_busy_mean_pct: float | None = None
    host_mem_peak_mib: float | None = None
    gpu_power_mean_w: float | None = None  # drawn power (rocm-smi --showpower)

    @property
    def config(self) -> tuple[Any, ...]:
        """What a point is, less precision and nodes: one scaling series per config."""
        return (self.site, self.device, self.app, self.ranks_per_node, self.ranks_per_device,
                self.instances_per_device)


@dataclass
class Collection:
    rows: list[Row]
    runs: list[RunResult]
    # one line per kind of software that differs among the runs (provenance.software_warnings)
    software: list[str] = field(default_factory=list)

    @property
    def incomplete(self) -> list[Row]:
        return [r for r in self.rows if r.status not in ("ok", "invalid")]

    def as_dict(self) -> dict[str, Any]:
        return {"rows": [asdict(r) for r in self.rows], "runs": [asdict(r) for r in self.runs],
                "software_warnings": self.software}


# ---------------------------------------------------------------- reading outputs
def result_lines(text: str, source: str = "the output") -> list[dict[str, Any]]:
    """The workloads' JSON summary lines (they carry app and samples_per_sec). Other lines
    are the job's log; a result line that breaks a rule is a one-line error naming it."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not (s.startswith("{") and s.endswith("}") and '"samples_per_sec"' in s):
            continue
        where = f"{source} line {number}"
        if len(s) > MAX_LINE:
            raise JobgenError(f"{where}: a result line of {len(s)} bytes (the limit is "
                              f"{MAX_LINE >> 20} MiB)")
        try:
            data = load_json(s, MAX_DEPTH, lenient=True)
        except JsonError as exc:
            raise JobgenError(f"{where}: {exc}") from None
        if not isinstance(data, dict) or "app" not in data:
            continue
        try:
            ResultLine.model_validate(data)
        except ValidationError as exc:
            raise JobgenError(f"{where}: {mf.field_error(exc)}: not a result line jobgen can "
                              "use (fix or delete the line)") from None
        found.append(drop_unreadable(data))  # the fields collect reads are checked above
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


def _outputs(where: SweepDir, run: mf.Run) -> list[str]:
    """The recorded output file (once it exists); without one (a script submitted by hand)
    the regular files in the run's directory, newest first."""
    if run.output:
        return [run.output] if where.kind(run.output) == "file" else []
    files = [(name, mtime) for name, mtime in where.files(run.dir)
             if name != SCRIPT and not name.startswith(".")]
    return [f"{run.dir}/{n}" for n, _ in sorted(files, key=lambda f: (-f[1], f[0]))]


def _texts(where: SweepDir, run: mf.Run) -> list[tuple[str, str]]:
    texts = []
    for rel in _outputs(where, run)[:20]:
        data = where.read(rel, "a job's output", MAX_BYTES, tail=True)
        if data is not None:
            texts.append((rel, data.decode("utf-8", errors="replace")))
    return texts


def read_run(where: SweepDir, point: mf.Point, run: mf.Run) -> RunResult:
    texts = _texts(where, run)
    base = dict(sweep=str(where.path), point=point.id, repeat=run.repeat, job_id=run.job_id)
    for rel, text in texts:
        result = job_result(result_lines(text, str(where.path / rel)))
        short = _missing_instances(result)
        if short:
            return RunResult(**base, status="failed", samples_per_sec=None, output=rel,
                             reason=short, result=result)
        if result is not None and result.get("samples_per_sec") is not None:
            late = (f"exit {run.exit_code} after the result line"
                    if run.exit_code not in (None, 0) else None)
            return RunResult(**base, status="ok", samples_per_sec=result["samples_per_sec"],
                             output=rel, reason=late, result=result)
    return _no_result(run, base, texts)


def _no_result(run: mf.Run, base: dict[str, Any], texts: list[tuple[str, str]]) -> RunResult:
    output = texts[0][0] if texts else None
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
    rows: list[Row] = []
    runs: list[RunResult] = []
    for directory in directories:
        with SweepDir.open(directory, lock=False) as where:
            m = mf.read(where)
            todo = [(p, r) for p in m.valid_points for r in p.runs]
            mine = [read_run(where, p, r) for p, r in todo]  # quick: no progress lines
            for res, (_, r) in zip(mine, todo, strict=True):
                res.provenance = provenance.summary(where, r.dir, r.script)
            monitored = {p.id: _monitored(where, p) for p in m.points}
        by_point: dict[str, list[RunResult]] = {}
        for res in mine:
            by_point.setdefault(res.point, []).append(res)
        rows += [_row(str(directory), m, p, by_point.get(p.id, []), monitored[p.id])
                 for p in m.points]
        runs += mine
    _scaling(rows)
    _versus_fp32(rows)
    many = len(directories) > 1
    software = provenance.software_warnings(
        [(f"{r.sweep}:{r.point} r{r.repeat}" if many else f"{r.point} r{r.repeat}",
          r.provenance) for r in runs])
    return Collection(rows, runs, software)


def _row(sweep: str, m: mf.Manifest, point: mf.Point, runs: list[RunResult],
         monitored: dict[str, float | None]) -> Row:
    plan, params = point.plan, point.params
    rates = [r.samples_per_sec for r in runs if r.status == "ok" and r.samples_per_sec]
    nodes = plan.nodes if plan.nodes is not None else params.get("nodes")
    devices = nodes * max(plan.devices_per_node or 0, 1) if nodes else None
    best = max(rates) if rates else None
    return Row(
        sweep=sweep, point=point.id, site=m.site, device=m.device, app=m.app or "program",
        precision=plan.precision or str(params.get("precision") or "default"),
        nodes=nodes, ranks_per_node=_axis(plan, params, "ranks_per_node"),
        ranks_per_device=_per_device(plan, params, "ranks_per_device"),
        instances_per_device=_per_device(plan, params, "instances_per_device"),
        world_size=plan.world_size, devices=devices, repeats=len(point.runs),
        ok=len(rates), best=best, min=min(rates) if rates else None,
        max=max(rates) if rates else None,
        stdev=statistics.stdev(rates) if len(rates) > 1 else None,
        per_device=ratio(best, devices) if best and devices else None,
        scaling_efficiency=None, scaling_base_nodes=None, vs_fp32=None, verdict=None,
        chance=None, status=_status(point, runs, rates), note=_note(point, runs), runs=rates,
        **monitored,
    )


def _monitored(where: SweepDir, point: mf.Point) -> dict[str, float | None]:
    """Peak memory and mean utilisation from the runs' --monitor files (none: nothing)."""
    from .monitors import summarize

    found = summarize(where, [run.dir for run in point.runs])
    if found is None:
        return {}
    return {"gpu_mem_peak_mib": found.gpu_mem_peak_mib,
            "gpu_util_mean_pct": found.gpu_util_mean_pct,
            "cpu_busy_mean_pct": found.cpu_busy_mean_pct,
            "host_mem_peak_mib": found.host_mem_peak_mib,
            "gpu_power_mean_w": found.gpu_power_mean_w}


def _axis(plan: mf.PlanSummary, params: dict[str, Any], key: str) -> Any:
    value = getattr(plan, key)
    return value if value is not None else params.get(key)


def _per_device(plan: mf.PlanSummary, params: dict[str, Any], key: str) -> int | None:
    """Ranks or instances per GPU device. A site without GPUs has no ranks per device to
    speak of (the plan says 1), but instances there are per node and are kept."""
    if key == "ranks_per_device" and plan.nodes is not None and not plan.devices_per_node:
        return None
    return _axis(plan, params, key)


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
    asked = point.plan.precision
    if ran and asked and ran[0].get("precision") not in (None, asked):
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
            r.scaling_efficiency = ratio(r.best * base.nodes,  # type: ignore[operator]
                                         base.best * r.nodes)  # type: ignore[operator]


def _versus_fp32(rows: list[Row]) -> None:
    """Reduced precision against fp32 of the same configuration and node count."""
    fp32 = {(*r.config, r.nodes): r for r in rows if r.precision == "fp32" and r.best}
    for r in rows:
        ref = fp32.get((*r.config, r.nodes))
        if r.precision == "fp32" or not ref or not r.best:
            continue
        r.vs_fp32 = ratio(r.best, ref.best)  # type: ignore[arg-type]
        r.verdict, r.chance = verdict(r.runs, ref.runs)


def ratio(a: float, b: float) -> float | None:
    """a / b when it is a finite number (1e12 / 1e-320 is not: no ratio then)."""
    try:
        value = a / b
    except (ZeroDivisionError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def chance_of_separation(n: int, m: int) -> float:
    """How often n + m runs of two equally fast configurations fall into two separate ranges
    by luck alone: 2 / C(n+m, n) (the runs' order is then a random permutation)."""
    return 2 / math.comb(n + m, n)


def verdict(runs: list[float], reference: list[float]) -> tuple[str, float | None]:
    """helped / hurt when the runs separate from the reference's and luck rarely does that,
    else within noise; with the chance of such a separation by luck."""
    if not runs or not reference:
        return "within noise", None
    chance = chance_of_separation(len(runs), len(reference))
    if chance <= ALPHA and min(runs) > max(reference):
        return "helped", chance
    if chance <= ALPHA and max(runs) < min(reference):
        return "hurt", chance
    return "within noise", chance


def verdict_text(row: Row) -> str:
    """'1.85x within noise' and why, for tables and the chart."""
    if row.vs_fp32 is None:
        return "-"
    return f"{row.vs_fp32:.2f}x {row.verdict}"


def too_few_runs(rows: list[Row]) -> str | None:
    """A footnote when some verdict could not be anything but 'within noise'."""
    few = [r for r in rows if r.chance is not None and r.chance > ALPHA]
    if not few:
        return None
    r = max(few, key=lambda r: r.chance or 0)
    return (f"within noise: with as few runs as {r.ok} against fp32's, separate ranges happen "
            f"by luck {r.chance:.0%} of the time; --repeat 3 or more can give a verdict")


# ---------------------------------------------------------------- output
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: no formula (=, +, -, @ first get a '), no
    control characters; numbers stay numbers."""
    if value is None:
        return ""
    if isinstance(value, list):
        value = " ".join(f"{v:.6g}" for v in value)
    if isinstance(value, (int, float)):
        return value
    text = _CONTROL.sub(" ", str(value))
    return "'" + text if text.startswith(_FORMULA) else text


def csv_text(collection: Collection) -> str:
    names = [f.name for f in fields(Row)]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=names, lineterminator="\n")
    writer.writeheader()
    for r in collection.rows:
        writer.writerow({k: csv_cell(v) for k, v in asdict(r).items()})
    return buf.getvalue()


def json_text(collection: Collection) -> str:
    return json.dumps(collection.as_dict(), indent=2, sort_keys=True, allow_nan=False) + "\n"


def write_files(collection: Collection, where: SweepDir, manifest: mf.Manifest | None,
                force: bool) -> list[Path]:
    """results.csv and results.json in `where`. An earlier collect's results (listed in the
    manifest) are replaced; anything else of that name only with --force; never through a
    link (a link is replaced as a link)."""
    ours = set(manifest.results) if manifest else set()
    for name, text in (("results.csv", csv_text(collection)),
                       ("results.json", json_text(collection))):
        kind = where.kind(name)
        if kind == "directory":
            raise JobgenError(f"{where.path / name} is a directory: remove it or give "
                              "--results another directory")
        replace = force or (name in ours and kind == "file")
        where.write(name, text.encode(), replace=replace)
    if manifest is not None and set(mf.RESULT_FILES) - ours:
        manifest.results = list(mf.RESULT_FILES)
        manifest.write(where)
    return [where.path / n for n in mf.RESULT_FILES]


def fmt(value: float | None, pct: bool = False) -> str:
    if value is None:
        return "-"
    if pct:
        return f"{value * 100:.0f}%"
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"
