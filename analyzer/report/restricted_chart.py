"""Restricted play's chart: the things a seat was barred from, ranked by what barring cost.

One horizontal bar per thing (the barred seat's win rate, barred − free, in
percentage points, paired game by game), the costliest at the top, with its 95%
interval; significant after Holm in vermillion, the rest in blue and hollow
(told apart by shape too). Things are unordered ids: a ranked bar chart, never a
line. Table ``restricted_play`` (:mod:`analyzer.tables.restricted`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyzer.report.chart_style import PLAIN, REFERENCE, SIGNIFICANT, count_text, figure
from analyzer.tables.restricted import DECISIVE_POINTS, field_text, things_noun


def _signed(x: float) -> str:
    return f"{x:+.1f}".replace("-", "−")


def restricted_play(t: pd.DataFrame, info: dict, stamp: str) -> Figure:
    """The ranked bar chart of table ``restricted_play`` (rows ranked by effect)."""
    doc = info.get("restricted") or {}
    t = t.sort_values(["effect", "thing"], kind="stable").reset_index(drop=True)
    worst = t.iloc[0]
    noun = things_noun(doc)
    forced = " (forced)" if worst.get("forced") else ""
    title = (
        f"What barring each {noun} costs a seat: most, {worst['label']}{forced}, "
        f"{_signed(worst['effect'])} win points"
        if worst["effect"] < 0
        else f"What barring each {noun} costs a seat: no {noun} costs a seat"
    )
    n = int(t["pairs"].min()) if len(t) else 0
    sub = (
        f"{field_text(doc)}, each seat barred in turn · n = {count_text(n)} paired games a "
        "thing · bars: 95% intervals · filled: significant after Holm"
    )
    height = max(6.5, min(11.0, 1.6 + 0.28 * len(t)))  # shorter: the title meets the subtitle
    fig = figure(title, sub, stamp, size=(11.0, height))
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(len(t))[::-1]  # the costliest at the top
    for yi, (_, r) in zip(y, t.iterrows(), strict=True):
        sig = bool(r["significant"])
        colour = SIGNIFICANT if sig else PLAIN
        ax.barh(
            yi,
            r["effect"],
            color=colour if sig else "white",
            edgecolor=colour,
            height=0.7,
            linewidth=1.2,
        )
        ax.errorbar(r["effect"], yi, xerr=[[r["effect"] - r["low"]], [r["high"] - r["effect"]]],
                    fmt="none", ecolor="#333333", elinewidth=1, capsize=2)  # fmt: skip
    nouns = doc.get("nouns") or {}
    mixed = t["group"].nunique() > 1  # say what kind of thing each is

    def label(r) -> str:
        noun = nouns.get(r["group"], r["group"])
        kind = f" ({noun})" if mixed and noun.lower() not in str(r["label"]).lower() else ""
        return f"{r['label']}{kind}{' (forced)' if r.get('forced') else ''}"

    labels = [label(r) for _, r in t.iterrows()]
    ax.set_yticks(y, labels, fontsize=8 if len(t) <= 30 else 6)
    ax.axvline(0, color=REFERENCE, lw=1)
    ax.axvline(-DECISIVE_POINTS, color=REFERENCE, lw=0.8, ls=":")
    ax.text(-DECISIVE_POINTS, y.max() + 0.6, f"decisive: −{DECISIVE_POINTS:g}", fontsize=7,
            ha="center", va="bottom", color=REFERENCE)  # fmt: skip
    ax.set_xlabel("barred seat's win rate, barred − free (percentage points)", fontsize=9)
    ax.set_ylim(-0.8, len(t) - 0.2 + 0.6)
    ax.grid(axis="x", alpha=0.3)
    ax.tick_params(axis="x", labelsize=8)
    return fig
