"""What a situation is worth to a seat: the evaluation every strategy decision uses.

Kernels of :mod:`analyzer.unearth.strategies` (its docstring gives the value of a
situation in points): the marginal worth of a ruin (:func:`ruin_worth`,
:func:`colour_worth`), the moment of the game (:func:`ruins_left`,
:func:`ring_closeness`, :func:`refresh_params`) and the standing at one ruin slot
(:func:`slot_info`, :func:`config_value`). Draw no random numbers.
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.unearth.claims import RANK_DICE, die_key
from analyzer.unearth.codes import CardKind
from analyzer.unearth.state import (
    S_DECK_LEN,
    S_DECK_POS,
    S_N_PLAYERS,
    S_N_SLOTS,
    bag_total,
)
from analyzer.unearth.strategy_params import (
    P_CARD_END,
    P_CARD_MIN,
    P_LEAD,
    P_RISK,
    P_STONE_RING,
    P_W_CARD,
    P_W_RUIN,
    P_W_STONE,
)
from analyzer.unearth.tableau import GRID, is_free


@njit(inline="always")
def ruin_worth(s, t, p, card, me):
    """Marginal points of ``card`` to seat ``p``. ``me``: True if ``p`` is the one
    deciding (sees its own hidden ruin); False counts only ``p``'s visible ruins."""
    kind = t.card_kind[card]
    if kind == CardKind.CITY:
        return float(t.card_points[card])
    if kind != CardKind.RUIN:
        return 0.0
    hid = -1
    if not me and s.hidden[p] >= 0:
        hid = t.card_colour[s.hidden[p]]
    return colour_worth(s, t, p, t.card_colour[card], hid)


@njit
def colour_worth(s, t, p, colour, hid=-1):
    """Marginal set points to ``p`` of one more ruin of ``colour``: the next
    ruin of that colour and any five-colour set it completes. ``hid``: a colour
    whose one ruin is not counted (another seat's hidden ruin, which the
    deciding seat cannot see; -1: none)."""
    have_c = 0
    lo_before = 1 << 20
    lo_after = 1 << 20
    for c in range(t.n_ruin_colours):
        cnt = s.held_colour[p, c] - (1 if c == hid else 0)
        if c == colour:
            have_c = cnt
        lo_before = min(lo_before, cnt)
        lo_after = min(lo_after, cnt + (1 if c == colour else 0))
    top = t.set_points.shape[0] - 1
    a = t.set_points[min(have_c + 1, top)] - t.set_points[min(have_c, top)]
    return float(a + (lo_after - lo_before) * t.five_colour_set)


@njit
def ruins_left(s):
    """Share of the game's cards not yet claimed or removed: those still in the
    ruins deck and those on the table, over the whole deck (1 at the start)."""
    on_table = 0
    for slot in range(s.sc[S_N_SLOTS]):
        if s.slot_card[slot] >= 0:
            on_table += 1
    n = s.sc[S_DECK_LEN]
    return min(1.0, (n - s.sc[S_DECK_POS] + on_table) / max(n, 1))


@njit
def ring_closeness(s, m, t, p):
    """How close ``p``'s best open ring is to closing: over the free cells whose
    six neighbours could all still take stones, ``(f - 2) / 3`` for the most
    stones ``f`` around one (0 below 3, 1 at 5), times 1.5 if those stones are
    one colour. Kept per seat until its tableau grows (``m.ring_n``); not kept
    while a ring just closed still waits for its wonder (asked by
    :func:`choose_named`): the free cell inside it is no open ring, and the
    cells next to it will not be once the wonder is there."""
    n_col = t.n_stone_colours
    total = 0
    for c in range(n_col):
        total += s.n_stones[p, c]
    if m.ring_n[p] == total:
        return m.ring_val[p]
    best = 0.0
    pending = False
    stone = s.stone[p]
    centre = s.centre[p]
    neigh = t.neigh
    box = s.box[p]
    if total > 0 and box[1] >= 0:
        for r in range(max(box[0] - 1, 0), min(box[1] + 2, GRID)):
            for q in range(max(box[2] - 1, 0), min(box[3] + 2, GRID)):
                cell = r * GRID + q
                if not is_free(stone, centre, cell):
                    continue
                ok, f, alike = _ring_around(stone, centre, neigh, cell)
                if ok and f == 6:
                    pending = True  # a ring closed this moment: its wonder is not placed yet
                    continue
                if not ok or f < 3:
                    continue
                v = (f - 2) / 3.0
                if alike:
                    v *= 1.5
                best = max(best, v)
    if not pending:  # kept only once every closed ring holds its wonder
        m.ring_n[p] = total
        m.ring_val[p] = best
    return best


@njit
def refresh_params(s, m, t, p):
    """Make ``m.prm[p]``, the row ``p``'s decisions use, its given row with the
    card and stone weights of this moment (``P_CARD_END``, ``P_STONE_RING``;
    the ruins left are taken in eighths, so the memo is renewed a few times a
    game, not every turn). With both 0 it is the given row."""
    g = m.given[p]
    e = m.prm[p]
    for i in range(g.shape[0]):
        e[i] = g[i]
    if g[P_CARD_END] != 0.0:
        left = np.floor(ruins_left(s) * 8.0) / 8.0
        f = max(0.0, 1.0 - g[P_CARD_END] * (1.0 - left))
        e[P_W_CARD] = g[P_W_CARD] * f
        e[P_CARD_MIN] = g[P_CARD_MIN] * f
    if g[P_STONE_RING] != 0.0:
        e[P_W_STONE] = g[P_W_STONE] + g[P_STONE_RING] * ring_closeness(s, m, t, p)


@njit(inline="always")
def _insert_rank(keys, n_keys, k):
    """Packed rank of the sorted key list ``keys[:n_keys]`` with key ``k`` added."""
    if n_keys == 0:  # the common case (no die of this seat there yet): k alone
        return np.int64(k) << (10 * (RANK_DICE - 1))
    rank = np.int64(0)
    i = 0
    used = False
    for _slot in range(RANK_DICE):
        if not used and (i >= n_keys or k > keys[i]):
            rank = rank * 1024 + k
            used = True
        elif i < n_keys:
            rank = rank * 1024 + keys[i]
            i += 1
        else:
            rank = rank * 1024
    return rank


@njit(inline="always")
def _push_key(keys, n, k):
    """Insert key ``k`` into the sorted (best first) ``keys[:n]``, which has room."""
    j = n
    while j > 0 and keys[j - 1] < k:
        keys[j] = keys[j - 1]
        j -= 1
    keys[j] = k


@njit(inline="always")
def _keep_best_two(r, seat, best, second, best_seat):
    """Fold rank ``r`` of ``seat`` into the best two ranks seen so far and the
    best one's seat (an equal rank does not displace an earlier seat)."""
    if r > best:
        return r, best, seat
    if r > second:
        return best, r, best_seat
    return best, second, best_seat


@njit
def slot_info(s, m, t, p, slot):
    """Summarise ``slot`` for seat ``p``.

    Writes ``p``'s dice keys there, best first, into ``m.keys`` and returns
    ``(total, n_mine, my_rank, best_other_rank, best_other_seat, other_tied)``,
    where ``other_tied`` is True if the two best other seats are equal.
    One pass over the dice sorts every seat's keys (at most ``RANK_DICE`` for
    the others, as :func:`~analyzer.unearth.claims.player_rank` counts them).
    """
    keys = m.keys
    n_players = s.sc[S_N_PLAYERS]
    other = m.seat_keys
    n_other = m.seat_n
    for q in range(n_players):
        n_other[q] = 0
    total = 0
    n_mine = 0
    for q in range(n_players):
        for d in range(s.die_slot.shape[1]):
            if s.die_slot[q, d] == slot:
                total += s.die_value[q, d]
                k = die_key(s.die_value[q, d], t.dice_faces[d])
                if q == p:
                    _push_key(keys, n_mine, k)
                    n_mine += 1
                elif n_other[q] < RANK_DICE:
                    _push_key(other[q], n_other[q], k)
                    n_other[q] += 1
    my_rank = _insert_rank(keys, n_mine, 0) if n_mine > 0 else np.int64(0)
    best = np.int64(0)
    second = np.int64(0)
    best_seat = -1
    for q in range(n_players):
        if q == p:
            continue
        r = _insert_rank(other[q], n_other[q], 0) if n_other[q] > 0 else np.int64(0)
        best, second, best_seat = _keep_best_two(r, q, best, second, best_seat)
    return total, n_mine, my_rank, best, best_seat, best > 0 and best == second


@njit(inline="always")
def _value(prm, worth_me, worth_best, total, claim, n_mine, my_rank, best, tied):
    """Value for the deciding seat of a slot configuration (module docstring);
    ``worth_best`` is the ruin's visible worth to the best other seat."""
    if total >= claim:
        if my_rank > best:
            return prm[P_W_RUIN] * worth_me
        if my_rank == best or tied:
            return prm[P_W_CARD] * n_mine
        return -prm[P_RISK] * worth_best + prm[P_W_CARD] * n_mine
    if my_rank > best:
        return prm[P_LEAD] * worth_me * total / claim
    return 0.0


@njit(inline="always")
def config_value(s, m, t, p, card, total, claim, n_mine, my_rank, best, best_seat, tied):
    """Value for ``p`` of a slot in the given configuration (see module docstring)."""
    prm = m.prm[p]
    worth_me = ruin_worth(s, t, p, card, True)
    worth_best = ruin_worth(s, t, best_seat, card, False) if best_seat >= 0 else 0.0
    return _value(prm, worth_me, worth_best, total, claim, n_mine, my_rank, best, tied)


@njit(inline="always")
def stone_available(s, slot):
    """True when a natural 1-3 on ``slot`` would give a stone (ruin or bag)."""
    for c in range(s.slot_stones.shape[1]):
        if s.slot_stones[slot, c] > 0:
            return True
    return bag_total(s) > 0


@njit(inline="always")
def _ring_around(stone, centre, neigh, cell):
    """``(ok, f, alike)`` of a possible ring centre ``cell``: ``ok`` if every
    neighbour is on the grid and none is a wonder (a ring could still close
    there), ``f`` the stones around it, ``alike`` if they are all one colour."""
    f = 0
    colour = -1
    alike = True
    for k in range(6):
        nb = neigh[cell, k]
        if nb < 0 or centre[nb] >= 0:
            return False, f, alike
        if stone[nb] >= 0:
            f += 1
            if colour < 0:
                colour = stone[nb]
            elif stone[nb] != colour:
                alike = False
    return True, f, alike


@njit(inline="always")
def _slot_value_for(s, m, t, p, slot):
    """Value of ``slot`` for ``p`` as its dice stand now."""
    card = s.slot_card[slot]
    total, n_mine, my, best, best_seat, tied = slot_info(s, m, t, p, slot)
    return config_value(
        s, m, t, p, card, total, t.card_claim[card], n_mine, my, best, best_seat, tied
    )


@njit(inline="always")
def _value_if(s, m, t, p, q, d, new_value):
    """Value for ``p`` of the ruin under die (q, d) if that die showed ``new_value``."""
    old = s.die_value[q, d]
    s.die_value[q, d] = new_value
    after = _slot_value_for(s, m, t, p, s.die_slot[q, d])
    s.die_value[q, d] = old
    return after
