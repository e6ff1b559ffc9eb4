"""The first reveals: which one or two cards a seat turns over.

Kernels of :mod:`analyzer.colorful_treasure.strategies`: the expected value of
revealing one slot or two (:func:`ev_one`, :func:`ev_two`), the slots worth
considering for a target (:func:`col_best`, :func:`top_slot`, :func:`target_pair`)
and the choice (:func:`choose_first`, :func:`first_slots`). Slots: a known card
(``slot >= 0``) or an unknown place of wonder ``w`` (``slot = -1 - w``).
"""

from analyzer.colorful_treasure.bits import kth_bit, lowest, popcount
from analyzer.colorful_treasure.codes import (
    Plan,
)
from analyzer.colorful_treasure.state import (
    KIND_FIELD,
    KINDS_PER_WORD,
    S_COLS_TURN,
    S_GRID_CARDS,
    S_TURN,
    S_UP_CARDS,
)
from analyzer.colorful_treasure.strategy_memory import (
    _slot_cards,
    _slot_wonder,
    column_mask,
    recount_memory,
    slot_place,
)
from analyzer.colorful_treasure.strategy_values import (
    NEG,
    _group,
    pair_value,
    seat_values,
)
from analyzer.colorful_treasure.turn import (
    face_down_places,
    random_index,
)
from analyzer.kernels.jit import njit

#: how well a slot serves a target (its aim), as a whole number that orders aims as
#: the chances do: a known card of the kind ONE, a known key or chest -ONE (when the
#: target is not one), a column of k unknown cards +-(ONE + 1 - k) or 0 (see col_best)
ONE = 60
#: "no such slot"
NO_SLOT = 2**62


@njit
def column_sets(s, t, unk):
    """Masks of wonders (bit ``w``) by what their unknown cards ``unk`` hold: each
    gem colour and the diamond (``s.cols[kind]``), a key or chest
    (``s.cols[n_colours + 1]``); and by how many unknown cards they have
    (``s.cols_n[k]``; ``s.cols_n[0]``: any). One table entry per column and word of
    :func:`~.state.column_table`, OR-ed, holds every kind's mask."""
    nc = t.n_colours
    cols = s.cols
    cols_n = s.cols_n
    spread = s.spread
    rows = t.rows
    full = (1 << rows) - 1
    for k in range(cols_n.shape[0]):
        cols_n[k] = 0
    any_ = 0
    for w in range(t.n_wonders):
        u = (unk >> (w * rows)) & full
        bit = min(u, 1) << w
        cols_n[popcount(u)] |= bit
        any_ |= bit
    cols_n[0] = any_
    field = (1 << KIND_FIELD) - 1
    for i in range(spread.shape[0]):
        acc = 0
        for w in range(t.n_wonders):
            acc |= spread[i, (w << rows) | ((unk >> (w * rows)) & full)]
        for j in range(KINDS_PER_WORD):
            kind = KINDS_PER_WORD * i + j
            if kind <= nc + 1:
                cols[kind] = (acc >> (KIND_FIELD * j)) & field


@njit
def col_best(s, t, target, excl):
    """``(wonder, aim)``: the column, not in the wonder mask ``excl``, whose unknown
    places serve ``target`` best (after :func:`column_sets`); ``(-1, 0)`` if none.

    A column's aim is the chance of the target kind among its unknown cards, less
    the chance of a key or chest when the target is not one: 1/k, 0 or -1/k for a
    column of k unknown cards, ranked as ``ONE + 1 - k``, 0, ``k - 1 - ONE``
    (:data:`ONE`); the first column wins a tie. So the best is a column with the
    kind and no key or chest, fewest unknown cards first; else the first whose aim
    is 0; else one with a key or chest and not the kind, most unknown cards first."""
    nc = t.n_colours
    cols = s.cols
    cols_n = s.cols_n
    cu = cols_n[0] & ~excl
    if cu == 0:
        return -1, 0
    ct = cols[nc + 1]
    if target <= nc:
        cj = cols[target]
        pos = cj & ~ct & cu
        zero = ((cj & ct) | (~cj & ~ct)) & cu
        neg = ct & ~cj & cu
    else:
        pos = ct & cu
        zero = cu & ~ct
        neg = 0
    rows = t.rows
    if pos != 0:
        for k in range(1, rows + 1):
            x = pos & cols_n[k]
            if x != 0:
                return lowest(x), ONE + 1 - k
    if zero != 0:
        return lowest(zero), 0
    for k in range(rows, 0, -1):
        x = neg & cols_n[k]
        if x != 0:
            return lowest(x), k - 1 - ONE
    return -1, 0


@njit
def _column_aim(t, u, target):
    """The aim (see :func:`col_best`) of a column whose unknown cards are ``u``."""
    k = popcount(u)
    ht = 1 if u & t.treasure_mask != 0 else 0
    sign = ht
    if target < t.n_colours + 1:
        sign = (1 if u & t.key_mask[target] != 0 else 0) - ht
    return sign * (ONE + 1 - k)


@njit
def _known_top(t, kf, target):
    """``(card, aim)``: the known face-down card of ``kf`` that serves ``target`` best
    (a card of the kind: ONE; a key or chest when the target is not one: -ONE;
    any other: 0), the lowest id of the best; ``(-1, 0)`` if ``kf`` is empty."""
    if target < t.n_colours + 1:
        x = kf & t.key_mask[target]
        if x != 0:
            return lowest(x), ONE
        x = kf & ~t.treasure_mask
        if x != 0:
            return lowest(x), 0
        if kf != 0:
            return lowest(kf), -ONE
    else:
        x = kf & t.treasure_mask
        if x != 0:
            return lowest(x), ONE
        if kf != 0:
            return lowest(kf), 0
    return -1, 0


@njit
def _first_of(card, card_aim, w, col_aim):
    """The first slot of the best aim between a known card and a column (the known
    card ranks first); :data:`NO_SLOT` if neither exists (-1)."""
    if card >= 0 and (w < 0 or card_aim >= col_aim):
        return card
    if w >= 0:
        return -1 - w
    return NO_SLOT


@njit
def top_slot(s, t, target, kf, unk, taken):
    """The slot that best serves ``target`` (after :func:`column_sets`).

    With ``taken`` (a slot, or :data:`NO_SLOT`): the best slot of another wonder
    (a wonder has one card of each kind, so two of its cards never make a set),
    or if there is none, the best other slot: ``taken`` itself only if it is a
    wonder with two unknown places or more. :data:`NO_SLOT` if there is none."""
    if taken == NO_SLOT:
        card, aim = _known_top(t, kf, target)
        w, col_aim = col_best(s, t, target, 0)
        return _first_of(card, aim, w, col_aim)
    wa = _slot_wonder(t, taken)
    card, aim = _known_top(t, kf & ~column_mask(t, wa), target)
    w, col_aim = col_best(s, t, target, 1 << wa)
    if card >= 0 or w >= 0:
        return _first_of(card, aim, w, col_aim)
    # every slot is of wonder wa
    kx = kf
    if taken >= 0:
        kx &= ~(1 << taken)
    card, aim = _known_top(t, kx, target)
    u = unk & column_mask(t, wa)
    w = -1
    col_aim = 0
    if u != 0 and (taken >= 0 or popcount(u) >= 2):
        w = wa
        col_aim = _column_aim(t, u, target)
    return _first_of(card, aim, w, col_aim)


@njit(inline="always")
def _best_of(kpos, kzero, kneg, pos, zero, neg, cols_n, rows):
    """The first slot of the best aim among known cards of aim ONE (mask ``kpos``),
    0 (``kzero``) and -ONE (``kneg``), and columns (wonder masks) of aim 1/k
    (``pos``), 0 (``zero``) and -1/k (``neg``) for k unknown cards
    (``cols_n[k]``): :func:`top_slot` with the masks laid out. A known card ranks
    before a column of the same aim. :data:`NO_SLOT` if all are empty."""
    if kpos != 0:
        return lowest(kpos)
    if pos != 0:
        for k in range(1, rows + 1):
            x = pos & cols_n[k]
            if x != 0:
                return -1 - lowest(x)
    if kzero != 0:
        return lowest(kzero)
    if zero != 0:
        return -1 - lowest(zero)
    if neg != 0:
        for k in range(rows, 1, -1):  # -1/k beats -1 (a known key or chest) for k > 1
            x = neg & cols_n[k]
            if x != 0:
                return -1 - lowest(x)
    if kneg != 0:
        return lowest(kneg)
    if neg != 0:
        return -1 - lowest(neg)
    return NO_SLOT


@njit(inline="always")
def target_pair(s, t, target, kf, unk):
    """``(a, b)``: :func:`top_slot` of ``target``, then of ``target`` with ``a``
    taken (after :func:`column_sets`), the masks of both worked out once."""
    nc = t.n_colours
    cols = s.cols
    cols_n = s.cols_n
    rows = t.rows
    tm = t.treasure_mask
    cu = cols_n[0]
    ct = cols[nc + 1]
    if target <= nc:
        cj = cols[target]
        pos = cj & ~ct & cu
        zero = ((cj & ct) | (~cj & ~ct)) & cu
        neg = ct & ~cj & cu
        kpos = kf & t.key_mask[target]
        kzero = kf & ~tm & ~kpos
        kneg = kf & tm
    else:
        pos = ct & cu
        zero = cu & ~ct
        neg = 0
        kpos = kf & tm
        kzero = kf & ~tm
        kneg = 0
    a = _best_of(kpos, kzero, kneg, pos, zero, neg, cols_n, rows)
    if a == NO_SLOT:
        return a, a
    wa = _slot_wonder(t, a)
    cm = ~column_mask(t, wa)
    wm = ~(1 << wa)
    b = _best_of(kpos & cm, kzero & cm, kneg & cm, pos & wm, zero & wm, neg & wm, cols_n, rows)
    if b == NO_SLOT:  # every slot is of wonder wa
        b = top_slot(s, t, target, kf, unk, a)
    return a, b


@njit
def ev_one(s, t, seat, n, slot, unk):
    """Expected :func:`take_value` of revealing ``slot`` alone (after :func:`seat_values`)."""
    x = _slot_cards(t, slot, unk)
    new = 1 if s.wcards[seat, _slot_wonder(t, slot)] == 0 else 0
    memo = s.memo
    key = t.card_key
    k = popcount(x)
    tot = 0.0
    while x != 0:
        c = lowest(x)
        x &= x - 1
        tot += memo[2 * key[c] + new]
    return tot / k


@njit(inline="always")
def ev_two(s, t, seat, n, a, b, unk):
    """Expected :func:`take_value` of revealing slots ``a`` and ``b`` at once (an
    unknown wonder twice: two different unknown cards of it, all pairs alike;
    after :func:`seat_values`).

    The pairs are added in the order of :func:`ev_two_plain` (cards of ``a``, then
    of ``b``, by id), each the value :func:`pair_value` gives, with fewer branches:
    a gem or diamond card of ``a`` is worth the better of the two with a gem or
    diamond card of another kind, the value of the same kind twice with one of its
    kind, and the key or chest alone with a key or chest."""
    xa = _slot_cards(t, a, unk)
    xb = _slot_cards(t, b, unk)
    na = 1 if s.wcards[seat, _slot_wonder(t, a)] == 0 else 0
    nb = 1 if s.wcards[seat, _slot_wonder(t, b)] == 0 else 0
    same = -1 if (a < 0 and a == b) else 0  # an unknown wonder twice: two different cards
    nc = t.n_colours
    memo = s.memo
    key = t.card_key
    optional = t.take_optional == 1
    tot = 0.0
    cnt = 0
    while xa != 0:
        ca = lowest(xa)
        xa &= xa - 1
        ka = key[ca]
        va = memo[2 * ka + na]
        y = xb & ~(same & (1 << ca))
        cnt += popcount(y)
        if ka > nc:  # a key or chest: alone with any other card, a pair with a key or chest
            while y != 0:
                cb = lowest(y)
                y &= y - 1
                kb = key[cb]
                if kb > nc:
                    tot += pair_value(s, t, seat, n, 2 * ka + na, 2 * kb + nb)
                else:
                    tot += va
        else:
            two = 0.0
            if t.key_mask[ka] & y != 0:  # pair_value of two cards of kind ka
                two = _group(s, ka, 2, na + nb)
                if optional and two <= 0.0:
                    two = 0.0
            while y != 0:
                cb = lowest(y)
                y &= y - 1
                kb = key[cb]
                vb = memo[2 * kb + nb]
                v = max(va, vb)
                if kb == ka:
                    v = two
                if kb > nc:
                    v = vb
                tot += v
    return tot / cnt


@njit
def ev_two_plain(s, t, seat, n, a, b, unk):
    """:func:`ev_two` the long way: every pair of cards through :func:`pair_value`
    (its slow twin in the tests)."""
    xa = _slot_cards(t, a, unk)
    xb = _slot_cards(t, b, unk)
    na = 1 if s.wcards[seat, _slot_wonder(t, a)] == 0 else 0
    nb = 1 if s.wcards[seat, _slot_wonder(t, b)] == 0 else 0
    same = a < 0 and a == b
    key = t.card_key
    tot = 0.0
    cnt = 0
    while xa != 0:
        ca = lowest(xa)
        xa &= xa - 1
        y = xb
        while y != 0:
            cb = lowest(y)
            y &= y - 1
            if same and ca == cb:
                continue
            tot += pair_value(s, t, seat, n, 2 * key[ca] + na, 2 * key[cb] + nb)
            cnt += 1
    return tot / cnt


@njit
def choose_first(s, t, seat, n, k):
    """Positions of the ``k`` cards ``seat`` reveals at once, into ``s.pick[:k]``.

    For each target kind, the slot that serves it best and the best one of
    another wonder (:func:`top_slot`); of those pairs, the one of the best exact
    expected value (the first of equal ones). Draws random numbers (uniform
    choices, and the place among a wonder's unknown places). The positions are
    chosen before any is revealed."""
    out = s.pick
    if s.plan[seat] == Plan.RANDOM:
        for i in range(k):
            out[i] = _random_face_down(s, t, i)
        return
    chosen0, chosen1, kf = first_slots(s, t, seat, n, k)
    out[0] = slot_place(s, t, chosen0, kf, 0)
    if k >= 2:
        # the second place is picked before the first card is seen
        out[1] = slot_place(s, t, chosen1, kf, 1 << out[0])
        for i in range(2, k):  # more than two at once (a designer's override): uniform
            out[i] = _random_face_down(s, t, i)


@njit
def first_slots(s, t, seat, n, k):
    """``(a, b, kf)``: the slots of :func:`choose_first`'s choice for plan
    ``EXPECT`` (``b = a`` when ``k`` is 1; the first of equal values) and the
    seat's remembered face-down cards. Draws no random numbers."""
    known = recount_memory(s, t, seat)
    upc = s.sc[S_UP_CARDS]
    kf = known & ~upc
    unk = s.sc[S_GRID_CARDS] & ~known & ~upc
    seat_values(s, t, seat, n)
    column_sets(s, t, unk)
    s.sc[S_COLS_TURN] = s.sc[S_TURN] * 64 + seat
    best = NEG
    chosen0 = -1
    chosen1 = -1
    pairs = s.pairs
    tried = 0
    for target in range(t.n_colours + 2):
        if k == 1:
            a = top_slot(s, t, target, kf, unk, NO_SLOT)
            b = a
        else:
            a, b = target_pair(s, t, target, kf, unk)
        if a == NO_SLOT or b == NO_SLOT:
            continue
        pair = (a + 64) * 128 + b + 64  # slots are -12 .. 59
        seen = False  # the same pair for an earlier target: same value
        for j in range(tried):
            if pairs[j] == pair:
                seen = True
                break
        if seen:
            continue
        pairs[tried] = pair
        tried += 1
        if k == 1:
            val = ev_one(s, t, seat, n, a, unk)
        else:
            val = ev_two(s, t, seat, n, a, b, unk)
        if val > best:
            best = val
            chosen0 = a
            chosen1 = b
    return chosen0, chosen1, kf


@njit
def _random_face_down(s, t, i):
    """A face-down position uniform among those not in ``s.pick[:i]``."""
    m = face_down_places(s)
    for j in range(i):
        if s.pick[j] >= 0:
            m &= ~(1 << s.pick[j])
    return kth_bit(m, random_index(s, popcount(m)))
