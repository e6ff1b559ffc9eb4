"""A turn (``docs/rules/unearth.md``, "A turn"): the delver phase, then the excavation."""

from analyzer.jit import njit
from analyzer.kernel_view import borrowed
from analyzer.unearth.cards import play_card
from analyzer.unearth.rolls import roll_die
from analyzer.unearth.state import (
    EV_TAKE_BACK,
    S_ANCESTRAL,
    S_BAND,
    S_CUR,
    S_EXPEDITION,
    S_MAP,
    S_OVER,
    S_READING,
    ST_TURNS,
    trace,
)
from analyzer.unearth.strategies import choose_excavation, choose_play


@njit
def excavate(s, t, p, strat, prm, neigh, claims, n_claims):
    """Seat ``p``'s excavation roll: declare a die and a ruin, roll it there."""
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    claims = borrowed(claims)
    n_claims = borrowed(n_claims)
    choice = s.scratch[50:52]
    choose_excavation(s, t, p, strat[p], prm[p], choice)
    d = choice[0]
    slot = choice[1]
    if d < 0 or slot < 0:
        return
    if s.die_slot[p, d] >= 0:
        trace(s, EV_TAKE_BACK, p, d, s.die_slot[p, d], 0, 0, 0)
        s.die_slot[p, d] = -1
    roll_die(s, t, p, d, slot, True, strat, prm, neigh, claims, n_claims)


@njit
def take_turn(s, t, p, strat, prm, neigh, claims, n_claims):
    """One turn of seat ``p``: the delver phase, then one (or two) excavation rolls."""
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    claims = borrowed(claims)
    n_claims = borrowed(n_claims)
    s.sc[S_CUR] = p
    s.sc[S_ANCESTRAL] = 0
    s.sc[S_READING] = 0
    s.sc[S_MAP] = 0
    s.sc[S_EXPEDITION] = 0
    s.sc[S_BAND] = 0
    s.seat_stats[p, ST_TURNS] += 1
    play = s.scratch[52:55]
    for _ in range(64):
        choose_play(s, t, p, strat[p], prm[p], s.sc[S_BAND] > 0, play)
        if play[0] < 0:
            break
        play_card(s, t, p, play[0], play[1], play[2], strat, prm, neigh, claims, n_claims)
        if s.sc[S_OVER]:
            return
    excavate(s, t, p, strat, prm, neigh, claims, n_claims)
    if s.sc[S_BAND] > 0 and not s.sc[S_OVER]:
        excavate(s, t, p, strat, prm, neigh, claims, n_claims)
