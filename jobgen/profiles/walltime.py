"""Walltime parsing and the per-dialect formats (PBS/Slurm/Cobalt HH:MM:SS, LSF [h:]mm).

Accepted input: minutes (`90`), `H:MM:SS` / `HH:MM:SS` (hours up to 3 digits) and
`D-HH:MM:SS` (Slurm's day form). `H:MM` is refused: Slurm reads it as minutes:seconds and LSF
as hours:minutes, so it means different things to different schedulers.
"""

from __future__ import annotations

import re

from ..errors import JobgenError

_FORM = re.compile(r"(?:(\d{1,3})-)?(\d{1,3}):(\d{1,2}):(\d{1,2})|(\d{1,6})")
_EXAMPLES = "write minutes (90), HH:MM:SS (01:30:00) or D-HH:MM:SS (1-12:00:00)"


def walltime_problem(text: str) -> tuple[int | None, str | None]:
    """(seconds, None) for a valid walltime, else (None, the reason it is not one)."""
    if not text.isprintable() or not text.isascii():
        return None, "it has control or non-ASCII characters"
    m = _FORM.fullmatch(text.strip())
    if not m:
        if re.fullmatch(r"\d+:\d+", text.strip()):
            return None, "H:MM is ambiguous (Slurm reads minutes:seconds, LSF hours:minutes)"
        return None, "not a walltime"
    days, hours, minutes, seconds, only_minutes = m.groups()
    if only_minutes is not None:
        total = int(only_minutes) * 60
    else:
        h, mi, s = int(hours), int(minutes), int(seconds)
        if len(minutes) != 2 or mi > 59:
            return None, f"minutes must be 00-59, not {minutes}"
        if len(seconds) != 2 or s > 59:
            return None, f"seconds must be 00-59, not {seconds}"
        if days is not None and h > 23:
            return None, f"hours must be 00-23 after the days, not {hours}"
        total = ((int(days or 0) * 24 + h) * 60 + mi) * 60 + s
    if total == 0:
        return None, "it must be longer than zero"
    return total, None


def parse_walltime(text: str) -> int:
    """A walltime in any accepted form -> seconds; a one-line error naming what is wrong."""
    seconds, problem = walltime_problem(text)
    if seconds is None:
        raise JobgenError(f"bad walltime {text!r}: {problem}; {_EXAMPLES}")
    return seconds


def is_walltime(text: str) -> bool:
    return walltime_problem(text)[0] is not None


def hms(seconds: int) -> str:
    return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def lsf_minutes(seconds: int) -> str:
    """LSF -W takes [hours:]minutes; seconds round up so the job never gets less time."""
    minutes = -(-seconds // 60)
    return f"{minutes // 60}:{minutes % 60:02d}"
