"""A turn (``docs/games/unearth.md``, "A turn"): the delver phase, then the excavation."""

from analyzer.kernels.jit import njit
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
    trace_declare,
    tracing,
)
from analyzer.unearth.strategies import choose_excavation, choose_play


@njit(inline="always")
def excavate(s, m, t, p):
    """Seat ``p``'s excavation roll: declare a die and a ruin, roll it there."""
    d, slot = choose_excavation(s, m, t, p)
    if d < 0 or slot < 0:
        return
    if tracing(s):
        trace_declare(s, p, d, slot)
    if s.die_slot[p, d] >= 0:
        trace(s, EV_TAKE_BACK, p, d, s.die_slot[p, d], 0, 0, 0)
        s.die_slot[p, d] = -1
    roll_die(s, m, t, p, d, slot, True)


@njit(inline="always")
def delver_phase(s, m, t, p):
    """The start of seat ``p``'s turn: nothing pending from the last turn, then the
    cards it plays. Returns True if a card ended the game."""
    s.sc[S_CUR] = p
    s.sc[S_ANCESTRAL] = 0
    s.sc[S_READING] = 0
    s.sc[S_MAP] = 0
    s.sc[S_EXPEDITION] = 0
    s.sc[S_BAND] = 0
    s.seat_stats[p, ST_TURNS] += 1
    for _ in range(64):
        kind, a, b = choose_play(s, m, t, p, s.sc[S_BAND] > 0)
        if kind < 0:
            break
        play_card(s, m, t, p, kind, a, b)
        if s.sc[S_OVER]:
            return True
    return False


@njit(inline="always")
def take_turn(s, m, t, p):
    """One turn of seat ``p``: the delver phase, then one (or two) excavation rolls."""
    if delver_phase(s, m, t, p):
        return
    excavate(s, m, t, p)
    if s.sc[S_BAND] > 0 and not s.sc[S_OVER]:
        excavate(s, m, t, p)
