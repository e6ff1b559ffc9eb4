"""Determinized Monte Carlo search, for every game: the schedule, the statistics, the drivers.

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
- **the listed choices**, the base player's first, the others best first by its
  evaluation (:func:`set_choice`, :func:`insert_choice`, :func:`keep_choices`);
- **the intervals and the verdict** of deep advice (plain Python, no numba):
  :func:`rank_rollouts` (each choice's win chance, final score and paired gain
  to the best with 95% intervals, the order, the choices within noise), from
  :func:`paired_interval`, :func:`mean_interval`, :func:`best_index`,
  :func:`rank_order`, :func:`within_noise`; :func:`verdict_words`.

The kernels read a work view with the fields ``alive``, ``n``, ``win``,
``win2``, ``score``, ``score2``, ``value``, ``dsum``, ``dsq`` (float64 per
choice; ``alive`` int64; :func:`tally_arrays` makes them), ``wins_by``
(float64[choices, rollouts kept]), ``rng`` (the search's stream), ``cfg``
(float64 settings, starting with :data:`CFG_BUDGET`, :data:`CFG_WIDTH`,
:data:`CFG_MARGIN`, :data:`CFG_Z`), ``count`` (int64 counters, starting with
:data:`K_DECISIONS`, :data:`K_ROLLOUTS`) and the listed choices, ``cand``
(int64[choices, 3]: each choice as three words that only the game reads) with
``cand_h`` (float64 per choice: its value by the base player's evaluation,
which :func:`insert_choice` keeps them ordered by). :func:`search_arrays` makes
every one of them. Numba compiles the kernels for each game's view, so a
game's arithmetic is exactly what it was when these lines lived in the game.

**The drivers** play a game's rollouts through ``roll(args, c, base, j)``: a
game's kernel that plays rollout ``j`` of choice ``c`` from the stream
``base`` and returns the seat's (win share, final score, best other final
score), ``args`` the tuple of what it needs. :func:`bind_search` makes them for
a game: a decision of the ``search`` player (:func:`_decide`, sequential
halving), deep advice's rollouts of every choice, and the batch loop of games
with ``search`` seats around the game's ``play_game(args, key0, key1, game,
i)``. A game keeps only what it alone knows: its deal of what a seat cannot
see, its choices, its rollout and its game loop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import FunctionType
from typing import NamedTuple

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_next, rng_seed
from analyzer.kernels.search_settings import search_settings  # noqa: F401  (re-exported)

#: the settings every game's search keeps first in its ``cfg`` row (a game adds its own after)
CFG_BUDGET = 0  #: rollouts per decision
CFG_WIDTH = 1  #: choices kept for the rollouts
CFG_MARGIN = 2  #: weight of (my score - best other score) in a rollout's value
#: how sure the rollouts must be before another choice replaces the base player's:
#: its mean paired gain must exceed this many standard errors
CFG_Z = 3
#: the counters every game's search keeps first in its ``count`` row (a game adds its own after)
K_DECISIONS = 0  #: decisions searched (more than one choice)
K_ROLLOUTS = 1  #: rollouts played

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
def keep_choices(w, n, width):
    """The first ``n`` listed choices, at most ``width`` of them (all if
    ``width`` <= 0), their tallies cleared (:func:`reset_choices`); returns how
    many."""
    if width > 0 and n > width:
        n = width
    reset_choices(w, n)
    return n


@njit
def set_choice(w, i, v, a, b, c):
    """Listed choice ``i`` is ``(a, b, c)``, of value ``v`` by the base player."""
    w.cand_h[i] = v
    w.cand[i, 0] = a
    w.cand[i, 1] = b
    w.cand[i, 2] = c


@njit
def insert_choice(w, lo, n, cap, v, a, b, c):
    """Add the choice ``(a, b, c)`` of value ``v`` to the ``n`` listed, which
    are kept in decreasing value from index ``lo`` on (stable: a choice goes
    after those of equal value; the ones before ``lo`` stay first), at most
    ``cap`` of them: when ``cap`` are listed, it takes the last one's place if
    its value is higher, else it is not kept. Returns how many are listed."""
    j = n
    if n >= cap:
        if v <= w.cand_h[cap - 1]:
            return n
        j = cap - 1
    while j > lo and w.cand_h[j - 1] < v:
        set_choice(w, j, w.cand_h[j - 1], w.cand[j - 1, 0], w.cand[j - 1, 1], w.cand[j - 1, 2])
        j -= 1
    set_choice(w, j, v, a, b, c)
    return min(n + 1, cap)


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


def roll(args, c, base, j):  # pragma: no cover - replaced by each game's kernel
    """The name :func:`bind_search` gives a game's rollout kernel in the drivers."""
    raise NotImplementedError("analyzer.kernels.search.bind_search binds a game's roll")


def play_game(args, key0, key1, game, i):  # pragma: no cover - replaced by each game's kernel
    """The name :func:`bind_search` gives a game's kernel that plays game ``game``
    (of the run seeded by ``key0, key1``) with ``search`` seats into the batch's
    rows of its ``i``-th game."""
    raise NotImplementedError("analyzer.kernels.search.bind_search binds a game's play_game")


def _rolled(args, w, c, base, j):
    """Rollout ``j`` of choice ``c`` (``roll``), counted in ``w.count[K_ROLLOUTS]``."""
    w.count[K_ROLLOUTS] += 1
    return roll(args, c, base, j)


def _halving_choice(args, w, n, budget):
    """Sequential halving over the ``n`` listed choices with about ``budget``
    rollouts (``roll(args, c, base, j)``, module docstring); returns the index
    of the chosen one.

    Choice 0 (the base player's) is never dropped: every other choice's
    rollouts are paired with its rollouts on the same dealt copy and stream,
    and the choice kept is the one with the best paired gain over choice 0 that
    exceeds ``z`` standard errors, or choice 0 if none does."""
    margin = w.cfg[CFG_MARGIN]
    rounds = halving_rounds(n)
    base = rng_next(w.rng)
    alive = n
    j0 = 0
    while True:
        per = halving_share(budget, alive, rounds)
        for j in range(j0, j0 + per):
            win, score, other = _rolled(args, w, 0, base, j)
            v0 = record(w, 0, win, score, other, margin)
            for c in range(1, n):
                if w.alive[c]:
                    win, score, other = _rolled(args, w, c, base, j)
                    record_paired(w, c, record(w, c, win, score, other, margin), v0)
        j0 += per
        if alive <= 2:
            break
        alive = drop_worst(w, n, alive)
    return guard_pick(w, n, w.cfg[CFG_Z])


def _decide(args, w, n):
    """A decision of the ``search`` player among the ``n`` listed choices:
    choice 0 (the base player's) if it is the only one (or there is none),
    else :func:`_halving_choice` with the budget of ``w.cfg``, the decision
    counted in ``w.count[K_DECISIONS]``. Returns the index of the choice."""
    if n < 2:
        return 0
    w.count[K_DECISIONS] += 1
    return _halving_choice(args, w, n, np.int64(w.cfg[CFG_BUDGET]))


def _rollouts_for_all(args, w, n, key0, salt, budget):
    """Deep advice: each of the ``n`` listed choices with ``budget // n``
    rollouts (at least 2, at most the room of ``w.wins_by``), rollout ``j`` on
    the same dealt copy and stream for every choice, from the search's stream
    seeded by ``key0`` mixed with the game's ``salt``; ``w.wins_by`` keeps each
    rollout's win share. Returns ``n`` (no rollout when it is 0)."""
    if n == 0:
        return 0
    rng_seed(w.rng, np.uint64(key0) ^ salt, 0, 0)
    base = rng_next(w.rng)
    per = budget // n
    if per < 2:
        per = 2
    if per > w.wins_by.shape[1]:
        per = w.wins_by.shape[1]
    margin = w.cfg[CFG_MARGIN]
    for j in range(per):
        for c in range(n):
            win, score, other = _rolled(args, w, c, base, j)
            record(w, c, win, score, other, margin)
            w.wins_by[c, j] = win
    return n


def _play_batch(args, w, key0, key1, start, count, salt):
    """Games ``start .. start + count - 1`` of the run seeded by ``key0, key1``
    with ``search`` seats (``play_game(args, key0, key1, game, i)``), each
    game's search stream seeded from its own index (``key0`` mixed with the
    game's ``salt``): a game with a ``search`` seat is the same game for any
    batch split or worker count."""
    for i in range(count):
        rng_seed(w.rng, np.uint64(key0) ^ salt, key1, start + i)
        play_game(args, key0, key1, start + i, i)


class SearchDrivers(NamedTuple):
    """A game's drivers (:func:`bind_search`), kernels to call from its own."""

    decide: object  #: ``(args, w, n) -> c``: :func:`_decide`
    halving_choice: object  #: ``(args, w, n, budget) -> c``: :func:`_halving_choice`
    rollouts_for_all: object  #: ``(args, w, n, key0, salt, budget) -> n``: deep advice
    play_batch: object  #: ``(args, w, key0, key1, start, count, salt)``; None without play_game


def bind_search(game_roll, game_play=None) -> SearchDrivers:
    """The drivers for one game (their docstrings above): kernels that call
    ``game_roll`` as ``roll`` and ``game_play`` as ``play_game`` (module
    docstring).

    Each is this module's code compiled with the game's kernels in its
    globals: a direct call, as between any two kernels (a kernel passed as an
    argument instead would be a run-time address, and no kernel calling it
    could be cached). They are not cached on their own, since this module's
    cache key cannot see a change to the game's kernels: they are compiled
    into (and cached with) the game's kernels that call them."""
    scope = dict(globals(), roll=game_roll, play_game=game_play)

    def bound(f):
        kernel = njit(cache=False)(FunctionType(f.__code__, scope, f.__name__, None, None))
        scope[f.__name__] = kernel  # the drivers below call the bound one
        return kernel

    bound(_rolled)
    halving = bound(_halving_choice)
    return SearchDrivers(
        decide=bound(_decide),
        halving_choice=halving,
        rollouts_for_all=bound(_rollouts_for_all),
        play_batch=bound(_play_batch) if game_play is not None else None,
    )


# ====================================================================== plain Python


def tally_arrays(k: int, keep: int = 0) -> dict[str, np.ndarray]:
    """The tallies of ``k`` choices a search's work space holds (module
    docstring), zeroed, with room for ``keep`` rollouts' win shares per choice
    (at least one): keyword arguments of a game's ``SearchWork``."""
    f = np.zeros
    return {
        "alive": f(k, np.int64),
        "n": f(k, np.float64),
        "win": f(k, np.float64),
        "win2": f(k, np.float64),
        "score": f(k, np.float64),
        "score2": f(k, np.float64),
        "value": f(k, np.float64),
        "dsum": f(k, np.float64),
        "dsq": f(k, np.float64),
        "wins_by": f((k, max(keep, 1)), np.float64),
    }


def search_arrays(cfg, k: int, keep: int = 0, counters: int = 2, stream: int = 6) -> dict:
    """The fields every search's work space holds (module docstring): the
    settings row ``cfg`` (float64), the search's stream (uint64[``stream``]),
    ``counters`` counters (int64, :data:`K_DECISIONS` and :data:`K_ROLLOUTS`
    first), room for ``k`` listed choices (``cand``, ``cand_h``) and their
    tallies (:func:`tally_arrays`, ``keep`` rollouts' win shares each), zeroed:
    keyword arguments of a game's ``SearchWork``."""
    return {
        "cfg": np.array(cfg, np.float64),
        "rng": np.zeros(stream, np.uint64),
        "count": np.zeros(counters, np.int64),
        "cand": np.zeros((k, 3), np.int64),
        "cand_h": np.zeros(k, np.float64),
        **tally_arrays(k, keep),
    }


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
    from analyzer.core.stats import wilson

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


def rank_work(w, k: int) -> Ranking:
    """:func:`rank_rollouts` of the first ``k`` choices of a search's work
    space ``w`` after :func:`rollouts_for_all`."""
    return rank_rollouts(w.n[:k], w.win[:k], w.score[:k], w.score2[:k], w.wins_by)
