"""The state of one game of Unearth as arrays, and the small operations on it.

A :class:`State` is a NamedTuple of numpy arrays allocated once per batch (for
the largest player count asked) and reset for every game. Scalars that change
during play live in ``sc`` (int64), indexed by the ``S_*`` constants; per-seat
counters live in ``st`` indexed by ``ST_*``. ``-1`` is the empty sentinel in
every array of indices or colours.

Served here (``docs/games/unearth.md``, "Set-up", "A turn", "Delver cards"): the
stone bag and ruin stones, the delver deck (draws and the reshuffle), dice on ruins.
"""

from typing import NamedTuple

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.luck import luck_arrays
from analyzer.kernels.rng import QUEUE_WORDS, rng_below, rng_shuffle
from analyzer.unearth.codes import Delver
from analyzer.unearth.scoring import N_PARTS
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
S_LAST_CLAIM = 22  #: game turn of the last claim or unbreakable tie (0: none yet)
N_SCALARS = 23

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
EV_STONE = 3  #: a=colour, b=cell, c=source (0 ruin, 1 bag), d=colours offered (bitmask)
EV_WONDER = 4  #: a=centre cell, b=kind (WonderKind), c=named index or token value
EV_CLAIM = 5  #: a=slot, b=card, c=winner (-2 tie), d=total
EV_REVEAL = 6  #: a=slot, b=card
EV_PLAY = 7  #: a=delver kind, b=target a, c=target b, d=kinds it could play (bitmask)
EV_DRAW = 8  #: a=delver kind
EV_EVENT = 9  #: a=card
EV_END = 10  #: one per seat: a=score, b=win share * 1000
EV_TAKE_BACK = 11  #: a=die, b=slot
EV_TAKE_RUIN = 12  #: a set-aside ruin taken by a named wonder: a=card, b=wonder
# the rows below make the trace checkable on its own (docs/CONTRACTS.md, "The
# checkable trace"): every chance outcome and every choice, with its options
EV_HIDDEN = 13  #: set-up: seat dealt its face-down ruin a=card
EV_SET_ASIDE = 14  #: set-up: ruin a=card set aside unseen
EV_EOA_CARD = 15  #: set-up: a=card, the end-of-age card under the ruins deck
EV_IN_PLAY = 16  #: set-up: named wonder a=index drawn into play
EV_RUIN_STONE = 17  #: a stone drawn from the bag onto a revealed ruin: a=slot, b=colour
EV_BAG_STONE = 18  #: seat draws a stone from the bag for a roll's stone: a=colour
#: a die as rolled (chance): a=die, b=slot, c=natural face, d=why (ROLL_FIRST, ...)
EV_DIE = 19
#: seat declares its excavation: a=die, b=slot, c=dice it could declare (bitmask),
#: d=slots it could declare (bitmask)
EV_DECLARE = 20
#: a roll's final value chosen (only when more than one is reachable): seat=chooser,
#: a=die, b=slot, c=value, d=reachable values (bitmask), e=the die's owner
EV_VALUE = 21
EV_EXPEDITION = 22  #: Expedition: a=die, b=slot chosen after the roll, c=slots open (bitmask)
#: a ring the seat closed where named wonders fit: a=centre cell, b=the fitting
#: named wonders in play (bitmask; taking one is optional)
EV_NAMED_OPTIONS = 23
EV_SHUFFLE = 24  #: the delver discards shuffled into a new draw pile of a=cards
#: a delver card changed a die's value (Forlorn, A New Discovery): seat=the die's
#: owner, a=die, b=slot, c=value before, d=value after
EV_DIE_SET = 25
#: the new draw pile after EV_SHUFFLE: a..e five delver kinds, top (drawn first)
#: first, -1 past its end
EV_PILE = 26
# why a die was rolled (EV_DIE d)
ROLL_FIRST = 0  #: the roll itself (an excavation, or a reroll a card or a die's owner made)
ROLL_MAP = 1  #: an Ancient Map reroll of the excavation die
ROLL_EDIFICE = 2  #: The Shattered Edifice reroll of a natural 4 or 5

# ------------------------------------------------------------------ claims log
#: columns of a claims-log row (``State.claims``; written by claiming.check_claims)
C_GAME = 0
C_TURN = 1
C_CARD = 2
C_CLAIM = 3
C_NDICE = 4
C_NSEATS = 5
C_TOTAL = 6
C_WINNER = 7
C_FACES = 8
C_DECIDED = 9
N_CLAIM_COLS = 10
MAX_CLAIMS_PER_GAME = 64

#: kinds of chance event the luck terms are summed by (analyzer.unearth.luck.KIND_*)
LUCK_KINDS = 4
MAX_TURNS = 2000  #: safety cap; a game reaching it is flagged in S_ABORTED
#: game turns without a claim after which the strategies break a stalemate
#: (strategies.break_stall); normal play never goes near it
STALL_TURNS = 100
MAX_FORCED = 64  #: room for forced chance outcomes in ``rng`` (tests; analyzer.kernels.rng)
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
    boxed_colour: np.ndarray  #: int64[n_ruin_colours] ruins removed by unbreakable ties
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
    seat_stats: np.ndarray  #: int64[P, N_STATS_BASE + K] counters
    trace: np.ndarray  #: int64[max events, 8] replay log (only when tracing)
    claims: (
        np.ndarray
    )  #: int32[rows, N_CLAIM_COLS] claims log, one row per resolved ruin (shape (1, ...): off)
    n_claims: np.ndarray  #: int64[1] rows of ``claims`` written
    # work arrays: what each holds is a function of the game state, written by the
    # kernel named and read right after (no decision is kept here; that is the
    # strategies' :class:`~analyzer.unearth.memo.Memo`)
    mods: (
        np.ndarray
    )  #: int64[MOD_FIELDS * MAX_MOD_GROUPS]: the modifier groups of a roll (modifiers)
    reach: np.ndarray  #: int64 work space of the reachable-values search (reach_size)
    marked: np.ndarray  #: int64[P * D] dice marked by Forgotten Song (cards.play_card)
    totals: np.ndarray  #: int64[max slots] dice total on each ruin (slot_totals)
    on_slot_owner: np.ndarray  #: int64[P * D] the dice on one ruin (gather_slot): owner seat
    on_slot_faces: np.ndarray  #: int64[P * D] ... their faces
    on_slot_value: np.ndarray  #: int64[P * D] ... their values
    offer: np.ndarray  #: int64[n_colours] the stones a seat chooses one from (wonders.gain_stone)
    closed: np.ndarray  #: int64[6] ring centres a new stone closed (wonders.place_stone)
    ring_counts: (
        np.ndarray
    )  #: int64[n_colours] stones by colour around a closed ring (build_wonder)
    named_order: np.ndarray  #: int64[n_named] the named wonders, shuffled (setup)
    colour_n: np.ndarray  #: int64[n_colours] stones by colour in one tableau (check_invariants)
    cellbuf: np.ndarray  #: int64[N_CELLS] flood-fill stack (check_invariants)
    cellmark: np.ndarray  #: int64[N_CELLS] flood-fill marks (check_invariants)
    ruin_n: np.ndarray  #: int64[n_ruin_colours] ruins by colour of the seat scored (scoring)
    scores: np.ndarray  #: int64[P] final scores (scoring.final_scores)
    parts: np.ndarray  #: int64[P, N_PARTS] their parts
    win: np.ndarray  #: float64[P] win shares
    winners: np.ndarray  #: int64[P] 1: on the best score after the tiebreak (scoring.share_wins)
    box: np.ndarray  #: int64[P, 4] bounding box of each tableau's stones (tableau.grow_box)
    # luck terms (analyzer.unearth.luck): off when ``luck_par`` has shape (1,)
    luck_par: np.ndarray  #: float64[N_LUCK_PAR] the value estimate's parameters
    luck: np.ndarray  #: float64[LUCK_KINDS, 2, P] this game's luck by kind of event: win, score
    luck_out: np.ndarray  #: float64[rows, LUCK_KINDS, 2] each (game, seat)'s luck (store_luck)
    luck_acc: np.ndarray  #: float64[ACC_ROWS, P] one event's expectations (analyzer.kernels.luck)
    luck_vs: np.ndarray  #: float64[P] one outcome's score values
    luck_base: np.ndarray  #: float64[P] score values without the slot of the event
    luck_sum: np.ndarray  #: float64[P] the seats' strengths on one ruin (luck.gather)
    luck_gain: np.ndarray  #: float64[P] what its card would add to each seat (luck.gather)
    luck_low: np.ndarray  #: int64[P, 2] fewest ruins of a colour, colours that few (luck)
    luck_own: np.ndarray  #: int64[P * D] the dice on one ruin (slot_value): owner seat
    luck_fac: np.ndarray  #: int64[P * D] ... their faces
    luck_val: np.ndarray  #: int64[P * D] ... their values
    luck_lead: (
        np.ndarray
    )  #: float64[F + 1, F + 1] a die's strength by value, faces (luck.value_tables)
    luck_progress: np.ndarray  #: float64[C + 1, C + 1] a ruin's progress by total, claim value


def reach_size(t) -> int:
    """States of the reachable-values search when every Ancestral Claim and
    Reading the Stones of the deck is played on one roll, with the event and
    three named wonders: ``2 * (anc + 1) * (read + 1) * 2**3`` (more, in a turn
    that reshuffles played cards back, is searched in a temporary array)."""
    anc = int(t.delver_copies[t.delver_effect == Delver.ANCESTRAL_CLAIM].sum())
    read = int(t.delver_copies[t.delver_effect == Delver.READING_THE_STONES].sum())
    return 2 * (anc + 1) * (read + 1) * 8


def new_state(
    t, n_players: int, trace_rows: int = 0, claim_rows: int = 0, luck=None, luck_rows: int = 0
) -> State:
    """Allocate a :class:`State` for ``n_players`` seats under rules tables ``t``,
    with room for ``trace_rows`` trace events and ``claim_rows`` claims-log rows
    (0: neither is kept). ``luck`` (``None``: off): the luck terms' value estimate
    as ``analyzer.unearth.luck.value_tables`` gives it, their totals written for
    ``luck_rows`` rows."""
    if luck is None:
        luck_par, lead, progress = np.zeros(1), np.zeros((1, 1)), np.zeros((1, 1))
    else:
        luck_par, lead, progress = luck
    n_cards = t.card_kind.shape[0]
    n_col = t.n_stone_colours
    n_dice = t.dice_faces.shape[0]
    k = t.delver_copies.shape[0]
    max_slots = int(t.revealed_by_players.max())
    n_named = t.wonder_points.shape[0]
    return State(
        sc=np.zeros(N_SCALARS, np.int64),
        rng=np.zeros(QUEUE_WORDS + MAX_FORCED, np.uint64),
        ruin_deck=np.full(n_cards, -1, np.int64),
        removed=np.full(n_cards, -1, np.int64),
        boxed_colour=np.zeros(t.n_ruin_colours, np.int64),
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
        seat_stats=np.zeros((n_players, N_STATS_BASE + k), np.int64),
        trace=np.zeros((max(trace_rows, 1), 8), np.int64),
        claims=np.zeros((max(claim_rows, 1), N_CLAIM_COLS), np.int32),
        n_claims=np.zeros(1, np.int64),
        mods=np.zeros(MOD_FIELDS * MAX_MOD_GROUPS, np.int64),
        reach=np.zeros(reach_size(t), np.int64),
        marked=np.zeros(n_players * n_dice, np.int64),
        totals=np.zeros(max_slots, np.int64),
        on_slot_owner=np.zeros(n_players * n_dice, np.int64),
        on_slot_faces=np.zeros(n_players * n_dice, np.int64),
        on_slot_value=np.zeros(n_players * n_dice, np.int64),
        offer=np.zeros(n_col, np.int64),
        closed=np.zeros(6, np.int64),
        ring_counts=np.zeros(n_col, np.int64),
        named_order=np.zeros(max(n_named, 1), np.int64),
        colour_n=np.zeros(n_col, np.int64),
        cellbuf=np.zeros(N_CELLS, np.int64),
        cellmark=np.zeros(N_CELLS, np.int64),
        ruin_n=np.zeros(t.n_ruin_colours, np.int64),
        scores=np.zeros(n_players, np.int64),
        parts=np.zeros((n_players, N_PARTS), np.int64),
        win=np.zeros(n_players, np.float64),
        winners=np.zeros(n_players, np.int64),
        box=np.zeros((n_players, 4), np.int64),
        **luck_arrays(luck_par, LUCK_KINDS, n_players, luck_rows),
        luck_sum=np.zeros(n_players, np.float64),
        luck_gain=np.zeros(n_players, np.float64),
        luck_low=np.zeros((n_players, 2), np.int64),
        luck_own=np.zeros(n_players * n_dice, np.int64),
        luck_fac=np.zeros(n_players * n_dice, np.int64),
        luck_val=np.zeros(n_players * n_dice, np.int64),
        luck_lead=lead,
        luck_progress=progress,
    )


@njit(inline="always")
def tracing(s):
    """True when this game keeps a trace (work done only for the trace checks it)."""
    return s.trace.shape[0] > 1


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
        if tracing(s):
            trace(s, EV_RUIN_STONE, -1, slot, c, 0, 0, 0)


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
        trace(s, EV_SHUFFLE, -1, n, 0, 0, 0, 0)
        if tracing(s):
            for i in range(0, n, 5):
                trace(
                    s,
                    EV_PILE,
                    -1,
                    s.ddeck[n - 1 - i],
                    s.ddeck[n - 2 - i] if i + 1 < n else -1,
                    s.ddeck[n - 3 - i] if i + 2 < n else -1,
                    s.ddeck[n - 4 - i] if i + 3 < n else -1,
                    s.ddeck[n - 5 - i] if i + 4 < n else -1,
                )
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
def gather_slot(s, t, slot):
    """Copy the dice on ``slot`` into ``s.on_slot_owner/faces/value``; return how many."""
    n = 0
    n_players = s.sc[S_N_PLAYERS]
    for p in range(n_players):
        for d in range(s.die_slot.shape[1]):
            if s.die_slot[p, d] == slot:
                s.on_slot_owner[n] = p
                s.on_slot_faces[n] = t.dice_faces[d]
                s.on_slot_value[n] = s.die_value[p, d]
                n += 1
    return n


@njit
def slot_totals(s):
    """``s.totals[slot]``: the dice total on every slot, from one pass over the dice."""
    totals = s.totals
    for slot in range(s.sc[S_N_SLOTS]):
        totals[slot] = 0
    for p in range(s.sc[S_N_PLAYERS]):
        for d in range(s.die_slot.shape[1]):
            if s.die_slot[p, d] >= 0:
                totals[s.die_slot[p, d]] += s.die_value[p, d]


@njit
def trace_declare(s, p, d, slot):
    """Trace seat ``p``'s excavation declaration (die ``d``, ``slot``) with the dice
    and slots it could have declared: its dice in the pool, or every die if all
    are on ruins; every slot holding a ruin. Called before a die is taken back."""
    if not tracing(s):
        return
    dice = 0
    for k in range(s.die_slot.shape[1]):
        if s.die_slot[p, k] < 0:
            dice |= 1 << k
    if dice == 0:
        dice = (1 << s.die_slot.shape[1]) - 1
    trace(s, EV_DECLARE, p, d, slot, dice, open_slots(s), 0)


@njit
def open_slots(s):
    """Bitmask of the slots holding a ruin."""
    mask = 0
    for slot in range(s.sc[S_N_SLOTS]):
        if s.slot_card[slot] >= 0:
            mask |= 1 << slot
    return mask


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
