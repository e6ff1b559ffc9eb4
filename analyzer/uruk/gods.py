"""Gods and disasters (kernels): activation, the open auction, the fewest-stones
bonus, Ischtar, and the secret simultaneous bids against disasters.

Implements "Gods and disasters" of ``docs/games/uruk.md``. The seats' choices
come from :mod:`analyzer.uruk.strategies` (the random player's draw random
numbers; nothing else here does, except drawing cards, which may reshuffle).
"""

from analyzer.kernels.jit import njit
from analyzer.uruk.actions import (
    draw_to_hand,
    free_slot,
    gain,
    held_before,
    level_ok,
    place_free,
    pool_colours,
)
from analyzer.uruk.cards import discard_card, stones_changed, trace
from analyzer.uruk.choices import pay_colour
from analyzer.uruk.codes import BAR_GODS, GodEffect, GodKind
from analyzer.uruk.position import slot_of
from analyzer.uruk.scoring import stones_of
from analyzer.uruk.state import (
    EV_ACTIVATE,
    EV_BID,
    EV_BID_CARDS,
    EV_BONUS,
    EV_DISCARD,
    EV_GAIN,
    EV_HAND_LIMIT,
    EV_OPTIONS,
    EV_PAY,
    EV_SECRET_BID,
    EV_SPARED,
    EV_STONE_OUT,
    EV_SUFFER,
    EV_WIN,
    S_ACTIVATING,
    S_ACTIVATIONS,
    S_DISCARD_N,
    S_GODS_HELD,
    S_N,
    S_PENDING,
    S_POOL_STONES,
    S_TRIGGER,
    S_TRIGGER_SEAT,
    ST_AUCTIONS_WON,
    ST_BONUS,
    ST_SPARED,
    ST_SUFFERED,
)
from analyzer.uruk.strategies import (
    bid_bonus,
    choose_colour,
    discard_choice,
    drought_choice,
    earthquake_choice,
    enlil_choice,
    raise_bid,
    secret_bid,
    take_card_or_resource,
)

_AUCTION = GodKind.AUCTION.value
_FEWEST = GodKind.FEWEST.value
_EVERYONE = GodKind.EVERYONE.value
_PLACE = GodEffect.PLACE_INVENTION.value
_RESOURCES = GodEffect.RESOURCES.value
_CITY_POINTS = GodEffect.CITY_POINTS.value
_GIBIL = GodEffect.GIBIL.value
_MARDUK = GodEffect.MARDUK.value
_NANNAR = GodEffect.NANNAR.value
_DROUGHT = GodEffect.DROUGHT.value
_EARTHQUAKE = GodEffect.EARTHQUAKE.value


@njit
def take_colour(s, t, p, c, amount):
    """Seat ``p`` takes up to ``amount`` resources of colour ``c`` from the pool
    (its choice among the colours the pool holds; -1: none)."""
    options = pool_colours(s, t, -1)
    got = 0
    for _ in range(amount):
        if c >= 0 and gain(s, t, p, c):
            got += 1
    trace(s, EV_OPTIONS, p, options, 0, 0)
    trace(s, EV_GAIN, p, c, got, 0)
    return got


@njit
def trace_discards(s, t, p, k, why):
    """Trace the ``k`` hand cards seat ``p`` just discarded (the top of the
    discard pile), ``why`` 0 for the hand limit, 1 for an earthquake."""
    if s.trace.shape[0] == 0:
        return
    n = s.sc[S_DISCARD_N]
    for j in range(n - k, n):
        trace(s, EV_OPTIONS, p, held_before(s, t, p, j, 1), 0, 0)  # the hand then
        trace(s, EV_DISCARD, p, s.discard[j], why, 0)


@njit
def remove_epoch_stone(s, t):
    """Activation step 1: a stone from the lowest epoch card that has one, into the pool."""
    for e in range(4):
        if s.epoch[e] > 0:
            s.epoch[e] -= 1
            s.sc[S_POOL_STONES] += 1
            trace(s, EV_STONE_OUT, -1, e, 0, 0)
            stones_changed(s)
            return e
    return -1


@njit
def hand_limit(s, t, p):
    """Activation step 2: seat ``p`` discards down to ``hand_limit`` cards, its choice."""
    k = 0
    while s.hand[p].sum() > t.hand_limit:
        x = discard_choice(s, t, p)
        s.hand[p, x] -= 1
        discard_card(s, x)
        k += 1
    if k > 0:
        trace(s, EV_HAND_LIMIT, p, k, 0, 0)
        trace_discards(s, t, p, k, 0)


@njit
def auction(s, t, g, first):
    """The open auction of god ``g`` from seat ``first`` clockwise, in rounds:
    each seat beats the standing bid with more hand cards or passes for good.
    Returns ``(winner, bid)``, ``(-1, -1)`` if no one bid. The winner's bid cards
    are discarded, the others' go back to their hands."""
    n = s.sc[S_N]
    for p in range(n):
        s.work[p] = 0  # bid value so far; -1 passed
    standing = 0
    leader = -1
    while True:
        moved = False
        for k in range(n):
            p = (first + k) % n
            if s.work[p] < 0 or p == leader:
                continue
            values = bid_values(s, t, p, standing) if s.trace.shape[0] > 0 else 0
            # a seat restricted play bars from god auctions passes at once
            v = -1 if t.seat_bar[p, BAR_GODS] == 1 else raise_bid(s, t, p, g, standing, s.work[p])
            trace(s, EV_OPTIONS, p, values, 0, 0)
            if v < 0:
                s.work[p] = -1
                trace(s, EV_BID, p, -1, 0, 0)
            else:
                s.work[p] = v
                standing = v
                leader = p
                moved = True
                trace(s, EV_BID, p, v, 0, 0)
                if s.trace.shape[0] > 0:
                    held = 0  # the cards it could bid: in hand or in its bid
                    for x in range(t.n_inv):
                        if s.hand[p, x] + s.bid[p, x] > 0:
                            held |= 1 << x
                    for x in range(t.n_inv):
                        if s.bid[p, x] > 0:
                            trace(s, EV_OPTIONS, p, held, 0, 0)
                            trace(s, EV_BID_CARDS, p, x, s.bid[p, x], 0)
        if not moved:
            break
    for p in range(n):
        for x in range(t.n_inv):
            k = s.bid[p, x]
            if k > 0:
                s.bid[p, x] = 0
                if p == leader:
                    for _ in range(k):
                        discard_card(s, x)
                else:
                    s.hand[p, x] += k
    return leader, standing if leader >= 0 else -1


@njit
def bid_values(s, t, p, standing):
    """For the trace: bit mask of the bid values seat ``p`` could raise to now (bit
    ``v``): its bid so far (the bid bonus alone before its first bid) plus the levels
    of any hand cards added (at least one unless ruling ``empty_bid = "allowed"``),
    above ``standing``. Passing is always an option besides these."""
    own = s.work[p] if s.work[p] > 0 else bid_bonus(s, t, p)
    sums = 1  # bit k: k reachable as the sum of the levels of some hand cards
    for x in range(t.n_inv):
        for _ in range(s.hand[p, x]):
            sums |= sums << t.inv_level[x]
    mask = 0
    for k in range(64 - own):
        if (sums >> k) & 1 and (k > 0 or t.empty_bid == 1) and own + k > standing:
            mask |= 1 << (own + k)
    return mask


@njit
def pay_resources(s, t, p, k):
    """Seat ``p`` pays ``k`` resources into the pool, the colours its choice
    (:func:`analyzer.uruk.choices.pay_colour`)."""
    for _ in range(k):
        best = pay_colour(s, t, p)
        s.supply[p, best] -= 1
        s.pool[best] += 1


@njit
def secret_bids(s, t, g):
    """Every seat's secret bid against disaster ``g`` into ``s.work`` (resources);
    each is chosen before any is revealed. Returns the highest value (bid plus
    bid bonus) and how many seats reached it."""
    n = s.sc[S_N]
    for p in range(n):
        s.work[p] = secret_bid(s, t, p, g)
    best = -1
    count = 0
    for p in range(n):
        v = s.work[p] + bid_bonus(s, t, p)
        trace(s, EV_OPTIONS, p, s.supply[p].sum(), 0, 0)  # it may bid 0 .. all it holds
        trace(s, EV_SECRET_BID, p, s.work[p], v, 0)
        if v > best:
            best = v
            count = 1
        elif v == best:
            count += 1
    return best, count


@njit
def suffer(s, t, p, g):
    """Seat ``p`` suffers disaster ``g``."""
    e = t.god_effect[g]
    code = t.n_inv + g
    s.stat[p, ST_SUFFERED] += 1
    if e == _DROUGHT:
        i = drought_choice(s, t, p)
        if i >= 0:
            trace(s, EV_OPTIONS, p, settled(s, t, p, True), 0, 0)
            s.stones[p, i] -= 1
            s.sc[S_POOL_STONES] += 1
            # the loss before what it causes (the stone back on card IV), as elsewhere
            trace(s, EV_SUFFER, p, code, s.inv[p, i], 0)
            stones_changed(s)
    elif e == _EARTHQUAKE:
        i = earthquake_choice(s, t, p)
        if i >= 0:
            trace(s, EV_OPTIONS, p, settled(s, t, p, False), 0, 0)
            x = s.inv[p, i]
            s.inv[p, i] = -1
            discard_card(s, x)
            trace(s, EV_SUFFER, p, code, x, 0)
        else:
            k = 0
            while k < t.god_amount[g] and s.hand[p].sum() > 0:
                x = discard_choice(s, t, p)
                s.hand[p, x] -= 1
                discard_card(s, x)
                k += 1
            trace(s, EV_SUFFER, p, code, -1, k)
            trace_discards(s, t, p, k, 1)
    else:  # eruption
        s.actions_next[p] = t.god_amount[g]
        trace(s, EV_SUFFER, p, code, -1, t.god_amount[g])


@njit
def settled(s, t, p, with_stones):
    """Bit mask of seat ``p``'s displayed inventions with a settlement (``with_stones``)
    or without one: what a drought or an earthquake may take."""
    mask = 0
    for i in range(t.max_inventions):
        x = s.inv[p, i]
        if x >= 0 and (s.stones[p, i] > 0) == with_stones:
            mask |= 1 << x
    return mask


@njit
def free_options(s, t, p):
    """``(inventions, displayed, free)`` Enlil's winner chooses among: bit masks of
    the hand inventions it may display (not forbidden, not displayed, the level
    rule) and of its displayed inventions (it may replace one), and 1 if it has a
    free place."""
    xs = 0
    for x in range(t.n_inv):
        if s.hand[p, x] > 0 and t.inv_forbidden[p, x] == 0 and slot_of(s, t, p, x) < 0:
            if level_ok(s, t, p, x):
                xs |= 1 << x
    shown = 0
    for i in range(t.max_inventions):
        if s.inv[p, i] >= 0:
            shown |= 1 << s.inv[p, i]
    return xs, shown, 1 if free_slot(s, t, p) >= 0 else 0


@njit
def fewest(s, t):
    """The seat with the fewest settlement stones, or -1 if several tie for fewest."""
    n = s.sc[S_N]
    low = 1 << 30
    who = -1
    for p in range(n):
        k = stones_of(s, t, p)
        if k < low:
            low = k
            who = p
        elif k == low:
            who = -1
    return who


@njit
def resolve(s, t, g, first):
    """The effect of god or disaster card ``g`` (steps 1 and 2 done), from ``first``.
    Returns 1 if the card stays before a player (Ninurta; Marduk/Nannar with
    ruling ``half_price_card = "kept"``), else 0."""
    n = s.sc[S_N]
    kind = t.god_kind[g]
    e = t.god_effect[g]
    code = t.n_inv + g
    if kind == _AUCTION:
        w, value = auction(s, t, g, first)
        trace(s, EV_WIN, w, code, value, 0)
        if w < 0:
            return 0
        s.stat[w, ST_AUCTIONS_WON] += 1
        if e == _PLACE:
            x, r = enlil_choice(s, t, w)
            if x >= 0:
                if s.trace.shape[0] > 0:
                    xs, shown, free = free_options(s, t, w)
                    trace(s, EV_OPTIONS, w, xs, shown, free)
                place_free(s, t, w, x, r)
        elif e == _RESOURCES:
            take_colour(s, t, w, choose_colour(s, t, w), t.god_amount[g])
        elif e == _CITY_POINTS:
            s.city_points[w] += t.god_amount[g]
            return 1
        return 0
    if kind == _FEWEST:
        w = fewest(s, t)
        kept = 0
        for k in range(n):
            p = (first + k) % n
            if p == w:
                s.stat[p, ST_BONUS] += 1
                if e == _GIBIL:
                    c = choose_colour(s, t, p)
                    take_colour(s, t, p, c, t.god_amount[g])
                    trace(s, EV_BONUS, p, code, 1, c)
                elif t.card_kept == 1:
                    # the card lies before the winner: one more half-price stone
                    s.half_price[p] += 1
                    s.reminders[p, g] += 1
                    kept = 1
                    trace(s, EV_BONUS, p, code, 1, -1)
                else:
                    s.half_price[p] = 1
                    trace(s, EV_BONUS, p, code, 1, -1)
            elif e == _NANNAR:
                for _ in range(t.god_amount[g]):
                    x = draw_to_hand(s, t, p)
                    trace(s, EV_BONUS, p, code, 0, x)
            else:
                c = choose_colour(s, t, p)
                take_colour(s, t, p, c, 1)
                trace(s, EV_BONUS, p, code, 0, c)
        return kept
    if kind == _EVERYONE:
        for k in range(n):
            p = (first + k) % n
            if take_card_or_resource(s, t, p) == 1:
                for _ in range(t.god_amount[g]):
                    draw_to_hand(s, t, p)
            else:
                for _ in range(t.god_amount[g]):
                    take_colour(s, t, p, choose_colour(s, t, p), 1)
        return 0
    # disaster: the highest bid(s) are spared and pay; the others suffer; all tied, all suffer
    best, count = secret_bids(s, t, g)
    everyone = count == n
    for k in range(n):
        p = (first + k) % n
        v = s.work[p] + bid_bonus(s, t, p)
        if v == best and not everyone:
            held = s.supply[p].copy()  # to trace what it paid
            pay_resources(s, t, p, s.work[p])
            for c in range(t.n_colours):
                if held[c] > s.supply[p, c]:
                    # the options: the colours it held before this payment
                    opts = 0
                    for d in range(t.n_colours):
                        if (s.supply[p, d] if d < c else held[d]) > 0:
                            opts |= 1 << d
                    trace(s, EV_OPTIONS, p, opts, 0, 0)
                    trace(s, EV_PAY, p, c, held[c] - s.supply[p, c], 0)
            s.stat[p, ST_SPARED] += 1
            trace(s, EV_SPARED, p, code, s.work[p], 0)
        else:
            suffer(s, t, p, g)
    return 0


@njit
def activate(s, t):
    """Activate the card beside the display (a trigger lies before a seat):
    a stone from the lowest epoch card to the pool, every hand down to the
    limit, then the card's effect from the trigger clockwise. Both cards are
    discarded afterwards (Ninurta stays with its winner)."""
    g = s.sc[S_PENDING] - t.n_inv
    first = s.sc[S_TRIGGER_SEAT]
    s.sc[S_ACTIVATING] = 1
    trace(s, EV_ACTIVATE, first, s.sc[S_PENDING], first, 0)
    remove_epoch_stone(s, t)
    n = s.sc[S_N]
    for k in range(n):
        hand_limit(s, t, (first + k) % n)
    kept = resolve(s, t, g, first)
    if kept == 1:
        s.sc[S_GODS_HELD] += 1
    else:
        discard_card(s, s.sc[S_PENDING])
    discard_card(s, s.sc[S_TRIGGER])
    s.sc[S_PENDING] = -1
    s.sc[S_TRIGGER] = -1
    s.sc[S_TRIGGER_SEAT] = -1
    s.sc[S_ACTIVATING] = 0
    s.sc[S_ACTIVATIONS] += 1
