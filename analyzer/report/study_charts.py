"""The charts of the studies a scenario can hold: the ladder's ratings and the tuning.

:func:`ladder` draws the strategies' ratings with their intervals and the table
of their win probabilities; :func:`tune` draws the tuning's search and the
parameters it found (``[ladder]`` and ``[tune]``, :mod:`analyzer.studies.sections`).
"""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from analyzer.report.chart_style import (
    PLAIN,
    REFERENCE,
    SIGNIFICANT,
    error_bars,
    figure,
    pct_tick,
)
from analyzer.report.pages import _draw_table


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
    ax.yaxis.set_major_formatter(pct_tick)
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
