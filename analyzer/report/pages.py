"""Pages of tables and of text for the PDF.

Tables are packed onto landscape pages (:func:`packed_table_pages`: a table too
long for what is left of a page is split, never leaving fewer than
:data:`~analyzer.report.chart_style.MIN_PART` rows at a page's foot); text pages
hold headed blocks of sentences with their significance marks
(:func:`text_blocks_pages`).
"""

from __future__ import annotations

import functools
import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from analyzer.report.chart_style import (
    MIN_PART,
    PAGE,
    PAGE_ROWS,
    PLAIN,
    SIGNIFICANT,
    figure,
)


def table_pages(df: pd.DataFrame, title: str, stamp: str, note: str = "") -> list[Figure]:
    """The table as one or more pages, values as text."""
    return packed_table_pages([(df, title, note)], stamp)


def packed_table_pages(items, stamp: str, page_title: str = "Tables") -> list[Figure]:
    """Tables ``[(df, title, note)]`` flowed onto as few pages as they fit: small
    ones share a page, a long one continues on the next (``PAGE_ROWS`` rows a page,
    each table's title and header counted)."""
    # rows flow onto the page: a table that does not fit continues on the next one
    # (a part of fewer than MIN_PART rows goes to the next page whole)
    pages, page, used = [], [], 0
    for df, title, note in items:
        header = max(textwrap.fill(str(c), 14).count("\n") + 1 for c in df.columns)
        start, parts = 0, []
        while True:
            room = PAGE_ROWS - used - header - 3
            rest = len(df) - start
            if page and room < min(MIN_PART, rest):
                pages.append(page)
                page, used = [], 0
                continue
            take = max(min(rest, room), 1 if rest else 0)
            part = df.iloc[start : start + take]
            parts.append((part, title, note, len(part) + header + 3))
            page.append(parts[-1])
            used += parts[-1][3]
            start += take
            if start >= len(df):
                break
        if len(parts) > 1:  # number the parts
            for i, (part, t, n, cost) in enumerate(parts):
                for pg in pages + [page]:
                    for k, c in enumerate(pg):
                        if c[0] is part:
                            pg[k] = (part, f"{t} ({i + 1}/{len(parts)})", n, cost)
    if page:
        pages.append(page)
    figs = []
    for page in pages:
        title = page[0][1] if len(page) == 1 else page_title
        note = page[0][2] if len(page) == 1 else ", ".join(c[1] for c in page)
        fig = figure(title, textwrap.shorten(note, 160), stamp)
        fig.set_layout_engine(None)  # placed by hand; None: savefig draws once
        top, bottom = 0.90, 0.05
        unit = (top - bottom) / max(PAGE_ROWS, sum(c[3] for c in page))
        y = top
        for part, t, n, cost in page:
            h = cost * unit
            if len(page) > 1:
                fig.text(0.02, y - 0.005, t, fontsize=10, fontweight="bold", va="top")
                fig.text(0.02, y - 0.027, n, fontsize=8, color="#333333", va="top")
            gap = unit if len(page) > 1 else 0  # white space under each table
            ax = fig.add_axes(
                (0.02, y - h + gap, 0.96, h - (2 * unit if len(page) > 1 else 0) - gap)
            )
            _draw_table(ax, part, unit * (top - bottom) / (top - bottom))
            y -= h
        figs.append(fig)
    return figs


def _draw_table(ax, part: pd.DataFrame, row_frac: float) -> None:
    """A table as one text block per column (a cell-by-cell matplotlib table drew
    a report's pages several times slower): header in bold on grey, rows striped,
    text columns left-aligned, numbers right-aligned."""
    ax.axis("off")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    fig = ax.figure
    cols = [textwrap.fill(str(c), 14) for c in part.columns]
    text = part.astype(str).to_numpy()
    size = 10 if len(cols) <= 6 else (9 if len(cols) <= 9 else 7.5)
    box = ax.get_position()
    ax_w_pt = box.width * fig.get_figwidth() * 72
    ax_h_pt = box.height * fig.get_figheight() * 72
    chars = [
        max([len(line) for line in c.split("\n")] + [len(v) for v in text[:, j]])
        for j, c in enumerate(cols)
    ]
    widths = np.array([(k + 2) * size * 0.58 for k in chars]) / ax_w_pt
    if widths.sum() > 1:  # too wide: smaller type
        size *= 1 / widths.sum()
        widths /= widths.sum()
    header_lines = max(c.count("\n") + 1 for c in cols)
    pitch_pt = min(size * 1.55, row_frac * fig.get_figheight() * 72)
    line = pitch_pt / ax_h_pt  # one row in axes fraction
    total_w = float(widths.sum())
    x0 = (1 - total_w) / 2
    head_h = line * header_lines
    ax.add_patch(Rectangle((x0, 1 - head_h), total_w, head_h, color="#e8e8e8", lw=0))
    for i in range(1, len(part), 2):
        y = 1 - head_h - (i + 1) * line
        ax.add_patch(Rectangle((x0, y), total_w, line, color="#f4f4f4", lw=0))
    ax.plot([x0, x0 + total_w], [1 - head_h] * 2, color="#999999", lw=0.8)
    ax.plot([x0, x0 + total_w], [1 - head_h - len(part) * line] * 2, color="#999999", lw=0.8)
    spacing = pitch_pt / _line_height(size)
    # a multi-line text set at va="top" has a whole line pitch above its first
    # baseline's descent: move it up so the digits sit in the middle of each row
    shift = (pitch_pt / 2 - 0.595 * size) / ax_h_pt
    x = x0
    for j, c in enumerate(cols):
        w = widths[j]
        numeric = all(_looks_numeric(v) for v in text[:, j])
        ha, tx = (
            ("right", x + w - 0.5 * size * 0.58 / ax_w_pt)
            if numeric
            else ("left", x + 0.5 * size * 0.58 / ax_w_pt)
        )
        ax.text(x + w / 2, 1 - head_h / 2, c, ha="center", va="center", fontsize=size,
                fontweight="bold", linespacing=1.1)  # fmt: skip
        ax.text(tx, 1 - head_h + shift, "\n".join(text[:, j]), ha=ha, va="top",
                fontsize=size, linespacing=spacing, multialignment=ha,
                transform=ax.transAxes)  # fmt: skip
        x += w


@functools.cache
def _line_height(size: float) -> float:
    """Distance in points between the lines of a multi-line text of font ``size``
    at ``linespacing=1``, measured once per size."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = Figure(figsize=(2, 2), dpi=720)  # 10 pixels a point: extents are whole pixels
    canvas = FigureCanvasAgg(fig)
    one = fig.text(0, 0, "0", fontsize=size, linespacing=1.0)
    two = fig.text(0, 0, "0\n0\n0\n0\n0", fontsize=size, linespacing=1.0)
    renderer = canvas.get_renderer()
    h1 = one.get_window_extent(renderer).height
    h5 = two.get_window_extent(renderer).height
    return (h5 - h1) / 4 / 10


def _looks_numeric(v: str) -> bool:
    t = v.replace(",", "").replace("%", "").replace("–", "").strip().lstrip("+-").split(" ")[0]
    return t == "" or t == "*" or t.replace(".", "", 1).isdigit()


def text_page(title: str, lines: list[str], stamp: str) -> Figure:
    """A page of plain text (the title page of a report)."""
    fig = Figure(figsize=PAGE)
    fig.suptitle(title, fontsize=16, fontweight="bold", y=0.96)
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(textwrap.wrap(line, 120, subsequent_indent="    ") or [""])
    fig.text(
        0.05, 0.90, "\n".join(wrapped[:42]), ha="left", va="top", fontsize=9, family="monospace"
    )
    fig.text(0.01, 0.005, stamp, ha="left", va="bottom", fontsize=7, color="#555555")
    return fig


#: text-page styles: (font size, weight, colour, indent in figure fraction, wrap width)
TEXT_STYLES = {
    "answer": (13.0, "bold", "#000000", 0.0, 88),
    "lead": (11.0, "normal", "#000000", 0.0, 125),
    "h": (11.5, "bold", "#000000", 0.0, 108),
    "verdict": (10.0, "bold", "#000000", 0.0, 112),
    "sig": (9.5, "normal", "#000000", 0.025, 150),
    "ns": (9.5, "normal", "#333333", 0.025, 150),
    "p": (9.0, "normal", "#000000", 0.0, 160),
    "small": (8.0, "normal", "#444444", 0.0, 180),
    "gap": (5.0, "normal", "#000000", 0.0, 1),
}


#: marker of a finding line: filled (significant) or hollow (not)
MARKS = {"sig": ("●", SIGNIFICANT), "ns": ("○", PLAIN)}


#: characters of a text page's subtitle per line (a longer one is wrapped)
SUBTITLE_WIDTH = 150


def text_blocks_pages(
    title: str, blocks, stamp: str, subtitle: str = "", smallest: float = 0.85
) -> list[Figure]:
    """Pages of styled text: ``blocks`` is ``[(style, text)]`` with a style of
    :data:`TEXT_STYLES`; lines are wrapped and flow onto further pages. Text that
    overflows one page by a little is set smaller to fit it, down to ``smallest``
    of its size (steps of 5%)."""

    def layout(scale: float):
        lines = []
        for style, text in blocks:
            size, _w, _c, indent, width = TEXT_STYLES[style]
            wrapped = [""] if style == "gap" else (textwrap.wrap(text, int(width / scale)) or [""])
            lines += [(style, line, i == 0) for i, line in enumerate(wrapped)]
        height = sum(TEXT_STYLES[st][0] * scale * 1.4 / 72 / PAGE[1] for st, _, _ in lines)
        return lines, height

    sub_lines = textwrap.wrap(subtitle, SUBTITLE_WIDTH) if subtitle else []
    top, bottom = 0.87 - 0.022 * max(len(sub_lines) - 1, 0), 0.04
    scale = 1.0
    lines, height = layout(scale)
    if height > top - bottom:
        for trial in (t / 100 for t in range(95, int(round(100 * smallest)) - 1, -5)):
            lines, height = layout(trial)
            scale = trial
            if height <= top - bottom:
                break
    figs: list[Figure] = []
    fig, y = None, 0.0
    for style, line, first in lines:
        size, weight, colour, indent, _ = TEXT_STYLES[style]
        size *= scale
        step = size * 1.4 / 72 / PAGE[1]
        if fig is None or y - step < bottom:
            fig = Figure(figsize=PAGE)
            head = title if not figs else f"{title} (continued)"
            fig.text(0.04, 0.955, head, fontsize=15, fontweight="bold", va="top")
            if sub_lines:
                fig.text(0.04, 0.905, "\n".join(sub_lines), fontsize=9, color="#333333", va="top")
            fig.text(0.01, 0.005, stamp, ha="left", va="bottom", fontsize=7, color="#555555")
            figs.append(fig)
            y = top
            if style == "gap":
                continue
        x = 0.04 + indent
        if style in MARKS and first:
            mark, mcolour = MARKS[style]
            fig.text(x - 0.018, y, mark, fontsize=size, color=mcolour, va="top")
        fig.text(x, y, line, fontsize=size, fontweight=weight, color=colour, va="top")
        y -= step
    return figs
