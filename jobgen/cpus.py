"""CPU list arithmetic: parse and format core lists, logical CPU ids and hexadecimal masks."""

from __future__ import annotations

import re
from collections.abc import Iterable

_DIGITS = re.compile(r"[0-9]{1,7}")
MAX_CPUS = 1 << 16  # logical CPU ids above this are a typo, not a node


def parse_cpu_list(text: str) -> list[int]:
    """'1-3,7' -> [1, 2, 3, 7]; raises ValueError on malformed text or a reversed range."""
    cpus: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            raise ValueError(f"empty element in cpu list {text!r}")
        lo, sep, hi = part.partition("-")
        if not _DIGITS.fullmatch(lo) or (sep and not _DIGITS.fullmatch(hi)):
            raise ValueError(f"malformed cpu list {text[:80]!r}")
        start, end = int(lo), int(hi) if sep else int(lo)
        if end < start:
            raise ValueError(f"reversed range {part!r} in cpu list {text[:80]!r}")
        if end >= MAX_CPUS:
            raise ValueError(f"CPU {end} in {text[:80]!r} is beyond any node ({MAX_CPUS} CPUs)")
        cpus.extend(range(start, end + 1))
    return cpus


def format_cpu_list(cpus: Iterable[int], sep: str = ",") -> str:
    """[1, 2, 3, 7] -> '1-3,7' (ranges compressed, input order kept for non-runs)."""
    items = list(cpus)
    out: list[str] = []
    i = 0
    while i < len(items):
        j = i
        while j + 1 < len(items) and items[j + 1] == items[j] + 1:
            j += 1
        out.append(str(items[i]) if i == j else f"{items[i]}-{items[j]}")
        i = j + 1
    return sep.join(out)


def cpu_mask(cpus: Iterable[int], width: int) -> str:
    """Hexadecimal affinity mask of logical CPUs, zero-padded to cover `width` CPUs."""
    value = 0
    for cpu in cpus:
        value |= 1 << cpu
    digits = max(1, (width + 3) // 4)
    return f"0x{value:0{digits}x}"


def logical_cpus(
    cores: Iterable[int], total_cores: int, threads: int, numbering: str, siblings: bool
) -> list[int]:
    """Logical CPU ids of physical `cores`; with `siblings`, every SMT thread of each core."""
    out: list[int] = []
    for core in cores:
        for t in range(threads if siblings else 1):
            out.append(core + t * total_cores if numbering == "blocked" else core * threads + t)
    return sorted(out)
