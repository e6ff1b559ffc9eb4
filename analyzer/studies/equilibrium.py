"""The strategy meta-game: which mixture of strategies no strategy beats.

A ladder (:mod:`analyzer.studies.ratings`) measures ``S[i, j]``, the mean win
share of one seat of strategy *i* against a field of *j* in every other seat
(all seats in turn, the same game seeds). The meta-game is the two-player,
zero-sum, symmetric game whose payoff to *i* against *j* is

    ``M[i, j] = S[i, j] - S[j, i]``

how much better a seat of *i* does in a field of *j* than a seat of *j* in a
field of *i*. At 2 players, where the two shares of a game sum to 1, this is
``2 S[i, j] - 1`` (the win share above a fair half, doubled): the usual
symmetric meta-game of empirical game theory (Hernandez et al., "Metagame
autobalancing", 2020). ``M`` is antisymmetric, so the game's value is 0 and a
symmetric equilibrium is a mixture ``x`` with ``x @ M[:, j] >= 0`` for every
*j*: no strategy, played against the mixture, wins more than it loses. It is
found by the linear program (scipy's HiGHS)

    maximise ``v`` subject to ``x @ M[:, j] >= v`` for all *j*, ``sum(x) = 1``, ``x >= 0``.

A strategy *dominates* when the equilibrium plays it alone (a pure
equilibrium). The entropy of the mixture (in bits; 0 for a pure one,
``log2 k`` for *k* strategies in equal shares) is its strategy diversity
(Pendurkar et al., AAMAS 2023).

**Intervals.** Percentile intervals from a bootstrap over game indices, as the
ladder's ratings: each replicate draws game indices with replacement (every
line-up's games of a drawn index together, so common random numbers stay
paired), recomputes ``S`` and solves again. The shares' intervals are
*simultaneous* 95% intervals (Bonferroni over the *k* strategies: each a
``1 - 0.05/k`` percentile interval): together they cover the whole equilibrium,
the vector a sentence such as "mixes claimer 58% [45, 70] and collector 42%
[30, 55]" states, at least 95% of the time; one share's own 95% interval would
be narrower. The entropy's is a plain 95% percentile interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: a share below this is "not played" in words (the LP's zeros are exact, its others not)
SUPPORT = 0.005


@dataclass(frozen=True)
class Equilibrium:
    """A symmetric equilibrium of the meta-game with its bootstrap intervals."""

    strategies: tuple[str, ...]
    shares: np.ndarray  #: float[S], sums to 1
    low: np.ndarray  #: simultaneous 95% percentile interval, float[S] (nan: no bootstrap)
    high: np.ndarray
    entropy: float  #: bits
    entropy_low: float
    entropy_high: float
    value: float  #: the LP's value (0 up to rounding: the game is symmetric)
    bootstrap: int
    pure_share: float  #: share of replicates whose equilibrium is pure (nan: none)

    def as_dict(self) -> dict:
        """The keys a ladder's ``ladder.json`` gains."""
        return {
            "equilibrium": {s: _r(x) for s, x in zip(self.strategies, self.shares, strict=True)},
            "equilibrium_interval": {
                s: [_r(lo), _r(hi)]
                for s, lo, hi in zip(self.strategies, self.low, self.high, strict=True)
            },
            "entropy": _r(self.entropy),
            "entropy_interval": [_r(self.entropy_low), _r(self.entropy_high)],
            "equilibrium_method": (
                "symmetric equilibrium of the zero-sum meta-game M[i,j] = S[i,j] - S[j,i] "
                "(S: one seat's win share against a field of the other) by linear "
                "programming (HiGHS); entropy in bits; percentile bootstrap over game indices "
                f"({self.bootstrap} resamples, line-ups kept paired): the shares' intervals "
                "simultaneous 95% (Bonferroni over the strategies), the entropy's 95%"
            ),
        }


def _r(x: float) -> float | None:
    return round(float(x), 6) if math.isfinite(float(x)) else None


def meta_payoff(share: np.ndarray) -> np.ndarray:
    """``M = S - S.T`` (antisymmetric) from the head-to-head shares ``S``."""
    share = np.asarray(share, float)
    share = np.where(np.isfinite(share), share, 0.0)
    return share - share.T


def solve(payoff: np.ndarray) -> tuple[np.ndarray, float]:
    """A maximin mixture of the row player of the zero-sum game ``payoff``
    (float[S, S], rows: the mixture's strategies) and the game's value.

    Among the maximin mixtures the LP's first answer is taken, then shares below
    1e-9 are set to 0 and the rest renormalised."""
    from scipy.optimize import linprog

    m = np.asarray(payoff, float)
    n = m.shape[0]
    c = np.zeros(n + 1)
    c[-1] = -1.0  # maximise v
    a_ub = np.hstack([-m.T, np.ones((n, 1))])  # v - x @ M[:, j] <= 0
    a_eq = np.zeros((1, n + 1))
    a_eq[0, :n] = 1.0
    res = linprog(
        c,
        A_ub=a_ub,
        b_ub=np.zeros(n),
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
        method="highs",
    )
    if res.status != 0:  # cannot happen for a finite matrix: the simplex is feasible, v bounded
        raise RuntimeError(f"meta-game LP: {res.message}")
    x = np.clip(res.x[:n], 0.0, None)
    x[x < 1e-9] = 0.0
    return x / x.sum(), float(res.x[-1])


def simultaneous_tail(strategies: int, level: float = 0.95) -> float:
    """Each tail of a share's percentile interval so that the intervals of all
    ``strategies`` shares together cover the equilibrium with probability at least
    ``level`` (Bonferroni: ``(1 - level) / 2 / strategies``)."""
    return (1 - level) / 2 / max(int(strategies), 1)


def entropy_bits(x: np.ndarray) -> float:
    """The entropy of a mixture in bits (``0 log 0 = 0``)."""
    x = np.asarray(x, float)
    x = x[x > 0]
    return float(-(x * np.log2(x)).sum()) + 0.0


def equilibrium(
    strategies: Sequence[str],
    per_game: dict[tuple[str, str], np.ndarray],
    bootstrap: int = 1000,
    seed=0,
) -> Equilibrium:
    """The meta-game's equilibrium from per-game outcomes.

    ``per_game[(a, b)]``: float[G], game by game (the same game indices for every
    pair), the mean over seats of a seat of ``a``'s win share against a field of
    ``b`` (plain or luck-adjusted). ``bootstrap`` resamples of the game indices
    (drawn from ``numpy.random.default_rng(seed)``) give the intervals."""
    names = tuple(strategies)
    n = len(names)
    games = len(next(iter(per_game.values())))
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    x_rows = np.stack([np.asarray(per_game[(names[i], names[j])], float) for i, j in pairs])
    rows = np.array([i for i, _ in pairs])
    cols = np.array([j for _, j in pairs])

    def share_of(means: np.ndarray) -> np.ndarray:
        s = np.full((n, n), np.nan)
        s[rows, cols] = means
        return s

    shares, value = solve(meta_payoff(share_of(x_rows.mean(axis=1))))
    h = entropy_bits(shares)
    low = high = np.full(n, np.nan)
    h_lo = h_hi = math.nan
    pure = math.nan
    if bootstrap:
        rng = np.random.default_rng(seed)
        boot = np.empty((bootstrap, n))
        hb = np.empty(bootstrap)
        for b in range(bootstrap):
            w = np.bincount(rng.integers(0, games, games), minlength=games).astype(float)
            boot[b], _ = solve(meta_payoff(share_of(x_rows @ w / games)))
            hb[b] = entropy_bits(boot[b])
        tail = 100 * simultaneous_tail(n)
        low, high = np.percentile(boot, [tail, 100 - tail], axis=0)
        h_lo, h_hi = np.percentile(hb, [2.5, 97.5])
        pure = float(np.mean((boot > 1 - 1e-9).any(axis=1)))
    return Equilibrium(
        strategies=names,
        shares=shares,
        low=np.asarray(low, float),
        high=np.asarray(high, float),
        entropy=h,
        entropy_low=float(h_lo),
        entropy_high=float(h_hi),
        value=value,
        bootstrap=int(bootstrap),
        pure_share=pure,
    )


# --------------------------------------------------------------------------- words

#: the words live with the questions (the tables layer); still importable from here
from analyzer.tables.landscape import equilibrium_sentences, field_words  # noqa: E402,F401
