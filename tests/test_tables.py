"""Tables for people fit an 80-column terminal: the columns that matter, words unbroken."""

from __future__ import annotations

import io
import re

import pytest

from jobgen.cli.tables import fitting, print_table


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _table(columns, rows, order=None, whole=()) -> str:
    out = Terminal()
    print_table(columns, rows, whole=whole, stream=out, order=order)
    return re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())  # a terminal gets styles


def _site_and_app_rows():
    from jobgen.cli.commands import (
        APP_COLUMNS,
        APP_PRIORITY,
        SITE_COLUMNS,
        SITE_PRIORITY,
        _app_rows,
    )
    from jobgen.cli.commands import _site_rows as site_rows
    from jobgen.plan.apps import app_names, load_app

    app_rows = _app_rows([load_app(n) for n in app_names()])
    return [(SITE_PRIORITY, site_rows(), SITE_COLUMNS), (APP_PRIORITY, app_rows, APP_COLUMNS)]


@pytest.mark.parametrize("cols", [80, 100, 60])
def test_sites_and_apps_fit_the_terminal_with_words_whole(monkeypatch, cols):
    monkeypatch.setenv("COLUMNS", str(cols))
    for priority, rows, order in _site_and_app_rows():
        text = _table(priority, rows, order=order)
        lines = text.splitlines()
        assert all(len(line) <= cols for line in lines), max(lines, key=len)
        shown, left = fitting(priority, rows, cols)
        assert shown[0] == priority[0] and len(shown) >= 2
        cells = " ".join(line for line in lines if line.startswith("│"))
        tokens = set(re.findall(r"[^\s│]+", cells))
        for row in rows:
            for col in shown:
                for word in row[col].split():
                    assert word in tokens, f"{word!r} of {col} broken at {cols} columns"
        if left:
            assert "--format json has every column" in " ".join(text.split())


def test_pipes_get_every_column_whole():
    from jobgen.cli.commands import SITE_COLUMNS, SITE_PRIORITY
    from jobgen.cli.commands import _site_rows as site_rows

    out = io.StringIO()
    rows = site_rows()
    print_table(SITE_PRIORITY, rows, stream=out, order=SITE_COLUMNS)
    header = out.getvalue().splitlines()[1]
    assert [c.strip() for c in header.strip("┃").split("┃")] == list(SITE_COLUMNS)
