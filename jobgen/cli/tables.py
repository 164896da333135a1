"""Tables for people that fit the terminal: the columns that matter first, words unbroken.

A column is never narrower than its longest word (so nothing is folded mid-word); when the
columns do not fit the terminal, the least important ones are left out, and a line under the
table names them (``--format json`` always has every column). Pipes and files get every
column whole.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..shell import comment

BORDER = 3  # "│ " before a cell and " " after it; one more "│" closes the row


def _min_width(name: str, cells: Sequence[str]) -> int:
    """A column's narrowest width that breaks no word: its longest word (or header)."""
    words = [w for c in cells for w in c.split()] + [name]
    return max(len(w) for w in words)


def fitting(columns: Sequence[str], rows: Sequence[dict[str, str]], width: int | None
            ) -> tuple[list[str], list[str]]:
    """(shown, left out): the columns, in the order given (most important first), that fit
    ``width`` at their narrowest; ``width`` None fits everything."""
    shown = list(columns)
    if width is None:
        return shown, []
    need = {c: _min_width(c, [r.get(c, "") for r in rows]) for c in columns}
    while len(shown) > 1 and sum(need[c] + BORDER for c in shown) + 1 > width:
        shown.pop()
    return shown, [c for c in columns if c not in shown]


def widths(columns: Sequence[str], rows: Sequence[dict[str, str]], width: int | None
           ) -> dict[str, int]:
    """Each column's width: its whole content where the table fits, else the widest columns
    narrowed first, never below their longest word."""
    cells = {c: [r.get(c, "") for r in rows] for c in columns}
    out = {c: max(len(x) for x in [*cells[c], c]) for c in columns}
    if width is None:
        return out
    floor = {c: _min_width(c, cells[c]) for c in columns}
    room = width - BORDER * len(columns) - 1
    while sum(out.values()) > room:
        slack = [c for c in columns if out[c] > floor[c]]
        if not slack:
            break
        widest = max(slack, key=lambda c: out[c])
        out[widest] -= 1
    return out


def print_table(columns: Sequence[str], rows: Sequence[dict[str, str]],
                whole: Sequence[str] = (), stream=None, order: Sequence[str] | None = None,
                ) -> None:
    """Print ``rows`` as a Rich table. ``columns`` are listed most important first; ``order``
    (default: ``columns``) is the order they appear in. ``whole`` columns never wrap (names
    users type); the others wrap at spaces only. Values are text, not markup: names and
    profile values are input and may hold '[' or control characters."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from ..study.textable import width as pipe_width

    stream = stream or sys.stdout
    tty = stream.isatty()
    width = Console(file=stream).width if tty else pipe_width()
    shown, left = fitting(columns, rows, width)
    shown = [c for c in (order or columns) if c in shown]
    sizes = widths(shown, rows, width)
    console = Console(file=stream, highlight=False,
                      width=None if tty else sum(sizes.values()) + BORDER * len(sizes) + 1)
    table = Table()
    for name, w in sizes.items():
        table.add_column(name, no_wrap=name in whole, width=w, overflow="fold")
    for row in rows:
        table.add_row(*(Text(comment(row.get(c, "")),
                             style="red" if row.get(c) == "invalid" else "") for c in shown))
    console.print(table)
    if left:
        console.print(Text(f"(left out at {width} columns: {', '.join(left)}; "
                           "--format json has every column)"))
