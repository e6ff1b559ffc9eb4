"""The shared search machinery (analyzer/search.py) against a plain-Python twin.

The kernels are driven from Python over synthetic rollout values (each choice's
value on rollout ``j`` a fixed function of ``c`` and ``j``, the same ``j`` for
every choice as common random numbers give), and the twin plays the same
sequential halving with the guard in lists. Unearth's own tests (test_search,
test_advise, the pinned hashes) hold the games and rankings played through them.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pytest

from analyzer.core.errors import InputError
from analyzer.kernels import search as S
from analyzer.kernels.jit import njit
from analyzer.kernels.kernel_view import make_view
from analyzer.kernels.rng import rng_next, rng_seed


class Driven(NamedTuple):
    cfg: np.ndarray
    rng: np.ndarray
    count: np.ndarray
    alive: np.ndarray
    n: np.ndarray
    win: np.ndarray
    win2: np.ndarray
    score: np.ndarray
    score2: np.ndarray
    value: np.ndarray
    dsum: np.ndarray
    dsq: np.ndarray
    wins_by: np.ndarray


def _driven(n, z, margin, keep=1):
    cfg = np.zeros(4)
    cfg[S.CFG_MARGIN], cfg[S.CFG_Z] = margin, z
    count = np.zeros(2, np.int64)
    return Driven(cfg=cfg, rng=np.zeros(6, np.uint64), count=count, **S.tally_arrays(n, keep))


def outcome(c, j, shift):
    """(win share, score, best other score) of choice ``c`` on rollout ``j``."""
    luck = ((j * 7919 + 13) % 17) / 17.0  # shared by every choice: common random numbers
    noise = ((c * 31 + j * 101) % 11) / 11.0 - 0.5
    score = 40 + 10 * luck + shift[c] + noise
    other = 45 + 5 * luck
    win = 1.0 if score > other else (0.5 if score == other else 0.0)
    return win, score, other


def kernels(n, budget, z, margin, shift):
    w = _driven(n, z, margin)
    v = make_view(w, "Driven")
    S.reset_choices(v, n)
    rounds = S.halving_rounds(n)
    alive, j0 = n, 0
    while True:
        per = S.halving_share(budget, alive, rounds)
        for j in range(j0, j0 + per):
            v0 = S.record(v, 0, *outcome(0, j, shift), margin)
            for c in range(1, n):
                if w.alive[c]:
                    S.record_paired(v, c, S.record(v, c, *outcome(c, j, shift), margin), v0)
        j0 += per
        if alive <= 2:
            break
        alive = S.drop_worst(v, n, alive)
    return S.guard_pick(v, n, z), w


def twin(n, budget, z, margin, shift):
    """Sequential halving and the guard, written plainly."""
    rounds = math.ceil(math.log2(n)) if n > 1 else 0
    alive = list(range(n))
    diffs = {c: [] for c in range(n)}
    j = 0
    while True:
        per = max(1, budget // (len(alive) * rounds))
        for _ in range(per):
            win, score, other = outcome(0, j, shift)
            v0 = win + margin * (score - other)
            for c in alive[1:]:
                win, score, other = outcome(c, j, shift)
                diffs[c].append(win + margin * (score - other) - v0)
            j += 1
        if len(alive) <= 2:
            break
        keep = max((len(alive) + 1) // 2, 2)
        while len(alive) > keep:  # the worst mean goes; on ties the later one
            worst = max(alive[1:], key=lambda c: (-sum(diffs[c]) / len(diffs[c]), c))
            alive.remove(worst)
    best, gain = 0, 0.0
    for c in alive[1:]:
        d = np.array(diffs[c])
        se = math.sqrt(max((d * d).mean() - d.mean() ** 2, 0.0) / len(d))
        if d.mean() - z * se > 0 and d.mean() > gain:
            best, gain = c, d.mean()
    return best, {c: len(diffs[c]) for c in alive}


@pytest.mark.parametrize(
    "n, budget, z, shift",
    [
        (6, 256, 1.0, [0, -3, 4, 1, 4, -1]),
        (5, 64, 3.0, [0, 0.2, -2, 0.1, 0.3]),
        (2, 40, 1.0, [0, 2]),
        (7, 12, 1.0, [0, 1, 2, 3, 4, 5, 6]),
        (4, 400, 50.0, [0, 5, 5, 5]),
    ],
)
def test_halving_and_guard_equal_the_twin(n, budget, z, shift):
    got, w = kernels(n, budget, z, 0.01, shift)
    want, counts = twin(n, budget, z, 0.01, shift)
    assert got == want
    assert {c: int(w.n[c]) for c in range(1, n) if w.alive[c]} == {
        c: k for c, k in counts.items() if c > 0
    }


def test_the_guard_keeps_the_base_choice_unless_surely_better():
    shift = [0, 0.01, -5]
    assert kernels(3, 300, 1000.0, 0.01, shift)[0] == 0  # a huge z: never sure
    assert kernels(3, 300, 0.0, 0.01, [0, 6, -5])[0] == 1


def test_statistics_in_python():
    mean, lo, hi = S.paired_interval([1, 0, 1, 1], [0, 0, 1, 0])
    assert mean == 0.5 and lo < 0.5 < hi and math.isclose(hi - mean, mean - lo)
    assert S.paired_interval([1], [0])[1] == -math.inf
    assert S.mean_interval(10.0, 50.0, 2.0) == (5.0, 5.0, 5.0)
    assert S.rank_order([0.5, 0.7, 0.7], [3, 1, 2]) == [2, 1, 0]
    assert S.within_noise([0.0, -0.1, 0.02, 0.0]) == (2, 3)
    assert S.best_index(np.array([1.0, 2.0]), np.array([5.0, 1.0]), np.array([2.0, 2.0])) == 1
    assert "within noise of: b" in S.verdict_words("a", 0.5, ["b"])
    assert "beyond noise" in S.verdict_words("a", 0.5, [])


# ---------------------------------------------------------------- the bound drivers


def _shift(c, a, b):
    return a * ((c * 5) % 7 - 3) + b * c


@njit
def _synthetic_roll(args, c, base, j):
    """``outcome`` as a game's roll kernel: choice ``c``'s shift from ``args``."""
    a, b = args
    shift = a * ((c * 5) % 7 - 3) + b * c
    luck = ((j * 7919 + 13) % 17) / 17.0
    noise = ((c * 31 + j * 101) % 11) / 11.0 - 0.5
    score = 40 + 10 * luck + shift + noise
    other = 45 + 5 * luck
    win = 1.0 if score > other else (0.5 if score == other else 0.0)
    return win, score, other


_drivers = S.bind_search(_synthetic_roll)


@pytest.mark.parametrize(
    "n, budget, z, a, b",
    [
        (6, 256, 1.0, 1.0, 0.0),
        (5, 64, 3.0, 0.3, -0.2),
        (2, 40, 1.0, 0.0, 2.0),
        (7, 12, 1.0, 0.5, 1.0),
    ],
)
def test_the_bound_halving_driver_equals_the_twin(n, budget, z, a, b):
    """:func:`analyzer.kernels.search.bind_search`'s halving, over a synthetic roll
    kernel, picks what the plain twin picks with the same rollout counts."""
    w = _driven(n, z, 0.01)
    v = make_view(w, "Driven")
    S.reset_choices(v, n)
    got = _drivers.halving_choice((a, b), v, n, budget)
    shift = [_shift(c, a, b) for c in range(n)]
    want, counts = twin(n, budget, z, 0.01, shift)
    assert got == want == kernels(n, budget, z, 0.01, shift)[0]
    assert {c: int(w.n[c]) for c in range(1, n) if w.alive[c]} == {
        c: k for c, k in counts.items() if c > 0
    }
    assert w.count[S.K_ROLLOUTS] == w.n[:n].sum()  # every rollout played is counted


def test_a_decision_searches_only_between_two_choices_or_more():
    """``decide``: choice 0 without playing a rollout when there is one choice
    (or none); else the halving driver's choice with the budget of ``cfg``, the
    decision counted."""
    for n in (0, 1):
        w = _driven(4, 1.0, 0.01)
        assert _drivers.decide((1.0, 0.0), make_view(w, "Driven"), n) == 0
        assert list(w.count) == [0, 0]
    w = _driven(6, 1.0, 0.01)
    w.cfg[S.CFG_BUDGET] = 256
    v = make_view(w, "Driven")
    S.reset_choices(v, 6)
    got = _drivers.decide((1.0, 0.0), v, 6)
    assert got == twin(6, 256, 1.0, 0.01, [_shift(c, 1.0, 0.0) for c in range(6)])[0]
    assert w.count[S.K_DECISIONS] == 1 and w.count[S.K_ROLLOUTS] == w.n[:6].sum() > 0
    assert _drivers.rollouts_for_all((1.0, 0.0), v, 0, 7, np.uint64(3), 100) == 0


@pytest.mark.parametrize("n, budget, keep, per", [(4, 40, 50, 10), (3, 2, 50, 2), (5, 500, 7, 7)])
def test_the_bound_deep_driver_plays_every_choice_on_the_same_rollouts(n, budget, keep, per):
    """Deep advice's driver: ``budget // n`` rollouts a choice (at least 2, at
    most the room kept), each choice's win shares kept in ``wins_by``."""
    w = _driven(n, 1.0, 0.01, keep)
    S.reset_choices(make_view(w, "Driven"), n)
    got = _drivers.rollouts_for_all((0.4, 0.1), make_view(w, "Driven"), n, 7, np.uint64(3), budget)
    assert got == n and w.count[S.K_ROLLOUTS] == n * per
    assert list(w.n[:n]) == [per] * n
    for c in range(n):
        wins = [_synthetic_roll((0.4, 0.1), c, 0, j)[0] for j in range(per)]
        assert list(w.wins_by[c, :per]) == wins and w.win[c] == sum(wins)
    assert S.rank_work(w, n).rows[0].rollouts == per


class Played(NamedTuple):
    rows: np.ndarray  #: uint64[games, 2]: each game's index and its search's first draw


@njit
def _synthetic_game(args, key0, key1, game, i):
    """``play_game`` as a game's kernel: row ``i`` gets the game's index and the
    first draw of the search's stream."""
    out, w = args
    out.rows[i, 0] = game
    out.rows[i, 1] = rng_next(w.rng)


_batch = S.bind_search(_synthetic_roll, _synthetic_game)


def _played(start, count, key0, key1, salt):
    out = Played(np.zeros((count, 2), np.uint64))
    v = make_view(_driven(2, 1.0, 0.01), "Driven")
    _batch.play_batch((make_view(out, "Played"), v), v, key0, key1, start, count, salt)
    return out.rows


def test_the_batch_driver_seeds_each_games_search_stream_from_its_index():
    """``play_batch``: game ``g`` of a batch is played with the search's stream
    seeded by the run's keys (the first mixed with the game's salt) and ``g``
    alone, so any split of the run into batches plays the same games."""
    key0, key1, salt = np.uint64(11), np.uint64(12), np.uint64(0xABC)
    whole = _played(0, 6, key0, key1, salt)
    split = np.concatenate([_played(a, k, key0, key1, salt) for a, k in ((0, 2), (2, 3), (5, 1))])
    assert (whole == split).all() and list(whole[:, 0]) == list(range(6))
    for g in range(6):  # the twin: one stream per game index
        rng = np.zeros(6, np.uint64)
        rng_seed(rng, key0 ^ salt, key1, g)
        assert whole[g, 1] == rng_next(rng)
    assert S.bind_search(_synthetic_roll).play_batch is None


class Listed(NamedTuple):
    cfg: np.ndarray
    rng: np.ndarray
    count: np.ndarray
    cand: np.ndarray
    cand_h: np.ndarray
    alive: np.ndarray
    n: np.ndarray
    win: np.ndarray
    win2: np.ndarray
    score: np.ndarray
    score2: np.ndarray
    value: np.ndarray
    dsum: np.ndarray
    dsq: np.ndarray
    wins_by: np.ndarray


def insert_twin(listed, lo, cap, v, word):
    """:func:`insert_choice` written plainly: the choices from ``lo`` on sorted
    by decreasing value (stable), cut to ``cap``."""
    head, tail = listed[:lo], listed[lo:]
    at = next((i for i, (h, _) in enumerate(tail) if h < v), len(tail))
    return (head + tail[:at] + [(v, word)] + tail[at:])[:cap]


@pytest.mark.parametrize("seed", range(40))
def test_insert_choice_equals_its_twin(seed):
    """A list of choices kept best first by the base player's value: every
    insertion (ties, a full list, a fixed head) as the plain twin does it."""
    gen = np.random.default_rng(seed)
    k = 8
    lo = int(gen.integers(0, 3))
    cap = int(gen.integers(max(lo, 1), k + 1))
    w = Listed(**S.search_arrays(np.zeros(4), k))
    v = make_view(w, "Listed")
    listed = []
    n = 0
    for i in range(int(gen.integers(1, 15))):
        value = float(gen.integers(0, 5))  # few values: many ties
        word = (i, int(gen.integers(-1, 9)), 7 * i)
        if n < lo:
            S.set_choice(v, n, value, *word)
            n += 1
            listed.append((value, word))
            continue
        n = S.insert_choice(v, lo, n, cap, value, *word)
        listed = insert_twin(listed, lo, cap, value, word)
        assert n == len(listed)
        assert [(float(w.cand_h[j]), tuple(int(x) for x in w.cand[j])) for j in range(n)] == listed


def test_keep_choices_cuts_to_the_width_and_clears_the_tallies():
    w = Listed(**S.search_arrays(np.zeros(4), 6))
    v = make_view(w, "Listed")
    w.n[:] = 3.0
    w.dsum[:] = 1.0
    assert S.keep_choices(v, 5, 0) == 5 and S.keep_choices(v, 5, 9) == 5
    assert S.keep_choices(v, 5, 3) == 3
    assert list(w.alive[:3]) == [1, 1, 1] and not w.n[:5].any() and not w.dsum[:5].any()


def test_search_settings_checks_each_value():
    table = {"budget": (1, 100, "1 to 100"), "margin": (0.0, 1.0, "0 to 1")}
    rows = (("budget", 10, ""), ("margin", 0.01, ""))
    got = S.search_settings({"search": {"budget": np.int64(5), "other": 1}}, rows, table)
    assert got == {"budget": 5.0, "margin": 0.01}
    for bad in (2.5, 0, 101, True, float("inf"), "3"):
        with pytest.raises(InputError, match=r"strategy_params\.search\.budget: bad value"):
            S.search_settings({"search": {"budget": bad}}, rows, table)
    with pytest.raises(InputError, match=r"strategy_params\.search: bad value 'other'"):
        S.search_settings({"search": {"other": 1}}, rows, table, strict=True)
