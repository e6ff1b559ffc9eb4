"""Uruk's own chart: inventions displayed at the end and the win rate of their owners.

Drawn from the ``inventions_at_end`` report table only (never the engine), with
the helpers of :mod:`analyzer.report.charts`; listed by :meth:`analyzer.uruk.plugin.Uruk.charts`.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from analyzer.report.charts import axes_grid, count_text, dot_plot, figure


def inventions_at_end(df: pd.DataFrame, stamp: str) -> Figure:
    """Share of seat-games displaying each invention at the end, and their win
    rate (first cell; descriptive, not the invention's effect)."""
    d = df[df["cell"] == df["cell"].min()].sort_values("share", ascending=False)
    seats = d["n"].sum() / max(d["share"].sum(), 1e-12)
    fig = figure(
        "Inventions displayed at the end",
        f"n = {count_text(seats)} seat-games · 95% intervals · association, not cause",
        stamp,
    )
    ax1, ax2 = axes_grid(fig, 1, 2)[0]
    names = list(d["name"])
    share = d["share"].to_numpy()
    dot_plot(ax1, names, [("displayed", share, share, share)], "share of seat-games")
    ax1.set_title("How often each is displayed at the end")
    dot_plot(
        ax2,
        [""] * len(names),
        [("owners", d["win_rate"], d["win_rate_low"], d["win_rate_high"])],
        "win rate of the seats displaying it",
    )
    ax2.set_title("Win rate of its owners")
    return fig
