"""Final scoring and the tied-game rule: kernels against the plain-Python twins.

``scoring.score_player`` and ``scoring.share_wins`` are compared with
``naive_score`` / ``naive_share_wins`` (written from the spec's "Scoring"
section) over generated holdings, under both editions and mixed rulings, and
the spec's examples are named tests.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.unearth.rules import load_rules
from analyzer.unearth.scoring import N_PARTS, PART_NAMES, score_player, share_wins
from analyzer.unearth.state import new_state
from analyzer.unearth.structs import pack_state, pack_tables
from tests.naive import naive_score, naive_share_wins

RULESETS = {
    "english": load_rules("english"),
    "german": load_rules("german"),
    "english_bonus_per_threshold": load_rules(rulings={"wonder_bonus": "per_threshold"}),
    "german_tomb_stone_colours": load_rules("german", rulings={"tomb": "stone_colours"}),
}
PACKED = {name: pack_tables(r.tables) for name, r in RULESETS.items()}
ENGLISH = RULESETS["english"]
CARD_IDS = ENGLISH.card_ids
N_RUINS = ENGLISH.tables.n_ruins
CITIES = [c["id"] for c in ENGLISH.data["end_of_age"]["card"] if c["kind"] == "ruin"]
WONDER_IDS = ENGLISH.wonder_ids
STONES = ENGLISH.stone_colours
TOKENS = ENGLISH.data["wonder_tokens"]["lesser"] + ENGLISH.data["wonder_tokens"]["greater"]


def kernel_score(rules_name, held_ids, stones, tokens, named_ids):
    rules = RULESETS[rules_name]
    held = np.zeros(len(rules.card_ids), np.int64)
    for cid in held_ids:
        held[rules.card_ids.index(cid)] = 1
    by_colour = np.array([stones.get(c, 0) for c in rules.stone_colours], np.int64)
    named = np.zeros(len(rules.wonder_ids), np.int64)
    for wid in named_ids:
        named[rules.wonder_ids.index(wid)] = 1
    s = new_state(rules.tables, 1)
    s.held[0] = held
    s.n_stones[0] = by_colour
    s.tokens[0] = (len(tokens), 0, sum(tokens))  # lesser and greater count alike here
    s.named_state[:] = np.where(named == 1, 0, -2)
    total = score_player(pack_state(s), PACKED[rules_name], 0)
    parts = s.parts[0]
    assert len(parts) == N_PARTS
    out = dict(zip(PART_NAMES, (int(x) for x in parts), strict=True))
    out["total"] = int(total)
    return out


@st.composite
def holdings(draw):
    ruins = draw(st.lists(st.sampled_from(CARD_IDS[:N_RUINS]), max_size=12, unique=True))
    cities = draw(st.lists(st.sampled_from(CITIES), max_size=1))
    stones = {c: draw(st.integers(0, 15)) for c in STONES}
    tokens = draw(st.lists(st.sampled_from(TOKENS), max_size=8))
    named = draw(st.lists(st.sampled_from(WONDER_IDS), max_size=6, unique=True))
    return ruins + cities, stones, tokens, named


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(holdings(), st.sampled_from(sorted(RULESETS)))
def test_score_player_matches_twin(holding, rules_name):
    held, stones, tokens, named = holding
    want = naive_score(RULESETS[rules_name], held, stones, tokens, named)
    assert kernel_score(rules_name, held, stones, tokens, named) == want


# --------------------------------------------------------------------------- named examples


def test_ruin_sets_and_five_colour_sets():
    held = ["A9", "A11", "A13", "B9", "C9", "D9", "E9", "E11"]
    got = kernel_score("english", held, {}, [], [])
    assert got["ruin_sets"] == 12 + 2 + 2 + 2 + 6
    assert got["five_colour"] == 5
    assert got["total"] == 29


def test_temples_score_a_point_per_stone_of_their_colour():
    stones = {"black": 5, "red": 2, "blue": 3, "yellow": 7}
    assert kernel_score("english", [], stones, [], ["temple_of_fate"])["named"] == 5
    assert kernel_score("english", [], stones, [], ["temple_of_flames"])["named"] == 2
    assert kernel_score("english", [], stones, [], ["temple_of_clarity"])["named"] == 3
    assert kernel_score("english", [], stones, [], ["temple_of_prosperity"])["named"] == 7


def test_tomb_english_counts_stone_colours_german_counts_ruin_colours():
    stones = {"black": 2, "red": 0, "blue": 1, "yellow": 4}
    held = ["A9", "A11", "B13", "city_of_gold"]  # two ruin colours; a city has none
    assert kernel_score("english", held, stones, [], ["tomb_of_the_last_age"])["named"] == 3
    assert kernel_score("german", held, stones, [], ["tomb_of_the_last_age"])["named"] == 2


def test_fountain_scores_twice_the_scarcest_colour():
    stones = {"black": 3, "red": 2, "blue": 4, "yellow": 2}
    assert kernel_score("english", [], stones, [], ["fountain_of_reflection"])["named"] == 4
    stones["red"] = 0
    assert kernel_score("english", [], stones, [], ["fountain_of_reflection"])["named"] == 0


def test_palace_and_printed_points():
    got = kernel_score("english", [], {}, [], ["palace_of_relics", "eternal_flame"])
    assert got["named"] == 7
    assert kernel_score("english", [], {}, [], ["blackened_cenotaph"])["named"] == 0


@pytest.mark.parametrize(
    ("n_wonders", "english", "german"),
    [(0, 0, 0), (2, 0, 0), (3, 5, 5), (5, 5, 5), (6, 5, 10), (9, 5, 15)],
)
def test_wonder_count_bonus_by_edition(n_wonders, english, german):
    tokens = [3] * (n_wonders - min(n_wonders, 1))
    named = ["palace_of_relics"] if n_wonders else []  # named wonders count too
    assert kernel_score("english", [], {}, tokens, named)["bonus"] == english
    assert kernel_score("german", [], {}, tokens, named)["bonus"] == german


def test_cities_score_points_and_no_colour():
    gold = kernel_score("english", ["A9", "city_of_gold"], {}, [], [])
    assert gold["cities"] == 7 and gold["ruin_sets"] == 2 and gold["total"] == 9
    ash = kernel_score("english", ["city_of_ash"], {}, [], [])
    assert ash["cities"] == -4 and ash["ruin_sets"] == 0 and ash["total"] == -4


# --------------------------------------------------------------------------- tied game


def kernel_wins(scores, held_ids):
    n = len(scores)
    s = new_state(ENGLISH.tables, n)
    for p, ids in enumerate(held_ids):
        for cid in ids:
            s.held[p, CARD_IDS.index(cid)] = 1
    s.scores[:] = scores
    share_wins(pack_state(s), PACKED["english"], n)
    return s.win.tolist()


@st.composite
def finished_games(draw):
    n = draw(st.integers(2, 4))
    pool = draw(st.permutations(CARD_IDS[:N_RUINS] + CITIES))
    held, pos = [], 0
    for _ in range(n):
        k = draw(st.integers(0, 5))
        held.append(list(pool[pos : pos + k]))
        pos += k
    scores = [draw(st.integers(20, 23)) for _ in range(n)]  # narrow: ties are common
    return scores, held


@settings(max_examples=300, deadline=None)
@given(finished_games())
def test_share_wins_matches_twin(game):
    scores, held = game
    want = naive_share_wins(ENGLISH, scores, held)
    got = kernel_wins(scores, held)
    assert got == pytest.approx([float(x) for x in want])
    assert sum(got) == pytest.approx(1.0)


def test_tied_game_most_ruins_of_the_highest_claim_value_wins():
    # equal scores; both hold a 17; seat 1 has a 15 where seat 0 has two 13s
    held = [["A17", "A13", "B13"], ["B17", "C15"]]
    assert kernel_wins([30, 30], held) == [0.0, 1.0]
    assert naive_share_wins(ENGLISH, [30, 30], held) == [0, 1]


def test_tied_game_city_claim_values_count():
    held = [["A17", "C9"], ["B17", "city_of_ash"]]  # the city's 17 beats a 9
    assert kernel_wins([25, 25], held) == [0.0, 1.0]


def test_fully_tied_players_share_the_win_and_a_lower_score_gets_nothing():
    held = [["A9", "B11"], ["C9", "D11"], ["E17"]]
    assert kernel_wins([40, 40, 39], held) == [0.5, 0.5, 0.0]
    assert naive_share_wins(ENGLISH, [40, 40, 39], held) == [Fraction(1, 2), Fraction(1, 2), 0]
