"""JSON from files jobgen did not write itself (a manifest, a job's result lines), read with
bounds: nesting checked before parsing (50,000 brackets must not exhaust the stack), no
NaN or Infinity, no number too large for a float, no 4000-digit integers.

With `lenient=True` such a number becomes an `Unreadable` value (its text) instead of an
error, so a caller can refuse it where it matters (a throughput) and drop it elsewhere.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_INT_DIGITS = 19  # what an int64 holds: counts, seeds, step numbers
# A string, or an unterminated one to the end of the text (so a failed string is never
# retried from each of its quotes: 60 KB of escaped quotes was minutes), or a bracket.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)|[\[\]{}]', re.S)


class JsonError(ValueError):
    """Why a text is not acceptable JSON, one line."""


class Unreadable(str):
    """A number that is not a finite float (NaN, Infinity, 1e400, a 4000-digit integer)."""

    __slots__ = ()


def nesting(text: str) -> int:
    """The deepest nesting of [ and { outside strings (linear in the text)."""
    depth = deepest = 0
    for m in _TOKENS.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def load_json(raw: bytes | str, max_depth: int, lenient: bool = False) -> Any:
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonError(f"not UTF-8 text (byte {exc.start})") from None
    depth = nesting(raw)
    if depth > max_depth:
        raise JsonError(f"nested {depth} levels deep, more than the {max_depth} allowed")

    def number(text: str) -> Any:
        if lenient:
            return Unreadable(text)
        raise JsonError(f"{text[:40]}{'…' if len(text) > 40 else ''} is not a finite number "
                        "of sensible size")

    def as_float(text: str) -> Any:
        value = float(text)
        return value if math.isfinite(value) else number(text)

    def as_int(text: str) -> Any:
        return int(text) if len(text.lstrip("-")) <= MAX_INT_DIGITS else number(text)

    try:
        return json.loads(raw, parse_constant=number, parse_float=as_float, parse_int=as_int)
    except JsonError:
        raise
    except (ValueError, RecursionError) as exc:
        raise JsonError(f"not valid JSON ({' '.join(str(exc).split())[:120]})") from None


def drop_unreadable(value: Any) -> Any:
    """`value` with every Unreadable number replaced by None (for fields nobody reads)."""
    if isinstance(value, Unreadable):
        return None
    if isinstance(value, dict):
        return {k: drop_unreadable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [drop_unreadable(v) for v in value]
    return value
