"""Colorful Treasure's fast kernels against slow twins: bit masks, what a seat
knows, the values of cards by class, and the players' decisions
(``docs/games/colorful_treasure.md``, "Players and memory").

Mid-game states come from whole games stopped after ``T`` turns (the turn cap
``components.max_turns`` set to ``T``: the game is the same up to there). The
twins in ``tests/naive.py`` recount what a seat knows from every card's memory
and score every candidate reveal with exact fractions.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.colorful_treasure import strategies as S
from analyzer.colorful_treasure.bits import kth_bit, lowest, popcount
from analyzer.colorful_treasure.game import make_job, play_raw
from analyzer.colorful_treasure.rules import load_rules
from analyzer.colorful_treasure.state import (
    S_COLS_TURN,
    S_GRID_CARDS,
    S_GRID_PLACES,
    S_LEFT,
    S_N_UP,
    S_SV_TURN,
    S_TURN,
    S_UP_CARDS,
    S_UP_PLACES,
    S_VALUES_TURN,
    State,
)
from analyzer.colorful_treasure.turn import face_down_count, reveal
from analyzer.kernels.kernel_view import make_view
from tests.naive import (
    naive_ct_choose_extra,
    naive_ct_choose_first,
    naive_ct_take_value,
    naive_ct_view,
)

PROPERTY = settings(
    derandomize=True,
    deadline=None,
    max_examples=25,
    suppress_health_check=[HealthCheck.too_slow],
)

LINEUPS = ("greedy", "random,greedy,perfect,hunter", "hunter,perfect", "perfect,random,hunter")
RULINGS = ({}, {"take": "optional"}, {"variant": "young"}, {"scoring": "advanced"})
#: parameter rows with values that are exact in binary (so sums of them are exact
#: in any order and the fractions of the twins order the choices as floats do)
PARAMS = (
    {},
    {"greedy": {"recall": 0.5, "third": 0.5}, "hunter": {"treasure": 0.25, "deny": 0.5}},
    {"perfect": {"reward": 1.5, "treasure": 3.0}, "hunter": {"recall": 1.0, "third": 1.0}},
)


def _copy(s: State) -> State:
    return State(*(a.copy() for a in s))


def _state_after(players, lineup, seed, game, turns, rulings=None, params=None):
    """The state of game ``game`` after ``turns`` turns (or at its end, if sooner),
    and its tables. Game ``game`` of the run plays as it does in any batch."""
    overrides = {"components.max_turns": turns}
    rules = load_rules(rulings or {}, overrides)
    job = make_job(players, lineup, seed, rules, strategy_params=params)
    _, _, _, s = play_raw(job, game, 1)
    return s, rules.tables


def _lineup(lineup: str, players: int) -> str:
    return ",".join((lineup.split(",") * players)[:players])


def _mask(bits) -> int:
    m = 0
    for b in bits:
        m |= 1 << int(b)
    return m


# ------------------------------------------------------------------ bit helpers


def test_bit_helpers_match_python():
    rng = np.random.default_rng(3)
    for _ in range(300):
        x = int(rng.integers(1, 1 << 60))
        assert popcount(x) == bin(x).count("1")
        assert lowest(x) == min(i for i in range(60) if x >> i & 1)
        ones = [i for i in range(60) if x >> i & 1]
        for k in (0, 1, len(ones) - 1, len(ones), len(ones) + 3):
            assert kth_bit(x, k) == (ones[k] if 0 <= k < len(ones) else -1)


def test_bit_helpers_compile_to_the_same_answers():
    import numba

    @numba.njit
    def run(xs, out):
        for i in range(xs.shape[0]):
            out[i, 0] = popcount(xs[i])
            out[i, 1] = lowest(xs[i])
            out[i, 2] = kth_bit(xs[i], 2)

    xs = np.random.default_rng(4).integers(1, 1 << 60, 500).astype(np.int64)
    out = np.zeros((500, 3), np.int64)
    run(xs, out)
    for x, row in zip(xs.tolist(), out.tolist(), strict=True):
        ones = [i for i in range(60) if x >> i & 1]
        assert row == [len(ones), ones[0], ones[2] if len(ones) > 2 else -1]


# ------------------------------------------------------------------ what a seat knows


@pytest.mark.slow
@PROPERTY
@given(
    players=st.integers(2, 4),
    lineup=st.sampled_from(LINEUPS),
    rulings=st.sampled_from(RULINGS),
    params=st.sampled_from(PARAMS),
    seed=st.integers(0, 2**31),
)
def test_incremental_knowledge_equals_a_recount_after_every_turn(
    players, lineup, rulings, params, seed
):
    """After every turn of a game: the grid and face-up masks are those of the
    arrays, and each seat's remembered cards (``seat_memory``, from the masks kept
    turn by turn) and each wonder's unknown cards equal a recount from every card's
    memory (``naive_ct_view``)."""
    lineup = _lineup(lineup, players)
    end, t = _state_after(players, lineup, seed, 0, 400, rulings, params)
    game_turns = int(end.sc[S_TURN])
    assert game_turns > 0
    for turns in range(1, game_turns + 1):
        s, t = _state_after(players, lineup, seed, 0, turns, rulings, params)
        assert int(s.sc[S_TURN]) == turns
        in_grid = _mask(c for c in range(t.n_cards) if s.owner[c] < 0)
        assert int(s.sc[S_GRID_CARDS]) == in_grid
        assert int(s.sc[S_GRID_PLACES]) == _mask(p for p in range(t.n_cards) if s.grid[p] >= 0)
        assert int(s.sc[S_UP_CARDS]) == 0 and int(s.sc[S_UP_PLACES]) == 0
        assert int(s.sc[S_N_UP]) == 0
        sv = make_view(s, "CTState")
        tv = make_view(t, "CTTables")
        for q in range(players):
            known, unknown, _ = naive_ct_view(s, t, q)
            assert int(s.kn[q]) & in_grid | _mask(known) == int(s.kn[q]) & in_grid
            got = S.seat_memory(sv, tv, q)
            assert got == _mask(known)
            unk = in_grid & ~got
            for w in range(t.n_wonders):
                col = unk & int(S.column_mask(tv, w))
                assert col == _mask(unknown[w])
                assert popcount(col) == len(unknown[w])


# ------------------------------------------------------------------ values by class


def _some_states():
    """Mid-game states of several line-ups, rulings and parameter rows."""
    out = []
    for i, (rulings, params) in enumerate([(r, p) for r in RULINGS for p in PARAMS]):
        for turns in (3, 9, 17, 24):
            lineup = _lineup(LINEUPS[i % len(LINEUPS)], 4)
            s, t = _state_after(4, lineup, 100 + i, i, turns, rulings, params)
            if int(s.sc[S_TURN]) == turns:
                out.append((s, t))
    return out


@pytest.fixture(scope="module")
def states():
    return _some_states()


@pytest.mark.slow
def test_values_by_class_equal_take_value_of_such_cards(states):
    """The values of one card, two cards, and the face-up cards with one more, by
    class (worked out once a turn, ``seat_values``, ``extra_values``), against the
    exact take value of real cards of those classes, for every seat."""
    rng = np.random.default_rng(8)
    checked = 0
    for s0, t in states:
        n = s0.plan.shape[0]
        for seat in range(n):
            s = _copy(s0)
            s.sc[S_SV_TURN] = -1
            s.sc[S_VALUES_TURN] = -1
            sv = make_view(s, "CTState")
            tv = make_view(t, "CTTables")
            steal = S.best_steal(sv, tv, seat, n)[0]
            S.seat_values(sv, tv, seat, n)
            assert S.steal_value(sv, tv, seat, n) == steal
            cards = rng.choice(t.n_cards, 12, replace=False)
            for a in cards:
                ca = S.card_class(sv, tv, seat, a)
                want = naive_ct_take_value(s, t, seat, n, [int(a)], steal)
                assert S.one_value(sv, ca) == want
                for b in cards:
                    if a == b:
                        continue
                    cb = S.card_class(sv, tv, seat, b)
                    want = naive_ct_take_value(s, t, seat, n, [int(a), int(b)], steal)
                    assert S.pair_value(sv, tv, seat, n, ca, cb) == want
                    checked += 1
            # two cards face up (a test layout: place p holds card p), then one more
            s.grid[:] = np.arange(t.n_cards)
            up = [int(x) for x in cards[:2]]
            for p in up:
                reveal(sv, seat, p)
            cur = S.extra_values(sv, tv, seat, n)
            assert cur == naive_ct_take_value(s, t, seat, n, up, steal)
            for c in cards[2:]:
                cc = S.card_class(sv, tv, seat, c)
                want = naive_ct_take_value(s, t, seat, n, [*up, int(c)], steal)
                assert S.extra_value(sv, cc) == want
                checked += 1
    assert checked > 1000


def _slot_card_list(tv, slot, unk):
    """The cards a slot may show: the known card, or its wonder's unknown cards."""
    if slot >= 0:
        return [slot]
    col = unk & int(S.column_mask(tv, -1 - slot))
    return [c for c in range(64) if col >> c & 1]


@pytest.mark.slow
def test_expected_pair_values_equal_their_long_hand_twin_bit_for_bit(states):
    """ev_two (fewer branches: the same kind twice, keys and chests, laid out)
    against ev_two_plain (every pair through pair_value), the same floats in the
    same order, so exactly equal: every pair of slots a seat could be offered
    (known cards, a wonder's unknown places, the same wonder twice), and both equal
    to the exact mean of the twin's take values."""
    from fractions import Fraction as F

    rng = np.random.default_rng(11)
    checked = 0
    for s0, t in states:
        n = s0.plan.shape[0]
        tv = make_view(t, "CTTables")
        for seat in range(n):
            s = _copy(s0)
            s.sc[S_SV_TURN] = -1
            s.sc[S_VALUES_TURN] = -1
            sv = make_view(s, "CTState")
            steal = S.best_steal(sv, tv, seat, n)[0]
            S.seat_values(sv, tv, seat, n)
            known = S.seat_memory(sv, tv, seat)
            unk = int(s.sc[S_GRID_CARDS]) & ~known
            slots = [c for c in range(t.n_cards) if known >> c & 1]
            slots += [-1 - w for w in range(t.n_wonders) if unk & int(S.column_mask(tv, w))]
            for a, b in rng.choice(len(slots), (12, 2)):
                a, b = int(slots[a]), int(slots[b])
                if a == b and (a >= 0 or popcount(unk & int(S.column_mask(tv, -1 - a))) < 2):
                    continue
                got = S.ev_two(sv, tv, seat, n, a, b, unk)
                assert got == S.ev_two_plain(sv, tv, seat, n, a, b, unk)

                vals = [
                    naive_ct_take_value(s, t, seat, n, [x, y], steal)
                    for x in _slot_card_list(tv, a, unk)
                    for y in _slot_card_list(tv, b, unk)
                    if x != y
                ]
                want = sum(vals, F(0)) / len(vals)
                assert abs(got - float(want)) <= 1e-9 * max(1.0, abs(float(want)))
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("rulings", [{}, {"variant": "young"}])
def test_column_sets_equal_a_recount_of_each_column(rulings):
    """The masks of wonders by what their unknown cards hold and by how many there
    are (column_sets, from the table of column_table), against a recount card by
    card, for random sets of unknown cards (seeded; young: 4 rows, no treasure)."""
    rules = load_rules(rulings, {})
    t = rules.tables
    job = make_job(3, "greedy", 5, rules)
    _, _, _, s = play_raw(job, 0, 1)
    sv = make_view(s, "CTState")
    tv = make_view(t, "CTTables")
    nc, rows = t.n_colours, t.rows
    rng = np.random.default_rng(12)
    for density in (0.1, 0.5, 0.9, 1.0):
        for _ in range(50):
            unk = _mask(c for c in range(t.n_cards) if rng.random() < density)
            S.column_sets(sv, tv, unk)
            for kind in range(nc + 2):
                want = _mask(
                    w
                    for w in range(t.n_wonders)
                    if any(
                        unk >> c & 1 and min(int(t.card_key[c]), nc + 1) == kind
                        for c in range(w * rows, (w + 1) * rows)
                    )
                )
                assert int(s.cols[kind]) == want
            counts = [popcount(unk & int(S.column_mask(tv, w))) for w in range(t.n_wonders)]
            for k in range(1, rows + 1):
                assert int(s.cols_n[k]) == _mask(w for w, x in enumerate(counts) if x == k)
            assert int(s.cols_n[0]) == _mask(w for w, x in enumerate(counts) if x > 0)


def test_the_card_stolen_is_the_long_hand_choice(states):
    """choose_steal (the cards of the kind out of the grid, by mask) takes what the
    rule says, found card by card: of the best steal's victim and kind, the card
    whose wonder the thief holds fewest of, the lowest id of those."""
    from analyzer.colorful_treasure.codes import Kind

    checked = 0
    for s0, t in states:
        n = s0.plan.shape[0]
        tv = make_view(t, "CTTables")
        for seat in range(n):
            s = _copy(s0)
            s.plan[seat] = 1
            sv = make_view(s, "CTState")
            _, victim, what = S.best_steal(sv, tv, seat, n)
            got = S.choose_steal(sv, tv, seat, n)
            if victim < 0:
                assert got == (-1, -1)
                continue
            if what < 0:
                assert got == (victim, -1)
                continue
            want = None
            for c in range(t.n_cards):
                kind = int(t.card_kind[c])
                if what < t.n_colours:
                    ok = kind == Kind.GEM and int(t.card_colour[c]) == what
                elif what == t.n_colours:
                    ok = kind == Kind.DIAMOND
                else:
                    ok = kind in (Kind.KEY, Kind.CHEST)
                if ok and int(s.owner[c]) == victim:
                    held = int(s.wcards[seat, t.card_wonder[c]])
                    if want is None or held < want[0]:
                        want = (held, c)
            assert got == (victim, want[1])
            checked += 1
    assert checked > 50


# ------------------------------------------------------------------ decisions


def _decide_both(s0, t, seat, n, stale_cols=False):
    """The kernel's and the twin's first reveals, their extra reveal, and the kind
    taken, from the same state and random stream; returns the extra reveal. With
    ``stale_cols`` the column masks of the first reveals are wiped before the extra
    reveal (``choose_extra`` must then work them out afresh)."""
    tv = make_view(t, "CTTables")
    s = _copy(s0)
    s.sc[S_SV_TURN] = -1
    s.sc[S_VALUES_TURN] = -1
    s.plan[seat] = 1  # an expected-value seat
    sv = make_view(s, "CTState")
    steal = S.best_steal(sv, tv, seat, n)[0]
    k = min(t.first_reveals, face_down_count(sv))
    twin = _copy(s)
    twin_rng = twin.rng.copy()
    want = naive_ct_choose_first(twin, t, seat, n, k, steal, twin_rng)
    S.choose_first(sv, tv, seat, n, k)
    got = [int(p) for p in s.pick[:k]]
    assert got == want
    assert (s.rng == twin_rng).all()
    for p in got:
        reveal(sv, seat, p)
    if stale_cols:
        s.sc[S_COLS_TURN] = -1
        s.cols[:] = 0  # no column would be looked at if these were used
    else:  # the first reveals' column masks still hold every kind the seat does not know
        assert int(s.sc[S_COLS_TURN]) == int(s.sc[S_TURN]) * 64 + seat
        known = int(S.seat_memory(sv, tv, seat))
        unk = int(s.sc[S_GRID_CARDS]) & ~known & ~int(s.sc[S_UP_CARDS])
        for c in range(t.n_cards):
            if (unk >> c) & 1:
                kind = min(int(t.card_key[c]), t.n_colours + 1)
                assert (int(s.cols[kind]) >> int(t.card_wonder[c])) & 1
    twin = _copy(s)
    twin_rng = twin.rng.copy()
    want = naive_ct_choose_extra(twin, t, seat, n, steal, twin_rng)
    got = S.choose_extra(sv, tv, seat, n)
    assert got == want
    assert (s.rng == twin_rng).all()
    if got >= 0:
        reveal(sv, seat, got)
    face_up = [int(s.grid[s.up[i]]) for i in range(int(s.sc[S_N_UP]))]
    if not any(t.card_kind[c] >= 2 for c in face_up):  # no key or chest: a kind is chosen
        best = arg = None
        for i, c in enumerate(face_up):
            same = [
                x
                for x in face_up
                if (t.card_kind[x], t.card_colour[x]) == (t.card_kind[c], t.card_colour[c])
            ]
            if same[0] != c:
                continue
            v = naive_ct_take_value(s, t, seat, n, same, steal)
            if best is None or v > best:
                best, arg = v, i
        if t.take_optional == 1 and best <= 0:
            arg = -1
        assert S.choose_kind(sv, tv, seat, n) == arg
    return got


@PROPERTY
@given(
    players=st.integers(2, 4),
    lineup=st.sampled_from(LINEUPS),
    rulings=st.sampled_from(RULINGS),
    params=st.sampled_from(PARAMS),
    seed=st.integers(0, 2**31),
    game=st.integers(0, 1000),
    turns=st.integers(1, 40),
)
def test_decisions_match_their_plain_twin(players, lineup, rulings, params, seed, game, turns):
    """choose_first and choose_extra (masks, column aims, values by class, the
    steal value worked out once a turn) choose the places the long-hand rule
    chooses, and draw the same random numbers, for every seat of a mid-game state."""
    s, t = _state_after(players, _lineup(lineup, players), seed, game, turns, rulings, params)
    if int(s.sc[S_LEFT]) == 0:
        return  # a young game that emptied the grid: nothing to reveal
    for seat in range(players):
        _decide_both(s, t, seat, players)


def test_the_extra_reveal_without_the_first_reveals_column_masks_matches_its_twin():
    """choose_extra looks only at columns that may hold a card worth more than the bar,
    by the column masks of the turn's first decision; without them (another seat's
    or turn's stamp) it works them out, and still chooses what the long-hand rule does."""
    extra = 0
    for seed in range(4):
        for turns in (3, 12, 25):
            s, t = _state_after(4, "greedy,perfect,hunter,greedy", seed, seed, turns)
            if int(s.sc[S_LEFT]) == 0:
                continue
            for seat in range(4):
                extra += _decide_both(s, t, seat, 4, stale_cols=True) >= 0
    assert extra > 0  # some third reveals among them


def test_decisions_match_their_plain_twin_in_the_young_variant_and_late():
    """Two reveals a turn and no treasure (young), and the last cards of the grid."""
    extra = 0
    for seed in range(6):
        for turns in (2, 11, 19, 26):
            s, t = _state_after(3, "perfect,greedy,random", seed, seed, turns, {"variant": "young"})
            if int(s.sc[S_LEFT]) == 0:
                continue
            for seat in range(3):
                _decide_both(s, t, seat, 3)
        s, t = _state_after(2, "greedy", seed, 0, 400)
        left = int(np.sum(s.grid >= 0))
        assert left <= 10
        for seat in range(2):
            extra += _decide_both(s, t, seat, 2) >= 0
    assert extra > 0  # some third reveals among them


def test_more_wonders_than_the_masks_hold_is_a_one_line_error():
    from analyzer.colorful_treasure.rules import MAX_WONDERS, _validate, base_data
    from analyzer.core.errors import InputError

    data = base_data()
    wonders = data["wonders"]["wonder"]
    while len(wonders) <= MAX_WONDERS:
        wonders.append(dict(wonders[len(wonders) % 10], id=f"extra{len(wonders)}"))
    with pytest.raises(InputError) as err:
        _validate(data, "w.toml")
    assert str(err.value).startswith("w.toml: wonders: bad value 13 (allowed: 2 to 12 wonders")
    assert "\n" not in str(err.value)
