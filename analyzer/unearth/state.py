"""The state of one game of Unearth as arrays, and the small operations on it.

A :class:`State` is a NamedTuple of numpy arrays allocated once per batch (for
the largest player count asked) and reset for every game. Scalars that change
during play live in ``sc`` (int64), indexed by the ``S_*`` constants; per-seat
counters live in ``st`` indexed by ``ST_*``. ``-1`` is the empty sentinel in
every array of indices or colours.

Served here (``docs/rules/unearth.md``, "Set-up", "A turn", "Delver cards"): the
stone bag and ruin stones, the delver deck (draws and the reshuffle), dice on ruins.
"""

from typing import NamedTuple

import numpy as np

from analyzer.jit import njit
from analyzer.kernel_view import borrowed
from analyzer.rng import QUEUE_WORDS, rng_below, rng_shuffle
from analyzer.unearth.codes import Delver
from analyzer.unearth.tableau import N_CELLS

# ------------------------------------------------------------------ scalar slots
S_DECK_POS = 0  #: next card of ``ruin_deck`` to reveal
S_DECK_LEN = 1  #: cards in ``ruin_deck`` (the end-of-age card last)
S_DDECK_N = 2  #: cards left in the delver draw pile ``ddeck[:n]`` (top = last)
S_LESSER_POS = 3  #: next lesser token in ``lesser``
S_GREATER_POS = 4  #: next greater token in ``greater``
S_ROLL_MOD = 5  #: modifier of every die rolled (The Gathering / Festival)
S_TURN = 6  #: game turn counter (0-based)
S_EOA = 7  #: card index of this game's end-of-age card
S_REMOVED_N = 8  #: ruins in ``removed`` (set aside at set-up)
S_N_PLAYERS = 9
S_N_SLOTS = 10  #: ruin slots on the table
S_CUR = 11  #: seat whose turn it is
S_ANCESTRAL = 12  #: pending Ancestral Claim bonuses of the current player
S_READING = 13  #: pending Reading the Stones of the current player
S_MAP = 14  #: Ancient Map armed for the excavation roll
S_EXPEDITION = 15  #: Expedition armed for the excavation roll
S_BAND = 16  #: Band of Delvers played this turn (a second excavation)
S_OVER = 17  #: 1 once no ruin is left on the table
S_GAME = 18  #: global game index (for the claims log)
S_TRACE_N = 19  #: events written to the trace
S_BOXED_N = 20  #: ruins removed from the game by unbreakable ties
S_ABORTED = 21  #: 1 if the game hit the turn cap (never expected)
S_EXC_READY = 22  #: 1: the delver phase left the excavation choice in S_EXC_DIE/S_EXC_SLOT
S_EXC_DIE = 23
S_EXC_SLOT = 24
S_CELLS_READY = 25  #: > 0: choose_colour left that many scored cells for choose_cell
S_FILL = 26  #: slot summaries made so far (strategies.fill_slot_cache)
S_CAND_FILL = 27  #: the summary the sorted excavation pairs in ``cand`` belong to (-1 none)
S_CAND_N = 28  #: how many pairs ``cand`` holds
N_SCALARS = 29

# ------------------------------------------------------------------ per-seat stats
ST_DRAWN = 0  #: delver cards drawn after set-up (consolation, events, Eternal Flame)
ST_PLAYED = 1
ST_CLAIMS = 2  #: ruins claimed during play
ST_TURNS = 3
ST_PLAYED_KIND = 4  #: + kind: cards of each kind played
N_STATS_BASE = 4

# ------------------------------------------------------------------ trace events
#: trace rows are int32[8]: (event, turn, seat, a, b, c, d, e)
EV_SETUP_RUIN = 1  #: reserved (set-up reveals are logged as EV_REVEAL)
#: seat rolled; a=die, b=slot, c=natural, d=final, e=kind (0 excavation, 1 reroll);
#: kind 2 (Ancient Map) and 3 (The Shattered Edifice): a reroll offered, d=1 taken, 0 kept
EV_ROLL = 2
EV_STONE = 3  #: a=colour, b=cell, c=source (0 ruin, 1 bag)
EV_WONDER = 4  #: a=centre cell, b=kind (WonderKind), c=named index or token value
EV_CLAIM = 5  #: a=slot, b=card, c=winner (-2 tie), d=total
EV_REVEAL = 6  #: a=slot, b=card
EV_PLAY = 7  #: a=delver kind, b=target a, c=target b
EV_DRAW = 8  #: a=delver kind
EV_EVENT = 9  #: a=card
EV_END = 10  #: one per seat: a=score, b=win share * 1000
EV_TAKE_BACK = 11  #: a=die, b=slot
EV_TAKE_RUIN = 12  #: a set-aside ruin taken by a named wonder: a=card, b=wonder

MAX_TURNS = 2000  #: safety cap; a game reaching it is flagged in S_ABORTED
MAX_FORCED = 64  #: room for forced chance outcomes in ``rng`` (tests; analyzer.rng)
GAIN_KEYS = 6  #: modifier settings memoised per seat (one more row set is scratch)
MOD_FIELDS = 4  #: a group of identical roll modifiers: delta, optional, signed, count
#: groups a roll can have: the event, Ancestral Claims, Reading the Stones,
#: College, Columns, Sanctuary (modifiers._collect_mods)
MAX_MOD_GROUPS = 6
SIG_INTS = 13  #: integers of a slot summary the slot values depend on (slot_cache[:13])


class State(NamedTuple):
    """Arrays of one game (see module docstring); all integers int64. P seats, D dice per seat."""

    sc: np.ndarray  #: int64[N_SCALARS]
    rng: np.ndarray  #: uint64[4] xoshiro256** state of this game
    ruin_deck: np.ndarray  #: int64[n_cards] cards to reveal, in order
    removed: np.ndarray  #: int64[n_cards] ruins set aside unseen at set-up
    slot_card: np.ndarray  #: int64[max slots] card in each slot, -1 empty
    slot_stones: np.ndarray  #: int64[max slots, n_colours] stones on each ruin
    bag: np.ndarray  #: int64[n_colours] stones in the bag
    die_slot: np.ndarray  #: int64[P, D] slot a die is on, -1 in the pool
    die_value: np.ndarray  #: int64[P, D] value showing (when on a slot)
    ddeck: np.ndarray  #: int64[n delver cards] draw pile of delver kinds
    ddisc: np.ndarray  #: int64[K] discards by kind
    hand: np.ndarray  #: int64[P, K] cards in hand by kind
    stone: np.ndarray  #: int64[P, N_CELLS] tableau stones (colour or -1)
    centre: np.ndarray  #: int64[P, N_CELLS] wonder centres (WonderKind or -1)
    n_stones: np.ndarray  #: int64[P, n_colours] stones in each tableau by colour
    lesser: np.ndarray  #: int64[n_lesser] shuffled lesser token values
    greater: np.ndarray  #: int64[n_greater] shuffled greater token values
    named_state: np.ndarray  #: int64[n_named] -2 not in play, -1 in play, else owner seat
    tokens: np.ndarray  #: int64[P, 3] lesser built, greater built, token points
    held: np.ndarray  #: int64[P, n_cards] cards of the ruins deck each seat holds
    hidden: np.ndarray  #: int64[P] each seat's face-down ruin (seen by its owner only)
    held_colour: np.ndarray  #: int64[P, n_ruin_colours] ruins held by colour (hidden included)
    effects: np.ndarray  #: int64[P] bitmask of WonderEffect codes of the named wonders owned
    slot_cache: np.ndarray  #: int64[max slots, 16] per-slot summary for the deciding seat
    slot_base: np.ndarray  #: float64[max slots, 3] value now, worth to me, worth to the best other
    seat_stats: np.ndarray  #: int64[P, N_STATS_BASE + K] counters
    trace: np.ndarray  #: int64[max events, 8] replay log (only when tracing)
    scratch: np.ndarray  #: int64[320] scratch space for kernels (regions fixed by their users)
    cellbuf: np.ndarray  #: int64[N_CELLS] candidate cells for stone placement
    reach: np.ndarray  #: int64 work space of the reachable-values search (reach_size)
    mods: np.ndarray  #: int64[MOD_FIELDS * MAX_MOD_GROUPS]: the modifier groups of a roll
    marked: np.ndarray  #: int64[P * D] dice marked by Forgotten Song
    gkeys: np.ndarray  #: int64[P, GAIN_KEYS] face-gain memo: each seat's modifier keys (-1 free)
    gstamp: np.ndarray  #: int64[P, GAIN_KEYS + 1, D, max slots] 2 * slot version + stone, per row
    gtab: np.ndarray  #: float64[P * (GAIN_KEYS + 1) * D * max slots, 16] memoised face gains
    vstamp: np.ndarray  #: int64[P, D, max slots] slot version of each row of ``vtab``
    vtab: np.ndarray  #: float64[P, D, max slots, 16] memoised slot values by die value
    slot_sig: np.ndarray  #: int64[P, max slots, SIG_INTS] each seat's last summary of each slot
    slot_sigf: np.ndarray  #: float64[P, max slots, 2] and the ruin's worths in it
    slot_ver: np.ndarray  #: int64[P, max slots] bumped when a seat's summary of a slot changes
    env: np.ndarray  #: int64[P, 3] a seat's roll-modifier setting: effects, roll modifier, version
    env_prm: np.ndarray  #: float64[P, 16] the parameter row the seat's memo was made with
    seat_keys: (
        np.ndarray
    )  #: int64[P, 8] work space (RANK_DICE used): each seat's dice keys on a ruin
    seat_n: np.ndarray  #: int64[P] how many keys of each seat in ``seat_keys``
    mstamp: np.ndarray  #: int64[P, GAIN_KEYS + 1, D] ``env`` version of each row of ``mtab``
    mtab: np.ndarray  #: int64[P, GAIN_KEYS + 1, D, 16] memoised reachable-value masks by face
    fscratch: np.ndarray  #: float64[32] float scratch (strategies.die_values)
    cand: np.ndarray  #: int64[D * max slots] (die, slot) pairs in best_excavation's order
    cand_ub: np.ndarray  #: float64[D * max slots] their gain bounds
    ddone: np.ndarray  #: int64[P * D] bit v set: ``dvals`` holds this die's value for face v
    dvals: np.ndarray  #: float64[P * D, 16] die_values of the current delver-phase decision
    box: np.ndarray  #: int64[P, 4] bounding box of each tableau's stones (tableau.grow_box)
    cellmark: np.ndarray  #: int64[N_CELLS] work space (flood fill of the invariant check)
    cellval: np.ndarray  #: float64[N_CELLS] stone planning: score of each candidate cell
    slot_tot: np.ndarray  #: int64[max slots] dice total on each ruin (choose_play)
    vgain: np.ndarray  #: float64[16] Forgotten Song: the gain of naming each value (choose_play)
    vhit: np.ndarray  #: int64[16] 1: some die on a ruin shows that value
    dice_cfg: np.ndarray  #: int64[max slots, 2] the dice on each slot, packed (fill_slot_cache)
    slot_cfg: np.ndarray  #: int64[P, max slots, 3] packed dice and card at each seat's last summary
    slot_stone: np.ndarray  #: int64[max slots] 1: a stone is to be had there (choose_play)


def reach_size(t) -> int:
    """States of the reachable-values search when every Ancestral Claim and
    Reading the Stones of the deck is played on one roll, with the event and
    three named wonders: ``2 * (anc + 1) * (read + 1) * 2**3`` (more, in a turn
    that reshuffles played cards back, is searched in a temporary array)."""
    anc = int(t.delver_copies[t.delver_effect == Delver.ANCESTRAL_CLAIM].sum())
    read = int(t.delver_copies[t.delver_effect == Delver.READING_THE_STONES].sum())
    return 2 * (anc + 1) * (read + 1) * 8


def new_state(t, n_players: int, trace_rows: int = 0) -> State:
    """Allocate a :class:`State` for ``n_players`` seats under rules tables ``t``."""
    n_cards = t.card_kind.shape[0]
    n_col = t.n_stone_colours
    n_dice = t.dice_faces.shape[0]
    k = t.delver_copies.shape[0]
    max_slots = int(t.revealed_by_players.max())
    return State(
        sc=np.zeros(N_SCALARS, np.int64),
        rng=np.zeros(QUEUE_WORDS + MAX_FORCED, np.uint64),
        ruin_deck=np.full(n_cards, -1, np.int64),
        removed=np.full(n_cards, -1, np.int64),
        slot_card=np.full(max_slots, -1, np.int64),
        slot_stones=np.zeros((max_slots, n_col), np.int64),
        bag=np.zeros(n_col, np.int64),
        die_slot=np.full((n_players, n_dice), -1, np.int64),
        die_value=np.zeros((n_players, n_dice), np.int64),
        ddeck=np.zeros(max(int(t.delver_copies.sum()), 1), np.int64),
        ddisc=np.zeros(k, np.int64),
        hand=np.zeros((n_players, k), np.int64),
        stone=np.full((n_players, N_CELLS), -1, np.int64),
        centre=np.full((n_players, N_CELLS), -1, np.int64),
        n_stones=np.zeros((n_players, n_col), np.int64),
        lesser=np.zeros(max(t.lesser_values.shape[0], 1), np.int64),
        greater=np.zeros(max(t.greater_values.shape[0], 1), np.int64),
        named_state=np.full(t.wonder_points.shape[0], -2, np.int64),
        tokens=np.zeros((n_players, 3), np.int64),
        held=np.zeros((n_players, n_cards), np.int64),
        hidden=np.full(n_players, -1, np.int64),
        held_colour=np.zeros((n_players, t.n_ruin_colours), np.int64),
        effects=np.zeros(n_players, np.int64),
        slot_cache=np.zeros((max_slots, 16), np.int64),
        slot_base=np.zeros((max_slots, 3), np.float64),
        seat_stats=np.zeros((n_players, N_STATS_BASE + k), np.int64),
        trace=np.zeros((max(trace_rows, 1), 8), np.int64),
        scratch=np.zeros(320, np.int64),
        cellbuf=np.zeros(N_CELLS, np.int64),
        reach=np.zeros(reach_size(t), np.int64),
        mods=np.zeros(MOD_FIELDS * MAX_MOD_GROUPS, np.int64),
        marked=np.zeros(n_players * n_dice, np.int64),
        gkeys=np.full((n_players, GAIN_KEYS), -1, np.int64),
        gstamp=np.full((n_players, GAIN_KEYS + 1, n_dice, max_slots), -1, np.int64),
        gtab=np.zeros((n_players * (GAIN_KEYS + 1) * n_dice * max_slots, 16), np.float64),
        vstamp=np.full((n_players, n_dice, max_slots), -1, np.int64),
        vtab=np.zeros((n_players, n_dice, max_slots, 16), np.float64),
        slot_sig=np.zeros((n_players, max_slots, SIG_INTS), np.int64),
        slot_sigf=np.zeros((n_players, max_slots, 2), np.float64),
        slot_ver=np.zeros((n_players, max_slots), np.int64),
        env=np.zeros((n_players, 3), np.int64),
        env_prm=np.full((n_players, 16), np.nan, np.float64),
        seat_keys=np.zeros((n_players, 8), np.int64),
        seat_n=np.zeros(n_players, np.int64),
        mstamp=np.full((n_players, GAIN_KEYS + 1, n_dice), -1, np.int64),
        mtab=np.zeros((n_players, GAIN_KEYS + 1, n_dice, 16), np.int64),
        fscratch=np.zeros(32, np.float64),
        cand=np.zeros(n_dice * max_slots, np.int64),
        cand_ub=np.zeros(n_dice * max_slots, np.float64),
        ddone=np.zeros(n_players * n_dice, np.int64),
        dvals=np.zeros((n_players * n_dice, 16), np.float64),
        box=np.zeros((n_players, 4), np.int64),
        cellmark=np.zeros(N_CELLS, np.int64),
        cellval=np.zeros(N_CELLS, np.float64),
        slot_tot=np.zeros(max_slots, np.int64),
        vgain=np.zeros(16, np.float64),
        vhit=np.zeros(16, np.int64),
        dice_cfg=np.zeros((max_slots, 2), np.int64),
        slot_cfg=np.full((n_players, max_slots, 3), -1, np.int64),
        slot_stone=np.zeros(max_slots, np.int64),
    )


@njit
def trace(s, event, seat, a, b, c, d, e):
    """Append one event to the replay log if there is room (no-op when not tracing)."""
    n = s.sc[S_TRACE_N]
    if s.trace.shape[0] > 1 and n < s.trace.shape[0]:
        row = s.trace[n]
        row[0] = event
        row[1] = s.sc[S_TURN]
        row[2] = seat
        row[3] = a
        row[4] = b
        row[5] = c
        row[6] = d
        row[7] = e
        s.sc[S_TRACE_N] = n + 1


# ------------------------------------------------------------------ stones


@njit(inline="always")
def bag_total(s):
    total = 0
    for c in range(s.bag.shape[0]):
        total += s.bag[c]
    return total


@njit
def draw_from_bag(s):
    """Draw one random stone colour from the bag (-1 if empty). Draws random numbers."""
    total = bag_total(s)
    if total == 0:
        return -1
    r = rng_below(s.rng, total)
    for c in range(s.bag.shape[0]):
        if r < s.bag[c]:
            s.bag[c] -= 1
            return c
        r -= s.bag[c]
    return -1  # unreachable


@njit
def place_ruin_stones(s, slot, count):
    """Put ``count`` random stones from the bag on ``slot`` (fewer if the bag runs out)."""
    for _ in range(count):
        c = draw_from_bag(s)
        if c < 0:
            return
        s.slot_stones[slot, c] += 1


@njit
def return_ruin_stones(s, slot):
    """Stones left on a resolved ruin go back to the bag."""
    for c in range(s.bag.shape[0]):
        s.bag[c] += s.slot_stones[slot, c]
        s.slot_stones[slot, c] = 0


# ------------------------------------------------------------------ delver deck


@njit
def draw_delver(s, seat, count_stat):
    """Seat draws one delver card; reshuffles the discards when the pile is empty.

    Returns the kind drawn, or -1 if deck and discards are both empty. Draws
    random numbers only when reshuffling.
    """
    n = s.sc[S_DDECK_N]
    if n == 0:
        for k in range(s.ddisc.shape[0]):
            for _ in range(s.ddisc[k]):
                s.ddeck[n] = k
                n += 1
            s.ddisc[k] = 0
        rng_shuffle(s.rng, s.ddeck, n)
        if n == 0:
            return -1
    n -= 1
    kind = s.ddeck[n]
    s.sc[S_DDECK_N] = n
    s.hand[seat, kind] += 1
    if count_stat:
        s.seat_stats[seat, ST_DRAWN] += 1
    trace(s, EV_DRAW, seat, kind, 0, 0, 0, 0)
    return kind


# ------------------------------------------------------------------ dice on ruins


@njit
def gather_slot(s, t, slot, owner, faces, value):
    """Copy the dice on ``slot`` into ``owner``/``faces``/``value``; return how many."""
    owner = borrowed(owner)
    faces = borrowed(faces)
    value = borrowed(value)
    n = 0
    n_players = s.sc[S_N_PLAYERS]
    for p in range(n_players):
        for d in range(s.die_slot.shape[1]):
            if s.die_slot[p, d] == slot:
                owner[n] = p
                faces[n] = t.dice_faces[d]
                value[n] = s.die_value[p, d]
                n += 1
    return n


@njit
def slot_totals(s, totals):
    """``totals[slot]``: the dice total on every slot, from one pass over the dice."""
    totals = borrowed(totals)
    for slot in range(s.sc[S_N_SLOTS]):
        totals[slot] = 0
    for p in range(s.sc[S_N_PLAYERS]):
        for d in range(s.die_slot.shape[1]):
            if s.die_slot[p, d] >= 0:
                totals[s.die_slot[p, d]] += s.die_value[p, d]


@njit(inline="always")
def clamp(v, faces):
    """Modifiers never take a die below 1 or above its faces."""
    if v < 1:
        return 1
    if v > faces:
        return faces
    return v


@njit
def take_ruin(s, t, p, card):
    """Seat ``p`` now holds ``card`` (keeps the by-colour counts in step)."""
    s.held[p, card] = 1
    if t.card_colour[card] >= 0:
        s.held_colour[p, t.card_colour[card]] += 1
