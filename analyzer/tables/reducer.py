"""The reducer: one batch's tables -> its partial aggregate.

:class:`Reducer` turns one batch's tables (``games`` and the game's own, plus
the ``cell`` and ``order`` columns added by :class:`analyzer.runs.driver.ScenarioJob`)
into a partial (:mod:`analyzer.tables.partial`): the generic groups of the games
table (all seats, by seat, by strategy, histograms, game-level means, luck,
an intervention's treated seats), the paired differences of compared cells,
then the game's own rows (:meth:`analyzer.games.Game.reduce`). Only the core
columns (:data:`analyzer.games.CORE_COLUMNS`) are known here by name; every
other column is used as the game declares it (:class:`analyzer.games.Column`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.games import DEFAULT_GAME, Column, check_games_table, load_game
from analyzer.tables.groupby import (
    Family,
    Table,
    _labels,
    _summed,
    grouped,
    key_codes,
    moments,
)
from analyzer.tables.partial import Part, assemble

#: core columns that are per-seat metrics
CORE_METRICS = ("score", "win", "game_turns")
CORE = ("score", "win")


#: luck-adjusted outcomes (``analyzer.kernels.luck``): ``win - luck_win``, ``score - luck_score``,
#: kept by seat under group ``luck`` when the games table has the luck columns
ADJUSTED = ("win_adj", "score_adj")


def with_adjusted(games: pd.DataFrame) -> pd.DataFrame:
    """``games`` with the luck-adjusted outcomes if it has the luck columns."""
    if "luck_win" not in games or "luck_score" not in games:
        return games
    return games.assign(
        win_adj=games["win"].astype(np.float64) - games["luck_win"],
        score_adj=games["score"].astype(np.float64) - games["luck_score"],
    )


def metric_columns(games: pd.DataFrame, columns: tuple[Column, ...]) -> list[str]:
    """Per-seat metrics of a games table: the core ones and the declared metrics present."""
    declared = [c.name for c in columns if c.kind == "metric"]
    present = set(games.columns)  # a set: asking a text Index is slow
    return [c for c in (*CORE_METRICS, *declared) if c in present]


def _game_level(games: pd.DataFrame, columns: tuple[Column, ...]) -> pd.DataFrame:
    """One row per (cell, game): length, whether the win was shared, means over seats."""
    shared = ((games["win"] > 0) & (games["win"] < 1)).astype("float64")
    by = games.assign(shared_win=shared).groupby(["cell", "game"], sort=True)
    out = pd.DataFrame(
        {
            "game_turns": by["game_turns"].first().astype("float64"),
            "shared_win": by["shared_win"].max(),
            "mean_score": by["score"].mean(),
        }
    )
    for c in columns:
        if c.game_mean and c.name in games:
            out[c.game_mean] = by[c.name].mean()
    return out.reset_index()


def _game_level_part(t: Table, columns: tuple[Column, ...]) -> Part | None:
    """The ``game`` group's rows (moments over cells of :func:`_game_level`'s
    columns) without building that table; None if a column misses values
    (a column some cells do not have: :func:`_game_level` handles that)."""
    from analyzer.kernels.groupsum import group_moments

    found = [t.key("cell"), t.codes("game")]  # the games only counted: no texts
    own = [c for c in columns if c.game_mean and c.name in t.names]
    means = ["score", *(c.name for c in own)]
    if any(f is None for f in found) or t.has_nan(["game_turns", "win", *means]):
        return None
    label, (cell_code, _) = _labels([f[0] for f in found], [len(f[1]) for f in found])
    n_games = len(cell_code)
    if n_games and np.all(label[1:] >= label[:-1]):  # rows in game order: each game's first
        first = np.flatnonzero(np.r_[True, label[1:] != label[:-1]])
    else:
        first = np.full(n_games, t.rows, np.int64)
        np.minimum.at(first, label, np.arange(t.rows))
    win = t.floats("win")
    shared = ((win > 0) & (win < 1)).astype(np.float64)
    values, cols = t.values(means)
    n, s, _ = group_moments(label, values, cols, np.zeros(len(means), bool), n_games)
    level = {
        "cell": found[0][1].astype(np.int64)[cell_code],  # (each distinct text read once)
        "game_turns": t.floats("game_turns")[first],
        "shared_win": (np.bincount(label, weights=shared, minlength=n_games) > 0).astype(float),
    }
    names = ["mean_score", *(c.game_mean for c in own)]
    with np.errstate(invalid="ignore", divide="ignore"):
        level.update(zip(names, (s / n).T, strict=True))
    metrics = list(level)[1:]
    values = np.empty((len(metrics), n_games))
    for j, m in enumerate(metrics):
        values[j] = level[m]
    cell = key_codes(level["cell"])
    if np.isnan(values).any():  # grouped() of that table (pandas' path for NaN)
        return grouped(Table(pd.DataFrame(level)), "game", [], metrics)
    # grouped(Table(pd.DataFrame(level)), "game", [], metrics) without the table:
    # every column is float64 (no sum exact in any order), none misses a value
    source = (values, np.arange(len(metrics)), np.zeros(len(metrics), np.bool_))
    return _summed("game", [cell], [cell[0]], metrics, source)


def _game_columns(game: str) -> tuple[Column, ...]:
    """The columns of ``game`` under its default rules (for runs that did not say)."""
    g = load_game(game)
    return tuple(g.columns(g.load_rules({}, {}, "rules")))


def run_columns(info: dict) -> tuple[Column, ...]:
    """The declared columns of a run: ``info["columns"]`` (as written by
    :func:`analyzer.scenario.run_scenario`), else the game's default ones."""
    cols = info.get("columns")
    if cols is None:
        return _game_columns(info.get("game", DEFAULT_GAME))
    return tuple(Column.from_dict(c) for c in cols if c.get("kind") != "core")


@dataclass(frozen=True, repr=False)
class Reducer:
    """Batch tables -> partial (picklable; used by the runner in every worker).

    ``game`` names the registered game whose tables these are and ``columns``
    the columns it declared for the run (None: those of its default rules).
    ``pairs`` lists comparisons as ``(cell_a, cell_b)``: their games are paired by
    game index (and seat) and the moments of ``b - a`` are kept under group
    ``paired`` of cell ``b``; ``sweep_pairs`` likewise a sweep's cells against its
    first swept value. A table without a ``cell`` column is cell 0.
    With a ``treated`` column (a scenario's intervention) the treated seats get
    their own rows: group ``treated`` (their moments per cell) and, in each pair,
    the keys ``treated seats`` and ``other seats`` of group ``paired``; with
    ``uptake``, also ``uptake`` (1 when a treated seat used what the other variant
    forbids) and the products ``win_x_uptake``, ``score_x_uptake`` for the
    per-use ratio (:func:`per_use`). Draws no random numbers.
    """

    pairs: tuple[tuple[int, int], ...] = ()
    game: str = DEFAULT_GAME
    columns: tuple[Column, ...] | None = None
    #: with an intervention (a ``treated`` column): the columns saying a treated seat
    #: used what is forbidden (:meth:`analyzer.games.Game.uptake_columns`), read in
    #: the variant ``uptake_arm`` ("a" or the other variant's key) where it is allowed
    uptake: tuple[str, ...] = ()
    uptake_arm: str = "a"
    #: more per-seat metrics whose paired differences are kept, over all seats and
    #: seat by seat (those a scenario's ``variant_effect`` questions ask for;
    #: :func:`paired_metrics`)
    paired_metrics: tuple[str, ...] = ()
    #: a sweep's ``(first, cell)`` pairs (:func:`analyzer.runs.scenario_cells.sweep_pairs`):
    #: paired like ``pairs`` (group ``paired`` of the later cell), without the
    #: intervention's rows
    sweep_pairs: tuple[tuple[int, int], ...] = ()

    def __repr__(self) -> str:  # the checkpoint fingerprint: as before unless used
        from analyzer.core.fingerprint import repr_without_defaults

        return repr_without_defaults(
            self, ("uptake", "uptake_arm", "paired_metrics", "sweep_pairs")
        )

    def __call__(self, tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
        game, columns, tables = self._prepared(tables)
        parts = []
        games = tables.get("games")
        if games is not None and len(games):
            parts.extend(self._games(games, columns))
        parts.extend(game.reduce({k: v for k, v in tables.items() if len(v)}))
        return assemble(parts)

    def _prepared(self, tables: dict[str, pd.DataFrame]):
        """``(game, columns, tables)``: every table with a ``cell`` column, the games
        table checked and with the game's derived columns."""
        game = load_game(self.game)
        columns = self.columns if self.columns is not None else _game_columns(self.game)
        tables = {
            name: (df if "cell" in df else df.assign(cell=np.int16(0)))
            for name, df in tables.items()
            if df is not None
        }
        games = tables.get("games")
        if games is not None and len(games):
            check_games_table(games, columns, f"game {self.game!r}")
            tables["games"] = with_adjusted(game.derive(games))
        return game, columns, tables

    def _games(self, g: pd.DataFrame, columns: tuple[Column, ...]) -> list:
        """The generic rows of a games table as :class:`Part` objects, column by column."""
        t = Table(g)
        metrics = metric_columns(g, columns)
        by_strategy = [c.name for c in columns if c.kind == "metric" and (c.part or c.by_strategy)]
        core = [m for m in metrics if m in CORE or m in by_strategy]
        treated = ["treated"] if "treated" in g else []
        fam = Family(t, ["seat", "strategy", *treated], metrics)
        parts = [
            fam.part("all", [], metrics),
            fam.part("seat", ["seat"], metrics),
            fam.part("strategy", ["strategy"], core),
            fam.part("seat_strategy", ["seat", "strategy"], list(CORE)),
            grouped(t, "score_hist", ["score"], None),
            grouped(t, "turns_hist", ["game_turns"], None, rows=t.floats("seat") == 0),
        ]
        if treated:
            parts.append(fam.part("treated", [], metrics, only=("treated", "1")))
            parts.append(fam.part("untreated", [], metrics, only=("treated", "0")))
        if ADJUSTED[0] in g:
            parts.append(grouped(t, "luck", ["seat"], list(ADJUSTED)))
        level = _game_level_part(t, columns)
        paired = self.pairs or self.sweep_pairs
        game_level = _game_level(g, columns) if level is None or paired else None
        if level is None:
            level = moments(game_level, "game", [], _level_metrics(game_level))
        parts.append(level)
        parts.extend(self._pairs(g, game_level, columns))
        return parts

    def _pairs(self, g: pd.DataFrame, game_level, columns: tuple[Column, ...]) -> list:
        """The ``paired`` rows of every comparison (none without pairs)."""
        parts = []
        parts_cols = [c.name for c in columns if c.part and c.name in g]
        uptake = [c for c in self.uptake if c in g]
        extra = [c for c in self.paired_metrics if c in g and c not in ("win", "score")]
        for a, b in self.pairs:
            parts.extend(_paired(g, game_level, a, b, parts_cols, extra))
            if "treated" in g:
                arm = a if self.uptake_arm == "a" else b
                parts.extend(_paired_treated(g, a, b, parts_cols, uptake, arm))
        for a, b in self.sweep_pairs:
            parts.extend(_paired(g, game_level, a, b, parts_cols, extra))
        return parts


def _level_metrics(game_level: pd.DataFrame) -> list[str]:
    """The metrics of :func:`_game_level`'s table (every column but its keys)."""
    return [c for c in game_level if c not in ("cell", "game")]


def _paired(
    g: pd.DataFrame,
    game_level: pd.DataFrame,
    a: int,
    b: int,
    parts: list[str],
    extra: list[str] = (),
) -> list[pd.DataFrame]:
    """Moments of the paired differences ``b - a`` (same game index, same seat):
    win and score seat by seat and over all seats, the score ``parts`` over all
    seats, the ``extra`` metrics both ways, and the game-level columns per game."""
    by_seat = ["win", "score", *extra]
    seat_cols = [*dict.fromkeys(["win", "score", *parts, *extra])]
    ga = g[g["cell"] == a].set_index(["game", "seat"])[seat_cols]
    gb = g[g["cell"] == b].set_index(["game", "seat"])[seat_cols]
    da = ga.add_suffix("_a").join(gb.add_suffix("_b"), how="inner")
    out = []
    if len(da):
        diff = pd.DataFrame(
            {c: da[f"{c}_b"].astype("float64") - da[f"{c}_a"].astype("float64") for c in seat_cols}
        )
        diff["cell"] = b
        diff["key"] = "seat=" + diff.index.get_level_values("seat").astype(str)
        out.append(moments(diff.reset_index(drop=True), "paired", ["key"], by_seat))
        diff["key"] = "all seats"
        out.append(moments(diff.reset_index(drop=True), "paired", ["key"], seat_cols))
        out += _paired_by_strategy(g, a, b, diff)
    la = game_level[game_level["cell"] == a].set_index("game").drop(columns="cell")
    lb = game_level[game_level["cell"] == b].set_index("game").drop(columns="cell")
    both = la.add_suffix("_a").join(lb.add_suffix("_b"), how="inner")
    if len(both):
        cols = list(la.columns)
        diff = pd.DataFrame({c: both[f"{c}_b"] - both[f"{c}_a"] for c in cols})
        diff["cell"] = b
        diff["key"] = "game"
        out.append(moments(diff.reset_index(drop=True), "paired", ["key"], cols))
    return out


def _paired_by_strategy(g: pd.DataFrame, a: int, b: int, diff: pd.DataFrame) -> list:
    """Moments of the paired differences of win and score of each strategy, key
    ``strategy=<name>``: over the seat-games where the same strategy sits in the
    same seat of the same game in both variants (a variant that changes the rules
    keeps the line-up, so these are all of the strategy's seat-games)."""
    if "strategy" not in g:
        return []
    sa = g[g["cell"] == a].set_index(["game", "seat"])["strategy"].astype(str)
    sb = g[g["cell"] == b].set_index(["game", "seat"])["strategy"].astype(str)
    both = pd.DataFrame({"a": sa}).join(pd.DataFrame({"b": sb}), how="inner")
    both = both.reindex(diff.index)
    same = (both["a"] == both["b"]).to_numpy()
    if not same.any():
        return []
    sub = diff.loc[same, ["win", "score", "cell"]].reset_index(drop=True)
    sub["key"] = ("strategy=" + both["a"][same]).to_numpy()
    return [moments(sub, "paired", ["key"], ["win", "score"])]


def _paired_treated(
    g: pd.DataFrame, a: int, b: int, parts: list[str], uptake: list[str], arm: int
) -> list[pd.DataFrame]:
    """Moments of ``b - a`` over the seats an intervention applies to (``treated``)
    and over the others, with the treated seats' uptake in cell ``arm``."""
    seat_cols = ["win", "score", *parts]
    cols = [*seat_cols, "treated", *uptake]
    ga = g[g["cell"] == a].set_index(["game", "seat"])[cols]
    gb = g[g["cell"] == b].set_index(["game", "seat"])[cols]
    both = ga.add_suffix("_a").join(gb.add_suffix("_b"), how="inner")
    if not len(both):
        return []
    diff = pd.DataFrame(
        {c: both[f"{c}_b"].astype("float64") - both[f"{c}_a"].astype("float64") for c in seat_cols}
    )
    diff["cell"] = b
    treated = both["treated_b"].to_numpy() == 1
    out = []
    for key, mask in (("treated seats", treated), ("other seats", ~treated)):
        sub = diff[mask].reset_index(drop=True)
        if not len(sub):
            continue
        metrics = list(seat_cols)
        if key == "treated seats" and uptake:
            suffix = "_a" if arm == a else "_b"
            used = both.loc[mask, [f"{c}{suffix}" for c in uptake]].sum(axis=1).clip(upper=1)
            sub["uptake"] = used.to_numpy(np.float64)
            sub["win_x_uptake"] = sub["win"] * sub["uptake"]
            sub["score_x_uptake"] = sub["score"] * sub["uptake"]
            metrics += ["uptake", "win_x_uptake", "score_x_uptake"]
        sub["key"] = key
        out.append(moments(sub, "paired", ["key"], metrics))
    return out


#: per-game metrics every game has (:func:`_game_level`), besides its ``game_mean`` columns
GAME_METRICS = ("game_turns", "mean_score", "shared_win")


def metric_scopes(columns) -> dict[str, str]:
    """Every metric a comparison can report, with its scope: ``"seat"`` (one value
    per seat of a game: ``win``, ``score`` and the game's declared metrics) or
    ``"game"`` (one value per game: length, mean score, shared wins and the
    game's ``game_mean`` columns). ``columns``: the run's declared columns
    (:class:`~analyzer.games.Column` or their manifest dicts)."""
    out = {"win": "seat", "score": "seat"}
    out.update(dict.fromkeys(GAME_METRICS, "game"))
    for c in columns or ():
        d = c if isinstance(c, dict) else c.as_dict()
        if d.get("kind", "metric") == "metric":
            out.setdefault(d["name"], "seat")
        if d.get("game_mean"):
            out[d["game_mean"]] = "game"
    return out


def paired_metrics(info: dict) -> tuple[str, ...]:
    """The per-seat metrics a run's ``variant_effect`` questions ask for besides win
    and score (:attr:`Reducer.paired_metrics`): read from its manifest."""
    scopes = metric_scopes(run_columns(info))
    asked = []
    for q in (info.get("scenario") or {}).get("questions") or []:
        m = (q.get("params") or {}).get("metric")
        if q.get("id") == "variant_effect" and m not in (None, "win", "score"):
            if scopes.get(m) == "seat" and m not in asked:
                asked.append(m)
    return tuple(asked)
