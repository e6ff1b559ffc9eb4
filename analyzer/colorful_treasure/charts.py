"""Colorful Treasure's own charts: which reward decides games, and the steals.

Drawn from report tables only (never the engine), with the helpers of
:mod:`analyzer.report.charts`; listed by :meth:`.plugin.ColorfulTreasure.charts`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyzer.report.charts import axes_grid, cell_labels, figure, uptake_and_wins


def rewards(df: pd.DataFrame, stamp: str) -> Figure:
    """Per reward: share of seat-games holding it; win rate of holders vs the others."""
    lab = cell_labels(df)[0]
    d = df[df["label"] == lab]
    fig = figure(
        "Rewards and winning",
        f"{lab} · 95% Wilson intervals · association, not cause",
        stamp,
    )
    return uptake_and_wins(
        fig,
        d,
        [r.replace("_", " ") for r in d["reward"]],
        ("held", "held", "share of seat-games holding the reward"),
        ([("holders", "win_holders"), ("others", "win_others")], "win rate"),
        ("How often a seat takes it", "Win rate of holders vs the rest"),
    )


def steals(df: pd.DataFrame, stamp: str) -> Figure:
    """Steals per game by thief seat (rows) and victim seat (columns), first cell."""
    lab = cell_labels(df)[0]
    d = df[df["label"] == lab]
    n = int(max(d["thief"].max(), d["victim"].max())) + 1
    m = np.zeros((n, n))
    for _, r in d.iterrows():
        m[int(r["thief"]), int(r["victim"])] = r["per_game"]
    fig = figure("Steals: who takes from whom", f"{lab} · mean steals per game", stamp)
    (ax,) = axes_grid(fig, 1, 1)[0]
    im = ax.imshow(m, cmap="Blues")
    for i in range(n):
        for j in range(n):
            if i != j:
                ax.text(j, i, f"{m[i, j]:.3f}", ha="center", va="center", fontsize=9)
    ax.set_xticks(range(n), [f"seat {j}" for j in range(n)])
    ax.set_yticks(range(n), [f"seat {i}" for i in range(n)])
    ax.set_xlabel("victim")
    ax.set_ylabel("thief")
    fig.colorbar(im, ax=ax, label="steals per game")
    return fig
