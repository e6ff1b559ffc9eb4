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


def _axes(fig: Figure, nrows: int = 1, ncols: int = 1):
    # leave room for the subtitle and the stamp outside the constrained layout
    fig.get_layout_engine().set(rect=(0, 0.03, 1, 0.90))
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return axes


def _n(x) -> str:
    return f"{int(round(float(x))):,}"


def _cells(df: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(df["label"]))


def _err(y, lo, hi) -> np.ndarray:
    """Error-bar lengths ``(2, n)``; rounding can put an interval end a hair inside y."""
    y = np.asarray(y, float)
    return np.clip(np.vstack([y - np.asarray(lo, float), np.asarray(hi, float) - y]), 0, None)


def _grouped(ax, df: pd.DataFrame, cat: str, est: str, ylabel: str, ref=None, fmt="{:.3f}"):
    """Bars of ``est`` by ``cat``, one colour per cell label, with 95% error bars."""
    labels = _cells(df)
    cats = list(dict.fromkeys(df[cat]))
    width = 0.8 / max(len(labels), 1)
    x = np.arange(len(cats))
    for i, lab in enumerate(labels):
        sub = df[df["label"] == lab].set_index(cat).reindex(cats)
        y = sub[est].to_numpy(float)
        err = _err(y, sub[f"{est}_low"], sub[f"{est}_high"])
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
        f"n = {_n(n.min())} games per configuration · bars: 95% intervals (Wilson for rates, "
        "normal for means)",
        stamp,
    )
    ax1, ax2 = _axes(fig, 1, 2)[0]
    fair = df["fair"].iloc[0] if df["fair"].nunique() == 1 else None
    _grouped(ax1, df, "seat", "win_rate", "win rate (share of games won)", ref=fair)
    ax1.set_xlabel("seat (0 = first player)")
    ax1.set_title("Win rate")
    ax1.set_ylim(bottom=0)
    _grouped(ax2, df, "seat", "score", "mean final score (points)", fmt="{:.1f}")
    ax2.set_xlabel("seat (0 = first player)")
    ax2.set_title("Mean score")
    return fig


def strategies(df: pd.DataFrame, stamp: str) -> Figure:
    """Win rate and mean score by strategy (table ``strategies``)."""
    fig = figure(
        "Balance by strategy",
        f"n = {_n(df['n'].min())}–{_n(df['n'].max())} seat-games per bar · 95% intervals",
        stamp,
    )
    ax1, ax2 = _axes(fig, 1, 2)[0]
    _grouped(ax1, df, "strategy", "win_rate", "win rate (share of seat-games won)")
    ax1.set_xlabel("strategy")
    ax1.set_title("Win rate")
    ax1.set_ylim(bottom=0)
    _grouped(ax2, df, "strategy", "score", "mean final score (points)", fmt="{:.1f}")
    ax2.set_xlabel("strategy")
    ax2.set_title("Mean score")
    return fig


def first_player(df: pd.DataFrame, stamp: str) -> Figure:
    """Seat-0 win rate against the fair share ``1/players`` (table ``first_player``)."""
    fig = figure(
        "First-player advantage",
        f"n = {_n(df['games'].min())} games per configuration · 95% Wilson intervals · "
        "dashes: fair share 1/players",
        stamp,
    )
    ax = _axes(fig)[0][0]
    y = np.arange(len(df))[::-1]
    x = df["seat0_win"].to_numpy(float)
    err = _err(x, df["seat0_win_low"], df["seat0_win_high"])
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
        f"n = {_n(total.min())} seat-games per configuration",
        stamp,
    )
    ax = _axes(fig)[0][0]
    for i, lab in enumerate(_cells(df)):
        sub = df[df["label"] == lab]
        ax.step(sub["score"], sub["share"], where="mid", color=COLOURS[i % len(COLOURS)], label=lab)
    ax.set_xlabel("final score (points)")
    ax.set_ylabel("share of seat-games")
    ax.grid(alpha=0.3)
    if len(_cells(df)) > 1:
        ax.legend(fontsize=8)
    return fig


def score_parts(df: pd.DataFrame, stamp: str, wonders: pd.DataFrame | None = None) -> Figure:
    """Mean points per seat-game by score part, and wonders built by kind."""
    fig = figure(
        "Where the points come from",
        f"n = {_n(df['n'].min())} seat-games per configuration · 95% normal intervals",
        stamp,
    )
    axes = _axes(fig, 1, 2 if wonders is not None and len(wonders) else 1)[0]
    parts = df[df["part"] != "score"].copy()
    parts["part"] = parts["part"].str.removeprefix("pts_")
    parts = parts.rename(columns={"mean_low": "mean_low", "mean_high": "mean_high"})
    _grouped(axes[0], parts, "part", "mean", "mean points per seat-game", fmt="{:.1f}")
    axes[0].set_xlabel("score part")
    axes[0].set_title("Score parts")
    axes[0].tick_params(axis="x", labelrotation=20)
    if len(axes) > 1:
        _grouped(axes[1], wonders, "kind", "mean", "mean wonders built per seat-game", fmt="{:.2f}")
        axes[1].set_xlabel("wonder kind (total = all kinds)")
        axes[1].set_title("Wonders built")
    return fig


def _dots(ax, names, pairs, xlabel, ref=None):
    """Dot plot: ``pairs`` is a list of (label, est, low, high) arrays aligned with ``names``."""
    y = np.arange(len(names))[::-1].astype(float)
    k = len(pairs)
    for i, (lab, est, lo, hi) in enumerate(pairs):
        off = (i - (k - 1) / 2) * 0.25
        est = np.asarray(est, float)
        err = _err(est, lo, hi)
        ax.errorbar(est, y + off, xerr=err, fmt="o", ms=4, capsize=2, color=COLOURS[i], label=lab)
    if ref is not None:
        ax.axvline(ref, color="grey", ls="--", lw=1)
    ax.set_yticks(y, names)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="best")


def named_wonders(df: pd.DataFrame, stamp: str) -> Figure:
    """Build rate of each named wonder and the win rate of its builders (first cell)."""
    lab = _cells(df)[0]
    d = df[df["label"] == lab].sort_values("build_rate", ascending=False)
    fig = figure(
        "Named wonders",
        f"{lab} · n = {_n(d['builds'].sum() / max(d['build_rate'].sum(), 1e-12))} seat-games · "
        "95% Wilson intervals",
        stamp,
    )
    ax1, ax2 = _axes(fig, 1, 2)[0]
    names = [
        f"{n} ({int(p)} pts)" if pd.notna(p) else n
        for n, p in zip(d["name"], d["printed_points"], strict=True)
    ]
    _dots(
        ax1,
        names,
        [("built by a seat", d["build_rate"], d["build_rate_low"], d["build_rate_high"])],
        "share of seat-games that built it",
    )
    ax1.set_title("How often each is built")
    _dots(
        ax2,
        [""] * len(names),
        [
            ("builders", d["win_builders"], d["win_builders_low"], d["win_builders_high"]),
            ("others", d["win_others"], d["win_others_low"], d["win_others_high"]),
        ],
        "win rate (share of seat-games won)",
    )
    ax2.set_title("Win rate of builders vs the rest")
    return fig


def delvers(df: pd.DataFrame, stamp: str) -> Figure:
    """Delver cards: how often played, and win rate of seats that played >= 1 vs none."""
    lab = _cells(df)[0]
    d = df[df["label"] == lab].sort_values("win_difference", ascending=False)
    n_all = (
        float((d["seats_played"] / d["share_played"]).replace([np.inf], np.nan).dropna().iloc[0])
        if len(d)
        else 0
    )
    fig = figure(
        "Delver cards and winning",
        f"{lab} · n = {_n(n_all)} seat-games · 95% intervals · association, not cause",
        stamp,
    )
    ax1, ax2 = _axes(fig, 1, 2)[0]
    _dots(
        ax1,
        list(d["name"]),
        [("cards played", d["played_mean"], d["played_mean_low"], d["played_mean_high"])],
        "cards played per seat-game",
    )
    ax1.set_title("How often each card is played")
    _dots(
        ax2,
        [""] * len(d),
        [
            ("played ≥1", d["win_played"], d["win_played_low"], d["win_played_high"]),
            ("played none", d["win_not_played"], d["win_not_played_low"], d["win_not_played_high"]),
        ],
        "win rate (share of seat-games won)",
    )
    ax2.set_title("Win rate: played ≥1 vs none")
    return fig


def end_of_age(df: pd.DataFrame, stamp: str) -> Figure:
    """Effect of the end-of-age card on score, game length and the first player."""
    lab = _cells(df)[0]
    d = df[df["label"] == lab]
    fig = figure(
        "End-of-age card",
        f"{lab} · n = {_n(d['games'].min())}–{_n(d['games'].max())} games per card · 95% intervals",
        stamp,
    )
    ax1, ax2, ax3 = _axes(fig, 1, 3)[0]
    names = [textwrap.fill(str(s), 14) for s in d["name"]]
    for ax, col, ylab, fmt in (
        (ax1, "score", "mean final score (points)", "{:.1f}"),
        (ax2, "game_turns", "mean game length (turns)", "{:.1f}"),
        (ax3, "seat0_win", "first player's win rate", "{:.3f}"),
    ):
        dd = d.assign(name=names)
        _grouped(ax, dd, "name", col, ylab, fmt=fmt)
        ax.tick_params(axis="x", labelsize=8)
    return fig


def game_length(df: pd.DataFrame, stamp: str) -> Figure:
    """Distribution of game length in turns (table ``game_length``)."""
    total = df.groupby("label")["games"].sum()
    fig = figure("Game length", f"n = {_n(total.min())} games per configuration", stamp)
    ax = _axes(fig)[0][0]
    for i, lab in enumerate(_cells(df)):
        sub = df[df["label"] == lab]
        k = len(_cells(df))
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
    if len(_cells(df)) > 1:
        ax.legend(fontsize=8)
    return fig


def claims(dice: pd.DataFrame, faces: pd.DataFrame, tiebreak: pd.DataFrame, stamp: str) -> Figure:
    """Claim odds from play: dice on the ruin, winning die type, tiebreaks (first cell)."""
    lab = _cells(dice)[0]
    d = dice[dice["label"] == lab]
    t = tiebreak[tiebreak["label"] == lab]
    f = faces[faces["label"] == lab]
    fig = figure(
        "Claims in play",
        f"{lab} · n = {_n(t['resolved'].sum())} ruins resolved · 95% Wilson intervals",
        stamp,
    )
    ax1, ax2, ax3 = _axes(fig, 1, 3)[0]
    grid = d.pivot(index="claim_value", columns="n_dice", values="share").fillna(0.0)
    im = ax1.imshow(grid.to_numpy(), aspect="auto", cmap="Blues", vmin=0)
    ax1.set_xticks(range(grid.shape[1]), [str(c) for c in grid.columns])
    ax1.set_yticks(range(grid.shape[0]), [str(c) for c in grid.index])
    for (i, j), v in np.ndenumerate(grid.to_numpy()):
        if v >= 0.005:
            ax1.text(
                j,
                i,
                f"{v:.2f}",
                ha="center",
                va="center",
                fontsize=7,
                color="white" if v > 0.5 * grid.to_numpy().max() else "black",
            )
    ax1.set_xlabel("dice on the ruin when resolved")
    ax1.set_ylabel("claim value")
    ax1.set_title("Share of claims by dice used")
    fig.colorbar(im, ax=ax1, shrink=0.6, label="share of row")
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
        err = _err(y, t[f"{col}_low"], t[f"{col}_high"])
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
    fig = figure(
        "Claim odds, exact (one roll of fresh dice)",
        "from analyzer.unearth.odds.dice_to_claim_table: no simulation, no sampling error",
        stamp,
    )
    ax = _axes(fig)[0][0]
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


def sweep(df: pd.DataFrame, params: list[str], stamp: str) -> Figure:
    """Each metric against the swept value, with 95% interval bands (table ``sweep``)."""
    metrics = list(dict.fromkeys(df["metric"]))
    ncols = 3
    nrows = int(np.ceil(len(metrics) / ncols))
    fig = figure(
        "Sweep: " + " × ".join(params),
        f"n = {_n(df['n'].min())}+ per point · bands: 95% intervals · "
        "all points share random streams",
        stamp,
        size=(11.0, max(7.5, 2.6 * nrows + 1.2)),
    )
    axes = _axes(fig, nrows, ncols).ravel()
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
        f"n = {_n(df['pairs'].min())} paired games (same seed and game index) · 95% intervals · "
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
    axes = _axes(fig, 1, len(groups))[0]
    for ax, (title, g) in zip(axes, groups, strict=True):
        names = [f"{m} ({s})" for m, s in zip(g["metric"], g["scope"], strict=True)]
        y = np.arange(len(g))[::-1]
        est = g["diff"].to_numpy(float)
        err = _err(est, g["diff_low"], g["diff_high"])
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
