"""The ``search`` player of Colorful Treasure (analyzer/colorful_treasure/search.py).

What must hold: a search that keeps ``greedy``'s choice plays exactly as
``greedy``; its rollouts never read what the seat cannot see (two games that
differ only in what the seat does not remember, in what the others remember
and in how long anyone will remember, give the same rollouts; the deal of the
unseen cards is uniform and keeps every count); the kernels agree with slow
twins; games with a ``search`` seat are the same for any split into batches;
bad settings get one-line errors.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from analyzer.colorful_treasure import engine, search
from analyzer.colorful_treasure.codes import P_RECALL
from analyzer.colorful_treasure.game import make_job, rollout_state, simulate, strategy_arrays
from analyzer.colorful_treasure.rules import default_rules
from analyzer.colorful_treasure.state import (
    ALWAYS,
    H_CARDS,
    H_PLASTIC,
    NEVER,
    S_GRID_CARDS,
    S_GRID_PLACES,
    S_SEAT,
    S_TURN,
    new_state,
)
from analyzer.colorful_treasure.strategies import (
    choose_steal,
    ev_two_plain,
    first_slots,
    recount_memory,
)
from analyzer.core.errors import InputError
from analyzer.core.seeding import root_key
from analyzer.kernels.kernel_view import make_view
from analyzer.kernels.rng import rng_float, rng_seed, rng_shuffle

RULES = default_rules()
T = RULES.tables
TV = make_view(T, "CTTables")


def _v(s):
    return make_view(s, "CTState")


def _w(w):
    return search.pack_search(w)


def _copy(s):
    return type(s)(*(a.copy() for a in s))


def midgame(n: int, game: int, turns: int, seed: int = 11):
    """A game of ``n`` greedy seats played to the start of turn ``turns`` (seat
    ``turns % n`` to play), or None if it ended before."""
    s = new_state(T, n)
    plan, prm = strategy_arrays(RULES, ("greedy",) * n)
    s.plan[:] = plan
    s.prm[:] = prm
    k0, k1 = root_key(seed)
    engine.start_game(_v(s), TV, n, k0, k1, game)
    seat = 0
    for turn in range(turns):
        s.sc[S_TURN] = turn
        s.sc[S_SEAT] = seat
        engine.play_turn(_v(s), TV, seat, n, game)
        seat = engine.next_seat(_v(s), TV, seat, n, turn + 1)
        if seat < 0:
            return None
    s.sc[S_TURN] = turns
    s.sc[S_SEAT] = seat
    return s


def remembered(s, seat):
    """Mask of the grid cards ``seat`` remembers in ``s`` (on a copy: the kernel
    caches what it counts)."""
    return int(recount_memory(_v(_copy(s)), TV, seat))


def bits(x):
    return [c for c in range(T.n_cards) if (x >> c) & 1]


def column(w):
    return list(range(w * T.rows, (w + 1) * T.rows))


def rank(s, n, p, budget=40, seed=5, width=6):
    """The rollout statistics of seat ``p``'s first-reveal choices in ``s``."""
    r = rollout_state(RULES, n)
    w = search.new_search(T, n, budget=budget, width=width, keep=budget)
    k = search.rank_all(_v(s), TV, _v(r), _w(w), p, n, np.uint64(seed), budget, width)
    return k, w


def hide_differently(s, n, p, rng):
    """A copy of ``s`` that seat ``p`` cannot tell from it: in every column the
    cards it does not remember laid out again; what the other seats remember,
    and how long everyone will go on remembering, drawn again."""
    h = _copy(s)
    turn = int(h.sc[S_TURN])
    kf = remembered(s, p)
    grid = int(h.sc[S_GRID_CARDS])
    for wd in range(T.n_wonders):
        cards = [c for c in column(wd) if (grid >> c) & 1 and not (kf >> c) & 1]
        places = sorted(int(h.pos_of[c]) for c in cards)
        for c, pl in zip(rng.permutation(cards), places, strict=True):
            h.grid[pl] = c
            h.pos_of[c] = pl
    for c in bits(grid):
        for q in range(n):
            if q == p:
                if (kf >> c) & 1:
                    h.mem[q, c] = turn + int(rng.integers(0, 5))
                else:
                    h.mem[q, c] = NEVER if rng.random() < 0.5 else turn - 1
            else:
                h.mem[q, c] = turn + int(rng.integers(0, 5)) if rng.random() < 0.5 else NEVER
    for q in range(n):
        if q != p:
            h.kn[q] = int(rng.integers(0, 1 << 40)) & grid
    h.rng[:4] = rng.integers(1, 2**63, 4, dtype=np.uint64)
    return h


def test_a_search_that_keeps_greedys_choice_plays_as_greedy():
    """Width 1 (greedy's choice alone): the same games, drawn the same way."""
    base = simulate(2, ["greedy", "greedy"], 30, seed=3)
    for sp in ({"search": {"width": 1}},):
        a = simulate(2, ["search", "greedy"], 30, seed=3, strategy_params=sp)
        for col in ("score", "win", "game_turns", "steals"):
            assert (a[col].to_numpy() == base[col].to_numpy()).all(), (sp, col)


def test_search_decides_and_keeps_invariants():
    """With a budget the search does decide (some game differs from greedy's), and
    every game ends with the engine's invariants holding (games_frame raises)."""
    out = []
    job = make_job(2, ["search", "greedy"], 4, strategy_params={"search": {"budget": 24}})
    from analyzer.colorful_treasure.game import play_raw

    play_raw(job, 0, 12, search_out=out)
    count = out[0].count
    assert count[search.K_DECISIONS] > 0 and count[search.K_CHANGED] > 0
    assert count[search.K_ROLLOUTS] >= 24 * count[search.K_DECISIONS] // 2
    a = simulate(2, ["search", "greedy"], 12, seed=4, strategy_params={"search": {"budget": 24}})
    b = simulate(2, ["greedy", "greedy"], 12, seed=4)
    assert (a["score"].to_numpy() != b["score"].to_numpy()).any()
    assert set(a["strategy"].astype(str)) == {"search", "greedy"}


def test_same_games_for_any_batch_split():
    sp = {"search": {"budget": 16, "width": 3}}
    whole = simulate(3, ["greedy", "search", "baseline"], 6, seed=9, strategy_params=sp)
    parts = [
        simulate(3, ["greedy", "search", "baseline"], 3, seed=9, first_game=g, strategy_params=sp)
        for g in (0, 3)
    ]
    joined = np.concatenate([p["score"].to_numpy() for p in parts])
    assert (whole["score"].to_numpy() == joined).all()


@pytest.mark.parametrize("n,game,turns", [(2, 2, 6), (3, 1, 6), (4, 2, 8)])
def test_rollouts_never_read_what_the_seat_cannot_see(n, game, turns):
    """Two games seat ``p`` cannot tell apart give exactly the same choices and
    rollouts; a game that differs in a card it remembers does not."""
    s = midgame(n, game, turns)
    assert s is not None
    p = int(s.sc[S_SEAT])
    rng = np.random.default_rng(game)
    h = hide_differently(s, n, p, rng)
    assert (h.grid != s.grid).any() and (h.mem != s.mem).any()
    k1, w1 = rank(s, n, p)
    k2, w2 = rank(h, n, p)
    assert k1 == k2 > 1
    assert (w1.cand[:k1, 0] == w2.cand[:k2, 0]).all() and (w1.cand[:k1, 1] == w2.cand[:k2, 1]).all()
    assert (w1.wins_by[:k1] == w2.wins_by[:k2]).all()
    assert (w1.score[:k1] == w2.score[:k2]).all()
    # control: what the seat remembers is something it knows: with it forgotten,
    # the rollouts change
    kf = remembered(s, p)
    assert kf != 0
    other = _copy(s)
    for c in bits(kf):
        other.mem[p, c] = int(s.sc[S_TURN]) - 1
    k3, w3 = rank(other, n, p)
    assert k3 != k1 or not (w1.score[:k1] == w3.score[:k3]).all()


@pytest.mark.slow
def test_deal_is_uniform_and_keeps_every_count():
    """determinize lays each column's unremembered cards uniformly over their
    places (chi-square over the orders of the largest such column), keeps every
    remembered card in place, every holding and every count, and makes every
    seat remember what the seat remembers, for a time drawn again."""
    n = 3
    s = midgame(n, 4, 3)
    assert s is not None
    p = int(s.sc[S_SEAT])
    turn = int(s.sc[S_TURN])
    kf = remembered(s, p)
    grid = int(s.sc[S_GRID_CARDS])
    unknown = {
        wd: [c for c in column(wd) if (grid >> c) & 1 and not (kf >> c) & 1]
        for wd in range(T.n_wonders)
    }
    wd = max(unknown, key=lambda x: len(unknown[x]))
    k = len(unknown[wd])
    assert 3 <= k <= 5 and kf != 0
    places = sorted(int(s.pos_of[c]) for c in unknown[wd])
    r = new_state(T, n)
    r.prm[:] = s.prm
    w = search.new_search(T, n)
    draws = 60 * math.factorial(k)
    seen = Counter()
    rv, sv, wv = _v(r), _v(s), _w(w)  # views made once: the arrays stay the same
    for j in range(draws):
        search.copy_game(rv, sv)
        rng_seed(r.rng, np.uint64(77), 0, j)
        got = search.determinize(rv, TV, wv, p)
        assert got == kf
        seen[tuple(int(r.grid[pl]) for pl in places)] += 1
        for c in bits(kf):
            assert r.pos_of[c] == s.pos_of[c] and r.grid[r.pos_of[c]] == c
            for q in range(n):
                assert r.mem[q, c] >= turn
        for c in range(T.n_cards):
            if (grid >> c) & 1:
                assert r.grid[r.pos_of[c]] == c
                assert r.pos_of[c] // T.rows == s.pos_of[c] // T.rows  # its own column
                if not (kf >> c) & 1:
                    assert (r.mem[:, c] == NEVER).all()
        assert (np.sort(r.grid) == np.sort(s.grid)).all()
        assert r.sc[S_GRID_CARDS] == s.sc[S_GRID_CARDS]
        assert r.sc[S_GRID_PLACES] == s.sc[S_GRID_PLACES]
        assert (r.owner == s.owner).all() and (r.held == s.held).all()
        assert (r.kn == kf).all()
    assert len(seen) == math.factorial(k)
    counts = [seen[o] for o in itertools.permutations(sorted(unknown[wd]))]
    assert chisquare(counts).pvalue > 1e-3, counts


def _determinize_twin(r, p):
    """determinize the slow way (same draws in the same order)."""
    turn = int(r.sc[S_TURN])
    kf = 0
    for c in range(T.n_cards):
        if (r.sc[S_GRID_CARDS] >> c) & 1 and (r.kn[p] >> c) & 1 and r.mem[p, c] >= turn:
            kf |= 1 << c
    for wd in range(T.n_wonders):
        cards = [c for c in column(wd) if (r.sc[S_GRID_CARDS] >> c) & 1 and not (kf >> c) & 1]
        if not cards:
            continue
        known_places = {int(r.pos_of[c]) for c in column(wd) if (kf >> c) & 1}
        places = [
            pl for pl in column(wd) if (r.sc[S_GRID_PLACES] >> pl) & 1 and pl not in known_places
        ]
        pool = np.array(sorted(cards), np.int64)
        rng_shuffle(r.rng, pool, len(pool))
        for pl, c in zip(places, pool, strict=True):
            r.grid[pl] = c
            r.pos_of[c] = pl
    for c in range(T.n_cards):
        if not (r.sc[S_GRID_CARDS] >> c) & 1:
            continue
        for q in range(r.mem.shape[0]):
            if not (kf >> c) & 1:
                r.mem[q, c] = NEVER
                continue
            rc = r.prm[q, P_RECALL]
            if rc >= 1.0:
                r.mem[q, c] = ALWAYS
            elif rc <= 0.0:
                r.mem[q, c] = turn
            else:
                u = 1.0 - rng_float(r.rng)
                r.mem[q, c] = turn + int(np.log(u) / np.log(rc))
    r.kn[:] = kf
    return kf


@pytest.mark.parametrize("n,game,turns", [(2, 2, 4), (3, 5, 6), (4, 6, 8)])
def test_determinize_matches_its_slow_twin(n, game, turns):
    s = midgame(n, game, turns)
    assert s is not None
    p = int(s.sc[S_SEAT])
    w = search.new_search(T, n)
    for recall in (0.8, 1.0):
        for j in range(5):
            a = _copy(s)
            b = _copy(s)
            a.prm[:, P_RECALL] = recall
            b.prm[:, P_RECALL] = recall
            rng_seed(a.rng, np.uint64(3), 0, j)
            rng_seed(b.rng, np.uint64(3), 0, j)
            ka = search.determinize(_v(a), TV, _w(w), p)
            kb = _determinize_twin(b, p)
            assert ka == kb
            for f in ("grid", "pos_of", "mem", "kn", "rng"):
                assert (getattr(a, f) == getattr(b, f)).all(), f


@pytest.mark.parametrize("n,game,turns", [(2, 1, 4), (3, 2, 9), (2, 7, 10)])
def test_list_reveals_matches_its_slow_twin(n, game, turns):
    """greedy's pair first, then the best other pairs of slots by the exact
    expected points (ev_two_plain, the slow twin of ev_two), every pair listed
    when the width allows."""
    s = midgame(n, game, turns)
    assert s is not None
    p = int(s.sc[S_SEAT])
    w = search.new_search(T, n)
    m = search.list_reveals(_v(s), TV, _w(w), p, n, 0)
    a0, b0, kf = first_slots(_v(_copy(s)), TV, p, n, 2)
    assert (w.cand[0, 0], w.cand[0, 1]) == (a0, b0)
    unk = int(s.sc[S_GRID_CARDS]) & ~remembered(s, p)
    slots = bits(kf) + [
        -1 - wd for wd in range(T.n_wonders) if any((unk >> c) & 1 for c in column(wd))
    ]
    pairs = []
    for i, a in enumerate(slots):
        for b in slots[i:]:
            if a == b and (a >= 0 or sum((unk >> c) & 1 for c in column(-1 - a)) < 2):
                continue
            if {a, b} == {a0, b0} and (a != b or a0 == b0):
                continue
            pairs.append((a, b, float(ev_two_plain(_v(_copy(s)), TV, p, n, a, b, unk))))
    want = sorted(pairs, key=lambda x: -x[2])[: w.cand.shape[0] - 1]
    assert m == len(want) + 1 > 2
    got = [(int(w.cand[i, 0]), int(w.cand[i, 1]), float(w.cand_h[i])) for i in range(1, m)]
    assert [x[2] for x in got] == pytest.approx([x[2] for x in want], abs=1e-9)
    assert {(a, b) for a, b, _ in got} == {(a, b) for a, b, _ in want}


def test_list_steals_matches_its_slow_twin():
    """greedy's steal first, then one steal of each kind every other seat holds
    (its plastic diamond, each gem colour, a diamond card, a key or chest card)."""
    found = 0
    for game in range(40):
        s = midgame(3, game, 12)
        if s is None:
            continue
        p = int(s.sc[S_SEAT])
        if all(s.held[v, H_CARDS] == 0 and s.held[v, H_PLASTIC] == 0 for v in range(3) if v != p):
            continue
        w = search.new_search(T, 3)
        m = search.list_steals(_v(s), TV, _w(w), p, 3, 0)
        v0, c0 = choose_steal(_v(_copy(s)), TV, p, 3)
        assert (w.cand[0, 0], w.cand[0, 1]) == (v0, c0)
        kinds = set()
        for v in range(3):
            if v == p:
                continue
            if s.held[v, H_PLASTIC] > 0:
                kinds.add((v, -1))
            for c in range(T.n_cards):
                if s.owner[c] == v:
                    kinds.add((v, int(min(T.card_key[c], T.n_colours + 1))))

        def kind(v, c):
            return (v, -1 if c < 0 else int(min(T.card_key[c], T.n_colours + 1)))

        got = [kind(int(w.cand[i, 0]), int(w.cand[i, 1])) for i in range(m)]
        assert len(set(got)) == len(got)
        assert set(got) == kinds
        for i in range(m):
            c = int(w.cand[i, 1])
            assert c < 0 or s.owner[c] == w.cand[i, 0]
        found += 1
        if found >= 5:
            break
    assert found >= 5


def test_rollouts_leave_the_game_untouched():
    """Only what greedy's own decision works out changes (the seat's memory mask,
    recounted at its first decision)."""
    s = midgame(2, 3, 6)
    assert s is not None
    recount_memory(_v(s), TV, int(s.sc[S_SEAT]))
    before = _copy(s)
    rank(s, 2, int(s.sc[S_SEAT]))
    for f in ("grid", "pos_of", "owner", "held", "mem", "kn", "rng", "gems", "stats"):
        assert (getattr(s, f) == getattr(before, f)).all(), f


@pytest.mark.parametrize(
    "sp,match",
    [
        ({"search": {"budget": 0}}, r"strategy_params\.search\.budget: bad value 0"),
        ({"search": {"width": 2.5}}, r"strategy_params\.search\.width: bad value 2\.5"),
        ({"search": {"depth": 3}}, r"strategy_params\.search: bad value 'depth'"),
        ({"search": {"z": "high"}}, r"strategy_params\.search\.z: bad value 'high'"),
    ],
)
def test_bad_search_settings(sp, match):
    with pytest.raises(InputError, match=match):
        make_job(2, ["search", "greedy"], 1, strategy_params=sp)
