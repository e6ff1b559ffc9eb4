"""What every chart shares: the page, the palette, the stamp, and the drawing helpers.

A chart is a :class:`matplotlib.figure.Figure` (object API, no pyplot state) made
by :func:`figure`: a title, a subtitle stating the sample size and a footer, the
*stamp*, saying how it was made. :func:`png_bytes` draws it once for its PNG and
fixes its layout for its PDF page. Colours are the Okabe-Ito palette; an estimate
whose interval excludes "no effect" is told apart by shape as well as colour.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

#: landscape A4-ish page, in inches
PAGE = (11.0, 7.5)
#: Okabe-Ito palette: distinguishable with the common colour-vision deficiencies
COLOURS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]
#: an estimate whose interval excludes "no effect" (vermillion, filled) vs one that does not
#: (blue, hollow): told apart by shape as well as colour
SIGNIFICANT = "#D55E00"
PLAIN = "#0072B2"
#: the fair-share / no-difference reference line
REFERENCE = "#444444"
#: table rows (header, title and gap counted as rows) that fit one page
PAGE_ROWS = 36
#: fewest rows of a table's part at the foot of a page (fewer: the table starts a new page)
MIN_PART = 5
#: resolution of the PNG charts, dots per inch
PNG_DPI = 110


def figure(title: str, subtitle: str, stamp: str, size=PAGE) -> Figure:
    """An empty figure with a title, a subtitle (sample size, method) and the stamp."""
    fig = Figure(figsize=size, layout="constrained")
    # a title that answers the chart's question can be long: smaller type, never clipped
    fig.suptitle(title, fontsize=min(14.0, max(9.0, 14.0 * 95 / max(len(title), 1))),
                 fontweight="bold")  # fmt: skip
    fig.get_layout_engine().set(h_pad=0.15, w_pad=0.15)
    fig.text(0.5, 0.955, subtitle, ha="center", va="top", fontsize=9, color="#333333")
    fig.text(0.01, 0.005, stamp, ha="left", va="bottom", fontsize=7, color="#555555")
    return fig


def png_bytes(fig: Figure, dpi: float = PNG_DPI) -> bytes:
    """The figure as PNG bytes, drawn once; its layout is made here and then fixed.

    ``savefig`` of a figure with a layout engine draws it twice: a pass that renders
    nothing but runs the layout, then the real one. Here the layout runs once, with
    the renderer of the PNG (Agg at ``dpi``) as that first pass would run it, so the
    PNG is byte for byte the same and the figure is drawn once. The layout engine is
    then removed: a PDF page drawn from the figure afterwards keeps the PNG's layout
    and is drawn once too (a ``"none"`` engine would make it draw twice again)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    engine = fig.get_layout_engine()
    if engine is not None:
        canvas = FigureCanvasAgg(fig)
        screen_dpi = fig.dpi
        fig.dpi = dpi
        try:
            canvas.get_renderer()  # the renderer the layout measures text with
            engine.execute(fig)
        finally:
            fig.dpi = screen_dpi
        fig.set_layout_engine(None)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def axes_grid(fig: Figure, nrows: int = 1, ncols: int = 1):
    # leave room for the subtitle and the stamp outside the constrained layout
    fig.get_layout_engine().set(rect=(0, 0.03, 1, 0.90))
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return axes


def pct_tick(v, _pos=None) -> str:
    """A share as a percentage tick label that says where the tick is: ``22.5%``, not ``22%``."""
    x = 100 * float(v)
    if abs(x - round(x)) < 1e-6:
        return f"{round(x):.0f}%"
    return f"{x:.1f}%" if abs(10 * x - round(10 * x)) < 1e-6 else f"{x:.2f}%"


#: most series (configurations) a chart draws; more cannot be told apart
MAX_SERIES = 6


def shown_labels(df: pd.DataFrame, est: str | None = None, k: int = MAX_SERIES) -> list[str]:
    """The configurations a chart draws: all when at most ``k``, else the first (the
    printed game or the base) and the ``k - 1`` whose ``est`` spreads widest."""
    labels = cell_labels(df)
    if len(labels) <= k:
        return labels
    if est is None or est not in df:
        return labels[:k]
    spread = df.groupby("label", sort=False)[est].agg(lambda x: float(x.max() - x.min()))
    rest = spread.drop(labels[0]).sort_values(ascending=False).index[: k - 1]
    return [lab for lab in labels if lab == labels[0] or lab in set(rest)]


def count_text(x) -> str:
    return f"{int(round(float(x))):,}"


def count_range_text(values) -> str:
    """``"5,000"`` when every count is the same, else ``"4,900–5,100"``."""
    lo, hi = count_text(min(values)), count_text(max(values))
    return lo if lo == hi else f"{lo}–{hi}"


def cell_labels(df: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(df["label"]))


def error_bars(y, lo, hi) -> np.ndarray:
    """Error-bar lengths ``(2, n)``; rounding can put an interval end a hair inside y."""
    y = np.asarray(y, float)
    return np.clip(np.vstack([y - np.asarray(lo, float), np.asarray(hi, float) - y]), 0, None)


def grouped_bars(
    ax, df: pd.DataFrame, cat: str, est: str, ylabel: str, ref=None, fmt="{:.3f}", legend=True
):
    """Bars of ``est`` by ``cat``, one colour per cell label, with 95% error bars;
    ``legend=False`` for a panel beside one that already names the same colours."""
    labels = shown_labels(df, est)
    cats = list(dict.fromkeys(df[cat]))
    width = 0.8 / max(len(labels), 1)
    x = np.arange(len(cats))
    for i, lab in enumerate(labels):
        sub = df[df["label"] == lab].set_index(cat).reindex(cats)
        y = sub[est].to_numpy(float)
        err = error_bars(y, sub[f"{est}_low"], sub[f"{est}_high"])
        pos = x - 0.4 + width * (i + 0.5)
        ax.bar(
            pos,
            y,
            width * 0.9,
            color=COLOURS[i % len(COLOURS)],
            label=lab if len(labels) > 1 else None,
        )
        ax.errorbar(pos, y, yerr=err, fmt="none", ecolor="black", capsize=3, lw=1)
        if len(labels) * len(cats) <= 12:
            for p, v, top in zip(pos, y, sub[f"{est}_high"].to_numpy(float), strict=True):
                ax.annotate(
                    fmt.format(v),
                    (p, top),
                    textcoords="offset points",
                    xytext=(0, 3),
                    ha="center",
                    fontsize=8,
                )
    if ref is not None:
        ax.axhline(ref, color=REFERENCE, ls="--", lw=1.2, label="fair share (1/players)")
    names = [str(c) for c in cats]
    long = sum(len(n) for n in names) > 60 or len(names) > 8
    ax.set_xticks(x, names, rotation=30 if long else 0, ha="right" if long else "center",
                  fontsize=8 if long else None)  # fmt: skip
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)
    all_labels = cell_labels(df)
    if legend and (len(labels) > 1 or ref is not None):
        title = (
            f"{len(labels)} of {len(all_labels)} configurations (widest spread; all in the CSV)"
            if len(labels) < len(all_labels)
            else None
        )
        ax.legend(fontsize=8, loc="best", title=title, title_fontsize=7)


def dot_plot(ax, names, pairs, xlabel, ref=None):
    """Dot plot: ``pairs`` is a list of (label, est, low, high) arrays aligned with ``names``."""
    y = np.arange(len(names))[::-1].astype(float)
    k = len(pairs)
    for i, (lab, est, lo, hi) in enumerate(pairs):
        off = (i - (k - 1) / 2) * 0.25
        est = np.asarray(est, float)
        err = error_bars(est, lo, hi)
        ax.errorbar(est, y + off, xerr=err, fmt="o", ms=4, capsize=2, color=COLOURS[i], label=lab)
    if ref is not None:
        ax.axvline(ref, color=REFERENCE, ls="--", lw=1.2)
        lo, hi = ax.get_xlim()  # the reference inside the axis, never on its edge
        pad = 0.08 * (hi - lo)
        ax.set_xlim(min(lo, ref - pad), max(hi, ref + pad))
    ax.set_yticks(y, names)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    if any(lab for lab, *_ in pairs):
        ax.legend(fontsize=8, loc="best")


def uptake_and_wins(fig: Figure, d: pd.DataFrame, names, uptake, wins, titles) -> Figure:
    """The two panels of something some seats do (take a reward, build a wonder,
    play a card) on ``fig``: on the left how often, each of ``names`` a row
    (``uptake``: ``(label, column, axis label)``), on the right the win rate of
    the seats that did it beside the others' (``wins``: ``([(label, column),
    (label, column)], axis label)``); a ``column`` of ``d`` with its interval in
    ``<column>_low`` and ``<column>_high``. ``titles``: the two panels'."""

    def pair(label, col):
        return label, d[col], d[f"{col}_low"], d[f"{col}_high"]

    ax1, ax2 = axes_grid(fig, 1, 2)[0]
    label, col, xlabel = uptake
    dot_plot(ax1, names, [pair(label, col)], xlabel)
    ax1.set_title(titles[0])
    columns, xlabel = wins
    dot_plot(ax2, [""] * len(names), [pair(lab, c) for lab, c in columns], xlabel)
    ax2.set_title(titles[1])
    return fig
