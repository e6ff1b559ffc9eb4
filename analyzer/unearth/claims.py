"""Claims and tiebreaks (``docs/games/unearth.md``, section "Claims and tiebreaks").

A ruin is claimed when the total of all dice on it reaches its claim value.
Each player's dice there are ranked by value, then faces (d8 > d6 > d4); the
players' ranked lists are compared element by element, a missing die counting
as 0. The best player claims; if the best two are equal all the way down the
ruin is an unbreakable tie. Every player with dice there who does not claim
draws one delver card per die (on a tie: everyone with dice there).

Dice on a ruin are three parallel arrays of length ``n`` (at least):
``owner`` (seat, int), ``faces`` (int) and ``value`` (int, ``1..faces``).
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.unearth.codes import ClaimResult

NO_CLAIM = int(ClaimResult.NO_CLAIM)
TIE = int(ClaimResult.TIE)

#: A die's key packs (value, faces) so that comparing keys compares value first,
#: then faces; 5 bits per field covers values and faces up to 31.
_KEY_SHIFT = 32
#: A player's rank packs up to 6 keys (10 bits each) best first into an int64, so
#: comparing ranks compares the ranked lists lexicographically (missing die = 0).
_RANK_BASE = 1024
RANK_DICE = 6


@njit(inline="always")
def die_key(value, faces):
    """Tiebreak key of one die: higher value wins, then more faces."""
    return value * _KEY_SHIFT + faces


@njit
def player_rank(owner, faces, value, n, seat):
    """Packed tiebreak rank of ``seat``'s dice among the first ``n`` dice (0 if none).

    Draws no random numbers. At most :data:`RANK_DICE` dice per player count.
    """
    rank = np.int64(0)
    used = np.int64(0)
    for _slot in range(RANK_DICE):
        best = 0
        best_i = -1
        for i in range(n):
            if owner[i] == seat and not (used >> i) & 1:
                k = die_key(value[i], faces[i])
                if k > best:
                    best = k
                    best_i = i
        rank = rank * _RANK_BASE + best
        if best_i >= 0:
            used |= np.int64(1) << best_i
    return rank


@njit
def claim_winner(owner, faces, value, n, n_players):
    """Who takes a ruin whose claim value is reached: a seat, or ``TIE`` (-2).

    Does not look at the claim value; see :func:`ruin_outcome`. Draws no random numbers.
    """
    best = np.int64(-1)
    second = np.int64(-1)
    best_seat = -1
    for p in range(n_players):
        r = player_rank(owner, faces, value, n, p)
        if r == 0:
            continue
        if r > best:
            second = best
            best = r
            best_seat = p
        elif r > second:
            second = r
    if best == second:
        return TIE
    return best_seat


@njit
def can_claim(value, n, claim_value):
    """True when the total of the first ``n`` dice values reaches ``claim_value``."""
    total = 0
    for i in range(n):
        total += value[i]
    return total >= claim_value


@njit
def ruin_outcome(owner, faces, value, n, claim_value, n_players, cards_out):
    """Resolve one ruin: ``NO_CLAIM`` (-1), ``TIE`` (-2) or the claiming seat.

    ``cards_out`` (int array, length ``n_players``, written, not read) receives the
    consolation delver cards each seat draws: one per die for every seat with dice
    there that does not claim. On ``NO_CLAIM`` it is all zeros. Draws no random numbers.
    """
    for p in range(n_players):
        cards_out[p] = 0
    if not can_claim(value, n, claim_value):
        return NO_CLAIM
    winner = claim_winner(owner, faces, value, n, n_players)
    for i in range(n):
        if owner[i] != winner:
            cards_out[owner[i]] += 1
    return winner
