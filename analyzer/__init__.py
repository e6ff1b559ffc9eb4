"""analyzer: a Monte Carlo and exact strategy analyzer for board games.

The package is split so that every game reuses everything but its own folder:

- game-agnostic machinery: :mod:`analyzer.games` (the game seam and registry),
  :mod:`analyzer.kernels.rng`, :mod:`analyzer.core.seeding`, :mod:`analyzer.core.stats`,
  :mod:`analyzer.kernels.jit`, :mod:`analyzer.core.errors`, the batch runner, scenarios,
  aggregation, charts, reports and the CLI;
- everything that is one game's (rules data, kernels, strategies, its own
  tables and commands) lives in its folder, e.g. :mod:`analyzer.unearth`, and
  registers itself; nothing outside that folder imports it.

The Python API: :func:`simulate` and :func:`run` return pandas tables;
:func:`odds` and :func:`advise` answer a player at the table (as ``analyzer odds``
and ``analyzer advise`` do); :func:`available_games` lists the games.
"""

from analyzer import _compat

_compat.install()  # old module paths (analyzer.runner, ...) for one release


def __getattr__(name: str):
    if name == "__version__":  # read when asked: importlib.metadata slows every start
        from analyzer._version import __version__

        return __version__
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def simulate(
    players: int = 4,
    strategies=(),
    games: int = 1000,
    seed=None,
    rules=None,
    *,
    game: str = "unearth",
    edition: str | None = None,
    rulings: dict | None = None,
    overrides: dict | None = None,
    first_game: int = 0,
    claims: bool = False,
    strategy_params: dict | None = None,
    workers: int | None = 1,
    scheduler: str | None = None,
    precision: float | None = None,
    max_games: int | None = None,
    batch_size: int | None = None,
    progress: bool = False,
    forbid: dict | None = None,
    luck: bool | None = None,
):
    """Simulate ``games`` whole games of one configuration and return the per-game table.

    One row per game and seat: the core columns ``game, seat, n_players,
    strategy, score, win, game_turns`` and the columns the game declares
    (``docs/CONTRACTS.md``); with ``claims=True`` a ``(games, claims)`` pair for a
    game that records claims. ``strategies``: one name for every seat or one per
    seat (seat 0 plays first; default: the game's default strategy). Rules come
    from ``rules`` (a rules object of the game) or from ``edition``/``rulings``
    and ``overrides``. ``workers`` (default 1: this process; None: all cores),
    ``scheduler`` (a Dask address) and ``precision``/``max_games`` are those of
    ``analyzer simulate``; ``batch_size`` is games per batch (None: the game's).
    The same seed gives the identical table whatever the workers or batches:
    game *g* draws only from its own random stream.
    ``forbid`` is an intervention as a scenario's ``forbid`` key writes it
    (``{"wonders": ["eternal_flame"], "seats": [0]}``; ``seats = "each"`` forbids
    each seat in turn, a block of games each); the table then has a ``treated``
    column (1: the seat was forbidden). ``luck=True`` plays the game's luck terms
    (columns ``luck_win``, ``luck_score``: the same answer with the dice's luck
    taken out; docs/statistics.md); None (default) or False: without them (the
    default of every game: they cost more CPU than their narrower intervals save).
    """
    from analyzer.games import load_game
    from analyzer.runs.simulate import simulate_games

    if rules is not None:
        rulings, overrides = load_game(game).rules_settings(rules)
    if isinstance(strategies, str):
        strategies = [strategies]
    with _python_names():
        sim = simulate_games(
            players,
            list(strategies),
            games,
            seed,
            game=game,
            edition=edition,
            rulings=rulings,
            overrides=overrides,
            batch_size=batch_size,
            luck=luck,
            workers=workers,
            scheduler=scheduler,
            precision=precision,
            max_games=max_games,
            progress=progress,
            keep_tables=True,
            claims=claims,
            strategy_params=strategy_params,
            first_game=first_game,
            forbid=forbid,
        )
    return (sim.games, sim.claims) if claims else sim.games


def run(scenario, *, games: int | None = None, seed: int | None = None, **options):
    """Run a scenario (a file path, a parsed mapping, or a ``Scenario``) and return
    its :class:`analyzer.runs.driver.ScenarioRun`: ``.games`` is the per-game table,
    ``.report_tables()`` every report table with 95% intervals, ``.info`` the
    manifest. ``options`` are those of :func:`analyzer.runs.driver.run_scenario`
    (``workers``, ``scheduler``, ``precision``, ``progress``, ...; progress is off
    unless asked for)."""
    from pathlib import Path

    from analyzer.runs.driver import run_scenario
    from analyzer.runs.scenario_file import Scenario, load_scenario, parse_scenario, with_overrides

    if isinstance(scenario, str | Path):
        with _python_names():
            sc = load_scenario(scenario)
    elif isinstance(scenario, dict):
        sc = parse_scenario(scenario, "scenario")
    elif isinstance(scenario, Scenario):
        sc = scenario
    else:
        raise TypeError("scenario: a path, a dict or a Scenario")
    with _python_names():
        sc = with_overrides(sc, games=games, seed=seed)
        options.setdefault("progress", False)
        return run_scenario(sc, **options)


def odds(game: str, state=None, **question):
    """Exact odds at the table: what ``analyzer odds --game GAME`` answers.

    ``state`` is the table state of a game whose odds read one (TOML text, a path
    or a dict: Colorful Treasure's); ``question`` the command's options by their
    Python names (``analyzer.odds("unearth", claim=13, dice="blue:d6=5,red:d8")``).
    Returns an :class:`analyzer.games.table.Answer`: ``.value`` the game's result,
    ``.to_json()`` the JSON text ``--json`` prints, ``.text()`` the terminal's
    tables. Bad input raises :class:`analyzer.core.errors.InputError` naming the
    parameter."""
    from analyzer.games.table import odds as ask_odds

    return ask_odds(game, state, **question)


def advise(game: str, state, *, deep: bool = False, budget=None, seed=None, **options):
    """One decision's choices at the table ranked: what ``analyzer advise --game
    GAME STATE`` answers. ``state``: TOML text, a path or a dict (``analyzer advise
    --example`` prints one); ``deep``: by win chance from ``budget`` rollouts of the
    whole game seeded by ``seed``; ``options`` the command's other options by their
    Python names (``goal="stone"``, ``players="red,yellow"``). Returns an
    :class:`analyzer.games.table.Answer` as :func:`odds` does."""
    from analyzer.games.table import advise as ask_advise

    return ask_advise(game, state, deep=deep, budget=budget, seed=seed, **options)


def win_rates(table, by: str = "seat", level: float = 0.95):
    """Win rates of a games table (:func:`simulate`'s, or ``ScenarioRun.games``) by
    ``"seat"`` or by ``"strategy"``, with Wilson intervals (``level``: 0.95).

    Returns a DataFrame: the group columns (``cell`` first when the table has
    several configurations), ``n`` (seat-games), ``wins`` (a shared win counts
    its share), ``win_rate``, ``low``, ``high``. Seats are counted from 0 (the
    first player), as in the table. Seats of one game are not independent, so
    a strategy that holds several seats has an approximate interval.
    """
    from analyzer.core.errors import InputError, bad_value
    from analyzer.core.stats import wilson

    if by not in ("seat", "strategy"):
        raise bad_value("by", by, "seat, strategy")
    if not (isinstance(level, float | int) and not isinstance(level, bool) and 0 < level < 1):
        raise bad_value("level", level, "a number between 0 and 1, e.g. 0.95")
    need = [by, "win"]
    missing = [c for c in need if c not in getattr(table, "columns", ())]
    if missing:
        raise InputError(
            f"table: no column {missing[0]!r} (allowed: a games table, e.g. analyzer.simulate(...))"
        )
    keys = [by]
    if "cell" in table.columns and table["cell"].nunique() > 1:
        keys = ["cell", by]
    wins = table[keys].assign(win=table["win"].astype("float64"))  # (a float32 column)
    grouped = wins.groupby(keys, observed=True, sort=True)["win"]
    out = grouped.agg(n="size", wins="sum").reset_index()
    out["win_rate"] = out["wins"] / out["n"]
    low, high = wilson(out["wins"].to_numpy(float), out["n"].to_numpy(float), level)
    out["low"], out["high"] = low, high
    return out


def available_games() -> tuple[str, ...]:
    """Names of the registered games (see :mod:`analyzer.games`)."""
    from analyzer.games import available_games as names

    return names()


#: the command line's option names and the Python parameters they are in the API
_PYTHON_NAMES = {
    "--strategy": "strategies",
    "--strategies": "strategies",
    "--players": "players",
    "--games": "games",
    "--seed": "seed",
    "--game": "game",
    "--edition": "edition",
    "--rule": "rulings",
    "--batch-size": "batch_size",
    "--out": "out",
    "--workers": "workers",
    "--scheduler": "scheduler",
    "--precision": "precision",
    "--max-games": "max_games",
    "--checkpoint": "checkpoint_dir",
    "--luck": "luck",
}


class _python_names:
    """Errors raised inside name the Python parameters (``strategies``), not the
    command line's options (``--strategy``) the library shares with the CLI."""

    def __enter__(self):
        return self

    def __exit__(self, kind, err, tb):
        from analyzer.core.errors import AnalyzerError

        if err is None or not isinstance(err, AnalyzerError) or not err.args:
            return False
        import re

        text = str(err.args[0])
        named = re.sub(
            r"(?<![\w-])--[a-z][a-z-]*(?![\w-])",
            lambda m: _PYTHON_NAMES.get(m.group(0), m.group(0)),
            text,
        )
        if named == text:
            return False
        err.args = (named, *err.args[1:])
        return False


__all__ = [
    "__version__",
    "advise",
    "available_games",
    "odds",
    "run",
    "simulate",
    "win_rates",
]
