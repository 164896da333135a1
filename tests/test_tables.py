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


@pytest.mark.parametrize("cols", [None, "100"])
def test_pipes_fit_columns_or_80(monkeypatch, cols):
    """`jobgen apps | less`: a pipe gets $COLUMNS, else 80 columns, as collect's table."""
    if cols is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", cols)
    for priority, rows, order in _site_and_app_rows():
        out = io.StringIO()
        print_table(priority, rows, stream=out, order=order)
        lines = out.getvalue().splitlines()
        assert max(len(line) for line in lines) <= int(cols or 80), out.getvalue()
        header = [c.strip() for c in lines[1].strip("┃").split("┃")]
        assert header[0] == priority[0] and priority[1] in header


def test_sites_says_why_a_profile_is_invalid_at_any_width(tmp_path, monkeypatch):
    from helpers import jobgen_here

    (tmp_path / "lumi-bad.yaml").write_text("name: lumi-bad\nextends: lumi\nbogus: 1\n")
    monkeypatch.setenv("JOBGEN_PROFILE_PATH", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "80")
    out = jobgen_here("sites").stdout
    assert "lumi-bad: invalid: " in out and "bogus: unknown key" in " ".join(out.split())



def _result_row(precision: str, nodes: int, ok: int = 3, **monitor):
    from jobgen.study.collect import Row

    best = 1000.0 * nodes + (7 if precision == "bf16" else 0)
    return Row(sweep="s", point=f"{precision}-n{nodes}", site="polaris", device="A100",
               app="gpt", precision=precision, nodes=nodes, ranks_per_node=4,
               ranks_per_device=1, instances_per_device=1, world_size=4 * nodes,
               devices=4 * nodes, repeats=3, ok=ok, best=best, min=best * 0.9, max=best,
               stdev=10.0, per_device=best / (4 * nodes), scaling_efficiency=None,
               scaling_base_nodes=None, vs_fp32=None, verdict=None, chance=None,
               status="ok" if ok == 3 else "partial", note=None, **monitor)


def _results(rows, width):
    from jobgen.study.collect import Collection
    from jobgen.study.present import results_table

    return results_table(Collection(rows=rows, runs=[]), width)


def _monitored(k: int) -> dict[str, float]:
    return dict(gpu_mem_peak_mib=30720.0 + 1024 * k, gpu_util_mean_pct=87.4 - k,
                cpu_busy_mean_pct=12.6 + k, host_mem_peak_mib=2048.0 * (k + 1),
                gpu_power_mean_w=315.0 - k)


MONITOR_TITLES = ["GPU", "mem", "GPU", "use", "GPU", "W", "CPU", "use", "host", "mem"]


def test_collect_table_shows_the_monitors_peak_memory_and_mean_use():
    rows = [_result_row("fp32", 1, **_monitored(0)), _result_row("bf16", 2, ok=2)]
    wide = _results(rows, 200).splitlines()
    header = next(line for line in wide if line.startswith("precision"))
    assert header.split()[-11:] == [*MONITOR_TITLES, "status"]
    fp32 = next(line for line in wide if line.startswith("fp32"))
    assert fp32.split()[-6:] == ["30.0GiB", "87%", "315W", "13%", "2.0GiB", "ok"]
    bf16 = next(line for line in wide if line.startswith("bf16"))
    assert bf16.split()[-6:] == ["-", "-", "-", "-", "-", "partial"]  # not monitored: '-'
    assert "GPU use, CPU use: mean; GPU W: mean drawn power" in " ".join(wide)


def test_monitor_columns_go_first_at_80_columns_and_are_absent_without_monitors():
    rows = [_result_row(p, n, ok=3 - n % 2, **_monitored(k))
            for k, (p, n) in enumerate([("fp32", 1), ("bf16", 1), ("fp32", 2), ("bf16", 2)])]
    wide = _results(rows, 200)
    header = next(line for line in wide.splitlines() if line.startswith("precision"))
    assert all(t in header.split() for t in MONITOR_TITLES) and "(left out" not in wide
    narrow = _results(rows, 80)
    lines = narrow.splitlines()
    assert all(len(line) <= 80 for line in lines), narrow
    header = next(line for line in lines if line.startswith("precision"))
    for throughput in ("best", "min-max", "per dev", "ok/runs"):
        assert throughput in header, narrow  # the throughput columns stay
    left = " ".join(lines[next(i for i, x in enumerate(lines) if x.startswith("(left out")):])
    dropped = left.split("columns: ")[1].split(";")[0].split(", ")
    # the first left out are monitor columns, the last of them first (GPU memory stays longest)
    assert dropped == ["host mem", "CPU use", "GPU W", "GPU use"], narrow
    assert "GPU mem" in header, narrow
    # no run monitored: no monitor columns at all, and nothing said about them
    plain = _results([_result_row("fp32", 1), _result_row("bf16", 2, ok=2)], 200)
    assert "GPU" not in plain and "host mem" not in plain and "--monitor" not in plain
    assert "(left out" not in plain
