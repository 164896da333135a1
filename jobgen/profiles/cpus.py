"""CPU list arithmetic: parse and format core lists, logical CPU ids and hexadecimal masks."""

from __future__ import annotations

import re
from collections.abc import Iterable

MAX_CPUS = 1 << 16  # logical CPU ids from this on are a typo, not a node; also the longest list
_RANGE = re.compile(r"([0-9]+)(?:-([0-9]+))?")


def parse_cpu_list(text: str) -> list[int]:
    """'1-3,7' -> [1, 2, 3, 7]; raises ValueError on malformed text or a reversed range.

    CPU ids stop below MAX_CPUS and a list at that many entries, so a hostile '0-99999999999'
    (in a profile or a script under lint) is an error, not a billion-element list.
    """
    cpus: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            raise ValueError(f"empty element in cpu list {text[:80]!r}")
        m = _RANGE.fullmatch(part)
        if m is None:
            raise ValueError(f"malformed cpu list {text[:80]!r}")
        start = _cpu_id(m.group(1))
        end = _cpu_id(m.group(2)) if m.group(2) is not None else start
        if end < start:
            raise ValueError(f"reversed range {part!r} in cpu list {text[:80]!r}")
        if end >= MAX_CPUS or len(cpus) + end - start >= MAX_CPUS:
            raise ValueError(f"cpu list {text[:80]!r} goes beyond CPU {MAX_CPUS - 1}, more than "
                             "any node has")
        cpus.extend(range(start, end + 1))
    return cpus


def _cpu_id(digits: str) -> int:
    """The number, or MAX_CPUS when it has too many digits to be a CPU."""
    return int(digits) if len(digits) <= 7 else MAX_CPUS


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
