"""Roll modifiers: the reachable-values search against trying every order.

The engine and the strategies share :func:`modifiers._reach_search`: which
final values a roll can take when the event, Ancestral Claims, Reading the
Stones and the owner's named wonders apply in any order (``docs/games/unearth.md``,
"Order of modifiers"). Identical modifiers are searched as one group, so a roll
with any number of them is exact; the twin in ``tests/naive.py`` tries every
order of the modifiers one by one.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.unearth.modifiers import _reach_search
from analyzer.unearth.rules import default_rules
from analyzer.unearth.state import MAX_MOD_GROUPS, MOD_FIELDS, new_state, reach_size
from analyzer.unearth.structs import pack_state
from tests.naive import naive_reachable

T = default_rules().tables


def search(natural, faces, groups):
    """Values the kernel finds for ``groups`` of ``(delta, optional, signed, count)``."""
    state = new_state(T, 2)
    mods = state.mods
    for i, g in enumerate(groups):
        mods[MOD_FIELDS * i : MOD_FIELDS * (i + 1)] = g
    mask = _reach_search(pack_state(state), len(groups), natural, faces)
    return {v for v in range(1, faces + 1) if (int(mask) >> v) & 1}


def expand(groups):
    return [(d, o, s) for d, o, s, count in groups for _ in range(count)]


def test_ten_ancestral_claims_all_count():
    # a natural 1 on a d20 with ten +2 bonuses ends on 20 (capped at 8 it was 17)
    assert search(1, 20, [(2, 0, 0, 10)]) == {20}
    assert search(1, 20, [(2, 0, 0, 8)]) == {17}


def test_clamping_between_steps_makes_order_matter():
    # event -1 then +2 from a natural 1: 1 -> 1 -> 3; +2 first: 1 -> 3 -> 2
    assert search(1, 6, [(-1, 0, 0, 1), (2, 0, 0, 1)]) == {2, 3}


@pytest.mark.parametrize("seed", range(40))
def test_search_equals_every_order(seed):
    gen = np.random.default_rng(seed)
    faces = int(gen.choice([4, 6, 8, 20]))
    groups = []
    if gen.random() < 0.6:
        groups.append((int(gen.choice([-1, 1])), 0, 0, 1))  # the event
    groups.append((2, 0, 0, int(gen.integers(0, 5))))  # Ancestral Claims
    groups.append((1, 0, 1, int(gen.integers(0, 5))))  # Reading the Stones
    for g in ((1, 1, 0, 1), (-1, 1, 0, 1), (1, 1, 1, 1)):  # College, Columns, Sanctuary
        if gen.random() < 0.5:
            groups.append(g)
    groups = [g for g in groups if g[3] > 0][:MAX_MOD_GROUPS]
    natural = int(gen.integers(1, faces + 1))
    assert search(natural, faces, groups) == naive_reachable(natural, faces, expand(groups))


def test_work_array_holds_every_card_of_the_deck_on_one_roll():
    # event, 4 Ancestral Claims, 5 Reading the Stones, three wonders: 2*5*6*8 states
    assert reach_size(T) == 480
    groups = [(1, 0, 0, 1), (2, 0, 0, 4), (1, 0, 1, 5), (1, 1, 0, 1), (-1, 1, 0, 1), (1, 1, 1, 1)]
    assert search(3, 8, groups) == naive_reachable(3, 8, expand(groups))


def test_collecting_keeps_every_card_played():
    from analyzer.unearth.modifiers import _collect_mods
    from analyzer.unearth.structs import pack_tables

    state = new_state(T, 2)
    n = _collect_mods(pack_state(state), pack_tables(T), 0, 6, 10, 7)
    groups = [tuple(state.mods[MOD_FIELDS * i : MOD_FIELDS * (i + 1)]) for i in range(n)]
    assert groups == [(2, 0, 0, 10), (1, 0, 1, 7)]  # ten Ancestral Claims, seven Readings
