"""Each run's `provenance.json` read back for `jobgen collect` and `jobgen report`: the digest
of its script, profile, modules, packages and program commit, and a warning when the runs
compared ran on different software.

The batch script writes the file once per job (templates/_provenance.j2) in
`RUN/jobgen-runs/<job name>.<job id>/provenance.json`. Its strings carry one `\\u00XX` per byte
at or above 0x80 (bash cannot tell valid UTF-8 from invalid), so every string is read back as
those bytes and decoded as UTF-8 here, an invalid byte shown as U+FFFD. The file is input like
any other: read inside the sweep without following a link, bounded, each field checked for its
type; a field that is not what jobgen writes is left out, never guessed at.
"""

from __future__ import annotations

import hashlib
import os
import stat
from typing import Any

from ..errors import JobgenError
from .files import SweepDir
from .jsonin import JsonError, load_json

NAME = "provenance.json"
MAX_FILE = 16 << 20  # pip freeze and conda list are at most 4 MiB each in the file
MAX_DEPTH = 8
KINDS = ("script", "profile", "modules", "packages", "program")
# What differs between runs that are compared: the software, not the script (each point's
# script differs by its axes).
SOFTWARE = ("jobgen", "profile", "modules", "packages", "program")


def text(value: Any) -> str | None:
    """A string of the record as the bytes the script wrote, decoded as UTF-8."""
    if not isinstance(value, str):
        return None
    try:
        return value.encode("latin-1").decode("utf-8", errors="replace")
    except UnicodeEncodeError:  # not written by the script (a character above U+00FF)
        return value


def _field(record: dict[str, Any], group: str, key: str) -> str | None:
    part = record.get(group)
    return text(part.get(key)) if isinstance(part, dict) else None


def _sha(data: str) -> str:
    return hashlib.sha256(data.encode("utf-8", errors="surrogateescape")).hexdigest()


def digests(record: dict[str, Any]) -> dict[str, str | None]:
    """The digest (or commit) of each kind; None where the record has none."""
    out: dict[str, str | None] = {k: None for k in KINDS}
    out["jobgen"] = text(record.get("jobgen_version"))
    out["script"] = _field(record, "script", "sha256") or None
    out["profile"] = _field(record, "profile", "sha256") or None
    loaded = _field(record, "modules", "loaded")
    listed = _field(record, "modules", "list")
    if loaded:  # LOADEDMODULES: what Lmod and Environment Modules have loaded, in order
        out["modules"] = _sha(loaded)
    elif listed and _field(record, "modules", "status") == "ok":
        out["modules"] = _sha(listed.strip())
    packages = _field(record, "packages", "list")
    if packages and _field(record, "packages", "status") == "ok":
        lines = sorted(x.strip() for x in packages.splitlines() if x.strip())
        out["packages"] = _sha("\n".join(lines))
    commit = _field(record, "program", "commit")
    if commit:
        dirty = (record.get("program") or {}).get("dirty")
        out["program"] = commit[:12] + ("+dirty" if dirty is True else "")
    return out


def read_record(where: SweepDir, run_dir: str) -> dict[str, Any] | None:
    """The newest `jobgen-runs/*/provenance.json` under a run's directory, or None."""
    base = f"{run_dir}/jobgen-runs"
    found: list[tuple[float, str]] = []
    try:
        with where.directory(base) as fd:
            for name in sorted(os.listdir(fd))[:1000]:
                if name.startswith("."):
                    continue
                mode = os.lstat(name, dir_fd=fd).st_mode
                if not stat.S_ISDIR(mode):
                    continue
                for file, mtime in where.files(f"{base}/{name}"):
                    if file == NAME:
                        found.append((mtime, f"{base}/{name}/{NAME}"))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise where._error(base, exc, "a run directory") from None
    if not found:
        return None
    rel = max(found)[1]
    raw = where.read(rel, "a provenance record", MAX_FILE)
    if raw is None:
        return None
    try:
        data = load_json(raw, MAX_DEPTH)
    except JsonError as exc:
        raise JobgenError(f"{where.path / rel}: {exc} (the job's provenance record: remove "
                          "it, or run the job again)") from None
    if not isinstance(data, dict) or data.get("format") != 1:
        raise JobgenError(f"{where.path / rel}: not a jobgen provenance record of format 1")
    data["_file"] = rel
    return data


def summary(where: SweepDir, run_dir: str, script: str) -> dict[str, Any] | None:
    """A run's digests, where its record came from, and whether its script is the sweep's."""
    record = read_record(where, run_dir)
    if record is None:
        return None
    out: dict[str, Any] = {"file": record["_file"], **digests(record)}
    rendered = where.read(script, "a job script")
    if rendered is not None and out["script"]:
        out["script_as_generated"] = hashlib.sha256(rendered).hexdigest() == out["script"]
    dirty = (record.get("program") or {}).get("dirty")
    out["program_dirty"] = dirty if isinstance(dirty, bool) else None
    return out


def short(value: str | None) -> str:
    """A digest as 12 characters (a commit keeps its +dirty)."""
    if not value:
        return "-"
    return value if "+" in value else value[:12]


def software_warnings(runs: list[tuple[str, dict[str, Any] | None]]) -> list[str]:
    """One line per kind of software that differs among the runs compared: which digests,
    and the runs that had each (the first three)."""
    lines = []
    for kind in SOFTWARE:
        seen: dict[str, list[str]] = {}
        for label, prov in runs:
            if prov and prov.get(kind):
                seen.setdefault(prov[kind], []).append(label)
        if len(seen) < 2:
            continue
        parts = [f"{short(d)} in {', '.join(labels[:3])}"
                 + (f" and {len(labels) - 3} more" if len(labels) > 3 else "")
                 for d, labels in seen.items()]
        what = "jobgen versions" if kind == "jobgen" else f"{kind}"
        lines.append(f"runs compared across different software: {what} differ "
                     f"({len(seen)} digests: {'; '.join(parts)})")
    return lines
