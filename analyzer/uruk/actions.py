"""The actions of a turn (kernels): take a card, make an invention, take
resources, trade hand cards, place a settlement stone, card actions.

Implements "A turn: three actions" of ``docs/games/uruk.md``. Each ``can_*``
predicate says whether an action is legal; each ``do_*`` carries it out and
assumes it is. No function here draws random numbers, except that drawing a
card may rebuild the deck (:func:`analyzer.uruk.cards.reshuffle`).
"""

from analyzer.kernels.jit import njit
from analyzer.uruk.cards import discard_card, draw_invention, stones_changed, trace
from analyzer.uruk.choices import pair_card, pair_colour, rob_colour, settle_colours
from analyzer.uruk.codes import ANY, BAR_TRADE, OWN, CardAction, Effect, EpochCost, GodEffect
from analyzer.uruk.luck import KIND_HAND, luck_to
from analyzer.uruk.position import max_level, settle_discount, slot_of, stone_epoch
from analyzer.uruk.state import (
    EV_CARD_ACTION,
    EV_DRAW,
    EV_MAKE,
    EV_MAKE_CARDS,
    EV_NO_RES,
    EV_OPTIONS,
    EV_PAIR,
    EV_PAY,
    EV_REMINDER_USED,
    EV_ROB_REPLACE,
    EV_SETTLE,
    EV_SETTLE_COST,
    EV_STONES_BACK,
    EV_TAKE_CARD,
    EV_TAKE_RES,
    EV_TRADE,
    EV_TRADE_POOL,
    S_DECK_N,
    S_DISCARD_N,
    S_GODS_HELD,
    S_N,
    S_POOL_STONES,
    ST_CARD_ACTIONS,
    ST_CARDS_TAKEN,
    ST_CITIES,
    ST_MADE,
    ST_RES_TAKEN,
    ST_ROBBED,
    ST_TRADED,
    ST_VILLAGES,
)

_TAKE_RESOURCES = Effect.TAKE_RESOURCES.value
_MAKE_DISCOUNT = Effect.MAKE_DISCOUNT.value
_CARD_ACTION = Effect.CARD_ACTION.value
_DRAW = CardAction.DRAW.value
_LEVEL = EpochCost.LEVEL.value
_MARDUK = GodEffect.MARDUK.value
_NANNAR = GodEffect.NANNAR.value


# --------------------------------------------------------------------------- predicates


@njit
def free_slot(s, t, p):
    """A free display slot of seat ``p``, or -1 (at most ``max_inventions``)."""
    for i in range(t.max_inventions):
        if s.inv[p, i] < 0:
            return i
    return -1


@njit
def shown_mask(s, t):
    """Bit mask of the inventions displayed by any player (bit ``x``)."""
    m = 0
    for q in range(s.sc[S_N]):
        for i in range(t.max_inventions):
            x = s.inv[q, i]
            if x >= 0:
                m |= 1 << x
    return m


@njit
def applies(t, x, colour):
    """Does invention ``x``'s colour parameter cover ``colour``?"""
    c = t.inv_colour_param[x]
    if c == ANY:
        return True
    if c == OWN:
        return t.inv_colour[x] == colour
    return c == colour


@njit
def make_discount(s, t, p, x, r):
    """``(saved, invention)``: the best unused make_discount of seat ``p`` for
    making ``x`` into slot ``r`` (-1: a free slot); ``(0, -1)`` if none. The
    invention in slot ``r`` counts unless ruling ``replaced_discount = "lost"``."""
    best = 0
    who = -1
    for i in range(t.max_inventions):
        d = s.inv[p, i]
        if i == r and t.replaced_no_discount == 1:
            continue
        if d >= 0 and t.inv_effect[d] == _MAKE_DISCOUNT and s.fn_used[d] == 0:
            if applies(t, d, t.inv_colour[x]) and t.inv_level[x] >= t.inv_level_param[d]:
                if t.inv_amount[d] > best:
                    best = t.inv_amount[d]
                    who = d
    return best, who


@njit
def level_ok(s, t, p, x):
    """The level rule: ``x`` at most one level above the highest displayed
    invention (the one it may replace included)."""
    return t.inv_level[x] <= max_level(s, t, p) + 1


@njit
def make_need(s, t, p, x, r):
    """``(copies, pairs)``: cards of ``x`` shown and colour pairs needed to make
    it into slot ``r`` (-1: a free slot)."""
    need = t.inv_level[x]
    saved, _ = make_discount(s, t, p, x, r)
    need = max(1, need - saved)
    copies = min(s.hand[p, x], need)
    return copies, need - copies


@njit
def spare_pairs(s, t, p, x, copies, extra_colour):
    """Colour pairs seat ``p`` can form from hand cards other than the ``copies``
    of ``x`` shown, plus one card of ``extra_colour`` (a replaced invention
    returning to the hand; -1 none)."""
    s.tally[:] = 0
    for y in range(t.n_inv):
        s.tally[t.inv_colour[y]] += s.hand[p, y]
    s.tally[t.inv_colour[x]] -= copies
    if extra_colour >= 0:
        s.tally[extra_colour] += 1
    total = 0
    for c in range(t.n_colours):
        total += s.tally[c] // 2
    return total


@njit
def can_make(s, t, p, x, r):
    """Can seat ``p`` make ``x``, in a free slot (``r = -1``) or replacing slot ``r``?"""
    if t.inv_forbidden[p, x] == 1 or s.hand[p, x] < 1 or slot_of(s, t, p, x) >= 0:
        return False
    if not level_ok(s, t, p, x):
        return False
    extra = -1
    if r < 0:
        if free_slot(s, t, p) < 0:
            return False
    else:
        if s.inv[p, r] < 0:
            return False
        extra = t.inv_colour[s.inv[p, r]]
    copies, pairs = make_need(s, t, p, x, r)
    return pairs == 0 or spare_pairs(s, t, p, x, copies, extra) >= pairs


@njit
def pay_pair(s, t, p):
    """Discard one colour pair from seat ``p``'s hand, the seat's choice of
    colour and cards (:func:`analyzer.uruk.choices.pair_colour`,
    :func:`~analyzer.uruk.choices.pair_card`). Returns the colour."""
    best = pair_colour(s, t, p)
    for _ in range(2):
        y = pair_card(s, t, p, best)
        s.hand[p, y] -= 1
        discard_card(s, y)
    return best


@njit
def replace_slot(s, t, p, r):
    """The invention in slot ``r`` goes back to seat ``p``'s hand; its settlement
    stays for the new invention (ruling ``settlement_on_replace = "moves"``) or
    its stones go to the pool (``"to_pool"``). Returns the replaced invention."""
    old = s.inv[p, r]
    s.hand[p, old] += 1
    k = s.stones[p, r]
    if k > 0 and t.stones_to_pool == 1:
        s.stones[p, r] = 0
        s.sc[S_POOL_STONES] += k
        trace(s, EV_STONES_BACK, p, old, k, 0)
        stones_changed(s)
    return old


@njit
def do_make(s, t, p, x, r):
    """Make invention ``x`` (``can_make`` holds): show its cards, one to the
    display (a free slot, or slot ``r`` whose invention goes back to the hand:
    :func:`replace_slot`), the rest and the colour pairs to the discard pile.
    Uses the best make_discount function."""
    copies, pairs = make_need(s, t, p, x, r)
    saved, who = make_discount(s, t, p, x, r)
    if who >= 0 and max(1, t.inv_level[x] - saved) < t.inv_level[x]:
        s.fn_used[who] = 1
    old = -1
    if r < 0:
        r = free_slot(s, t, p)
        s.stones[p, r] = 0
    else:
        old = replace_slot(s, t, p, r)
    s.inv[p, r] = x
    s.hand[p, x] -= copies
    for _ in range(copies - 1):
        discard_card(s, x)
    for _ in range(pairs):
        pay_pair(s, t, p)
    s.made[p, x] += 1
    s.stat[p, ST_MADE] += 1
    trace(s, EV_MAKE, p, x, old, pairs)
    trace_make_cards(s, t, p, x, copies, pairs, saved, who)


@njit
def trace_make_cards(s, t, p, x, copies, pairs, saved, who):
    """Trace what paid for making ``x``: the cards of ``x`` shown, the make
    discount used (the cards it saved) and each colour pair, read from the top of
    the discard pile where the pairs went."""
    if s.trace.shape[0] == 0:
        return
    cut = t.inv_level[x] - max(1, t.inv_level[x] - saved)
    trace(s, EV_MAKE_CARDS, p, copies, who if cut > 0 else -1, cut)
    k = s.sc[S_DISCARD_N] - 2 * pairs
    for j in range(pairs):
        a = s.discard[k + 2 * j]
        trace(s, EV_OPTIONS, p, held_before(s, t, p, k + 2 * j, 2), 0, 0)
        trace(s, EV_PAIR, p, a, s.discard[k + 2 * j + 1], t.inv_colour[a])


@njit
def held_before(s, t, p, first, alike):
    """For the trace: bit mask of the inventions seat ``p`` held in hand before it
    discarded the cards now on the discard pile from ``first`` on (its hand then:
    the hand now and those cards), each counted only when the seat held ``alike``
    cards of its colour then (2: a card it could pay a colour pair with; 1: any)."""
    end = s.sc[S_DISCARD_N]
    mask = 0
    for x in range(t.n_inv):
        if _held_then(s, t, p, x, first, end) == 0:
            continue
        same = 0
        for y in range(t.n_inv):
            if t.inv_colour[y] == t.inv_colour[x]:
                same += _held_then(s, t, p, y, first, end)
        if same >= alike:
            mask |= 1 << x
    return mask


@njit
def _held_then(s, t, p, x, first, end):
    """Cards of ``x`` in seat ``p``'s hand and on the discard pile from ``first`` to ``end``."""
    k = s.hand[p, x]
    for i in range(first, end):
        if s.discard[i] == x:
            k += 1
    return k


@njit
def place_free(s, t, p, x, r):
    """Put hand card ``x`` on display without paying (Enlil): a free slot
    (``r = -1``) or replacing slot ``r`` (that invention back to the hand)."""
    old = -1
    if r < 0:
        r = free_slot(s, t, p)
        s.stones[p, r] = 0
    else:
        old = replace_slot(s, t, p, r)
    s.inv[p, r] = x
    s.hand[p, x] -= 1
    s.made[p, x] += 1
    s.stat[p, ST_MADE] += 1
    trace(s, EV_MAKE, p, x, old, -1)


# --------------------------------------------------------------------------- cards


@njit
def can_take_card(s, t, a):
    """A display slot with a card (``a < 3``) or a deck/discard pile with cards."""
    if a < 3:
        return a < t.display_size and s.display[a] >= 0
    return s.sc[S_DECK_N] > 0 or s.sc[S_DISCARD_N] > 0


@njit
def do_take_card(s, t, p, a):
    """Take display card ``a`` (the gap waits for the end of the turn) or the
    top of the deck (gods and disasters on the way are handled). Returns the card."""
    if a < 3:
        x = s.display[a]
        s.display[a] = -1
    else:
        luck_to(s, p, KIND_HAND)
        x = draw_invention(s, t)
        a = -1
        if x < 0:
            return x
    s.hand[p, x] += 1
    s.stat[p, ST_CARDS_TAKEN] += 1
    trace(s, EV_TAKE_CARD, p, x, a, 0)
    return x


@njit
def draw_to_hand(s, t, p):
    """Draw one invention from the deck to seat ``p``'s hand (god effects, card actions)."""
    luck_to(s, p, KIND_HAND)
    x = draw_invention(s, t)
    if x >= 0:
        s.hand[p, x] += 1
        trace(s, EV_DRAW, p, x, 0, 0)
    return x


# --------------------------------------------------------------------------- resources


@njit
def gain(s, t, p, c):
    """Seat ``p`` takes one resource of colour ``c`` from the pool if there is one."""
    if s.pool[c] > 0:
        s.pool[c] -= 1
        s.supply[p, c] += 1
        return True
    return False


@njit
def richest_pool_colour(s, t, avoid):
    """The colour with the most resources in the pool (not ``avoid``; lowest
    index on ties), or -1 if the pool holds none."""
    best = -1
    most = 0
    for c in range(t.n_colours):
        if c != avoid and s.pool[c] > most:
            most = s.pool[c]
            best = c
    return best


@njit
def pool_colours(s, t, avoid):
    """Bit mask of the colours the pool holds (not ``avoid``; -1: any)."""
    mask = 0
    for c in range(t.n_colours):
        if c != avoid and s.pool[c] > 0:
            mask |= 1 << c
    return mask


@njit
def obtainable(s, t, p, c):
    """Would taking colour ``c`` give seat ``p`` a resource: the pool has one, or
    another seat holds more than ``p`` (:func:`take_one`)?"""
    if s.pool[c] > 0:
        return True
    for q in range(s.sc[S_N]):
        if q != p and s.supply[q, c] > s.supply[p, c]:
            return True
    return False


@njit
def take_one(s, t, p, c, with_fn):
    """Take one resource of colour ``c``: from the pool, or, if it has none, from
    the player holding most of it (the first such seat clockwise), unless seat
    ``p`` holds most itself; the robbed seat takes one resource of another colour
    from the pool, its choice (:func:`analyzer.uruk.choices.rob_colour`)."""
    if gain(s, t, p, c):
        trace(s, EV_TAKE_RES, p, c, -1, with_fn)
        return True
    n = s.sc[S_N]
    most = 0
    victim = -1
    for k in range(1, n):
        q = (p + k) % n
        if s.supply[q, c] > most:
            most = s.supply[q, c]
            victim = q
    if victim < 0 or s.supply[p, c] >= most:
        trace(s, EV_NO_RES, p, c, 0, 0)
        return False
    if s.trace.shape[0] > 0:  # the options: every seat holding the most
        seats = 0
        for q in range(n):
            if q != p and s.supply[q, c] == most:
                seats |= 1 << q
        trace(s, EV_OPTIONS, p, seats, 0, 0)
    s.supply[victim, c] -= 1
    s.supply[p, c] += 1
    s.stat[victim, ST_ROBBED] += 1
    trace(s, EV_TAKE_RES, p, c, victim, with_fn)
    other = rob_colour(s, t, victim, c)  # the robbed seat's choice
    if other >= 0:
        trace(s, EV_OPTIONS, victim, pool_colours(s, t, c), 0, 0)
        gain(s, t, victim, other)
        trace(s, EV_ROB_REPLACE, victim, other, 0, 0)
    return True


@njit
def resources_of(s, t, p, slot, use_fn):
    """``(colour, count, extra colour)`` of taking resources with the invention
    in ``slot``: one of its colour, plus its take_resources function if unused."""
    x = s.inv[p, slot]
    c = t.inv_colour[x]
    extra = 0
    ec = c
    if use_fn == 1 and t.inv_effect[x] == _TAKE_RESOURCES and s.fn_used[x] == 0:
        extra = t.inv_amount[x]
        cp = t.inv_colour_param[x]
        if cp >= 0:
            ec = cp
        elif cp == ANY:
            ec = richest_pool_colour(s, t, -1)
            if ec < 0:
                ec = c
    return c, extra, ec


@njit
def do_take_resources(s, t, p, slot, use_fn):
    """Take resources with the invention in ``slot`` (``use_fn = 1``: with its
    function, if it has an unused take_resources one). Returns resources got."""
    c, extra, ec = resources_of(s, t, p, slot, use_fn)
    got = 0
    if extra > 0:
        s.fn_used[s.inv[p, slot]] = 1
    if take_one(s, t, p, c, 1 if extra > 0 else 0):
        got += 1
    for _ in range(extra):
        if take_one(s, t, p, ec, 1):
            got += 1
    s.stat[p, ST_RES_TAKEN] += got
    return got


@njit
def tradeable(s, t, p, mask):
    """Hand cards seat ``p`` can trade among the inventions in bit ``mask``:
    displayed anywhere, each limited by the pool's resources of its colour
    (ruling ``trade_empty_pool = "refused"``); with ``"from_players"`` a colour
    the pool lacks counts if another seat holds more of it (at least one card).
    None for a seat restricted play bars from trading (``t.seat_bar``)."""
    total = 0
    if t.seat_bar[p, BAR_TRADE] == 1:
        return 0
    mask &= shown_mask(s, t)
    for x in range(t.n_inv):
        if (mask >> x) & 1 and s.hand[p, x] > 0:
            c = t.inv_colour[x]
            k = min(s.hand[p, x], s.pool[c])
            if k == 0 and t.trade_from_players == 1 and obtainable(s, t, p, c):
                k = 1
            total += k
    return total


@njit
def do_trade(s, t, p, mask):
    """Discard the hand cards of the inventions in ``mask`` that someone displays,
    one resource of the card's colour each: from the pool as far as it has them;
    then, with ruling ``trade_empty_pool = "from_players"``, as when taking
    resources (:func:`take_one`) while that gives one. Returns cards traded."""
    total = 0
    mask &= shown_mask(s, t)
    for x in range(t.n_inv):
        if (mask >> x) & 1 and s.hand[p, x] > 0:
            c = t.inv_colour[x]
            k = min(s.hand[p, x], s.pool[c])
            if k > 0:
                s.hand[p, x] -= k
                s.pool[c] -= k
                s.supply[p, c] += k
                for _ in range(k):
                    discard_card(s, x)
            if t.trade_from_players == 1:
                trace(s, EV_TRADE_POOL, p, x, k, 0)
                while s.hand[p, x] > 0 and obtainable(s, t, p, c):
                    take_one(s, t, p, c, 0)
                    s.hand[p, x] -= 1
                    discard_card(s, x)
                    k += 1
            if k > 0:
                total += k
                trace(s, EV_TRADE, p, x, k, 0)
    s.stat[p, ST_TRADED] += total
    return total


# --------------------------------------------------------------------------- settlements


@njit
def use_half_price(s, t, p):
    """Seat ``p`` placed a stone at half price: the right is used up (ruling
    ``half_price_card = "discarded"``), or one Marduk/Nannar card lying before
    it goes to the discard pile (``"kept"``: each card is one half-price stone)."""
    if t.card_kept == 0:
        s.half_price[p] = 0
        return
    s.half_price[p] -= 1
    for g in range(t.n_gods):
        e = t.god_effect[g]
        if s.reminders[p, g] > 0 and (e == _MARDUK or e == _NANNAR):
            s.reminders[p, g] -= 1
            s.sc[S_GODS_HELD] -= 1
            discard_card(s, t.n_inv + g)
            trace(s, EV_REMINDER_USED, p, t.n_inv + g, 0, 0)
            return


@njit
def settle_plan(s, t, p, slot, pay):
    """Cost of a stone on ``slot`` and, with ``pay``, paying it. Returns the
    epoch card (0..3) the stone comes from, -1 if it cannot be placed, or -2 if
    it cannot be paid. Half price (Marduk, Nannar) halves every colour's amount,
    rounded up (ruling ``half_price_rounding = "per_colour"``) or the whole cost,
    rounded up, the larger shares on the colours held most (``"total"``), and
    excludes other discounts; else the best settlement_discount saves resources
    of the colour needed least. For "different" costs the seat chooses the
    colours (:func:`analyzer.uruk.choices.settle_colours`; it can pay if it
    can with the colours it holds most of); of those, the colours held most
    pay first and the discount lands on the last."""
    x = s.inv[p, slot]
    if x < 0 or s.stones[p, slot] >= 2:
        return -1
    city = s.stones[p, slot] == 1
    e = stone_epoch(s, t, city)
    if e < 0:
        return -1
    half = s.half_price[p] >= 1
    saved = 0
    who = -1
    if not half:
        saved, who = settle_discount(s, t, p)
    if t.epoch_cost[e] == _LEVEL:
        c = t.inv_colour[x]
        need = t.inv_level[x]
        need = (need + 1) // 2 if half else max(0, need - saved)
        if s.supply[p, c] < need:
            return -2
        if pay:
            s.supply[p, c] -= need
            s.pool[c] += need
            if need > 0:
                trace(s, EV_OPTIONS, p, 1 << c, 0, 0)  # the invention's colour only
                trace(s, EV_PAY, p, c, need, 0)
    else:
        per = t.epoch_per_colour[e]
        k = t.epoch_colours[e]
        total = -1  # half of the whole cost, ruling half_price_rounding = "total"
        if half and t.half_of_total == 1:
            total = (per * k + 1) // 2
        elif half:
            per = (per + 1) // 2
        # the k colours held most, in order; the discount lands on the last (least)
        used = 0
        for j in range(k):
            best = -1
            most = -1
            for c in range(t.n_colours):
                if (used >> c) & 1 == 0 and s.supply[p, c] > most:
                    most = s.supply[p, c]
                    best = c
            need = per
            if j == k - 1:
                need = max(0, per - saved)
            if total >= 0:
                need = total // k + (1 if j < total % k else 0)
            if most < need:
                return -2
            used |= 1 << best
        if pay:
            used = settle_colours(s, t, p, used, per, k, saved, total)  # its choice
            left = k
            paid = 0  # the colours paid so far (for the trace's options)
            for _ in range(k):
                best = -1
                most = -1
                for c in range(t.n_colours):
                    if (used >> c) & 1 == 1 and s.supply[p, c] > most:
                        most = s.supply[p, c]
                        best = c
                need = per if left > 1 else max(0, per - saved)
                if total >= 0:
                    j = k - left
                    need = total // k + (1 if j < total % k else 0)
                left -= 1
                used &= ~(1 << best)
                if need > 0 and s.trace.shape[0] > 0:
                    # the options: each colour not paid yet that covers this amount
                    opts = 0
                    for c in range(t.n_colours):
                        if (paid >> c) & 1 == 0 and s.supply[p, c] >= need:
                            opts |= 1 << c
                    trace(s, EV_OPTIONS, p, opts, 0, 0)
                    paid |= 1 << best
                s.supply[p, best] -= need
                s.pool[best] += need
                if need > 0:
                    trace(s, EV_PAY, p, best, need, 0)
    if pay:
        if half:
            use_half_price(s, t, p)
        elif who >= 0 and saved > 0:
            s.fn_used[who] = 1
    return e


@njit
def can_settle(s, t, p, slot):
    return 0 <= slot < t.max_inventions and settle_plan(s, t, p, slot, False) >= 0


@njit
def do_settle(s, t, p, slot):
    """Place a stone on ``slot`` (``can_settle`` holds): pay, take it from the
    lowest epoch card that has one; a village, or a city on a village."""
    if s.trace.shape[0] == 0:
        e = settle_plan(s, t, p, slot, True)
    else:
        half = s.half_price[p]
        saved, who = settle_discount(s, t, p)
        e = settle_plan(s, t, p, slot, True)
        if half >= 1:
            trace(s, EV_SETTLE_COST, p, -1, 0, 1)
        elif who >= 0 and s.fn_used[who] == 1:
            trace(s, EV_SETTLE_COST, p, who, saved, 0)
    s.epoch[e] -= 1
    s.stones[p, slot] += 1
    if s.stones[p, slot] == 1:
        s.stat[p, ST_VILLAGES] += 1
    else:
        s.stat[p, ST_CITIES] += 1
    trace(s, EV_SETTLE, p, s.inv[p, slot], e, s.stones[p, slot])
    stones_changed(s)
    return e


# --------------------------------------------------------------------------- card actions


@njit
def can_card_action(s, t, p, slot):
    if not 0 <= slot < t.max_inventions:
        return False
    x = s.inv[p, slot]
    return x >= 0 and t.inv_effect[x] == _CARD_ACTION and s.fn_used[x] == 0


@njit
def do_card_action(s, t, p, slot, colour):
    """Use the action printed on the invention in ``slot``: draw ``amount``
    cards, or take ``amount`` resources of ``colour`` (of the colour the pool
    holds most of when it has none of ``colour``)."""
    x = s.inv[p, slot]
    s.fn_used[x] = 1
    s.stat[p, ST_CARD_ACTIONS] += 1
    trace(s, EV_CARD_ACTION, p, x, t.inv_amount[x], 0)
    for _ in range(t.inv_amount[x]):
        if t.inv_kind_param[x] == _DRAW:
            draw_to_hand(s, t, p)
        else:
            c = colour if colour >= 0 and s.pool[colour] > 0 else richest_pool_colour(s, t, -1)
            if c >= 0:
                # each resource of a take-any action is the seat's choice of colour
                trace(s, EV_OPTIONS, p, pool_colours(s, t, -1), 0, 0)
                gain(s, t, p, c)
                trace(s, EV_TAKE_RES, p, c, -1, 2)
