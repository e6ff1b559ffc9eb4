"""Charts: matplotlib figures drawn from report tables (DataFrames only).

Charts never import the engine and never compute statistics: every estimate
and interval comes ready-made from :mod:`analyzer.tables.aggregate`. Each function
returns a :class:`matplotlib.figure.Figure` (object API, no pyplot state) whose
subtitle states the sample size and whose footer, the *stamp*, says how it was
made (scenario, seed, version, rules version, games).
"""

from __future__ import annotations

import functools
import io
import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator

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
        ax.axhline(ref, color=REFERENCE, ls="--", lw=1.2, label="fair share (1/players)")
    ax.set_xticks(x, [str(c) for c in cats])
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)
    if legend and (len(labels) > 1 or ref is not None):
        ax.legend(fontsize=8, loc="best")


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
    grouped_bars(ax1, df, "seat", "win_rate", "win rate (share of games won)", ref=fair)
    ax1.set_xlabel("seat (0 = first player)")
    ax1.set_title("Win rate")
    ax1.set_ylim(bottom=0)
    grouped_bars(ax2, df, "seat", "score", "mean final score (points)", fmt="{:.1f}", legend=False)
    ax2.set_xlabel("seat (0 = first player)")
    ax2.set_title("Mean score")
    return fig


def seats_title(df: pd.DataFrame) -> str:
    """The answer the seat chart gives: best and worst seat (of the widest-spread configuration)."""
    spread = df.groupby("label", sort=False)["win_rate"].agg(lambda x: x.max() - x.min())
    lab = spread.idxmax()
    d = df[df["label"] == lab]
    best, worst = d.loc[d["win_rate"].idxmax()], d.loc[d["win_rate"].idxmin()]
    where = f" ({lab})" if df["label"].nunique() > 1 else ""
    return (
        f"Seat {int(best['seat'])} wins most ({100 * best['win_rate']:.1f}%), seat "
        f"{int(worst['seat'])} least ({100 * worst['win_rate']:.1f}%){where}"
    )


def strategies(df: pd.DataFrame, stamp: str) -> Figure:
    """Win rate and mean score by strategy (table ``strategies``)."""
    lab = cell_labels(df)[0]
    d = df[df["label"] == lab]
    best = d.loc[d["win_rate"].idxmax()]
    where = f" ({lab})" if df["label"].nunique() > 1 else ""
    fig = figure(
        f"{best['strategy']} wins most: {100 * best['win_rate']:.1f}% of its seat-games{where}",
        f"n = {count_range_text(df['n'])} seat-games per bar · 95% intervals",
        stamp,
    )
    ax1, ax2 = axes_grid(fig, 1, 2)[0]
    grouped_bars(ax1, df, "strategy", "win_rate", "win rate (share of seat-games won)")
    ax1.set_xlabel("strategy")
    ax1.set_title("Win rate")
    ax1.set_ylim(bottom=0)
    grouped_bars(
        ax2, df, "strategy", "score", "mean final score (points)", fmt="{:.1f}", legend=False
    )
    ax2.set_xlabel("strategy")
    ax2.set_title("Mean score")
    return fig


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
    ax.xaxis.set_major_formatter(lambda v, _pos: f"{100 * v:.0f}%")
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
    labels = cell_labels(seats)[:4]
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
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{100 * v:.0f}%")
    ax.set_xticks(range(n_seats), [f"seat {k}" + (" (first)" if k == 0 else "")
                                   for k in range(n_seats)])  # fmt: skip
    ax.set_xlim(-0.6, n_seats - 0.4)
    ax.set_ylabel("win rate (share of games won)")
    ax.set_xlabel("seat (0 = first player)")
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
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{100 * v:.0f}%")
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
        title = (
            f"Most points come from {labels.get(top['part'], top['part'])}: "
            f"{top['mean']:.1f} of {float(total.iloc[0]):.1f} per seat-game"
        )
    fig = figure(
        title,
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
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{100 * v:.0f}%")
    ax.grid(axis="y", alpha=0.3)
    if len(cell_labels(df)) > 1:
        ax.legend(fontsize=8)
    return fig


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
        ax.set_title(metric, fontsize=9)
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


def comparison(df: pd.DataFrame, label_a: str, label_b: str, stamp: str) -> Figure:
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
        names = [f"{m} ({s})" for m, s in zip(g["metric"], g["scope"], strict=True)]
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
    "lead": (11.0, "normal", "#000000", 0.0, 125),
    "h": (11.5, "bold", "#000000", 0.0, 108),
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


# --------------------------------------------------------------------------- ladder and tune


def ladder(doc: dict, stamp: str) -> Figure:
    """The ladder page (a scenario's ``[ladder]``): ratings on the Elo scale with
    95% bootstrap intervals, what they say in words, and the head-to-head matrix
    with Wilson intervals. ``doc`` is the content of ``ladder.json``."""
    from analyzer.studies.sections import (
        elo_text,
        ladder_headline,
        ladder_sentences,
        matrix_note,
        matrix_table,
    )

    r = pd.DataFrame(doc["ratings"])
    anchor, n = doc["anchor"], doc["players"]
    fig = figure(
        ladder_headline(doc),
        textwrap.fill(
            f"{n} players · {doc['games_per_lineup']:,} games per line-up × {doc['lineups']} "
            f"line-ups = {doc['games_total']:,} games (seats rotated, the same game seeds for "
            f"every line-up) · Bradley–Terry ratings on the Elo scale, {anchor} = 0 · bars: 95% "
            f"bootstrap intervals ({doc['bootstrap']:,} resamples of games)",
            170,
        ),
        stamp,
    )
    fig.set_layout_engine(None)  # placed by hand: chart, sentences, table
    ax = fig.add_axes((0.13, 0.50, 0.50, 0.33))
    y = np.arange(len(r))[::-1].astype(float)
    x = r["elo"].to_numpy(float)
    lo, hi = r["low"].to_numpy(float), r["high"].to_numpy(float)
    is_anchor = (r["strategy"] == anchor).to_numpy()
    has = np.isfinite(lo) & np.isfinite(hi) & ~is_anchor
    sig = has & ~is_anchor & ((lo > 0) | (hi < 0))
    plain = ~is_anchor & ~sig
    ax.axvline(0, color=REFERENCE, ls="--", lw=1.2, zorder=1)
    err = error_bars(np.where(has, x, 0), np.where(has, lo, 0), np.where(has, hi, 0))
    ax.errorbar(x[has], y[has], xerr=err[:, has], fmt="none", ecolor="black", capsize=4,
                zorder=2)  # fmt: skip
    ax.scatter(x[sig], y[sig], color=SIGNIFICANT, s=55, zorder=3,
               label=f"interval excludes {anchor}'s 0")  # fmt: skip
    ax.scatter(x[plain], y[plain], facecolors="white", edgecolors=PLAIN, linewidths=1.5, s=55,
               zorder=3, label=f"interval includes {anchor}'s 0")  # fmt: skip
    ax.scatter(x[is_anchor], y[is_anchor], marker="D", color="black", s=40, zorder=3,
               label=f"{anchor}: 0 by definition")  # fmt: skip
    for xi, yi, l, h, ok in zip(x, y, lo, hi, has, strict=True):
        text = f"{elo_text(xi)} [{elo_text(l)}, {elo_text(h)}]" if ok else "0"
        ax.annotate(text, (xi, yi), textcoords="offset points", xytext=(0, 7), ha="center",
                    fontsize=8)  # fmt: skip
    left = np.nanmin(np.concatenate([lo[has], x, [0.0]]))
    right = np.nanmax(np.concatenate([hi[has], x, [0.0]]))
    pad = max(0.12 * (right - left), 20.0)
    ax.set_xlim(left - pad, right + pad)
    # a band below the last row for the legend: it never covers a row or its label
    ax.set_ylim(y.min() - 2.0, y.max() + 0.7)
    ax.set_yticks(y, r["strategy"].tolist())
    ax.set_xlabel(f"Elo rating against {anchor} (400 × log10 of the strength ratio)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=7.5, loc="lower right")
    if n == 2:  # the same scale as a win probability against the anchor

        def to_p(d):
            return 1 / (1 + 10 ** (-np.asarray(d, float) / 400))

        def to_d(p):
            p = np.clip(np.asarray(p, float), 1e-9, 1 - 1e-9)
            return 400 * np.log10(p / (1 - p))

        top = ax.secondary_xaxis("top", functions=(to_p, to_d))
        top.set_xticks(_probability_ticks(ax.get_xlim(), to_d))
        top.xaxis.set_major_formatter(
            lambda v, _pos: f"{100 * v:.{1 if min(v, 1 - v) < 0.01 else 0}f}%"
        )
        top.set_xlabel(f"chance to win a 2-player game against {anchor}", fontsize=8)
        top.tick_params(labelsize=7)
    words = "\n\n".join(textwrap.fill(s, 52) for s in ladder_sentences(doc))
    fig.text(0.67, 0.83, words, fontsize=8.5, va="top", ha="left")
    # the head-to-head matrix
    table = matrix_table(doc)
    fig.text(0.03, 0.425, "Head-to-head", fontsize=10, fontweight="bold", va="top")
    fig.text(0.03, 0.40, matrix_note(doc), fontsize=8, color="#333333", va="top")
    height = 0.32
    tab = fig.add_axes((0.03, 0.05, 0.94, height))
    _draw_table(tab, table, min(height / (len(table) + 2), 0.04))
    return fig


def _probability_ticks(xlim, to_d) -> list[float]:
    """Win probabilities to mark on an Elo axis: 50% and outward, none crowding
    the last one kept (at least 6% of the axis apart)."""
    left, right = xlim
    gap = 0.06 * (right - left)
    cands = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4)
    ticks = [0.5]
    for side in (sorted(cands, reverse=True), sorted(1 - p for p in cands)):
        last = float(to_d(0.5))
        for p in side:
            d = float(to_d(p))
            if left <= d <= right and abs(d - last) >= gap:
                ticks.append(p)
                last = d
    return sorted(ticks)


def tune(doc: dict, stamp: str) -> Figure:
    """The tuning page (a scenario's ``[tune]``): the win share of every trial
    on the search games, the best and the shipped row confirmed on fresh games
    (95% Wilson intervals), the best row and the result in words. ``doc`` is the
    content of ``tune.toml``."""
    from analyzer.studies.sections import (
        best_row_table,
        field_text,
        trials_table,
        tune_headline,
        tune_sentences,
    )

    s, c, b = doc["tune"], doc["confirm"], doc["best"]
    t = trials_table(doc)
    fair = float(s["fair_share"])
    confirmed = c.get("win_share") is not None
    fig = figure(
        tune_headline(doc),
        textwrap.fill(
            f"{s['strategy']} at {s['players']} players against {field_text(s['field'])}, seats "
            f"rotated · {s['trials']} trials × {s['games_per_trial']:,} games on the same seeds"
            + (f" · confirmation: {c['games']:,} fresh games per row" if confirmed else "")
            + " · 95% Wilson intervals · "
            + s["optimiser"],
            170,
        ),
        stamp,
    )
    fig.set_layout_engine(None)
    ax = fig.add_axes((0.08, 0.44, 0.60 if confirmed else 0.88, 0.40))
    x = t["trial"].to_numpy(float)
    yv = t["win_share"].to_numpy(float)
    err = error_bars(yv, t["win_share_low"], t["win_share_high"])
    ax.errorbar(x, yv, yerr=err, fmt="none", ecolor="#999999", lw=0.8, zorder=1)
    ax.scatter(x, yv, s=16, color="#555555", zorder=2, label="a trial (search games)")
    ax.scatter(x[:1], yv[:1], marker="s", s=50, color=PLAIN, zorder=3,
               label="trial 1: the shipped row")  # fmt: skip
    best = t["trial"].to_numpy() == b["trial"]
    ax.scatter(x[best], yv[best], marker="*", s=160, color=SIGNIFICANT, zorder=3,
               label=f"trial {b['trial']}: the best row")  # fmt: skip
    ax.axhline(fair, color=REFERENCE, ls="--", lw=1.2, label=f"fair share {100 * fair:.0f}%")
    ax.set_xlabel("trial (in the order played)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel(f"win share of the tuned seat ({s['games_per_trial']:,} games a trial)")
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{100 * v:.0f}%")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7.5, loc="best")
    ax.set_title("Search: every trial on the same game seeds", fontsize=10)
    if confirmed:
        ax2 = fig.add_axes((0.75, 0.44, 0.22, 0.40), sharey=ax)
        rows = [
            ("best row", c["win_share"], c["low"], c["high"], SIGNIFICANT),
            ("shipped row", c["shipped_win_share"], c["shipped_low"], c["shipped_high"], PLAIN),
        ]
        for i, (_label, v, lo, hi, colour) in enumerate(rows):
            ax2.errorbar([i], [v], yerr=error_bars([v], [lo], [hi]), fmt="o", ms=7,
                         capsize=5, color=colour)  # fmt: skip
            ax2.annotate(f"{100 * v:.1f}%\n[{100 * lo:.1f}, {100 * hi:.1f}]", (i, v),
                         textcoords="offset points", xytext=(9, 0), ha="left", va="center",
                         fontsize=7.5)  # fmt: skip
        ax2.axhline(fair, color=REFERENCE, ls="--", lw=1.2)
        ax2.set_xticks([0, 1], [r[0] for r in rows])
        ax2.set_xlim(-0.5, 1.9)
        ax2.tick_params(labelleft=False)
        ax2.grid(axis="y", alpha=0.3)
        ax2.set_title(f"Confirmation: {c['games']:,} fresh games", fontsize=10)
        lo_all = min(float(t["win_share_low"].min()), c["low"], c["shipped_low"], fair)
        hi_all = max(float(t["win_share_high"].max()), c["high"], c["shipped_high"], fair)
        pad = max(0.15 * (hi_all - lo_all), 0.01)
        ax.set_ylim(max(0.0, lo_all - pad), min(1.0, hi_all + pad))
    fig.text(0.03, 0.345, "The best row", fontsize=10, fontweight="bold", va="top")
    table = best_row_table(doc)
    height = min(0.27, 0.035 * (len(table) + 2))
    tab = fig.add_axes((0.03, 0.31 - height, 0.45, height))
    _draw_table(tab, table, min(height / (len(table) + 2), 0.035))
    words = "\n\n".join(textwrap.fill(x, 80) for x in tune_sentences(doc))
    fig.text(0.52, 0.335, words, fontsize=8.5, va="top", ha="left")
    return fig
