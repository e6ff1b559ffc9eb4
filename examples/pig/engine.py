"""Pig's kernels: a turn, the game, a batch of games (README.md, "A turn", "The end").

Kernels take views (:mod:`analyzer.kernels.kernel_view`) and scalars, and write
arrays the caller allocated: the game's :class:`State` ``s``, the rules'
``Tables`` ``t``, and the batch's output ``o`` (``results``, ``wins``). Game
``g`` draws only from its own stream ``rng_seed(s.rng, key0, key1, g)``, so a
run gives the same tables however it is cut into batches and workers.
"""

from typing import NamedTuple

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_below, rng_die, rng_seed

#: strategy codes, in a seat's parameter row (``prm[p, P_STRATEGY]``)
STRATEGY_NAMES = ("hold", "random")
HOLD, RANDOM = 0, 1
P_STRATEGY = 0  #: the seat's strategy code
P_HOLD = 1  #: ``hold``: the turn total it holds at
N_PRM = 2
# scalars of the game (``s.sc``)
S_TURN = 0  #: turns played
S_CAPPED = 1  #: 1 if the game stopped at ``max_turns``
S_TRACE_N = 2  #: trace rows written
# per-seat counters (``s.stat``)
ST_TURNS, ST_ROLLS, ST_BUSTS = 0, 1, 2
# result columns (one row per game and seat)
R_SCORE, R_TURNS, R_ROLLS, R_BUSTS, R_GAME_TURNS, R_CAPPED, R_INVARIANTS = range(7)
N_RESULTS = 7
# trace rows (event, turn, seat, a, b, c); the replay (game.py) names them
EV_ROLL = 0  #: a = face, b = the turn total after it (0 on a bust)
EV_DECIDE = 1  #: a = 1 hold, 0 roll again; b = the turn total at stake
EV_BUST = 2  #: a = the turn total lost
EV_BANK = 3  #: a = points banked, b = the seat's score now
# invariant bits (R_INVARIANTS; 0: all hold)
INV_SCORE = 1  #: a score is not the sum of what the seat banked
INV_END = 2  #: the game ended with no score at the target and no safety stop
INV_COUNTS = 4  #: more busts than turns, or fewer rolls than turns


class State(NamedTuple):
    """The mutable arrays of one game, sized for ``players`` seats."""

    rng: np.ndarray  #: uint64[4 + queue]: the game's random stream (analyzer.kernels.rng)
    score: np.ndarray  #: int64[P] banked points
    banked: np.ndarray  #: int64[P] the sum of the seat's banked turns (an invariant's twin)
    stat: np.ndarray  #: int64[P, 3] turns, rolls, busts (ST_*)
    prm: np.ndarray  #: float64[P, N_PRM] each seat's strategy code and parameter
    sc: np.ndarray  #: int64[3] scalars (S_*)
    trace: np.ndarray  #: int64[rows, 6] event rows, written while S_TRACE_N < rows


def new_state(players: int, trace_rows: int = 0) -> State:
    """A zeroed state for ``players`` seats with room for ``trace_rows`` trace rows."""
    i = np.int64
    return State(
        rng=np.zeros(4, np.uint64),
        score=np.zeros(players, i),
        banked=np.zeros(players, i),
        stat=np.zeros((players, 3), i),
        prm=np.zeros((players, N_PRM), np.float64),
        sc=np.zeros(3, i),
        trace=np.zeros((trace_rows, 6), i),
    )


@njit
def trace(s, ev, seat, a, b, c):
    """Append the row ``(ev, turn, seat, a, b, c)`` if the trace has room."""
    k = s.sc[S_TRACE_N]
    if k < s.trace.shape[0]:
        s.trace[k, 0] = ev
        s.trace[k, 1] = s.sc[S_TURN]
        s.trace[k, 2] = seat
        s.trace[k, 3] = a
        s.trace[k, 4] = b
        s.trace[k, 5] = c
        s.sc[S_TRACE_N] = k + 1


@njit
def rolls_again(s, t, p, total):
    """Seat ``p``'s choice with ``total`` points at stake: True to roll again
    (README.md, "Players"). ``hold`` rolls until the total reaches its parameter or
    would reach the target; ``random`` tosses a coin (draws a random number)."""
    if s.prm[p, P_STRATEGY] == RANDOM:
        return rng_below(s.rng, 2) == 0
    return total < s.prm[p, P_HOLD] and s.score[p] + total < t.target


@njit
def play_turn(s, t, p):
    """Seat ``p``'s turn ("A turn"): roll until it holds or rolls the bust face.
    Draws random numbers."""
    total = 0
    s.stat[p, ST_TURNS] += 1
    while True:
        face = rng_die(s.rng, t.faces)
        s.stat[p, ST_ROLLS] += 1
        if face == t.bust:
            trace(s, EV_ROLL, p, face, 0, 0)
            trace(s, EV_BUST, p, total, 0, 0)
            s.stat[p, ST_BUSTS] += 1
            return
        total += face
        trace(s, EV_ROLL, p, face, total, 0)
        again = rolls_again(s, t, p, total)
        trace(s, EV_DECIDE, p, 0 if again else 1, total, 0)
        if not again:
            s.score[p] += total
            s.banked[p] += total
            trace(s, EV_BANK, p, total, s.score[p], 0)
            return


@njit
def play_game(s, t, n):
    """One game from the first turn to the end ("The end"); the stream already seeded."""
    s.score[:] = 0
    s.banked[:] = 0
    s.stat[:] = 0
    s.sc[:] = 0
    p = 0
    reached = False
    while True:
        play_turn(s, t, p)
        s.sc[S_TURN] += 1
        reached = reached or s.score[p] >= t.target
        if reached and (t.end_round == 0 or p == n - 1):
            return
        if s.sc[S_TURN] >= t.max_turns:
            s.sc[S_CAPPED] = 1
            return
        p = (p + 1) % n


@njit
def write_results(s, t, o, n, row0):
    """The finished game's ``n`` rows from ``row0``: columns R_*, and the win shares
    (the highest score wins; a tie shares the win)."""
    best = s.score[:n].max()
    tied = 0
    for p in range(n):
        if s.score[p] == best:
            tied += 1
    bad = 0 if s.score[:n].max() >= t.target or s.sc[S_CAPPED] == 1 else INV_END
    for p in range(n):
        if s.score[p] != s.banked[p]:
            bad |= INV_SCORE
        if s.stat[p, ST_BUSTS] > s.stat[p, ST_TURNS] or s.stat[p, ST_ROLLS] < s.stat[p, ST_TURNS]:
            bad |= INV_COUNTS
    for p in range(n):
        r = row0 + p
        o.results[r, R_SCORE] = s.score[p]
        o.results[r, R_TURNS] = s.stat[p, ST_TURNS]
        o.results[r, R_ROLLS] = s.stat[p, ST_ROLLS]
        o.results[r, R_BUSTS] = s.stat[p, ST_BUSTS]
        o.results[r, R_GAME_TURNS] = s.sc[S_TURN]
        o.results[r, R_CAPPED] = s.sc[S_CAPPED]
        o.results[r, R_INVARIANTS] = bad
        o.wins[r] = 1.0 / tied if s.score[p] == best else 0.0


@njit
def play_batch(s, t, o, n, key0, key1, start, count):
    """Play games ``start .. start+count-1`` with ``n`` seats into ``o`` (row ``g*n +
    seat``: ``results`` int32[count*n, N_RESULTS], ``wins`` float32[count*n])."""
    for g in range(count):
        rng_seed(s.rng, key0, key1, start + g)
        play_game(s, t, n)
        write_results(s, t, o, n, g * n)
