"""`jobgen report`: the study's chart and a scaling chart from collected sweeps.

The chart is the study's: best samples/s per configuration, devices (site and device) as
colours, precisions as hatches, min-max of the repeats as error bars, and a marker on each
reduced-precision bar saying whether it helped, matched (within +-5 %) or hurt against fp32.
Below it, scaling efficiency against each series' smallest node count. `chart_data` is the
plotted data (tests assert on it); `draw` needs matplotlib, an optional extra.
"""

from __future__ import annotations

import html
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import JobgenError
from .collect import Collection, Row, fmt

HATCH = {"fp32": "", "tf32": "//", "bf16": "xx", "fp16": "..", "default": ""}
MARKER = {"helped": ("^", "#1a9850"), "matched": ("o", "#737373"), "hurt": ("v", "#d73027")}
PRECISION_ORDER = ("fp32", "tf32", "bf16", "fp16", "default")
FORMATS = ("png", "svg", "html")


@dataclass(frozen=True)
class Bar:
    group: str  # the configuration on the x axis
    series: str  # the colour: site (device)
    precision: str  # the hatch
    value: float  # best samples/s
    low: float
    high: float
    verdict: str | None  # the marker: helped, matched, hurt (None for fp32)
    vs_fp32: float | None = None

    @property
    def gid(self) -> str:
        """The bar's id in an SVG: bar:GROUP:SERIES:PRECISION with unsafe characters as _."""
        return "bar:" + ":".join(re.sub(r"[^A-Za-z0-9_.=-]", "_", s)
                                 for s in (self.group, self.series, self.precision))


@dataclass(frozen=True)
class Line:
    series: str
    precision: str
    config: str
    nodes: tuple[int, ...]
    efficiency: tuple[float, ...]  # fractions; 1.0 is perfect scaling


@dataclass
class ChartData:
    groups: list[str]
    series: list[str]
    precisions: list[str]
    bars: list[Bar] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    log_scale: bool = False


def series_label(row: Row) -> str:
    return f"{row.site} ({row.device})"


def _varying(rows: list[Row]) -> list[str]:
    """The configuration fields that differ between the rows: the ones a label must show."""
    keys = ("nodes", "ranks_per_node", "ranks_per_device", "instances_per_device")
    return [k for k in keys if len({getattr(r, k) for r in rows}) > 1]


LABEL = {"nodes": "{}n", "ranks_per_node": "{}r/n", "ranks_per_device": "{}r/dev",
         "instances_per_device": "{}i/dev"}


def group_label(row: Row, varying: list[str]) -> str:
    parts = [LABEL[k].format(getattr(row, k)) for k in varying if getattr(row, k) is not None]
    return " ".join([row.app, *parts])


def chart_data(collection: Collection) -> ChartData:
    """The bars and scaling lines the chart draws, from the rows with a result."""
    rows = [r for r in collection.rows if r.best]
    if not rows:
        raise JobgenError("no point has a result yet: nothing to draw (see jobgen collect)")
    varying = _varying(rows)
    data = ChartData(
        groups=list(dict.fromkeys(group_label(r, varying) for r in rows)),
        series=list(dict.fromkeys(series_label(r) for r in rows)),
        precisions=sorted({r.precision for r in rows}, key=_precision_rank),
    )
    for r in rows:
        data.bars.append(Bar(group_label(r, varying), series_label(r), r.precision, r.best,
                             r.min or r.best, r.max or r.best, r.verdict,  # type: ignore
                             r.vs_fp32))
    values = [b.value for b in data.bars]
    data.log_scale = max(values) / min(values) > 10  # apps differ by decades
    data.lines = _lines(rows, [k for k in varying if k != "nodes"])
    return data


def _precision_rank(p: str) -> int:
    return PRECISION_ORDER.index(p) if p in PRECISION_ORDER else len(PRECISION_ORDER)


def _lines(rows: list[Row], varying: list[str]) -> list[Line]:
    series: dict[tuple[Any, ...], list[Row]] = {}
    for r in rows:
        if r.scaling_efficiency is not None:
            series.setdefault((*r.config, r.precision), []).append(r)
    lines = []
    for members in series.values():
        members.sort(key=lambda r: r.nodes or 0)
        first = members[0]
        lines.append(Line(series_label(first), first.precision, group_label(first, varying),
                          tuple(r.nodes for r in members),  # type: ignore[misc]
                          tuple(r.scaling_efficiency for r in members)))  # type: ignore[misc]
    return lines


# ---------------------------------------------------------------- drawing
def draw(data: ChartData, out: Path, title: str, collection: Collection) -> None:
    """Write the chart as PNG or SVG, or an HTML page with the SVG inline and the table."""
    kind = check_out(out)
    fig = _figure(data, title)
    if kind == "html":
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
        text = _html_page(title, buf.getvalue(), collection)
        out.write_text(text, encoding="utf-8")
        return
    meta = {"Date": None} if kind == "svg" else {"Software": None}
    try:
        fig.savefig(out, format=kind, metadata=meta, dpi=100)
    except OSError as exc:
        raise JobgenError(f"cannot write {out}: {exc.strerror}") from None


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise JobgenError("report draws with matplotlib, which is not installed: "
                          "pip install 'jobgen[report]'") from None
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "jobgen",
                                "hatch.linewidth": 0.8})
    from matplotlib.figure import Figure

    return Figure


def _figure(data: ChartData, title: str) -> Any:
    figure = _matplotlib()
    width = max(7.0, 1.2 + 0.45 * len(data.bars))
    if not data.lines:  # one node count per series: the study chart alone
        fig = figure(figsize=(width, 5.0), layout="constrained")
        ax = fig.subplots()
        _draw_bars(ax, data)
        ax.set_title(f"{title}\n(one node count per series: no scaling chart)", fontsize=10)
        return fig
    fig = figure(figsize=(width, 8.5), layout="constrained")
    top, bottom = fig.subplots(2, 1, height_ratios=(3, 2))
    _draw_bars(top, data)
    top.set_title(title)
    _draw_scaling(bottom, data)
    return fig


def _draw_bars(ax: Any, data: ChartData) -> None:
    from matplotlib.patches import Patch

    colours = _colours(data.series)
    slots = [(s, p) for s in data.series for p in data.precisions
             if any(b.series == s and b.precision == p for b in data.bars)]
    width = 0.8 / len(slots)
    for bar in data.bars:
        x = data.groups.index(bar.group) - 0.4 + width * (slots.index((bar.series,
                                                                       bar.precision)) + 0.5)
        drawn = ax.bar(x, bar.value, width, color=colours[bar.series], edgecolor="black",
                       hatch=HATCH.get(bar.precision, "++"), linewidth=0.6)
        drawn.patches[0].set_gid(bar.gid)
        ax.errorbar(x, bar.value, yerr=[[bar.value - bar.low], [bar.high - bar.value]],
                    color="black", capsize=2, linewidth=0.8)
        if bar.verdict:
            marker, colour = MARKER[bar.verdict]
            y = bar.high * (1.15 if data.log_scale else 1.04)
            ax.plot(x, y, marker=marker, color=colour, markersize=8, linestyle="none",
                    gid=f"marker:{bar.verdict}")
            ax.annotate(f"{bar.vs_fp32:.2f}x", (x, y), textcoords="offset points",
                        xytext=(0, 7), ha="center", fontsize=7, color=colour)
    ax.set_xticks(range(len(data.groups)), data.groups)
    ax.set_ylabel("samples/s (best of repeats; bars: min-max)")
    if data.log_scale:
        ax.set_yscale("log")
    else:
        ax.set_ylim(0, max(b.high for b in data.bars) * 1.15)
    legend = [Patch(facecolor=colours[s], edgecolor="black", label=s) for s in data.series]
    legend += [Patch(facecolor="white", edgecolor="black", hatch=HATCH.get(p, "++"), label=p)
               for p in data.precisions]
    legend += [_marker_handle(v) for v in MARKER if any(b.verdict == v for b in data.bars)]
    ax.legend(handles=legend, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def _marker_handle(verdict: str) -> Any:
    from matplotlib.lines import Line2D

    marker, colour = MARKER[verdict]
    return Line2D([], [], marker=marker, color=colour, linestyle="none",
                  label=f"vs fp32: {verdict}")


def _draw_scaling(ax: Any, data: ChartData) -> None:
    ax.set_title("scaling efficiency vs the smallest node count")
    colours = _colours(data.series)
    styles = dict(zip(data.precisions, ("-", "--", "-.", ":", "-"), strict=False))
    for line in data.lines:
        label = " ".join(x for x in (line.series, line.precision, line.config) if x)
        ax.plot(line.nodes, [e * 100 for e in line.efficiency], marker="o", label=label,
                color=colours[line.series], linestyle=styles.get(line.precision, "-"),
                gid=f"scaling:{line.series}:{line.precision}")
    ax.axhline(100, color="grey", linewidth=0.8, linestyle=":")
    nodes = sorted({n for line in data.lines for n in line.nodes})
    ax.set_xscale("log", base=2)
    ax.set_xticks(nodes, [str(n) for n in nodes])
    ax.set_xlabel("nodes")
    ax.set_ylabel("efficiency (%)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def _colours(series: list[str]) -> dict[str, Any]:
    from matplotlib import colormaps

    palette = colormaps["tab10"]
    return {s: palette(i % 10) for i, s in enumerate(series)}


def _html_page(title: str, svg: str, collection: Collection) -> str:
    """One self-contained page: the chart as inline SVG and the results table."""
    svg = svg[svg.index("<svg"):]
    head = ("site", "device", "app", "precision", "nodes", "best", "min", "max", "scaling",
            "vs fp32", "status")
    cells = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
            r.site, r.device, r.app, r.precision, r.nodes, fmt(r.best), fmt(r.min), fmt(r.max),
            fmt(r.scaling_efficiency, pct=True),
            f"{fmt(r.vs_fp32)} {r.verdict}" if r.verdict else "-",
            r.status + (f": {r.note}" if r.note and r.status != "ok" else ""))) + "</tr>\n"
        for r in collection.rows)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title>\n<style>body{{font-family:sans-serif}}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
        "</style></head>\n<body>\n"
        f"<h1>{html.escape(title)}</h1>\n{svg}\n<table>\n<tr>"
        + "".join(f"<th>{h}</th>" for h in head) + "</tr>\n" + cells + "</table>\n</body></html>\n"
    )


def check_out(out: Path) -> str:
    """The chart's format from --out, and matplotlib at hand: checked before any collecting."""
    kind = out.suffix.lower().lstrip(".")
    if kind not in FORMATS:
        raise JobgenError(f"--out {out}: the chart is written as .png, .svg or .html")
    _matplotlib()
    return kind


def report(collection: Collection, out: Path, title: str) -> ChartData:
    data = chart_data(collection)
    draw(data, out, title, collection)
    return data
