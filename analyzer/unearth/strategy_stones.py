"""Stones and wonders: where a stone goes, its colour, and which wonder to build.

Kernels of :mod:`analyzer.unearth.strategies` for ``docs/games/unearth.md``,
"Stones, rings and wonders": the score of each free cell (:func:`score_cells`),
the cell and colour of a stone (:func:`choose_cell`, :func:`choose_colour`), the
named wonder (:func:`choose_named`) and the Memorial's pile (:func:`choose_memorial`).
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_below
from analyzer.unearth.codes import CardKind, WonderEffect
from analyzer.unearth.memo import (
    M_CELLS_READY,
)
from analyzer.unearth.state import (
    S_DECK_LEN,
    S_N_PLAYERS,
    S_N_SLOTS,
    S_REMOVED_N,
)
from analyzer.unearth.strategy_params import (
    P_NAMED,
    P_PLACE,
    P_W_CARD,
    P_WONDER_FIT,
    Strategy,
)
from analyzer.unearth.strategy_worth import (
    _ring_around,
    colour_worth,
    refresh_params,
    ruin_worth,
    ruins_left,
)
from analyzer.unearth.tableau import formula_ok, is_free, legal_cells_boxed


@njit
def score_cells(s, m, t, p, n_cells):
    """Ring-planning score of a stone of each colour on each of the ``n_cells``
    cells ``m.cells[:n_cells]`` of ``p``'s tableau: ``m.cellval[i * n_col + c]``
    for cell ``i`` and colour ``c``, one look at each cell's neighbourhood for all
    colours.

    For each free neighbour (a possible ring centre) with ``f`` stones around it
    counting the new one, ``s`` of them of the colour: ``f²``, +30 if the ring
    closes, +0.6·s² if all ``f`` share the colour (greater wonders); minus 1.5·a²
    when ``a >= 3`` stones already touch the cell (a stone there spoils a ring
    centre). Slow twin: ``tests/naive.py::naive_cell_score``."""
    neigh = t.neigh
    cells = m.cells
    out = m.cellval
    n_col = t.n_stone_colours
    stone = s.stone[p]
    centre = s.centre[p]
    filled = m.filled
    hist = m.hist  # hist[k * 8 + c]: colour-c stones around the k-th neighbour
    for i in range(n_cells):
        cell = cells[i]
        for k in range(6):
            filled[k] = 0
            c = np.int64(neigh[cell, k])
            if c < 0 or not is_free(stone, centre, c):
                continue
            for col in range(n_col):
                hist[k * 8 + col] = 0
            n = 1
            ok = True
            for j in range(6):
                nb = neigh[c, j]
                if nb < 0:
                    ok = False
                    break
                if nb == cell:
                    continue
                if stone[nb] >= 0:
                    n += 1
                    hist[k * 8 + stone[nb]] += 1
            if ok:
                filled[k] = n
        around = 0
        for k in range(6):
            nb = neigh[cell, k]
            if nb >= 0 and stone[nb] >= 0:
                around += 1
        for col in range(n_col):
            score = 0.0
            for k in range(6):
                f = filled[k]
                if f == 0:
                    continue
                same = 1 + hist[k * 8 + col]
                score += f * f
                if f == 6:
                    score += 30.0
                if same == f:
                    score += 0.6 * same * same
            if around >= 3:
                score -= around * around * 1.5
            out[i * n_col + col] = score


@njit(inline="always")
def _open_centre(s, t, p, cell):
    """Is the free ``cell`` the centre of a ring ``p`` could still close, with 3
    or more of its stones already around it? (Every neighbour on the grid and
    none a wonder.)"""
    ok, f, _ = _ring_around(s.stone[p], s.centre[p], t.neigh, cell)
    return ok and f >= 3


@njit
def claimer_cells(s, m, t, p, n):
    """The claimer never fills a ring centre it could close: ``m.cellok[i]`` is 0
    for the cells ``m.cells[:n]`` that are such centres, 1 for the others, all 1
    when every cell is one (a stone must go somewhere). Returns how many are 1."""
    ok = 0
    for i in range(n):
        m.cellok[i] = 0 if _open_centre(s, t, p, m.cells[i]) else 1
        ok += m.cellok[i]
    if ok == 0:
        for i in range(n):
            m.cellok[i] = 1
        ok = n
    return ok


@njit
def choose_cell(s, m, t, p, colour):
    """Where ``p`` puts a new ``colour`` stone (always a legal cell).

    Ring planners reuse the scores :func:`choose_colour` left in ``m.cellval``
    for this very tableau (``M_CELLS_READY``).
    """
    prm = m.prm[p]
    neigh = t.neigh
    cells = m.cells
    ready = m.sc[M_CELLS_READY]
    m.sc[M_CELLS_READY] = 0
    if ready > 0 and prm[P_PLACE] > 0.5:
        n = ready
    else:
        n = legal_cells_boxed(s.stone[p], s.centre[p], neigh, s.box[p], cells)
    if n == 1:
        return cells[0]
    if m.strat[p] == Strategy.RANDOM:
        return cells[rng_below(s.rng, n)]
    claimer = m.strat[p] == Strategy.CLAIMER
    if claimer:
        claimer_cells(s, m, t, p, n)
    best = -1e18
    best_cell = cells[0]
    if prm[P_PLACE] > 0.5:
        n_col = t.n_stone_colours
        if ready == 0:
            score_cells(s, m, t, p, n)
        for i in range(n):
            if claimer and m.cellok[i] == 0:
                continue
            sc = m.cellval[i * n_col + colour]
            if sc > best:
                best = sc
                best_cell = cells[i]
        return best_cell
    for i in range(n):
        if claimer and m.cellok[i] == 0:
            continue
        cell = cells[i]
        sc = 0.0
        for k in range(6):
            nb = neigh[cell, k]
            if nb >= 0 and s.stone[p, nb] >= 0:
                sc += 1.0
        if sc > best:
            best = sc
            best_cell = cell
    return best_cell


@njit
def choose_colour(s, m, t, p):
    """Which colour ``p`` takes among the stones on offer, ``s.offer``
    (int[n_colours] counts, some > 0).

    Ring planners score every legal cell for every colour (:func:`score_cells`)
    and leave the cells in ``m.cells`` and the scores in ``m.cellval`` for
    :func:`choose_cell`, which places the stone next.
    """
    prm = m.prm[p]
    avail = s.offer
    n_col = t.n_stone_colours
    n = 0
    for c in range(n_col):
        if avail[c] > 0:
            n += 1
    if m.strat[p] == Strategy.RANDOM:
        k = rng_below(s.rng, n)
        for c in range(n_col):
            if avail[c] > 0:
                if k == 0:
                    return c
                k -= 1
    best = -1e18
    best_c = -1
    n_cells = 0
    claimer = m.strat[p] == Strategy.CLAIMER
    if prm[P_PLACE] > 0.5:  # the cells do not depend on the colour
        n_cells = legal_cells_boxed(s.stone[p], s.centre[p], t.neigh, s.box[p], m.cells)
        score_cells(s, m, t, p, n_cells)
        m.sc[M_CELLS_READY] = n_cells
        if claimer:
            claimer_cells(s, m, t, p, n_cells)
    for c in range(n_col):
        if avail[c] == 0:
            continue
        sc = 0.1 * s.n_stones[p, c]  # build on the colour you have most of
        if prm[P_PLACE] > 0.5:
            top = -1e18
            for i in range(n_cells):
                if not claimer or m.cellok[i] == 1:
                    top = max(top, m.cellval[i * n_col + c])
            sc += top
        # named wonders still to be had that want this colour
        for w in range(s.named_state.shape[0]):
            if s.named_state[w] == -1 and t.wonder_colour[w] == c and may_build(m, p, w):
                sc += 0.5
        if sc > best:
            best = sc
            best_c = c
    return best_c


@njit(inline="always")
def may_build(m, p, w):
    """False when an intervention forbids seat ``p`` named wonder ``w`` (``m.forbid``)."""
    return (m.forbid[p] >> w) & 1 == 0


@njit
def choose_named(s, m, t, p, all_same):
    """When ``p`` completes a ring with colour counts ``s.ring_counts``: a named
    wonder index, or -1 to take a token. Random strategy: uniform among the options.
    A wonder forbidden to ``p`` (``m.forbid``) is no option: with none left the
    seat takes the token, as when no named wonder fits."""
    prm = m.prm[p]
    counts = s.ring_counts
    n_col = t.n_stone_colours
    n_opt = 0
    for w in range(s.named_state.shape[0]):
        if (
            s.named_state[w] == -1
            and may_build(m, p, w)
            and formula_ok(
                t.wonder_formula[w], t.wonder_colour[w], t.wonder_count[w], counts, n_col
            )
        ):
            n_opt += 1
    if n_opt == 0:
        return -1
    if m.strat[p] == Strategy.RANDOM:
        k = rng_below(s.rng, n_opt + 1)
        for w in range(s.named_state.shape[0]):
            if (
                s.named_state[w] == -1
                and may_build(m, p, w)
                and formula_ok(
                    t.wonder_formula[w], t.wonder_colour[w], t.wonder_count[w], counts, n_col
                )
            ):
                if k == 0:
                    return w
                k -= 1
        return -1
    refresh_params(s, m, t, p)
    fit = prm[P_WONDER_FIT]
    # expected token value
    pile = t.greater_values if all_same else t.lesser_values
    token = 0.0
    for i in range(pile.shape[0]):
        token += pile[i]
    token = token / max(pile.shape[0], 1)
    best = token
    best_w = -1
    pile_done = False  # the pile's worths, worked out when a wonder on offer needs them
    memorial = 0.0
    cenotaph = 0.0
    for w in range(s.named_state.shape[0]):
        if (
            s.named_state[w] != -1
            or not may_build(m, p, w)
            or not formula_ok(
                t.wonder_formula[w], t.wonder_colour[w], t.wonder_count[w], counts, n_col
            )
        ):
            continue
        v = float(t.wonder_points[w])
        eff = t.wonder_effect[w]
        if t.wonder_colour[w] >= 0 and t.wonder_points[w] == 0:
            v += s.n_stones[p, t.wonder_colour[w]] + 2.0  # a temple: stones now and to come
        elif eff == WonderEffect.TOMB:
            v += 3.5
        elif eff == WonderEffect.FOUNTAIN:
            lo = s.n_stones[p, 0]
            for c in range(1, n_col):
                lo = min(lo, s.n_stones[p, c])
            v += 2.0 * lo + 2.0
        elif eff == WonderEffect.CENOTAPH or eff == WonderEffect.MEMORIAL:
            flat = 4.0 if s.sc[S_REMOVED_N] > 0 else 0.0
            if fit != 0.0 and not pile_done:
                memorial, cenotaph = _removed_worth(s, t, p)
                pile_done = True
            fitted = memorial if eff == WonderEffect.MEMORIAL else cenotaph
            v += (1.0 - fit) * flat + fit * fitted
        elif eff == WonderEffect.FLAME:
            n = s.sc[S_N_PLAYERS]
            # a claim on a ruin where p has no dice: about (n - 1) / n of those left
            flame = ruins_left(s) * s.sc[S_DECK_LEN] * (n - 1.0) / n * prm[P_W_CARD]
            v += (1.0 - fit) * prm[P_NAMED] + fit * flame
        elif eff != WonderEffect.NONE:
            v += prm[P_NAMED]
        if v > best or (fit > 0.5 and v == best and best_w < 0):
            best = v
            best_w = w
    return best_w


@njit
def _removed_worth(s, t, p):
    """What a ruin from the pile set aside at set-up is worth to ``p`` as far as
    ``p`` can know: the pile is a random part of the ruins ``p`` has not seen
    (neither held openly, on the table, removed by a tie, nor its own hidden
    one). Returns the
    expected best of the pile (the Memorial picks one) and the expected worth of
    a random one (the Cenotaph), exactly over the pile's possible contents."""
    n_col = t.n_ruin_colours
    k = s.sc[S_REMOVED_N]
    if k <= 0:
        return 0.0, 0.0
    unseen = np.zeros(n_col, np.int64)
    for c in range(t.card_kind.shape[0]):
        if t.card_kind[c] == CardKind.RUIN:
            unseen[t.card_colour[c]] += 1
    for q in range(s.sc[S_N_PLAYERS]):
        for c in range(n_col):
            unseen[c] -= s.held_colour[q, c]
        if q != p and s.hidden[q] >= 0:
            unseen[t.card_colour[s.hidden[q]]] += 1  # another seat's hidden ruin: unseen
    for slot in range(s.sc[S_N_SLOTS]):
        card = s.slot_card[slot]
        if card >= 0 and t.card_kind[card] == CardKind.RUIN:
            unseen[t.card_colour[card]] -= 1
    for c in range(n_col):
        unseen[c] -= s.boxed_colour[c]  # removed by unbreakable ties, in view of all
    worth = np.zeros(n_col, np.float64)
    for c in range(n_col):
        unseen[c] = max(unseen[c], 0)
        worth[c] = colour_worth(s, t, p, c)
    return pile_worth(unseen, worth, k)


@njit
def pile_worth(count, worth, k):
    """A pile of ``k`` cards drawn at random, without replacement, from a pool
    holding ``count[c]`` cards worth ``worth[c]`` (>= 0) each: returns the expected
    worth of its best card and of a random card of it. Exact: E[max] is the sum
    over worth levels ``w`` of (w - the next lower level) * P(max >= w), with
    P(max >= w) = 1 - C(N - A, k) / C(N, k), ``A`` the cards worth ``w`` or more.
    Slow twin: ``tests/naive.py::naive_pile_worth`` (every pile, fractions)."""
    n_col = count.shape[0]
    n = 0
    mean = 0.0
    for c in range(n_col):
        n += count[c]
        mean += count[c] * worth[c]
    if n == 0 or k <= 0:
        return 0.0, 0.0
    mean /= n
    k = min(k, n)
    top = 0.0
    for c in range(n_col):  # each worth level once (a handful of colours: no sort)
        w = worth[c]
        seen = False
        for e in range(c):
            seen = seen or worth[e] == w
        if seen or w <= 0.0:
            continue
        above = 0
        lower = 0.0
        for e in range(n_col):
            if worth[e] >= w:
                above += count[e]
            elif worth[e] > lower:
                lower = worth[e]
        none = 1.0
        for j in range(k):
            none *= max(n - above - j, 0) / (n - j)
        top += (w - lower) * (1.0 - none)
    return top, mean


@njit
def choose_memorial(s, m, t, p):
    """Crumbling Memorial: index into ``removed`` of the ruin ``p`` takes."""
    n = s.sc[S_REMOVED_N]
    if m.strat[p] == Strategy.RANDOM:
        return rng_below(s.rng, n)
    best = -1e18
    best_i = 0
    for i in range(n):
        v = ruin_worth(s, t, p, s.removed[i], True)
        if v > best:
            best = v
            best_i = i
    return best_i
