"""`manifest.json`: the record of a sweep that submit updates and collect reads.

Paths in it are relative to the sweep directory, so a directory copied back from a site
(rsync, scp) still collects. It is rewritten atomically after every change, so an
interrupted submit keeps the job ids it already has.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import JobgenError

NAME = "manifest.json"
FORMAT = 1


@dataclass
class Run:
    """One submission of a point's script (one repeat)."""

    repeat: int
    dir: str  # relative to the sweep directory
    script: str  # relative to the sweep directory
    job_name: str
    output_pattern: str | None = None  # the output file's name, {id}/{seq} from the job id
    output: str | None = None  # where the job's output goes (relative); known after submit
    job_id: str | None = None
    exit_code: int | None = None  # sites without a scheduler: the script's exit status
    submit_error: str | None = None


@dataclass
class Point:
    """One combination of the sweep's axes, valid (with its runs) or invalid (with why)."""

    id: str
    params: dict[str, Any]  # the axes' values as asked (None: the site's default)
    status: str  # "valid" or "invalid"
    error: str | None = None
    plan: dict[str, Any] = field(default_factory=dict)  # what the plan resolved
    runs: list[Run] = field(default_factory=list)


@dataclass
class Manifest:
    site: str
    app: str | None  # the bundled app, None for a program after `--`
    dialect: str
    device: str  # what the chart calls the device: the GPU model, or "CPU"
    command: str  # the sweep command line that made this directory
    repeat: int
    axes: dict[str, list[Any]]
    points: list[Point]
    jobgen_version: str
    format: int = FORMAT

    @property
    def valid_points(self) -> list[Point]:
        return [p for p in self.points if p.status == "valid"]

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True) + "\n"

    def write(self, directory: Path) -> None:
        """Write next to the target and rename, so a reader never sees half a manifest."""
        target = directory / NAME
        tmp = directory / f".{NAME}.{os.getpid()}"
        try:
            tmp.write_text(self.to_json(), encoding="utf-8")
            os.replace(tmp, target)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise JobgenError(f"cannot write {target}: {exc.strerror}") from None


def read(directory: Path) -> Manifest:
    """The manifest of a sweep directory, or a one-line error saying what is wrong."""
    path = directory / NAME
    if not path.is_file():
        raise JobgenError(f"{directory} is not a sweep directory (no {NAME}): make one with "
                          "jobgen sweep --out DIR")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise JobgenError(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise JobgenError(f"{path} is not a jobgen sweep manifest of format {FORMAT}")
    try:
        points = [Point(**{**p, "runs": [Run(**r) for r in p["runs"]]}) for p in data["points"]]
        return Manifest(**{**data, "points": points})
    except (KeyError, TypeError) as exc:
        raise JobgenError(f"{path} is damaged: {exc}") from None
