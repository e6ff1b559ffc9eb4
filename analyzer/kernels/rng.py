"""Counter-based seeding and a small, fast RNG usable inside numba kernels.

Every simulated game draws from its own xoshiro256** stream whose state is
derived (by splitmix64) from the run's 128-bit root key and the game's index.
So a game's random numbers depend only on ``(seed, game index)``: the same seed
gives identical games however the run is split into batches or workers.

The state is a ``uint64`` array owned by the caller: words 0-3 are the
xoshiro256** state. All functions are jitted and draw only from the state they
are given.

**Explicit chance** (OpenSpiel's chance outcomes): a longer state array may
carry a queue of *forced outcomes* after the generator's words: word 4 holds
how many are queued, word 5 how many were taken, words 6.. the outcomes.
:func:`rng_die` and :func:`rng_below` return the next queued outcome, if any,
before drawing (a die's face, or the index below ``n``), so a test says "the
next d8 shows 6" with :func:`queue_outcomes` instead of searching for a seed.
An outcome outside the draw's range raises ``ValueError``. :func:`rng_float`
and :func:`rng_shuffle` always draw. With an empty queue (every game the
engine plays) the draws are exactly those of the generator.
"""

import numpy as np

from analyzer.kernels.jit import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)


@njit
def splitmix64(x):
    """One splitmix64 step: returns ``(next_x, output)``; both ``uint64``."""
    x = np.uint64(x + _GOLDEN)
    z = x
    z = np.uint64((z ^ (z >> _U30)) * _M1)
    z = np.uint64((z ^ (z >> _U27)) * _M2)
    return x, np.uint64(z ^ (z >> _U31))


@njit
def rng_seed(state, key0, key1, index):
    """Fill ``state`` (``uint64[4]``) for stream ``index`` of root key ``(key0, key1)``.

    Draws no random numbers; deterministic in its inputs.
    """
    x = np.uint64(key0) ^ np.uint64(np.uint64(index) * _M2)
    x, a = splitmix64(x)
    x = x ^ np.uint64(key1)
    for i in range(4):
        x, out = splitmix64(x)
        state[i] = out ^ a
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN  # the all-zero state is the one forbidden state


@njit
def _rotl(x, k):
    return np.uint64((x << np.uint64(k)) | (x >> np.uint64(64 - k)))


@njit
def rng_next(state):
    """Next raw ``uint64`` of the xoshiro256** stream in ``state`` (advances it)."""
    result = np.uint64(_rotl(np.uint64(state[1] * np.uint64(5)), 7) * np.uint64(9))
    t = np.uint64(state[1] << np.uint64(17))
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@njit
def rng_float(state):
    """A float64 uniform on [0, 1) with 53 random bits (advances ``state``)."""
    return float(rng_next(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


#: first word of the forced-outcome queue in a state array (see the module docstring)
FORCED = 4
#: words a state array needs for a queue of ``n`` outcomes: ``QUEUE_WORDS + n``
QUEUE_WORDS = 6


@njit
def _forced(state):
    """The next queued outcome (taken from the queue), or -1 if none is queued."""
    # np.int64, not int(): numba's int() keeps uint64, and uint64 with int64 unify to float
    if state.shape[0] > QUEUE_WORDS:
        pos = np.int64(state[FORCED + 1])
        if pos < np.int64(state[FORCED]):
            state[FORCED + 1] = np.uint64(pos + 1)
            return np.int64(state[QUEUE_WORDS + pos])
    return np.int64(-1)


@njit
def rng_below(state, n):
    """An int uniform on ``0 .. n-1`` (``n >= 1``); bias below 2**-40 for n < 2**13.

    A queued outcome comes first (it must be below ``n``)."""
    v = _forced(state)
    if v >= 0:
        if v >= n:
            raise ValueError("forced outcome outside 0 .. n-1")
        return v
    return int(rng_float(state) * n)


@njit
def rng_die(state, faces):
    """A die roll: int uniform on ``1 .. faces``. A queued outcome comes first
    (it must be a face, ``1 .. faces``)."""
    v = _forced(state)
    if v >= 0:
        if v < 1 or v > faces:
            raise ValueError("forced die outside 1 .. faces")
        return v
    return 1 + int(rng_float(state) * faces)


def queue_outcomes(state: np.ndarray, outcomes) -> None:
    """Queue ``outcomes`` (non-negative ints) as the next results of
    :func:`rng_die`/:func:`rng_below` drawn from ``state``; replaces any queue.
    Plain Python, for tests and worked examples."""
    outcomes = [int(v) for v in outcomes]
    room = state.shape[0] - QUEUE_WORDS
    if room < len(outcomes) or any(v < 0 for v in outcomes):
        raise ValueError(f"{len(outcomes)} outcomes for a queue of {max(room, 0)}, all >= 0")
    state[FORCED] = len(outcomes)
    state[FORCED + 1] = 0
    state[QUEUE_WORDS : QUEUE_WORDS + len(outcomes)] = outcomes


@njit
def rng_shuffle(state, arr, n):
    """Fisher-Yates shuffle of ``arr[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = int(rng_float(state) * (i + 1))
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
