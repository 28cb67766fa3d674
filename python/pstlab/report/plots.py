"""Line plots as PNG bytes (matplotlib, no display needed)."""

import io
import math
from dataclasses import dataclass, field

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullFormatter

from pstlab.core.units import fmt_bytes
from pstlab.report.doc import Figure

MARKED = "oversubscribed or noisy run"  # legend entry of the red crosses over such points
# Beyond this many series a plot highlights the best few and greys the rest out.
MAX_HIGHLIGHTED = 8
PANEL_IN = (6.2, 4.4)  # width, height of one panel in inches


@dataclass
class Series:
    label: str
    x: list[float]
    y: list[float]
    yerr: list[tuple[float, float]] | None = None  # (lower, upper) absolute bounds
    style: str = "-"  # "-" solid, "--" dashed (compare overlays B dashed)
    group: str = ""  # series with the same group share a colour (compare: same curve for A and B)
    marked: list[bool] | None = None  # per point: from an oversubscribed or noisy run (drawn with MARKED)


@dataclass
class Panel:
    title: str
    xlabel: str
    ylabel: str
    series: list[Series] = field(default_factory=list)
    xlog: bool = False
    ylog: bool = False
    xbytes: bool = False  # label x ticks as sizes (8, 1K, 1M)
    xticks: list[tuple[float, str]] | None = None
    xinteger: bool = False  # counts (ranks, messages): integer ticks only
    rank_by_max_y: bool = True  # with many series, highlight the largest (False: smallest) final y


def time_vs_size_panel(title: str) -> Panel:
    """t_min in µs against message size, both axes logarithmic, the fastest series highlighted."""
    return Panel(title, "message size (bytes)", "t_min (µs)", xlog=True, ylog=True, xbytes=True, rank_by_max_y=False)


def _highlight(panel: Panel) -> set[int]:
    if len(panel.series) <= MAX_HIGHLIGHTED:
        return set(range(len(panel.series)))
    values = [[y for y in s.y if y is not None] for s in panel.series]
    empty = -math.inf if panel.rank_by_max_y else math.inf
    key = [(max(v) if panel.rank_by_max_y else min(v)) if v else empty for v in values]
    order = sorted(range(len(key)), key=lambda i: key[i], reverse=panel.rank_by_max_y)
    return set(order[: MAX_HIGHLIGHTED - 2])


def _plain_log_labels(axis, limits: tuple[float, float]) -> None:
    """Log-axis labels as plain numbers (0.5, 10, 200), minor ones too when the axis spans under a decade."""
    plain = FuncFormatter(lambda v, _pos: f"{v:g}")
    axis.set_major_formatter(plain)
    lo, hi = sorted(limits)
    axis.set_minor_formatter(plain if lo > 0 and hi / lo < 12 else NullFormatter())


def _draw(ax, panel: Panel) -> None:
    shown = _highlight(panel)
    colours: dict[str, str] = {}
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, s in enumerate(panel.series):
        if not any(y is not None for y in s.y):
            continue
        group = s.group or s.label
        if i in shown:
            colour = colours.setdefault(group, cycle[len(colours) % len(cycle)])
            kwargs = {"color": colour, "label": s.label, "linewidth": 1.6, "marker": "o", "markersize": 3}
        else:
            kwargs = {"color": "0.75", "linewidth": 0.8}
        if s.yerr:
            lower = [y - lo for y, (lo, _) in zip(s.y, s.yerr, strict=True)]
            upper = [hi - y for y, (_, hi) in zip(s.y, s.yerr, strict=True)]
            ax.errorbar(s.x, s.y, yerr=[lower, upper], linestyle=s.style, capsize=3, **kwargs)
        else:
            ax.plot(s.x, s.y, linestyle=s.style, **kwargs)
        flagged = [(x, y) for x, y, m in zip(s.x, s.y, s.marked or [], strict=False) if m and y is not None]
        if flagged:
            labels = ax.get_legend_handles_labels()[1]
            ax.scatter(
                *zip(*flagged, strict=True),
                marker="x",
                s=40,
                color="red",
                zorder=5,
                label=None if MARKED in labels else MARKED,
            )
    if panel.xlog:
        ax.set_xscale("log", base=2 if panel.xbytes else 10)
        if not panel.xbytes:
            _plain_log_labels(ax.xaxis, ax.get_xlim())
    if panel.ylog:
        ax.set_yscale("log")
        _plain_log_labels(ax.yaxis, ax.get_ylim())
    if panel.xbytes:
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: fmt_bytes(v) if v >= 1 else f"{v:g}"))
    if panel.xinteger:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if panel.xticks:
        ax.set_xticks([t for t, _ in panel.xticks], [label for _, label in panel.xticks])
    ax.set_title(panel.title, fontsize=10)
    ax.set_xlabel(panel.xlabel)
    ax.set_ylabel(panel.ylabel)
    ax.grid(True, which="major", alpha=0.3)
    if any(s.x for s in panel.series):
        extra = len(panel.series) - len(shown)
        legend = ax.legend(fontsize=7, loc="best")
        if extra:
            legend.set_title(f"+{extra} more in grey", prop={"size": 7})


def figure(name: str, caption: str, panels: list[Panel], columns: int = 2) -> Figure:
    """Render panels side by side (at most `columns` per row) into one PNG."""
    ncols = min(columns, len(panels))
    nrows = (len(panels) + ncols - 1) // ncols
    width, height = PANEL_IN[0] * ncols, PANEL_IN[1] * nrows
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, height), squeeze=False)
    # Fixed margins in inches: tight_layout would draw every figure twice and doubles the report's time.
    fig.subplots_adjust(
        left=0.9 / width,
        right=1 - 0.25 / width,
        bottom=0.6 / height,
        top=1 - 0.4 / height,
        wspace=1.2 / PANEL_IN[0],
        hspace=1.0 / PANEL_IN[1],
    )
    for ax, panel in zip(axes.flat, panels, strict=False):
        _draw(ax, panel)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return Figure(name, caption, buf.getvalue())


def stacked_bars(
    name: str, caption: str, title: str, ylabel: str, bars: list[str], stacks: dict[str, list[float]]
) -> Figure:
    """One bar per entry of `bars`, each split into the named stacks (e.g. compute and communication)."""
    fig, ax = plt.subplots(figsize=(max(PANEL_IN[0], 0.9 * len(bars) + 2), PANEL_IN[1]))
    fig.subplots_adjust(left=0.12, right=0.97, bottom=0.3, top=0.9)
    bottom = [0.0] * len(bars)
    for label, values in stacks.items():
        ax.bar(range(len(bars)), values, bottom=bottom, label=label)
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    ax.set_xticks(range(len(bars)), bars, rotation=30, ha="right", fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(ylabel)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return Figure(name, caption, buf.getvalue())
