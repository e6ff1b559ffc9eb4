"""Colorful Treasure's exact turn odds against a brute-force enumeration twin.

The twin knows nothing of classes of places: it lays out every arrangement of
each column's unknown cards over its unknown places (all equally likely), and
for each set of places turned first groups the layouts by what was seen, then
chooses the best further place (or none) on each group's layouts.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from analyzer.colorful_treasure import odds as O
from analyzer.colorful_treasure.rules import load_rules
from analyzer.core.errors import InputError

RULES = load_rules()


def _places(state):
    """``[(column index, remembered card or None)]`` for every face-down place."""
    out = []
    for i, col in enumerate(state.columns):
        out += [(i, c) for c in col.remembered]
        out += [(i, None)] * len(col.unknown)
    return out


def _layouts(state):
    """Every full assignment of cards to places, equally likely."""
    places = _places(state)
    per_col = []
    for col in state.columns:
        per_col.append(list(itertools.permutations(col.unknown)))
    for combo in itertools.product(*per_col):
        it = [iter(c) for c in combo]
        yield tuple(card if card is not None else next(it[i]) for i, card in places)


def _best_after(state, scorer, layouts, shown, extras):
    """Expected points over ``layouts`` (equally likely) with places ``shown`` face
    up and ``extras`` optional reveals left, choosing the best place by what is seen."""
    stop = Fraction(
        sum(scorer.take(tuple(sorted(lay[i] for i in shown))) for lay in layouts), len(layouts)
    )
    if not extras:
        return stop
    best = stop
    for q in range(len(layouts[0])):
        if q in shown:
            continue
        groups: dict = {}
        for lay in layouts:
            groups.setdefault(lay[q], []).append(lay)
        v = sum(
            Fraction(len(g), len(layouts)) * _best_after(state, scorer, g, shown + (q,), extras - 1)
            for g in groups.values()
        )
        best = max(best, v)
    return best


def brute(state):
    """Per place chances and the best expected points over every first set of places."""
    layouts = list(_layouts(state))
    n = len(layouts[0])
    chances = []
    for q in range(n):
        d: dict = {}
        for lay in layouts:
            lab = O._label(RULES, lay[q])
            d[lab] = d.get(lab, Fraction(0)) + Fraction(1, len(layouts))
        chances.append(d)
    scorer = O.Scorer(RULES, state)
    first = min(int(RULES.tables.first_reveals), n)
    values = set()
    for shown in itertools.combinations(range(n), first):
        groups: dict = {}
        for lay in layouts:
            groups.setdefault(tuple(lay[i] for i in shown), []).append(lay)
        v = sum(
            Fraction(len(g), len(layouts))
            * _best_after(state, scorer, g, shown, int(RULES.tables.extra_reveals))
            for g in groups.values()
        )
        values.add(v)
    return chances, values


SMALL = """
players = {players}
scoring = "{scoring}"
mine = {mine}
rewards_given = {given}
[grid.pyramids]
face_down = 3
gone = ["red", "yellow"]
remembered = {rem}
[grid.great_wall]
face_down = 2
gone = ["red", "yellow", "diamond"]
[grid.machu_picchu]
face_down = 3
gone = ["green", "chest"]
remembered = ["red"]
"""

CASES = [
    dict(players=2, scoring="basic", mine='["pyramids red"]', given="[]", rem="[]"),
    dict(
        players=2,
        scoring="advanced",
        mine='["great_wall red", "great_wall yellow"]',
        given="[]",
        rem='["key"]',
    ),
    dict(
        players=4,
        scoring="basic",
        mine='["pyramids yellow", "great_wall diamond", "machu_picchu green"]',
        given='["explorer"]',
        rem='["diamond"]',
    ),
]


@pytest.mark.parametrize("case", CASES)
def test_turn_odds_equal_brute_force(case):
    state = O.parse_state(SMALL.format(**case))
    got = O.turn_odds(state)
    chances, values = brute(state)
    assert [p.chances for p in got.places] == chances
    # every reveal choice's value is some set of places' value, and the best agree
    assert {c.points for c in got.choices} <= values
    assert got.choices[0].points == max(values)


def test_example_runs_and_is_exact():
    got = O.turn_odds(O.parse_state(O.EXAMPLE))
    assert all(isinstance(c.points, Fraction) for c in got.choices)
    assert [c.points for c in got.choices] == sorted((c.points for c in got.choices), reverse=True)
    for p in got.places:
        assert sum(p.chances.values()) == 1


def test_a_planted_bug_is_caught():
    """The twin tells a wrong scorer apart (diamonds worth one point less)."""
    state = O.parse_state(SMALL.format(**CASES[0]))
    _, values = brute(state)

    class Wrong(O.Scorer):
        def __init__(self, rules, st):
            super().__init__(rules, st)
            self.diamond -= 1

    real = O.Scorer
    O.Scorer = Wrong
    try:
        got = O.turn_odds(state)
    finally:
        O.Scorer = real
    assert got.choices[0].points != max(values)


@pytest.mark.parametrize("case", CASES)
def test_the_searchs_take_after_one_more_card_is_the_scorers(case):
    """:meth:`Scorer.adder` (the search's take of the face-up cards and one more)
    against :meth:`Scorer.take` of the same cards, for every set of up to three
    cards (treasures, gems of one colour and of several, diamonds) and every
    further card."""
    import random

    state = O.parse_state(SMALL.format(**case))
    scorer = O.Scorer(RULES, state)
    n = int(RULES.tables.n_wonders) * int(RULES.tables.rows)
    rng = random.Random(7)
    sets = [()] + [tuple(sorted(rng.sample(range(n), rng.randint(1, 3)))) for _ in range(300)]
    for up in sets:
        add = scorer.adder(up)
        for c in range(n):
            if c not in up:
                assert add(c) == scorer.take(tuple(sorted((*up, c)))), (up, c)


@pytest.mark.parametrize(
    "text, words",
    [
        ("players = 7\n[grid.pyramids]\nface_down = 5", "players"),
        ("[grid.atlantis]\nface_down = 5", "grid"),
        ("[grid.pyramids]\nface_down = 4", "face_down"),
        ("[grid.pyramids]\nface_down = 5\nremembered = ['pink']", "remembered"),
        ("mine = ['pyramids red']\n[grid.pyramids]\nface_down = 5", "gone"),
        ("colour = 1", "key"),
    ],
)
def test_bad_state_names_the_key(text, words):
    with pytest.raises(InputError, match=words):
        O.parse_state(text)
