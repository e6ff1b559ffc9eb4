"""The state of one game of Colorful Treasure as arrays, allocated once per batch.

A :class:`State` is a NamedTuple of numpy arrays reset for every game. Scalars
that change during play live in ``sc`` (int64) at the ``S_*`` slots; what each
seat holds lives in ``held`` at the ``H_*`` columns and its counters in
``stats`` at the ``ST_*`` columns. ``-1`` is the empty sentinel in every array
of cards, positions and seats.

Positions: the grid has one column per wonder and ``rows`` places per column;
position ``p = wonder * rows + row``. A card never moves while it lies in the
grid (a revealed card not taken goes back face down in place), so
``pos_of[card]`` is fixed at set-up.

Sets of cards and of places are also kept as int64 bit masks (bit ``c`` for
card or place ``c``; :mod:`.bits`), beside the arrays they summarise: the cards
and the places of the grid, the cards and places face up now (``S_GRID_CARDS``
.. ``S_UP_PLACES``), and what each seat may remember (``kn``). A column's cards
are bits ``wonder * rows ..`` of a card mask, and its places the same bits of a
place mask.
"""

from typing import NamedTuple

import numpy as np

from analyzer.colorful_treasure.codes import MAX_REVEALS, PARAM_NAMES
from analyzer.kernels.jit import njit
from analyzer.kernels.luck import luck_arrays
from analyzer.kernels.rng import QUEUE_WORDS
from analyzer.kernels.trace import write_event

# ------------------------------------------------------------------ scalar slots
S_TURN = 0  #: game turn (0-based)
S_SEAT = 1  #: seat whose turn it is
S_N = 2  #: players
S_LEFT = 3  #: cards left in the grid
S_N_UP = 4  #: cards face up this turn (in ``up``)
S_GEM_OWNER = 5  #: seat that took the gem reward, -1 while open
S_EXPLORER_OWNER = 6  #: seat that took the explorer reward, -1 while open
S_GEM_TURN = 7  #: game turn the gem reward was taken (-1)
S_EXPLORER_TURN = 8
S_DISCARDED = 9  #: treasure markers discarded in pairs
S_TRACE_N = 10  #: events written to the trace
S_ABORTED = 11  #: 1 if the game hit the turn cap
S_BAD = 12  #: invariant failures (bit mask), 0 in a correct game
S_GAME = 13  #: global game index
S_STEAL_N = 14  #: rows written to the steals log
S_GRID_CARDS = 15  #: mask of the cards in the grid
S_GRID_PLACES = 16  #: mask of the places that hold a card
S_UP_CARDS = 17  #: mask of the cards face up now
S_UP_PLACES = 18  #: mask of the places face up now
S_SV_TURN = 19  #: 64 * game turn + seat whose best steal value is in ``fsc[F_SV]`` (-1: none)
S_VALUES_TURN = 20  #: 64 * game turn + seat whose values are in ``gain`` .. ``memo`` (-1)
S_UP_COUNTED = 21  #: (64 * game turn + seat) * 8 + cards face up when up_n was counted (-1)
S_STOLEN = 22  #: mask of the cards ever taken by a steal (ruling stolen_cards)
S_MEM_TURN = 23  #: 64 * game turn + seat whose remembered cards are in ``kn`` this turn (-1)
S_COLS_TURN = 24  #: 64 * game turn + seat whose column masks are in ``cols``, ``cols_n`` (-1)
S_PAIRED = 25  #: mask of the key and chest cards spent in a pair (ruling steal_pairs = cards)
N_SCALARS = 26

F_SV = 0  #: the deciding seat's best steal value this turn (see S_SV_TURN)
N_FSC = 1

# ------------------------------------------------------------------ per-seat holdings
H_DIAMOND = 0  #: diamond cards
H_PLASTIC = 1  #: plastic diamonds
H_TREASURE = 2  #: key and chest cards
H_KEYS = 3  #: unpaired key markers (ruling steal_pairs = cards: unspent key cards held)
H_CHESTS = 4  #: unpaired chest markers (steal_pairs = cards: unspent chest cards held)
H_COLOURS = 5  #: gem colours held (at least one card)
H_WONDERS = 6  #: wonders held (at least one card)
H_CARDS = 7  #: wonder cards held
N_HELD = 8

# ------------------------------------------------------------------ per-seat counters
ST_TURNS = 0
ST_STEALS = 1  #: steals made
ST_ROBBED = 2  #: times another seat stole from this one
ST_STOLE_PLASTIC = 3  #: steals that took a plastic diamond
ST_THIRD = 4  #: turns with an extra reveal
ST_TREASURE_TURNS = 5  #: turns that revealed a key or chest
ST_NOTHING = 6  #: turns that took nothing
ST_NO_VICTIM = 7  #: pairs with nobody to steal from
ST_TILES_TAKEN = 8  #: action tiles taken
ST_TILES_USED = 9  #: action tile uses (a peek, a fourth card, two kinds, ignore treasure, wild)
N_STATS = 10

# ------------------------------------------------------------------ trace events
#: trace rows are int64[8]: (event, turn, seat, a, b, c, d, e). Every chance outcome
#: (a card seen) and every choice is a row; where the rules offer a set of options,
#: ``d`` (and ``e``) hold it as a bit mask (docs/games/colorful_treasure.md, "The
#: checkable trace"). Masks of places and cards: bit = place or card id; of kinds:
#: bit = ``card_key``; of tiles: bit = tile index; of seats: bit = seat.
EV_REVEAL = 1  #: a=position, b=card, c=reveal number in the turn (1..), d=face-down places
EV_TAKE = 2  #: a=card
EV_BACK = 3  #: a=position, b=card: turned face down again
#: a key and a chest marker discarded; steal_pairs = cards: a=key card, b=chest card spent
#: (else -1, -1)
EV_PAIR = 4
#: a=victim, b=card taken, or -1 for a plastic diamond; d=cards it could take, e=seats
#: whose plastic diamond it could take
EV_STEAL = 5
EV_NO_VICTIM = 6  #: a pair but nobody holds anything
EV_REWARD = 7  #: a=Reward, b=points
EV_NOTHING = 8  #: took nothing (ruling take = optional); b=kinds it could take
EV_END = 9  #: one per seat: a=score in 60ths, b=win share * 1000
EV_PLASTIC = 10  #: a=wonder: the plastic diamond above it taken with its diamond card
#: a=tile, b=Effect: an action tile taken; c=gem colour of the offer, d=tiles left
EV_TILE_TAKE = 11
EV_TILE_USE = 12  #: a=tile, b=Effect: an action tile used (x1: then discarded)
#: a=position, b=card: looked at by the seat alone (a peek tile); d=places it could peek
EV_PEEK = 13
EV_TRUCE = 14  #: a pair but the truce forbids the steal (a=1: the thief holds it)
#: the kind taken: a=card_key, b=kinds face up it could take, c=1 the take, 2 a second
#: kind (two kinds tile), 3 instead of the keys and chests (ignore treasure tile)
EV_KIND = 15
EV_STOP = 16  #: reveals no more cards: c=cards face up, d=face-down places it could reveal
EV_TILE_PASS = 17  #: a=tile, b=Effect: a tile the seat may use now, not used
EV_TILE_DECLINE = 18  #: an offer of a tile declined: c=gem colour of the offer, d=tiles left
#: a wild marker pairs with the seat's marker: a=Kind of that marker (KEY or CHEST),
#: b=the card spent (steal_pairs = cards; else -1)
EV_WILD = 19
#: at the end, one per seat: a=key and chest cards that count, b=treasure reward (60ths)
EV_TREASURE = 20

#: steals log rows: (game, turn, thief, victim, item) with item the card or -1 (plastic)
N_STEAL_COLS = 5
#: kinds of chance event the luck terms are summed by (analyzer.colorful_treasure.luck.KIND_*)
LUCK_KINDS = 2

MAX_FORCED = 64  #: room for forced chance outcomes in ``rng`` (tests; analyzer.kernels.rng)
NEVER = -1  #: ``mem`` value of a card a seat does not remember
ALWAYS = 1 << 40  #: ``mem`` value of a card remembered for good (recall 1)


class State(NamedTuple):
    """Arrays of one game (module docstring); ints are int64. P seats, N cards, W wonders."""

    sc: np.ndarray  #: int64[N_SCALARS]
    rng: np.ndarray  #: uint64[6 + MAX_FORCED] xoshiro256** state and forced outcomes
    grid: np.ndarray  #: int64[N] card at each position, -1 once taken
    pos_of: np.ndarray  #: int64[N] position of each card (fixed at set-up)
    owner: np.ndarray  #: int64[N] seat holding each card, -1 while in the grid
    board_plastic: np.ndarray  #: int64[W] 1 while the plastic diamond is above its column
    up: np.ndarray  #: int64[MAX_REVEALS] positions face up this turn
    gems: np.ndarray  #: int64[P, n_colours] gem cards held by colour
    wcards: np.ndarray  #: int64[P, W] cards held of each wonder
    held: np.ndarray  #: int64[P, N_HELD]
    stats: np.ndarray  #: int64[P, N_STATS]
    mem: np.ndarray  #: int64[P, N] last game turn each seat remembers each card (NEVER)
    log_recall: np.ndarray  #: float64[P, 2] each seat's recall and its log (NaN: not yet)
    kn: np.ndarray  #: int64[P] mask: cards each seat may remember (every one it does; see
    #: strategies.seat_memory)
    fsc: np.ndarray  #: float64[N_FSC] float scalars (``F_*``)
    hyp: np.ndarray  #: int64[MAX_REVEALS + 1] scratch: a hypothetical set of face-up cards
    pick: np.ndarray  #: int64[MAX_REVEALS] positions chosen to reveal at once
    cols: np.ndarray  #: int64[n_colours + 2] scratch: masks of wonders whose unknown cards
    #: hold each gem colour, the diamond, a key or chest (strategies.column_sets)
    spread: np.ndarray  #: int64[words, W << rows] what a column's unknown cards hold, by
    #: wonder and mask of its rows: bit ``16 * j + w`` for kind ``4 * word + j`` (see
    #: :func:`column_table`; strategies.column_sets)
    cols_n: np.ndarray  #: int64[rows + 1] scratch: masks of wonders with unknown cards: any
    #: ([0]), exactly k ([k])
    pairs: np.ndarray  #: int64[n_colours + 2] scratch: the candidate pairs tried (one int each)
    memo: np.ndarray  #: float64[2 * (n_colours + 3)] scratch: value of one card by class
    memo3: np.ndarray  #: float64[2 * (n_colours + 3)] scratch: value of one more card by class
    up_n: np.ndarray  #: int64[n_colours + 3] scratch: face-up cards by kind (card_key)
    up_new: np.ndarray  #: int64[n_colours + 3] scratch: of those, from wonders new to the seat
    up_val: np.ndarray  #: float64[n_colours + 3] scratch: the value of taking each kind
    gain: np.ndarray  #: float64[n_colours + 1, MAX_REVEALS + 1] the deciding seat's points for
    #: k cards of a gem colour or diamond (strategies.seat_values; the diamond's row, the
    #: same for every seat, is set here)
    steps: np.ndarray  #: float64[len(gem_points), MAX_REVEALS + 1] points gained by k more
    #: gem cards of a colour held h times (h capped at the table's end): ``gain``'s rows
    bonus: np.ndarray  #: float64[n_colours + 1, 2] its gem-reward terms for a colour
    explore: np.ndarray  #: float64[2, MAX_REVEALS + 1] its explorer terms for k new wonders
    loot: np.ndarray  #: float64[n_colours + 3] its own gain of a steal, by what it takes
    tally: np.ndarray  #: int64[P, 3] scratch of the invariant check
    counted: np.ndarray  #: int64[P] key and chest cards counting for the treasure reward
    parts: np.ndarray  #: int64[P, 8] score parts of the last game (60ths, see turn.final_scores)
    deal: np.ndarray  #: int64[N] layout to use instead of shuffling (deal[0] = -1: shuffle)
    steals: np.ndarray  #: int64[max steals, N_STEAL_COLS] steals log of the batch
    trace: np.ndarray  #: int64[max events, 8] replay log (only when tracing)
    tile_owner: np.ndarray  #: int64[T] seat holding each action tile, -1 available, -2 discarded
    tile_turn: np.ndarray  #: int64[T] game turn a permanent tile was last used (-1)
    tclaim: np.ndarray  #: int64[P] colours whose count of 3+ has had its tile (bit = colour)
    tiles_took: np.ndarray  #: int64[P] mask of the tiles each seat took
    plan: np.ndarray  #: int64[P] each seat's Plan (its strategy)
    prm: np.ndarray  #: float64[P, len(PARAM_NAMES)] each seat's parameter row
    # luck terms (analyzer.colorful_treasure.luck): off when ``luck_par`` has shape (1,)
    luck_par: np.ndarray  #: float64[N_LUCK_PAR] the value estimate's parameters
    luck: np.ndarray  #: float64[LUCK_KINDS, 2, P] this game's luck by kind of event: win, score
    luck_out: np.ndarray  #: float64[rows, LUCK_KINDS, 2] each (game, seat)'s luck (store_luck)
    luck_acc: np.ndarray  #: float64[ACC_ROWS, P] one event's expectations (analyzer.kernels.luck)
    luck_vs: np.ndarray  #: float64[P] one outcome's score values
    luck_base: np.ndarray  #: float64[P] the seats' scores if the game ended now
    luck_cnt: np.ndarray  #: int64[n_colours + 3] scratch: face-up cards by card_key
    luck_seen: np.ndarray  #: int64[2] mask of the cards anyone has seen this game; the
    #: game turn whose scores are in ``luck_base``


#: bits per kind in a word of :func:`column_table` (one per wonder: at most 12)
KIND_FIELD = 16
#: kinds per word of :func:`column_table`
KINDS_PER_WORD = 4


def column_table(t) -> np.ndarray:
    """For every wonder ``w`` and mask ``u`` of its column's rows, what cards at those
    rows hold, laid out for :func:`~.strategies.column_sets`: word ``i``, entry
    ``(w << rows) | u`` has bit ``KIND_FIELD * j + w`` set when one of them is of
    ``card_key`` ``KINDS_PER_WORD * i + j`` (a key or chest counts as
    ``n_colours + 1``). OR-ing the entries of every column gives, in each field, the
    mask of wonders whose unknown cards hold that kind."""
    rows, nc = t.rows, t.n_colours
    words = (nc + 2 + KINDS_PER_WORD - 1) // KINDS_PER_WORD
    w = np.arange(t.n_wonders)
    kind = np.minimum(np.asarray(t.card_key, np.int64).reshape(t.n_wonders, rows), nc + 1)
    bit = np.zeros((words, t.n_wonders, rows), np.int64)  # each card's bit, by word
    word, j = np.divmod(kind, KINDS_PER_WORD)
    bit[word, w[:, None], np.arange(rows)] = np.int64(1) << (KIND_FIELD * j + w[:, None])
    rows_in = (np.arange(1 << rows)[:, None] >> np.arange(rows)) & 1  # [u, r]
    out = np.bitwise_or.reduce(bit[:, :, None, :] * rows_in, axis=-1)  # [word, w, u]
    return np.ascontiguousarray(out.reshape(words, t.n_wonders << rows), np.int64)


def step_table(t) -> np.ndarray:
    """Points gained by ``k`` more gem cards of a colour held ``h`` times, as floats:
    ``points[min(h + k, top)] - points[h]`` for ``h`` up to the last entry ``top`` of
    ``gem_points`` (a seat's ``gain`` row, :func:`~.strategies.seat_values`)."""
    points = np.asarray(t.gem_points, np.int64)
    top = len(points) - 1
    out = np.zeros((top + 1, MAX_REVEALS + 1), np.float64)
    for h in range(top + 1):
        for k in range(MAX_REVEALS + 1):
            out[h, k] = float(points[min(h + k, top)] - points[h])
    return out


def gain_table(t) -> np.ndarray:
    """A seat's ``gain`` scratch with the diamond's row filled: ``k`` diamond cards
    bring ``k * (diamond_card + plastic_diamond)`` whoever takes them."""
    out = np.zeros((t.n_colours + 1, MAX_REVEALS + 1), np.float64)
    for k in range(MAX_REVEALS + 1):
        out[t.n_colours, k] = float(k * (t.diamond_card + t.plastic_diamond))
    return out


def new_state(
    t, players: int, trace_rows: int = 0, steal_rows: int = 1, luck=None, luck_rows: int = 0
) -> State:
    """Allocate a :class:`State` for games of ``players`` seats under tables ``t``.
    ``luck`` (``None``: off): the luck terms' parameters (float64[N_LUCK_PAR], one
    more for a planted test bias), their totals written for ``luck_rows`` rows."""
    n, w = t.n_cards, t.n_wonders
    sc = np.zeros(N_SCALARS, np.int64)
    sc[S_SV_TURN] = -1
    sc[S_VALUES_TURN] = -1
    sc[S_UP_COUNTED] = -1
    sc[S_MEM_TURN] = -1
    sc[S_COLS_TURN] = -1
    return State(
        sc=sc,
        rng=np.zeros(QUEUE_WORDS + MAX_FORCED, np.uint64),
        grid=np.full(n, -1, np.int64),
        pos_of=np.full(n, -1, np.int64),
        owner=np.full(n, -1, np.int64),
        board_plastic=np.zeros(w, np.int64),
        up=np.full(MAX_REVEALS, -1, np.int64),
        gems=np.zeros((players, t.n_colours), np.int64),
        wcards=np.zeros((players, w), np.int64),
        held=np.zeros((players, N_HELD), np.int64),
        stats=np.zeros((players, N_STATS), np.int64),
        mem=np.full((players, n), NEVER, np.int64),
        log_recall=np.full((players, 2), np.nan, np.float64),
        kn=np.zeros(players, np.int64),
        fsc=np.zeros(N_FSC, np.float64),
        hyp=np.full(MAX_REVEALS + 1, -1, np.int64),
        pick=np.full(MAX_REVEALS, -1, np.int64),
        cols=np.zeros(t.n_colours + 2, np.int64),
        spread=column_table(t),
        cols_n=np.zeros(t.rows + 1, np.int64),
        pairs=np.full(t.n_colours + 2, -1, np.int64),
        memo=np.zeros(2 * (t.n_colours + 3), np.float64),
        memo3=np.zeros(2 * (t.n_colours + 3), np.float64),
        up_n=np.zeros(t.n_colours + 3, np.int64),
        up_new=np.zeros(t.n_colours + 3, np.int64),
        up_val=np.zeros(t.n_colours + 3, np.float64),
        gain=gain_table(t),
        steps=step_table(t),
        bonus=np.zeros((t.n_colours + 1, 2), np.float64),
        explore=np.zeros((2, MAX_REVEALS + 1), np.float64),
        loot=np.zeros(t.n_colours + 3, np.float64),
        tally=np.zeros((players, 3), np.int64),
        counted=np.zeros(players, np.int64),
        parts=np.zeros((players, 8), np.int64),
        deal=np.full(n, -1, np.int64),
        steals=np.zeros((max(steal_rows, 1), N_STEAL_COLS), np.int64),
        trace=np.zeros((max(trace_rows, 1), 8), np.int64),
        tile_owner=np.full(max(t.n_tiles, 1), -1, np.int64),
        tile_turn=np.full(max(t.n_tiles, 1), -1, np.int64),
        tclaim=np.zeros(players, np.int64),
        tiles_took=np.zeros(players, np.int64),
        plan=np.zeros(players, np.int64),
        prm=np.zeros((players, len(PARAM_NAMES)), np.float64),
        **luck_arrays(luck, LUCK_KINDS, players, luck_rows),
        luck_cnt=np.zeros(t.n_colours + 3, np.int64),
        luck_seen=np.full(2, -1, np.int64),
    )


@njit
def tracing(s):
    """The game writes a trace (a 1-row trace records nothing): the options of a
    choice are worked out only then."""
    return s.trace.shape[0] > 1


@njit
def trace_opts(s, ev, seat, a, b, c, d, e):
    """:func:`trace` with the row's ``d`` and ``e`` (a choice's options, as masks)."""
    i = s.sc[S_TRACE_N]
    if s.trace.shape[0] > 1 and i < s.trace.shape[0]:
        write_event(s.trace, i, ev, s.sc[S_TURN], seat, a, b, c)
        s.trace[i, 6] = d
        s.trace[i, 7] = e
        s.sc[S_TRACE_N] = i + 1
    elif s.trace.shape[0] > 1:
        s.sc[S_TRACE_N] = i + 1  # counts past the end: the caller reports it


@njit
def trace(s, ev, seat, a, b, c):
    """Append an event to the trace if it has room (a 1-row trace records nothing)."""
    i = s.sc[S_TRACE_N]
    if s.trace.shape[0] > 1 and i < s.trace.shape[0]:
        write_event(s.trace, i, ev, s.sc[S_TURN], seat, a, b, c)
        s.sc[S_TRACE_N] = i + 1
    elif s.trace.shape[0] > 1:
        s.sc[S_TRACE_N] = i + 1  # counts past the end: the caller reports it
