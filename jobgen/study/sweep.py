"""`jobgen sweep`: the cartesian product of the axes, each point planned and rendered by the
same code as `jobgen render`, one script per point and repeat, and `manifest.json`.

Each run gets its own directory (`POINT/rK/job.sh`): submitted from there, a job writes its
output beside its script whatever the scheduler's naming, so collect finds it even when the
scripts were submitted by hand. Invalid points are kept in the manifest with their reason.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .. import __version__
from ..errors import JobgenError
from ..frozen import field_names, replace
from ..plan.billing import Bill, sweep_bill
from ..plan.build import Plan, Request, build_plan
from ..plan.launchopts import refuse_nested_launcher
from ..profiles.load import LoadedProfile, load_profile
from ..request.options import PRECISIONS
from ..shell import join, split
from ..text.render import render
from . import manifest as mf
from .files import SweepDir
from .program import resolve_program
from .progress import note, steps
from .queues import queue_limits, warn_queue_limits
from .schedulers import output_pattern

SCRIPT = "job.sh"


@dataclass(frozen=True)
class Axis:
    """A sweepable Request field: its option, how a value is spelt in a point's id."""

    field: str
    flag: str
    tag: str  # the id prefix: n2, rpn4...; "" for precision (its value is the tag)
    kind: type = int


AXES = (
    Axis("precision", "--precision", "", str),
    Axis("nodes", "--nodes", "n"),
    Axis("ranks_per_node", "--ranks-per-node", "rpn"),
    Axis("ranks_per_device", "--ranks-per-device", "rpd"),
    Axis("instances_per_device", "--instances-per-device", "ipd"),
)


def parse_axes(raw: dict[str, list[str] | None]) -> dict[str, list[Any]]:
    """Comma lists (or repeated options) -> the values of each axis given, in order, once."""
    fields = set(field_names(Request))
    axes: dict[str, list[Any]] = {}
    for axis in AXES:
        words = [w for item in raw.get(axis.field) or [] for w in item.split(",") if w.strip()]
        if not words:
            continue
        if axis.field not in fields:
            raise JobgenError(f"{axis.flag} is not available in this jobgen version")
        axes[axis.field] = list(dict.fromkeys(_value(axis, w.strip()) for w in words))
    return axes


def _value(axis: Axis, word: str) -> Any:
    if axis.kind is str:
        if word not in PRECISIONS:
            raise JobgenError(f"{axis.flag}: {word!r} is not one of {', '.join(PRECISIONS)}")
        return word
    # isascii: str.isdigit() accepts '²' and other digits int() refuses
    if not (word.isascii() and word.isdigit()) or len(word) > 7 or int(word) < 1:
        raise JobgenError(f"{axis.flag}: {word!r} is not a whole number from 1 to 9999999")
    return int(word)


def point_id(params: dict[str, Any]) -> str:
    """A readable, unique directory name: bf16-n2-rpn4 (only the axes that were swept)."""
    parts = [f"{a.tag}{params[a.field]}" for a in AXES if a.field in params]
    return "-".join(parts) or "default"


def sweep(base: Request, axes: dict[str, list[Any]], repeat: int, out: Path,
          force: bool = False) -> mf.Manifest:
    """Plan and render every point and repeat into `out`; write and return the manifest."""
    if not 1 <= repeat <= mf.MAX_REPEAT:
        raise JobgenError(f"--repeat must be from 1 to {mf.MAX_REPEAT}, not {repeat}")
    combos = [dict(zip(axes, values, strict=True)) for values in itertools.product(*axes.values())]
    if len(combos) > mf.MAX_POINTS or len(combos) * repeat > mf.MAX_RUNS:
        raise JobgenError(f"{len(combos)} points x {repeat} repeats is more than a sweep holds "
                          f"({mf.MAX_POINTS} points, {mf.MAX_RUNS} runs): split the axes")
    if base.command:  # refused for every point alike: before anything is written
        refuse_nested_launcher(base.command)
    base = resolve_program(base, Path.cwd())
    loaded = load_profile(base.site)
    if not force and _has_entries(out):  # asked again under the lock, before writing
        raise JobgenError(f"{out} is not empty: pick a new --out directory or add --force")
    # Everything is planned, rendered and checked against the manifest's model before the
    # first file is written: a request the manifest cannot record is one line, nothing written.
    bills: list[tuple[Bill, int]] = []
    drafts = [_point(loaded, base, params, repeat, bills)
              for params in steps(combos, "sweep", point_id)]
    points = [point for point, _ in drafts]
    manifest = _model(mf.Manifest, "the sweep", lambda: mf.Manifest(
        site=base.site, app=base.app, dialect=loaded.profile.scheduler.dialect,
        device=device_label(loaded), command=sweep_command(base, axes, repeat, out),
        repeat=repeat, axes=axes, points=points, jobgen_version=__version__,
        queue_limits=queue_limits(loaded, points)))
    reasons = {p.error for p in points if p.status == "invalid"}
    if not manifest.valid_points and len(reasons) == 1:
        raise JobgenError(str(reasons.pop()))  # the request itself, not an axis: nothing written
    fresh = not out.exists()
    with SweepDir.open(out, lock=True, create=True) as where:
        try:
            _write(where, out, force, drafts, manifest)
        except JobgenError:
            # Only the holder of the lock tidies up: a sweep that lost the lock to another
            # one started at the same moment must not remove the winner's (still empty)
            # directory under it.
            if fresh:
                with contextlib.suppress(OSError):
                    out.rmdir()  # the directory this sweep made, when it stayed empty
            raise
    warn_queue_limits(manifest)
    total = sweep_bill(bills)
    if total:
        note(f"bill: {total}")
    if not manifest.valid_points:
        raise JobgenError(f"none of the {len(points)} points can run on {base.site} (each "
                          f"reason is in {out / mf.NAME}): change the axes")
    return manifest


def _write(where: SweepDir, out: Path, force: bool,
           drafts: list[tuple[mf.Point, list[tuple[str, str]]]], manifest: mf.Manifest) -> None:
    """The scripts, then the manifest. When writing fails (disk full, no inodes) in a
    directory that was empty, what this sweep wrote is removed again."""
    if not force and not where.is_empty():
        raise JobgenError(f"{out} is not empty: pick a new --out directory or add --force")
    empty = where.is_empty()
    try:
        for _, scripts in drafts:
            for rel, text in scripts:
                _write_run(where, rel, text)
        manifest.write(where)
    except JobgenError:
        if empty:
            for point, _ in drafts:
                with contextlib.suppress(JobgenError, OSError):
                    where.remove(point.id)
        raise


def _has_entries(out: Path) -> bool:
    try:
        with os.scandir(out) as it:
            return any(True for _ in it)
    except OSError:
        return False  # missing (or not a directory: SweepDir.open says so)


def _model(kind: type, what: str, build: Any) -> Any:
    """`build()` (a manifest model), or one line naming the field the request overflows."""
    try:
        return build()
    except ValidationError as exc:
        raise JobgenError(f"{what} cannot be recorded in {mf.NAME}: {mf.field_error(exc)} "
                          f"(the manifest's limit for {kind.__name__});"
                          " shorten it") from None


def _point(loaded: LoadedProfile, base: Request, params: dict[str, Any], repeat: int,
           bills: list[tuple[Bill, int]]) -> tuple[mf.Point, list[tuple[str, str]]]:
    """A point's model and its runs' scripts (path, text), nothing written yet."""
    pid = point_id(params)
    name = base.job_name or base.app or "jobgen"
    try:
        plan = build_plan(loaded, replace(base, **params, job_name=f"{name}-{pid}"))
        runs = [_draft_run(loaded, base, params, pid, name, k) for k in range(1, repeat + 1)]
        summary = _model(mf.PlanSummary, f"point {pid}",
                         lambda: mf.PlanSummary(**plan_summary(plan)))
        point = _model(mf.Point, f"point {pid}", lambda: mf.Point(
            id=pid, params=params, status="valid", plan=summary, runs=[r for r, _ in runs]))
    except JobgenError as exc:
        note(f"warning: point {pid} skipped: {exc}")
        return mf.Point(id=pid, params=params, status="invalid", error=str(exc)[:2000]), []
    if plan.bill is not None:
        bills.append((plan.bill, repeat))
    return point, [(f"{run.dir}/{SCRIPT}", text) for run, text in runs]


def _draft_run(loaded: LoadedProfile, base: Request, params: dict[str, Any], pid: str,
               name: str, k: int) -> tuple[mf.Run, str]:
    """Plan and render one repeat's script (its job name ends in rK): its model and text."""
    job_name = f"{name}-{pid}-r{k}"
    plan = build_plan(loaded, replace(base, **params, job_name=job_name))
    rel = f"{pid}/r{k}"
    run = _model(mf.Run, f"point {pid} r{k}", lambda: mf.Run(
        repeat=k, dir=rel, script=f"{rel}/{SCRIPT}", job_name=job_name,
        output_pattern=output_pattern(plan)))
    return run, render(plan)


def _write_run(where: SweepDir, script: str, text: str) -> None:
    """Write one run's script. With --force an old run directory is removed first (no stale
    output may be collected as this run's), and whatever stands in the way as a link is
    removed as a link, never followed."""
    rel = script.rpartition("/")[0]
    pid = rel.partition("/")[0]
    if where.kind(pid) not in (None, "directory"):
        where.remove(pid)
    if where.kind(rel) is not None:
        where.remove(rel)
    where.write(script, text.encode(), replace=False, mode=0o755)


def plan_summary(plan: Plan) -> dict[str, Any]:
    """What the plan resolved for a point: what collect and report group and scale by."""
    summary = {
        "nodes": plan.nodes, "ranks_per_node": plan.ranks_per_node,
        "ranks_per_device": plan.ranks_per_device, "world_size": plan.world_size,
        "devices_per_node": plan.devices_per_node, "precision": plan.precision,
        "queue": plan.queue, "walltime_s": plan.walltime, "app": plan.app,
        "command": plan.command_line,
    }
    if hasattr(plan, "instances_per_device"):
        summary["instances_per_device"] = plan.instances_per_device
    return summary


def device_label(loaded: LoadedProfile) -> str:
    gpus = loaded.profile.node.gpus
    return gpus.model if gpus else "CPU"


def sweep_command(base: Request, axes: dict[str, list[Any]], repeat: int, out: Path) -> str:
    """The `jobgen sweep` line that makes this directory again (base options, then axes)."""
    words = split(base.command_line())[2:]
    tail: list[str] = []
    if "--" in words:
        cut = words.index("--")
        words, tail = words[:cut], words[cut:]
    flags = {a.field: a.flag for a in AXES}
    swept = [f"{flags[f]}={','.join(map(str, v))}" for f, v in axes.items()]
    return join(["jobgen", "sweep", *words, *swept, f"--repeat={repeat}", f"--out={out}",
                 *tail])
