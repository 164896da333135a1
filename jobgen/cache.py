"""A small on-disk JSON cache keyed by content hashes, so warm runs skip YAML and pydantic.

Location: $JOBGEN_CACHE_DIR, else $XDG_CACHE_HOME/jobgen, else ~/.cache/jobgen;
JOBGEN_NO_CACHE=1 turns it off. A cache that cannot be written only costs speed.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any


def cache_dir() -> Path | None:
    if os.environ.get("JOBGEN_NO_CACHE"):
        return None
    base = os.environ.get("JOBGEN_CACHE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "jobgen"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read(name: str) -> Any | None:
    directory = cache_dir()
    if directory is None:
        return None
    try:
        return json.loads((directory / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write(name: str, data: Any) -> None:
    directory = cache_dir()
    if directory is None:
        return
    target = directory / name
    tmp = target.with_name(f".{target.name}.{os.getpid()}")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        tmp.unlink(missing_ok=True)


def read_bytes(name: str) -> bytes | None:
    """A binary entry (compiled templates), or None when absent or unreadable."""
    directory = cache_dir()
    if directory is None:
        return None
    try:
        return (directory / name).read_bytes()
    except OSError:
        return None


def write_bytes(name: str, data: bytes) -> None:
    directory = cache_dir()
    if directory is None:
        return
    target = directory / name
    tmp = target.with_name(f".{target.name}.{os.getpid()}")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, target)
    except OSError:
        tmp.unlink(missing_ok=True)
