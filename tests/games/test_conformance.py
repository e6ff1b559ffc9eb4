"""One conformance test every game passes (pgx's ``api_test``), and the example game.

Parametrized over every registered game (the folders under ``analyzer/`` and the
``analyzer.games`` entry points; the tests' own stand-ins left out) and the
example of ``docs/adding-a-game.md`` (``examples/pig``, registered on import as a
game shipped elsewhere is). Each game must:

- declare itself consistently: strategies, parameters and their ranges, its
  rulings (each default loads), its columns (described, of a known kind, no
  core name), rules that survive :meth:`Game.rules_settings`;
- play the same table from the same seed for any batch split (one batch or
  three) and any worker count (one process or two);
- keep the invariants of the core table (one row per game and seat, in order,
  the core columns first with their dtypes, win shares summing to one per game,
  a game's length the same for each seat) and of the columns it declares (the
  parts of the score add up to the score), and only declared columns;
- write a checkable trace that survives JSON, passes the game's own independent
  checker (:data:`tests.replays.TRACE_CHECKERS`), agrees with the games table,
  and holds the contract's events: a kind (chance, choice or effect), a type, a
  turn and a seat, every choice listing the options it was made among;
- answer each hook it declares once: its table commands (``odds``, ``advise``:
  the first question of each its web page warms up with), deep advice (when its
  ``advise`` takes ``--deep``), a slow search player (one game, a small budget),
  its luck terms (when its job takes ``luck``).

A few hundred games per game; the engines' kernels load from numba's cache.
"""

from __future__ import annotations

import inspect
import json

import numpy as np
import pandas as pd
import pytest

import analyzer
import examples.pig  # noqa: F401  (registers the example game "pig")
from analyzer.games import (
    CORE_COLUMNS,
    KINDS,
    available_games,
    check_games_table,
    load_game,
)
from tests.replays import TRACE_CHECKERS, trace_checker, trace_of

SEED = 20260601
#: declared columns a game's table has among the core ones, kept where they were
#: when the table's layout was pinned (tests/games/test_pinned.py hashes the column order)
EARLY = {"unearth": ("end_of_age", "turns")}
GAMES = 240  #: games per split; three batches of 80


def registered() -> list[str]:
    """Every registered game but the tests' own stand-ins (``tests/standin_game.py``)."""
    import analyzer.games as registry

    names = available_games()
    return [n for n in names if not registry._FACTORIES[n].__module__.startswith("tests.")]


GAME_NAMES = registered()


def test_the_example_and_every_shipped_game_are_here():
    assert {"pig", "unearth", "colorful_treasure", "uruk"} <= set(GAME_NAMES)
    assert set(GAME_NAMES) <= set(TRACE_CHECKERS), "a game without a trace checker"


def lineup(game) -> list[str]:
    """The seats a conformance run plays: three (or the nearest count the game
    allows), the default strategy, with another quick strategy in the second seat."""
    fast = [s.name for s in game.strategies if not s.slow and s.name != game.default_strategy]
    players = max(game.min_players, min(3, game.max_players))
    seats = [game.default_strategy] * players
    if fast:
        seats[1] = fast[0]
    return seats


@pytest.fixture(scope="module", params=GAME_NAMES)
def run(request):
    """``(game, rules, seats, job, tables)``: one seeded run played in one batch."""
    game = load_game(request.param)
    rules = game.load_rules({}, {}, "conformance")
    seats = lineup(game)
    job = game.make_job(len(seats), seats, SEED, rules)
    return game, rules, seats, job, job(0, GAMES)


def test_declares_itself_consistently(run):
    game, rules, seats, _, _ = run
    names = game.strategy_names()
    assert game.default_strategy in names and game.yardstick_name() in names
    assert 1 <= game.min_players <= game.max_players
    for s in game.strategies:
        assert s.description, s.name
        params = dict(s.params)
        for name, low, high in s.bounds:
            assert name in params and low <= high, (s.name, name)
        for players, row in s.by_players:
            assert dict(row).keys() == params.keys(), (s.name, players)
    for r in game.ruling_specs():
        game.load_rules({r.name: r.default}, {}, "conformance")
    again = game.load_rules(*game.rules_settings(rules), "conformance")
    assert game.describe_rules(again) == game.describe_rules(rules)
    cols = game.columns(rules)
    assert len({c.name for c in cols}) == len(cols)
    for c in cols:
        assert c.description and c.kind in KINDS and c.name not in CORE_COLUMNS, c


@pytest.fixture(scope="module")
def workers():
    """Two worker processes for every game's batches, started as the runner starts
    its local workers (:mod:`analyzer.runs.pool`): spawned once for the module."""
    import concurrent.futures as cf

    from analyzer.runs.pool import context

    with cf.ProcessPoolExecutor(max_workers=2, mp_context=context()) as pool:
        yield pool


def test_the_same_seed_plays_the_same_table_for_any_split(run, workers):
    """One batch in this process, or three batches on two worker processes: the
    same tables; and the user path (``analyzer.simulate``) plays the job's games."""
    game, rules, seats, job, whole = run
    parts = [f.result() for f in [workers.submit(job, a, 80) for a in (0, 80, 160)]]
    assert set(whole) == set(parts[0]) and "games" in whole
    for name, table in whole.items():
        thirds = pd.concat([part[name] for part in parts], ignore_index=True)
        pd.testing.assert_frame_equal(table, thirds, check_exact=True)
    mine = whole["games"]
    one = analyzer.simulate(len(seats), ",".join(seats), 60, seed=SEED, game=game.name,
                            workers=1, batch_size=25)  # fmt: skip
    for col in mine.columns:
        assert (one[col].to_numpy() == mine[col].to_numpy()[: len(one)]).all(), col


def test_the_core_table_and_the_declared_columns_hold(run):
    game, rules, seats, _, tables = run
    games = tables["games"]
    n = len(seats)
    cols = [c for c in games.columns if c not in EARLY.get(game.name, ())]
    assert cols[: len(CORE_COLUMNS)] == list(CORE_COLUMNS)
    check_games_table(games, game.columns(rules), game.name)  # only declared columns
    assert games["game"].dtype == np.int64 and games["win"].dtype == np.float32
    assert games["seat"].dtype == np.int8 and games["n_players"].dtype == np.int8
    assert games["game"].tolist() == np.repeat(np.arange(GAMES), n).tolist()
    assert games["seat"].tolist() == list(range(n)) * GAMES
    assert (games["n_players"] == n).all()
    assert games["strategy"].astype(str).tolist() == seats * GAMES
    by_game = games.groupby("game")
    assert np.allclose(by_game["win"].sum(), 1.0, atol=1e-6)
    assert ((games["win"] >= 0) & (games["win"] <= 1)).all()
    assert (by_game["game_turns"].nunique() == 1).all()
    assert (games["game_turns"] > 0).all()
    parts = [c.name for c in game.columns(rules) if c.part and c.name in games]
    if parts:
        assert np.allclose(games[parts].sum(axis=1), games["score"]), parts


@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_trace_round_trips_through_the_checker(run, index):
    game, rules, seats, _, tables = run
    trace = trace_of(game.name, len(seats), ",".join(seats), SEED, index)
    assert json.loads(json.dumps(trace)) == trace
    trace_checker(game.name)(trace)
    for e in trace["events"]:
        assert e["kind"] in ("chance", "choice", "effect") and isinstance(e["type"], str), e
        assert isinstance(e["turn"], int) and (e["seat"] is None or isinstance(e["seat"], int)), e
        if e["kind"] == "choice":
            assert "options" in e or any(k.endswith("_options") for k in e), e
    final = trace["final"]
    scores = final.get("scores") or [s["score"] for s in final["seats"]]
    rows = tables["games"][tables["games"]["game"] == index]
    assert np.allclose(rows["score"].to_numpy(float), scores), (scores, rows["score"].tolist())
    assert [p for p in range(len(seats)) if rows["win"].iloc[p] > 0] == final["winners"]


def test_each_declared_hook_answers_once(run, tmp_path):
    from analyzer.web import serve

    game, rules, seats, _, _ = run
    name = game.name
    answered = []
    for kind, fields in game.web_warm_up():
        if kind in answered or fields.get("deep") or not serve.supports(name, kind):
            continue
        if fields.get("state") == "example":
            status, text = serve.example(name)
            assert status == 200, text
            fields = {**fields, "state": text}
        status, body = serve.answer(name, kind, fields)
        assert status == 200, body
        assert isinstance(json.loads(body), dict)
        answered.append(kind)
    if serve.supports(name, "advise") and serve.deep_offered(name):
        status, text = serve.example(name)
        status, body = serve.answer(name, "advise", {"state": text, "deep": True, "budget": 8,
                                                     "seed": 1})  # fmt: skip
        assert status == 200, body
        answered.append("deep")
    for s in (s for s in game.strategies if s.slow):  # a search player: one game
        params = {s.name: {"budget": 8}} if "budget" in dict(s.params) else {}
        job = game.make_job(2, [s.name, game.default_strategy], SEED, rules,
                            strategy_params=params)  # fmt: skip
        assert len(job(0, 1)["games"]) == 2
        answered.append(s.name)
    if "luck" in inspect.signature(game.make_job).parameters:
        job = game.make_job(len(seats), seats, SEED, rules, luck=True)
        games = job(0, 30)["games"]
        luck = games[["luck_win", "luck_score"]].to_numpy()
        assert np.isfinite(luck).all() and (luck != 0).any()
        answered.append("luck")
    if name != "pig":  # the shipped games declare hooks; the example none
        assert answered, f"{name} answered no hook"
