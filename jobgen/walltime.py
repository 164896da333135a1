"""Walltime parsing and the per-dialect formats (PBS/Slurm/Cobalt HH:MM:SS, LSF [h:]mm)."""

from __future__ import annotations

import re

from .errors import JobgenError

_HMS = re.compile(r"(\d{1,3}):([0-5]\d):([0-5]\d)", re.ASCII)


def parse_walltime(text: str) -> int:
    """'HH:MM:SS' -> seconds; 'H:MM' is ambiguous between dialects, so it is refused."""
    m = _HMS.fullmatch(text.strip())
    if not m:
        raise JobgenError(
            f"bad walltime {text!r}: write it as HH:MM:SS, for example 01:30:00"
        )
    h, mi, s = (int(g) for g in m.groups())
    seconds = h * 3600 + mi * 60 + s
    if seconds == 0:
        raise JobgenError(f"bad walltime {text!r}: it must be longer than zero")
    return seconds


def is_walltime(text: str) -> bool:
    return bool(_HMS.fullmatch(text.strip()))


def hms(seconds: int) -> str:
    return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def lsf_minutes(seconds: int) -> str:
    """LSF -W takes [hours:]minutes; seconds round up so the job never gets less time."""
    minutes = -(-seconds // 60)
    return f"{minutes // 60}:{minutes % 60:02d}"
