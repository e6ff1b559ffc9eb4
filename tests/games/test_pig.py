"""The example game (``examples/pig``): its kernels against a plain twin and exact odds.

What every game must do is :mod:`tests.games.test_conformance`; this is what a game's
own tests add: the kernels' slow, obviously correct twin (here: a whole game in
plain Python, fed the die faces of a trace), an exact oracle (one turn's odds,
by enumeration with fractions), and its input errors.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

import examples.pig
from analyzer.cli import run_cli
from analyzer.games import load_game, register_game
from examples.pig.game import PigJob
from examples.pig.rules import load_rules
from tests.replays import trace_of


def naive_game(faces, n: int, hold: float, rules: dict) -> dict:
    """A whole game of ``hold`` seats in plain Python (README.md), its die faces
    taken in order from ``faces``: the decisions, and by seat the score, turns,
    rolls and busts."""
    faces = iter(faces)
    score, turns, rolls, busts = [0] * n, [0] * n, [0] * n, [0] * n
    decisions = []
    p, turn, reached = 0, 0, False
    while True:
        total = 0
        turns[p] += 1
        while True:
            face = next(faces)
            rolls[p] += 1
            if face == rules["bust"]:
                busts[p] += 1
                break
            total += face
            hold_now = total >= hold or score[p] + total >= rules["target"]
            decisions.append("hold" if hold_now else "roll")
            if hold_now:
                score[p] += total
                break
        turn += 1
        reached = reached or score[p] >= rules["target"]
        if reached and (rules["end"] == "at_once" or p == n - 1):
            break
        p = (p + 1) % n
    assert next(faces, None) is None, "the game ended before its last roll"
    return {"decisions": decisions, "score": score, "turns": turns, "rolls": rolls,
            "busts": busts}  # fmt: skip


@pytest.mark.parametrize("end", ["at_once", "round"])
def test_the_kernels_play_as_the_plain_twin(end):
    """Thirty games of three ``hold`` seats: the same decisions and counts as the
    twin fed the same faces, and the games table says the same."""
    game = load_game("pig")
    rules = game.load_rules({"end": end}, {}, "test")
    job = game.make_job(3, ["hold"] * 3, 11, rules, strategy_params={"hold": {"hold": 15}})
    table = job(0, 30)["games"]
    for g in range(30):
        tr = trace_of("pig", 3, "hold", 11, g, {"end": end})
        assert tr["setup"]["end"] == end
        faces = [e["face"] for e in tr["events"] if e["type"] == "roll"]
        mine = naive_game(faces, 3, 20, tr["setup"])  # replay_text plays the default hold
        assert [e["action"] for e in tr["events"] if e["type"] == "decide"] == mine["decisions"]
        for seat in tr["final"]["seats"]:
            q = seat["seat"]
            assert [seat[k] for k in ("score", "turns", "rolls", "busts")] == [
                mine[k][q] for k in ("score", "turns", "rolls", "busts")
            ]
        rows = table[table["game"] == g]
        faces = _faces(job, g)
        twin = naive_game(faces, 3, 15, tr["setup"])
        assert rows["score"].tolist() == twin["score"]
        assert rows["busts"].tolist() == twin["busts"]


def _faces(job, g: int) -> list[int]:
    """The die faces of game ``g`` of ``job`` (its trace's rolls)."""
    from examples.pig.game import replay_events

    return [e["face"] for e in replay_events(job, g)["events"] if e["type"] == "roll"]


def exact_turn(faces: int, bust: int, hold: int) -> tuple[Fraction, Fraction]:
    """``(P(the turn busts), E[rolls])`` of one turn of the ``hold`` player from a turn
    total of 0, far from the target: by enumeration of every roll, as fractions."""
    bust_p: dict[int, Fraction] = {}
    rolls: dict[int, Fraction] = {}
    for total in range(hold - 1, -1, -1):  # totals below hold, highest first
        go = [total + f for f in range(1, faces + 1) if f != bust and total + f < hold]
        bust_p[total] = Fraction(1, faces) * (1 + sum(bust_p[x] for x in go))
        rolls[total] = 1 + Fraction(1, faces) * sum(rolls[x] for x in go)
    return bust_p[0], rolls[0]


def test_one_turn_agrees_with_its_exact_odds():
    """A game of one turn (the safety stop at 1, a target out of reach): the first
    seat's busts and rolls over 20,000 games within 4 standard errors of the exact
    values."""
    rules = load_rules({}, {"target": 1000, "max_turns": 1})
    table = PigJob(2, ("hold", "hold"), 5, rules, 20.0)(0, 20_000)["games"]
    first = table[table["seat"] == 0]
    p, rolls = exact_turn(6, 1, 20)
    n = len(first)
    assert abs(first["busts"].mean() - float(p)) < 4 * math.sqrt(float(p * (1 - p)) / n)
    se = first["rolls"].std() / math.sqrt(n)
    assert abs(first["rolls"].mean() - float(rolls)) < 4 * se
    assert (table[table["seat"] == 1]["turns"] == 0).all()  # the game stopped there


def test_registered_from_outside_the_package():
    """Importing ``examples.pig`` registers it; an entry point naming the same
    factory (``pig = "examples.pig:factory"``) registers it again without a clash."""
    register_game("pig", examples.pig.factory)
    game = load_game("pig")
    assert game.title == "Pig" and game.make_job.__module__ == "examples.pig.plugin"
    with pytest.raises(Exception, match="registered twice"):
        register_game("pig", lambda: game)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--rule", "end=never"], "rules.end: bad value 'never' (allowed: at_once, round)"),
        (["--rule", "ends=round"], "unknown ruling 'ends' (allowed: end)"),
        (["--players", "9"], "--players"),
    ],
)
def test_bad_input_is_one_line(capsys, args, message):
    assert run_cli(["simulate", "--game", "pig", "--games", "5", "--quiet", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
