"""The engine's rolls against the exact odds, on forced states.

One ruin, dice already on it, and seat 0 rolling one more die there. The engine
plays the roll once for every natural face (explicit chance: the face is queued
in the state's RNG), and the share of faces that end in a claim by seat 0, by
seat 1, a tie or no claim must equal the exact odds of ``analyzer odds`` for the
same question, as fractions. The modifiers used leave no choice (the event's
roll modifier, Ancestral Claim) except their order in one case, where seat 0
(the ``claimer``) and the odds both take the claim; so both sides must agree
exactly: the
modifier rules, the clamping and the tiebreak are shared by the engine, the
strategies and the odds (``analyzer/unearth/modifiers.py``, ``claims.py``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.unearth.odds import Die, OddsQuestion, exact_odds
from analyzer.unearth.state import EV_CLAIM, S_ROLL_MOD
from analyzer.unearth.strategies import Strategy
from tests.unearth.test_cards import D4, D6A, D6B, D6C, D8, RULES, Table, die, force

FACES = {D6A: 6, D6B: 6, D6C: 6, D4: 4, D8: 8}
NAMES = ("a", "b")  #: odds players for seats 0 and 1
EVENT = {-1: "gathering", 1: "festival", 0: None}

#: (ruin card, dice on it as (seat, die, value), seat 0's die rolled, event, Ancestral Claim)
CASES = [
    ("A9", [(1, D6A, 4)], D6B, 0, False),
    ("B11", [(1, D6A, 5), (0, D4, 2)], D8, 0, False),
    ("C13", [(1, D6A, 6), (1, D4, 3), (0, D6C, 1)], D6B, 0, False),
    ("D13", [(1, D8, 6), (0, D6A, 4)], D6B, -1, False),  # The Gathering: -1 every roll
    ("E15", [(1, D6A, 6), (1, D6B, 5), (0, D8, 1)], D4, 1, False),  # Festival: +1
    ("A11", [(1, D6A, 5), (0, D4, 1)], D6B, 0, True),  # Ancestral Claim: +2 on a d6
    ("B9", [(1, D8, 5)], D6A, -1, True),  # both: a natural 1 ends on 3 or 2 by their order
    ("C17", [(1, D8, 8), (0, D6A, 6)], D4, 0, False),  # out of reach: no claim
]


def engine_shares(card, on_ruin, rolled, event, ancestral):
    """Outcome shares over the natural faces of seat 0's roll, played by the engine."""
    counts = {"a": 0, "b": 0, "tie": 0, "none": 0}
    faces = FACES[rolled]
    for face in range(1, faces + 1):
        g = Table(players=2, strategy=Strategy.CLAIMER)
        slot = 0
        g.ruin(slot, card)
        for seat, d, value in on_ruin:
            g.put(seat, d, slot, value)
        g.s.sc[S_ROLL_MOD] = event
        if ancestral:
            g.play(0, "ancestral_claim")
        force(g.s, die(faces, face))
        g.roll(0, rolled, slot)
        claims = [ev for ev in g.events(EV_CLAIM) if ev[3] == slot]
        if not claims:
            counts["none"] += 1
        else:
            winner = int(claims[0][5])
            counts["tie" if winner < 0 else NAMES[winner]] += 1
    return {k: Fraction(v, faces) for k, v in counts.items()}


def exact_shares(card, on_ruin, rolled, event, ancestral):
    claim = int(RULES.tables.card_claim[RULES.card_ids.index(card)])
    dice = [Die(NAMES[seat], FACES[d], value) for seat, d, value in on_ruin]
    dice.append(Die("a", FACES[rolled]))
    q = OddsQuestion(
        claim_value=claim,
        dice=tuple(dice),
        me="a",
        event=EVENT[event],
        ancestral_claim=ancestral,
    )
    r = exact_odds(q, RULES)
    return {
        "a": r.p_win.get("a", Fraction(0)),
        "b": r.p_win.get("b", Fraction(0)),
        "tie": r.p_tie,
        "none": r.p_no_claim,
    }


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_engine_rolls_match_the_exact_odds(case):
    assert engine_shares(*case) == exact_shares(*case)


def test_the_comparison_can_fail():
    # the same dice judged against another claim value must disagree somewhere
    card, on_ruin, rolled, event, ancestral = CASES[1]
    assert engine_shares("B15", on_ruin, rolled, event, ancestral) != exact_shares(
        card, on_ruin, rolled, event, ancestral
    )
