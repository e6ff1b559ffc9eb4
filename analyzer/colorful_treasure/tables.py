"""Colorful Treasure's own report tables: the rewards and the steals.

Called through :class:`analyzer.colorful_treasure.plugin.ColorfulTreasure`
(``reduce`` and ``report_tables``) by :mod:`analyzer.tables.aggregate`, whose helpers
build the moments and intervals. Column names used here are the ones the game
declares in :func:`analyzer.colorful_treasure.plugin.games_columns` and the
``steals`` table of :func:`analyzer.colorful_treasure.game.steals_frame`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.tables import aggregate as A

REWARDS = ("gem_reward", "explorer_reward", "treasure_reward")


def reduce(tables: dict[str, pd.DataFrame]) -> list:
    """Partial rows of one batch (:class:`analyzer.tables.aggregate.Part`): win and score
    of holders and non-holders of each reward and (games with tiles) of each action
    tile's side; steals by thief and victim seat and by item. The same rows pandas'
    groupby gives (its twin: ``tests/pandas_twins.py``). Draws no random numbers."""
    parts = []
    g = tables.get("games")
    if g is not None and len(g):
        tiles = [c for c in g if c.startswith("tile_")]
        t = A.Table(g)
        # every reward's blocks in one pass over the columns (no stacked table)
        rewards = [r for r in REWARDS if r in t.names]
        parts.append(A.flag_blocks(t, "reward", rewards, ["win", "score"]))
        parts.append(A.grouped(t, "ct_games", [], None, t.cols["seat"] == 0))
        if tiles:  # games with action tiles (cells without have NaN): holders of each side
            # only the columns read here: the numeric matrix is built for these alone
            t = A.Table(g[["cell", "seat", "win", "score", *tiles]])
            blocks = []
            for c in tiles:
                held = t.floats(c)
                rows = np.flatnonzero(~np.isnan(held))
                blocks.append((c[5:], rows, held[rows].astype(np.int64)))
            parts.append(A.stacked(t, "tile", blocks, ["win", "score"]))
    s = tables.get("steals")
    if s is not None and len(s):
        t = A.Table(s)
        parts.append(A.grouped(t, "steal_pair", ["thief", "victim"], None))
        parts.append(A.grouped(t, "steal_item", ["item"], None))
    return parts


def report_tables(agg: pd.DataFrame, info: dict) -> dict[str, pd.DataFrame]:
    """``rewards`` (per reward: share of seat-games holding it, win rate and mean
    score of holders and of the others), ``tiles`` (the same per action tile's side
    taken, in games with tiles) and ``steals_by_seat`` (steals per game by
    thief and victim seat) and ``steal_items``."""
    out: dict[str, pd.DataFrame] = {}
    for group, name, label in (("reward", "rewards", "reward"), ("tile", "tiles", "tile")):
        table = _holders(A.group_rows(agg, group), label)
        if table is not None:
            out[name] = table
    games = A.group_rows(agg, "ct_games")
    pairs = A.group_rows(agg, "steal_pair")
    if len(pairs) and len(games):
        n_games = games.groupby("cell")["n"].sum()
        keys = pairs["key"].str.split("|", n=1, expand=True)
        t = pd.DataFrame(
            {
                "cell": pairs["cell"].to_numpy(),
                "thief": keys[0].astype(int).to_numpy(),
                "victim": keys[1].astype(int).to_numpy(),
                "steals": pairs["n"].to_numpy(),
            }
        )
        t["per_game"] = t["steals"] / t["cell"].map(n_games).to_numpy()
        out["steals_by_seat"] = t.sort_values(["cell", "thief", "victim"]).reset_index(drop=True)
        items = A.group_rows(agg, "steal_item")
        it = pd.DataFrame(
            {"cell": items["cell"].to_numpy(), "item": items["key"], "steals": items["n"]}
        )
        total = it.groupby("cell")["steals"].transform("sum")
        lo, hi = A.wilson(it["steals"].to_numpy(), total.to_numpy())
        it["share"] = it["steals"] / total
        it["share_low"], it["share_high"] = lo, hi
        out["steal_items"] = it.reset_index(drop=True)
    return out


def _holders(rew: pd.DataFrame, label: str) -> pd.DataFrame | None:
    """Per item (a reward, or an action tile's side) and cell: share of seat-games
    holding it, win rate of its holders and of the others, holders' mean score."""
    if not len(rew):
        return None
    rows = []
    keys = rew["key"].str.split("|", n=1, expand=True)
    rew = rew.assign(item=keys[0], got=keys[1].astype(int))
    for (cell, item), sub in rew.groupby(["cell", "item"], sort=False):
        win = sub[sub["metric"] == "win"].set_index("got")
        score = sub[sub["metric"] == "score"].set_index("got")
        n1 = float(win["n"].get(1, 0.0))
        n0 = float(win["n"].get(0, 0.0))
        w1 = float(win["sum"].get(1, 0.0))
        w0 = float(win["sum"].get(0, 0.0))
        m1, lo1, hi1 = A.mean_ci_arrays(
            [n1], [score["sum"].get(1, 0.0)], [score["sumsq"].get(1, 0.0)]
        )
        row = {"cell": cell, label: item}
        row.update({k: v[0] for k, v in A.rate("held", [n1], [n0 + n1]).items()})
        row.update({k: v[0] for k, v in A.rate("win_holders", [w1], [n1]).items()})
        row.update({k: v[0] for k, v in A.rate("win_others", [w0], [n0]).items()})
        row.update({"score_holders": m1[0], "score_holders_low": lo1[0]})
        row["score_holders_high"] = hi1[0]
        rows.append(row)
    return pd.DataFrame(rows)
