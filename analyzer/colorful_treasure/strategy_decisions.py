"""The other decisions of a turn: an extra reveal, the kind to take, the steal.

Kernels of :mod:`analyzer.colorful_treasure.strategies`: whether and where to
reveal a third card (:func:`choose_extra`), which kind of card to take from those
face up (:func:`choose_kind`) and whom to steal from and what
(:func:`choose_steal`, :func:`steal_card`).
"""

from analyzer.colorful_treasure.bits import lowest, popcount
from analyzer.colorful_treasure.codes import (
    BAR_STEAL,
    P_THIRD,
    Plan,
)
from analyzer.colorful_treasure.state import (
    H_CARDS,
    H_PLASTIC,
    S_COLS_TURN,
    S_GRID_CARDS,
    S_N_UP,
    S_PAIRED,
    S_TURN,
    S_UP_CARDS,
)
from analyzer.colorful_treasure.strategy_memory import (
    card_class,
    seat_memory,
    slot_place,
)
from analyzer.colorful_treasure.strategy_reveals import (
    _random_face_down,
    column_sets,
)
from analyzer.colorful_treasure.strategy_values import (
    NEG,
    _group,
    best_steal,
    extra_values,
    pair_kind,
    seat_values,
    up_counts,
)
from analyzer.colorful_treasure.turn import (
    face_down_count,
    random_index,
)
from analyzer.kernels.jit import njit


@njit
def choose_extra(s, t, seat, n):
    """Position of one more card to reveal, or -1 to stop. Draws random numbers.

    The slot of the best expected value of the take with one more card face up
    (the first of equal ones), if it beats the take now by more than ``third``."""
    if face_down_count(s) == 0:
        return -1
    if s.plan[seat] == Plan.RANDOM:
        if random_index(s, 2) == 0:
            return -1
        return _random_face_down(s, t, 0)
    known = seat_memory(s, t, seat)
    upc = s.sc[S_UP_CARDS]
    kf = known & ~upc
    unk = s.sc[S_GRID_CARDS] & ~known & ~upc
    seat_values(s, t, seat, n)
    cur = extra_values(s, t, seat, n)
    memo3 = s.memo3
    key = t.card_key
    bar = cur + s.prm[seat, P_THIRD] + 1e-9
    # no slot is worth more than the best class among the cards it may show: if that
    # is below the bar (by more than rounding can add to an average), stop here
    top = NEG
    cards = kf | unk
    for j in range(t.key_mask.shape[0]):
        if cards & t.key_mask[j] != 0:
            top = max(top, memo3[2 * j], memo3[2 * j + 1])
    if top + 1e-10 + abs(top) * 1e-14 <= bar:
        return -1
    best = NEG
    arg = 0
    x = kf
    while x != 0:
        c = lowest(x)
        x &= x - 1
        v = memo3[card_class(s, t, seat, c)]
        if v > best:
            best = v
            arg = c
    # only the columns that may hold a card whose class beats the bar and the best so
    # far (by more than rounding can add to an average) can be chosen: the column
    # masks of the turn's first decision (after it, a seat's unknown cards only go
    # out of its view, so the masks hold every kind they may still show)
    if s.sc[S_COLS_TURN] != s.sc[S_TURN] * 64 + seat:
        column_sets(s, t, unk)
        s.sc[S_COLS_TURN] = s.sc[S_TURN] * 64 + seat
    thr = max(best, bar)
    nc = t.n_colours
    cols = s.cols
    cand = 0
    for j in range(nc + 3):
        m = max(memo3[2 * j], memo3[2 * j + 1])
        if m + 1e-10 + abs(m) * 1e-14 > thr:
            cand |= cols[min(j, nc + 1)]  # a key or a chest: the mask of either
    rows = t.rows
    full = (1 << rows) - 1
    while cand != 0:
        w = lowest(cand)
        cand &= cand - 1
        base = w * rows
        u = (unk >> base) & full
        if u == 0:
            continue
        new = 1 if s.wcards[seat, w] == 0 else 0
        v = 0.0
        for r in range(rows):  # every place, the absent ones times 0: no branch to guess
            v += memo3[2 * key[base + r] + new] * ((u >> r) & 1)
        v /= popcount(u)
        if v > best:
            best = v
            arg = -1 - w
    if best > bar:
        return slot_place(s, t, arg, kf, 0)
    return -1


@njit
def choose_kind(s, t, seat, n):
    """With no key or chest face up: the card (its kind) to take, as an index into
    the face-up cards, or -1 to take nothing (only if the ruling allows)."""
    plan = s.plan
    m = s.sc[S_N_UP]
    for i in range(m):
        s.hyp[i] = s.grid[s.up[i]]
    if plan[seat] == Plan.RANDOM:
        kinds = 0
        for i in range(m):
            if _first_of_kind(s, t, i):
                kinds += 1
        k = random_index(s, kinds + t.take_optional)
        for i in range(m):
            if _first_of_kind(s, t, i):
                if k == 0:
                    return i
                k -= 1
        return -1
    # the first card of the best kind (take_value with no key or chest face up)
    seat_values(s, t, seat, n)
    up_counts(s, t, seat)
    best = NEG
    arg = -1
    for i in range(m):
        if _first_of_kind(s, t, i):
            kk = t.card_key[s.hyp[i]]
            v = _group(s, kk, s.up_n[kk], s.up_new[kk])
            if v > best:
                best = v
                arg = i
    if t.take_optional == 1 and best <= 0.0:
        return -1
    return arg


@njit
def _first_of_kind(s, t, i):
    ci = s.hyp[i]
    for j in range(i):
        cj = s.hyp[j]
        if t.card_kind[cj] == t.card_kind[ci] and t.card_colour[cj] == t.card_colour[ci]:
            return False
    return True


@njit
def choose_steal(s, t, seat, n):
    """``(victim, card)`` of a steal (card -1: a plastic diamond); victim -1 if no
    other seat holds anything (or restricted play bars ``seat`` from stealing).
    Draws random numbers for the random plan."""
    if t.seat_bar[seat, BAR_STEAL] == 1:
        return -1, -1
    plan = s.plan
    if plan[seat] == Plan.RANDOM:
        count = 0
        for v in range(n):
            if v != seat:
                count += (s.held[v, H_PLASTIC] > 0) + s.held[v, H_CARDS]
        if count == 0:
            return -1, -1
        k = random_index(s, count)
        for v in range(n):
            if v == seat:
                continue
            if s.held[v, H_PLASTIC] > 0:
                if k == 0:
                    return v, -1
                k -= 1
            for c in range(t.n_cards):
                if s.owner[c] == v:
                    if k == 0:
                        return v, c
                    k -= 1
        return -1, -1
    _, v, what = best_steal(s, t, seat, n)
    if v < 0:
        return -1, -1
    if what < 0:
        return v, -1
    return v, steal_card(s, t, seat, v, what)


@njit
def steal_card(s, t, seat, v, what):
    """The card of kind ``what`` (:func:`best_steal`'s code: a gem colour, the
    diamond, or a key or chest) that ``seat`` takes from ``v``: the one whose wonder
    the thief holds fewest of (explorer), the lowest id of equal ones; -1 if none.
    Looked for among the cards of that kind out of the grid (a gem colour or the
    diamond is a card_key; a key or chest, the treasure mask). With the ruling
    ``steal_pairs = "cards"`` (not for plan ``EXPECT_PLAIN``) a key or chest card is
    first looked for among the victim's unspent cards that complete a pair of the
    thief, then among its unspent cards (:func:`chain_steal`)."""
    x = t.treasure_mask if what > t.n_colours else t.key_mask[what]
    x &= ~s.sc[S_GRID_CARDS]
    if t.pair_cards == 1 and what > t.n_colours and s.plan[seat] != Plan.EXPECT_PLAIN:
        free = x & ~s.sc[S_PAIRED]
        want = pair_kind(s, seat)
        if want >= 0:
            c = _fewest_wonder(s, t, seat, v, free & t.key_mask[t.n_colours + want - 1])
            if c >= 0:
                return c
        c = _fewest_wonder(s, t, seat, v, free)
        if c >= 0:
            return c
    return _fewest_wonder(s, t, seat, v, x)


@njit
def _fewest_wonder(s, t, seat, v, x):
    """The card of mask ``x`` held by ``v`` whose wonder ``seat`` holds fewest of, the
    lowest id of equal ones; -1 if none."""
    best = -1
    fewest = 1 << 30
    while x != 0:
        c = lowest(x)
        x &= x - 1
        if s.owner[c] == v and s.wcards[seat, t.card_wonder[c]] < fewest:
            fewest = s.wcards[seat, t.card_wonder[c]]
            best = c
    return best
