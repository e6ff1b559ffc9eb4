"""Determinized Monte Carlo search, for every game: the statistics and the schedule.

A game's ``search`` player and its deep advice play *rollouts*: from a copy of
the game in which everything the seat cannot see is dealt again, one choice is
played and the game finished by tuned players. What only the game knows (the
deal, the choices of a decision, playing a choice, finishing a game) stays in
the game's kernels; what is the same in every game lives here, once:

- **the budget, spent by sequential halving** (Karnin, Koren and Somekh, 2013):
  :func:`halving_rounds` rounds, every surviving choice getting
  :func:`halving_share` rollouts per round, the worse half dropped by
  :func:`drop_worst` (never choice 0, the base player's);
- **common random numbers**: rollout ``j`` of every choice starts from the same
  dealt copy and stream, so choices are compared on the same luck, and each
  choice's rollouts are paired with choice 0's (:func:`record_paired`);
- **the guard** (:func:`guard_pick`): another choice replaces the base player's
  only if its mean paired gain exceeds ``z`` standard errors;
- **the intervals and the verdict** of deep advice (plain Python, no numba):
  :func:`rank_rollouts` (each choice's win chance, final score and paired gain
  to the best with 95% intervals, the order, the choices within noise), from
  :func:`paired_interval`, :func:`mean_interval`, :func:`best_index`,
  :func:`rank_order`, :func:`within_noise`; :func:`verdict_words`.

The kernels read a work view with the fields ``alive``, ``n``, ``win``,
``win2``, ``score``, ``score2``, ``value``, ``dsum``, ``dsq`` (float64 per
choice; ``alive`` int64) and the rollout value's weight given as ``margin``.
Numba compiles them for each game's view, so a game's arithmetic is exactly
what it was when these lines lived in the game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.jit import njit

# ====================================================================== kernels


@njit
def reset_choices(w, n):
    """Clear the tallies of the first ``n`` choices and make them all alive."""
    for c in range(n):
        w.alive[c] = 1
        w.n[c] = 0.0
        w.win[c] = 0.0
        w.win2[c] = 0.0
        w.score[c] = 0.0
        w.score2[c] = 0.0
        w.value[c] = 0.0
        w.dsum[c] = 0.0
        w.dsq[c] = 0.0


@njit
def record(w, c, win, score, other, margin):
    """Add a rollout of choice ``c`` (the seat's win share, its final score, the
    best other final score); returns its value: the win share plus ``margin``
    times the score margin (a tie-breaker that lowers the noise)."""
    v = win + margin * (score - other)
    w.n[c] += 1.0
    w.win[c] += win
    w.win2[c] += win * win
    w.score[c] += score
    w.score2[c] += score * score
    w.value[c] += v
    return v


@njit
def record_paired(w, c, v, v0):
    """Pair choice ``c``'s rollout value ``v`` with choice 0's ``v0`` (same
    dealt copy, same stream)."""
    dv = v - v0
    w.dsum[c] += dv
    w.dsq[c] += dv * dv


@njit
def halving_rounds(n):
    """Rounds of sequential halving over ``n`` choices: ``ceil(log2 n)``."""
    rounds = 0
    k = 1
    while k < n:
        k *= 2
        rounds += 1
    return rounds


@njit
def halving_share(budget, alive, rounds):
    """Rollouts per surviving choice in one round (at least one)."""
    per = budget // (alive * rounds)
    if per < 1:
        per = 1
    return per


@njit
def drop_worst(w, n, alive):
    """End a round: keep the better half of the ``alive`` choices (at least two)
    by mean paired gain over choice 0, which is never dropped; ties drop the
    later (worse by the base player) choice. Returns how many stay alive."""
    keep = (alive + 1) // 2
    if keep < 2:
        keep = 2
    while alive > keep:
        worst = -1
        for c in range(1, n):
            if w.alive[c] and (worst < 0 or w.dsum[c] / w.n[c] <= w.dsum[worst] / w.n[worst]):
                worst = c
        w.alive[worst] = 0
        alive -= 1
    return alive


@njit
def guard_pick(w, n, z):
    """The choice to play: the alive one with the best mean paired gain over
    choice 0 among those whose gain exceeds ``z`` standard errors, else 0."""
    best = 0
    gain = 0.0
    for c in range(1, n):
        if not w.alive[c]:
            continue
        mean = w.dsum[c] / w.n[c]
        var = w.dsq[c] / w.n[c] - mean * mean
        se = np.sqrt(max(var, 0.0) / w.n[c])
        if mean - z * se > 0.0 and mean > gain:
            best = c
            gain = mean
    return best


# ====================================================================== plain Python


def mean_interval(total: float, squares: float, n: float) -> tuple[float, float, float]:
    """Mean of ``n`` values from their sum and sum of squares, with a normal 95%
    interval (population variance, as the rollouts' tallies keep it)."""
    mean = total / n
    se = math.sqrt(max(squares / n - mean * mean, 0.0) / n)
    return mean, mean - 1.96 * se, mean + 1.96 * se


def paired_interval(values, best_values) -> tuple[float, float, float]:
    """Mean difference of one choice's rollout values to the best's over the same
    rollouts (common random numbers), with its 95% interval (infinite with one
    rollout)."""
    diff = np.asarray(values) - np.asarray(best_values)
    mean = float(diff.mean())
    se = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else math.inf
    return mean, mean - 1.96 * se, mean + 1.96 * se


def best_index(win, score, n) -> int:
    """The choice with the best mean win share, ties broken by mean score."""
    return int(np.argmax(win / n + 1e-9 * score / n))


def rank_order(wins: list[float], scores: list[float]) -> list[int]:
    """Choices best first: by win chance, then by final score (stable)."""
    return sorted(range(len(wins)), key=lambda c: (-wins[c], -scores[c]))


def within_noise(gain_highs: list[float]) -> tuple[int, ...]:
    """Ranks (best first, the best at 0) whose paired 95% interval against the
    best reaches 0: not distinguishable from it by these rollouts."""
    return tuple(i for i, hi in enumerate(gain_highs) if i > 0 and hi >= 0)


@dataclass(frozen=True)
class RolloutRow:
    """One choice of a deep ranking: what its rollouts say (95% intervals:
    Wilson for the win chance, normal for the score and the paired gain)."""

    index: int  #: the choice's index in the game's list
    rollouts: int
    win: float
    win_ci: tuple[float, float]
    score: float
    score_ci: tuple[float, float]
    gain: float  #: mean paired win-share difference to the best choice (0 for it)
    gain_ci: tuple[float, float]


@dataclass(frozen=True)
class Ranking:
    rows: tuple[RolloutRow, ...]  #: best first
    within_noise: tuple[int, ...]  #: ranks (in ``rows``) not distinguishable from the best


def rank_rollouts(n, win, score, score2, wins_by) -> Ranking:
    """A deep ranking from the tallies of ``len(n)`` choices played on the same
    rollouts (``wins_by[c, j]``: choice ``c``'s win share on rollout ``j``):
    each choice's win chance, final score and paired gain to the best, the
    choices best first (:func:`rank_order`) and those within noise of the best."""
    from analyzer.stats import wilson

    k = len(n)
    best = best_index(win[:k], score[:k], n[:k])
    rows = []
    for c in range(k):
        nn = float(n[c])
        lo, hi = wilson(win[c], nn)
        sc, sc_lo, sc_hi = mean_interval(score[c], score2[c], nn)
        if c == best:
            g, glo, ghi = 0.0, 0.0, 0.0
        else:
            g, glo, ghi = paired_interval(wins_by[c, : int(n[c])], wins_by[best, : int(n[best])])
        rows.append(
            RolloutRow(
                c, int(nn), win[c] / nn, (float(lo), float(hi)), sc, (sc_lo, sc_hi), g, (glo, ghi)
            )
        )
    order = rank_order([r.win for r in rows], [r.score for r in rows])
    ranked = tuple(rows[c] for c in order)
    return Ranking(ranked, within_noise([r.gain_ci[1] for r in ranked]))


def verdict_words(best: str, best_win: float, tied: list[str]) -> str:
    """The answer of a deep ranking in words."""
    pct = f"{100 * best_win:.1f}%"
    if tied:
        return (
            f"Best: {best} ({pct} win chance), but within noise of: {', '.join(tied)} "
            "(their paired 95% intervals include 0; raise --budget to separate them)."
        )
    return f"Best: {best} ({pct} win chance); every other choice is worse beyond noise."
