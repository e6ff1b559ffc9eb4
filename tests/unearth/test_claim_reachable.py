"""A claim no roll of the dice can reach is bad input to ``odds`` (issue #41):
one line naming the highest claim they reach, exit 2, on the command line, in
Python and on the web; with ``--goal stone`` the question is the stones and it
is answered. The highest total is checked against the exact enumeration."""

from __future__ import annotations

import json
import random

import pytest

import analyzer
from analyzer.cli import run_cli
from analyzer.core.errors import ParamError
from analyzer.unearth.odds import Die, OddsQuestion, exact_odds, highest_total
from analyzer.unearth.rules import default_rules


def _questions(n: int = 40, others: bool = True):
    """Small questions with every roll modifier the odds model, seeded; without
    ``others``, every die is the asking player's."""
    rng = random.Random(41)
    who = ("me", "you") if others else ("me",)
    mods = [
        {},
        {"event": "festival"},
        {"event": "gathering"},
        {"reading_the_stones": True},
        {"ancestral_claim": True},
        {"ancient_map": True},
        {"wonders": (("columns", "me"),)},
        {"wonders": (("college", "me"),)},
        {"wonders": (("sanctuary", "me"),)},
        {"wonders": (("edifice", "me"),)},
        {"wonders": (("college", "me"), ("columns", "me")), "event": "gathering"},
        {"reading_the_stones": True, "event": "gathering", "ancestral_claim": True},
    ]
    for k in range(n):
        dice = []
        for _ in range(rng.randint(0, 2)):
            faces = rng.choice((4, 6, 8))
            dice.append(Die(rng.choice(who), faces, rng.randint(1, faces)))
        for j in range(rng.randint(1, 2)):
            dice.append(Die("me" if j == 0 else rng.choice(who), rng.choice((4, 6, 8))))
        yield OddsQuestion(1, tuple(dice), me="me", **mods[k % len(mods)])


def _odds(q: OddsQuestion, claim: int):
    return exact_odds(OddsQuestion(**{**q.__dict__, "claim_value": claim}), default_rules())


@pytest.mark.parametrize("q", list(_questions(others=False)), ids=lambda q: q.describe())
def test_the_highest_total_is_the_highest_claim_the_enumeration_reaches(q):
    """Every die mine and my goal the claim: I reach the highest total when the
    dice allow it (the enumeration says so), and never more."""
    top = highest_total(q)
    assert _odds(q, top).p_no_claim < 1, "the highest total is never reached"
    assert _odds(q, top + 1).p_no_claim == 1, "a claim above the highest total is reached"


@pytest.mark.parametrize("q", list(_questions(others=True)), ids=lambda q: q.describe())
def test_no_claim_above_the_highest_total_is_ever_reached(q):
    """Other players' dice too (who may choose to keep a claim out of reach):
    no claim above the highest total, so none refused is reachable."""
    assert _odds(q, highest_total(q) + 1).p_no_claim == 1


def test_cli_refuses_an_unreachable_claim_naming_the_highest(capsys):
    code = run_cli(["odds", "--claim", "40", "--dice", "blue:d6,red:d8"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2, err
    assert err == [
        "analyzer: error: --claim: bad value 40 (allowed: 1 to 14, the highest total the "
        "dice reach: blue:d6 + red:d8; with --goal stone: the stones of a ruin they cannot "
        "claim)"
    ]
    # the dice already on the ruin count as they are
    code = run_cli(["odds", "--claim", "14", "--dice", "blue:d6=5,red:d8", "--json"])
    err = capsys.readouterr().err
    assert code == 2 and "allowed: 1 to 13," in err, err


def test_the_highest_claim_is_answered(capsys):
    code = run_cli(["odds", "--claim", "14", "--dice", "blue:d6,red:d8", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    assert json.loads(out)["exact"]["p_claim"] == "1/48"


def test_goal_stone_answers_the_stones_of_a_ruin_it_cannot_claim(capsys):
    code = run_cli(["odds", "--claim", "40", "--dice", "blue:d6,red:d8", "--goal", "stone"])
    out = capsys.readouterr().out
    assert code == 0 and "expected stones" in out


def test_python_and_the_web_name_the_parameter_their_way():
    with pytest.raises(ParamError) as err:
        analyzer.odds("unearth", claim=40, dice="blue:d6,red:d8")
    assert err.value.field == "claim"
    assert str(err.value).startswith("claim: bad value 40 (allowed: 1 to 14,")
    assert "with goal stone" in str(err.value)
    from analyzer.web import serve

    status, body = serve.answer("unearth", "odds", {"claim": 40, "dice": "blue:d6,red:d8"})
    assert status == 400
    assert json.loads(body)["error"].startswith("claim: bad value 40 (allowed: 1 to 14,")
