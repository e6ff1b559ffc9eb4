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
from analyzer._version import __version__

_compat.install()  # old module paths (analyzer.runner, ...) for one release


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
        sc = load_scenario(scenario)
    elif isinstance(scenario, dict):
        sc = parse_scenario(scenario, "scenario")
    elif isinstance(scenario, Scenario):
        sc = scenario
    else:
        raise TypeError("scenario: a path, a dict or a Scenario")
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


def available_games() -> tuple[str, ...]:
    """Names of the registered games (see :mod:`analyzer.games`)."""
    from analyzer.games import available_games as names

    return names()


__all__ = ["__version__", "advise", "available_games", "odds", "run", "simulate"]
