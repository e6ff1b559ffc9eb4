"""Uruk's table state in what a player knows: the discard pile by counts
(``discard_counts``, its order unknown) and the cards of it not remembered
(``discard_unknown``), beside today's ordered ``discard`` list (which still loads and
answers as before); what is unknown is dealt at random, and the deep advice deals it
again per group of rollouts (:func:`analyzer.uruk.deep._grouped`)."""

from __future__ import annotations

import json
import re
from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest

import analyzer
from analyzer.core.errors import InputError
from analyzer.uruk import deep as D
from analyzer.uruk.advise import BUILD_SEED, build, example_text, one_step, parse_state
from analyzer.uruk.rules import default_rules
from analyzer.uruk.state import S_DECK_N, S_DISCARD_N

RULES = default_rules()
T = RULES.tables

ORDERED = example_text()
DISCARD = re.search(r"discard = \[(.*?)\]", ORDERED, re.S).group(1)
NAMES = [x.strip().strip('"') for x in DISCARD.replace("\n", " ").split(",")]
COUNTS = ORDERED.replace(
    re.search(r"discard = \[.*?\]", ORDERED, re.S).group(0),
    "discard_counts = { " + ", ".join(f"{n} = {k}" for n, k in Counter(NAMES).items()) + " }",
)


def _load(text: str):
    import tomllib

    return parse_state(tomllib.loads(text), "state", RULES)


def test_the_example_names_the_pile_in_order_and_counts_name_the_same_cards():
    ordered, counted = _load(ORDERED), _load(COUNTS)
    assert ordered.discard_ordered and not counted.discard_ordered
    assert sorted(ordered.discard) == sorted(counted.discard)
    assert len(NAMES) == 10  # not vacuous


def test_today_s_files_build_the_same_game_as_before():
    """An ordered pile draws no random number: the deal is the one before counts."""
    s, assumed = build(_load(ORDERED), RULES)
    n = int(s.sc[S_DISCARD_N])
    assert [int(c) for c in s.discard[:n]] == list(_load(ORDERED).discard)
    assert not any("discard pile" in a for a in assumed)


def _cards(s) -> Counter:
    """Every card of a built game wherever it lies (deck, discard, display, hands,
    inventions), by card code."""
    out = Counter(int(c) for c in s.deck[: int(s.sc[S_DECK_N])])
    out += Counter(int(c) for c in s.discard[: int(s.sc[S_DISCARD_N])])
    out += Counter(int(c) for c in s.display if c >= 0)
    for p in range(T.max_players):
        out += Counter({x: int(s.hand[p, x]) for x in range(T.n_inv) if s.hand[p, x]})
        out += Counter(int(c) for c in s.inv[p] if c >= 0)
    return out


@pytest.mark.parametrize("unknown", [0, 4])
def test_counts_and_unknown_cards_deal_a_consistent_game(unknown):
    text = (
        COUNTS + ""
        if not unknown
        else COUNTS.replace("discard_counts", f"discard_unknown = {unknown}\ndiscard_counts", 1)
    )
    state = _load(text)
    decks = set()
    for seed in (BUILD_SEED, BUILD_SEED + 1, BUILD_SEED + 2):
        s, assumed = build(state, RULES, seed)
        n = int(s.sc[S_DISCARD_N])
        pile = Counter(int(c) for c in s.discard[:n])
        assert n == len(state.discard) + unknown
        assert not Counter(state.discard) - pile  # every counted card is in the pile
        # no card more often than it exists (inventions; gods by their copies)
        cards = _cards(s)
        for c, k in cards.items():
            copies = T.inv_copies[c] if c < T.n_inv else T.god_copies[c - T.n_inv]
            assert k <= copies, c
        decks.add(tuple(int(c) for c in s.discard[:n]))
        assert any("discard pile's order" in a for a in assumed)
    assert len(decks) > 1  # the unknown order (and cards) dealt again with the seed


def test_one_step_advice_from_counts():
    got = one_step(_load(COUNTS), RULES)
    want = one_step(_load(ORDERED), RULES)
    assert [c.choice for c in got.choices] == [c.choice for c in want.choices]


def test_the_loader_refuses_both_forms_and_too_many_unknown_cards():
    both = COUNTS.replace("discard_counts", 'discard = ["leier"]\ndiscard_counts', 1)
    with pytest.raises(InputError, match=r"^state: discard_counts: given with discard"):
        _load(both)
    with pytest.raises(
        InputError, match=r"^state: discard_unknown: bad value 99 \(allowed: at most"
    ):
        _load(COUNTS.replace("discard_counts", "discard_unknown = 99\ndiscard_counts", 1))
    with pytest.raises(InputError, match=r"discard_counts.leier: bad value -1"):
        _load(COUNTS.replace("leier = 1", "leier = -1"))
    with pytest.raises(InputError, match=r"discard_counts: bad value 'rad2'"):
        _load(COUNTS.replace("leier = 1", "rad2 = 1"))
    with pytest.raises(InputError, match=r"leier: .*cards seen"):
        _load(COUNTS.replace("leier = 1", "leier = 9"))


def test_the_web_and_the_cli_answer_a_counts_file(tmp_path):
    data = json.loads(analyzer.advise("uruk", COUNTS).to_json())
    assert data["choices"] and data["within_noise_of_best"] == []


# --------------------------------------------------------------------------- the groups


def test_grouped_tallies_are_the_sums_and_the_rollouts_line_up():
    """A fake ``rank_one`` writes known tallies: the groups' sums go back into the work
    space and each choice's rollouts follow group after group."""
    k, per, groups = 3, 4, 3
    w = SimpleNamespace(
        **{name: np.zeros(8) for name in D._TALLIES},
        wins_by=np.zeros((8, 16)),
        count=np.zeros(8, np.int64),
    )
    from analyzer.kernels.search import K_ROLLOUTS

    def rank_one(view, key):
        g = view
        for c in range(k):
            w.n[c] = per
            w.win[c] = g + c
            w.win2[c] = 1
            w.score[c] = 10 * g
            w.score2[c] = 100
            w.value[c] = 0.5
            w.wins_by[c, :per] = g * 10 + c
        w.count[K_ROLLOUTS] = k * per
        return k

    assert D._grouped(w, list(range(groups)), [0] * groups, rank_one) == k
    assert list(w.n[:k]) == [per * groups] * k
    assert list(w.win[:k]) == [sum(g + c for g in range(groups)) for c in range(k)]
    assert int(w.count[K_ROLLOUTS]) == k * per * groups
    for c in range(k):
        assert list(w.wins_by[c, : per * groups]) == [
            g * 10 + c for g in range(groups) for _ in range(per)
        ]


def test_deep_advice_from_counts_plays_its_groups():
    ans = analyzer.advise("uruk", COUNTS, deep=True, budget=800, seed=5)
    data = json.loads(ans.to_json())
    n = len(data["choices"])
    assert data["rollouts"] == sum(c["rollouts"] for c in data["choices"])
    assert all(c["rollouts"] == data["choices"][0]["rollouts"] for c in data["choices"])
    assert data["rollouts"] >= D.GROUPS * n  # every group played every choice
    again = json.loads(analyzer.advise("uruk", COUNTS, deep=True, budget=800, seed=5).to_json())
    assert again["choices"] == data["choices"]  # one seed, one answer
    assert any("again in each group of rollouts" in a for a in data["assumed"])
