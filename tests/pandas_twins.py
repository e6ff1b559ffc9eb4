"""The plain pandas twins of the reducer: the code as first written.

:mod:`analyzer.tables.groupby` and :class:`analyzer.tables.reducer.Reducer` sum
a batch without pandas' groupby, to the bits pandas gives. These are the same
sums written with pandas throughout, slow and plain: ``moments_pandas``,
``counts_pandas``, ``stacked_pandas``, ``group_rows_pandas``, the reducer's
:func:`reduce_pandas` and each game's own (:func:`unearth_reduce_pandas`,
:func:`uruk_reduce_pandas`, :func:`colorful_treasure_reduce_pandas`). The tests
compare every fast path with them (``tests/tables/test_reducer_twins.py``,
``tests/tables/test_aggregate.py``, ``tests/tables/test_aggregate_user_path.py``); nothing in
the package imports this module.
"""

from __future__ import annotations

import pandas as pd

from analyzer.colorful_treasure.tables import REWARDS
from analyzer.tables.groupby import counts_by_pandas, moments_by_pandas, stacked_by_pandas
from analyzer.tables.partial import MOMENTS, Part, combine
from analyzer.tables.reducer import (
    ADJUSTED,
    CORE,
    Reducer,
    _game_level,
    _level_metrics,
    metric_columns,
)
from analyzer.unearth.tables import CLAIM_COUNTS, PER_CARD

#: pandas' own groupby, which the package keeps as the fallback for the keys and values
#: its codes do not take: the plain twins of moments, counts and stacked are those
#: functions themselves (one copy, not two)
moments_pandas = moments_by_pandas
counts_pandas = counts_by_pandas
stacked_pandas = stacked_by_pandas


def group_rows_pandas(agg: pd.DataFrame, group: str) -> pd.DataFrame:
    """:func:`analyzer.tables.partial.group_rows` with pandas' ``xs``."""
    if agg.empty:
        return pd.DataFrame(columns=["cell", "key", "metric", *MOMENTS])
    try:
        sub = agg.xs(group, level="group")
    except KeyError:
        return pd.DataFrame(columns=["cell", "key", "metric", *MOMENTS])
    return sub.reset_index()


# --------------------------------------------------------------------------- the reducer


def reduce_pandas(self: Reducer, tables: dict[str, pd.DataFrame], game_reduce=None) -> pd.DataFrame:
    """The partial ``self(tables)`` gives, with pandas' groupby throughout (the
    reducer as it was written first). ``game_reduce``: the game's own reducer to
    use (default :meth:`analyzer.games.Game.reduce`; its twin is one of the
    ``*_reduce_pandas`` below)."""
    game, columns, tables = self._prepared(tables)
    parts = []
    games = tables.get("games")
    if games is not None and len(games):
        parts.extend(games_pandas(self, games, columns))
    reduce = game_reduce or game.reduce
    parts.extend(reduce({k: v for k, v in tables.items() if len(v)}))
    return combine(p.frame() if isinstance(p, Part) else p for p in parts)


def games_pandas(self: Reducer, g: pd.DataFrame, columns) -> list[pd.DataFrame]:
    """The generic rows of a games table (``Reducer._games``) with pandas' groupby."""
    metrics = metric_columns(g, columns)
    by_strategy = [c.name for c in columns if c.kind == "metric" and (c.part or c.by_strategy)]
    core = [m for m in metrics if m in CORE or m in by_strategy]
    first = g[g["seat"] == 0]
    parts = [
        moments_pandas(g, "all", [], metrics),
        moments_pandas(g, "seat", ["seat"], metrics),
        moments_pandas(g, "strategy", ["strategy"], core),
        moments_pandas(g, "seat_strategy", ["seat", "strategy"], list(CORE)),
        counts_pandas(g, "score_hist", ["score"]),
        counts_pandas(first, "turns_hist", ["game_turns"]),
    ]
    if "treated" in g:
        parts.append(moments_pandas(g[g["treated"] == 1], "treated", [], metrics))
        parts.append(moments_pandas(g[g["treated"] == 0], "untreated", [], metrics))
    if ADJUSTED[0] in g:
        parts.append(moments_pandas(g, "luck", ["seat"], list(ADJUSTED)))
    game_level = _game_level(g, columns)
    parts.append(moments_pandas(game_level, "game", [], _level_metrics(game_level)))
    parts.extend(self._pairs(g, game_level, columns))
    return parts


# --------------------------------------------------------------------------- each game's own


def unearth_reduce_pandas(tables: dict[str, pd.DataFrame]) -> list[pd.DataFrame]:
    """:func:`analyzer.unearth.tables.reduce` with pandas."""
    parts = []
    g = tables.get("games")
    if g is not None and len(g):
        first = g[g["seat"] == 0]
        parts += [
            moments_pandas(g, "end_of_age", ["end_of_age"], ["score"]),
            moments_pandas(first, "end_of_age_seat0", ["end_of_age"], ["win", "game_turns"]),
        ]
        for prefix, group, metrics in PER_CARD:
            cols = [c for c in g.columns if c.startswith(prefix)]
            if cols:
                sub = g[["cell", *metrics]]
                stacked = pd.concat(
                    [sub[g[c].to_numpy() > 0].assign(key=c[len(prefix) :]) for c in cols],
                    ignore_index=True,
                )
                parts.append(moments_pandas(stacked, group, ["key"], metrics))
    c = tables.get("claims")
    if c is not None and len(c):
        parts += [counts_pandas(c, group, keys) for group, keys in CLAIM_COUNTS]
    return parts


def uruk_reduce_pandas(tables: dict[str, pd.DataFrame]) -> list[pd.DataFrame]:
    """:func:`analyzer.uruk.tables.reduce` with pandas."""
    g = tables.get("games")
    parts = []
    if g is None or not len(g):
        return parts
    for col in (c for c in g.columns if c.startswith("has_")):
        shown = g[g[col] > 0].assign(key=col[len("has_") :])
        parts.append(moments_pandas(shown, "uruk_has", ["key"], ["win", "score"]))
    return parts


def colorful_treasure_reduce_pandas(tables: dict[str, pd.DataFrame]) -> list[pd.DataFrame]:
    """:func:`analyzer.colorful_treasure.tables.reduce` with pandas."""
    parts = []
    g = tables.get("games")
    if g is not None and len(g):
        long = pd.concat(
            [
                g[["cell", "win", "score"]].assign(reward=r, got=g[r].astype("int64"))
                for r in REWARDS
                if r in g
            ],
            ignore_index=True,
        )
        parts.append(moments_pandas(long, "reward", ["reward", "got"], ["win", "score"]))
        parts.append(counts_pandas(g[g["seat"] == 0], "ct_games", []))
        tiles = [c for c in g if c.startswith("tile_")]
        if tiles:
            long = pd.concat(
                [
                    g.loc[g[c].notna(), ["cell", "win", "score"]].assign(
                        reward=c[5:], got=g.loc[g[c].notna(), c].astype("int64")
                    )
                    for c in tiles
                ],
                ignore_index=True,
            )
            parts.append(moments_pandas(long, "tile", ["reward", "got"], ["win", "score"]))
    s = tables.get("steals")
    if s is not None and len(s):
        parts.append(counts_pandas(s, "steal_pair", ["thief", "victim"]))
        parts.append(counts_pandas(s, "steal_item", ["item"]))
    return parts


#: each game's twin of its ``tables.reduce``, by the game's name
GAME_REDUCE_PANDAS = {
    "unearth": unearth_reduce_pandas,
    "uruk": uruk_reduce_pandas,
    "colorful_treasure": colorful_treasure_reduce_pandas,
}
