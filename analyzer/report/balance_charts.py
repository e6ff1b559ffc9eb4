"""The balance charts: seats, strategies, the first player, scores and game length.

Drawn from the generic report tables (:mod:`analyzer.tables.report_tables`): win
rates by seat against a fair share, by strategy, the first player's advantage
(luck-adjusted when the run has luck terms), the score distribution and parts,
and how long games last. Every estimate and interval comes ready-made.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analyzer.report.chart_style import (
    COLOURS,
    PLAIN,
    REFERENCE,
    SIGNIFICANT,
    axes_grid,
    cell_labels,
    count_range_text,
    count_text,
    error_bars,
    figure,
    grouped_bars,
    pct_tick,
    shown_labels,
)
from analyzer.report.words import metric_name, ordinal_player


def seats(df: pd.DataFrame, stamp: str) -> Figure:
    """Win rate and mean score by seat (table ``seats``)."""
    n = df.groupby("label")["n"].first()
    fig = figure(
        seats_title(df),
        f"n = {count_text(n.min())} games per configuration · "
        "bars: 95% intervals (Wilson for rates, "
        "normal for means)",
        stamp,
    )
    ax1, ax2 = axes_grid(fig, 1, 2)[0]
    fair = df["fair"].iloc[0] if df["fair"].nunique() == 1 else None
    df = df.assign(seat=[ordinal_player(int(k)) for k in df["seat"]])
    grouped_bars(ax1, df, "seat", "win_rate", "win rate (share of games won)", ref=fair)
    ax1.set_xlabel("seat, in turn order")
    ax1.set_title("Win rate")
    ax1.set_ylim(bottom=0)
    ax1.yaxis.set_major_formatter(pct_tick)
    grouped_bars(ax2, df, "seat", "score", "mean final score (points)", fmt="{:.1f}", legend=False)
    ax2.set_xlabel("seat, in turn order")
    ax2.set_title("Mean score")
    return fig


def seats_title(df: pd.DataFrame) -> str:
    """The answer the seat chart gives: best and worst seat (of the widest-spread configuration)."""
    spread = df.groupby("label", sort=False)["win_rate"].agg(lambda x: x.max() - x.min())
    lab = spread.idxmax()
    d = df[df["label"] == lab]
    best, worst = d.loc[d["win_rate"].idxmax()], d.loc[d["win_rate"].idxmin()]
    where = f" ({lab})" if df["label"].nunique() > 1 else ""
    first = ordinal_player(int(best["seat"]))
    return (
        f"The {first} wins most ({100 * best['win_rate']:.1f}%), the "
        f"{ordinal_player(int(worst['seat']))} least ({100 * worst['win_rate']:.1f}%){where}"
    )


def strategies(df: pd.DataFrame, stamp: str) -> Figure:
    """Win rate and mean score by strategy (table ``strategies``)."""
    fig = figure(
        strategies_title(df),
        f"n = {count_range_text(df['n'])} seat-games per bar · 95% intervals",
        stamp,
    )
    ax1, ax2 = axes_grid(fig, 1, 2)[0]
    grouped_bars(ax1, df, "strategy", "win_rate", "win rate (share of seat-games won)")
    ax1.set_xlabel("strategy")
    ax1.set_title("Win rate")
    ax1.set_ylim(bottom=0)
    ax1.yaxis.set_major_formatter(pct_tick)
    grouped_bars(
        ax2, df, "strategy", "score", "mean final score (points)", fmt="{:.1f}", legend=False
    )
    ax2.set_xlabel("strategy")
    ax2.set_title("Mean score")
    return fig


def strategies_title(df: pd.DataFrame) -> str:
    """Which strategy wins most, and in how many configurations (fields of players,
    variants) it does: never headlined from one of several."""
    labels = cell_labels(df)
    best = {lab: df[df["label"] == lab].loc[lambda d: d["win_rate"].idxmax()] for lab in labels}
    if len(labels) == 1:
        b = best[labels[0]]
        return f"{b['strategy']} wins most: {100 * b['win_rate']:.1f}% of its seat-games"
    names = [b["strategy"] for b in best.values()]
    top = max(dict.fromkeys(names), key=names.count)
    k = names.count(top)
    if k == len(labels):
        return f"{top} wins most in every one of the {len(labels)} configurations"
    return f"{top} wins most in {k} of {len(labels)} configurations; " + ", ".join(
        f"{b['strategy']} in {lab}" for lab, b in best.items() if b["strategy"] != top
    )


def first_player(df: pd.DataFrame, stamp: str, seats: pd.DataFrame | None = None) -> Figure:
    """Seat-0 win rate against the fair share ``1/players`` (table ``first_player``).

    The fair share is a dashed line through each row, inside the axis (which
    never starts at it); filled vermillion: the 95% interval excludes it."""
    if len(df) == 1:
        r = df.iloc[0]
        adv = 100 * (r["seat0_win"] - r["fair"])
        title = (
            f"The first player wins {100 * r['seat0_win']:.1f}%, {abs(adv):.1f} points "
            f"{'above' if adv >= 0 else 'below'} a fair {100 * r['fair']:.0f}%"
        )
    else:
        above = int((df["significant"] & (df["advantage"] > 0)).sum())
        below = int((df["significant"] & (df["advantage"] < 0)).sum())
        title = (
            f"The first player is ahead of a fair share in {above} of {len(df)} configurations"
            + (f", behind in {below}" if below else "")
        )
    fig = figure(
        title,
        f"n = {count_text(df['games'].min())} games per configuration · dots: first player's "
        "win rate with 95% Wilson interval · dashes: fair share 1/players",
        stamp,
    )
    side = seats is not None and len(seats) and seats["fair"].nunique() == 1
    axes = axes_grid(fig, 1, 2 if side else 1)[0]
    ax = axes[0]
    y = np.arange(len(df))[::-1].astype(float)
    x = df["seat0_win"].to_numpy(float)
    lo, hi = df["seat0_win_low"].to_numpy(float), df["seat0_win_high"].to_numpy(float)
    fair = df["fair"].to_numpy(float)
    err = error_bars(x, lo, hi)
    sig = df["significant"].to_numpy(bool)
    for yi, f in zip(y, fair, strict=True):
        ax.plot([f, f], [yi - 0.38, yi + 0.38], color=REFERENCE, ls="--", lw=1.5, zorder=1)
    ax.errorbar(x, y, xerr=err, fmt="none", ecolor="black", capsize=4, zorder=2)
    ax.scatter(x[sig], y[sig], color=SIGNIFICANT, zorder=3, s=55, label="differs from fair share")
    ax.scatter(x[~sig], y[~sig], facecolors="white", edgecolors=PLAIN, linewidths=1.5, zorder=3,
               s=55, label="consistent with fair share")  # fmt: skip
    for xi, yi, adv in zip(x, y, df["advantage"], strict=True):
        ax.annotate(
            f"{100 * xi:.1f}% ({100 * adv:+.1f} points)",
            (xi, yi),
            textcoords="offset points",
            xytext=(0, 9),
            ha="center",
            fontsize=8,
        )
    # the axis spans the intervals and the fair shares with room on both sides
    left, right = min(lo.min(), fair.min()), max(hi.max(), fair.max())
    pad = max(0.25 * (right - left), 0.01)
    ax.set_xlim(max(0.0, left - pad), min(1.0, right + pad))
    ax.set_ylim(y.min() - 0.7, y.max() + 0.7)
    ax.xaxis.set_major_formatter(pct_tick)
    ax.set_yticks(y, [textwrap.shorten(str(s), 40) for s in df["label"]])
    ax.set_xlabel("first player's win rate (share of games won)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("First player against the fair share", fontsize=10)
    if side:
        _seats_against_fair(axes[1], seats)
    return fig


def _seats_against_fair(ax, seats: pd.DataFrame) -> None:
    """Every seat's win rate with its interval against the one fair share."""
    labels = shown_labels(seats, "win_rate", 4)
    fair = float(seats["fair"].iloc[0])
    n_seats = int(seats["seat"].max()) + 1
    for i, lab in enumerate(labels):
        d = seats[seats["label"] == lab].sort_values("seat")
        off = (i - (len(labels) - 1) / 2) * 0.18
        x = d["seat"].to_numpy(float) + off
        yv = d["win_rate"].to_numpy(float)
        err = error_bars(yv, d["win_rate_low"], d["win_rate_high"])
        ax.errorbar(x, yv, yerr=err, fmt="o", ms=6, capsize=4, color=COLOURS[i % len(COLOURS)],
                    label=lab if len(labels) > 1 else None)  # fmt: skip
    ax.axhline(fair, color=REFERENCE, ls="--", lw=1.5, label=f"fair share {100 * fair:.0f}%")
    lo = min(float(seats["win_rate_low"].min()), fair)
    hi = max(float(seats["win_rate_high"].max()), fair)
    pad = max(0.25 * (hi - lo), 0.01)
    ax.set_ylim(max(0.0, lo - pad), min(1.0, hi + pad))
    ax.yaxis.set_major_formatter(pct_tick)
    ax.set_xticks(range(n_seats), [ordinal_player(k) for k in range(n_seats)])
    ax.set_xlim(-0.6, n_seats - 0.4)
    ax.set_ylabel("win rate (share of games won)")
    ax.set_xlabel("seat, in turn order")
    ax.set_title("Every seat against the fair share (95% intervals)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="best")


def score_distribution(df: pd.DataFrame, stamp: str) -> Figure:
    """Share of seat-games by final score (table ``score_distribution``), one bar per
    point: integer scores in integer bins (fractional scores go to the point below)."""
    total = df.groupby("label")["count"].sum()
    labels = cell_labels(df)
    first = _binned(df[df["label"] == labels[0]])
    mean = float((first.index * first).sum() / first.sum())
    q1, med, q3 = _quantiles(first, (0.25, 0.5, 0.75))
    where = f" ({labels[0]})" if len(labels) > 1 else ""
    even = float(first[first.index % 2 == 0].sum())
    odd = float(first[first.index % 2 == 1].sum())
    parity = ""
    if min(even, odd) > 0 and max(even, odd) / min(even, odd) > 1.2:
        word = "even" if even > odd else "odd"
        parity = (
            f" · {word} scores are {max(even, odd) / min(even, odd):.1f}× as common as the "
            "others: the zigzag is in the data"
        )
    fig = figure(
        f"Final scores{where}: mean {mean:.1f} points, half of them between {q1:.0f} and {q3:.0f}",
        f"n = {count_text(total.min())} seat-games per configuration · one "
        f"{'bar' if len(labels) == 1 else 'step'} per point{parity}",
        stamp,
    )
    ax = axes_grid(fig)[0][0]
    k = min(len(labels), 6)
    for i, lab in enumerate(labels[:k]):
        b = _binned(df[df["label"] == lab])
        share = b / b.sum()
        if k == 1:
            ax.bar(b.index, share.to_numpy(), 0.85, color=COLOURS[0], label=lab)
        else:  # one outline per configuration, each step one point wide
            ax.step(b.index, share.to_numpy(), where="mid", lw=1.4,
                    color=COLOURS[i % len(COLOURS)], label=lab)  # fmt: skip
    ax.axvline(med, color=REFERENCE, ls=":", lw=1.2, label=f"median {med:.0f}")
    ax.set_xlabel("final score (points)")
    ax.set_ylabel("share of seat-games")
    ax.yaxis.set_major_formatter(pct_tick)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    if len(labels) > k:
        ax.set_title(f"first {k} of {len(labels)} configurations (all in the CSV)", fontsize=8)
    return fig


def _binned(d: pd.DataFrame) -> pd.Series:
    """Counts by integer score (``floor``), every integer in the range present."""
    s = d.groupby(np.floor(d["score"].astype(float)).astype(int))["count"].sum()
    return s.reindex(range(int(s.index.min()), int(s.index.max()) + 1), fill_value=0.0)


def _quantiles(counts: pd.Series, qs) -> list[float]:
    cum = counts.cumsum() / counts.sum()
    return [float(counts.index[np.searchsorted(cum.to_numpy(), q)]) for q in qs]


def score_parts(
    df: pd.DataFrame,
    stamp: str,
    side: pd.DataFrame | None = None,
    *,
    labels: dict[str, str] | None = None,
    side_titles: tuple[str, str, str] = ("", "", ""),
) -> Figure:
    """Mean points per seat-game by score part; optionally a second panel of
    means by ``side["kind"]`` (titled ``(title, xlabel, ylabel)`` from ``side_titles``)."""
    labels = labels or {}
    lab0 = cell_labels(df)[0]
    d0 = df[(df["label"] == lab0) & (df["part"] != "score")]
    top = d0.loc[d0["mean"].idxmax()] if len(d0) else None
    total = df[(df["label"] == lab0) & (df["part"] == "score")]["mean"]
    title = "Where the points come from"
    if top is not None and len(total):
        part = metric_name(top["part"], labels).replace("points from ", "")
        title = (
            f"Most points come from {part}: "
            f"{top['mean']:.1f} of {float(total.iloc[0]):.1f} per seat-game"
        )
    fig = figure(
        title,
        f"n = {count_text(df['n'].min())} seat-games per configuration · 95% normal intervals",
        stamp,
    )
    axes = axes_grid(fig, 1, 2 if side is not None and len(side) else 1)[0]
    parts = df[df["part"] != "score"].copy()
    parts["part"] = parts["part"].map(lambda p: metric_name(p, labels).replace("points from ", ""))
    grouped_bars(axes[0], parts, "part", "mean", "mean points per seat-game", fmt="{:.1f}")
    axes[0].set_xlabel("score part")
    axes[0].set_title("Score parts")
    axes[0].tick_params(axis="x", labelrotation=20)
    if len(axes) > 1:
        title, xlabel, ylabel = side_titles
        grouped_bars(axes[1], side, "kind", "mean", ylabel, fmt="{:.2f}")
        axes[1].set_xlabel(xlabel)
        axes[1].set_title(title)
    return fig


def game_length(df: pd.DataFrame, stamp: str) -> Figure:
    """Distribution of game length in turns (table ``game_length``)."""
    total = df.groupby("label")["games"].sum()
    first = df[df["label"] == cell_labels(df)[0]].set_index("game_turns")["games"]
    mean = float((first.index * first).sum() / first.sum())
    q1, q3 = _quantiles(first, (0.25, 0.75))
    where = f" ({cell_labels(df)[0]})" if df["label"].nunique() > 1 else ""
    fig = figure(
        f"Games last {mean:.1f} turns on average{where}, half between {q1:.0f} and {q3:.0f}",
        f"n = {count_text(total.min())} games per configuration · one "
        f"{'bar' if df['label'].nunique() == 1 else 'step'} per turn count",
        stamp,
    )
    ax = axes_grid(fig)[0][0]
    labels = cell_labels(df)
    for i, lab in enumerate(labels[:6]):
        sub = df[df["label"] == lab].set_index("game_turns")["share"]
        sub = sub.reindex(range(int(sub.index.min()), int(sub.index.max()) + 1), fill_value=0.0)
        if len(labels) == 1:
            ax.bar(sub.index, sub.to_numpy(), 0.85, color=COLOURS[0], label=lab)
        else:  # one outline per configuration, each step one turn wide
            ax.step(sub.index, sub.to_numpy(), where="mid", lw=1.4,
                    color=COLOURS[i % len(COLOURS)], label=lab)  # fmt: skip
    ax.set_xlabel("turns in the whole game")
    ax.set_ylabel("share of games")
    ax.yaxis.set_major_formatter(pct_tick)
    ax.grid(axis="y", alpha=0.3)
    if len(cell_labels(df)) > 1:
        ax.legend(fontsize=8)
    return fig
