"""The seats' choices inside actions and disasters, and the estimates they share
with the players (kernels).

Implements "Players" of ``docs/games/uruk.md`` (the table "Choices inside
actions"): the colour a robbed seat takes from the pool instead, the colours a
spared seat pays, the colour pairs that make up a make's missing cards, the
colours of a "different colours" settlement cost. The kernels of
:mod:`analyzer.uruk.actions` and :mod:`analyzer.uruk.gods` ask these; the
players' estimates (:func:`card_use`, :func:`resource_value`, ...) live here so
that :mod:`analyzer.uruk.strategies` can build on the actions without an import
circle. ``baseline`` keeps strategies version 1's fixed rules (it plays the
games it always played); ``random`` is uniform among the legal options; the
others weigh colours and cards by their own evaluation.
"""

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_below
from analyzer.uruk.codes import EpochCost
from analyzer.uruk.position import max_level, settle_discount, slot_of, stone_epoch
from analyzer.uruk.scoring import invention_points
from analyzer.uruk.state import MAX_PARAMS, S_FINAL

#: column of a seat's row (``s.prm``) holding its strategy code (the index in
#: ``analyzer.uruk.strategies.STRATEGY_NAMES``): the last of the state's room
P_STRATEGY = MAX_PARAMS - 1
#: the ``uniform`` parameter: 1 makes the seat the ``random`` player
P_UNIFORM = 0
#: ``baseline``'s strategy code (``strategies.BASELINE``)
BASELINE = 4

_LEVEL = EpochCost.LEVEL.value


@njit
def _is_baseline(s, p):
    """Does seat ``p`` play ``baseline`` (strategies version 1's rules, frozen)?"""
    return s.prm[p, P_STRATEGY] == BASELINE


@njit
def last_turn(s, p):
    """Is this seat ``p``'s last turn (the last round), as a version-2 player
    knows it? (``baseline`` plays as if the game went on.)"""
    return s.sc[S_FINAL] == 1 and not _is_baseline(s, p)


@njit
def card_use(s, t, p, x):
    """How useful hand card ``x`` is to seat ``p`` (about 0.1 .. 1.3)."""
    if t.inv_forbidden[p, x] == 1 or slot_of(s, t, p, x) >= 0:
        return 0.1
    u = 0.2
    if t.inv_level[x] <= max_level(s, t, p) + 1:
        u = 0.3 + 0.2 * t.inv_level[x]
    if s.hand[p, x] > 0:
        u += 0.3
    return u


@njit
def colour_need(s, t, p, c):
    """1.0 if seat ``p`` lacks resources of colour ``c`` for its next village
    (epoch costs by level) or city (costs in different colours), else 0.0."""
    e = stone_epoch(s, t, False)
    if e >= 0 and t.epoch_cost[e] == _LEVEL:
        for i in range(t.max_inventions):
            x = s.inv[p, i]
            if x >= 0 and s.stones[p, i] == 0 and t.inv_colour[x] == c:
                if s.supply[p, c] < t.inv_level[x]:
                    return 1.0
    e = stone_epoch(s, t, True)
    if e >= 0 and t.epoch_cost[e] != _LEVEL and s.supply[p, c] < t.epoch_per_colour[e]:
        enough = 0
        for d in range(t.n_colours):
            if s.supply[p, d] >= t.epoch_per_colour[e]:
                enough += 1
        if enough < t.epoch_colours[e]:
            return 1.0
    return 0.0


@njit
def buy_rate(s, t, p, c):
    """Points per resource of the best settlement seat ``p`` could next place
    that still lacks colour ``c`` (a village at epoch I's cost in its
    invention's colour; a village or city at a "different colours" cost when
    ``c`` is one of the colours it is short of); 0 if ``c`` buys none."""
    best = 0.0
    for city in (False, True):
        e = stone_epoch(s, t, city)
        if e < 0:
            continue
        level_cost = t.epoch_cost[e] == _LEVEL
        if not level_cost:
            if s.supply[p, c] >= t.epoch_per_colour[e]:
                continue
            enough = 0
            for d in range(t.n_colours):
                if s.supply[p, d] >= t.epoch_per_colour[e]:
                    enough += 1
            if enough >= t.epoch_colours[e]:
                continue
        for i in range(t.max_inventions):
            x = s.inv[p, i]
            if x < 0 or s.stones[p, i] != (1 if city else 0):
                continue
            k = settle_cost(s, t, p, i)
            if level_cost and (t.inv_colour[x] != c or s.supply[p, c] >= k):
                continue
            st = s.stones[p, i]
            d = invention_points(t, x, st + 1) - invention_points(t, x, st)
            r = d / max(k, 1)
            if r > best:
                best = r
    return best


@njit
def resource_value(s, t, p, c):
    """Value of one more resource of colour ``c`` to seat ``p``, per ``w_resource``.
    Version 2 (every strategy but ``baseline``): by what it will buy, four times
    the points per resource of the best settlement it still lacks it for (at
    least 1, its worth kept to the end), less for a colour held beyond what a
    settlement costs. ``baseline`` (version 1): what it lacks counts most, a
    colour it already holds much of least."""
    if _is_baseline(s, p):
        return (0.3 + colour_need(s, t, p, c)) / (1.0 + 0.15 * s.supply[p, c])
    r = buy_rate(s, t, p, c)
    if r > 0:
        return max(1.0, 4.0 * r)
    return 1.0 / (1.0 + 0.15 * max(s.supply[p, c] - 3, 0))


@njit
def end_resource_points(s, t, p, delta):
    """Points seat ``p``'s resources gain at the end from ``delta`` more (negative: fewer)."""
    have = s.supply[p].sum()
    k = t.resources_per_point
    return (have + delta) // k - have // k


@njit
def settle_cost(s, t, p, slot):
    """Resources the next stone on ``slot`` costs seat ``p`` (an estimate: half
    price taken as half the whole cost, whichever ``half_price_rounding``)."""
    e = stone_epoch(s, t, s.stones[p, slot] == 1)
    if t.epoch_cost[e] == _LEVEL:
        k = t.inv_level[s.inv[p, slot]]
    else:
        k = t.epoch_per_colour[e] * t.epoch_colours[e]
    if s.half_price[p] >= 1:
        k = (k + 1) // 2
    else:
        k -= settle_discount(s, t, p)[0]
    return max(k, 0)


@njit
def keep_value(s, t, p, c):
    """What seat ``p`` loses by giving up one resource of colour ``c`` (the
    value of its last one, per ``w_resource``; see :func:`resource_value`)."""
    return (0.3 + colour_need(s, t, p, c)) / (1.0 + 0.15 * max(s.supply[p, c] - 1, 0))


@njit
def rob_colour(s, t, p, c):
    """The colour seat ``p``, just robbed of colour ``c``, takes from the pool
    instead (never ``c``), or -1 if the pool holds no other colour.
    ``baseline``: the colour the pool holds most of (lowest index on ties)."""
    k = 0
    for d in range(t.n_colours):
        if d != c and s.pool[d] > 0:
            k += 1
    if k == 0:
        return -1
    if _is_baseline(s, p):
        best = -1
        most = 0
        for d in range(t.n_colours):
            if d != c and s.pool[d] > most:
                most = s.pool[d]
                best = d
        return best
    if s.prm[p, P_UNIFORM] > 0:
        j = rng_below(s.rng, k)
        for d in range(t.n_colours):
            if d != c and s.pool[d] > 0:
                if j == 0:
                    return d
                j -= 1
    best = -1
    top = -1.0
    for d in range(t.n_colours):
        if d != c and s.pool[d] > 0:
            v = resource_value(s, t, p, d) + 0.001 * s.pool[d]
            if v > top:
                top = v
                best = d
    return best


@njit
def pay_colour(s, t, p):
    """The colour of the next resource seat ``p`` pays (a disaster it is spared
    by its bid), among those it holds (-1 if none). ``baseline``: the colour it
    holds most of (lowest index on ties)."""
    k = 0
    for c in range(t.n_colours):
        if s.supply[p, c] > 0:
            k += 1
    if k == 0:
        return -1
    if _is_baseline(s, p):
        best = 0
        for c in range(1, t.n_colours):
            if s.supply[p, c] > s.supply[p, best]:
                best = c
        return best
    if s.prm[p, P_UNIFORM] > 0:
        j = rng_below(s.rng, k)
        for c in range(t.n_colours):
            if s.supply[p, c] > 0:
                if j == 0:
                    return c
                j -= 1
    best = -1
    low = 1e9
    for c in range(t.n_colours):
        if s.supply[p, c] > 0:
            v = keep_value(s, t, p, c)
            if v < low:
                low = v
                best = c
    return best


@njit
def _colour_cards(s, t, p, c):
    k = 0
    for y in range(t.n_inv):
        if t.inv_colour[y] == c:
            k += s.hand[p, y]
    return k


@njit
def pair_colour(s, t, p):
    """The colour of the next pair of hand cards seat ``p`` discards to make up
    a missing card (any colour with two cards keeps the make possible).
    ``baseline``: the colour with the most cards (lowest index on ties). Else
    the pair whose two cards are least useful (:func:`card_use`)."""
    uniform = s.prm[p, P_UNIFORM] > 0
    base = _is_baseline(s, p)
    best = -1
    most = 1
    low = 1e9
    k = 0
    for c in range(t.n_colours):
        n = _colour_cards(s, t, p, c)
        if n < 2:
            continue
        k += 1
        if base:
            if n > most:
                most = n
                best = c
        elif not uniform:
            # the two least useful cards of the colour
            a = 1e9
            b = 1e9
            for y in range(t.n_inv):
                if t.inv_colour[y] == c and s.hand[p, y] > 0:
                    u = card_use(s, t, p, y)
                    if s.hand[p, y] >= 2 and u < a:
                        a, b = u, u
                    elif u < a:
                        a, b = u, a
                    elif u < b:
                        b = u
            if a + b < low:
                low = a + b
                best = c
    if uniform and k > 0:
        j = rng_below(s.rng, k)
        for c in range(t.n_colours):
            if _colour_cards(s, t, p, c) >= 2:
                if j == 0:
                    return c
                j -= 1
    return best


@njit
def pair_card(s, t, p, c):
    """One hand card of colour ``c`` seat ``p`` discards in a colour pair.
    ``baseline``: the lowest level (lowest invention index on ties); ``random``:
    uniform among the colour's cards; else the least useful."""
    if _is_baseline(s, p):
        for lvl in range(1, 5):
            for y in range(t.n_inv):
                if t.inv_colour[y] == c and t.inv_level[y] == lvl and s.hand[p, y] > 0:
                    return y
        return -1
    if s.prm[p, P_UNIFORM] > 0:
        j = rng_below(s.rng, _colour_cards(s, t, p, c))
        for y in range(t.n_inv):
            if t.inv_colour[y] == c:
                if j < s.hand[p, y]:
                    return y
                j -= s.hand[p, y]
        return -1
    best = -1
    low = 1e9
    for y in range(t.n_inv):
        if t.inv_colour[y] == c and s.hand[p, y] > 0:
            u = card_use(s, t, p, y) - 0.01 * t.inv_level[y]
            if u < low:
                low = u
                best = y
    return best


@njit
def cost_shares(s, t, p, used, per, k, saved, total):
    """Fill ``s.tally[c]`` (scratch) with what each colour of bit set ``used`` pays of a
    "different colours" cost (the colours held most pay first: ``per`` each,
    the last ``per - saved``; with ``total >= 0`` the whole halved cost, larger
    shares first). Returns False if seat ``p`` cannot pay it so."""
    need = s.tally
    need[:] = 0
    left = k
    mask = used
    for j in range(k):
        best = -1
        most = -1
        for c in range(t.n_colours):
            if (mask >> c) & 1 == 1 and s.supply[p, c] > most:
                most = s.supply[p, c]
                best = c
        if best < 0:
            return False
        n = per if left > 1 else max(0, per - saved)
        if total >= 0:
            n = total // k + (1 if j < total % k else 0)
        left -= 1
        mask &= ~(1 << best)
        need[best] = n
        if s.supply[p, best] < n:
            return False
    return True


@njit
def settle_colours(s, t, p, used, per, k, saved, total):
    """The ``k`` colours seat ``p`` pays a "different colours" settlement cost
    with (a bit set; ``used`` is the colours it holds most of, always payable).
    ``baseline``: ``used``. ``random``: uniform among the payable sets; else the
    set that costs it least (:func:`keep_value` of each resource paid)."""
    if _is_baseline(s, p):
        return used
    need = s.tally  # what each colour pays, written by cost_shares
    uniform = s.prm[p, P_UNIFORM] > 0
    n_ok = 0
    best = used
    low = 1e18
    for m in range(1 << t.n_colours):
        bits = 0
        for c in range(t.n_colours):
            bits += (m >> c) & 1
        if bits != k or not cost_shares(s, t, p, m, per, k, saved, total):
            continue
        n_ok += 1
        if uniform:
            continue
        cost = 0.0
        for c in range(t.n_colours):
            base = 0.3 + colour_need(s, t, p, c)
            for j in range(need[c]):
                cost += base / (1.0 + 0.15 * max(s.supply[p, c] - 1 - j, 0))
        if cost < low - 1e-12:
            low = cost
            best = m
    if uniform and n_ok > 0:
        j = rng_below(s.rng, n_ok)
        for m in range(1 << t.n_colours):
            bits = 0
            for c in range(t.n_colours):
                bits += (m >> c) & 1
            if bits == k and cost_shares(s, t, p, m, per, k, saved, total):
                if j == 0:
                    return m
                j -= 1
    return best
