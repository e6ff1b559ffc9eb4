"""Stones, rings and wonders in play (``docs/games/unearth.md``, "Stones, rings and wonders").

A stone gained from a roll, where it is placed, and the wonder a closed ring
holds; the hex geometry is :mod:`.tableau`.
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_below
from analyzer.unearth.codes import WonderEffect, WonderKind
from analyzer.unearth.luck import luck_removed_ruin, luck_token
from analyzer.unearth.modifiers import owns_effect
from analyzer.unearth.state import (
    EV_BAG_STONE,
    EV_NAMED_OPTIONS,
    EV_STONE,
    EV_TAKE_RUIN,
    EV_WONDER,
    S_GREATER_POS,
    S_LESSER_POS,
    S_REMOVED_N,
    draw_from_bag,
    take_ruin,
    trace,
    tracing,
)
from analyzer.unearth.strategies import (
    choose_cell,
    choose_colour,
    choose_memorial,
    choose_named,
)
from analyzer.unearth.tableau import (
    NO_WONDER,
    all_alike,
    formula_ok,
    grow_box,
    ring_colour_counts,
    rings_closed_by,
)


@njit
def gain_stone(s, m, t, p, slot):
    """Seat ``p`` gains a stone: its choice from ``slot``, else random from the bag
    (two drawn, one kept, with the Underground Library), else nothing."""
    avail = s.offer
    n_col = t.n_stone_colours
    any_on = False
    for c in range(n_col):
        avail[c] = s.slot_stones[slot, c] if slot >= 0 else 0
        if avail[c] > 0:
            any_on = True
    source = 0
    if any_on:
        offered = _offer_mask(avail, n_col)
        colour = choose_colour(s, m, t, p)
        s.slot_stones[slot, colour] -= 1
    else:
        source = 1
        lib = owns_effect(s, t, p, WonderEffect.LIBRARY)
        n_draw = t.wonder_amount[lib] if lib >= 0 else 1
        for c in range(n_col):
            avail[c] = 0
        got = 0
        for _ in range(max(n_draw, 1)):
            c = draw_from_bag(s)
            if c >= 0:
                avail[c] += 1
                got += 1
                if tracing(s):
                    trace(s, EV_BAG_STONE, p, c, 0, 0, 0, 0)
        if got == 0:
            return
        offered = _offer_mask(avail, n_col)
        colour = choose_colour(s, m, t, p)
        avail[colour] -= 1
        for c in range(n_col):
            s.bag[c] += avail[c]
    place_stone(s, m, t, p, colour, source, offered)


@njit(inline="always")
def _offer_mask(avail, n_col):
    """Bitmask of the colours on offer (``avail[c] > 0``), for the trace."""
    mask = 0
    for c in range(n_col):
        if avail[c] > 0:
            mask |= 1 << c
    return mask


@njit(inline="always")
def place_stone(s, m, t, p, colour, source, offered=0):
    """Put a ``colour`` stone in ``p``'s tableau and build any wonders it completes
    (``offered``: the colours it was chosen from, a bitmask, for the trace)."""
    cell = choose_cell(s, m, t, p, colour)
    s.stone[p, cell] = colour
    grow_box(s.box[p], cell)
    s.n_stones[p, colour] += 1
    trace(s, EV_STONE, p, colour, cell, source, offered, 0)
    centres = s.closed
    k = rings_closed_by(s.stone[p], s.centre[p], t.neigh, cell, centres)
    for i in range(k):
        build_wonder(s, m, t, p, centres[i])


@njit(inline="always")
def build_wonder(s, m, t, p, centre):
    """Fill a completed ring's centre: a named wonder (optional), else a greater
    token if all six stones share a colour, else a lesser token (ruling in
    ``docs/games/unearth.md`` on empty piles: the other pile if ``token_fallback``)."""
    n_col = t.n_stone_colours
    counts = s.ring_counts
    ring_colour_counts(s.stone[p], t.neigh, centre, n_col, counts)
    alike = all_alike(counts, n_col)
    if tracing(s):
        fits = 0
        for k in range(s.named_state.shape[0]):
            if s.named_state[k] == -1 and formula_ok(
                t.wonder_formula[k], t.wonder_colour[k], t.wonder_count[k], counts, n_col
            ):
                fits |= 1 << k
        if fits:
            trace(s, EV_NAMED_OPTIONS, p, centre, fits, 0, 0, 0)
    w = choose_named(s, m, t, p, alike)
    if w >= 0:
        s.named_state[w] = p
        s.effects[p] |= np.int64(1) << t.wonder_effect[w]
        s.centre[p, centre] = WonderKind.NAMED
        trace(s, EV_WONDER, p, centre, WonderKind.NAMED, w, 0, 0)
        eff = t.wonder_effect[w]
        n_rem = s.sc[S_REMOVED_N]
        if (eff == WonderEffect.CENOTAPH or eff == WonderEffect.MEMORIAL) and n_rem > 0:
            if eff == WonderEffect.CENOTAPH:
                i = rng_below(s.rng, n_rem)
                luck_removed_ruin(s, t, p, n_rem, i)
            else:
                i = choose_memorial(s, m, t, p)
            take_ruin(s, t, p, s.removed[i])
            trace(s, EV_TAKE_RUIN, p, s.removed[i], w, 0, 0, 0)
            s.removed[i] = s.removed[n_rem - 1]
            s.removed[n_rem - 1] = -1
            s.sc[S_REMOVED_N] = n_rem - 1
        return
    n_less = t.lesser_values.shape[0]
    n_great = t.greater_values.shape[0]
    less_left = s.sc[S_LESSER_POS] < n_less
    great_left = s.sc[S_GREATER_POS] < n_great
    use_greater = alike
    if alike and not great_left:
        use_greater = False if (t.token_fallback and less_left) else True
    if not alike and not less_left:
        use_greater = True if (t.token_fallback and great_left) else False
    if use_greater and great_left:
        luck_token(s, t, p, True, s.sc[S_GREATER_POS])
        v = s.greater[s.sc[S_GREATER_POS]]
        s.sc[S_GREATER_POS] += 1
        s.tokens[p, 1] += 1
        s.tokens[p, 2] += v
        s.centre[p, centre] = WonderKind.GREATER
        trace(s, EV_WONDER, p, centre, WonderKind.GREATER, v, 0, 0)
    elif not use_greater and less_left:
        luck_token(s, t, p, False, s.sc[S_LESSER_POS])
        v = s.lesser[s.sc[S_LESSER_POS]]
        s.sc[S_LESSER_POS] += 1
        s.tokens[p, 0] += 1
        s.tokens[p, 2] += v
        s.centre[p, centre] = WonderKind.LESSER
        trace(s, EV_WONDER, p, centre, WonderKind.LESSER, v, 0, 0)
    else:
        s.centre[p, centre] = NO_WONDER
        trace(s, EV_WONDER, p, centre, NO_WONDER, 0, 0, 0)
