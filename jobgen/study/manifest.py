"""`manifest.json`: the record of a sweep that submit updates and collect reads.

Paths in it are relative to the sweep directory, so a directory copied back from a site
(rsync, scp) still collects. It is rewritten atomically after every change, so an
interrupted submit keeps the job ids it already has.

The file is input like any other (it may be edited, damaged or planted), so it is read as a
typed model with bounds: strict types, no unknown keys, paths that stay inside the sweep
(`POINT/rK/...`, nothing absolute, no `..`), output names that are patterns with fixed
`%j`-style tokens (never a format string), bounded sizes and nesting, finite numbers. A
file that breaks a rule is one line naming the file and the field.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from ..errors import JobgenError
from .files import SweepDir
from .jsonin import JsonError, load_json

NAME = "manifest.json"
FORMAT = 2  # 1: output patterns were {id}/{seq} (read and converted); 2: %j/%s
MAX_REPEAT = 100  # runs of one point
MAX_POINTS = 2000  # points of one sweep
MAX_RUNS = 10_000  # runs of one sweep
MAX_DEPTH = 12  # JSON nesting the manifest needs (it uses 5)
MAX_NUMBER = 10_000_000  # any count jobgen records (nodes, ranks, walltime seconds...)
RESULT_FILES = ("results.csv", "results.json")

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
MODEL = ConfigDict(extra="forbid", strict=True, frozen=False, validate_assignment=False)


def _no_control(value: str) -> str:
    if _CONTROL.search(value):
        raise ValueError("contains a control character")
    return value


def _file_name(value: str) -> str:
    if value in (".", "..") or len(value.encode()) > 255:
        raise ValueError(f"{value[:80]!r} is not a file name")
    return value


def _rel_path(value: str) -> str:
    names = value.split("/")
    if value.startswith("/") or any(n in ("", ".", "..") for n in names) or len(names) > 4:
        raise ValueError(f"{value[:80]!r} is not a path inside the sweep directory (relative, "
                         "no '..', at most 4 levels)")
    return value


def _pattern(value: str) -> str:
    if not re.fullmatch(r"(?:[A-Za-z0-9._+=,@-]|%[js%])+", value):
        raise ValueError(f"{value[:80]!r} is not an output name pattern (letters, digits, "
                         "._+=,@- and the tokens %j, %s, %%)")
    return _file_name(value)


Text = Annotated[str, StringConstraints(max_length=2000)]
LongText = Annotated[str, StringConstraints(max_length=20_000)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=200),
                 AfterValidator(_no_control)]
Token = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.,:/@%+=-]{0,199}$")]
PointId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")]
RelPath = Annotated[str, StringConstraints(min_length=1, max_length=1000,
                                           pattern=r"^[A-Za-z0-9._%+=,@-][A-Za-z0-9._%+=,@/-]*$"),
                    AfterValidator(_rel_path)]
Pattern = Annotated[str, AfterValidator(_pattern)]
# What schedulers print as a job id: 123, 123.polaris-pbs-01.hsn.cm.polaris.alcf.anl.gov, 123[]
JOB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@\[\]-]{0,199}")
JobId = Annotated[str, StringConstraints(pattern=rf"^{JOB_ID.pattern}$")]
Count = Annotated[int, Field(ge=0, le=MAX_NUMBER)]
AxisName = Literal["precision", "nodes", "ranks_per_node", "ranks_per_device",
                   "instances_per_device"]
AxisValue = Annotated[int, Field(ge=1, le=MAX_NUMBER)] | Literal["fp32", "tf32", "bf16", "fp16"]


class Run(BaseModel):
    """One submission of a point's script (one repeat)."""

    model_config = MODEL
    repeat: Annotated[int, Field(ge=1, le=MAX_REPEAT)]
    dir: RelPath  # POINT/rK
    script: RelPath  # POINT/rK/job.sh
    job_name: Name
    output_pattern: Pattern | None = None  # the output file's name; %j job id, %s its number
    output: RelPath | None = None  # POINT/rK/NAME, known after submit
    job_id: JobId | None = None
    exit_code: Annotated[int, Field(ge=-255, le=255)] | None = None  # no scheduler: the status
    submit_error: Text | None = None
    # The submit command ran and its answer was not recorded (jobgen was killed, or it printed
    # no job id): the job may exist, so a plain `submit` leaves the run alone.
    maybe_submitted: bool = False

    @model_validator(mode="after")
    def _inside_its_directory(self) -> Run:
        for name, path in (("script", self.script), ("output", self.output)):
            if path is not None and path.rpartition("/")[0] != self.dir:
                raise ValueError(f"{name} {path!r} is not a file of the run's directory "
                                 f"{self.dir!r}")
        return self


class PlanSummary(BaseModel):
    """What the plan resolved for a point: what collect and report group and scale by."""

    model_config = MODEL
    nodes: Count | None = None
    ranks_per_node: Count | None = None
    ranks_per_device: Count | None = None
    instances_per_device: Count | None = None
    world_size: Count | None = None
    devices_per_node: Count | None = None
    precision: Token | None = None
    queue: Token | None = None
    walltime_s: Count | None = None
    app: Token | None = None
    command: LongText | None = None


class Point(BaseModel):
    """One combination of the sweep's axes, valid (with its runs) or invalid (with why)."""

    model_config = MODEL
    id: PointId
    params: Annotated[dict[AxisName, AxisValue], Field(max_length=5)]
    status: Literal["valid", "invalid"]
    error: Text | None = None
    plan: PlanSummary = Field(default_factory=PlanSummary)
    runs: Annotated[list[Run], Field(max_length=MAX_REPEAT)] = Field(default_factory=list)

    @model_validator(mode="after")
    def _runs_are_its_own(self) -> Point:
        repeats = [r.repeat for r in self.runs]
        if len(set(repeats)) != len(repeats):
            raise ValueError(f"point {self.id}: a repeat number appears twice")
        for run in self.runs:
            if run.dir != f"{self.id}/r{run.repeat}":
                raise ValueError(f"run dir {run.dir!r} is not {self.id}/r{run.repeat}")
        return self


class QueueLimit(BaseModel):
    """How many jobs a queue takes from one user or project at once (from the profile)."""

    model_config = MODEL
    queue: Token
    per: Literal["user", "project"]
    max_jobs: Annotated[int, Field(ge=1, le=MAX_NUMBER)] | None = None
    max_running: Annotated[int, Field(ge=1, le=MAX_NUMBER)] | None = None
    source: Text


class Manifest(BaseModel):
    model_config = MODEL
    site: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$")]
    app: Token | None  # the bundled app, None for a program after `--`
    dialect: Literal["pbs", "slurm", "lsf", "cobalt", "none"]
    device: Name  # what the chart calls the device: the GPU model, or "CPU"
    command: LongText  # the sweep command line that made this directory
    repeat: Annotated[int, Field(ge=1, le=MAX_REPEAT)]
    axes: Annotated[dict[AxisName, Annotated[list[AxisValue], Field(max_length=64)]],
                    Field(max_length=5)]
    points: Annotated[list[Point], Field(max_length=MAX_POINTS)]
    jobgen_version: Annotated[str, StringConstraints(max_length=100)]
    queue_limits: Annotated[list[QueueLimit], Field(max_length=100)] = Field(
        default_factory=list)
    results: list[Literal["results.csv", "results.json"]] = Field(default_factory=list)
    # `jobgen cancel` ran: a `submit --wait` still waiting sends nothing more (a new `submit`
    # clears it)
    cancelled: bool = False
    format: Literal[1, 2] = FORMAT

    @model_validator(mode="after")
    def _bounded(self) -> Manifest:
        ids = [p.id for p in self.points]
        if len(set(ids)) != len(ids):
            raise ValueError("a point id appears twice")
        if sum(len(p.runs) for p in self.points) > MAX_RUNS:
            raise ValueError(f"more than {MAX_RUNS} runs")
        return self

    @property
    def valid_points(self) -> list[Point]:
        return [p for p in self.points if p.status == "valid"]

    def to_json(self) -> str:
        data = self.model_dump(mode="json")
        data["format"] = FORMAT
        return json.dumps(data, indent=2, sort_keys=True) + "\n"

    def write(self, sweep: SweepDir) -> None:
        """Written whole and renamed into place: a reader never sees half a manifest."""
        sweep.write(NAME, self.to_json().encode(), replace=True)


# ---------------------------------------------------------------- output names
def output_name(pattern: str, job_id: str) -> str:
    """The output file's name: `%j` the job id, `%s` its leading number, `%%` a percent sign.

    A fixed substitution, not a format string: the pattern cannot reach attributes or pad a
    field to gigabytes, and the result must again be a plain file name."""
    if not JOB_ID.fullmatch(job_id):
        raise JobgenError(f"{job_id[:80]!r} is not a job id")
    seq = re.match(r"\d+", job_id)
    values = {"j": job_id, "s": seq.group(0) if seq else job_id, "%": "%"}
    name = re.sub(r"%([js%])", lambda m: values[m.group(1)], _pattern(pattern))
    if "/" in name or name in (".", "..") or len(name.encode()) > 255:
        raise JobgenError(f"{name[:80]!r} is not a file name (at most 255 bytes)")
    return name


# ---------------------------------------------------------------- reading
def read(sweep: SweepDir) -> Manifest:
    """The manifest of a sweep directory, or a one-line error naming the file and field."""
    path = sweep.path / NAME
    raw = sweep.read(NAME, "a sweep manifest")
    if raw is None:
        raise JobgenError(f"{sweep.path} is not a sweep directory (no {NAME}): make one with "
                          "jobgen sweep --out DIR")
    try:
        data = load_json(raw, MAX_DEPTH)
    except JsonError as exc:
        raise JobgenError(f"{path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") not in (1, FORMAT):
        raise JobgenError(f"{path}: not a jobgen sweep manifest of format {FORMAT} (the "
                          "`format` field)")
    if data["format"] == 1:
        _from_format_1(data)
    try:
        return Manifest.model_validate(data)
    except ValidationError as exc:
        raise JobgenError(f"{path}: {field_error(exc)}; the manifest is jobgen's record of "
                          "the sweep: restore it, or make the sweep again") from None


def field_error(exc: ValidationError) -> str:
    """The first error as `field.path: what is wrong` (one line)."""
    first = exc.errors(include_url=False)[0]
    where = ".".join(str(x) for x in first["loc"]) or "(the whole file)"
    msg = str(first["msg"]).removeprefix("Value error, ")
    got = first.get("input")
    shown = "" if isinstance(got, (dict, list)) or got is None else f" (got {str(got)[:60]!r})"
    return f"{where}: {msg}{shown}"


def _from_format_1(data: dict[str, Any]) -> None:
    """Format 1 wrote output names as str.format templates ({id}, {seq}); the only two tokens
    it ever wrote become %j and %s, anything else is left for the model to refuse."""
    points = data.get("points")
    for point in points if isinstance(points, list) else []:  # else the model says what
        runs = point.get("runs") if isinstance(point, dict) else None
        for run in runs if isinstance(runs, list) else []:
            value = run.get("output_pattern") if isinstance(run, dict) else None
            if isinstance(value, str):
                run["output_pattern"] = (value.replace("%", "%%").replace("{id}", "%j")
                                         .replace("{seq}", "%s"))


def load(directory: Path) -> Manifest:
    """The manifest of the sweep directory `directory` (read without taking its lock)."""
    with SweepDir.open(directory, lock=False) as where:
        return read(where)
