"""Win rate and mean score by seat and by strategy, from per-game tables.

:func:`reduce_games` is the runner's reducer for a ``games`` table (one row per
game and seat with ``game``, ``seat``, ``strategy``, ``score``, ``win``; see
``docs/CONTRACTS.md``): it returns a partial aggregate of exact integer sums, so
partials add up to the same numbers however the games were split into batches.
:func:`summary_table` turns the summed aggregate into estimates with 95%
intervals (Wilson for win rates, normal for mean scores, via
:mod:`analyzer.stats`), and :func:`headline` picks the number the precision
target is judged on. :func:`simulate_games` is the library side of
``analyzer simulate``: it builds the Unearth game job and runs it.

Strategy rows pool every seat that played the strategy. Seats of one game are
not independent (their wins sum to one), so when several seats share a strategy
its interval is only approximate; seat rows have one observation per game.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.errors import AnalyzerError, InputError, bad_value
from analyzer.runner import Headline, RunOptions, RunResult, run, write_parquet_atomic

#: lcm(1..12): a shared win of 1/k (k <= 12) is an exact multiple of 1/WIN_SCALE,
#: so wins are summed as integers and the sum never depends on batch boundaries
WIN_SCALE = 27720

#: columns of a partial aggregate, all int64, indexed by (by, group)
AGGREGATE_COLUMNS = ("n", "wins_x", "score_sum", "score_sq")
_NEEDED = ("game", "seat", "strategy", "score", "win")


def reduce_games(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Partial aggregate of one batch's ``games`` table.

    Returns int64 columns ``n`` (seat-games), ``wins_x`` (wins times
    :data:`WIN_SCALE`), ``score_sum``, ``score_sq``, indexed by ``(by, group)``
    with ``by`` in ``{"games", "seat", "strategy"}`` (``group`` is the seat
    number or strategy name as text; the ``("games", "all")`` row counts games
    in ``n``). Draws no random numbers.
    """
    games = tables.get("games")
    if games is None:
        raise AnalyzerError("summary: the batch returned no 'games' table")
    missing = [c for c in _NEEDED if c not in games.columns]
    if missing:
        raise AnalyzerError(f"summary: games table lacks column {missing[0]!r}")
    win = games["win"].to_numpy(dtype=np.float64)
    scaled = win * WIN_SCALE
    wins_x = np.rint(scaled).astype(np.int64)
    if wins_x.size and np.abs(scaled - wins_x).max() > 1e-2:
        bad = win[np.argmax(np.abs(scaled - wins_x))]
        raise AnalyzerError(f"summary: win value {bad} is not a share 1/k with k <= 12")
    score = games["score"].to_numpy(dtype=np.int64)
    frame = pd.DataFrame(
        {
            "seat": games["seat"].to_numpy(dtype=np.int64),
            "strategy": games["strategy"].astype(str).to_numpy(dtype=object),
            "n": np.ones(len(games), dtype=np.int64),
            "wins_x": wins_x,
            "score_sum": score,
            "score_sq": score * score,
        }
    )
    parts = []
    for by in ("seat", "strategy"):
        grouped = frame.groupby(by, sort=True)[list(AGGREGATE_COLUMNS)].sum()
        grouped.index = pd.MultiIndex.from_arrays(
            [[by] * len(grouped), [str(k) for k in grouped.index]], names=["by", "group"]
        )
        parts.append(grouped)
    n_games = int(games["game"].nunique())
    parts.append(
        pd.DataFrame(
            {c: [n_games if c == "n" else 0] for c in AGGREGATE_COLUMNS},
            index=pd.MultiIndex.from_tuples([("games", "all")], names=["by", "group"]),
        )
    )
    return pd.concat(parts).astype(np.int64)


def summary_table(aggregate: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Estimates from a summed aggregate: one row per seat, then per strategy.

    Columns: ``by``, ``group``, ``n``, ``win_rate``, ``win_low``, ``win_high``
    (Wilson), ``mean_score``, ``score_low``, ``score_high`` (normal interval from
    the moments). Seats are in seat order, strategies in name order.
    """
    from analyzer import stats  # scipy: imported here, not in every worker process

    rows = []
    for by in ("seat", "strategy"):
        if by not in aggregate.index.get_level_values("by"):
            continue
        block = aggregate.xs(by, level="by")
        groups = sorted(block.index, key=int) if by == "seat" else sorted(block.index)
        for group in groups:
            r = block.loc[group]
            n = int(r["n"])
            wins = int(r["wins_x"]) / WIN_SCALE
            low, high = stats.wilson(wins, n, level)
            mean, s_low, s_high = stats.mean_ci_from_moments(
                n, float(r["score_sum"]), float(r["score_sq"]), level
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
    return pd.DataFrame(rows)


def headline(aggregate: pd.DataFrame) -> Headline:
    """The seat win rate with the widest 95% Wilson interval (ties: lowest seat).

    Judging precision on the widest seat interval means every seat's win rate
    is at least that precise when the run stops.
    """
    table = summary_table(aggregate)
    seats = table[table["by"] == "seat"]
    if seats.empty:
        return Headline("win rate", math.nan, 0.0, 1.0, 0.5)
    half = (seats["win_high"] - seats["win_low"]) / 2
    row = seats.loc[half.idxmax()]
    return Headline(
        label=f"seat {row['group']} win rate",
        value=float(row["win_rate"]),
        low=float(row["win_low"]),
        high=float(row["win_high"]),
        half_width=float((row["win_high"] - row["win_low"]) / 2),
    )


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


def parse_strategies(values: list[str] | tuple[str, ...], players: int, allowed) -> tuple:
    """Strategies per seat from repeated and/or comma-separated names.

    One name is used for every seat; otherwise there must be one per seat.
    """
    names = [s.strip() for v in values for s in str(v).split(",") if s.strip()]
    if not names:
        names = ["balanced"] if "balanced" in allowed else [allowed[0]]
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
    if not os.access(parent, os.W_OK):
        raise bad_value("--out", str(path), "a file in a writable directory")
    return path


def simulate_games(
    players: int,
    strategies: list[str] | tuple[str, ...],
    games: int,
    seed: int | None,
    *,
    edition: str = "english",
    out: Path | str | None = None,
    batch_size: int = 5000,
    workers: int | None = None,
    scheduler: str | None = None,
    checkpoint_dir: Path | str | None = None,
    resume: bool = False,
    precision: float | None = None,
    max_games: int | None = None,
    progress: bool = True,
) -> Simulation:
    """Play Unearth games with the batch runner and summarise them (``analyzer simulate``).

    Only the aggregate is kept unless ``out`` is given, in which case the
    per-game table is written there atomically as Parquet. Raises
    :class:`InputError` for bad arguments (before any game is played).
    """
    from analyzer.unearth.game import STRATEGIES, make_job
    from analyzer.unearth.rules import RULES_VERSION, load_rules

    rules = load_rules(edition, where="--edition")
    comp = rules.data["components"]
    lo, hi = comp["min_players"], comp["max_players"]
    if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
        raise bad_value("--players", players, f"{lo} to {hi}")
    per_seat = parse_strategies(strategies, players, tuple(STRATEGIES))
    path = check_out_path(out)
    job = make_job(players, per_seat, seed, rules, claims=False)
    options = RunOptions(
        games=games,
        seed=job.seed,
        batch_size=batch_size,
        workers=workers,
        scheduler=scheduler,
        checkpoint_dir=Path(checkpoint_dir) if checkpoint_dir is not None else None,
        resume=resume,
        precision=precision,
        max_games=max_games,
        keep_tables=path is not None,
        progress=progress,
    )
    result = run(job, options, reduce_games, headline)
    if path is not None:
        write_parquet_atomic(result.tables["games"], path)
    return Simulation(
        result=result,
        table=summary_table(result.aggregate),
        players=players,
        strategies=per_seat,
        seed=job.seed,
        edition=edition,
        rules_version=RULES_VERSION,
        out=path,
    )
