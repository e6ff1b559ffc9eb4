"""Charts: matplotlib figures drawn from report tables (DataFrames only).

Charts never import the engine and never compute statistics: every estimate
and interval comes ready-made from :mod:`analyzer.aggregate`. Each function
returns a :class:`matplotlib.figure.Figure` (object API, no pyplot state) whose
subtitle states the sample size and whose footer, the *stamp*, says how it was
made (scenario, seed, version, rules version, games).
"""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

#: landscape A4-ish page, in inches
PAGE = (11.0, 7.5)
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
MAX_TABLE_ROWS = 24


def figure(title: str, subtitle: str, stamp: str, size=PAGE) -> Figure:
    """An empty figure with a title, a subtitle (sample size, method) and the stamp."""
    fig = Figure(figsize=size, layout="constrained")
    fig.suptitle(title, fontsize=14, fontweight="bold")
    fig.get_layout_engine().set(h_pad=0.15, w_pad=0.15)
    fig.text(0.5, 0.955, subtitle, ha="center", va="top", fontsize=9, color="#333333")
    fig.text(0.01, 0.005, stamp, ha="left", va="bottom", fontsize=7, color="#555555")
    return fig


def axes_grid(fig: Figure, nrows: int = 1, ncols: int = 1):
    # leave room for the subtitle and the stamp outside the constrained layout
    fig.get_layout_engine().set(rect=(0, 0.03, 1, 0.90))
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return axes


def count_text(x) -> str:
    return f"{int(round(float(x))):,}"


def cell_labels(df: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(df["label"]))


def error_bars(y, lo, hi) -> np.ndarray:
    """Error-bar lengths ``(2, n)``; rounding can put an interval end a hair inside y."""
    y = np.asarray(y, float)
    return np.clip(np.vstack([y - np.asarray(lo, float), np.asarray(hi, float) - y]), 0, None)


def grouped_bars(ax, df: pd.DataFrame, cat: str, est: str, ylabel: str, ref=None, fmt="{:.3f}"):
    """Bars of ``est`` by ``cat``, one colour per cell label, with 95% error bars."""
    labels = cell_labels(df)
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
        ax.axhline(ref, color="grey", ls="--", lw=1, label="fair share (1/players)")
    ax.set_xticks(x, [str(c) for c in cats])
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)
    if len(labels) > 1 or ref is not None:
        ax.legend(fontsize=8, loc="best")


def seats(df: pd.DataFrame, stamp: str) -> Figure:
    """Win rate and mean score by seat (table ``seats``)."""
    n = df.groupby("label")["n"].first()
    fig = figure(
        "Balance by seat",
        f"n = {count_text(n.min())} games per configuration · "
        "bars: 95% intervals (Wilson for rates, "
        "normal for means)",
        stamp,
    )
    ax1, ax2 = axes_grid(fig, 1, 2)[0]
    fair = df["fair"].iloc[0] if df["fair"].nunique() == 1 else None
    grouped_bars(ax1, df, "seat", "win_rate", "win rate (share of games won)", ref=fair)
    ax1.set_xlabel("seat (0 = first player)")
    ax1.set_title("Win rate")
    ax1.set_ylim(bottom=0)
    grouped_bars(ax2, df, "seat", "score", "mean final score (points)", fmt="{:.1f}")
    ax2.set_xlabel("seat (0 = first player)")
    ax2.set_title("Mean score")
    return fig


def strategies(df: pd.DataFrame, stamp: str) -> Figure:
    """Win rate and mean score by strategy (table ``strategies``)."""
    fig = figure(
        "Balance by strategy",
        f"n = {count_text(df['n'].min())}–{count_text(df['n'].max())} seat-games per bar · "
        "95% intervals",
        stamp,
    )
    ax1, ax2 = axes_grid(fig, 1, 2)[0]
    grouped_bars(ax1, df, "strategy", "win_rate", "win rate (share of seat-games won)")
    ax1.set_xlabel("strategy")
    ax1.set_title("Win rate")
    ax1.set_ylim(bottom=0)
    grouped_bars(ax2, df, "strategy", "score", "mean final score (points)", fmt="{:.1f}")
    ax2.set_xlabel("strategy")
    ax2.set_title("Mean score")
    return fig


def first_player(df: pd.DataFrame, stamp: str) -> Figure:
    """Seat-0 win rate against the fair share ``1/players`` (table ``first_player``)."""
    fig = figure(
        "First-player advantage",
        f"n = {count_text(df['games'].min())} games per configuration · 95% Wilson intervals · "
        "dashes: fair share 1/players",
        stamp,
    )
    ax = axes_grid(fig)[0][0]
    y = np.arange(len(df))[::-1]
    x = df["seat0_win"].to_numpy(float)
    err = error_bars(x, df["seat0_win_low"], df["seat0_win_high"])
    colour = np.where(df["significant"], "#d62728", "#1f77b4")
    ax.errorbar(x, y, xerr=err, fmt="none", ecolor="black", capsize=4)
    ax.scatter(x, y, c=colour, zorder=3, s=40)
    ax.scatter(df["fair"], y, marker="|", s=400, color="grey", zorder=2)
    for xi, yi, adv in zip(x, y, df["advantage"], strict=True):
        ax.annotate(
            f"{xi:.3f} ({adv:+.3f})",
            (xi, yi),
            textcoords="offset points",
            xytext=(0, 8),
            ha="center",
            fontsize=8,
        )
    ax.set_yticks(y, [textwrap.shorten(str(s), 40) for s in df["label"]])
    ax.set_xlabel("first player's win rate (share of games); red: differs from fair share")
    ax.grid(axis="x", alpha=0.3)
    return fig


def score_distribution(df: pd.DataFrame, stamp: str) -> Figure:
    """Share of seat-games by final score (table ``score_distribution``)."""
    total = df.groupby("label")["count"].sum()
    fig = figure(
        "Final score distribution",
        f"n = {count_text(total.min())} seat-games per configuration",
        stamp,
    )
    ax = axes_grid(fig)[0][0]
    for i, lab in enumerate(cell_labels(df)):
        sub = df[df["label"] == lab]
        ax.step(sub["score"], sub["share"], where="mid", color=COLOURS[i % len(COLOURS)], label=lab)
    ax.set_xlabel("final score (points)")
    ax.set_ylabel("share of seat-games")
    ax.grid(alpha=0.3)
    if len(cell_labels(df)) > 1:
        ax.legend(fontsize=8)
    return fig


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
    fig = figure(
        "Where the points come from",
        f"n = {count_text(df['n'].min())} seat-games per configuration · 95% normal intervals",
        stamp,
    )
    axes = axes_grid(fig, 1, 2 if side is not None and len(side) else 1)[0]
    parts = df[df["part"] != "score"].copy()
    parts["part"] = parts["part"].map(lambda p: labels.get(p, p))
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
        ax.axvline(ref, color="grey", ls="--", lw=1)
    ax.set_yticks(y, names)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="best")


def game_length(df: pd.DataFrame, stamp: str) -> Figure:
    """Distribution of game length in turns (table ``game_length``)."""
    total = df.groupby("label")["games"].sum()
    fig = figure("Game length", f"n = {count_text(total.min())} games per configuration", stamp)
    ax = axes_grid(fig)[0][0]
    for i, lab in enumerate(cell_labels(df)):
        sub = df[df["label"] == lab]
        k = len(cell_labels(df))
        ax.bar(
            sub["game_turns"] - 0.4 + 0.8 * (i + 0.5) / k,
            sub["share"],
            0.8 / k,
            color=COLOURS[i % len(COLOURS)],
            label=lab,
        )
    ax.set_xlabel("turns in the whole game")
    ax.set_ylabel("share of games")
    ax.grid(alpha=0.3)
    if len(cell_labels(df)) > 1:
        ax.legend(fontsize=8)
    return fig


def sweep(df: pd.DataFrame, params: list[str], stamp: str) -> Figure:
    """Each metric against the swept value, with 95% interval bands (table ``sweep``)."""
    metrics = list(dict.fromkeys(df["metric"]))
    ncols = 3
    nrows = int(np.ceil(len(metrics) / ncols))
    fig = figure(
        "Sweep: " + " × ".join(params),
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
        ax.set_title(metric, fontsize=9)
        ax.set_xlabel(params[0], fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        ax.grid(alpha=0.3)
        if hue_col is not None:
            ax.legend(fontsize=6)
    for ax in axes[len(metrics) :]:
        ax.set_visible(False)
    return fig


def comparison(df: pd.DataFrame, label_a: str, label_b: str, stamp: str) -> Figure:
    """Forest plot of paired differences ``b - a`` with 95% intervals; red = significant."""
    fig = figure(
        f"Paired differences: {label_b} minus {label_a}",
        f"n = {count_text(df['pairs'].min())} paired games (same seed and game index) · "
        "95% intervals · "
        "red: interval excludes 0",
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
        names = [f"{m} ({s})" for m, s in zip(g["metric"], g["scope"], strict=True)]
        y = np.arange(len(g))[::-1]
        est = g["diff"].to_numpy(float)
        err = error_bars(est, g["diff_low"], g["diff_high"])
        colours = np.where(g["significant"], "#d62728", "#1f77b4")
        ax.errorbar(est, y, xerr=err, fmt="none", ecolor="black", capsize=3)
        ax.scatter(est, y, c=colours, zorder=3, s=25)
        ax.axvline(0, color="grey", ls="--", lw=1)
        ax.set_yticks(y, names, fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(f"{label_b} − {label_a}")
        ax.grid(axis="x", alpha=0.3)
    return fig


def table_pages(df: pd.DataFrame, title: str, stamp: str, note: str = "") -> list[Figure]:
    """The table as one or more pages (``MAX_TABLE_ROWS`` rows each), values as text."""
    pages = []
    n_pages = max(1, int(np.ceil(len(df) / MAX_TABLE_ROWS)))
    for p in range(n_pages):
        part = df.iloc[p * MAX_TABLE_ROWS : (p + 1) * MAX_TABLE_ROWS]
        suffix = f" ({p + 1}/{n_pages})" if n_pages > 1 else ""
        fig = figure(title + suffix, note, stamp)
        fig.set_layout_engine("none")
        ax = fig.add_axes((0.02, 0.06, 0.96, 0.84))
        ax.axis("off")
        cols = [textwrap.fill(str(c), 14) for c in part.columns]
        table = ax.table(
            cellText=part.astype(str).to_numpy(),
            colLabels=cols,
            loc="upper center",
            cellLoc="center",
        )
        table.auto_set_font_size(False)
        size = 10 if len(cols) <= 6 else (9 if len(cols) <= 9 else 7)
        table.set_fontsize(size)
        table.auto_set_column_width(list(range(len(cols))))
        header_lines = max(c.count("\n") + 1 for c in cols)
        row_h = min(0.045, 0.95 / (len(part) + header_lines))
        for (r, _c), cell in table.get_celld().items():
            cell.set_height(row_h * (header_lines if r == 0 else 1))
            if r == 0:
                cell.set_facecolor("#e8e8e8")
        pages.append(fig)
    return pages


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
