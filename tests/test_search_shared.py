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

from analyzer import search as S
from analyzer.kernel_view import make_view


class Work(NamedTuple):
    alive: np.ndarray
    n: np.ndarray
    win: np.ndarray
    win2: np.ndarray
    score: np.ndarray
    score2: np.ndarray
    value: np.ndarray
    dsum: np.ndarray
    dsq: np.ndarray


def _work(k):
    f = np.zeros
    return Work(f(k, np.int64), *(f(k, np.float64) for _ in range(8)))


def outcome(c, j, shift):
    """(win share, score, best other score) of choice ``c`` on rollout ``j``."""
    luck = ((j * 7919 + 13) % 17) / 17.0  # shared by every choice: common random numbers
    noise = ((c * 31 + j * 101) % 11) / 11.0 - 0.5
    score = 40 + 10 * luck + shift[c] + noise
    other = 45 + 5 * luck
    win = 1.0 if score > other else (0.5 if score == other else 0.0)
    return win, score, other


def kernels(n, budget, z, margin, shift):
    w = _work(n)
    v = make_view(w, "Work")
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
