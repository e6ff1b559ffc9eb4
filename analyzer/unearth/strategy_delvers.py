"""The delver phase: which card to play, on whom, and what a die can be changed to.

Kernels of :mod:`analyzer.unearth.strategies` for ``docs/games/unearth.md``,
"Delver cards": the values a die can be given (:func:`die_values`), the gain of a
reroll, and the card play worth the most (:func:`choose_play`, over the legal plays
of :func:`_legal`).
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_below
from analyzer.unearth.claims import RANK_DICE, die_key
from analyzer.unearth.codes import Delver
from analyzer.unearth.memo import (
    M_CAND_FILL,
    M_CAND_N,
    M_EXC_DIE,
    M_EXC_READY,
    M_EXC_SLOT,
    M_FILL,
)
from analyzer.unearth.state import (
    S_ANCESTRAL,
    S_EXPEDITION,
    S_MAP,
    S_N_PLAYERS,
    S_N_SLOTS,
    S_READING,
    clamp,
    slot_totals,
)
from analyzer.unearth.strategy_excavation import best_excavation
from analyzer.unearth.strategy_params import (
    P_CARD_MIN,
    P_W_CARD,
    P_W_STONE,
    Strategy,
)
from analyzer.unearth.strategy_worth import (
    _insert_rank,
    _keep_best_two,
    _push_key,
    _value,
    _value_if,
    refresh_params,
    ruin_worth,
    stone_available,
)


@njit
def die_values(s, m, t, p, q, d, want=-1):
    """``out[v]``, with ``out`` row ``q * D + d`` of ``m.dvals``: value for ``p`` of
    the ruin under die (q, d) if that die showed ``v`` (1..faces), what
    :func:`_value_if` gives for each ``v``, from one pass over the dice: the other
    dice's summary is kept and only the changed seat's rank is recomputed per
    ``v``. ``want``: bit ``v`` set for each ``v`` to compute (-1: every face); the
    other entries of ``out`` are left as they are."""
    prm = m.prm[p]
    faces = t.dice_faces[d]
    n_dice = s.die_slot.shape[1]
    out = m.dvals[q * n_dice + d]
    if n_dice > RANK_DICE:  # ranks would truncate differently: the plain way
        for v in range(1, faces + 1):
            if (want >> v) & 1:
                out[v] = _value_if(s, m, t, p, q, d, v)
        return
    slot = s.die_slot[q, d]
    card = s.slot_card[slot]
    claim = t.card_claim[card]
    n_players = s.sc[S_N_PLAYERS]
    keys = m.seat_keys
    n_keys = m.seat_n
    worth = m.worth
    base_total = 0
    for j in range(n_players):
        n_keys[j] = 0
        for e in range(n_dice):
            if s.die_slot[j, e] != slot or (j == q and e == d):
                continue
            base_total += s.die_value[j, e]
            _push_key(keys[j], n_keys[j], die_key(s.die_value[j, e], t.dice_faces[e]))
            n_keys[j] += 1
        if j != p:
            worth[j] = ruin_worth(s, t, j, card, False)
    worth_me = ruin_worth(s, t, p, card, True)
    n_mine = n_keys[p] + (1 if q == p else 0)
    fixed_mine = _insert_rank(keys[p], n_keys[p], 0) if n_keys[p] > 0 else np.int64(0)
    for v in range(1, faces + 1):
        if not (want >> v) & 1:
            continue
        key = die_key(v, faces)
        my_rank = _insert_rank(keys[p], n_keys[p], key) if q == p else fixed_mine
        best = np.int64(0)
        second = np.int64(0)
        best_seat = -1
        for j in range(n_players):
            if j == p:
                continue
            if j == q:
                r = _insert_rank(keys[j], n_keys[j], key)
            elif n_keys[j] > 0:
                r = _insert_rank(keys[j], n_keys[j], 0)
            else:
                r = np.int64(0)
            best, second, best_seat = _keep_best_two(r, j, best, second, best_seat)
        worth_best = worth[best_seat] if best_seat >= 0 else 0.0
        tied = best > 0 and best == second
        out[v] = _value(
            prm, worth_me, worth_best, base_total + v, claim, n_mine, my_rank, best, tied
        )


@njit(inline="always")
def _die_values_once(s, m, t, p, q, d, want):
    """:func:`die_values` of die (q, d) for the faces in ``want`` into row
    ``q * D + d`` of ``m.dvals``, each face computed once per delver-phase decision
    (``m.ddone[q * D + d]``: the faces done; cleared by :func:`choose_play`)."""
    i = q * s.die_slot.shape[1] + d
    missing = want & ~m.ddone[i]
    if missing:
        die_values(s, m, t, p, q, d, missing)
        m.ddone[i] |= missing


@njit(inline="always")
def _die_change_gain(s, m, t, p, q, d, new_value):
    """Gain for ``p`` if die (q, d) on a ruin showed ``new_value`` instead."""
    now = s.die_value[q, d]
    _die_values_once(s, m, t, p, q, d, (np.int64(1) << new_value) | (np.int64(1) << now))
    vals = m.dvals[q * s.die_slot.shape[1] + d]
    return vals[new_value] - vals[now]


@njit
def _reroll_gain(s, m, t, p, q, d):
    """Expected gain for ``p`` if die (q, d) on a ruin is rerolled by its owner.

    ``s.totals[slot]``: the dice total on each ruin; ``m.slot_stone[slot]``: 1 if a
    natural 1-3 there would give a stone (both filled by :func:`choose_play`). A
    reroll that cannot bring the ruin to its claim value only changes who leads
    there (a small term, left out) and may give a stone: only that is counted then.
    """
    prm = m.prm[p]
    totals = s.totals
    stones = m.slot_stone
    faces = t.dice_faces[d]
    slot = s.die_slot[q, d]
    p_stone = min(t.stone_faces_max, faces) / faces
    stone = prm[P_W_STONE] * p_stone if (q == p and stones[slot]) else 0.0
    total = totals[slot]
    if total - s.die_value[q, d] + faces < t.card_claim[s.slot_card[slot]]:
        return stone
    _die_values_once(s, m, t, p, q, d, (np.int64(1) << (faces + 1)) - 2)
    vals = m.dvals[q * s.die_slot.shape[1] + d]
    before = vals[s.die_value[q, d]]  # the ruin as it stands
    acc = 0.0
    for f in range(1, faces + 1):
        acc += vals[f] - before
    return acc / faces + stone


@njit
def choose_play(s, m, t, p, band_used):
    """The next delver card ``p`` plays, or none.

    Returns ``(kind, target a, target b)`` (kind -1: stop playing).
    Targets: a die on a ruin as (seat, die) for Forlorn, Lost in the Ruins and
    A New Discovery; the number named for Forgotten Song. Smart strategies play
    the card with the largest exact one-step gain if it is worth more than
    ``P_CARD_MIN`` points; random plays uniformly among legal cards or stops.
    """
    prm = m.prm[p]
    m.sc[M_EXC_READY] = 0
    n_kinds = s.hand.shape[1]
    n_players = s.sc[S_N_PLAYERS]
    n_dice = s.die_slot.shape[1]
    dice_on = 0
    for q in range(n_players):
        for d in range(n_dice):
            if s.die_slot[q, d] >= 0:
                dice_on += 1
    if m.strat[p] == Strategy.RANDOM:
        n_opt = 1  # stopping is always legal
        for k in range(n_kinds):
            if s.hand[p, k] > 0 and _legal(s, t, k, p, dice_on, band_used) and _free(m, p, k):
                n_opt += 1
        r = rng_below(s.rng, n_opt)
        if r == 0:
            return -1, -1, -1
        r -= 1
        for k in range(n_kinds):
            if s.hand[p, k] > 0 and _legal(s, t, k, p, dice_on, band_used) and _free(m, p, k):
                if r == 0:
                    a = -1
                    b = -1
                    eff = t.delver_effect[k]
                    if eff == Delver.FORGOTTEN_SONG:
                        # a number some die on a ruin shows, uniformly among them
                        shown = np.int64(0)
                        for q in range(n_players):
                            for d in range(n_dice):
                                if s.die_slot[q, d] >= 0:
                                    shown |= np.int64(1) << s.die_value[q, d]
                        j = rng_below(s.rng, _popcount(shown))
                        v = 0
                        while j >= 0:
                            v += 1
                            if (shown >> v) & 1:
                                j -= 1
                        a = v
                    elif (
                        eff == Delver.FORLORN
                        or eff == Delver.LOST_IN_THE_RUINS
                        or (eff == Delver.A_NEW_DISCOVERY)
                    ):
                        j = rng_below(s.rng, dice_on)
                        for q in range(n_players):
                            for d in range(n_dice):
                                if s.die_slot[q, d] >= 0:
                                    if j == 0:
                                        a = q
                                        b = d
                                    j -= 1
                    return k, a, b
                r -= 1
        return -1, -1, -1
    refresh_params(s, m, t, p)
    for i in range(n_players * n_dice):
        m.ddone[i] = 0  # the die-values memo of this decision (_die_values_once)
    totals = s.totals
    stones = m.slot_stone
    slot_totals(s)
    for slot in range(s.sc[S_N_SLOTS]):
        stones[slot] = 1 if s.slot_card[slot] >= 0 and stone_available(s, slot) else 0
    # if no card is played, this is the excavation choice: keep it for excavate()
    base, exc_die, exc_slot = _excavation_with(s, m, t, p, 0, 0, False, False, True, -1e18)
    max_faces = 1
    for d in range(n_dice):
        max_faces = max(max_faces, t.dice_faces[d])
    best_gain = prm[P_CARD_MIN] + prm[P_W_CARD]
    play_k = -1
    play_a = -1
    play_b = -1
    for k in range(n_kinds):
        if s.hand[p, k] == 0 or not _legal(s, t, k, p, dice_on, band_used) or not _free(m, p, k):
            continue
        eff = t.delver_effect[k]
        gain = -1e18
        a = -1
        b = -1
        # an excavation worth no more than this cannot make the card the one played
        floor = base + best_gain - 1e-9
        if eff == Delver.ANCESTRAL_CLAIM and not _can_roll_faces(s, t, p, t.delver_faces[k]):
            gain = 0.0  # no die it applies to can be rolled this turn
        elif eff == Delver.ANCESTRAL_CLAIM:
            gain = _excavation_with(s, m, t, p, 1, 0, False, False, False, floor)[0]
            gain -= base
        elif eff == Delver.READING_THE_STONES:
            gain = _excavation_with(s, m, t, p, 0, 1, False, False, False, floor)[0]
            gain -= base
        elif eff == Delver.ANCIENT_MAP and s.sc[S_MAP] == 0:
            gain = _excavation_with(s, m, t, p, 0, 0, True, False, False, floor)[0]
            gain -= base
        elif eff == Delver.EXPEDITION and s.sc[S_EXPEDITION] == 0:
            if not _bound_at_most(s, m, p, base + best_gain):
                gain = _excavation_with(s, m, t, p, 0, 0, False, True, False, -1e18)[0]
                gain -= base
        elif eff == Delver.BAND_OF_DELVERS:
            gain = base
        elif eff == Delver.A_NEW_DISCOVERY or eff == Delver.FORLORN:
            amount = t.delver_amount[k]
            for q in range(n_players):
                for d in range(n_dice):
                    slot = s.die_slot[q, d]
                    if slot < 0:
                        continue
                    # only ruins where a claim is at most one die away after the change
                    reach = totals[slot] + amount + max_faces
                    if reach < t.card_claim[s.slot_card[slot]]:
                        continue
                    nv = clamp(s.die_value[q, d] + amount, t.dice_faces[d])
                    g = _die_change_gain(s, m, t, p, q, d, nv)
                    if g > gain:
                        gain = g
                        a = q
                        b = d
        elif eff == Delver.LOST_IN_THE_RUINS:
            for q in range(n_players):
                for d in range(n_dice):
                    if s.die_slot[q, d] < 0:
                        continue
                    g = _reroll_gain(s, m, t, p, q, d)
                    if g > gain:
                        gain = g
                        a = q
                        b = d
        elif eff == Delver.RESTORATION:
            gain = 0.0
            for d in range(n_dice):
                if s.die_slot[p, d] >= 0:
                    gain += _reroll_gain(s, m, t, p, p, d)
        elif eff == Delver.FORGOTTEN_SONG:
            fmax = 1
            for d in range(n_dice):
                fmax = max(fmax, t.dice_faces[d])
            # every die showing v, summed in (seat, die) order: one pass over the dice
            song = m.vgain
            hits = m.vhit
            for v in range(1, fmax + 1):
                song[v] = 0.0
                hits[v] = 0
            for q in range(n_players):
                for d in range(n_dice):
                    if s.die_slot[q, d] >= 0:
                        v = s.die_value[q, d]
                        song[v] += _reroll_gain(s, m, t, p, q, d)
                        hits[v] = 1
            for v in range(1, fmax + 1):
                if hits[v] and song[v] > gain:
                    gain = song[v]
                    a = v
        if gain > best_gain:
            best_gain = gain
            play_k = k
            play_a = a
            play_b = b
    if play_k < 0:
        m.sc[M_EXC_READY] = 1
        m.sc[M_EXC_DIE] = exc_die
        m.sc[M_EXC_SLOT] = exc_slot
    return play_k, play_a, play_b


@njit
def _bound_at_most(s, m, p, level):
    """True if no excavation of ``p`` can gain more than ``level``, the Expedition's
    included: its gain (an average over faces of the best ruin) is at most the
    largest gain bound of the pairs :func:`_best_roll_pruned` sorted for this very
    slot summary. False when there are none (an empty pool: every die comes back)."""
    if m.sc[M_CAND_FILL] != m.sc[M_FILL] or m.sc[M_CAND_N] == 0:
        return False
    for d in range(s.die_slot.shape[1]):
        if s.die_slot[p, d] < 0:
            return m.cand_ub[0] + 1e-9 <= level  # rounding margin, as in the pruning
    return False


@njit(inline="always")
def _excavation_with(
    s, m, t, p, more_anc, more_read, map_now, expedition_now, refill=False, floor=-1e18
):
    """``(gain, die, slot)`` of ``p``'s best excavation (:func:`best_excavation`)
    if one more Ancestral Claim / Reading the Stones were pending, or an Ancient
    Map / Expedition played now. ``refill``: summarise the slots afresh (the first
    look of a decision); ``floor``: see :func:`best_excavation`."""
    return best_excavation(
        s,
        m,
        t,
        p,
        s.sc[S_ANCESTRAL] + more_anc,
        s.sc[S_READING] + more_read,
        map_now or s.sc[S_MAP] > 0,
        expedition_now or s.sc[S_EXPEDITION] > 0,
        refill,
        floor,
    )


@njit
def _can_roll_faces(s, t, p, faces):
    """Can ``p`` roll a die with ``faces`` faces this turn (0: any die)?"""
    pool_empty = True
    for d in range(s.die_slot.shape[1]):
        if s.die_slot[p, d] < 0:
            pool_empty = False
    for d in range(s.die_slot.shape[1]):
        if (pool_empty or s.die_slot[p, d] < 0) and (faces == 0 or t.dice_faces[d] == faces):
            return True
    return False


@njit(inline="always")
def _popcount(x):
    """Number of bits set in the non-negative int64 ``x``."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(inline="always")
def _free(m, p, k):
    """False when restricted play bars seat ``p`` from delver kind ``k`` (``m.bar_delvers``)."""
    return ((m.bar_delvers[p] >> k) & 1) == 0


@njit
def _legal(s, t, k, p, dice_on, band_used):
    """Can ``p`` play a card of kind ``k`` now? It must be able to do something
    (``docs/games/unearth.md``): Forlorn, Lost in the Ruins, A New Discovery and
    Forgotten Song need a die on a ruin, Restoration one of ``p``'s dice there,
    Band of Delvers an unused second excavation."""
    eff = t.delver_effect[k]
    if (
        eff == Delver.FORLORN
        or eff == Delver.LOST_IN_THE_RUINS
        or eff == Delver.A_NEW_DISCOVERY
        or eff == Delver.FORGOTTEN_SONG
    ):
        return dice_on > 0
    if eff == Delver.RESTORATION:
        for d in range(s.die_slot.shape[1]):
            if s.die_slot[p, d] >= 0:
                return True
        return False
    if eff == Delver.BAND_OF_DELVERS:
        return not band_used
    return True
