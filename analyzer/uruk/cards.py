"""Set-up, the deck, the central display and the deck exhausted (kernels).

Implements "Set-up", "Take a card" (drawing, god and disaster cards drawn),
the display refill of "A turn" and "Deck exhausted" of ``docs/games/uruk.md``.
Only :func:`setup` and :func:`reshuffle` draw random numbers (shuffles).
"""

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_shuffle
from analyzer.kernels.trace import write_event
from analyzer.uruk.luck import KIND_DISPLAY, KIND_HAND, TO_NONE, luck_draw, luck_to
from analyzer.uruk.state import (
    EV_DEAL,
    EV_DEALT,
    EV_DECK_ORDER,
    EV_DISPLAY,
    EV_END,
    EV_FIRST,
    EV_GOD_DRAWN,
    EV_REFILL_IV,
    EV_RESHUFFLE,
    EV_SETUP_DISCARD,
    S_ACTIVATING,
    S_ACTIVE,
    S_BOX_GODS,
    S_BOX_INV,
    S_BOX_STONES,
    S_DECK_N,
    S_DISCARD_N,
    S_DISCARDED_GODS,
    S_END,
    S_FINAL,
    S_N,
    S_PENDING,
    S_POOL_STONES,
    S_RESHUFFLES,
    S_TRACE_N,
    S_TRIGGER,
    S_TRIGGER_SEAT,
    S_TURN,
)


@njit
def trace(s, ev, seat, a, b, c):
    """Append the event row ``(ev, turn, seat, a, b, c)`` if the trace has room."""
    k = s.sc[S_TRACE_N]
    if k < s.trace.shape[0]:
        write_event(s.trace, k, ev, s.sc[S_TURN], seat, a, b, c)
        s.sc[S_TRACE_N] = k + 1


@njit
def discard_card(s, card):
    """Put ``card`` (a card code) on the discard pile."""
    s.discard[s.sc[S_DISCARD_N]] = card
    s.sc[S_DISCARD_N] += 1


@njit
def reshuffle(s, t):
    """Deck exhausted: turn the discard pile over, the first time remove
    ``first_reshuffle_removed`` cards from its top (the earliest discarded) out
    of the game, shuffle the rest as the new deck. Draws random numbers.
    Returns the new deck size."""
    n = s.sc[S_DISCARD_N]
    removed = 0
    if s.sc[S_RESHUFFLES] == 0:
        removed = min(t.first_reshuffle_removed, n)
    for i in range(removed):
        if s.discard[i] < t.n_inv:
            s.sc[S_BOX_INV] += 1
        else:
            s.sc[S_BOX_GODS] += 1
    k = 0
    for i in range(removed, n):
        s.deck[k] = s.discard[i]
        k += 1
    rng_shuffle(s.rng, s.deck, k)
    s.sc[S_DECK_N] = k
    s.sc[S_DISCARD_N] = 0
    s.sc[S_RESHUFFLES] += 1
    trace(s, EV_RESHUFFLE, -1, removed, k, 0)
    if s.trace.shape[0] > 0:  # the new deck's order, top (drawn first) first
        for i in range(0, k, 3):
            b = s.deck[k - 2 - i] if i + 1 < k else -1
            c = s.deck[k - 3 - i] if i + 2 < k else -1
            trace(s, EV_DECK_ORDER, -1, s.deck[k - 1 - i], b, c)
    return k


@njit
def draw_raw(s, t):
    """The top card of the deck (rebuilt from the discard pile if empty), or -1."""
    if s.sc[S_DECK_N] == 0:
        if s.sc[S_DISCARD_N] == 0 or reshuffle(s, t) == 0:
            return -1
    s.sc[S_DECK_N] -= 1
    luck_draw(s, t)
    return s.deck[s.sc[S_DECK_N]]


@njit
def god_drawn(s, t, card):
    """A god or disaster card came from the deck ("Gods and disasters"): beside
    the display if none lies there, else face down before the active player as
    the trigger (the one beside the display is activated after this turn); any
    further card, and every card drawn in the last round or while an activation
    is handled, is discarded."""
    seat = s.sc[S_ACTIVE]
    if s.sc[S_FINAL] == 1 or s.sc[S_ACTIVATING] == 1 or s.sc[S_TRIGGER] >= 0:
        discard_card(s, card)
        s.sc[S_DISCARDED_GODS] += 1
        trace(s, EV_GOD_DRAWN, seat, card, 2, 0)
    elif s.sc[S_PENDING] < 0:
        s.sc[S_PENDING] = card
        trace(s, EV_GOD_DRAWN, seat, card, 0, 0)
    else:
        s.sc[S_TRIGGER] = card
        s.sc[S_TRIGGER_SEAT] = seat
        trace(s, EV_GOD_DRAWN, seat, card, 1, 0)


@njit
def draw_invention(s, t):
    """Draw until an invention comes (god and disaster cards are handled on the
    way); the invention, or -1 if no invention is left in the deck or the
    discard pile.

    A deck rebuilt during this draw that runs out again held no invention, and
    nothing drawn since put one into the discard pile (gods and disasters only
    move beside the display, to a trigger or to the pile): rebuilding it again
    would cycle the same gods for ever (a game where nothing is ever made, so
    every invention stays in the hands), so the draw ends there with -1, as
    when no card is left. No game that ends otherwise draws differently."""
    rebuilt = s.sc[S_RESHUFFLES]
    while True:
        if s.sc[S_DECK_N] == 0 and s.sc[S_RESHUFFLES] > rebuilt:
            return -1
        c = draw_raw(s, t)
        if c < t.n_inv:
            return c
        god_drawn(s, t, c)


@njit
def refill_display(s, t):
    """Close the gaps of the central display from the deck (end of a turn)."""
    for slot in range(t.display_size):
        if s.display[slot] < 0:
            c = draw_invention(s, t)
            if c < 0:
                return
            s.display[slot] = c
            trace(s, EV_DISPLAY, s.sc[S_ACTIVE], c, slot, 0)


@njit
def stones_changed(s):
    """After a stone left an epoch card or entered the pool: the end of the game
    is triggered when the last stone leaves epoch card IV; from then on, pool
    stones go onto card IV whenever it is empty and can be bought again."""
    if s.epoch[3] == 0 and s.sc[S_END] == 0:
        s.sc[S_END] = 1
        trace(s, EV_END, s.sc[S_ACTIVE], 0, 0, 0)
    if s.sc[S_END] == 1 and s.epoch[3] == 0 and s.sc[S_POOL_STONES] > 0:
        trace(s, EV_REFILL_IV, -1, s.sc[S_POOL_STONES], 0, 0)
        s.epoch[3] += s.sc[S_POOL_STONES]
        s.sc[S_POOL_STONES] = 0


@njit
def _fill_cards(s, t, into_deck, k, lo, hi, with_gods):
    """Append the copies of every invention of level lo..hi (and the god cards) to
    ``s.deck`` (``into_deck``) or ``s.discard`` from index ``k``; return the new end."""
    arr = s.deck if into_deck else s.discard
    for x in range(t.n_inv):
        if lo <= t.inv_level[x] <= hi:
            for _ in range(t.inv_copies[x]):
                arr[k] = x
                k += 1
    if with_gods:
        for g in range(t.n_gods):
            for _ in range(t.god_copies[g]):
                arr[k] = t.n_inv + g
                k += 1
    return k


@njit
def reset(s):
    """Empty every array of ``s`` (the trace keeps its rows, S_TRACE_N restarts)."""
    s.deck[:] = -1
    s.discard[:] = -1
    s.display[:] = -1
    s.hand[:] = 0
    s.inv[:] = -1
    s.stones[:] = 0
    s.supply[:] = 0
    s.pool[:] = 0
    s.epoch[:] = 0
    s.fn_used[:] = 0
    s.half_price[:] = 0
    s.reminders[:] = 0
    s.city_points[:] = 0
    s.actions_next[:] = 0
    s.bid[:] = 0
    s.made[:] = 0
    s.stat[:] = 0
    s.sc[:] = 0
    s.work[:] = 0
    s.sc[S_PENDING] = -1
    s.sc[S_TRIGGER] = -1
    s.sc[S_TRIGGER_SEAT] = -1


@njit
def setup(s, t, n):
    """Set-up for ``n`` players (seat 0 is the first player). Draws random
    numbers: the level-1 cards, the deck and the level-2 cards are shuffled."""
    reset(s)
    s.sc[S_N] = n
    # level-1 inventions: one each at random, face up with the first village
    k = _fill_cards(s, t, False, 0, 1, 1, False)
    rng_shuffle(s.rng, s.discard, k)
    for p in range(n):
        x = s.discard[p]
        s.inv[p, 0] = x
        s.stones[p, 0] = 1
        trace(s, EV_FIRST, p, x, 0, 0)
    s.sc[S_BOX_INV] = k - n
    # the deck: level 3 and 4, gods and disasters, shuffled
    nd = _fill_cards(s, t, True, 0, 3, 4, True)
    rng_shuffle(s.rng, s.deck, nd)
    # level 2, shuffled: hands, then the rest on top of the deck
    k = _fill_cards(s, t, False, 0, 2, 2, False)
    rng_shuffle(s.rng, s.discard, k)
    i = 0
    for p in range(n):
        for _ in range(t.hand_size):
            s.hand[p, s.discard[i]] += 1
            trace(s, EV_DEALT, p, s.discard[i], 0, 0)
            i += 1
        trace(s, EV_DEAL, p, t.hand_size, 0, 0)
    # the undealt level-2 cards go on top as a pile: the last one is the top
    for j in range(i, k):
        s.deck[nd] = s.discard[j]
        nd += 1
    s.discard[:] = -1
    s.sc[S_DECK_N] = nd
    luck_to(s, 0, KIND_DISPLAY)  # the first player picks first
    refill_display(s, t)
    luck_to(s, TO_NONE, KIND_HAND)
    for _ in range(t.setup_discard[n]):
        c = draw_raw(s, t)
        if c < 0:
            break
        discard_card(s, c)
        trace(s, EV_SETUP_DISCARD, -1, c, 0, 0)
    placed = 0
    for e in range(4):
        s.epoch[e] = t.epoch_stones[e, n]
        placed += s.epoch[e]
    s.sc[S_BOX_STONES] = t.settlement_stones - placed - n
    s.sc[S_POOL_STONES] = 0
    for c in range(t.n_colours):
        s.pool[c] = t.resources_per_colour
    for p in range(n):
        c = t.inv_colour[s.inv[p, 0]]
        # start_resources, plus the seat compensation (a balancing knob, 0 as printed)
        got = min(t.start_resources + t.extra_resources[n, p], s.pool[c])
        s.pool[c] -= got
        s.supply[p, c] += got
        s.actions_next[p] = t.actions_per_turn
