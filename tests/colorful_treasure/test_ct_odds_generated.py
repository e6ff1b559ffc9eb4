"""Colorful Treasure's exact turn odds on generated states, against the engine's
deal, and against planted bugs (the stronger checks of the ``ct-odds`` branch,
ported onto :mod:`analyzer.colorful_treasure.odds`).

- **Generated states** (hypothesis, derandomized, 60 examples): two or three
  wonders still in the grid with 1 to 3 face-down places each, the others gone;
  random cards held, remembered and gone, rewards given, player counts and
  scorings. The fast answer must equal the brute-force enumeration twin of
  ``tests/colorful_treasure/test_ct_odds.py`` exactly: every place's chances, every choice's value
  among the twin's, the same best value.
- **The engine's deal**: the chances the odds give a place agree with how often
  the engine's own set-up (:func:`~analyzer.colorful_treasure.game.deal_layouts`)
  puts each card there, among the deals consistent with a state (rejection),
  within 4 standard errors.
- **Planted bugs**: six wrong variants of the scorer or the odds; each is caught
  by the generated states.
"""

from __future__ import annotations

import math
import random
from contextlib import contextmanager
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.colorful_treasure import odds as O
from analyzer.colorful_treasure.rules import load_rules
from tests.colorful_treasure.test_ct_odds import brute

RULES = load_rules()
T = RULES.tables
IDS = RULES.wonder_ids
N_STATES = 60


def labels(w: int) -> list[str]:
    return [O._label(RULES, c) for c in range(w * T.rows, (w + 1) * T.rows)]


def gen_state(rng: random.Random) -> str:
    """A small table state (TOML): 2 or 3 wonders with face-down cards (1-3 places
    each, at most 6 in all, at most 12 layouts), every other wonder gone."""
    active = rng.sample(range(T.n_wonders), rng.choice((2, 3)))
    gone_all: list[str] = []
    lines = []
    layouts = 1
    down_total = 0
    for w in range(T.n_wonders):
        names = labels(w)
        if w not in active:
            gone_all += [f"{IDS[w]} {n}" for n in names]
            continue
        down = rng.randint(1, 3)
        if down_total + down > 6:
            down = max(1, 6 - down_total)
        down_total += down
        order = names[:]
        rng.shuffle(order)
        left, gone = order[:down], order[down:]
        remembered = [n for n in left if rng.random() < 0.35]
        unknown = len(left) - len(remembered)
        while layouts * math.factorial(unknown) > 12:
            remembered.append([n for n in left if n not in remembered][0])
            unknown -= 1
        layouts *= math.factorial(unknown)
        gone_all += [f"{IDS[w]} {n}" for n in gone]
        lines += [
            f"[grid.{IDS[w]}]",
            f"face_down = {down}",
            f"gone = {gone!r}".replace("'", '"'),
            f"remembered = {remembered!r}".replace("'", '"'),
        ]
    mine = rng.sample(gone_all, rng.randint(0, min(8, len(gone_all))))
    given_rewards = [r for r in ("gem", "explorer") if rng.random() < 0.3]
    head = [
        f"players = {rng.randint(2, 4)}",
        f'scoring = "{rng.choice(("basic", "advanced"))}"',
        f"mine = {sorted(mine)!r}".replace("'", '"'),
        f"rewards_given = {given_rewards!r}".replace("'", '"'),
    ]
    return "\n".join(head + lines) + "\n"


def same_as_twin(text: str) -> bool:
    """The fast answer equals the twin on the state ``text`` (exact fractions)."""
    state = O.parse_state(text, "generated")
    got = O.turn_odds(state)
    chances, values = brute(state)
    return (
        [p.chances for p in got.places] == chances
        and {c.points for c in got.choices} <= values
        and got.choices[0].points == max(values)
    )


@settings(
    derandomize=True,
    deadline=None,
    max_examples=N_STATES,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.integers(0, 2**32 - 1))
def test_fast_answer_equals_the_twin_on_generated_states(seed):
    text = gen_state(random.Random(seed))
    assert same_as_twin(text), text


def test_generated_states_are_not_vacuous():
    """The states cover what the rules weigh: remembered places, several unknown
    places of a wonder, cards held, rewards given, every player count, both
    scorings, and choices to rank."""
    texts = [gen_state(random.Random(k)) for k in range(N_STATES)]
    states = [O.parse_state(x, "generated") for x in texts]
    assert sum(any(c.remembered for c in s.columns) for s in states) >= 10
    assert sum(any(len(c.unknown) >= 2 for c in s.columns) for s in states) >= 10
    assert sum(bool(s.mine) for s in states) >= 30
    assert sum(bool(s.rewards_given) for s in states) >= 10
    assert {s.players for s in states} == {2, 3, 4}
    assert {s.scoring for s in states} == {"basic", "advanced"}
    assert sum(len(O.turn_odds(s).choices) >= 3 for s in states) >= 40


# --------------------------------------------------------------------------- the engine's deal


@pytest.mark.slow
def test_chances_agree_with_the_engines_deal():
    """Deal grids as the engine does; keep those where pyramids shows the state
    below at its places 1-3 (a diamond and a green remembered, its key gone): the
    kinds at its places 0 and 4 come as often as the odds of an unknown pyramids
    place say, within 4 standard errors (fixed seed)."""
    from analyzer.colorful_treasure.game import deal_layouts

    text = (
        "players = 2\n"
        '[grid.pyramids]\nface_down = 4\ngone = ["key"]\nremembered = ["diamond", "green"]\n'
    )
    for w in range(1, T.n_wonders):
        text += f"[grid.{IDS[w]}]\nface_down = 5\n"
    got = O.turn_odds(O.parse_state(text, "mc"))
    unknown = [p for p in got.places if p.name.startswith("pyramids") and p.remembered is None]
    assert len(unknown) == 2 and unknown[0].chances == unknown[1].chances
    chances = unknown[0].chances
    assert set(chances) == {"red", "yellow"} and chances["red"] == Fraction(1, 2)
    kinds = np.array([O._label(RULES, c) for c in range(T.n_cards)])
    shown = kinds[deal_layouts(RULES, 5, 0, 60_000)]
    keep = (shown[:, 1] == "diamond") & (shown[:, 2] == "key") & (shown[:, 3] == "green")
    n = int(keep.sum())
    assert n > 800
    kept = shown[keep]
    for pos in (0, 4):
        for kind, p in chances.items():
            freq = float(np.mean(kept[:, pos] == kind))
            se = math.sqrt(float(p) * (1 - float(p)) / n)
            assert abs(freq - float(p)) <= 4 * se, (pos, kind, freq, p)
    # and a fresh column: every card equally likely at every place
    fresh = [p for p in got.places if p.name.startswith("great_wall")]
    assert all(p.chances == {k: Fraction(1, 5) for k in labels(1)} for p in fresh)
    for pos in range(T.rows, 2 * T.rows):
        for kind in labels(1):
            freq = float(np.mean(shown[:, pos] == kind))
            se = math.sqrt(0.2 * 0.8 / len(shown))
            assert abs(freq - 0.2) <= 4 * se, (pos, kind, freq)


# --------------------------------------------------------------------------- planted bugs


@contextmanager
def planted(name: str):
    """A wrong variant of the odds (restored on exit)."""
    real_scorer, real_turn_odds = O.Scorer, O.turn_odds

    class Wrong(O.Scorer):
        def __init__(self, rules, st):
            super().__init__(rules, st)
            if name == "diamond":  # a diamond card worth one point less
                self.diamond -= 1
            elif name == "gem_table":  # the gem table read one card late
                self.gems = [0] + self.gems[:-1]
            elif name == "rewards":  # the gem and explorer rewards never reached
                self.gem_colours = self.ex_wonders = 99

        def take(self, face_up):
            if name == "forced_treasure":  # keys and chests face up need not be taken
                face_up = tuple(c for c in face_up if self.kind[c] not in (2, 3)) or face_up
            return super().take(face_up)

    def wrong_turn_odds(state, rules=None):
        if name == "uniform":  # an unknown place may show a remembered card too
            cols = tuple(
                O.Column(c.wonder, c.remembered, c.unknown + c.remembered[:1])
                for c in state.columns
            )
            state = O.TurnState(state.players, state.scoring, state.mine, state.rewards_given, cols)
        if name == "no_extra":  # the optional further reveal forgotten
            odds = real_turn_odds(state, rules)
            cheap = tuple(
                O.Choice(c.name, c.stop_points, c.stop_points, c.p_treasure) for c in odds.choices
            )
            cheap = tuple(sorted(cheap, key=lambda c: -c.points))
            return O.TurnOdds(odds.places, cheap, odds.first_reveals, odds.extra_reveals, ())
        return real_turn_odds(state, rules)

    O.Scorer = Wrong
    O.turn_odds = wrong_turn_odds
    try:
        yield
    finally:
        O.Scorer, O.turn_odds = real_scorer, real_turn_odds


@pytest.mark.slow
def test_each_planted_bug_is_caught_by_the_generated_states():
    texts = [gen_state(random.Random(k)) for k in range(N_STATES)]
    for name in ("diamond", "gem_table", "rewards", "forced_treasure", "uniform", "no_extra"):
        caught = 0
        for text in texts:
            state = O.parse_state(text, "generated")
            chances, values = brute(state)  # the twin, before the bug is planted
            with planted(name):
                got = O.turn_odds(state)
            ok = (
                [p.chances for p in got.places] == chances
                and {c.points for c in got.choices} <= values
                and got.choices[0].points == max(values)
            )
            caught += not ok
        assert caught > 0, name
