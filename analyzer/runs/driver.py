"""The one driver: plays a scenario and returns its tables and manifest.

:func:`run_scenario` is behind ``analyzer run``, ``analyzer simulate``,
:func:`analyzer.simulate` and :func:`analyzer.run`, and the studies
(``analyzer ladder``, ``analyzer tune`` and a scenario's ``[ladder]``/``[tune]``)
play their games through it. It takes a validated scenario
(:mod:`analyzer.runs.scenario_file`), builds the batch function of its cells
(:class:`ScenarioJob`), runs it with :func:`analyzer.runs.runner.run` and writes the
manifest (the ``info`` dicts below).

Layering: the driver sits above the file format and below the studies; it
never imports :mod:`analyzer.studies.sections`, :mod:`analyzer.studies.ratings` or
:mod:`analyzer.studies.tuning`. Whoever plays a scenario's ``[ladder]``/``[tune]``
(``analyzer run``: :func:`analyzer.report.run_and_report`) calls the driver,
then :func:`analyzer.studies.sections.run_sections` (``tests/test_layering.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer.core.errors import InputError, bad_value
from analyzer.core.fingerprint import repr_without_defaults
from analyzer.core.frames import column_arrays
from analyzer.games import Game, merge_columns
from analyzer.runs.scenario_file import (
    SLOW_BATCH,
    Cell,
    Scenario,
    cell_limits,
    comparison_pairs,
    expand,
    plan_games,
    sweep_pairs,
)


@dataclass(frozen=True, repr=False)
class ScenarioJob:
    """Batch function over every cell and seat order of a scenario (picklable).

    ``jobs[c][k]`` plays cell ``c`` in seat order ``k``. Game indices
    ``[k*per_order, (k+1)*per_order)`` belong to order ``k`` (``per_cell[c]``
    instead of ``per_order`` when given: cells of several fields may have
    different numbers of seat orders); every cell plays the same indices
    (common random numbers between cells). Returns the engine's tables for the
    games ``start .. start+count-1`` of every cell, with two columns added in
    front: ``cell`` (int16) and ``order`` (int16); with ``treated`` (the seats
    an intervention applies to, ``treated[c][k]``) the games table also gets
    ``treated`` (int8: 1 for those seats). Draws random numbers only through
    the jobs (deterministic in start, count).
    """

    jobs: tuple[tuple[Any, ...], ...]
    per_order: int
    first_game: int = 0  #: engine game index of the run's game 0
    per_cell: tuple[int, ...] = ()
    treated: tuple[tuple[tuple[int, ...], ...], ...] = ()
    #: per cell, the game indices it plays (``[0, limit)``): a field of fewer games
    #: (``[fields.<key>] games``) stops early; () every cell plays every index
    limits: tuple[int, ...] = ()

    def __repr__(self) -> str:  # the checkpoint fingerprint: as before unless used
        return repr_without_defaults(self, ("per_cell", "treated", "limits"))

    def __call__(self, start: int, count: int) -> dict[str, pd.DataFrame]:
        parts: dict[str, list[pd.DataFrame]] = {}
        for c, cell_jobs in enumerate(self.jobs):
            per = self.per_cell[c] if self.per_cell else self.per_order
            g, end = start, start + count
            if self.limits:
                end = min(end, self.limits[c])
            while g < end:
                k = g // per
                stop = min(end, (k + 1) * per)
                out = cell_jobs[k](g + self.first_game, stop - g)
                for name, df in out.items():
                    treated = self.treated[c][k] if self.treated and name == "games" else None
                    parts.setdefault(name, []).append(_with_cell(df, c, k, treated))
                g = stop
        from analyzer.runs.runner import concat_tables

        return {
            name: dfs[0] if len(dfs) == 1 else concat_tables(dfs) for name, dfs in parts.items()
        }

    @property
    def games_per_index(self) -> int:
        """Games played per game index: one in every cell."""
        return len(self.jobs)

    def games_at(self, indices: int) -> int:
        """Games played by the first ``indices`` game indices, over every cell (a
        field with games of its own plays only the first of them)."""
        return _games_total(indices, len(self.jobs), self.limits)

    def warm_up(self) -> None:
        """Compile (or load) the engine's kernels once in this process."""
        for cell_jobs in self.jobs:
            for job in cell_jobs:
                warm = getattr(job, "warm_up", None)
                if callable(warm):
                    warm()
                    return


def _with_cell(df: pd.DataFrame, cell: int, order: int, treated=None) -> pd.DataFrame:
    """``df`` with the columns ``cell`` and ``order`` (int16) in front, then, if
    ``treated`` (seats) is given, ``treated`` (int8: 1 for those seats): one new
    frame over ``df``'s own arrays (no copy), the frame :func:`_with_cell_pandas`
    makes (a shallow copy and two inserts, ~0.7 ms a batch)."""
    front = {
        "cell": np.full(len(df), cell, np.int16),
        "order": np.full(len(df), order, np.int16),
    }
    if treated is not None:
        front["treated"] = np.isin(df["seat"].to_numpy(), treated).astype(np.int8)
    cols = column_arrays(df)
    if df.attrs or len(cols) != len(df.columns) or front.keys() & cols.keys():
        return _with_cell_pandas(df, cell, order, treated)  # (repeated or clashing names)
    return pd.DataFrame({**front, **cols}, index=df.index, copy=False)


def _with_cell_pandas(df: pd.DataFrame, cell: int, order: int, treated=None) -> pd.DataFrame:
    """:func:`_with_cell` with pandas' ``insert`` (the twin the tests compare it with)."""
    df = df.copy(deep=False)  # the columns below are the copy's own
    if treated is not None:
        mark = np.isin(df["seat"].to_numpy(), treated)
        df.insert(0, "treated", pd.Series(mark, index=df.index, dtype="int8"))
    df.insert(0, "order", pd.Series(order, index=df.index, dtype="int16"))
    df.insert(0, "cell", pd.Series(cell, index=df.index, dtype="int16"))
    return df


def _takes_luck(game) -> bool:
    """Whether ``game.make_job`` takes ``luck`` (a game with luck terms)."""
    import inspect

    return "luck" in inspect.signature(game.make_job).parameters


def scenario_job(sc: Scenario, cells: list[Cell], seed: int) -> ScenarioJob:
    """The batch function for a resolved scenario (``seed`` already resolved)."""
    game = sc.game_def

    def make(cell: Cell, k: int, order):
        extra = {}
        if sc.luck is not None and _takes_luck(game):
            extra["luck"] = sc.luck
        if cell.forbid and cell.treated[k]:
            extra["forbid"] = {seat: dict(cell.forbid) for seat in cell.treated[k]}
        return game.make_job(
            cell.players,
            order,
            seed,
            cell.rules,
            claims=sc.claims,
            strategy_params=cell.strategy_params or None,
            **extra,
        )

    jobs = tuple(
        tuple(make(cell, k, order) for k, order in enumerate(cell.orders)) for cell in cells
    )
    _, per_cell = plan_games(sc, cells)
    treated = tuple(cell.treated for cell in cells) if sc.intervention is not None else ()
    uniform = len(set(per_cell)) == 1
    return ScenarioJob(
        jobs=jobs,
        per_order=per_cell[0],
        per_cell=() if uniform else per_cell,
        treated=treated,
        limits=cell_limits(sc, cells),
    )


@dataclass
class ScenarioRun:
    """What :func:`run_scenario` returns: everything a report needs."""

    info: dict  #: the manifest (scenario as resolved, seed, versions, cells, timing)
    aggregate: pd.DataFrame  #: summed partials (:mod:`analyzer.tables.aggregate`)
    tables: dict[str, pd.DataFrame]  #: per-game tables; {} for aggregate-only runs
    extra: dict[str, pd.DataFrame]  #: tables computed without simulation (exact odds)
    result: Any = None  #: the runner's :class:`~analyzer.runs.runner.RunResult`

    @property
    def games(self) -> pd.DataFrame | None:
        """The per-game table (one row per game and seat), or None for aggregate-only runs."""
        return self.tables.get("games")

    def report_tables(self) -> dict[str, pd.DataFrame]:
        """Every report table (estimates with 95% intervals), as ``analyzer run`` writes them."""
        from analyzer.tables.aggregate import build_tables

        return build_tables(self.aggregate, self.info)

    def findings(self):
        """Page 1's questions and their findings, ranked, Holm-corrected
        (:class:`analyzer.tables.finding.Findings`; ``.for_question(i)``)."""
        from analyzer.tables.findings import answer

        return answer(self.report_tables(), self.info)

    def _what(self) -> str:
        info = self.info
        name = (info.get("scenario") or {}).get("name", "?")
        cells = len(info.get("cells") or [])
        configs = f"{cells} configurations, " if cells > 1 else ""
        games = info.get("games_total", info.get("games", 0))
        return (
            f"{name!r}: {info.get('game_title', info.get('game', '?'))}, {configs}"
            f"{games:,} games, seed {info.get('seed')}"
        )

    def __repr__(self) -> str:
        return f"<ScenarioRun {self._what()}; .games, .report_tables(), .findings(), .info>"

    def _repr_html_(self) -> str:
        """For a notebook: what was played, then each question of page 1 with its
        first findings in words (significant ones marked)."""
        import html

        try:
            found = self.findings()
        except Exception as err:  # a notebook's view must not fail: say why instead
            detail = html.escape(f"{type(err).__name__}: {err}")
            return f"<p><b>ScenarioRun</b> {html.escape(self._what())}</p><p>({detail})</p>"
        parts = [f"<p><b>ScenarioRun</b> {html.escape(self._what())}</p>"]
        for i, q in enumerate(found.questions):
            parts.append(f"<p><b>{html.escape(q['text'])}</b></p><ul>")
            for f in found.for_question(i)[: found.page_per_question]:
                mark = "★ " if f.significant else ""
                parts.append(f"<li>{mark}{html.escape(f.text)}</li>")
            parts.append("</ul>")
        parts.append(
            "<p><small>★ significant after Holm's correction; .findings() has them all</small></p>"
        )
        return "".join(parts)


def run_batch_size(given: int | None, game, cells) -> int:
    """Games per batch of a run: ``given`` (the run's, or its checkpoint's), else
    SLOW_BATCH when a slow strategy (a search: a game a second) plays, so progress
    and checkpoints keep coming, else the game's (:attr:`Game.batch_size`)."""
    if given is not None:
        return given
    slow = {s.name for s in game.strategies if s.slow}
    if slow & {x for c in cells for order in c.orders for x in order}:
        return SLOW_BATCH
    return game.batch_size


def run_scenario(
    sc: Scenario,
    *,
    workers: int | None = None,
    progress: bool = True,
    scheduler: str | None = None,
    checkpoint_dir: Path | str | None = None,
    resume: bool = False,
    precision: float | None = None,
    max_games: int | None = None,
    headline: str = "first_player",
    exact: bool = True,
    first_game: int = 0,
) -> ScenarioRun:
    """Simulate every cell of ``sc`` with :func:`analyzer.runs.runner.run`: the one
    driver behind ``analyzer run``, ``analyzer simulate`` and the Python API.

    Resolves the seed (fresh entropy if the scenario has none; recorded), plays
    ``games`` games per cell (rounded up to equal games per seat order) and
    returns the aggregate, the per-game tables (unless ``output.save_tables`` is
    false) and the manifest. ``scheduler``, ``checkpoint_dir``/``resume``,
    ``precision``/``max_games`` are the runner's (see ``docs/scale.md``); the
    precision target is judged on ``headline``: ``"first_player"`` (seat 0's win
    rate in cell 0) or ``"widest_seat"`` (the seat win rate of cell 0 with the
    widest interval). ``exact=False`` skips the game's exact tables.
    ``first_game`` shifts the engine's game indices (game ``g`` of the run plays
    the engine's game ``first_game + g``).
    """
    import datetime

    from analyzer._version import __version__
    from analyzer.core.seeding import resolve_seed
    from analyzer.games import describe_columns
    from analyzer.runs.options import DEFAULT_CAP_FACTOR, RunOptions, check_options

    heads = ("first_player", "widest_seat")
    if headline not in heads:
        raise bad_value("headline", headline, ", ".join(heads))
    if not sc.plays_games:
        raise InputError(
            f"{sc.path}: no games of its own to play, only [ladder]/[tune] "
            "(allowed: 'analyzer run' plays those sections)"
        )
    game = sc.game_def
    if isinstance(first_game, bool) or not isinstance(first_game, int | np.integer):
        raise bad_value("first_game", first_game, "a non-negative integer")
    if first_game < 0:
        raise bad_value("first_game", first_game, "a non-negative integer")
    if resume and sc.seed is None and checkpoint_dir is not None:
        # resuming without --seed continues the saved run with its own seed
        from analyzer.runs.runner import checkpoint_seed

        sc = replace(sc, seed=checkpoint_seed(Path(checkpoint_dir)))
    given_batch = sc.batch_size
    if given_batch is None and resume and checkpoint_dir is not None:
        # resuming without a batch size continues the saved run's batches, whatever
        # the game's default is now
        from analyzer.runs.runner import checkpoint_batch_size

        given_batch = checkpoint_batch_size(Path(checkpoint_dir))
    seed = resolve_seed(sc.seed)
    sc = replace(sc, seed=seed, batch_size=given_batch or game.batch_size)
    cells = expand(sc)
    games, per_cell = plan_games(sc, cells)
    batch_size = run_batch_size(given_batch, game, cells)
    options = RunOptions(
        games=games,
        seed=seed,
        batch_size=batch_size if precision is not None else min(batch_size, games),
        workers=workers,
        scheduler=scheduler,
        checkpoint_dir=Path(checkpoint_dir) if checkpoint_dir is not None else None,
        resume=resume,
        precision=precision,
        max_games=max_games,
        keep_tables=sc.save_tables,
        progress=progress,
    )
    check_options(options)  # bad options answered before any engine is loaded
    from analyzer.runs.runner import run
    from analyzer.tables.aggregate import (
        Reducer,
        paired_metrics,
    )

    per_order = per_cell[0]
    n_orders = max(len(c.orders) for c in cells)
    job = replace(scenario_job(sc, cells, seed), first_game=int(first_game))
    if precision is not None and any(f.games for f in sc.fields):
        raise InputError(
            "precision: not with a field of its own games ([fields.<key>] games); "
            "give games instead"
        )
    if precision is not None:
        # the runner may play up to the cap: the one seat order's block must hold it
        if n_orders > 1:
            raise InputError(
                "precision: not with a line-up played in several seat orders "
                "(every order plays its share; give games instead)"
            )
        cap = max_games if isinstance(max_games, int) and max_games > 0 else None
        job = replace(job, per_order=max(games, cap or DEFAULT_CAP_FACTOR * games), per_cell=())
    pairs = comparison_pairs(sc, cells)
    columns = merge_columns([game.columns(c.rules) for c in cells])
    intervention = intervention_info(sc, game)
    info = {
        "game": game.name,
        "game_title": game.title,
        "scenario": sc.as_dict(),
        "seed": seed,
        "analyzer_version": __version__,
        "rules_version": game.rules_version,
        "strategies_version": game.strategies_version,
        "rules": game.describe_rules(cells[0].rules),
        "cells": [c.describe() for c in cells],
        "pairs": [list(p) for p in pairs],
        "sweep": [a.param for a in sc.sweep],
        "games": games,
        "games_per_order": per_order,
        "games_total": _games_total(games, len(cells), job.limits),
        "columns": describe_columns(columns),
        "labels": game.labels(cells[0].rules),
        "assumed": _assumed_of_cells(game, cells),
        "strategy_rows": strategy_rows(game, sc),
        **game.info(cells[0].rules),
        "tables_saved": sc.save_tables,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    if sc.fields:
        info["fields"] = fields_info(sc, cells, per_cell)
    if intervention is not None:
        info["intervention"] = intervention
    reducer = Reducer(
        pairs,
        game=game.name,
        columns=columns,
        paired_metrics=paired_metrics(info),
        sweep_pairs=sweep_pairs(sc, cells),
        **reducer_uptake(intervention),
    )
    if resume and checkpoint_dir is not None:
        reducer = _as_checkpointed(reducer, Path(checkpoint_dir))
    info["sweep_pairs"] = [list(p) for p in reducer.sweep_pairs]
    from analyzer.kernels.compiled import compile_note, record_seconds

    note = compile_note(game.name, game.title, _package(game)) if progress else None
    result = run(job, options, reducer, headline=_headline_fn(headline), compile_note=note)
    if result.compile_seconds:  # the next announcement says this machine's time
        record_seconds(game.name, result.compile_seconds)
    total = _games_total(result.games, len(cells), job.limits)
    info.update(
        {
            "games": result.games,
            "games_total": total,
            "batches": result.batches,
            "seconds": round(result.seconds, 3),
            "games_per_second": (
                round(result.games_per_second * len(cells), 1) if result.seconds > 0 else None
            ),
            "stopped_by": result.stopped_by,
            "workers": workers,
        }
    )
    if result.compile_seconds:
        info["compile_seconds"] = round(result.compile_seconds, 3)
    extra = game.exact_tables(cells) if exact else {}
    info["extra_tables"] = sorted(extra)
    return ScenarioRun(
        info=info,
        aggregate=result.aggregate,
        tables=result.tables,
        extra=extra,
        result=result,
    )


def _as_checkpointed(reducer, directory: Path):
    """``reducer`` as the checkpoint in ``directory`` was written: without a sweep's
    pairs if it was written before sweeps were paired (its batches hold none, so
    the resumed run keeps the independent intervals and resumes as it was)."""
    from analyzer.runs.checkpoint import checkpoint_reducer, fingerprint

    if reducer.sweep_pairs:
        before = replace(reducer, sweep_pairs=())
        if checkpoint_reducer(directory) == fingerprint(before):
            return before
    return reducer


def _package(game) -> str:
    """The package of ``game``'s folder (``analyzer.unearth``)."""
    return getattr(game, "package", "") or type(game).__module__.rpartition(".")[0]


def _headline_fn(name: str):
    """The runner's headline function called ``name`` (``first_player``, ``widest_seat``)."""
    from analyzer.tables.aggregate import first_player_headline, widest_seat_headline

    return {"first_player": first_player_headline, "widest_seat": widest_seat_headline}[name]


def _assumed_of_cells(game, cells) -> list[dict]:
    """The assumed values of cell 0's rules, then those of other cells' rules whose
    keys cell 0 does not have (a variant that adds components, such as Colorful
    Treasure's action tiles, adds their assumed values)."""
    rows = list(game.assumed_values(cells[0].rules))
    seen = {r["key"] for r in rows}
    for cell in cells[1:]:
        for r in game.assumed_values(cell.rules):
            if r["key"] not in seen:
                seen.add(r["key"])
                rows.append(r)
    return rows


def intervention_info(sc: Scenario, game: Game) -> dict | None:
    """The manifest's ``intervention``: what is forbidden, to whom, in which variant,
    and the ``uptake`` columns (the treated seats used what is forbidden, read in
    the variant where it is allowed), or None without one."""
    iv = sc.intervention
    if iv is None:
        return None
    target, vkey = iv
    labels = {v.key: v.label for v in sc.compare or ()}
    uptake = [c for kind, ids in target.things for c in game.uptake_columns(kind, ids)]
    return {
        "forbid": target.as_dict(),
        "things": {kind: list(ids) for kind, ids in target.things},
        "target": target.target_text(),
        "each": target.seats == "each",
        "variant": vkey,
        "variant_label": labels.get(vkey) if vkey else None,
        # a variant's intervention is in a comparison of two: the other one allows it
        "allowed_variant": (
            next(v.key for v in sc.compare if v.key != vkey) if vkey and sc.compare else None
        ),
        "uptake": uptake,
        "words": list(game.intervention_words(target.things[0][0])),
    }


def reducer_uptake(intervention: dict | None) -> dict:
    """Keyword arguments of :class:`~analyzer.tables.aggregate.Reducer` for a run's intervention."""
    if not intervention or not intervention.get("variant") or not intervention.get("uptake"):
        return {}
    return {"uptake": tuple(intervention["uptake"]), "uptake_arm": intervention["allowed_variant"]}


def _games_total(games: int, cells: int, limits: tuple[int, ...]) -> int:
    """Games played over every cell: ``games`` each, fewer in a field of its own games."""
    if not limits:
        return games * cells
    return sum(min(games, x) for x in limits)


def _plays_slow(sc: Scenario, cells: list[Cell]) -> bool:
    """Does a seat of these cells play a slow strategy (a search: the strongest players)?"""
    slow = {s.name for s in sc.game_def.strategies if s.slow}
    return bool(slow & {x for c in cells for order in c.orders for x in order})


def fields_info(sc: Scenario, cells: list[Cell], per_cell: tuple[int, ...]) -> list[dict]:
    """The manifest's ``fields``: each field as given, with its cells and games per seat order."""
    out = []
    for f in sc.fields:
        mine = [c for c in cells if c.field_key == f.key]
        out.append(
            {
                **f.as_dict(),
                "cells": [c.index for c in mine],
                "orders": len(set(mine[0].orders)) if mine else 0,
                "games_per_order": per_cell[mine[0].index] if mine else 0,
                "games_played": (per_cell[mine[0].index] * len(mine[0].orders) if mine else 0),
                "strongest": _plays_slow(sc, mine),
                "strategy_params_played": {
                    k: dict(v) for k, v in (mine[0].strategy_params if mine else {}).items()
                },
            }
        )
    return out


def sections_only_info(sc: Scenario, workers: int | None = None) -> dict:
    """The manifest of a scenario with only ``[ladder]``/``[tune]`` (no games of its
    own), before they are played: the keys :func:`run_scenario` writes, with no
    configurations and no games; the seed resolved (fresh if the file has none)."""
    import datetime

    from analyzer._version import __version__
    from analyzer.core.seeding import resolve_seed
    from analyzer.games import describe_columns

    game = sc.game_def
    rules = game.load_rules(sc.rulings, sc.overrides, f"{sc.path}: rules")
    seed = resolve_seed(sc.seed)
    return {
        "game": game.name,
        "game_title": game.title,
        "scenario": replace(sc, seed=seed, batch_size=sc.batch_size or game.batch_size).as_dict(),
        "seed": seed,
        "analyzer_version": __version__,
        "rules_version": game.rules_version,
        "strategies_version": game.strategies_version,
        "rules": game.describe_rules(rules),
        "cells": [],
        "pairs": [],
        "sweep": [],
        "games": 0,
        "games_per_order": 0,
        "games_total": 0,
        "columns": describe_columns(game.columns(rules)),
        "labels": game.labels(rules),
        "assumed": game.assumed_values(rules),
        "strategy_rows": strategy_rows(game, sc),
        **game.info(rules),
        "tables_saved": False,
        "extra_tables": [],
        "seconds": 0.0,
        "games_per_second": None,
        "stopped_by": None,
        "workers": workers,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }


def strategy_rows(game: Game, sc: Scenario) -> list[dict]:
    """Every strategy of the game with its description and the parameters this run
    plays it with (the shipped values at the scenario's player count, with the
    scenario's ``[strategy_params]`` on top). A strategy whose shipped rows differ
    by player count also lists them all (``by_players``): a sweep over players
    plays each count's row."""
    rows = []
    for s in game.strategies:
        mine = sc.strategy_params.get(s.name, {})
        row = {
            "name": s.name,
            "description": s.description,
            "params": {**s.params_for(sc.players), **mine},
        }
        if s.by_players and len({tuple(p) for _, p in s.by_players}) > 1:
            row["by_players"] = {str(n): {**dict(p), **mine} for n, p in sorted(s.by_players)}
        rows.append(row)
    return rows
