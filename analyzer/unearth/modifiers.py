"""Roll modifiers, one module for the engine, the strategies and the exact odds.

``docs/games/unearth.md`` ("A turn": modifiers; "Delver cards"; the named
wonders) and ``docs/games/unearth.md`` ("Modifier timing", "Order of modifiers", "Any
number of modifiers"): which modifiers touch a roll (the end-of-age event's
roll modifier, Ancestral Claim, Reading the Stones, College, Columns,
Sanctuary; The Shattered Edifice's reroll is in :mod:`.rolls`), that each step
is clamped to ``1..faces``, and that every order is explored.

Kernels (engine and strategies): :func:`owns_effect`, :func:`reachable_values`,
:func:`_collect_mods` (the modifier groups of a roll, amounts read from the
rules tables) and :func:`_reach_search` (every order of the groups).

Plain Python (exact odds): :func:`roll_parameters` reads every modifier's
parameters from the rules (no value is held here) and :func:`reachable` is the
same any-order search for a list of mandatory amounts; they live in
:mod:`.roll_rules` (no numba, so ``analyzer odds`` starts fast) and are
imported here as before.
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.unearth.codes import Delver, WonderEffect
from analyzer.unearth.roll_rules import (  # noqa: F401 - importable from here as before
    ROLL_WONDERS,
    reachable,
    roll_parameters,
)
from analyzer.unearth.state import MOD_FIELDS, S_N_PLAYERS, S_ROLL_MOD, clamp

#: named-wonder effects that modify a roll (bitmask over WonderEffect codes)
_MODIFIER_EFFECTS = (
    (1 << int(WonderEffect.COLLEGE))
    | (1 << int(WonderEffect.COLUMNS))
    | (1 << int(WonderEffect.SANCTUARY))
)


@njit(inline="always")
def owns_effect(s, t, p, effect):
    """Index of the named wonder with ``effect`` that ``p`` owns, or -1."""
    if not (s.effects[p] >> effect) & 1:
        return -1
    for w in range(s.named_state.shape[0]):
        if s.named_state[w] == p and t.wonder_effect[w] == effect:
            return w
    return -1


@njit(inline="always")
def _no_modifiers(s, p, n_anc, n_read):
    """True when no modifier can touch ``p``'s next roll (values are the natural face)."""
    return (
        s.sc[S_ROLL_MOD] == 0
        and n_anc == 0
        and n_read == 0
        and not (s.effects[p] & _MODIFIER_EFFECTS)
    )


@njit(inline="always")
def reachable_values(s, t, owner, slot, faces, natural, n_anc, n_read):
    """Bitmask of the final values a roll can take (bit v set: value v reachable).

    The common case (no modifier at all) is answered inline; otherwise see
    :func:`_reachable_slow`. Draws no random numbers.
    """
    if _no_modifiers(s, owner, n_anc, n_read):
        return np.int64(1) << natural
    return _reachable_slow(s, t, owner, slot, faces, natural, n_anc, n_read)


@njit
def _reachable_slow(s, t, owner, slot, faces, natural, n_anc, n_read):
    """Bitmask of the final values a roll can take (bit v set: value v reachable).

    Modifiers: the event's roll modifier (mandatory), ``n_anc`` Ancestral Claim
    bonuses if the die has the card's faces (mandatory), ``n_read`` Reading the
    Stones (mandatory, sign chosen), and the owner's named wonders: College
    (optional, its dice only), Columns (optional), Sanctuary (optional, sign
    chosen, if the natural roll matches a value already on that ruin). They may
    be applied in any order, each result clamped to 1..faces; every order is
    explored. The groups are collected in ``s.mods`` (:func:`_collect_mods`).
    Draws no random numbers.
    """
    if _no_modifiers(s, owner, n_anc, n_read):
        return np.int64(1) << natural
    n = _collect_mods(s, t, owner, faces, n_anc, n_read)
    n = _add_sanctuary(s, t, owner, slot, natural, n)
    if n == 0:
        return np.int64(1) << natural
    return _reach_search(s, n, natural, faces)


@njit(inline="always")
def _push_mod(mods, n, delta, optional, signed, count):
    """Append a group of ``count`` identical modifiers to ``mods`` (see
    :func:`_collect_mods`); return the new number of groups."""
    if count <= 0:
        return n
    mods[MOD_FIELDS * n] = delta
    mods[MOD_FIELDS * n + 1] = optional
    mods[MOD_FIELDS * n + 2] = signed
    mods[MOD_FIELDS * n + 3] = count
    return n + 1


@njit
def _collect_mods(s, t, owner, faces, n_anc, n_read):
    """Write the modifiers of ``owner``'s next roll of a ``faces`` die into ``s.mods``
    (all but the Sanctuary, which depends on the face rolled); return how many
    groups. Identical modifiers form one group (every Ancestral Claim played,
    every Reading the Stones), so any number of them fits: at most
    :data:`~analyzer.unearth.state.MAX_MOD_GROUPS` groups.

    Group ``i``: ``mods[4*i]`` delta, ``mods[4*i+1]`` 1 if optional,
    ``mods[4*i+2]`` 1 if its sign is chosen, ``mods[4*i+3]`` how many.
    """
    mods = s.mods
    n = 0
    if s.sc[S_ROLL_MOD] != 0:
        n = _push_mod(mods, n, s.sc[S_ROLL_MOD], 0, 0, 1)
    anc_kind = -1
    read_kind = -1
    for k in range(t.delver_effect.shape[0]):
        if t.delver_effect[k] == Delver.ANCESTRAL_CLAIM:
            anc_kind = k
        elif t.delver_effect[k] == Delver.READING_THE_STONES:
            read_kind = k
    if anc_kind >= 0 and (t.delver_faces[anc_kind] == 0 or t.delver_faces[anc_kind] == faces):
        n = _push_mod(mods, n, t.delver_amount[anc_kind], 0, 0, n_anc)
    if read_kind >= 0:
        n = _push_mod(mods, n, t.delver_amount[read_kind], 0, 1, n_read)
    w = owns_effect(s, t, owner, WonderEffect.COLLEGE)
    if w >= 0 and (t.wonder_faces[w] == 0 or t.wonder_faces[w] == faces):
        n = _push_mod(mods, n, t.wonder_amount[w], 1, 0, 1)
    w = owns_effect(s, t, owner, WonderEffect.COLUMNS)
    if w >= 0:
        n = _push_mod(mods, n, t.wonder_amount[w], 1, 0, 1)
    return n


@njit
def _add_sanctuary(s, t, owner, slot, natural, n):
    """Append the owner's Sanctuary to ``s.mods`` if a natural ``natural`` on ``slot``
    matches a value already there; return the new count."""
    mods = s.mods
    w = owns_effect(s, t, owner, WonderEffect.SANCTUARY)
    if w >= 0 and slot >= 0:
        match = False
        n_players = s.sc[S_N_PLAYERS]
        for q in range(n_players):
            for d in range(s.die_slot.shape[1]):
                if s.die_slot[q, d] == slot and s.die_value[q, d] == natural:
                    match = True
        if match:
            n = _push_mod(mods, n, t.wonder_amount[w], 1, 1, 1)
    return n


@njit
def _reach_search(s, n, natural, faces):
    """Values reachable from ``natural`` applying the ``n`` modifier groups of
    ``s.mods`` (:func:`_collect_mods`) in any order, each step clamped to 1..faces.

    A search state is how many modifiers of each group were applied so far, in
    mixed radix (group ``j`` counts 0..count_j); applying one more of group
    ``j`` adds its stride, so states are finished in increasing order. The
    modifiers of one group are identical, so this explores exactly the orders
    of all modifiers, with prod(count_j + 1) states whatever their number.
    """
    mods = s.mods
    total = 1
    for j in range(n):
        total *= mods[MOD_FIELDS * j + 3] + 1
    reach = s.reach
    if total > reach.shape[0]:  # more modifiers than the work array was sized for
        reach = np.zeros(total, np.int64)
    for state in range(total):
        reach[state] = 0
    reach[0] = np.int64(1) << natural
    for state in range(total):
        cur = reach[state]
        if cur == 0:
            continue
        stride = 1
        for j in range(n):
            count = mods[MOD_FIELDS * j + 3]
            if (state // stride) % (count + 1) < count:
                nxt = state + stride
                delta = mods[MOD_FIELDS * j]
                for v in range(1, faces + 1):
                    if not (cur >> v) & 1:
                        continue
                    reach[nxt] |= np.int64(1) << clamp(v + delta, faces)
                    if mods[MOD_FIELDS * j + 2]:
                        reach[nxt] |= np.int64(1) << clamp(v - delta, faces)
                    if mods[MOD_FIELDS * j + 1]:
                        reach[nxt] |= np.int64(1) << v
            stride *= count + 1
    return reach[total - 1]
