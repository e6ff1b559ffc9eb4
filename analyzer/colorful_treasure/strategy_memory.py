"""What a seat knows: the cards it remembers and the places it may reveal.

Kernels of :mod:`analyzer.colorful_treasure.strategies` (``docs/games/colorful_treasure.md``,
"Players and memory"): the face-down cards a seat remembers (:func:`seat_memory`,
kept up to date by :func:`recount_memory`), a card's class for that seat
(:func:`card_class`), and the place a candidate reveal stands for
(:func:`slot_place`; an unknown place of a wonder picked uniformly among its
column's face-down places that hold no card the seat remembers,
:func:`pick_unknown`).
"""

from analyzer.colorful_treasure.bits import kth_bit, lowest, popcount
from analyzer.colorful_treasure.state import (
    S_GRID_CARDS,
    S_MEM_TURN,
    S_TURN,
)
from analyzer.colorful_treasure.turn import (
    face_down_places,
    random_index,
)
from analyzer.kernels.jit import njit


@njit
def seat_memory(s, t, seat):
    """Mask of the cards in the grid that ``seat`` remembers now (``mem >= turn``).

    ``s.kn[seat]`` holds every card the seat may remember (set when a card it
    keeps past a turn goes face down, :func:`~.turn.remember`); cards taken
    since or forgotten by now are dropped from it by :func:`recount_memory`. Nothing
    a seat remembers changes between its reveals, so after the turn's first decision
    (which recounts) this is ``s.kn[seat]`` as left then."""
    if s.sc[S_MEM_TURN] == s.sc[S_TURN] * 64 + seat:
        return s.kn[seat]
    return recount_memory(s, t, seat)


@njit
def recount_memory(s, t, seat):
    """:func:`seat_memory` worked out afresh (the turn's first decision)."""
    turn = s.sc[S_TURN]
    km = s.kn[seat] & s.sc[S_GRID_CARDS]
    x = km
    while x != 0:
        c = lowest(x)
        x &= x - 1
        if s.mem[seat, c] < turn:
            km &= ~(1 << c)
    s.kn[seat] = km
    s.sc[S_MEM_TURN] = turn * 64 + seat
    return km


@njit
def column_mask(t, w):
    """Bits of wonder ``w``'s cards (and of its column's places)."""
    return ((1 << t.rows) - 1) << (w * t.rows)


@njit
def card_class(s, t, seat, card):
    """The card's kind (gem colour, diamond, key, chest) and whether its wonder is new
    to ``seat``, as one int: all a take's value depends on (a wonder holds one card
    of each kind, so two cards of one kind are of different wonders)."""
    return 2 * t.card_key[card] + (s.wcards[seat, t.card_wonder[card]] == 0)


@njit
def pick_unknown(s, t, w, kf, excl):
    """A face-down place of column ``w`` that holds no card the deciding seat
    remembers (``kf``: its remembered face-down cards) and is not in the place
    mask ``excl``, uniform among them (in place order). Reads only which places
    hold a face-down card and where the remembered cards lie."""
    cm = column_mask(t, w)
    pm = face_down_places(s) & cm & ~excl
    x = kf & cm
    while x != 0:
        c = lowest(x)
        x &= x - 1
        pm &= ~(1 << s.pos_of[c])
    return kth_bit(pm, random_index(s, popcount(pm)))


@njit
def slot_place(s, t, slot, kf, excl):
    """The place to reveal for ``slot`` (a known card, or an unknown place of a wonder)."""
    if slot >= 0:
        return s.pos_of[slot]
    return pick_unknown(s, t, -1 - slot, kf, excl)


@njit
def _slot_cards(t, slot, unk):
    """Mask of the cards ``slot`` may show: the known card, or the column's unknown cards."""
    if slot >= 0:
        return 1 << slot
    return unk & column_mask(t, -1 - slot)


@njit
def _slot_wonder(t, slot):
    if slot >= 0:
        return t.card_wonder[slot]
    return -1 - slot
