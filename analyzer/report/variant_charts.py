"""What a change does: charts of a sweep, a comparison and an intervention.

A sweep's headline metrics over its parameter's values, a comparison's paired
differences (variant ``b`` minus ``a``) and an intervention's effect on the seats
it applies to, each with its 95% interval and marked where it excludes "no
effect".
"""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from analyzer.report.chart_style import (
    COLOURS,
    PLAIN,
    REFERENCE,
    SIGNIFICANT,
    axes_grid,
    count_text,
    error_bars,
    figure,
)
from analyzer.report.words import metric_name, scope_name


def sweep(df: pd.DataFrame, params: list[str], stamp: str) -> Figure:
    """Each metric against the swept value, with 95% interval bands (table ``sweep``)."""
    metrics = list(dict.fromkeys(df["metric"]))
    ncols = 3
    nrows = int(np.ceil(len(metrics) / ncols))
    fig = figure(
        sweep_title(df, params),
        f"n = {count_text(df['n'].min())}+ per point · bands: 95% intervals · "
        "all points share random streams",
        stamp,
        size=(11.0, max(7.5, 2.6 * nrows + 1.2)),
    )
    axes = axes_grid(fig, nrows, ncols).ravel()
    x_col = f"param:{params[0]}"
    hue_col = f"param:{params[1]}" if len(params) > 1 else None
    xs = list(dict.fromkeys(df[x_col]))
    for ax, metric in zip(axes, metrics, strict=False):
        sub = df[df["metric"] == metric]
        groups = [(None, sub)] if hue_col is None else list(sub.groupby(hue_col, sort=False))
        for i, (h, g) in enumerate(groups):
            g = g.set_index(x_col).reindex(xs)
            pos = np.arange(len(xs))
            c = COLOURS[i % len(COLOURS)]
            ax.plot(
                pos,
                g["estimate"],
                "o-",
                color=c,
                ms=3,
                label=None if h is None else f"{params[1]}={h}",
            )
            ax.fill_between(
                pos, g["low"].astype(float), g["high"].astype(float), color=c, alpha=0.2
            )
        ax.set_xticks(np.arange(len(xs)), [textwrap.shorten(str(x), 12) for x in xs], fontsize=7)
        ax.set_title(metric_name(metric), fontsize=9)
        ax.set_xlabel(params[0], fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        ax.grid(alpha=0.3)
        if hue_col is not None:
            ax.legend(fontsize=6)
    for ax in axes[len(metrics) :]:
        ax.set_visible(False)
    return fig


def sweep_title(df: pd.DataFrame, params: list[str]) -> str:
    """What the sweep shows: the mean score at the first and the last swept value."""
    cells = sorted(df["cell"].unique())
    m = df[df["metric"] == "mean score"].set_index("cell")["estimate"]
    name = " × ".join(params)
    if len(cells) < 2 or cells[0] not in m or cells[-1] not in m:
        return f"Results by {name}"
    x0 = df.loc[df["cell"] == cells[0], f"param:{params[0]}"].iloc[0]
    x1 = df.loc[df["cell"] == cells[-1], f"param:{params[0]}"].iloc[0]
    return (
        f"Mean score {m[cells[0]]:.1f} → {m[cells[-1]]:.1f} points as {name} "
        f"goes {textwrap.shorten(str(x0), 20)} → {textwrap.shorten(str(x1), 20)}"
    )


def comparison(
    df: pd.DataFrame, label_a: str, label_b: str, stamp: str, labels: dict | None = None
) -> Figure:
    """Forest plot of paired differences ``b - a`` with 95% intervals; filled
    vermillion: the interval excludes 0."""
    sig = int(df["significant"].sum())
    fig = figure(
        f"{label_b} instead of {label_a}: {sig} of {len(df)} paired differences exclude 0",
        f"n = {count_text(df['pairs'].min())} paired games (same seed and game index) · "
        "95% intervals · "
        "filled vermillion: interval excludes 0",
        stamp,
    )
    groups = [
        ("Win rate (share of games)", df[df["metric"].isin(["win", "shared_win"])]),
        (
            "Points",
            df[
                df["metric"].isin(["score", "mean_score"])
                | df["metric"].str.startswith("pts_") & (df["scope"] == "all seats")
            ],
        ),
        ("Game", df[df["metric"].isin(["game_turns", "wonders_per_seat"])]),
    ]
    groups = [(t, g) for t, g in groups if len(g)]
    axes = axes_grid(fig, 1, len(groups))[0]
    for ax, (title, g) in zip(axes, groups, strict=True):
        names = [
            f"{metric_name(m, labels)} ({scope_name(s)})"
            for m, s in zip(g["metric"], g["scope"], strict=True)
        ]
        y = np.arange(len(g))[::-1]
        est = g["diff"].to_numpy(float)
        err = error_bars(est, g["diff_low"], g["diff_high"])
        s_ = g["significant"].to_numpy(bool)
        ax.errorbar(est, y, xerr=err, fmt="none", ecolor="black", capsize=3)
        ax.scatter(est[s_], y[s_], color=SIGNIFICANT, zorder=3, s=30)
        ax.scatter(est[~s_], y[~s_], facecolors="white", edgecolors=PLAIN, zorder=3, s=30)
        ax.axvline(0, color=REFERENCE, ls="--", lw=1.2)
        ax.set_yticks(y, names, fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        ax.set_xlabel(_DIFF_UNITS.get(title, "difference"), fontsize=8)
        ax.grid(axis="x", alpha=0.3)
    # one line under every panel: a per-panel label this long overlapped its neighbours
    fig.supxlabel(f"{label_b} − {label_a}, per game", fontsize=9)
    return fig


#: the paired changes a many-variant overview shows: (scope, metric, panel title, scale, x label)
OVERVIEW = (
    ("seat=0", "win", "First player's win rate", 100.0, "change in win points"),
    ("all seats", "score", "Final score", 1.0, "change in points per seat"),
    ("game", "game_turns", "Game length", 1.0, "change in turns"),
)


def variants_overview(comp: pd.DataFrame, base: str, stamp: str) -> Figure:
    """Small multiples of a comparison of many variants: one row per variant, one
    panel per headline change (first player's win rate, final score, game length),
    each the paired change against ``base`` with its 95% interval; filled
    vermillion: the interval excludes 0."""
    panels = [p for p in OVERVIEW if ((comp["scope"] == p[0]) & (comp["metric"] == p[1])).any()]
    rows = comp[[any((r.scope, r.metric) == p[:2] for p in panels) for r in comp.itertuples()]]
    labels = list(dict.fromkeys(rows["label"]))
    sig = int(rows["significant"].sum())
    fig = figure(
        f"What each of the {len(labels)} variants changes against {base}: {sig} of "
        f"{len(rows)} paired changes clear",
        f"n = {count_text(rows['pairs'].min())}+ paired games (the same games played both "
        "ways) · 95% intervals · filled vermillion: excludes 0",
        stamp,
        size=(11.0, max(7.5, 0.35 * len(labels) + 2.5)),
    )
    axes = axes_grid(fig, 1, max(len(panels), 1))[0]
    y = np.arange(len(labels))[::-1].astype(float)
    for ax, (scope, metric, title, scale, xlabel) in zip(axes, panels, strict=False):
        g = rows[(rows["scope"] == scope) & (rows["metric"] == metric)].set_index("label")
        g = g.reindex(labels)
        est = scale * g["diff"].to_numpy(float)
        err = error_bars(est, scale * g["diff_low"].to_numpy(float),
                         scale * g["diff_high"].to_numpy(float))  # fmt: skip
        s_ = g["significant"].fillna(False).to_numpy(bool)
        ax.errorbar(est, y, xerr=err, fmt="none", ecolor="black", capsize=3)
        ax.scatter(est[s_], y[s_], color=SIGNIFICANT, zorder=3, s=30)
        ax.scatter(est[~s_], y[~s_], facecolors="white", edgecolors=PLAIN, zorder=3, s=30)
        ax.axvline(0, color=REFERENCE, ls="--", lw=1.2)
        shown = [textwrap.shorten(str(x), 34) for x in labels]
        ax.set_yticks(y, shown if ax is axes[0] else [""] * len(labels), fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        ax.set_xlabel(xlabel, fontsize=8)
        ax.grid(axis="x", alpha=0.3)
    return fig


#: the unit of a comparison panel's x axis, by panel title
_DIFF_UNITS = {
    "Win rate (share of games)": "difference (win rate as a share)",
    "Points": "difference (points)",
    "Game": "difference (turns; wonders per seat)",
}


def intervention(df: pd.DataFrame, thing: str, verb: str, stamp: str, past: str = "") -> Figure:
    """What an intervention's forbidden thing is worth to the seats it applies to, by
    field of players: the paired difference allowed minus forbidden (the same games)
    of their win share and score, and per use. ``df``: one row per field and
    ``metric`` (``win``, ``score``, ``win per use``, ``score per use``) with
    ``field, est, low, high, significant, pairs, uptake`` (signs already allowed
    minus forbidden)."""
    past = past or f"{verb}d"
    fields = list(dict.fromkeys(df["field"]))
    win = df[df["metric"] == "win"]
    sig = win[win["significant"]]
    if len(sig):
        top = sig.loc[(sig["est"].abs()).idxmax()]
        title = (
            f"{thing} is worth {100 * top['est']:+.2f} win points "
            f"[{100 * top['low']:+.2f}, {100 * top['high']:+.2f}] to a seat ({top['field']})"
        )
    else:
        bound = 100 * float(np.nanmax(np.abs(win[["low", "high"]].to_numpy()))) if len(win) else 0
        title = (
            f"{thing}: no measurable worth in wins to a seat that may {verb} it "
            f"(every 95% interval within ±{bound:.2f} win points)"
        )
    n = df["pairs"].min() if len(df) else 0
    fig = figure(
        title,
        f"allowed − forbidden, paired on the same games · n = {count_text(n)} paired seat-games "
        "per field · 95% intervals (per use: delta method) · filled vermillion: excludes 0",
        stamp,
    )
    panels = [
        ("win", 100.0, "Win share", "win points (percentage points of games won)"),
        ("score", 1.0, "Final score", "points of final score"),
        ("win per use", 100.0, f"Win share each time {past}", "win points each time"),
        ("score per use", 1.0, f"Score each time {past}", "points of final score each time"),
    ]
    panels = [p for p in panels if (df["metric"] == p[0]).any()]
    axes = axes_grid(fig, 1, len(panels))[0]
    for ax, (metric, scale, head, xlabel) in zip(axes, panels, strict=True):
        g = df[df["metric"] == metric].set_index("field").reindex(fields)
        y = np.arange(len(fields))[::-1].astype(float)
        est = scale * g["est"].to_numpy(float)
        err = error_bars(est, scale * g["low"].to_numpy(float), scale * g["high"].to_numpy(float))
        s_ = g["significant"].fillna(False).to_numpy(bool)
        ok = np.isfinite(est)
        ax.errorbar(est[ok], y[ok], xerr=err[:, ok], fmt="none", ecolor="black", capsize=3)
        ax.scatter(est[s_ & ok], y[s_ & ok], color=SIGNIFICANT, zorder=3, s=36)
        ax.scatter(est[~s_ & ok], y[~s_ & ok], facecolors="white", edgecolors=PLAIN, zorder=3, s=36)
        for yi, e, u in zip(y, est, g["uptake"].to_numpy(float), strict=True):
            if metric.endswith("per use") and np.isfinite(u):
                ax.annotate(f"{past} in {100 * u:.1f}%", (0, yi), xytext=(4, 6),
                            textcoords="offset points", xycoords=("axes fraction", "data"),
                            fontsize=7, color="#555555")  # fmt: skip
            if not np.isfinite(e):
                ax.annotate(f"never {past}", (0.5, yi), xycoords=("axes fraction", "data"),
                            ha="center", fontsize=8, color="#555555")  # fmt: skip
        ax.axvline(0, color=REFERENCE, ls="--", lw=1.2)
        ax.set_yticks(y, fields if ax is axes[0] else [""] * len(fields))
        ax.set_ylim(-0.7, len(fields) - 0.3)
        ax.set_title(head, fontsize=10)
        ax.set_xlabel(xlabel, fontsize=8)
        ax.grid(axis="x", alpha=0.3)
    return fig
