"""The runner's headline: the one estimate a precision target is judged by.

:func:`first_player_headline` (seat 0's win rate in cell 0) and
:func:`widest_seat_headline` (the seat whose win rate is least precise), each
luck-adjusted when the run has luck terms; read from the summed partial after
every batch, so they read only the rows they need.
"""

from __future__ import annotations

import pandas as pd

from analyzer.core.stats import wilson
from analyzer.tables.estimates import mean_ci_arrays
from analyzer.tables.partial import group_lists, group_rows


def _seat_wins(agg: pd.DataFrame) -> list[tuple[str, float, float]]:
    """``(seat, wins, n)`` of each seat row of cell 0's win rate, in the
    aggregate's order (:func:`_seat_win` without a frame)."""
    rows = group_lists(agg, "seat")
    return [
        (key, s, n)
        for cell, key, metric, n, s in zip(
            rows["cell"], rows["key"], rows["metric"], rows["n"], rows["sum"], strict=True
        )
        if cell == 0 and metric == "win"
    ]


def _seat_win(agg: pd.DataFrame, seat: str | None):
    """``(label, successes, n)`` of each seat of cell 0 (or only ``seat``)."""
    rows = group_rows(agg, "seat")
    rows = rows[(rows["cell"] == 0) & (rows["metric"] == "win")]
    if seat is not None:
        rows = rows[rows["key"] == seat]
    return rows


def _headline(label: str, s: float, n: float):
    from analyzer.core.stats import Headline

    lo, hi = wilson(s, n)
    return Headline(
        label=label,
        value=s / n if n else float("nan"),
        low=float(lo),
        high=float(hi),
        half_width=float((hi - lo) / 2),
    )


def _adjusted_headline(agg: pd.DataFrame, seat: str, label: str, rows=None):
    """Seat ``seat``'s luck-adjusted win rate in cell 0 (normal 95% interval), or
    None without luck columns in the run. ``rows``: ``group_rows(agg, "luck")``
    if the caller has it."""
    from analyzer.core.stats import Headline

    rows = group_rows(agg, "luck") if rows is None else rows
    if rows.empty:
        return None
    r = rows[(rows["cell"] == 0) & (rows["metric"] == "win_adj") & (rows["key"] == seat)]
    if r.empty or float(r["n"].sum()) < 2:
        return None
    m, lo, hi = mean_ci_arrays(r["n"].sum(), r["sum"].sum(), r["sumsq"].sum())
    return Headline(
        label=f"{label} (luck-adjusted)",
        value=float(m),
        low=float(lo),
        high=float(hi),
        half_width=float((hi - lo) / 2),
    )


def first_player_headline(agg: pd.DataFrame):
    """The runner's precision headline: seat 0's win rate in cell 0, luck-adjusted
    with a normal 95% interval when the run has luck terms, else 95% Wilson."""
    adj = _adjusted_headline(agg, "0", "first-player win rate")
    if adj is not None:
        return adj
    r = _seat_win(agg, "0")
    return _headline("first-player win rate", float(r["sum"].sum()), float(r["n"].sum()))


def widest_seat_headline(agg: pd.DataFrame):
    """The seat win rate of cell 0 with the widest 95% interval (ties: lowest
    seat; luck-adjusted as :func:`first_player_headline`): when it is precise
    enough, every seat's win rate is."""
    rows = _seat_wins(agg)
    if not rows:
        return _headline("win rate", 0.0, 0.0)
    luck = group_rows(agg, "luck")  # once, not once per seat
    best = None
    for key, wins, n in sorted(rows, key=lambda r: int(r[0])):
        label = f"seat {key} win rate"
        h = _adjusted_headline(agg, str(key), label, luck)
        if h is None:
            h = _headline(label, float(wins), float(n))
        if best is None or h.half_width > best.half_width:
            best = h
    return best


def headline(info: dict):
    """Headline function for a scenario run (kept for callers of earlier versions):
    :func:`first_player_headline`."""
    return first_player_headline
