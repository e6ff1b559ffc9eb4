"""Unearth's own charts: named wonders, delver cards, end-of-age cards, claims.

Drawn from report tables only (never the engine), with the helpers of
:mod:`analyzer.report.charts`; listed by :meth:`analyzer.unearth.plugin.Unearth.charts`.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyzer.report.charts import (
    COLOURS,
    axes_grid,
    cell_labels,
    count_range_text,
    count_text,
    dot_plot,
    error_bars,
    figure,
    uptake_and_wins,
)


def named_wonders(df: pd.DataFrame, stamp: str) -> Figure:
    """Build rate of each named wonder and the win rate of its builders (first cell)."""
    lab = cell_labels(df)[0]
    d = df[df["label"] == lab].sort_values("build_rate", ascending=False)
    top = d.iloc[0] if len(d) else None
    title = "Named wonders"
    if top is not None:
        title = (
            f"{top['name']} is built most ({100 * top['build_rate']:.1f}% of seat-games); "
            "builders' win rates are association, not a wonder's worth"
        )
    fig = figure(
        title,
        f"{lab} · "
        f"n = {count_text(d['builds'].sum() / max(d['build_rate'].sum(), 1e-12))} seat-games · "
        "95% Wilson intervals · what a wonder is worth: a paired intervention "
        "(scenarios/eternal_flame.toml)",
        stamp,
    )
    names = [
        f"{n} ({int(p)} pts)" if pd.notna(p) else n
        for n, p in zip(d["name"], d["printed_points"], strict=True)
    ]
    return uptake_and_wins(
        fig,
        d,
        names,
        ("built by a seat", "build_rate", "share of seat-games that built it"),
        (
            [("builders", "win_builders"), ("others", "win_others")],
            "win rate (share of seat-games won)",
        ),
        (
            "How often each is built",
            "Win rate of seats that built it vs the rest\n(association, not its effect)",
        ),
    )


def delvers(df: pd.DataFrame, stamp: str) -> Figure:
    """Delver cards: how often played, and win rate of seats that played >= 1 vs none."""
    lab = cell_labels(df)[0]
    d = df[df["label"] == lab].sort_values("played_mean", ascending=False)
    n_all = (
        float((d["seats_played"] / d["share_played"]).replace([np.inf], np.nan).dropna().iloc[0])
        if len(d)
        else 0
    )
    top = d.iloc[0] if len(d) else None
    title = "Delver cards: how often each is played"
    if top is not None:
        title = (
            f"{top['name']} is played most ({top['played_mean']:.2f} per seat-game); "
            "players' win rates are association, not a card's worth"
        )
    fig = figure(
        title,
        f"{lab} · n = {count_text(n_all)} seat-games · 95% intervals · what a card is worth: "
        "remove it in a comparison (delvers.<id>.copies = 0)",
        stamp,
    )
    return uptake_and_wins(
        fig,
        d,
        list(d["name"]),
        ("cards played", "played_mean", "cards played per seat-game"),
        (
            [("played ≥1", "win_played"), ("played none", "win_not_played")],
            "win rate (share of seat-games won)",
        ),
        (
            "How often each card is played",
            "Win rate of seats that played it vs none\n(association, not its effect)",
        ),
    )


def end_of_age(df: pd.DataFrame, stamp: str) -> Figure:
    """Effect of the end-of-age card on score, game length and the first player:
    horizontal dot plots, card names on one axis (they never overlap)."""
    lab = cell_labels(df)[0]
    d = df[df["label"] == lab].sort_values("score", ascending=False)
    hi, lo = d.iloc[0], d.iloc[-1]
    fig = figure(
        f"Mean scores run from {lo['score']:.1f} ({lo['name']}) to {hi['score']:.1f} points "
        f"({hi['name']}) by end-of-age card",
        f"{lab} · n = {count_range_text(d['games'])} games per card · 95% intervals",
        stamp,
    )
    axes = axes_grid(fig, 1, 3)[0]
    names = [textwrap.fill(str(s), 18) for s in d["name"]]
    fair = (
        1.0 / float(d["players"].iloc[0]) if "players" in d and d["players"].notna().all() else None
    )
    for i, (ax, col, xlab) in enumerate(
        (
            (axes[0], "score", "mean final score (points per seat)"),
            (axes[1], "game_turns", "mean game length (turns)"),
            (axes[2], "seat0_win", "first player's win rate (share of games)"),
        )
    ):
        dot_plot(ax, names if i == 0 else [""] * len(names),
                 [(None, d[col], d[f"{col}_low"], d[f"{col}_high"])], xlab,
                 ref=fair if col == "seat0_win" else None)  # fmt: skip
        if col == "seat0_win" and fair is not None:
            ax.set_title(f"dashes: fair share {100 * fair:.0f}%", fontsize=9)
    return fig


def claims(dice: pd.DataFrame, faces: pd.DataFrame, tiebreak: pd.DataFrame, stamp: str) -> Figure:
    """Claim odds from play: dice on the ruin, winning die type, tiebreaks (first cell)."""
    lab = cell_labels(dice)[0]
    d = dice[dice["label"] == lab]
    t = tiebreak[tiebreak["label"] == lab]
    f = faces[faces["label"] == lab]
    mean_dice = t.set_index("claim_value")["mean_dice"]
    fig = figure(
        f"Claims in play: {mean_dice.iloc[0]:.1f} dice on a claim-{mean_dice.index[0]} ruin "
        f"when resolved, {mean_dice.iloc[-1]:.1f} on a claim-{mean_dice.index[-1]}",
        f"{lab} · n = {count_text(t['resolved'].sum())} ruins resolved · 95% Wilson intervals",
        stamp,
    )
    ax1, ax2, ax3 = axes_grid(fig, 1, 3)[0]
    grid = d.pivot(index="claim_value", columns="n_dice", values="share").fillna(0.0)
    im = ax1.imshow(grid.to_numpy(), aspect="auto", cmap="Blues", vmin=0)
    ax1.set_xticks(range(grid.shape[1]), [str(c) for c in grid.columns])
    ax1.set_yticks(range(grid.shape[0]), [str(c) for c in grid.index])
    small = 6 if grid.shape[1] > 6 else 7  # a cell's label fits its cell: whole percents
    for (i, j), v in np.ndenumerate(grid.to_numpy()):
        if v >= 0.005:
            ax1.text(
                j,
                i,
                f"{100 * v:.0f}",
                ha="center",
                va="center",
                fontsize=small,
                color="white" if v > 0.5 * grid.to_numpy().max() else "black",
            )
    ax1.set_xlabel("dice on the ruin when resolved")
    ax1.set_ylabel("claim value")
    ax1.set_title("Share of claims by dice used")
    fig.colorbar(im, ax=ax1, shrink=0.6, label="share of the row's claims (labels: %)")
    fg = f.pivot(index="claim_value", columns="winner_faces", values="share").fillna(0.0)
    bottom = np.zeros(len(fg))
    for i, col in enumerate(fg.columns):
        name = "tie (nobody)" if col < 0 else f"d{col}"
        ax2.bar(
            [str(v) for v in fg.index],
            fg[col],
            bottom=bottom,
            color=COLOURS[i % len(COLOURS)],
            label=name,
        )
        bottom += fg[col].to_numpy()
    ax2.set_xlabel("claim value")
    ax2.set_ylabel("share of resolved ruins")
    ax2.set_title("Type of the winning top die")
    ax2.legend(
        fontsize=8,
        title="winner's top die",
        title_fontsize=8,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.14),
        ncol=2,
    )
    x = t["claim_value"].astype(str)
    for i, (col, name) in enumerate(
        (("second_die", "decided on 2nd die or later"), ("unbreakable", "unbreakable tie"))
    ):
        y = t[col].to_numpy(float)
        err = error_bars(y, t[f"{col}_low"], t[f"{col}_high"])
        ax3.errorbar(x, y, yerr=err, fmt="o-", capsize=3, color=COLOURS[i], label=name)
    ax3.set_xlabel("claim value")
    ax3.set_ylabel("share of resolved ruins")
    ax3.set_title("Tiebreaks")
    ax3.set_ylim(bottom=0)
    ax3.grid(alpha=0.3)
    ax3.legend(fontsize=8)
    return fig


def claims_exact(df: pd.DataFrame, stamp: str) -> Figure:
    """Exact single-roll probability that ``dice`` dice reach each claim value."""
    mid = df.iloc[(df["p_claimed"] - 0.5).abs().argsort()[:1]]
    title = "Claim odds, exact (one roll of fresh dice)"
    if len(mid):
        m = mid.iloc[0]
        title = (
            f"Exact odds: {m['dice']} {'die reaches' if int(m['dice']) == 1 else 'dice reach'} "
            f"claim {m['claim_value']} in {100 * m['p_claimed']:.0f}% of single rolls"
        )
    fig = figure(
        title,
        "from analyzer.unearth.odds.dice_to_claim_table: no simulation, no sampling error",
        stamp,
    )
    ax = axes_grid(fig)[0][0]
    for i, (cv, sub) in enumerate(df.groupby("claim_value")):
        sub = sub.sort_values("dice")
        ax.plot(
            sub["dice"].astype(str),
            sub["p_claimed"],
            "o-",
            color=COLOURS[i % len(COLOURS)],
            label=f"claim {cv}",
        )
    ax.set_xlabel("number of dice rolled (one player's largest dice first)")
    ax.set_ylabel("probability of reaching the claim value")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return fig
