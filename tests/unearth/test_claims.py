"""Claim kernel: rulebook examples as named tests, and a plain-Python twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.unearth.claims import NO_CLAIM, TIE, claim_winner, ruin_outcome
from tests.naive import naive_ruin_outcome

RED, BLUE, YELLOW = 0, 1, 2


def _resolve(dice, claim_value, n_players=3):
    owner = np.array([d[0] for d in dice], np.int64)
    faces = np.array([d[1] for d in dice], np.int64)
    value = np.array([d[2] for d in dice], np.int64)
    cards = np.zeros(n_players, np.int64)
    res = ruin_outcome(owner, faces, value, len(dice), claim_value, n_players, cards)
    return res, cards.tolist()


def test_rulebook_red_d8_four_beats_blue_d6_four():
    res, cards = _resolve([(RED, 8, 4), (BLUE, 6, 4)], claim_value=8)
    assert res == RED
    assert cards == [0, 1, 0]


def test_rulebook_second_die_breaks_tie_bigger_die_wins():
    # red {d6:5, d6:4} loses to blue {d6:5, d8:4}
    dice = [(RED, 6, 5), (RED, 6, 4), (BLUE, 6, 5), (BLUE, 8, 4)]
    res, cards = _resolve(dice, claim_value=18)
    assert res == BLUE
    assert cards == [2, 0, 0]


def test_rulebook_unbreakable_tie_everyone_draws():
    res, cards = _resolve([(RED, 6, 5), (BLUE, 6, 5)], claim_value=9)
    assert res == TIE
    assert cards == [1, 1, 0]


def test_rulebook_highest_die_claims_and_others_draw_per_die():
    # the rulebook picture: red wins with the highest die; blue had two dice, yellow one
    dice = [(RED, 6, 6), (BLUE, 6, 3), (BLUE, 4, 2), (YELLOW, 6, 4)]
    res, cards = _resolve(dice, claim_value=15)
    assert res == RED
    assert cards == [0, 2, 1]


def test_below_claim_value_is_no_claim_and_no_cards():
    res, cards = _resolve([(RED, 8, 8), (BLUE, 6, 4)], claim_value=13)
    assert res == NO_CLAIM
    assert cards == [0, 0, 0]


def test_exactly_claim_value_claims():
    res, _ = _resolve([(RED, 8, 8), (BLUE, 6, 5)], claim_value=13)
    assert res == RED


def test_missing_die_counts_as_zero():
    # red {d6:5, d4:1} beats blue {d6:5}: red's second die beats blue's missing one
    res, cards = _resolve([(RED, 6, 5), (RED, 4, 1), (BLUE, 6, 5)], claim_value=11)
    assert res == RED
    assert cards == [0, 1, 0]


def test_tie_between_best_two_ignores_third_player():
    dice = [(RED, 6, 6), (BLUE, 6, 6), (YELLOW, 8, 2)]
    res, cards = _resolve(dice, claim_value=14)
    assert res == TIE
    assert cards == [1, 1, 1]


def test_single_player_claims_alone():
    res, cards = _resolve([(BLUE, 8, 7), (BLUE, 6, 6)], claim_value=13)
    assert res == BLUE
    assert cards == [0, 0, 0]


die = st.tuples(st.integers(0, 3), st.sampled_from([4, 6, 8]), st.integers(1, 8)).map(
    lambda d: (d[0], d[1], min(d[2], d[1]))
)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(st.lists(die, min_size=0, max_size=16), st.integers(1, 40))
def test_kernel_matches_naive_twin(dice, claim_value):
    # at most 5 dice per player, as in the game
    per = {}
    dice = [d for d in dice if per.setdefault(d[0], []).append(d) or len(per[d[0]]) <= 5]
    res, cards = _resolve(dice, claim_value, n_players=4)
    assert (res, cards) == naive_ruin_outcome(dice, claim_value, 4)


def test_claim_winner_matches_twin_exhaustively_two_dice_each():
    faces = [4, 6, 8]
    for fa in faces:
        for va in range(1, fa + 1):
            for fb in faces:
                for vb in range(1, fb + 1):
                    dice = [(0, fa, va), (1, fb, vb)]
                    owner = np.array([0, 1]), np.array([fa, fb]), np.array([va, vb])
                    got = claim_winner(owner[0], owner[1], owner[2], 2, 2)
                    assert got == naive_ruin_outcome(dice, 1, 2)[0]
