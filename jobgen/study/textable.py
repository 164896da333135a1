"""Plain-text tables that fit the terminal (80 columns when it is not one).

Columns whose value is the same in every row move into a line above the table; if the rest
is still too wide, the least important columns are left out (named below the table; `--format
json` has every field). Cells are never cut: a word stays whole, and a row's long note goes
on its own indented lines, folded between words. All text is shown with control characters
escaped, so a name from a file cannot move the cursor or recolour the terminal.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from dataclasses import dataclass

from ..shell import comment


def plain(text: object) -> str:
    """Text safe for a terminal: control characters shown as escapes, one line."""
    return str(comment(text))


@dataclass(frozen=True)
class Column:
    title: str
    priority: int  # lower: dropped first when the table is too wide
    right: bool = False  # numbers align right


def width() -> int:
    """$COLUMNS, else the terminal's width, else 80."""
    env = os.environ.get("COLUMNS", "")
    if env.isascii() and env.isdigit() and 20 <= int(env) <= 1000:
        return int(env)
    if sys.stdout.isatty():
        return max(40, shutil.get_terminal_size((80, 24)).columns)
    return 80


def render(title: str, columns: list[Column], rows: list[list[str]], notes: list[str | None],
           limit: int, footer: str | None = None) -> str:
    if not rows:
        return f"{title}\n(nothing to show)\n"
    rows = [[plain(c) for c in row] for row in rows]
    keep = list(range(len(columns)))
    constant = [i for i in keep if len(rows) > 1 and len({r[i] for r in rows}) == 1]
    header = [f"{columns[i].title}: {rows[0][i]}" for i in constant if rows[0][i] != "-"]
    keep = [i for i in keep if i not in constant]
    dropped: list[str] = []
    while keep and _width(columns, rows, keep) > limit:
        worst = min(keep, key=lambda i: (columns[i].priority, -i))
        keep.remove(worst)
        dropped.append(columns[worst].title)
    widths = {i: max(len(columns[i].title), *(len(r[i]) for r in rows)) for i in keep}
    out = textwrap.wrap(plain(title), limit, break_long_words=False, break_on_hyphens=False)
    if header:
        out += textwrap.wrap(" · ".join(header), limit, break_long_words=False,
                             break_on_hyphens=False)
    out.append(_line([columns[i].title for i in keep], keep, widths, columns))
    for row, note in zip(rows, notes, strict=True):
        out.append(_line([row[i] for i in keep], keep, widths, columns))
        if note:
            out += textwrap.wrap(plain(note), limit, initial_indent="    ",
                                 subsequent_indent="    ", break_long_words=False,
                                 break_on_hyphens=False)
    if footer:
        out += textwrap.wrap(footer, limit, break_long_words=False, break_on_hyphens=False)
    if dropped:
        out += textwrap.wrap(f"(left out at {limit} columns: {', '.join(dropped)}; "
                             "--format json has every field)", limit, break_long_words=False)
    return "\n".join(line.rstrip() for line in out) + "\n"


def _width(columns: list[Column], rows: list[list[str]], keep: list[int]) -> int:
    return sum(max(len(columns[i].title), *(len(r[i]) for r in rows)) for i in keep) + 2 * (
        len(keep) - 1)


def _line(cells: list[str], keep: list[int], widths: dict[int, int],
          columns: list[Column]) -> str:
    return "  ".join(c.rjust(widths[i]) if columns[i].right else c.ljust(widths[i])
                     for c, i in zip(cells, keep, strict=True))
