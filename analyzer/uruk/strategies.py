"""Players (kernels): every decision of a seat, driven by its parameter row.

Implements "Players" of ``docs/games/uruk.md``. A strategy is a row of
:data:`PARAM_NAMES` (float64); the shipped rows, by player count, are in
``data/strategies.toml`` (:mod:`analyzer.uruk.defaults`):

- ``uniform``: 1 = choose uniformly among the legal candidates at every decision
  (the ``random`` player; the other parameters are then ignored);
- ``w_points``: value of one point scored now (a settlement, an invention);
- ``w_level``: value of one level of a displayed invention (future settlement points);
- ``w_resource``: value of one resource;
- ``w_card``: value of a hand card that helps make an invention;
- ``auction``: how far the seat bids in a god auction, in bid value per point the
  god is worth to it;
- ``secret``: how much of its supply the seat bids against a disaster, in
  resources per point the disaster would cost it (at most its whole supply).

``baseline`` is ``balanced`` as shipped in strategies version 1, frozen: its row
is :data:`BASELINE_PARAMS` (never the data's, never ``strategy_params``), and
the seat's strategy code sits in its row's last column (:data:`P_STRATEGY`,
written by the game, not a parameter). Today no decision reads the code, so
``baseline`` plays exactly as ``balanced`` with the same row. A change to
``balanced``'s choice rules must leave ``baseline`` out deliberately: a new
parameter column (``baseline``'s is 0 for ever: make 0 today's rule) or a test
of ``prm[P_STRATEGY] == BALANCED``, never an unconditional edit of the shared
code (the frozen pinned runs of ``tests/games/test_pinned.py`` fail if it reaches
``baseline``).

``balanced_v3`` is ``balanced`` as shipped in strategies version 3 (its rows
are kept in the data file under its name): it plays every rule of version 3 and
none added later. Version 4 added :func:`end_seen`: once the end is triggered,
a card is worth taking only if the seat can still make what it completes
(:func:`makes_with`); ``baseline`` and ``balanced_v3`` do not see it.

A decision sees only what the seat may see: its hand, the open table, the
standing bid of an open auction. A secret bid against a disaster is chosen by
:func:`secret_bid` from the seat's own state and the open table before any bid
is revealed (it is never given the others' bids). Decisions of the ``random``
player draw random numbers; the others draw none.
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_below
from analyzer.uruk.actions import (
    can_settle,
    can_take_card,
    free_slot,
    level_ok,
    make_need,
    max_level,
    obtainable,
    shown_mask,
    slot_of,
    tradeable,
)
from analyzer.uruk.choices import (  # noqa: F401 (the choices are re-exported)
    _is_baseline,
    buy_rate,
    card_use,
    colour_need,
    cost_shares,
    end_resource_points,
    keep_value,
    last_turn,
    pair_card,
    pair_colour,
    pay_colour,
    resource_value,
    rob_colour,
    settle_colours,
    settle_cost,
)
from analyzer.uruk.codes import Action, CardAction, Effect, EpochCost, GodEffect
from analyzer.uruk.features import (  # noqa: F401 (can_make_any, makes_with re-exported)
    TRAINED_TEXT,
    can_make_any,
    makes_with,
    trained_values,
)
from analyzer.uruk.scoring import count_settlements, invention_points
from analyzer.uruk.state import MAX_CAND, MAX_PARAMS, S_END, S_FINAL

STRATEGY_NAMES = (
    "random",
    "builder",
    "hoarder",
    "balanced",
    "baseline",
    "search",
    "balanced_v3",
    "trained",
)
#: the strategies before ``baseline``: the ``strategy`` column's categories unless
#: a seat plays it (tables of earlier runs unchanged)
PLAYED_NAMES = STRATEGY_NAMES[:4]
#: strategies that take no ``strategy_params``
FROZEN_STRATEGIES = ("baseline",)
#: strategy codes (STRATEGY_NAMES index), as a seat's row holds them in P_STRATEGY
RANDOM, BUILDER, HOARDER, BALANCED, BASELINE, SEARCH, BALANCED_V3, TRAINED = range(8)
PARAM_NAMES = ("uniform", "w_points", "w_level", "w_resource", "w_card", "auction", "secret")
N_PARAMS = len(PARAM_NAMES)
#: column of a seat's row (``s.prm``) holding its strategy code: the last of the
#: state's room, never a parameter
P_STRATEGY = MAX_PARAMS - 1
#: column of a seat's row holding a secret bid imposed from outside, plus one (0:
#: none): the ``search`` player's bid chosen by rollouts (:mod:`analyzer.uruk.search`)
P_FORCE_BID = MAX_PARAMS - 2
#: column of a seat's row holding an auction limit (bid value) imposed from
#: outside, plus one (0: none): the ``search`` player's limit chosen by rollouts
P_FORCE_LIMIT = MAX_PARAMS - 3
#: ``baseline``'s row: ``balanced``'s as shipped in strategies version 1, frozen.
#: Never tune or edit it: ratings of every version are measured against it (a new
#: yardstick needs a new strategy name).
BASELINE_PARAMS = (0.0, 1.0, 0.4, 0.3, 0.4, 1.0, 0.5)
#: one row per strategy of STRATEGY_NAMES, columns PARAM_NAMES: the hand-set rows
#: of strategies version 1. The rows the game plays are by player count, in
#: ``data/strategies.toml`` (:func:`analyzer.uruk.defaults.default_row`)
DEFAULT_PARAMS = np.array(
    [
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],  # random
        [0.0, 1.0, 0.6, 0.15, 0.5, 0.5, 0.3],  # builder
        [0.0, 0.6, 0.2, 0.5, 0.3, 1.5, 0.8],  # hoarder
        [0.0, 1.0, 0.4, 0.3, 0.4, 1.0, 0.5],  # balanced
        BASELINE_PARAMS,  # baseline: frozen
        [0.0, 1.0, 0.4, 0.3, 0.4, 1.0, 0.5],  # search: balanced's row
        [0.0, 1.0, 0.4, 0.3, 0.4, 1.0, 0.5],  # balanced_v3: balanced's row
        [0.0, 1.0, 0.4, 0.3, 0.4, 1.0, 0.5],  # trained: balanced's row
    ]
)
STRATEGY_TEXT = {
    "random": "uniform among the legal actions and choices at every decision",
    "builder": "inventions and settlements: points now and levels for later weigh most",
    "hoarder": "resources and auctions: values resources highly, bids far for gods and "
    "against disasters",
    "balanced": "weighs points, levels, resources and cards together",
    "baseline": "balanced as shipped in strategies version 1 (its row and choices), frozen: "
    "the yardstick of ratings and tuning",
    "search": "balanced, its actions and secret bids chosen by rollouts of the rest of the "
    "game (determinized Monte Carlo; settings budget, width, margin, z, bids); slow",
    "balanced_v3": "balanced as shipped in strategies version 3 (its rows and rules): it does "
    "not see the end coming and takes cards after the end is triggered that it never makes",
    "trained": TRAINED_TEXT,
}

P_UNIFORM = 0
P_POINTS = 1
P_LEVEL = 2
P_RESOURCE = 3
P_CARD = 4
P_AUCTION = 5
P_SECRET = 6

_TAKE_CARD = Action.TAKE_CARD.value
_MAKE = Action.MAKE.value
_TAKE_RESOURCES = Action.TAKE_RESOURCES.value
_TRADE = Action.TRADE.value
_SETTLE = Action.SETTLE.value
_CARD_ACTION = Action.CARD_ACTION.value
_E_TAKE = Effect.TAKE_RESOURCES.value
_E_ACTION = Effect.CARD_ACTION.value
_E_BID = Effect.BID_BONUS.value
_DRAW = CardAction.DRAW.value
_LEVEL = EpochCost.LEVEL.value
_PLACE = GodEffect.PLACE_INVENTION.value
_RESOURCES = GodEffect.RESOURCES.value
_CITY_POINTS = GodEffect.CITY_POINTS.value
_DROUGHT = GodEffect.DROUGHT.value
_EARTHQUAKE = GodEffect.EARTHQUAKE.value


# --------------------------------------------------------------------------- estimates


@njit
def least_useful(s, t, p):
    """The card of ``p``'s hand least useful to ``p`` (higher level on ties), or -1."""
    hand = s.hand[p]
    best = -1
    low = 1e9
    for x in range(t.n_inv):
        if hand[x] > 0:
            u = card_use(s, t, p, x) - 0.01 * t.inv_level[x]
            if u < low:
                low = u
                best = x
    return best


@njit
def can_get(s, t, p, c):
    """Would taking colour ``c`` give seat ``p`` a resource (pool, or a richer seat)?"""
    return obtainable(s, t, p, c)


@njit
def own_colour(s, t, p, c):
    """Does seat ``p`` display an invention of colour ``c``?"""
    for i in range(t.max_inventions):
        x = s.inv[p, i]
        if x >= 0 and t.inv_colour[x] == c:
            return True
    return False


@njit
def best_colour(s, t, p):
    """The colour seat ``p`` wants most from the pool (need, then what the pool holds most of)."""
    best = -1
    top = -1.0
    for c in range(t.n_colours):
        if s.pool[c] > 0:
            v = resource_value(s, t, p, c) + 0.001 * s.pool[c]
            if v > top:
                top = v
                best = c
    return best


@njit
def bid_bonus(s, t, p):
    """What seat ``p``'s displayed bid_bonus inventions add to its bids (the best one)."""
    best = 0
    for i in range(t.max_inventions):
        x = s.inv[p, i]
        if x >= 0 and t.inv_effect[x] == _E_BID:
            b = t.inv_bid[x, s.stones[p, i]]
            if b > best:
                best = b
    return best


@njit
def replace_gain(t, x, y, st):
    """Points gained by ``x`` replacing ``y``, which carries ``st`` stones: the
    settlement moves onto ``x`` (ruling ``settlement_on_replace = "moves"``) or
    its stones go to the pool and ``x`` stands bare (``"to_pool"``)."""
    if t.stones_to_pool == 1:
        return invention_points(t, x, 0) - invention_points(t, y, st)
    return invention_points(t, x, st) - invention_points(t, y, st)


@njit
def end_seen(s, p):
    """Has the end been triggered with this seat ``p``'s last turn still to come
    (strategies version 4: the seat has this turn and one more)? ``baseline`` and
    ``balanced_v3`` play as if the game went on."""
    code = s.prm[p, P_STRATEGY]
    return s.sc[S_END] == 1 and s.sc[S_FINAL] == 0 and code != BASELINE and code != BALANCED_V3


# --------------------------------------------------------------------------- actions

#: a version-2 seat's value of taking or drawing a card in its last turn (the
#: card scores nothing): below every action that can score, so it is the choice
#: only when nothing else is legal
LAST_CARD = -10.0
#: in the last turn, what a resource is worth beside the points it scores at once
#: (it may still pay for a settlement later in the turn): a small fraction
LAST_STEP = 0.1


@njit
def _add(s, k, kind, a, b, v):
    if k < MAX_CAND:
        s.cand[k, 0] = kind
        s.cand[k, 1] = a
        s.cand[k, 2] = b
        s.cand_val[k] = v
        return k + 1
    return k


@njit
def candidates(s, t, p):
    """Fill ``s.cand``/``s.cand_val`` with seat ``p``'s legal actions and their
    values under parameter row ``prm``; returns how many."""
    prm = s.prm[p]
    wp = prm[P_POINTS]
    wl = prm[P_LEVEL]
    wr = prm[P_RESOURCE]
    wc = prm[P_CARD]
    v2 = not _is_baseline(s, p)  # version 2's evaluation (baseline: version 1's)
    last = last_turn(s, p)  # cards left in hand score nothing: actions go to points
    # version 4: the end is triggered, one more turn to come: a card is worth
    # something only if the seat can still make what it completes
    ending = end_seen(s, p)
    k = 0
    for a in range(t.display_size):
        x = s.display[a]
        if x >= 0:
            v = LAST_CARD if last else wc * card_use(s, t, p, x)
            if ending and not makes_with(s, t, p, x):
                v = LAST_CARD
            k = _add(s, k, _TAKE_CARD, a, 0, v)
    if can_take_card(s, t, 3):
        k = _add(s, k, _TAKE_CARD, 3, 0, LAST_CARD if last or ending else wc * 0.45)
    has_free = free_slot(s, t, p) >= 0
    top = max_level(s, t, p) + 1
    own = 0
    for i in range(t.max_inventions):
        if s.inv[p, i] >= 0:
            own |= 1 << s.inv[p, i]
    # the pairs test of can_make, with the hand counted by colour once
    s.tally[:] = 0
    for y in range(t.n_inv):
        s.tally[t.inv_colour[y]] += s.hand[p, y]
    all_pairs = 0
    for c in range(t.n_colours):
        all_pairs += s.tally[c] // 2
    for x in range(t.n_inv):
        if s.hand[p, x] == 0 or t.inv_forbidden[p, x] == 1 or t.inv_level[x] > top:
            continue
        if (own >> x) & 1 == 1:
            continue
        lx = t.inv_level[x]
        cx = t.inv_colour[x]
        spent = 0.1 * wc * lx
        copies, pairs = make_need(s, t, p, x, -1)
        left = s.tally[cx] - copies
        base = all_pairs - s.tally[cx] // 2 + left // 2
        if has_free and pairs <= base:
            new = 0.0 if own_colour(s, t, p, cx) else wr
            v = wp * t.bare_points + wl * lx + new - spent
            if last:
                v = wp * t.bare_points
            k = _add(s, k, _MAKE, x, -1, v)
        for r in range(t.max_inventions):
            y = s.inv[p, r]
            if y >= 0 and t.inv_level[y] < lx:
                # the replaced card returns to the hand: one more of its colour
                cy = t.inv_colour[y]
                c_r, p_r, left_r, base_r = copies, pairs, left, base
                if t.replaced_no_discount == 1:  # y's own discount is lost
                    c_r, p_r = make_need(s, t, p, x, r)
                    left_r = s.tally[cx] - c_r
                    base_r = all_pairs - s.tally[cx] // 2 + left_r // 2
                k_cy = left_r if cy == cx else s.tally[cy]
                if p_r <= base_r + (k_cy + 1) // 2 - k_cy // 2:
                    st = s.stones[p, r]
                    d = replace_gain(t, x, y, st)
                    v = wp * d + wl * (lx - t.inv_level[y]) - spent
                    if last:
                        v = wp * d
                    k = _add(s, k, _MAKE, x, r, v)
    seen = 0
    for i in range(t.max_inventions):
        x = s.inv[p, i]
        if x < 0:
            continue
        c = t.inv_colour[x]
        n = 1
        if t.inv_effect[x] == _E_TAKE and s.fn_used[x] == 0:
            n += t.inv_amount[x]
        elif (seen >> c) & 1:
            continue
        seen |= 1 << c
        if can_get(s, t, p, c):
            v = wr * n * resource_value(s, t, p, c)
            if last:
                v = wp * end_resource_points(s, t, p, n) + LAST_STEP * v
            k = _add(s, k, _TAKE_RESOURCES, i, 1, v)
    mask = 0
    worth = 0.0
    shown = shown_mask(s, t)
    for x in range(t.n_inv):
        if s.hand[p, x] > 0 and (shown >> x) & 1 == 1:
            u = card_use(s, t, p, x)
            gain = wr * resource_value(s, t, p, t.inv_colour[x]) - wc * u
            if v2 and prm[P_UNIFORM] == 0:
                # version 2: trade every card whose resource is worth more than
                # the card (in the last turn, every card)
                if last or gain > 0:
                    mask |= 1 << x
                    worth += s.hand[p, x] * gain
            elif prm[P_UNIFORM] > 0 or u <= 0.35:
                mask |= 1 << x
                worth += s.hand[p, x] * gain
    if mask != 0:
        got = tradeable(s, t, p, mask)
        if got > 0:  # the ruling trade_empty_pool
            if last:
                worth = wp * end_resource_points(s, t, p, got) + LAST_STEP * worth
            k = _add(s, k, _TRADE, mask, 0, worth)
    for i in range(t.max_inventions):
        x = s.inv[p, i]
        if x >= 0 and can_settle(s, t, p, i):
            st = s.stones[p, i]
            d = invention_points(t, x, st + 1) - invention_points(t, x, st)
            cost = settle_cost(s, t, p, i)
            v = wp * d - 0.5 * wr * cost + 0.2
            if last:
                v = wp * (d + end_resource_points(s, t, p, -cost))
            k = _add(s, k, _SETTLE, i, 0, v)
        if x >= 0 and t.inv_effect[x] == _E_ACTION and s.fn_used[x] == 0:
            c = best_colour(s, t, p)
            if t.inv_kind_param[x] == _DRAW:
                v = LAST_CARD if last or ending else wc * 0.45 * t.inv_amount[x]
            elif last:
                v = wp * end_resource_points(s, t, p, t.inv_amount[x])
            elif v2 and c >= 0:
                v = wr * t.inv_amount[x] * resource_value(s, t, p, c)
            else:
                v = wr * 1.5 * t.inv_amount[x]
            k = _add(s, k, _CARD_ACTION, i, c, v)
    if prm[P_STRATEGY] == TRAINED:
        # the trained player: balanced's candidates, valued by its fitted weights
        # (analyzer.uruk.features)
        trained_values(s, t, p, k)
    return k


@njit
def choose(s, t, p, k):
    """Index of the chosen candidate among ``k`` (-1 if none): uniform for the
    random player (draws a random number), else the highest value (first on ties)."""
    prm = s.prm[p]
    if k == 0:
        return -1
    if prm[P_UNIFORM] > 0:
        return rng_below(s.rng, k)
    best = 0
    for i in range(1, k):
        if s.cand_val[i] > s.cand_val[best]:
            best = i
    return best


# --------------------------------------------------------------------------- gods


@njit
def god_value(s, t, p, g):
    """What winning auction god ``g`` is worth to seat ``p``, in points."""
    prm = s.prm[p]
    e = t.god_effect[g]
    if e == _PLACE:
        best = 0.0
        for x in range(t.n_inv):
            if s.hand[p, x] > 0 and t.inv_forbidden[p, x] == 0 and slot_of(s, t, p, x) < 0:
                if level_ok(s, t, p, x):
                    v = prm[P_POINTS] * t.bare_points + prm[P_LEVEL] * t.inv_level[x]
                    if v > best:
                        best = v
        return best
    if e == _RESOURCES:
        return prm[P_RESOURCE] * 1.5 * t.god_amount[g]
    if e == _CITY_POINTS:
        return prm[P_POINTS] * t.god_amount[g] * (count_settlements(s, t, p, 2) + 1)
    return 0.0


@njit
def raise_bid(s, t, p, g, standing, own):
    """Seat ``p``'s turn in the open auction for god ``g``: add hand cards to its
    bid (``s.bid[p]``, value ``own`` so far) to beat ``standing``; returns the new
    bid value, or -1 to pass. Cards are added least useful first."""
    prm = s.prm[p]
    bonus = bid_bonus(s, t, p)
    if own == 0:
        own = bonus
    if prm[P_FORCE_LIMIT] > 0:  # the search player's limit (never set for the others)
        limit = prm[P_FORCE_LIMIT] - 1.0
    elif prm[P_UNIFORM] > 0:
        limit = own + rng_below(s.rng, 8)
    else:
        limit = prm[P_AUCTION] * 2.5 * god_value(s, t, p, g)
    need = standing - own + 1
    add = 0
    moved = np.empty(128, np.int64)
    k = 0
    cards = 1 - t.empty_bid  # a raise adds a card (ruling empty_bid = "refused")
    while (add < need or k < cards) and k < moved.shape[0]:
        x = least_useful(s, t, p)
        if x < 0:
            break
        s.hand[p, x] -= 1
        s.bid[p, x] += 1
        moved[k] = x
        k += 1
        add += t.inv_level[x]
    if add < need or own + add > limit or k < cards:
        for j in range(k):  # only planned: back to the hand, earlier rounds' cards stay
            s.bid[p, moved[j]] -= 1
            s.hand[p, moved[j]] += 1
        return -1
    return own + add


@njit
def disaster_loss(s, t, p, g):
    """What suffering disaster ``g`` would cost seat ``p``, in points."""
    prm = s.prm[p]
    e = t.god_effect[g]
    if e == _DROUGHT:
        low = -1.0
        for i in range(t.max_inventions):
            x = s.inv[p, i]
            if x >= 0 and s.stones[p, i] > 0:
                st = s.stones[p, i]
                d = invention_points(t, x, st) - invention_points(t, x, st - 1) + 0.5
                if low < 0 or d < low:
                    low = d
        return max(low, 0.0)
    if e == _EARTHQUAKE:
        for i in range(t.max_inventions):
            x = s.inv[p, i]
            if x >= 0 and s.stones[p, i] == 0:
                return 1.0 + prm[P_LEVEL] * t.inv_level[x]
        return 0.4 * min(t.god_amount[g], s.hand[p].sum())
    return 0.75 * max(t.actions_per_turn - t.god_amount[g], 0)


@njit
def secret_bid(s, t, p, g):
    """Seat ``p``'s secret resource bid against disaster ``g``: from its own
    state and the open table only (never the others' bids)."""
    prm = s.prm[p]
    have = s.supply[p].sum()
    if prm[P_FORCE_BID] > 0:  # the search player's bid (never set for the others)
        return min(have, np.int64(prm[P_FORCE_BID]) - 1)
    if prm[P_UNIFORM] > 0:
        return rng_below(s.rng, have + 1)
    return min(have, int(prm[P_SECRET] * 4.0 * disaster_loss(s, t, p, g) + 0.5))


@njit
def take_card_or_resource(s, t, p):
    """Ischtar: 1 to draw a card, 0 to take a resource."""
    prm = s.prm[p]
    if prm[P_UNIFORM] > 0:
        return rng_below(s.rng, 2)
    return 1 if prm[P_CARD] * 0.45 > prm[P_RESOURCE] * 1.2 else 0


@njit
def choose_colour(s, t, p):
    """A colour to take from the pool (random player: uniform among those it has)."""
    prm = s.prm[p]
    if prm[P_UNIFORM] > 0:
        k = 0
        for c in range(t.n_colours):
            if s.pool[c] > 0:
                k += 1
        if k == 0:
            return -1
        j = rng_below(s.rng, k)
        for c in range(t.n_colours):
            if s.pool[c] > 0:
                if j == 0:
                    return c
                j -= 1
    return best_colour(s, t, p)


@njit
def discard_choice(s, t, p):
    """The hand card seat ``p`` discards first (hand limit, earthquake)."""
    prm = s.prm[p]
    if prm[P_UNIFORM] > 0:
        j = rng_below(s.rng, s.hand[p].sum())
        for x in range(t.n_inv):
            if j < s.hand[p, x]:
                return x
            j -= s.hand[p, x]
    return least_useful(s, t, p)


@njit
def drought_choice(s, t, p):
    """The slot whose top stone seat ``p`` gives up (the fewest points lost), or -1."""
    prm = s.prm[p]
    best = -1
    low = 1e9
    for i in range(t.max_inventions):
        x = s.inv[p, i]
        if x >= 0 and s.stones[p, i] > 0:
            st = s.stones[p, i]
            d = invention_points(t, x, st) - invention_points(t, x, st - 1)
            if prm[P_UNIFORM] > 0:
                d = rng_below(s.rng, 100)
            if d < low:
                low = d
                best = i
    return best


@njit
def earthquake_choice(s, t, p):
    """The slot of the invention without a settlement seat ``p`` discards
    (lowest level), or -1 if it has none."""
    prm = s.prm[p]
    best = -1
    low = 99
    for i in range(t.max_inventions):
        x = s.inv[p, i]
        if x >= 0 and s.stones[p, i] == 0:
            lv = t.inv_level[x]
            if prm[P_UNIFORM] > 0:
                lv = rng_below(s.rng, 50)
            if lv < low:
                low = lv
                best = i
    return best


@njit
def enlil_choice(s, t, p):
    """``(invention, slot)`` Enlil lets seat ``p`` display for free: the highest
    level the level rule allows, a free slot or replacing its lowest invention
    below that level (slot -1: free). ``(-1, -1)`` if none."""
    best = -1
    for x in range(t.n_inv):
        if s.hand[p, x] > 0 and t.inv_forbidden[p, x] == 0 and slot_of(s, t, p, x) < 0:
            if level_ok(s, t, p, x) and (best < 0 or t.inv_level[x] > t.inv_level[best]):
                best = x
    if best < 0:
        return -1, -1
    if free_slot(s, t, p) >= 0:
        return best, -1
    low = -1
    for i in range(t.max_inventions):
        y = s.inv[p, i]
        if t.inv_level[y] < t.inv_level[best]:
            if low < 0 or t.inv_level[y] < t.inv_level[s.inv[p, low]]:
                low = i
    if low >= 0 and t.stones_to_pool == 1:
        # the stones of the replaced invention are lost: the best gain instead
        low = -1
        top = 0
        for i in range(t.max_inventions):
            y = s.inv[p, i]
            if t.inv_level[y] < t.inv_level[best]:
                d = replace_gain(t, best, y, s.stones[p, i])
                if low < 0 or d > top:
                    low = i
                    top = d
        if top <= 0:
            return -1, -1
    if low < 0:
        return -1, -1
    return best, low
