"""Predicates of a seat's position (kernels) that the actions and the players share.

Part of "A turn" of ``docs/games/uruk.md``: the highest displayed level, where an
invention lies, the epoch card the next stone comes from, the best settlement
discount. :mod:`analyzer.uruk.actions` carries out the actions with them and
:mod:`analyzer.uruk.choices` weighs the seats' choices with them (both re-export
nothing: import them from here or from actions, as before).
"""

from analyzer.kernels.jit import njit
from analyzer.uruk.codes import Effect

_SETTLEMENT_DISCOUNT = Effect.SETTLEMENT_DISCOUNT.value


@njit
def max_level(s, t, p):
    """Highest level among seat ``p``'s displayed inventions (0 if none)."""
    best = 0
    for i in range(t.max_inventions):
        x = s.inv[p, i]
        if x >= 0 and t.inv_level[x] > best:
            best = t.inv_level[x]
    return best


@njit
def slot_of(s, t, p, x):
    """The slot where seat ``p`` displays invention ``x``, or -1."""
    for i in range(t.max_inventions):
        if s.inv[p, i] == x:
            return i
    return -1


@njit
def stone_epoch(s, t, city):
    """The lowest epoch card with a stone (for a city: one that allows cities), or -1."""
    for e in range(4):
        if s.epoch[e] > 0 and (not city or t.epoch_villages_only[e] == 0):
            return e
    return -1


@njit
def settle_discount(s, t, p):
    """``(saved, invention)``: seat ``p``'s best unused settlement_discount."""
    best = 0
    who = -1
    for i in range(t.max_inventions):
        d = s.inv[p, i]
        if d >= 0 and t.inv_effect[d] == _SETTLEMENT_DISCOUNT and s.fn_used[d] == 0:
            if t.inv_amount[d] > best:
                best = t.inv_amount[d]
                who = d
    return best, who
