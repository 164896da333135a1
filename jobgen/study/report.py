"""`jobgen report`: the study's chart and a scaling chart from collected sweeps.

The chart is the study's, drawn so that a reader cannot be misled by it:
- one panel per app, each on its own linear axis from zero (apps differ by decades; bars on
  a log axis would make their lengths meaningless, so there are none);
- a bar per configuration: its best run; a dot for every run, so the spread is visible;
- devices (site and device) as colours, precisions as hatches;
- above each reduced-precision bar its ratio to fp32 and the verdict of the repeats: helped or
  hurt only when the runs separate (see collect.verdict), else "within noise";
- labels in words: nodes, ranks per node, samples/s of the whole job.
Below it, scaling efficiency against each series' smallest node count. Every text is plain:
names from files cannot start matplotlib's mathtext (`$` is escaped, usetex is off).
`chart_data` is the plotted data (tests assert on it); drawing needs matplotlib, an extra.
"""

from __future__ import annotations

import html
import io
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import JobgenError
from .collect import Collection, Row, fmt, verdict_text

HATCH = {"fp32": "", "tf32": "//", "bf16": "xx", "fp16": "..", "default": ""}
MARKER = {"helped": ("^", "#1a9850"), "within noise": ("o", "#737373"),
          "hurt": ("v", "#d73027")}
PRECISION_ORDER = ("fp32", "tf32", "bf16", "fp16", "default")
FORMATS = ("png", "svg", "html")
AXIS_WORDS = {"nodes": ("node", "nodes"), "ranks_per_node": ("rank/node", "ranks/node"),
              "ranks_per_device": ("rank/device", "ranks/device"),
              "instances_per_device": ("instance/device", "instances/device")}
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def plain(text: object) -> str:
    """Text matplotlib draws as it is: no control characters (line breaks stay), `$`
    escaped, so no name from a file starts mathtext."""
    return _CONTROL.sub(" ", str(text)).replace("$", r"\$")


@dataclass(frozen=True)
class Bar:
    panel: str  # the app: one panel each
    group: str  # the configuration on the panel's x axis
    series: str  # the colour: site (device)
    precision: str  # the hatch
    value: float  # best samples/s
    runs: tuple[float, ...]  # every run's samples/s (the dots)
    verdict: str | None  # the marker: helped, hurt, within noise (None for fp32)
    vs_fp32: float | None = None
    label: str = ""  # the text above the bar

    @property
    def low(self) -> float:
        return min(self.runs) if self.runs else self.value

    @property
    def high(self) -> float:
        return max(self.runs) if self.runs else self.value

    @property
    def gid(self) -> str:
        """The bar's id in an SVG: bar:GROUP:SERIES:PRECISION with unsafe characters as _."""
        return "bar:" + ":".join(re.sub(r"[^A-Za-z0-9_.=-]", "_", s)
                                 for s in (self.panel, self.group, self.series, self.precision))


@dataclass(frozen=True)
class Line:
    series: str
    precision: str
    config: str
    nodes: tuple[int, ...]
    efficiency: tuple[float, ...]  # fractions; 1.0 is perfect scaling


@dataclass
class ChartData:
    panels: list[str]
    groups: dict[str, list[str]]  # per panel, in order
    series: list[str]
    precisions: list[str]
    bars: list[Bar] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)


def series_label(row: Row) -> str:
    return f"{row.site} ({row.device})"


def _varying(rows: list[Row]) -> list[str]:
    """The fields a label shows: nodes and ranks per node always (a reader needs them to
    read samples/s), the per-device ones when they differ between the rows."""
    always = ("nodes", "ranks_per_node")
    return [k for k in AXIS_WORDS if k in always or len({getattr(r, k) for r in rows}) > 1]


def group_label(row: Row, varying: list[str]) -> str:
    parts = []
    for key in varying:
        value = getattr(row, key)
        if value is not None:
            one, many = AXIS_WORDS[key]
            parts.append(f"{value} {one if value == 1 else many}")
    return "\n".join(parts) or "as configured"


def chart_data(collection: Collection) -> ChartData:
    """The bars and scaling lines the chart draws, from the rows with a result."""
    rows = [r for r in collection.rows if r.best]
    if not rows:
        raise JobgenError("no point has a result yet: nothing to draw (see jobgen collect)")
    varying = _varying(rows)
    data = ChartData(
        panels=list(dict.fromkeys(r.app for r in rows)), groups={},
        series=list(dict.fromkeys(series_label(r) for r in rows)),
        precisions=sorted({r.precision for r in rows}, key=_precision_rank),
    )
    for r in rows:
        group = group_label(r, varying)
        data.groups.setdefault(r.app, [])
        if group not in data.groups[r.app]:
            data.groups[r.app].append(group)
        data.bars.append(Bar(r.app, group, series_label(r), r.precision, r.best,  # type: ignore
                             tuple(r.runs), r.verdict, r.vs_fp32,
                             verdict_text(r).replace(" (", "\n(").replace("x ", "x\n", 1)
                             if r.vs_fp32 else ""))
    data.lines = _lines(rows, [k for k in _varying(rows) if k != "nodes"
                               and len({getattr(r, k) for r in rows}) > 1])
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
        config = " ".join([first.app, *group_label(first, varying).split("\n")]) if varying \
            else first.app
        lines.append(Line(series_label(first), first.precision, config,
                          tuple(r.nodes for r in members),  # type: ignore[misc]
                          tuple(r.scaling_efficiency for r in members)))  # type: ignore[misc]
    return lines


# ---------------------------------------------------------------- drawing
def draw(data: ChartData, kind: str, title: str, collection: Collection) -> bytes:
    """The chart as PNG or SVG, or an HTML page with the SVG inline and the table."""
    fig = _figure(data, title)
    if kind == "html":
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
        return _html_page(title, buf.getvalue(), collection).encode()
    meta = {"Date": None} if kind == "svg" else {"Software": None}
    out = io.BytesIO()
    fig.savefig(out, format=kind, metadata=meta, dpi=100)
    return out.getvalue()


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise JobgenError("report draws with matplotlib, which is not installed: "
                          "pip install 'jobgen[report]'") from None
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "jobgen",
                                "hatch.linewidth": 0.8, "text.usetex": False})
    from matplotlib.figure import Figure

    return Figure


def _figure(data: ChartData, title: str) -> Any:
    figure = _matplotlib()
    bars = max(len(data.groups[p]) for p in data.panels)
    width = max(7.0, 2.0 + 1.6 * len(data.panels) * max(bars, 1))
    fig = figure(figsize=(min(width, 30.0), 8.5 if data.lines else 5.5), layout="constrained")
    grid = fig.add_gridspec(2 if data.lines else 1, len(data.panels),
                            height_ratios=(3, 2) if data.lines else None)
    for i, panel in enumerate(data.panels):
        ax = fig.add_subplot(grid[0, i])
        _draw_panel(ax, data, panel, legend=i == len(data.panels) - 1)
    fig.suptitle(plain(title) + ("" if data.lines else
                                 "\n(one node count per series: no scaling chart)"))
    if data.lines:
        _draw_scaling(fig.add_subplot(grid[1, :]), data)
    return fig


def _draw_panel(ax: Any, data: ChartData, panel: str, legend: bool) -> None:
    colours = _colours(data.series)
    mine = [b for b in data.bars if b.panel == panel]
    slots = [(s, p) for s in data.series for p in data.precisions
             if any(b.series == s and b.precision == p for b in mine)]
    width = 0.8 / len(slots)
    groups = data.groups[panel]
    top = max(b.high for b in mine)
    for bar in mine:
        x = groups.index(bar.group) - 0.4 + width * (slots.index((bar.series,
                                                                  bar.precision)) + 0.5)
        drawn = ax.bar(x, bar.value, width, color=colours[bar.series], edgecolor="black",
                       hatch=HATCH.get(bar.precision, "++"), linewidth=0.6, alpha=0.85)
        drawn.patches[0].set_gid(bar.gid)
        offsets = _jitter(len(bar.runs), width * 0.5)
        ax.plot([x + d for d in offsets], list(bar.runs), linestyle="none", marker="o",
                markersize=3.5, color="black", gid=f"runs:{bar.gid[4:]}")
        if bar.verdict:
            marker, colour = MARKER[bar.verdict]
            y = bar.high + top * 0.04
            ax.plot(x, y, marker=marker, color=colour, markersize=7, linestyle="none",
                    gid=f"marker:{bar.verdict}")
            ax.annotate(plain(bar.label), (x, y), textcoords="offset points",
                        xytext=(0, 6), ha="center", fontsize=6.5, color=colour)
    ax.set_xticks(range(len(groups)), [plain(g) for g in groups], fontsize=8)
    ax.set_title(plain(panel), fontsize=10)
    ax.set_ylim(0, top * 1.3)
    ax.set_ylabel("samples/s, whole job (all ranks)\nbar: best run; dots: every run",
                  fontsize=8)
    if legend:
        ax.legend(handles=_legend(data, colours), fontsize=7, loc="upper left",
                  bbox_to_anchor=(1.0, 1.0))


def _jitter(n: int, span: float) -> list[float]:
    """Fixed horizontal offsets so equal runs do not hide each other (same chart each time)."""
    if n <= 1:
        return [0.0] * n
    return [span * (i / (n - 1) - 0.5) for i in range(n)]


def _legend(data: ChartData, colours: dict[str, Any]) -> list[Any]:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=colours[s], edgecolor="black", label=plain(s))
               for s in data.series]
    handles += [Patch(facecolor="white", edgecolor="black", hatch=HATCH.get(p, "++"),
                      label=plain(p)) for p in data.precisions]
    handles.append(Line2D([], [], marker="o", color="black", linestyle="none", markersize=3.5,
                          label="one run"))
    for verdict, (marker, colour) in MARKER.items():
        if any(b.verdict == verdict for b in data.bars):
            handles.append(Line2D([], [], marker=marker, color=colour, linestyle="none",
                                  label=f"vs fp32: {verdict}"))
    return handles


def _draw_scaling(ax: Any, data: ChartData) -> None:
    ax.set_title("scaling efficiency vs the smallest node count (best runs)", fontsize=10)
    colours = _colours(data.series)
    styles = dict(zip(data.precisions, ("-", "--", "-.", ":", "-"), strict=False))
    for line in data.lines:
        label = " ".join(x for x in (line.series, line.precision, line.config) if x)
        ax.plot(line.nodes, [e * 100 for e in line.efficiency], marker="o", label=plain(label),
                color=colours[line.series], linestyle=styles.get(line.precision, "-"),
                gid=f"scaling:{line.series}:{line.precision}")
    ax.axhline(100, color="grey", linewidth=0.8, linestyle=":")
    nodes = sorted({n for line in data.lines for n in line.nodes})
    ax.set_xscale("log", base=2)
    ax.set_xticks(nodes, [str(n) for n in nodes])
    ax.set_xlabel("nodes")
    ax.set_ylabel("efficiency (%)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def _colours(series: list[str]) -> dict[str, Any]:
    from matplotlib import colormaps

    palette = colormaps["tab10"]
    return {s: palette(i % 10) for i, s in enumerate(series)}


HTML_HEAD = ("site", "device", "app", "precision", "nodes", "ranks/node", "ranks/device",
             "instances/device", "best samples/s", "every run", "scaling", "vs fp32",
             "status")


def _html_page(title: str, svg: str, collection: Collection) -> str:
    """One self-contained page: the chart as inline SVG and the results table, with every
    swept axis (two rows never look the same) and every run."""
    svg = svg[svg.index("<svg"):]
    cells = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(v))}</td>" for v in (
            r.site, r.device, r.app, r.precision, r.nodes, r.ranks_per_node,
            r.ranks_per_device, r.instances_per_device, fmt(r.best),
            ", ".join(fmt(x) for x in r.runs) or "-", fmt(r.scaling_efficiency, pct=True),
            verdict_text(r),
            r.status + (f": {r.note}" if r.note and r.status != "ok" else ""))) + "</tr>\n"
        for r in collection.rows)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(_cell(title))}</title>\n<style>body{{font-family:sans-serif}}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
        "</style></head>\n<body>\n"
        f"<h1>{html.escape(_cell(title))}</h1>\n{svg}\n"
        "<p>samples/s of the whole job (all ranks together); best of the repeats, and every "
        "run. A precision helped or hurt only when its runs and fp32's fall into separate "
        "ranges, and luck would do that at most 1 time in 10; otherwise: within noise.</p>\n"
        "<table>\n<tr>" + "".join(f"<th>{h}</th>" for h in HTML_HEAD) + "</tr>\n" + cells
        + "</table>\n" + "".join(f"<p>warning: {html.escape(_cell(w))}</p>\n"
                                  for w in collection.software)
        + "</body></html>\n"
    )


def _cell(value: object) -> str:
    return "-" if value is None else _CONTROL.sub(" ", str(value))


MAX_TITLE = 200  # characters of --title (a chart's title is a line; 120 KB took a minute)
MAX_TITLE_LINES = 3


def check_title(title: str) -> str:
    """--title within bounds, or one line saying so (before any work is done)."""
    if len(title) > MAX_TITLE or title.count("\n") >= MAX_TITLE_LINES:
        raise JobgenError(f"--title: {len(title)} characters on {title.count(chr(10)) + 1} "
                          f"line(s); a title has at most {MAX_TITLE} characters and "
                          f"{MAX_TITLE_LINES} lines")
    return title


def check_kind(name: str) -> str:
    """The chart's format from --out's suffix, and matplotlib at hand: checked first."""
    kind = name.rpartition(".")[2].lower() if "." in name else ""
    if kind not in FORMATS:
        raise JobgenError(f"--out {name}: the chart is written as .png, .svg or .html")
    _matplotlib()
    return kind


def report(collection: Collection, kind: str, title: str) -> tuple[ChartData, bytes]:
    data = chart_data(collection)
    return data, draw(data, kind, title, collection)
