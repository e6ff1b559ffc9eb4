"""Strategies: every decision a player makes, inside numba.

Implements the choices of ``docs/rules/unearth.md`` ("A turn", "Delver cards",
"Stones, rings and wonders"). A seat's strategy is an integer code
(:class:`Strategy`) plus a float64 parameter row (``P_*`` indices below):

- ``random``: uniform among the legal choices at every decision (dice, ruins,
  card plays and their targets, stone colours and cells, wonders, values).
- ``claimer``: the ruin path. The evaluation below with a row tuned for ruins
  (a stone's base worth ``w_stone`` searched only up to 1) and one rule of its own: it never puts a
  stone on a ring centre it could still close (3 or more stones around, no
  wonder next to it), unless every legal cell is one.
- ``collector``: the stone path. A row tuned under the constraint that at least
  a third of its points come from wonders (tokens, named wonders, the bonus).
- ``balanced``: the row tuned for the most wins, with nothing imposed.
- ``baseline``: ``balanced`` with the default parameters it shipped with until issue 12
  (:data:`BASELINE_PARAMS`), frozen: a yardstick for ratings across versions.
  The kernels treat it exactly as ``balanced`` (they only ask ``== RANDOM`` and
  ``== CLAIMER``).

The rows are data (``data/strategies.toml``, by player count, each with the
``analyzer tune`` command that made it; :mod:`analyzer.unearth.defaults`).

The value of a situation for seat ``p`` (in points, roughly):

- a ruin claimed by ``p``: ``W_RUIN * worth(p, ruin)`` (marginal set points,
  five-colour sets, city points; ``p`` knows its own hidden ruin);
- claimed by another seat ``w``: ``-RISK * worth(w, ruin)`` from what ``w`` shows
  (a strategy never sees another seat's hidden ruin) plus ``W_CARD`` per
  consolation card;
- not claimed: ``LEAD * worth(p, ruin) * total / claim`` if ``p`` leads there;
- a stone: ``W_STONE``, plus ``STONE_RING`` times how close ``p``'s best open
  ring is (:func:`ring_closeness`);
- a card kept: ``W_CARD``, falling towards 0 as the ruins run out (``CARD_END``).

Rolling the biggest die while other dice wait costs (or, negative, earns)
``BIG_DIE``. Named wonders are valued by their points and what they bring
(``WONDER_FIT``: the Memorial and Cenotaph by the ruins they can take, as far as
``p`` can know them, the Flame by the cards it will draw).

Strategies see only public information and their own hand/hidden ruin.
"""

from enum import IntEnum

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_below
from analyzer.unearth.claims import RANK_DICE, die_key
from analyzer.unearth.codes import CardKind, Delver, WonderEffect
from analyzer.unearth.defaults import BASELINE_ROW, PARAM_NAMES, STRATEGY_NAMES, default_row
from analyzer.unearth.memo import (
    GAIN_KEYS,
    M_CAND_FILL,
    M_CAND_N,
    M_CELLS_READY,
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
    S_DECK_LEN,
    S_DECK_POS,
    S_EXPEDITION,
    S_LAST_CLAIM,
    S_MAP,
    S_N_PLAYERS,
    S_N_SLOTS,
    S_READING,
    S_REMOVED_N,
    S_ROLL_MOD,
    S_TURN,
    STALL_TURNS,
    bag_total,
    clamp,
    slot_totals,
)
from analyzer.unearth.tableau import GRID, formula_ok, is_free, legal_cells_boxed


class Strategy(IntEnum):
    RANDOM = 0
    CLAIMER = 1
    COLLECTOR = 2
    BALANCED = 3
    BASELINE = 4  #: balanced's evaluation with the frozen BASELINE_PARAMS row
    #: balanced's evaluation, its excavation rolls chosen by rollouts (:mod:`.search`;
    #: the kernels here treat it as balanced)
    SEARCH = 5


P_W_RUIN = 0  #: weight of a ruin's worth when I claim it
P_W_STONE = 1  #: points a stone is worth
P_RISK = 2  #: weight of an opponent's gain when I hand them a claim
P_LEAD = 3  #: weight of leading on an unclaimed ruin
P_W_CARD = 4  #: points a delver card in hand is worth
P_CARD_MIN = 5  #: smallest one-step gain (points) for which a card is played
P_PLACE = 6  #: stone placement: 0 compact, 1 plan rings
P_NAMED = 7  #: extra points credited to a named wonder with an ability
#: how much a card's worth (``w_card``, and the bar ``card_min`` a play must
#: clear) falls as the ruins run out: times ``1 - card_end * (1 - left)``,
#: ``left`` the share of the game's ruins not yet claimed (0: never falls)
P_CARD_END = 8
#: extra points of a stone when the seat's best open ring is nearly closed:
#: times 0 (2 or fewer stones around it) to 1 (5 around), 1.5 times that if
#: they are all one colour (a greater wonder)
P_STONE_RING = 9
#: points of rolling the seat's biggest die (the d8) while it has other dice to
#: roll: what that die is worth later in the round (0: nothing)
P_BIG_DIE = 10
#: named wonders valued by what they will bring (0: the flat credits of
#: ``baseline``; 1: the Memorial and Cenotaph by the ruins they can take, the
#: Flame by the cards it will draw; between: a blend of the two credits, and
#: above 0.5 a tie with the token goes to the wonder)
P_WONDER_FIT = 11
N_PARAMS = 12

#: ``baseline``'s parameter row: ``balanced``'s defaults as shipped before any
#: tuning, frozen. Never tune or edit it: ratings of every version are measured
#: against it (a new yardstick needs a new strategy name). Its last four columns
#: are 0: with them, the evaluation is the one it shipped with.
BASELINE_PARAMS = BASELINE_ROW
assert len(BASELINE_PARAMS) == N_PARAMS == len(PARAM_NAMES)


def default_params(players: int) -> np.ndarray:
    """float64[strategies, N_PARAMS]: every strategy's default row (Strategy
    order) at ``players`` seats, from ``data/strategies.toml``."""
    return np.array([default_row(name, players) for name in STRATEGY_NAMES], np.float64)


#: the default rows at 4 players (tests and tools that want one table)
DEFAULT_PARAMS = default_params(4)

#: strategies that take no ``strategy_params`` (their rows are frozen)
FROZEN_STRATEGIES = ("baseline",)

# ====================================================================== worth


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


# ====================================================================== the moment of the game


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


# ====================================================================== slot analysis


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


# ====================================================================== excavation


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


# ====================================================================== stones


@njit
def score_cells(s, m, t, p, n_cells):
    """Ring-planning score of a stone of each colour on each of the ``n_cells``
    cells ``m.cells[:n_cells]`` of ``p``'s tableau: ``m.cellval[i * n_col + c]``
    for cell ``i`` and colour ``c``, one look at each cell's neighbourhood for all
    colours.

    For each free neighbour (a possible ring centre) with ``f`` stones around it
    counting the new one, ``s`` of them of the colour: ``f²``, +30 if the ring
    closes, +0.6·s² if all ``f`` share the colour (greater wonders); minus 1.5·a²
    when ``a >= 3`` stones already touch the cell (a stone there spoils a ring
    centre). Slow twin: ``tests/naive.py::naive_cell_score``."""
    neigh = t.neigh
    cells = m.cells
    out = m.cellval
    n_col = t.n_stone_colours
    stone = s.stone[p]
    centre = s.centre[p]
    filled = m.filled
    hist = m.hist  # hist[k * 8 + c]: colour-c stones around the k-th neighbour
    for i in range(n_cells):
        cell = cells[i]
        for k in range(6):
            filled[k] = 0
            c = np.int64(neigh[cell, k])
            if c < 0 or not is_free(stone, centre, c):
                continue
            for col in range(n_col):
                hist[k * 8 + col] = 0
            n = 1
            ok = True
            for j in range(6):
                nb = neigh[c, j]
                if nb < 0:
                    ok = False
                    break
                if nb == cell:
                    continue
                if stone[nb] >= 0:
                    n += 1
                    hist[k * 8 + stone[nb]] += 1
            if ok:
                filled[k] = n
        around = 0
        for k in range(6):
            nb = neigh[cell, k]
            if nb >= 0 and stone[nb] >= 0:
                around += 1
        for col in range(n_col):
            score = 0.0
            for k in range(6):
                f = filled[k]
                if f == 0:
                    continue
                same = 1 + hist[k * 8 + col]
                score += f * f
                if f == 6:
                    score += 30.0
                if same == f:
                    score += 0.6 * same * same
            if around >= 3:
                score -= around * around * 1.5
            out[i * n_col + col] = score


@njit(inline="always")
def _open_centre(s, t, p, cell):
    """Is the free ``cell`` the centre of a ring ``p`` could still close, with 3
    or more of its stones already around it? (Every neighbour on the grid and
    none a wonder.)"""
    ok, f, _ = _ring_around(s.stone[p], s.centre[p], t.neigh, cell)
    return ok and f >= 3


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


@njit
def claimer_cells(s, m, t, p, n):
    """The claimer never fills a ring centre it could close: ``m.cellok[i]`` is 0
    for the cells ``m.cells[:n]`` that are such centres, 1 for the others, all 1
    when every cell is one (a stone must go somewhere). Returns how many are 1."""
    ok = 0
    for i in range(n):
        m.cellok[i] = 0 if _open_centre(s, t, p, m.cells[i]) else 1
        ok += m.cellok[i]
    if ok == 0:
        for i in range(n):
            m.cellok[i] = 1
        ok = n
    return ok


@njit
def choose_cell(s, m, t, p, colour):
    """Where ``p`` puts a new ``colour`` stone (always a legal cell).

    Ring planners reuse the scores :func:`choose_colour` left in ``m.cellval``
    for this very tableau (``M_CELLS_READY``).
    """
    prm = m.prm[p]
    neigh = t.neigh
    cells = m.cells
    ready = m.sc[M_CELLS_READY]
    m.sc[M_CELLS_READY] = 0
    if ready > 0 and prm[P_PLACE] > 0.5:
        n = ready
    else:
        n = legal_cells_boxed(s.stone[p], s.centre[p], neigh, s.box[p], cells)
    if n == 1:
        return cells[0]
    if m.strat[p] == Strategy.RANDOM:
        return cells[rng_below(s.rng, n)]
    claimer = m.strat[p] == Strategy.CLAIMER
    if claimer:
        claimer_cells(s, m, t, p, n)
    best = -1e18
    best_cell = cells[0]
    if prm[P_PLACE] > 0.5:
        n_col = t.n_stone_colours
        if ready == 0:
            score_cells(s, m, t, p, n)
        for i in range(n):
            if claimer and m.cellok[i] == 0:
                continue
            sc = m.cellval[i * n_col + colour]
            if sc > best:
                best = sc
                best_cell = cells[i]
        return best_cell
    for i in range(n):
        if claimer and m.cellok[i] == 0:
            continue
        cell = cells[i]
        sc = 0.0
        for k in range(6):
            nb = neigh[cell, k]
            if nb >= 0 and s.stone[p, nb] >= 0:
                sc += 1.0
        if sc > best:
            best = sc
            best_cell = cell
    return best_cell


@njit
def choose_colour(s, m, t, p):
    """Which colour ``p`` takes among the stones on offer, ``s.offer``
    (int[n_colours] counts, some > 0).

    Ring planners score every legal cell for every colour (:func:`score_cells`)
    and leave the cells in ``m.cells`` and the scores in ``m.cellval`` for
    :func:`choose_cell`, which places the stone next.
    """
    prm = m.prm[p]
    avail = s.offer
    n_col = t.n_stone_colours
    n = 0
    for c in range(n_col):
        if avail[c] > 0:
            n += 1
    if m.strat[p] == Strategy.RANDOM:
        k = rng_below(s.rng, n)
        for c in range(n_col):
            if avail[c] > 0:
                if k == 0:
                    return c
                k -= 1
    best = -1e18
    best_c = -1
    n_cells = 0
    claimer = m.strat[p] == Strategy.CLAIMER
    if prm[P_PLACE] > 0.5:  # the cells do not depend on the colour
        n_cells = legal_cells_boxed(s.stone[p], s.centre[p], t.neigh, s.box[p], m.cells)
        score_cells(s, m, t, p, n_cells)
        m.sc[M_CELLS_READY] = n_cells
        if claimer:
            claimer_cells(s, m, t, p, n_cells)
    for c in range(n_col):
        if avail[c] == 0:
            continue
        sc = 0.1 * s.n_stones[p, c]  # build on the colour you have most of
        if prm[P_PLACE] > 0.5:
            top = -1e18
            for i in range(n_cells):
                if not claimer or m.cellok[i] == 1:
                    top = max(top, m.cellval[i * n_col + c])
            sc += top
        # named wonders still to be had that want this colour
        for w in range(s.named_state.shape[0]):
            if s.named_state[w] == -1 and t.wonder_colour[w] == c and may_build(m, p, w):
                sc += 0.5
        if sc > best:
            best = sc
            best_c = c
    return best_c


@njit(inline="always")
def may_build(m, p, w):
    """False when an intervention forbids seat ``p`` named wonder ``w`` (``m.forbid``)."""
    return (m.forbid[p] >> w) & 1 == 0


@njit
def choose_named(s, m, t, p, all_same):
    """When ``p`` completes a ring with colour counts ``s.ring_counts``: a named
    wonder index, or -1 to take a token. Random strategy: uniform among the options.
    A wonder forbidden to ``p`` (``m.forbid``) is no option: with none left the
    seat takes the token, as when no named wonder fits."""
    prm = m.prm[p]
    counts = s.ring_counts
    n_col = t.n_stone_colours
    n_opt = 0
    for w in range(s.named_state.shape[0]):
        if (
            s.named_state[w] == -1
            and may_build(m, p, w)
            and formula_ok(
                t.wonder_formula[w], t.wonder_colour[w], t.wonder_count[w], counts, n_col
            )
        ):
            n_opt += 1
    if n_opt == 0:
        return -1
    if m.strat[p] == Strategy.RANDOM:
        k = rng_below(s.rng, n_opt + 1)
        for w in range(s.named_state.shape[0]):
            if (
                s.named_state[w] == -1
                and may_build(m, p, w)
                and formula_ok(
                    t.wonder_formula[w], t.wonder_colour[w], t.wonder_count[w], counts, n_col
                )
            ):
                if k == 0:
                    return w
                k -= 1
        return -1
    refresh_params(s, m, t, p)
    fit = prm[P_WONDER_FIT]
    # expected token value
    pile = t.greater_values if all_same else t.lesser_values
    token = 0.0
    for i in range(pile.shape[0]):
        token += pile[i]
    token = token / max(pile.shape[0], 1)
    best = token
    best_w = -1
    pile_done = False  # the pile's worths, worked out when a wonder on offer needs them
    memorial = 0.0
    cenotaph = 0.0
    for w in range(s.named_state.shape[0]):
        if (
            s.named_state[w] != -1
            or not may_build(m, p, w)
            or not formula_ok(
                t.wonder_formula[w], t.wonder_colour[w], t.wonder_count[w], counts, n_col
            )
        ):
            continue
        v = float(t.wonder_points[w])
        eff = t.wonder_effect[w]
        if t.wonder_colour[w] >= 0 and t.wonder_points[w] == 0:
            v += s.n_stones[p, t.wonder_colour[w]] + 2.0  # a temple: stones now and to come
        elif eff == WonderEffect.TOMB:
            v += 3.5
        elif eff == WonderEffect.FOUNTAIN:
            lo = s.n_stones[p, 0]
            for c in range(1, n_col):
                lo = min(lo, s.n_stones[p, c])
            v += 2.0 * lo + 2.0
        elif eff == WonderEffect.CENOTAPH or eff == WonderEffect.MEMORIAL:
            flat = 4.0 if s.sc[S_REMOVED_N] > 0 else 0.0
            if fit != 0.0 and not pile_done:
                memorial, cenotaph = _removed_worth(s, t, p)
                pile_done = True
            fitted = memorial if eff == WonderEffect.MEMORIAL else cenotaph
            v += (1.0 - fit) * flat + fit * fitted
        elif eff == WonderEffect.FLAME:
            n = s.sc[S_N_PLAYERS]
            # a claim on a ruin where p has no dice: about (n - 1) / n of those left
            flame = ruins_left(s) * s.sc[S_DECK_LEN] * (n - 1.0) / n * prm[P_W_CARD]
            v += (1.0 - fit) * prm[P_NAMED] + fit * flame
        elif eff != WonderEffect.NONE:
            v += prm[P_NAMED]
        if v > best or (fit > 0.5 and v == best and best_w < 0):
            best = v
            best_w = w
    return best_w


@njit
def _removed_worth(s, t, p):
    """What a ruin from the pile set aside at set-up is worth to ``p`` as far as
    ``p`` can know: the pile is a random part of the ruins ``p`` has not seen
    (neither held openly, on the table, removed by a tie, nor its own hidden
    one). Returns the
    expected best of the pile (the Memorial picks one) and the expected worth of
    a random one (the Cenotaph), exactly over the pile's possible contents."""
    n_col = t.n_ruin_colours
    k = s.sc[S_REMOVED_N]
    if k <= 0:
        return 0.0, 0.0
    unseen = np.zeros(n_col, np.int64)
    for c in range(t.card_kind.shape[0]):
        if t.card_kind[c] == CardKind.RUIN:
            unseen[t.card_colour[c]] += 1
    for q in range(s.sc[S_N_PLAYERS]):
        for c in range(n_col):
            unseen[c] -= s.held_colour[q, c]
        if q != p and s.hidden[q] >= 0:
            unseen[t.card_colour[s.hidden[q]]] += 1  # another seat's hidden ruin: unseen
    for slot in range(s.sc[S_N_SLOTS]):
        card = s.slot_card[slot]
        if card >= 0 and t.card_kind[card] == CardKind.RUIN:
            unseen[t.card_colour[card]] -= 1
    for c in range(n_col):
        unseen[c] -= s.boxed_colour[c]  # removed by unbreakable ties, in view of all
    worth = np.zeros(n_col, np.float64)
    for c in range(n_col):
        unseen[c] = max(unseen[c], 0)
        worth[c] = colour_worth(s, t, p, c)
    return pile_worth(unseen, worth, k)


@njit
def pile_worth(count, worth, k):
    """A pile of ``k`` cards drawn at random, without replacement, from a pool
    holding ``count[c]`` cards worth ``worth[c]`` (>= 0) each: returns the expected
    worth of its best card and of a random card of it. Exact: E[max] is the sum
    over worth levels ``w`` of (w - the next lower level) * P(max >= w), with
    P(max >= w) = 1 - C(N - A, k) / C(N, k), ``A`` the cards worth ``w`` or more.
    Slow twin: ``tests/naive.py::naive_pile_worth`` (every pile, fractions)."""
    n_col = count.shape[0]
    n = 0
    mean = 0.0
    for c in range(n_col):
        n += count[c]
        mean += count[c] * worth[c]
    if n == 0 or k <= 0:
        return 0.0, 0.0
    mean /= n
    k = min(k, n)
    top = 0.0
    for c in range(n_col):  # each worth level once (a handful of colours: no sort)
        w = worth[c]
        seen = False
        for e in range(c):
            seen = seen or worth[e] == w
        if seen or w <= 0.0:
            continue
        above = 0
        lower = 0.0
        for e in range(n_col):
            if worth[e] >= w:
                above += count[e]
            elif worth[e] > lower:
                lower = worth[e]
        none = 1.0
        for j in range(k):
            none *= max(n - above - j, 0) / (n - j)
        top += (w - lower) * (1.0 - none)
    return top, mean


@njit
def choose_memorial(s, m, t, p):
    """Crumbling Memorial: index into ``removed`` of the ruin ``p`` takes."""
    n = s.sc[S_REMOVED_N]
    if m.strat[p] == Strategy.RANDOM:
        return rng_below(s.rng, n)
    best = -1e18
    best_i = 0
    for i in range(n):
        v = ruin_worth(s, t, p, s.removed[i], True)
        if v > best:
            best = v
            best_i = i
    return best_i


# ====================================================================== delver phase


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
            if s.hand[p, k] > 0 and _legal(s, t, k, p, dice_on, band_used):
                n_opt += 1
        r = rng_below(s.rng, n_opt)
        if r == 0:
            return -1, -1, -1
        r -= 1
        for k in range(n_kinds):
            if s.hand[p, k] > 0 and _legal(s, t, k, p, dice_on, band_used):
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
        if s.hand[p, k] == 0 or not _legal(s, t, k, p, dice_on, band_used):
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


@njit
def _legal(s, t, k, p, dice_on, band_used):
    """Can ``p`` play a card of kind ``k`` now? It must be able to do something
    (``docs/rulings.md``): Forlorn, Lost in the Ruins, A New Discovery and
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
