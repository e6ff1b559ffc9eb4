"""Excavation: which ruin each die goes to, and a die's value when it may change.

Kernels of :mod:`analyzer.unearth.strategies` for ``docs/games/unearth.md``, "A
turn": the best excavation of a seat's dice over the ruin slots
(:func:`best_excavation`, :func:`choose_excavation`, with its cache of slot values
:func:`fill_slot_cache`), breaking a stall, the expedition's slot, and the values a
die may take or be rerolled to (:func:`choose_value`, :func:`want_reroll`).
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_below
from analyzer.unearth.claims import RANK_DICE, die_key
from analyzer.unearth.codes import WonderEffect
from analyzer.unearth.memo import (
    GAIN_KEYS,
    M_CAND_FILL,
    M_CAND_N,
    M_EXC_DIE,
    M_EXC_READY,
    M_EXC_SLOT,
    M_FILL,
    SIG_INTS,
)
from analyzer.unearth.modifiers import (
    _add_sanctuary,
    _collect_mods,
    _no_modifiers,
    _reach_search,
)
from analyzer.unearth.state import (
    S_ANCESTRAL,
    S_EXPEDITION,
    S_LAST_CLAIM,
    S_MAP,
    S_N_PLAYERS,
    S_N_SLOTS,
    S_READING,
    S_ROLL_MOD,
    S_TURN,
    STALL_TURNS,
    slot_totals,
)
from analyzer.unearth.strategy_params import (
    P_BIG_DIE,
    P_LEAD,
    P_RISK,
    P_W_CARD,
    P_W_RUIN,
    P_W_STONE,
    Strategy,
)
from analyzer.unearth.strategy_worth import (
    _insert_rank,
    _value,
    _value_if,
    refresh_params,
    ruin_worth,
    slot_info,
    stone_available,
)


@njit
def _check_env(s, m, p):
    """Renew what of ``p``'s memo is stale. If what its rolls' modifiers depend on
    (its named wonders, the event's roll modifier) changed since its last
    summary: all of it. If a parameter the slot values depend on changed
    (``w_ruin``, ``risk``, ``lead``, ``w_card``): the slot values and face
    gains. If only ``w_stone`` changed: the face gains (``env[3]``, part of
    their stamp). Other parameters are not memoised. A Sanctuary owner's face
    gains also depend on every value on the ruin, which the summary does not
    hold: its memo lasts one summary."""
    prm = m.prm[p]
    env = m.env[p]
    same = env[0] == s.effects[p] and env[1] == s.sc[S_ROLL_MOD]
    same = same and not (s.effects[p] >> WonderEffect.SANCTUARY) & 1
    values = True
    for i in range(prm.shape[0]):
        if m.env_prm[p, i] != prm[i]:
            if i == P_W_STONE:
                env[3] += 1
            elif i == P_W_RUIN or i == P_RISK or i == P_LEAD or i == P_W_CARD:
                values = False
            m.env_prm[p, i] = prm[i]
    if same and values:
        return
    if not same:
        env[0] = s.effects[p]
        env[1] = s.sc[S_ROLL_MOD]
        env[2] += 1  # the reachable-value masks of env[2]'s setting are stale
        m.gkeys[p, :] = -1
    for slot in range(m.slot_ver.shape[1]):
        m.slot_ver[p, slot] += 1


@njit(inline="always")
def _note_summary(m, p, slot, row, worth_me, worth_best):
    """Compare ``p``'s new summary ``row`` of ``slot`` (and the ruin's worths) with
    the last one; bump the slot's version if anything the slot values depend on
    changed. (Whether a stone is to be had, ``row[13]``, changes the face gains
    only: their memo is stamped with it besides the version.)"""
    sig = m.slot_sig[p, slot]
    same = True
    for i in range(SIG_INTS):
        if sig[i] != row[i]:
            same = False
            sig[i] = row[i]
    sigf = m.slot_sigf[p, slot]
    if sigf[0] != worth_me or sigf[1] != worth_best:
        same = False
        sigf[0] = worth_me
        sigf[1] = worth_best
    if not same:
        m.slot_ver[p, slot] += 1


@njit
def _pack_dice(s, m):
    """Describe the dice on each slot by two integers, from one pass over the dice:
    ``m.dice_cfg[slot, 0]`` has bit ``q * D + d`` set for each die (q, d) there and
    ``cfg[slot, 1]`` their values, 3 bits each in (seat, die) order. Equal pairs
    mean the same dice with the same values. Returns False if some configuration
    does not fit (more than 20 dice, or a value outside 1..8): then nothing is
    compared."""
    cfg = m.dice_cfg
    n_slots = s.sc[S_N_SLOTS]
    n_dice = s.die_slot.shape[1]
    for slot in range(n_slots):
        cfg[slot, 0] = 0
        cfg[slot, 1] = 0
    if s.sc[S_N_PLAYERS] * n_dice > 20:
        return False
    for q in range(s.sc[S_N_PLAYERS]):
        for d in range(n_dice):
            slot = s.die_slot[q, d]
            if slot < 0:
                continue
            v = s.die_value[q, d]
            if v < 1 or v > 8:
                return False
            cfg[slot, 0] |= np.int64(1) << (q * n_dice + d)
            cfg[slot, 1] = cfg[slot, 1] * 8 + (v - 1)
    return True


@njit
def fill_slot_cache(s, m, t, p):
    """Summarise every occupied slot for seat ``p`` into ``m.slot_cache`` and
    ``m.slot_base`` (see :func:`slot_info`), so the per-face evaluations below
    touch only plain arrays. Draws no random numbers.

    The slot values and face gains below are memoised per seat and slot
    (``vtab``, ``gtab``): a slot's memo rows stay valid while its summary, the
    ruin's worths and ``p``'s modifier setting stay the same (:func:`_note_summary`,
    :func:`_check_env`), across decisions and turns."""
    refresh_params(s, m, t, p)
    prm = m.prm[p]
    keys = m.keys
    cache = m.slot_cache
    base = m.slot_base
    _check_env(s, m, p)
    m.sc[M_FILL] += 1
    packed = _pack_dice(s, m)
    for slot in range(s.sc[S_N_SLOTS]):
        card = s.slot_card[slot]
        if card < 0:
            continue
        row = cache[slot]
        last = m.slot_cfg[p, slot]
        if (
            packed
            and last[0] == m.dice_cfg[slot, 0]
            and last[1] == m.dice_cfg[slot, 1]
            and last[2] == card
        ):
            # the same dice on the same ruin as at p's last summary of it: the same ranks
            for i in range(SIG_INTS):
                row[i] = m.slot_sig[p, slot, i]
            total = row[0]
            n_mine = row[1]
            my = row[2]
            best = row[3]
            best_seat = row[4]
            tied = row[5] == 1
        else:
            total, n_mine, my, best, best_seat, tied = slot_info(s, m, t, p, slot)
            row[0] = total
            row[1] = n_mine
            row[2] = my
            row[3] = best
            row[4] = best_seat
            row[5] = 1 if tied else 0
            for i in range(RANK_DICE):
                row[6 + i] = keys[i] if i < n_mine else 0
            row[12] = t.card_claim[card]
            last[0] = m.dice_cfg[slot, 0] if packed else -1
            last[1] = m.dice_cfg[slot, 1]
            last[2] = card
        claim = row[12]
        row[13] = 1 if stone_available(s, slot) else 0
        worth_me = ruin_worth(s, t, p, card, True)
        worth_best = ruin_worth(s, t, best_seat, card, False) if best_seat >= 0 else 0.0
        base[slot, 1] = worth_me
        base[slot, 2] = worth_best
        base[slot, 0] = _value(prm, worth_me, worth_best, total, claim, n_mine, my, best, tied)
        _note_summary(m, p, slot, row, worth_me, worth_best)


@njit(inline="always")
def _cached_value(cache, base, prm, slot, faces, v):
    """Value of ``slot`` with one more die of the deciding seat showing ``v``."""
    row = cache[slot]
    r = _insert_rank(row[6:12], row[1], die_key(v, faces))
    return _value(
        prm,
        base[slot, 1],
        base[slot, 2],
        row[0] + v,
        row[12],
        row[1] + 1,
        r,
        row[3],
        row[5] == 1,
    )


@njit(inline="always")
def _bit_index(bit):
    """Index of the single set bit of ``bit``."""
    v = 0
    while bit > 1:
        bit >>= 1
        v += 1
    return v


@njit(inline="always")
def _gain_for_mask(vals, base, prm, slot, d, faces, f, mask, stone_max, stone_here):
    """Gain of die ``d`` with natural face ``f`` and value options ``mask`` on
    ``slot``; ``vals[d, slot, v]``: the slot's value with the die showing ``v``."""
    top = -1e18
    rest = mask & ((np.int64(1) << (faces + 1)) - 2)  # values 1..faces, ascending
    while rest:
        low = rest & -rest
        rest ^= low
        val = vals[d, slot, _bit_index(low)]
        if val > top:
            top = val
    g = top - base[slot, 0]
    if f <= stone_max and stone_here:
        g += prm[P_W_STONE]
    return g


@njit(inline="always")
def _fill_values(m, p, prm, slot, d, faces):
    """Make ``m.vtab[p, d, slot, v]`` the slot's value for ``p`` with die ``d``
    showing ``v`` (1..faces) and ``m.vtab[p, d, slot, 0]`` their maximum, once
    per version of ``p``'s summary of the slot."""
    stamp = m.slot_ver[p, slot]
    if m.vstamp[p, d, slot] != stamp:
        vals = m.vtab[p, d, slot]
        top = -1e18
        for v in range(1, faces + 1):
            vals[v] = _cached_value(m.slot_cache, m.slot_base, prm, slot, faces, v)
            top = max(top, vals[v])
        vals[0] = top
        m.vstamp[p, d, slot] = stamp


@njit
def _gain_bound(m, t, p, slot, d):
    """An upper bound of the expected gain for ``p`` of die ``d`` on ``slot``, with
    any modifiers or an Ancient Map: the best value any face can give, plus a stone."""
    prm = m.prm[p]
    _fill_values(m, p, prm, slot, d, t.dice_faces[d])
    g = m.vtab[p, d, slot, 0] - m.slot_base[slot, 0]
    if m.slot_cache[slot, 13]:
        g += max(prm[P_W_STONE], 0.0)
    return g


@njit
def _gain_row(s, m, t, p, slot, d, n_anc, n_read):
    """Row ``r`` of ``m.gtab`` with ``gtab[r, f]`` the gain for ``p`` of die ``d``
    landing on ``slot`` with natural face ``f`` (1..faces), the best reachable
    value chosen (cache filled for ``p``).

    Memoised per seat, slot version (:func:`fill_slot_cache`), stone and modifier
    setting: the delver phase looks at the same faces for the plain roll, the
    Ancient Map and the Expedition, and the next turn at the ruins no die changed.
    """
    prm = m.prm[p]
    # values, the stone, and the stone's worth
    stamp = (m.env[p, 3] << 40) + m.slot_ver[p, slot] * 2 + m.slot_cache[slot, 13]
    keys = m.gkeys[p]
    key = n_anc * 4096 + n_read
    k = GAIN_KEYS  # the scratch row set when every key is taken
    for i in range(GAIN_KEYS):
        if keys[i] == key or keys[i] < 0:
            keys[i] = key
            k = i
            break
    n_dice = s.die_slot.shape[1]
    row = ((p * (GAIN_KEYS + 1) + k) * n_dice + d) * m.gstamp.shape[3] + slot
    if k < GAIN_KEYS and m.gstamp[p, k, d, slot] == stamp:
        return row
    faces = t.dice_faces[d]
    cache = m.slot_cache
    base = m.slot_base
    stone_max = t.stone_faces_max
    out = m.gtab
    vals = m.vtab[p]
    _fill_values(m, p, prm, slot, d, faces)
    if _no_modifiers(s, p, n_anc, n_read):  # the value is the face: no search
        now = base[slot, 0]
        stone = prm[P_W_STONE]
        stone_here = cache[slot, 13]
        for f in range(1, faces + 1):
            g = vals[d, slot, f] - now
            if f <= stone_max and stone_here:
                g += stone
            out[row, f] = g
    elif (s.effects[p] >> WonderEffect.SANCTUARY) & 1:
        # the Sanctuary's modifier depends on the ruin: search for every face here
        n0 = _collect_mods(s, t, p, faces, n_anc, n_read)
        for f in range(1, faces + 1):
            n = _add_sanctuary(s, t, p, slot, f, n0)
            mask = (np.int64(1) << f) if n == 0 else _reach_search(s, n, f, faces)
            out[row, f] = _gain_for_mask(
                vals, base, prm, slot, d, faces, f, mask, stone_max, cache[slot, 13]
            )
    else:
        # the reachable values of each face are the same on every ruin: memoised
        masks = m.mtab[p, k, d]
        env = m.env[p, 2]
        if k == GAIN_KEYS or m.mstamp[p, k, d] != env:
            n = _collect_mods(s, t, p, faces, n_anc, n_read)
            for f in range(1, faces + 1):
                masks[f] = (np.int64(1) << f) if n == 0 else _reach_search(s, n, f, faces)
            m.mstamp[p, k, d] = env
        for f in range(1, faces + 1):
            out[row, f] = _gain_for_mask(
                vals, base, prm, slot, d, faces, f, masks[f], stone_max, cache[slot, 13]
            )
    if k < GAIN_KEYS:
        m.gstamp[p, k, d, slot] = stamp
    return row


@njit(inline="always")
def _face_gain(s, m, t, p, slot, d, f, n_anc, n_read):
    """Gain for ``p`` of die ``d`` landing on ``slot`` with natural face ``f``, the
    best reachable value chosen (cache filled for ``p``)."""
    return m.gtab[_gain_row(s, m, t, p, slot, d, n_anc, n_read), f]


@njit(inline="always")
def _roll_gain(s, m, t, p, slot, d, n_anc, n_read):
    """Expected gain for ``p`` of rolling die ``d`` onto ``slot``: exact over the
    faces, the best reachable value chosen each time (cache filled for ``p``)."""
    faces = t.dice_faces[d]
    row = _gain_row(s, m, t, p, slot, d, n_anc, n_read)
    ev = 0.0
    for f in range(1, faces + 1):
        ev += m.gtab[row, f]
    return ev / faces


@njit
def best_excavation(s, m, t, p, n_anc, n_read, use_map, expedition, refill=True, floor=-1e18):
    """Best (die, slot) for ``p``'s excavation roll and its expected gain.

    Considers one die of each face count in ``p``'s pool; if the pool is empty,
    every die on a ruin (taken back first, as the FAQ allows). ``use_map``: an
    Ancient Map reroll is available (the reroll loses card modifiers);
    ``expedition``: the slot is chosen after the roll. Returns ``(gain, die,
    slot)``, the expected gain first (die and slot -1: no choice).
    ``refill=False``: the slot summary already describes this state for ``p`` (a
    second look in the same delver-phase decision). ``floor``: the caller only
    needs answers above it; when no choice beats it, any answer at or below it may
    be returned (-1e18, no choice).
    Draws no random numbers.
    """
    n_dice = s.die_slot.shape[1]
    n_slots = s.sc[S_N_SLOTS]
    pool_empty = True
    for d in range(n_dice):
        if s.die_slot[p, d] < 0:
            pool_empty = False
    if not pool_empty and refill:
        fill_slot_cache(s, m, t, p)
    if not pool_empty and not expedition:
        return _best_roll_pruned(s, m, t, p, n_anc, n_read, use_map, floor)
    best = -1e18
    best_d = -1
    best_slot = -1
    for d in range(n_dice):
        home = s.die_slot[p, d]
        if not pool_empty:
            if not _first_of_its_faces(s, t, p, d):
                continue
        else:
            s.die_slot[p, d] = -1  # every die is a candidate: take it back
            fill_slot_cache(s, m, t, p)
        faces = t.dice_faces[d]
        if expedition:
            # the slot is chosen after the roll: E over faces of max over slots
            rows = m.rows
            for slot in range(n_slots):
                if s.slot_card[slot] >= 0:
                    rows[slot] = _gain_row(s, m, t, p, slot, d, n_anc, n_read)
            ev = 0.0
            first_slot = -1
            for f in range(1, faces + 1):
                top = -1e18
                for slot in range(n_slots):
                    if s.slot_card[slot] < 0:
                        continue
                    if first_slot < 0:
                        first_slot = slot
                    g = m.gtab[rows[slot], f]
                    if g > top:
                        top = g
                ev += top
            ev = ev / faces - _die_cost(s, t, m.prm[p], p, d)
            if first_slot >= 0 and ev > best:
                best = ev
                best_d = d
                best_slot = first_slot
        else:
            cost = _die_cost(s, t, m.prm[p], p, d)
            for slot in range(n_slots):
                if s.slot_card[slot] < 0:
                    continue
                ev = _roll_ev(s, m, t, p, slot, d, n_anc, n_read, use_map)
                ev -= cost
                if ev > best:
                    best = ev
                    best_d = d
                    best_slot = slot
        s.die_slot[p, d] = home
    return best, best_d, best_slot


@njit(inline="always")
def _die_cost(s, t, prm, p, d):
    """Points ``p`` gives up by rolling die ``d`` now (``P_BIG_DIE``): charged
    for its biggest die only, and only while another of its dice is in the pool."""
    cost = prm[P_BIG_DIE]
    if cost == 0.0:
        return 0.0
    faces = t.dice_faces[d]
    other = False
    for e in range(s.die_slot.shape[1]):
        if t.dice_faces[e] > faces:
            return 0.0
        if e != d and s.die_slot[p, e] < 0:
            other = True
    return cost if other else 0.0


@njit(inline="always")
def _roll_ev(s, m, t, p, slot, d, n_anc, n_read, use_map):
    """Expected gain of rolling die ``d`` onto ``slot`` (with an Ancient Map reroll
    if ``use_map``; the summary filled for ``p``)."""
    if not use_map:
        return _roll_gain(s, m, t, p, slot, d, n_anc, n_read)
    faces = t.dice_faces[d]
    plain = _roll_gain(s, m, t, p, slot, d, 0, 0)
    row = _gain_row(s, m, t, p, slot, d, n_anc, n_read)
    acc = 0.0
    for f in range(1, faces + 1):
        acc += max(m.gtab[row, f], plain)
    return acc / faces


@njit(inline="always")
def _first_of_its_faces(s, t, p, d):
    """Is die ``d`` in ``p``'s pool and the first pool die with its face count?
    (Dice with the same faces are interchangeable for the excavation choice.)"""
    if s.die_slot[p, d] >= 0:
        return False
    for e in range(d):
        if s.die_slot[p, e] < 0 and t.dice_faces[e] == t.dice_faces[d]:
            return False
    return True


@njit(inline="always")
def _sort_pairs(s, m, t, p):
    """Every (die, slot) pair of :func:`_best_roll_pruned` into ``m.cand`` (as
    ``die * n_slots + slot``), sorted by decreasing gain bound ``m.cand_ub``, equal
    bounds in (die, slot) order; stamped with the current slot summary."""
    cand = m.cand
    ub = m.cand_ub
    n_slots = s.sc[S_N_SLOTS]
    n = 0
    for d in range(s.die_slot.shape[1]):
        if not _first_of_its_faces(s, t, p, d):
            continue
        cost = _die_cost(s, t, m.prm[p], p, d)
        for slot in range(n_slots):
            if s.slot_card[slot] < 0:
                continue
            g = _gain_bound(m, t, p, slot, d) - cost
            j = n  # insertion: decreasing bound, stable
            while j > 0 and ub[j - 1] < g:
                ub[j] = ub[j - 1]
                cand[j] = cand[j - 1]
                j -= 1
            ub[j] = g
            cand[j] = d * n_slots + slot
            n += 1
    m.sc[M_CAND_N] = n
    m.sc[M_CAND_FILL] = m.sc[M_FILL]


@njit(inline="always")
def _best_roll_pruned(s, m, t, p, n_anc, n_read, use_map, floor):
    """:func:`best_excavation` for a non-empty pool and no Expedition: the same
    answer, (die, slot) pairs looked at in decreasing order of an upper bound of
    their gain (:func:`_gain_bound`) and the rest skipped once no bound can beat
    the best found, or ``floor``. Ties go to the pair first in (die, slot) order,
    as in the plain loop.

    The bounds do not depend on the modifiers: the sorted pairs are kept for
    the other looks of the same decision (the same slot summary, ``M_FILL``)."""
    n_slots = s.sc[S_N_SLOTS]
    cand = m.cand
    ub = m.cand_ub
    if m.sc[M_CAND_FILL] != m.sc[M_FILL]:
        _sort_pairs(s, m, t, p)
    n = m.sc[M_CAND_N]
    best = -1e18
    best_i = -1
    best_d = -1
    best_slot = -1
    for i in range(n):
        if ub[i] + 1e-9 <= max(best, floor):
            break  # no pair left can beat the best or the floor (rounding margin included)
        d = cand[i] // n_slots
        slot = cand[i] % n_slots
        ev = _roll_ev(s, m, t, p, slot, d, n_anc, n_read, use_map)
        ev -= _die_cost(s, t, m.prm[p], p, d)
        if ev > best or (ev == best and cand[i] < best_i):
            best = ev
            best_i = cand[i]
            best_d = d
            best_slot = slot
    return best, best_d, best_slot


@njit
def choose_excavation(s, m, t, p):
    """``p``'s excavation choice ``(die, slot)``. Random draws only for the random
    strategy."""
    if m.strat[p] == Strategy.RANDOM:
        n_dice = s.die_slot.shape[1]
        n_free = 0
        die = -1
        for d in range(n_dice):
            if s.die_slot[p, d] < 0:
                n_free += 1
        if n_free > 0:
            k = rng_below(s.rng, n_free)
            for d in range(n_dice):
                if s.die_slot[p, d] < 0:
                    if k == 0:
                        die = d
                        break
                    k -= 1
        else:
            die = rng_below(s.rng, n_dice)
        return die, random_slot(s)
    if s.sc[S_TURN] - s.sc[S_LAST_CLAIM] >= STALL_TURNS and _pool_empty(s, p):
        m.sc[M_EXC_READY] = 0
        return break_stall(s, t, p)
    if m.sc[M_EXC_READY]:
        # the delver phase just evaluated this very state and played no card
        m.sc[M_EXC_READY] = 0
        return m.sc[M_EXC_DIE], m.sc[M_EXC_SLOT]
    _, d, slot = best_excavation(
        s,
        m,
        t,
        p,
        s.sc[S_ANCESTRAL],
        s.sc[S_READING],
        s.sc[S_MAP] > 0,
        s.sc[S_EXPEDITION] > 0,
        True,
        -1e18,
    )
    return d, slot


@njit(inline="always")
def _pool_empty(s, p):
    """Are all of ``p``'s dice on ruins?"""
    for d in range(s.die_slot.shape[1]):
        if s.die_slot[p, d] < 0:
            return False
    return True


@njit
def break_stall(s, t, p):
    """``(die, slot)`` when nobody has claimed anything for ``STALL_TURNS`` turns
    and ``p``'s dice are all on ruins: the evaluation can then settle on taking a
    die back and rolling it where it was, turn after turn, with every seat doing
    the same (seen at 2 players under The Gathering's -1). Real players would
    push a ruin over; so does this: ``p`` moves its biggest die not already
    there onto the ruin nearest its claim value (or rerolls its biggest die
    there, if all its dice are there)."""
    slot_totals(s)
    target = -1
    gap = -(1 << 30)
    for slot in range(s.sc[S_N_SLOTS]):
        card = s.slot_card[slot]
        if card >= 0 and s.totals[slot] - t.card_claim[card] > gap:
            gap = s.totals[slot] - t.card_claim[card]
            target = slot
    die = -1
    for away in (True, False):
        for d in range(s.die_slot.shape[1]):
            if (s.die_slot[p, d] != target) == away and (
                die < 0 or t.dice_faces[d] > t.dice_faces[die]
            ):
                die = d
        if die >= 0:
            break
    return die, target


@njit
def random_slot(s):
    """A uniformly random occupied slot (-1 if none)."""
    n = 0
    for slot in range(s.sc[S_N_SLOTS]):
        if s.slot_card[slot] >= 0:
            n += 1
    if n == 0:
        return -1
    k = rng_below(s.rng, n)
    for slot in range(s.sc[S_N_SLOTS]):
        if s.slot_card[slot] >= 0:
            if k == 0:
                return slot
            k -= 1
    return -1


@njit
def choose_expedition_slot(s, m, t, p, d, natural, n_anc, n_read):
    """Expedition: the slot for die ``d`` after seeing its natural roll."""
    if m.strat[p] == Strategy.RANDOM:
        return random_slot(s)
    fill_slot_cache(s, m, t, p)
    best = -1e18
    best_slot = -1
    for slot in range(s.sc[S_N_SLOTS]):
        if s.slot_card[slot] < 0:
            continue
        g = _face_gain(s, m, t, p, slot, d, natural, n_anc, n_read)
        if g > best:
            best = g
            best_slot = slot
    return best_slot


@njit
def choose_value(s, m, t, owner, slot, d, mask):
    """The final value the owner picks among the reachable ``mask`` for die ``d``
    (not yet on ``slot``). Random strategy: uniform among reachable values."""
    strat = m.strat[owner]
    prm = m.prm[owner]
    faces = t.dice_faces[d]
    n = 0
    first = -1
    for v in range(1, faces + 1):
        if (mask >> v) & 1:
            n += 1
            if first < 0:
                first = v
    if strat == Strategy.RANDOM and n > 1:
        k = rng_below(s.rng, n)
        for v in range(1, faces + 1):
            if (mask >> v) & 1:
                if k == 0:
                    return v
                k -= 1
    if n == 1 or strat == Strategy.RANDOM:
        return first
    fill_slot_cache(s, m, t, owner)
    best = -1e18
    best_v = -1
    for v in range(1, faces + 1):
        if (mask >> v) & 1:
            val = _cached_value(m.slot_cache, m.slot_base, prm, slot, faces, v)
            if val > best:
                best = val
                best_v = v
    return best_v


@njit
def choose_value_of_other(s, m, t, p, q, d, slot, mask):
    """The final value ``p`` picks among the reachable ``mask`` for another seat
    ``q``'s die ``d`` landing on ``slot`` (``p``'s card modifiers applied to it,
    ``Rulings.card_mods_on_forced_rerolls``): the best for ``p``. Random
    strategy: uniform among reachable values."""
    faces = t.dice_faces[d]
    n = 0
    for v in range(1, faces + 1):
        if (mask >> v) & 1:
            n += 1
    k = rng_below(s.rng, n) if m.strat[p] == Strategy.RANDOM and n > 1 else -1
    if k < 0:
        refresh_params(s, m, t, p)
    best = -1e18
    best_v = -1
    s.die_slot[q, d] = slot
    for v in range(1, faces + 1):
        if not (mask >> v) & 1:
            continue
        if k >= 0:
            if k == 0:
                best_v = v
            k -= 1
            continue
        val = _value_if(s, m, t, p, q, d, v)
        if val > best:
            best = val
            best_v = v
    s.die_slot[q, d] = -1  # still in the air: the caller places it
    return best_v


@njit
def want_reroll(s, m, t, owner, slot, d, natural, mask, card_mods_lost):
    """Ancient Map or Shattered Edifice: reroll die ``d`` (value options ``mask``)?

    Compares the best value now (with the stone of a natural 1-3) with the
    expected value of a fresh roll (which, for the Ancient Map, loses the card
    modifiers). The die is not on ``slot`` yet. Random strategy: a coin flip.
    """
    if m.strat[owner] == Strategy.RANDOM:
        return rng_below(s.rng, 2) == 1
    prm = m.prm[owner]
    faces = t.dice_faces[d]
    fill_slot_cache(s, m, t, owner)
    now = -1e18
    for v in range(1, faces + 1):
        if (mask >> v) & 1:
            now = max(now, _cached_value(m.slot_cache, m.slot_base, prm, slot, faces, v))
    now -= m.slot_base[slot, 0]
    if natural <= t.stone_faces_max and stone_available(s, slot):
        now += prm[P_W_STONE]
    n_anc = 0 if card_mods_lost else s.sc[S_ANCESTRAL]
    n_read = 0 if card_mods_lost else s.sc[S_READING]
    again = _roll_gain(s, m, t, owner, slot, d, n_anc, n_read)
    return again > now + 1e-9
