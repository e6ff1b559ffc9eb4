"""Decisions of the simulated players (``docs/rules/colorful-treasure.md``,
"Players and memory").

A strategy sees what a person at the table sees: which places still hold a
card, the cards face up now, every card taken (so what is left of each wonder),
and what it remembers (``s.mem``; ``s.kn`` marks the cards it may still
remember). Its view is two card masks (:mod:`.bits`): the face-down cards it
remembers (``kf``, from :func:`seat_memory`) and the cards of the grid it does
not know (``unk``: neither remembered nor face up; :func:`seat_view`). The
unknown cards of a wonder are those of its column's masks' bits; no decision
reads the card at a face-down place it does not know. To reveal an unknown card
of a wonder it picks uniformly among that column's face-down places that hold
no card it remembers (:func:`pick_unknown`).

Two plans (:class:`~analyzer.colorful_treasure.codes.Plan`):

- ``RANDOM``: uniform among the legal choices at every decision;
- ``EXPECT``: expected value of each choice, from its knowledge: a known card
  is certain, an unknown place of a wonder holds each of the wonder's unknown
  cards with equal chance (exact for perfect memory, and for any memory that
  forgets independently of what the card is). Values are points gained now
  (cards, rewards completed, a steal's own gain), what a key or chest card changes
  in the seat's chance of the treasure majority (:func:`majority_value`; strategies
  version 2, not for ``baseline``), plus the strategy's weights:
  ``treasure`` per key or chest card, ``reward`` per step towards an open
  reward, ``deny`` times what a steal takes from the victim. ``third`` is the
  least gain for an extra reveal. ``greedy``, ``perfect`` and ``hunter`` are
  ``EXPECT`` rows of ``data/players.toml``.

Slots: a candidate reveal is a known card (``slot >= 0``, the card id) or "an
unknown place of wonder ``w``" (``slot = -1 - w``). Slots are ranked known
cards first, by card id, then the wonders in order; every choice among slots
of equal value takes the first.

Classes: what a card is worth to a seat depends only on its kind
(``t.card_key``: gem colour, diamond, key, chest) and on whether the seat holds
no card of its wonder yet: ``class = 2 * card_key + new`` (:func:`card_class`).
A wonder has one card of each kind, so two cards of one kind lie in different
wonders; the values of one, two or three cards are therefore functions of
their classes (:func:`one_value`, :func:`pair_value`, :func:`extra_value`),
each equal to :func:`take_value` of such cards (tests hold them to it).
"""

import math

from analyzer.colorful_treasure.bits import kth_bit, lowest, popcount
from analyzer.colorful_treasure.codes import (
    P_DENY,
    P_REWARD,
    P_THIRD,
    P_TREASURE,
    Kind,
    Plan,
)
from analyzer.colorful_treasure.state import (
    F_SV,
    H_CARDS,
    H_CHESTS,
    H_COLOURS,
    H_DIAMOND,
    H_KEYS,
    H_PLASTIC,
    H_TREASURE,
    H_WONDERS,
    KIND_FIELD,
    KINDS_PER_WORD,
    S_COLS_TURN,
    S_GRID_CARDS,
    S_MEM_TURN,
    S_N_UP,
    S_PAIRED,
    S_SV_TURN,
    S_TURN,
    S_UP_CARDS,
    S_UP_COUNTED,
    S_VALUES_TURN,
)
from analyzer.colorful_treasure.turn import (
    explorer_open,
    face_down_count,
    face_down_places,
    gem_open,
    gem_points,
    random_index,
    unspent,
)
from analyzer.kernels.jit import njit

#: weight of a new wonder towards the explorer reward, relative to ``reward``
EXPLORER_STEP = 0.5
NEG = -1.0e18
#: how well a slot serves a target (its aim), as a whole number that orders aims as
#: the chances do: a known card of the kind ONE, a known key or chest -ONE (when the
#: target is not one), a column of k unknown cards +-(ONE + 1 - k) or 0 (see col_best)
ONE = 60
#: "no such slot"
NO_SLOT = 2**62
#: the treasure majority's chance is a logistic of the lead with this scale when no key
#: or chest is left in the grid, and MAJORITY_SPREAD more per key or chest left
MAJORITY_SCALE = 0.5
MAJORITY_SPREAD = 0.15
#: the majority's value is rounded to 1/MAJORITY_GRAIN of a point (a power of 2, so the
#: sums of values stay exact: the tests compare them with fractions)
MAJORITY_GRAIN = 64.0

# ------------------------------------------------------------------ what a seat knows


@njit
def seat_memory(s, t, seat):
    """Mask of the cards in the grid that ``seat`` remembers now (``mem >= turn``).

    ``s.kn[seat]`` holds every card the seat may remember (set when a card it
    keeps past a turn goes face down, :func:`~.turn.remember`); cards taken
    since or forgotten by now are dropped from it by :func:`recount_memory`. Nothing
    a seat remembers changes between its reveals, so after the turn's first decision
    (which recounts) this is ``s.kn[seat]`` as left then."""
    if s.sc[S_MEM_TURN] == s.sc[S_TURN] * 64 + seat:
        return s.kn[seat]
    return recount_memory(s, t, seat)


@njit
def recount_memory(s, t, seat):
    """:func:`seat_memory` worked out afresh (the turn's first decision)."""
    turn = s.sc[S_TURN]
    km = s.kn[seat] & s.sc[S_GRID_CARDS]
    x = km
    while x != 0:
        c = lowest(x)
        x &= x - 1
        if s.mem[seat, c] < turn:
            km &= ~(1 << c)
    s.kn[seat] = km
    s.sc[S_MEM_TURN] = turn * 64 + seat
    return km


@njit
def column_mask(t, w):
    """Bits of wonder ``w``'s cards (and of its column's places)."""
    return ((1 << t.rows) - 1) << (w * t.rows)


@njit
def card_class(s, t, seat, card):
    """The card's kind (gem colour, diamond, key, chest) and whether its wonder is new
    to ``seat``, as one int: all a take's value depends on (a wonder holds one card
    of each kind, so two cards of one kind are of different wonders)."""
    return 2 * t.card_key[card] + (s.wcards[seat, t.card_wonder[card]] == 0)


@njit
def pick_unknown(s, t, w, kf, excl):
    """A face-down place of column ``w`` that holds no card the deciding seat
    remembers (``kf``: its remembered face-down cards) and is not in the place
    mask ``excl``, uniform among them (in place order). Reads only which places
    hold a face-down card and where the remembered cards lie."""
    cm = column_mask(t, w)
    pm = face_down_places(s) & cm & ~excl
    x = kf & cm
    while x != 0:
        c = lowest(x)
        x &= x - 1
        pm &= ~(1 << s.pos_of[c])
    return kth_bit(pm, random_index(s, popcount(pm)))


@njit
def slot_place(s, t, slot, kf, excl):
    """The place to reveal for ``slot`` (a known card, or an unknown place of a wonder)."""
    if slot >= 0:
        return s.pos_of[slot]
    return pick_unknown(s, t, -1 - slot, kf, excl)


@njit
def _slot_cards(t, slot, unk):
    """Mask of the cards ``slot`` may show: the known card, or the column's unknown cards."""
    if slot >= 0:
        return 1 << slot
    return unk & column_mask(t, -1 - slot)


@njit
def _slot_wonder(t, slot):
    if slot >= 0:
        return t.card_wonder[slot]
    return -1 - slot


# ------------------------------------------------------------------ values


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


# ------------------------------------------------------------------ the first reveals


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


# ------------------------------------------------------------------ the other decisions


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
    other seat holds anything. Draws random numbers for the random plan."""
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
