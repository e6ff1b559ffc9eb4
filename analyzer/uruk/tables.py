"""Uruk's own report tables: inventions displayed at the end, with win rates.

Called through :class:`analyzer.uruk.plugin.Uruk` (``reduce``, ``report_tables``)
by :mod:`analyzer.tables.aggregate`, whose helpers build the moments and intervals. The
table is descriptive: seats that display an invention at the end may win more
because they were ahead anyway. The effect of an invention is measured by the
paired comparison scenario that forbids it (``scenarios/uruk_invention_removed.toml``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.tables import aggregate as A


def reduce(tables: dict[str, pd.DataFrame]) -> list:
    """Partial rows of one batch (:class:`analyzer.tables.aggregate.Part`): win and score
    of the seats displaying each invention at the end (``has_<id>`` columns), each
    invention on its own as pandas' groupby would (its twin:
    ``tests/pandas_twins.py``). Draws no random numbers."""
    g = tables.get("games")
    if g is None or not len(g):
        return []
    t = A.Table(g)
    blocks = [(c[4:], np.flatnonzero(t.floats(c) > 0), None) for c in g if c.startswith("has_")]
    return A.blockwise(t, "uruk_has", blocks, ["win", "score"])


def report_tables(agg: pd.DataFrame, info: dict) -> dict[str, pd.DataFrame]:
    """``inventions_at_end``: by cell and invention, the share of seat-games
    displaying it at the end, and their win rate and mean score (95% intervals)."""
    has = A.group_rows(agg, "uruk_has")
    allm = A.group_rows(agg, "all")
    if not len(has) or not len(allm):
        return {}
    names = info.get("inventions", {})
    seats = allm[allm["metric"] == "win"].set_index("cell")["n"]
    rows = []
    for (cell, key), sub in has.groupby(["cell", "key"], sort=True):
        sub = sub.set_index("metric")
        n = float(sub.loc["win", "n"])
        total = float(seats.get(cell, 0.0))
        win = A.rate("win_rate", [sub.loc["win", "sum"]], [n])
        score = A.mean_ci("score", sub.loc[["score"]])
        rows.append(
            {
                "cell": cell,
                "invention": key,
                "name": names.get(key, key),
                "n": n,
                "share": n / total if total else float("nan"),
                **{k: float(v[0]) for k, v in win.items()},
                **{
                    k: float(v.iloc[0]) if hasattr(v, "iloc") else float(v[0])
                    for k, v in score.items()
                },
            }
        )
    out = pd.DataFrame(rows).sort_values(["cell", "win_rate"], ascending=[True, False])
    return {"inventions_at_end": out.reset_index(drop=True)}
