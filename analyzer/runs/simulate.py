"""``analyzer simulate`` on the one driver: win rate and mean score by seat and strategy.

:func:`simulate_games` builds a one-configuration scenario for any registered
game and runs it through :func:`analyzer.runs.driver.run_scenario`, the driver
``analyzer run`` uses too, so both sum games the same way
(:class:`analyzer.tables.aggregate.Reducer`). :func:`summary_table` reads the seat and
strategy rows of that aggregate as estimates with 95% intervals (Wilson for win
rates, normal for mean scores).

Strategy rows pool every seat that played the strategy. Seats of one game are
not independent (their wins sum to one), so when several seats share a strategy
its interval is only approximate; seat rows have one observation per game.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.core.errors import EnvironmentFailure, InputError, bad_value
from analyzer.games import DEFAULT_GAME, load_game
from analyzer.runs.options import GAMES_ALLOWED, MAX_GAMES

if TYPE_CHECKING:  # pandas and the runner come once the input is checked (fast answers)
    import pandas as pd

    from analyzer.runs.options import RunResult

#: most games per batch (a scenario's ``[output] batch_size`` has the same bound)
MAX_BATCH = 1_000_000
BATCH_ALLOWED = f"an integer from 1 to {MAX_BATCH:,}"


def summary_table(aggregate: pd.DataFrame, level: float = 0.95, cell: int = 0) -> pd.DataFrame:
    """Estimates of one cell of a summed aggregate: one row per seat, then per strategy.

    Columns: ``by``, ``group``, ``n``, ``win_rate``, ``win_low``, ``win_high``
    (Wilson), ``mean_score``, ``score_low``, ``score_high`` (normal interval from
    the moments). Seats are in seat order, strategies in name order.
    """
    from analyzer.core import stats
    from analyzer.tables.aggregate import group_lists

    rows = []
    for by in ("seat", "strategy"):
        block = group_lists(aggregate, by)
        # (key, metric) -> (n, sum, sumsq) of the cell, read once (no frame per group)
        moments = {
            (key, metric): values
            for c, key, metric, *values in zip(
                block["cell"],
                block["key"],
                block["metric"],
                block["n"],
                block["sum"],
                block["sumsq"],
                strict=True,
            )
            if c == cell
        }
        groups = sorted({key for key, _ in moments}, key=int if by == "seat" else str)
        for group in groups:
            n_win, wins, _ = moments[group, "win"]
            n = int(n_win)
            wins = float(wins)
            low, high = stats.wilson(wins, n, level)
            _, score_sum, score_sumsq = moments[group, "score"]
            mean, s_low, s_high = stats.mean_ci_from_moments(
                n, float(score_sum), float(score_sumsq), level
            )
            rows.append(
                {
                    "by": by,
                    "group": group,
                    "n": n,
                    "win_rate": wins / n if n else math.nan,
                    "win_low": low,
                    "win_high": high,
                    "mean_score": mean,
                    "score_low": s_low,
                    "score_high": s_high,
                }
            )
    import pandas as pd

    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- simulate


@dataclass
class Simulation:
    """What :func:`simulate_games` returns: the run, its estimates, and what was asked."""

    result: RunResult
    table: pd.DataFrame
    players: int
    strategies: tuple[str, ...]
    seed: int
    edition: str
    rules_version: str
    out: Path | None
    games: pd.DataFrame | None = None  #: per-game table (core and declared columns)
    claims: pd.DataFrame | None = None  #: the game's claims table, if asked for
    game: str = DEFAULT_GAME
    strategies_version: str = ""


def parse_strategies(
    values: list[str] | tuple[str, ...], players: int, allowed, default: str | None = None
) -> tuple:
    """Strategies per seat from repeated and/or comma-separated names.

    One name is used for every seat; otherwise there must be one per seat. No
    name: ``default`` (else ``balanced`` if allowed, else the first allowed).
    """
    names = [s.strip() for v in values for s in str(v).split(",") if s.strip()]
    if not names:
        if default is None:
            default = "balanced" if "balanced" in allowed else allowed[0]
        names = [default]
    for name in names:
        if name not in allowed:
            raise bad_value("--strategy", name, ", ".join(allowed))
    if len(names) == 1:
        return tuple(names) * players
    if len(names) != players:
        raise InputError(
            f"--strategy: got {len(names)} strategies for {players} players "
            "(allowed: one for all seats, or one per seat)"
        )
    return tuple(names)


def check_out_path(out: Path | str | None) -> Path | None:
    """Fail early (before a long run) if ``out`` cannot be written."""
    if out is None:
        return None
    path = Path(out)
    if path.suffix.lower() != ".parquet":
        raise bad_value("--out", str(path), "a file name ending in .parquet")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise bad_value("--out", str(path), "a file in an existing directory")
    if path.is_dir():
        raise EnvironmentFailure(f"--out: {path} is a directory (allowed: a .parquet file name)")
    if not os.access(parent, os.W_OK):
        raise EnvironmentFailure(
            f"--out: cannot write in {parent} (permission denied; allowed: a file in a "
            "writable directory)"
        )
    return path


def simulate_games(
    players: int,
    strategies: list[str] | tuple[str, ...] | str,
    games: int,
    seed: int | None,
    *,
    game: str = DEFAULT_GAME,
    edition: str | None = None,
    rulings: dict | None = None,
    overrides: dict | None = None,
    out: Path | str | None = None,
    batch_size: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    checkpoint_dir: Path | str | None = None,
    resume: bool = False,
    precision: float | None = None,
    max_games: int | None = None,
    progress: bool = True,
    keep_tables: bool = False,
    claims: bool = False,
    strategy_params: dict | None = None,
    first_game: int = 0,
    forbid: dict | None = None,
    luck: bool | None = None,
) -> Simulation:
    """Play games of one configuration with the one driver and summarise them.

    The library side of ``analyzer simulate`` and :func:`analyzer.simulate`.
    Only the aggregate is kept unless ``out`` is given (the per-game table is
    then written there atomically as Parquet) or ``keep_tables`` is set.
    Raises :class:`InputError` for bad arguments (before any game is played).
    """
    from analyzer.runs.scenario_file import Scenario

    g = load_game(game)
    where = "--rule" if rulings else "--override" if overrides else "rules"
    rulings = dict(rulings or {})
    if edition is not None:
        rulings["edition"] = edition
        where = "--edition"
    rules = g.load_rules(rulings, dict(overrides or {}), where)
    lo, hi = g.player_range(rules)
    players, games, first_game = (_plain_int(x) for x in (players, games, first_game))
    if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
        raise bad_value("--players", players, f"{lo} to {hi}")
    if isinstance(strategies, str):
        strategies = [strategies]
    per_seat = parse_strategies(strategies, players, g.strategy_names(), g.default_strategy)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise bad_value("--games", games, GAMES_ALLOWED)
    if isinstance(first_game, bool) or not isinstance(first_game, int) or first_game < 0:
        raise bad_value("first_game", first_game, "a non-negative integer")
    batch_size = _plain_int(batch_size)  # None: the game's (Game.batch_size)
    is_count = isinstance(batch_size, int) and not isinstance(batch_size, bool)
    if batch_size is not None and not (is_count and 1 <= batch_size <= MAX_BATCH):
        raise bad_value("--batch-size", batch_size, BATCH_ALLOWED)
    path = check_out_path(out)
    intervention = None
    if forbid is not None:
        from analyzer.runs.scenario_file import _forbid

        intervention = _forbid(g, forbid, "analyzer.simulate", "forbid", players)
    sc = Scenario(
        path="simulate",
        name="simulate",
        description="",
        players=players,
        games=games,
        seed=seed,
        strategies=per_seat,
        lineup=None,
        rotation="all",
        rulings=rulings,
        overrides=dict(overrides or {}),
        claims=claims,
        luck=None if luck is None else bool(luck),
        save_tables=path is not None or keep_tables,
        batch_size=batch_size,
        game=game,
        strategy_params=dict(strategy_params or {}),
        forbid=intervention,
    )
    from analyzer.runs.options import RunOptions, check_options

    check_options(  # the runner's options, answered before the engine and pandas load
        RunOptions(
            games=games,
            seed=0,
            batch_size=batch_size or 1,
            workers=workers,
            scheduler=scheduler,
            checkpoint_dir=Path(checkpoint_dir) if checkpoint_dir is not None else None,
            resume=resume,
            precision=precision,
            max_games=max_games,
        )
    )
    from analyzer.runs.driver import run_scenario

    run = run_scenario(
        sc,
        workers=workers,
        progress=progress,
        scheduler=scheduler,
        checkpoint_dir=checkpoint_dir,
        resume=resume,
        precision=precision,
        max_games=max_games,
        headline="widest_seat",
        exact=False,
        first_game=first_game,
    )
    tables = {name: _plain(df) for name, df in run.tables.items()}
    if path is not None:
        from analyzer.core.outputs import write_parquet_atomic

        write_parquet_atomic(tables["games"], path)
    return Simulation(
        result=run.result,
        table=summary_table(run.aggregate),
        players=players,
        strategies=per_seat,
        seed=run.info["seed"],
        edition=rulings.get("edition", "english"),
        rules_version=g.rules_version,
        strategies_version=g.strategies_version,
        out=path,
        games=tables.get("games"),
        claims=tables.get("claims"),
        game=game,
    )


def _plain_int(x):
    """A numpy integer as an int (the Python API takes both); anything else as it is
    (numpy's integers are :class:`numbers.Integral`: told apart without importing numpy)."""
    import numbers

    return int(x) if isinstance(x, numbers.Integral) and not isinstance(x, bool) else x


def _plain(df: pd.DataFrame) -> pd.DataFrame:
    """A one-configuration table without the scenario's ``cell``/``order`` columns."""
    return df.drop(columns=[c for c in ("cell", "order") if c in df])
