"""What a card, a set of cards or a steal is worth to a seat, in points.

Kernels of :mod:`analyzer.colorful_treasure.strategies` (its docstring gives the
values and the strategy weights): the treasure majority's chance
(:func:`majority_value`), the value of taking cards (:func:`take_value`, and by
class :func:`one_value`, :func:`pair_value`, :func:`extra_value`), of each class for
a seat (:func:`seat_values`), and of the best steal (:func:`best_steal`,
:func:`steal_value`).
"""

import math

from analyzer.colorful_treasure.bits import popcount
from analyzer.colorful_treasure.codes import (
    P_DENY,
    P_REWARD,
    P_TREASURE,
    Kind,
    Plan,
)
from analyzer.colorful_treasure.state import (
    F_SV,
    H_CHESTS,
    H_COLOURS,
    H_DIAMOND,
    H_KEYS,
    H_PLASTIC,
    H_TREASURE,
    H_WONDERS,
    S_GRID_CARDS,
    S_N_UP,
    S_SV_TURN,
    S_TURN,
    S_UP_COUNTED,
    S_VALUES_TURN,
)
from analyzer.colorful_treasure.turn import (
    explorer_open,
    gem_open,
    gem_points,
    unspent,
)
from analyzer.kernels.jit import njit

#: weight of a new wonder towards the explorer reward, relative to ``reward``
EXPLORER_STEP = 0.5
NEG = -1.0e18
#: the treasure majority's chance is a logistic of the lead with this scale when no key
#: or chest is left in the grid, and MAJORITY_SPREAD more per key or chest left
MAJORITY_SCALE = 0.5
MAJORITY_SPREAD = 0.15
#: the majority's value is rounded to 1/MAJORITY_GRAIN of a point (a power of 2, so the
#: sums of values stay exact: the tests compare them with fractions)
MAJORITY_GRAIN = 64.0


@njit
def majority_value(s, t, seat, n, k):
    """What ``k`` more key or chest cards are worth to ``seat`` for the treasure reward
    (the majority, shared by ties): its points times the change in the seat's chance
    of the majority at the end, modelled as a logistic of its lead ``d`` over the best
    other seat (``1 / (1 + exp(-d / scale))``), less sure the more keys and chests are
    left in the grid (``scale = MAJORITY_SCALE + MAJORITY_SPREAD * left``); rounded to
    1/:data:`MAJORITY_GRAIN` of a point. 0 for ``baseline``'s plan (strategies version
    1 gave the majority no weight) and in the young-player variant (no rewards)."""
    if k == 0 or t.rewards == 0 or s.plan[seat] == Plan.BASELINE:
        return 0.0
    held = s.held
    rival = 0
    for q in range(n):
        if q != seat and held[q, H_TREASURE] > rival:
            rival = held[q, H_TREASURE]
    d = float(held[seat, H_TREASURE] - rival)
    scale = MAJORITY_SCALE + MAJORITY_SPREAD * popcount(t.treasure_mask & s.sc[S_GRID_CARDS])
    gain = 1.0 / (1.0 + math.exp(-(d + k) / scale)) - 1.0 / (1.0 + math.exp(-d / scale))
    return math.floor(t.treasure_points * gain * MAJORITY_GRAIN + 0.5) / MAJORITY_GRAIN


@njit
def group_value(s, t, seat, n, kk, cnt, new_w):
    """Value for ``seat`` of taking ``cnt`` cards of the gem colour or diamond
    ``kk`` (a ``card_key``), ``new_w`` of them of wonders it holds none of."""
    prm = s.prm
    val = 0.0
    if kk < t.n_colours:
        have = s.gems[seat, kk]
        val = float(gem_points(t, have + cnt) - gem_points(t, have))
        if have == 0 and gem_open(s, t):
            val += prm[seat, P_REWARD]
            if s.held[seat, H_COLOURS] + 1 >= t.gem_goal[n]:
                val += t.gem_reward[n]
    else:
        val = float(cnt * (t.diamond_card + t.plastic_diamond))
    if new_w > 0 and explorer_open(s, t):
        val += EXPLORER_STEP * prm[seat, P_REWARD] * new_w
        if s.held[seat, H_WONDERS] + new_w >= t.explorer_goal:
            val += t.explorer_points
    return val


@njit
def treasure_value(s, t, seat, n, keys, chests, new_w, sv, lazy):
    """Value for ``seat`` of the forced take of ``keys`` key and ``chests`` chest
    cards, ``new_w`` of them of wonders it holds none of: their weight, new
    wonders, and ``sv`` for every pair of markers completed (with ``lazy``, the
    seat's best steal this turn, :func:`steal_value`, worked out only if a pair is)."""
    prm = s.prm
    val = prm[seat, P_TREASURE] * (keys + chests)
    val += majority_value(s, t, seat, n, keys + chests)
    hk = s.held[seat, H_KEYS]
    hc = s.held[seat, H_CHESTS]
    pairs = min(hk + keys, hc + chests) - min(hk, hc)
    if pairs != 0:
        if lazy:
            sv = steal_value(s, t, seat, n)
        val += sv * pairs
    if new_w > 0 and explorer_open(s, t):
        val += EXPLORER_STEP * prm[seat, P_REWARD] * new_w
        if s.held[seat, H_WONDERS] + new_w >= t.explorer_goal:
            val += t.explorer_points
    return val


@njit
def _set_value(s, t, seat, n, m, first):
    """Value for ``seat`` of taking the cards of ``s.hyp[:m]`` of the same kind as
    ``s.hyp[first]`` (a gem colour or diamond)."""
    c0 = s.hyp[first]
    kk = t.card_key[c0]
    cnt = 0
    new_w = 0
    for i in range(first, m):
        c = s.hyp[i]
        if t.card_key[c] != kk:
            continue
        cnt += 1
        w = t.card_wonder[c]
        if s.wcards[seat, w] == 0:
            dup = False
            for j in range(first, i):
                cj = s.hyp[j]
                if t.card_key[cj] == kk and t.card_wonder[cj] == w:
                    dup = True
            if not dup:
                new_w += 1
    return group_value(s, t, seat, n, kk, cnt, new_w)


@njit
def take_value(s, t, seat, n, m, sv):
    """Best value for ``seat`` of the take the rules allow with ``s.hyp[:m]`` face up.

    Keys or chests among them: they are taken (their weight, new wonders, and
    ``sv`` for every pair of markers completed). Otherwise the best kind.
    Returns ``(value, kind)``: kind -2 for the treasure take, else the index
    in ``s.hyp`` of a card of the best kind (-1 if nothing is worth taking).
    """
    keys = 0
    chests = 0
    new_w = 0
    for i in range(m):
        c = s.hyp[i]
        kind = t.card_kind[c]
        if kind == Kind.KEY or kind == Kind.CHEST:
            if kind == Kind.KEY:
                keys += 1
            else:
                chests += 1
            if s.wcards[seat, t.card_wonder[c]] == 0:
                new_w += 1  # one treasure card per wonder: no duplicates
    if keys + chests > 0:
        return treasure_value(s, t, seat, n, keys, chests, new_w, sv, False), -2
    best = NEG
    arg = -1
    for i in range(m):
        seen = False
        ci = s.hyp[i]
        for j in range(i):
            if t.card_key[s.hyp[j]] == t.card_key[ci]:
                seen = True
        if seen:
            continue
        v = _set_value(s, t, seat, n, m, i)
        if v > best:
            best = v
            arg = i
    if t.take_optional == 1 and best <= 0.0:
        return 0.0, -1
    return best, arg


@njit
def steal_value(s, t, seat, n):
    """The value of ``seat``'s best steal (:func:`best_steal`), worked out once a
    turn: nothing a seat holds changes between its reveals."""
    key = s.sc[S_TURN] * 64 + seat
    if s.sc[S_SV_TURN] != key:
        if s.prm[seat, P_DENY] == 0.0 and t.pair_cards == 0:
            s.fsc[F_SV] = _own_best_steal(s, t, seat, n)
        else:
            s.fsc[F_SV], _, _ = best_steal(s, t, seat, n)
        s.sc[S_SV_TURN] = key
    return s.fsc[F_SV]


@njit
def _own_best_steal(s, t, seat, n):
    """The value of :func:`best_steal` when ``deny`` is 0: a steal is then worth its
    own gain whoever the victim, so the best item any other seat holds. The cards
    held by anyone are those out of the grid; plastic diamonds are counted by seat."""
    nc = t.n_colours
    gems = s.gems
    held = s.held
    points = t.gem_points
    top = points.shape[0] - 1
    out = ~s.sc[S_GRID_CARDS]
    best = NEG
    plastic = 0
    for q in range(n):
        plastic += held[q, H_PLASTIC]
    if plastic > held[seat, H_PLASTIC]:
        best = max(best, float(t.plastic_diamond * 1.0))
    colour_open = gem_open(s, t)
    for g in range(nc):
        have = gems[seat, g]
        if popcount(t.key_mask[g] & out) > have:
            gain = float(points[min(have + 1, top)] - points[min(have, top)])
            if have == 0 and colour_open:
                gain += s.prm[seat, P_REWARD]
                if held[seat, H_COLOURS] + 1 >= t.gem_goal[n]:
                    gain += t.gem_reward[n]
            best = max(best, gain)
    if popcount(t.key_mask[nc] & out) > held[seat, H_DIAMOND]:
        best = max(best, float(t.diamond_card * 1.0))
    if popcount(t.treasure_mask & out) > held[seat, H_TREASURE]:
        best = max(best, s.prm[seat, P_TREASURE] * 1.0 + majority_value(s, t, seat, n, 1))
    return 0.0 if best == NEG else best


@njit
def seat_values(s, t, seat, n):
    """What cards are worth to ``seat`` this turn, worked out once a turn (nothing
    it holds changes before it takes): the terms of :func:`group_value` by kind
    and count (``s.gain``, ``s.bonus``, ``s.explore``), and the value of one card
    of each class (``s.memo``, see :func:`one_value`). A term that does not apply
    is 0.0, and adding 0.0 changes no sum, so :func:`_group` adds up exactly what
    :func:`group_value` does, in the same order."""
    key = s.sc[S_TURN] * 64 + seat
    if s.sc[S_VALUES_TURN] == key:
        return
    s.sc[S_VALUES_TURN] = key
    nc = t.n_colours
    gain = s.gain
    bonus = s.bonus
    explore = s.explore
    memo = s.memo
    reward = s.prm[seat, P_REWARD]
    top = t.gem_points.shape[0] - 1
    colour_open = gem_open(s, t)
    done = s.held[seat, H_COLOURS] + 1 >= t.gem_goal[n]
    gem_reward = float(t.gem_reward[n])
    steps = s.steps
    most = gain.shape[1]
    for kk in range(nc):  # the diamond's row (nc) is set once, in new_state
        have = min(s.gems[seat, kk], top)
        for cnt in range(1, most):
            gain[kk, cnt] = steps[have, cnt]
        bonus[kk, 0] = 0.0
        bonus[kk, 1] = 0.0
        if have == 0 and colour_open:
            bonus[kk, 0] = reward
            if done:
                bonus[kk, 1] = gem_reward
    wonder_open = explorer_open(s, t)
    held_w = s.held[seat, H_WONDERS]
    goal = t.explorer_goal
    pts = float(t.explorer_points)
    for k in range(explore.shape[1]):
        explore[0, k] = 0.0
        explore[1, k] = 0.0
        if k > 0 and wonder_open:
            explore[0, k] = EXPLORER_STEP * reward * k
            if held_w + k >= goal:
                explore[1, k] = pts
    optional = t.take_optional == 1
    e0 = explore[0, 1]
    e1 = explore[1, 1]
    for kk in range(nc + 1):
        v = gain[kk, 1] + bonus[kk, 0]  # _group(s, kk, 1, new), new = 0 adds 0.0 twice
        v += bonus[kk, 1]
        w = v + e0
        w += e1
        if optional and v <= 0.0:
            v = 0.0
        if optional and w <= 0.0:
            w = 0.0
        memo[2 * kk] = v
        memo[2 * kk + 1] = w
    for new in range(2):
        memo[2 * nc + 2 + new] = _treasure(s, t, seat, n, 1, 0, new)
        memo[2 * nc + 4 + new] = _treasure(s, t, seat, n, 0, 1, new)


@njit(inline="always")
def _group(s, kk, cnt, new_w):
    """:func:`group_value` from the terms of :func:`seat_values`."""
    bonus = s.bonus
    explore = s.explore
    v = s.gain[kk, cnt] + bonus[kk, 0]
    v += bonus[kk, 1]
    v += explore[0, new_w]
    return v + explore[1, new_w]


@njit(inline="always")
def _treasure(s, t, seat, n, keys, chests, new_w):
    """:func:`treasure_value` from the terms of :func:`seat_values`, with the steal
    value worked out only if a pair of markers is completed."""
    held = s.held
    explore = s.explore
    val = s.prm[seat, P_TREASURE] * (keys + chests)
    val += majority_value(s, t, seat, n, keys + chests)
    hk = held[seat, H_KEYS]
    hc = held[seat, H_CHESTS]
    pairs = min(hk + keys, hc + chests) - min(hk, hc)
    if pairs != 0:
        val += steal_value(s, t, seat, n) * pairs
    val += explore[0, new_w]
    return val + explore[1, new_w]


@njit
def one_value(s, cls):
    """:func:`take_value` of one card of class ``cls`` alone (after :func:`seat_values`)."""
    return s.memo[cls]


@njit(inline="always")
def pair_value(s, t, seat, n, ca, cb):
    """:func:`take_value` of two cards of classes ``ca`` and ``cb`` face up (after
    :func:`seat_values`).

    Two gem or diamond cards of different kinds are worth the better of the two
    alone (only one kind is taken); a key or chest with another card, the key or
    chest alone (the other goes back)."""
    nc = t.n_colours
    ka = ca >> 1
    kb = cb >> 1
    if ka <= nc and kb <= nc:
        if ka != kb:
            return max(s.memo[ca], s.memo[cb])
        v = _group(s, ka, 2, (ca & 1) + (cb & 1))
        if t.take_optional == 1 and v <= 0.0:
            v = 0.0
        return v
    if ka <= nc:
        return s.memo[cb]
    if kb <= nc:
        return s.memo[ca]
    keys = (1 if ka == nc + 1 else 0) + (1 if kb == nc + 1 else 0)
    return _treasure(s, t, seat, n, keys, 2 - keys, (ca & 1) + (cb & 1))


@njit
def up_counts(s, t, seat):
    """The cards face up now by kind (``s.up_n``) and, of those, the ones of wonders
    new to ``seat`` (``s.up_new``); counted once a turn and brought up to date when
    one more card has been turned up since (``S_UP_COUNTED``)."""
    up_n = s.up_n
    up_new = s.up_new
    m = s.sc[S_N_UP]
    stamp = (s.sc[S_TURN] * 64 + seat) * 8 + m
    first = 0
    if s.sc[S_UP_COUNTED] == stamp:
        return
    if s.sc[S_UP_COUNTED] == stamp - 1 and m > 0:
        first = m - 1  # counted before the last card was turned up
    else:
        for kk in range(up_n.shape[0]):
            up_n[kk] = 0
            up_new[kk] = 0
    s.sc[S_UP_COUNTED] = stamp
    key = t.card_key
    for i in range(first, m):
        c = s.grid[s.up[i]]
        kk = key[c]
        up_n[kk] += 1
        if s.wcards[seat, t.card_wonder[c]] == 0:
            up_new[kk] += 1


@njit
def extra_values(s, t, seat, n):
    """For every class, :func:`take_value` of the cards face up now and one more
    card of that class, into ``s.memo3`` (after :func:`seat_values`); returns
    :func:`take_value` of the cards face up now."""
    nc = t.n_colours
    up_counts(s, t, seat)
    up_n = s.up_n
    up_new = s.up_new
    memo3 = s.memo3
    optional = t.take_optional == 1
    keys = up_n[nc + 1]
    chests = up_n[nc + 2]
    new_t = up_new[nc + 1] + up_new[nc + 2]
    best1 = NEG  # the best kind face up, and the best of the others
    kind1 = -1
    best2 = NEG
    if keys + chests == 0:
        for kk in range(nc + 1):
            if up_n[kk] > 0:
                v = _group(s, kk, up_n[kk], up_new[kk])
                if v > best1:
                    best2 = best1
                    best1 = v
                    kind1 = kk
                elif v > best2:
                    best2 = v
        gain = s.gain
        bonus = s.bonus
        explore = s.explore
        for kk in range(nc + 1):
            other = best2 if kk == kind1 else best1
            base = gain[kk, up_n[kk] + 1] + bonus[kk, 0]  # _group, laid out
            base += bonus[kk, 1]
            for new in range(2):
                nw = up_new[kk] + new
                v = base + explore[0, nw]
                v += explore[1, nw]
                v = max(v, other)
                if optional and v <= 0.0:
                    v = 0.0
                memo3[2 * kk + new] = v
    else:  # the keys and chests face up are taken whatever the card
        v = _treasure(s, t, seat, n, keys, chests, new_t)
        for kk in range(nc + 1):
            memo3[2 * kk] = v
            memo3[2 * kk + 1] = v
    for new in range(2):
        memo3[2 * nc + 2 + new] = _treasure(s, t, seat, n, keys + 1, chests, new_t + new)
        memo3[2 * nc + 4 + new] = _treasure(s, t, seat, n, keys, chests + 1, new_t + new)
    if keys + chests > 0:
        return _treasure(s, t, seat, n, keys, chests, new_t)
    if optional and best1 <= 0.0:
        return 0.0
    return best1


@njit
def extra_value(s, cls):
    """:func:`take_value` of the cards face up now and one more card of class ``cls``
    (after :func:`extra_values`)."""
    return s.memo3[cls]


@njit
def best_steal(s, t, seat, n):
    """``(value, victim, what)`` of the best steal for ``seat`` (victim -1 if none):
    ``what`` is -1 (a plastic diamond), a gem colour ``g`` (0..), ``n_colours`` (a
    diamond card) or ``n_colours + 1`` (a key or chest card). Its value: the
    seat's own gain plus ``deny`` times the victim's loss. Victims are tried
    clockwise from the next seat, ``what`` in that order (ties: the first)."""
    nc = t.n_colours
    gems = s.gems
    held = s.held
    points = t.gem_points
    top = points.shape[0] - 1
    deny = s.prm[seat, P_DENY]
    loot = s.loot  # own gain by what + 1
    loot[0] = t.plastic_diamond * (1.0 + deny)
    colour_open = gem_open(s, t)
    for g in range(nc):
        have = gems[seat, g]
        gain = float(points[min(have + 1, top)] - points[min(have, top)])
        if have == 0 and colour_open:
            gain += s.prm[seat, P_REWARD]
            if held[seat, H_COLOURS] + 1 >= t.gem_goal[n]:
                gain += t.gem_reward[n]
        loot[g + 1] = gain
    loot[nc + 1] = t.diamond_card * (1.0 + deny)
    loot[nc + 2] = s.prm[seat, P_TREASURE] * (1.0 + deny) + majority_value(s, t, seat, n, 1)
    best = 0.0
    bv = -1
    bw = -2
    for d in range(1, n):
        v = seat + d
        if v >= n:
            v -= n
        if held[v, H_PLASTIC] > 0 and (bv < 0 or loot[0] > best):
            best = loot[0]
            bv = v
            bw = -1
        for g in range(nc):
            hv = gems[v, g]
            if hv > 0:
                val = loot[g + 1] + deny * float(points[min(hv, top)] - points[min(hv - 1, top)])
                if bv < 0 or val > best:
                    best = val
                    bv = v
                    bw = g
        if held[v, H_DIAMOND] > 0 and (bv < 0 or loot[nc + 1] > best):
            best = loot[nc + 1]
            bv = v
            bw = nc
        if held[v, H_TREASURE] > 0 and (bv < 0 or loot[nc + 2] > best):
            best = loot[nc + 2]
            bv = v
            bw = nc + 1
    if t.pair_cards == 1 and bv >= 0:
        return chain_steal(s, t, seat, n, best, bv, bw, (1 << n) - 1)
    return best, bv, bw


@njit
def pair_kind(s, seat):
    """The kind of card that would complete a pair of ``seat`` (``Kind.KEY`` if it
    holds an unpaired chest, ``Kind.CHEST`` if an unpaired key), else -1."""
    if s.held[seat, H_CHESTS] > 0:
        return Kind.KEY
    if s.held[seat, H_KEYS] > 0:
        return Kind.CHEST
    return -1


@njit
def chain_steal(s, t, seat, n, best, bv, bw, victims):
    """Ruling ``steal_pairs = "cards"``: a key or chest card that completes a pair of
    ``seat`` brings another steal, so it is worth its own weight (``treasure``, and
    ``deny`` for the victim) plus the best steal ``best`` again. ``(best, bv, bw)``
    of :func:`best_steal`, or the first victim (clockwise, in the seat mask
    ``victims``) holding such an unspent card if that is worth as much or more
    (``what`` = key or chest card; :func:`steal_card` then takes one that pairs).
    Seats of plan ``EXPECT_PLAIN`` value steals as under ``markers``."""
    want = pair_kind(s, seat)
    if want < 0 or s.plan[seat] == Plan.EXPECT_PLAIN:
        return best, bv, bw
    val = s.prm[seat, P_TREASURE] * (1.0 + s.prm[seat, P_DENY]) + best
    val += majority_value(s, t, seat, n, 1)
    if val < best:
        return best, bv, bw
    for d in range(1, n):
        v = seat + d
        if v >= n:
            v -= n
        if (victims >> v) & 1 == 1 and unspent(s, t, v, want) > 0:
            return val, v, t.n_colours + 1
    return best, bv, bw
