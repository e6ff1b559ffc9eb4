"""Whole games of Colorful Treasure: the turn, the game loop and the batch kernel.

Sections of ``docs/games/colorful_treasure.md``: "A turn" (:func:`play_turn`),
"Game end" (:func:`play_game`), and the invariants checked after every game
(:func:`check_invariants`). Game ``g`` draws only from the stream
``rng_seed(state, key0, key1, g)``, so any split of a run into batches gives the
same games.

Results: one int64 row per (game, seat) with the ``R_*`` columns below (score
parts in 60ths of a point, see :data:`~analyzer.colorful_treasure.codes.SCALE`),
and the win share as float32.
"""

import numpy as np

from analyzer.colorful_treasure.bits import popcount
from analyzer.colorful_treasure.codes import Kind
from analyzer.colorful_treasure.luck import luck_reset, luck_reveal, store_luck
from analyzer.colorful_treasure.state import (
    EV_END,
    EV_KIND,
    EV_NO_VICTIM,
    EV_NOTHING,
    EV_STOP,
    EV_TREASURE,
    H_CARDS,
    H_CHESTS,
    H_COLOURS,
    H_DIAMOND,
    H_KEYS,
    H_PLASTIC,
    H_TREASURE,
    H_WONDERS,
    S_ABORTED,
    S_BAD,
    S_DISCARDED,
    S_EXPLORER_TURN,
    S_GAME,
    S_GEM_TURN,
    S_GRID_CARDS,
    S_GRID_PLACES,
    S_LEFT,
    S_N,
    S_N_UP,
    S_SEAT,
    S_TURN,
    ST_NO_VICTIM,
    ST_NOTHING,
    ST_ROBBED,
    ST_STEALS,
    ST_STOLE_PLASTIC,
    ST_THIRD,
    ST_TILES_TAKEN,
    ST_TILES_USED,
    ST_TREASURE_TURNS,
    ST_TURNS,
    trace,
    trace_opts,
    tracing,
)
from analyzer.colorful_treasure.strategies import (
    choose_extra,
    choose_first,
    choose_kind,
    choose_steal,
)
from analyzer.colorful_treasure.tiles import check_tiles, play_turn_tiles, tiles_setup
from analyzer.colorful_treasure.turn import (
    check_rewards,
    discard_pair,
    face_down_count,
    face_down_places,
    final_scores,
    is_treasure,
    must_take_treasure,
    pairs_ready,
    reveal,
    setup,
    steal,
    take_from_grid,
    turn_back,
    unspent,
    up_kinds,
)
from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_seed

# ------------------------------------------------------------------ result columns
R_PARTS = 0  #: 7 columns: gems, diamond cards, plastic diamonds, gem reward, explorer,
#: treasure reward, total (60ths of a point)
N_PARTS = 6
R_SCORE = 6
R_PTS_PART = 7  #: the action tiles' points in ``s.parts`` (its column 7)
R_TURNS = 7
R_GAME_TURNS = 8
R_DIAMOND = 9
R_PLASTIC = 10
R_TREASURE = 11
R_COLOURS = 12
R_WONDERS = 13
R_CARDS = 14
R_MARKERS = 15  #: unpaired treasure markers left (steal_pairs = cards: unspent cards)
R_STEALS = 16
R_ROBBED = 17
R_STOLE_PLASTIC = 18
R_THIRD = 19
R_TREASURE_TURNS = 20
R_NOTHING = 21
R_NO_VICTIM = 22
R_BAD = 23  #: invariant failure mask (0)
R_LEFT = 24  #: cards left in the grid at the end
R_GEM_TURN = 25  #: game turn the gem reward was taken, -1 if never
R_EXPLORER_TURN = 26
R_TREASURE_COUNTED = 27  #: key and chest cards that count for the treasure reward
R_PTS_TILES = 28  #: points of the action tiles held at the end (60ths; in R_SCORE)
R_TILES_TAKEN = 29  #: action tiles taken
R_TILES_USED = 30  #: action tile uses
R_TILES_TOOK = 31  #: mask of the tiles the seat took
R_TILES_HELD = 32  #: mask of the tiles the seat holds at the end
R_GEMS = 33  #: + colour: gem cards held by colour
N_BASE_COLS = 33

# invariant bits
BAD_CARDS = 1  #: grid + holdings != all cards, or owners disagree with the grid
BAD_PLASTIC = 2  #: plastic diamonds not conserved
BAD_MARKERS = 4  #: treasure markers not conserved
BAD_HOLDINGS = 8  #: a seat's counters disagree with the cards it owns
BAD_ABORTED = 16  #: the turn cap was hit
BAD_SCORE = 32  #: the score is not the sum of its parts
BAD_TILES = 64  #: action tiles not conserved


def n_result_cols(t) -> int:
    return N_BASE_COLS + t.n_colours


@njit
def play_turn(s, t, seat, n, game):
    """One turn of ``seat`` ("A turn"): reveal two (then maybe more), take, pair and
    steal, check the rewards. Draws random numbers through the strategies."""
    k = min(t.first_reveals, face_down_count(s))
    choose_first(s, t, seat, n, k)
    for i in range(k):
        reveal(s, seat, s.pick[i])
        luck_reveal(s, t, seat, s.pick[i], s.pick[i + 1] if i + 1 < k else -1)
    finish_turn(s, t, seat, n, game)


@njit
def finish_turn(s, t, seat, n, game):
    """The rest of ``seat``'s turn once its first cards are face up: the extra
    reveals, the take, the cards turned back (:func:`reveal_more_and_take`), then
    :func:`pairs_and_rewards`."""
    reveal_more_and_take(s, t, seat, n)
    pairs_and_rewards(s, t, seat, n, game)


@njit
def reveal_more_and_take(s, t, seat, n):
    """``seat``'s extra reveals, its take, and every card still face up turned back."""
    extra = 0
    for _ in range(t.extra_reveals):
        p = choose_extra(s, t, seat, n)
        if p < 0:
            trace_opts(s, EV_STOP, seat, 0, 0, s.sc[S_N_UP], face_down_places(s), 0)
            break
        reveal(s, seat, p)
        luck_reveal(s, t, seat, p, -1)
        extra += 1
    if extra > 0:
        s.stats[seat, ST_THIRD] += 1
    if must_take_treasure(s, t):
        s.stats[seat, ST_TREASURE_TURNS] += 1
        for i in range(s.sc[S_N_UP]):
            c = s.grid[s.up[i]]
            if c >= 0 and is_treasure(t, c):
                take_from_grid(s, t, seat, c)
    else:
        idx = choose_kind(s, t, seat, n)
        kinds = up_kinds(s, t, -1) if tracing(s) else 0  # the options, for the trace
        if idx < 0:
            s.stats[seat, ST_NOTHING] += 1
            trace(s, EV_NOTHING, seat, 0, kinds, 0)
        else:
            c0 = s.grid[s.up[idx]]
            trace(s, EV_KIND, seat, t.card_key[c0], kinds, 1)
            for i in range(s.sc[S_N_UP]):
                c = s.grid[s.up[i]]
                if (
                    c >= 0
                    and t.card_kind[c] == t.card_kind[c0]
                    and t.card_colour[c] == t.card_colour[c0]
                ):
                    take_from_grid(s, t, seat, c)
    turn_back(s, n, seat)


@njit
def pairs_and_rewards(s, t, seat, n, game):
    """The end of ``seat``'s turn: a steal for each key and chest pair it holds,
    then the rewards it now meets."""
    while pairs_ready(s, seat):
        discard_pair(s, t, seat)
        victim, card = choose_steal(s, t, seat, n)
        do_steal(s, t, seat, n, victim, card, game)
    check_rewards(s, t, seat, n)
    s.stats[seat, ST_TURNS] += 1


@njit
def do_steal(s, t, seat, n, victim, card, game):
    """``seat``'s steal of ``card`` from ``victim`` (-1: nobody to steal from)."""
    if victim < 0:
        s.stats[seat, ST_NO_VICTIM] += 1
        trace(s, EV_NO_VICTIM, seat, 0, 0, 0)
    else:
        steal(s, t, seat, victim, card, game)


@njit
def next_seat(s, t, seat, n, turns):
    """After ``turns`` turns, the last one ``seat``'s: the seat to play next, or -1
    when the game is over ("Game end"; the turn cap sets ``S_ABORTED``)."""
    left = s.sc[S_LEFT]
    if left == 0:
        return -1
    if left <= t.end_cards and (t.finish_round == 0 or seat == n - 1):
        return -1
    if t.last_end == 1 and left < t.first_reveals:
        return -1  # ruling last_cards = "end": too few cards for a turn's reveals
    if turns >= t.max_turns:  # (a game that has just ended is no abort)
        s.sc[S_ABORTED] = 1
        return -1
    return seat + 1 if seat + 1 < n else 0


@njit
def start_game(s, t, n, key0, key1, game):
    """Seed game ``game``'s stream and set it up (no turn played)."""
    rng_seed(s.rng, key0, key1, game)
    s.sc[S_GAME] = game
    s.sc[S_N] = n
    s.sc[S_ABORTED] = 0
    setup(s, t, n)
    luck_reset(s)
    if t.n_tiles > 0:
        tiles_setup(s, t, n)


@njit
def play_game(s, t, n, key0, key1, game):
    """Set up and play game ``game`` to its end ("Game end"); returns the turns played.

    The last round starts once ``end_cards`` or fewer cards are left and ends after
    the last seat (seat ``n - 1``); the young variant ends when the grid is empty.
    With the ruling ``last_cards = "end"`` the game ends at once when fewer cards
    are left than a turn reveals at first. Draws only from the game's own stream."""
    start_game(s, t, n, key0, key1, game)
    seat = 0
    turns = 0
    while True:
        s.sc[S_TURN] = turns
        s.sc[S_SEAT] = seat
        if t.n_tiles > 0:
            play_turn_tiles(s, t, seat, n, game)
        else:
            play_turn(s, t, seat, n, game)
        turns += 1
        seat = next_seat(s, t, seat, n, turns)
        if seat < 0:
            break
    s.sc[S_TURN] = turns
    return turns


@njit
def check_invariants(s, t, n):
    """Bit mask of broken invariants after a game (0 when all hold): every card is
    in the grid or held once (and the grid's masks agree), plastic diamonds and
    treasure markers are conserved (with ``steal_pairs = "cards"``: each seat's
    unpaired counters are its unspent key and chest cards), every seat's counters
    match the cards it owns."""
    bad = 0
    in_grid = 0
    grid_cards = 0
    for p in range(t.n_cards):
        c = s.grid[p]
        if c >= 0:
            in_grid += 1
            grid_cards |= 1 << c
            if s.owner[c] != -1 or s.pos_of[c] != p:
                bad |= BAD_CARDS
    held = 0
    plastic = 0
    markers = s.sc[S_DISCARDED]
    for q in range(n):
        held += s.held[q, H_CARDS]
        plastic += s.held[q, H_PLASTIC]
        markers += s.held[q, H_KEYS] + s.held[q, H_CHESTS]
    if in_grid != s.sc[S_LEFT] or in_grid + held != t.n_cards:
        bad |= BAD_CARDS
    for w in range(t.n_wonders):
        plastic += s.board_plastic[w]
    if plastic != t.n_wonders:
        bad |= BAD_PLASTIC
    tally = s.tally  # cards, diamond cards, key and chest cards of each seat, from owner
    for q in range(n):
        for j in range(3):
            tally[q, j] = 0
    owned = 0
    for c in range(t.n_cards):
        q = s.owner[c]
        if q >= 0:
            owned += 1
            tally[q, 0] += 1
            if t.card_kind[c] == Kind.DIAMOND:
                tally[q, 1] += 1
            elif is_treasure(t, c):
                tally[q, 2] += 1
        elif is_treasure(t, c):
            markers += 1  # its marker still lies below the column
    if owned != held:
        bad |= BAD_CARDS
    if t.rewards == 1 and markers != t.n_wonders:
        bad |= BAD_MARKERS
    # the masks kept turn by turn agree with the arrays
    if s.sc[S_GRID_CARDS] != grid_cards or popcount(s.sc[S_GRID_PLACES]) != in_grid:
        bad |= BAD_CARDS
    for q in range(n):
        cards = tally[q, 0]
        dia = tally[q, 1]
        tre = tally[q, 2]
        colours = 0
        gem_total = 0
        for g in range(t.n_colours):
            gem_total += s.gems[q, g]
            if s.gems[q, g] > 0:
                colours += 1
        wonders = 0
        for w in range(t.n_wonders):
            if s.wcards[q, w] > 0:
                wonders += 1
        if (
            cards != s.held[q, H_CARDS]
            or dia != s.held[q, H_DIAMOND]
            or tre != s.held[q, H_TREASURE]
            or gem_total != cards - dia - tre
            or colours != s.held[q, H_COLOURS]
            or wonders != s.held[q, H_WONDERS]
        ):
            bad |= BAD_HOLDINGS
        if t.pair_cards == 1 and (
            s.held[q, H_KEYS] != unspent(s, t, q, Kind.KEY)
            or s.held[q, H_CHESTS] != unspent(s, t, q, Kind.CHEST)
        ):
            bad |= BAD_MARKERS  # steal_pairs = cards: the counters are the unspent cards
    if s.sc[S_ABORTED] == 1:
        bad |= BAD_ABORTED
    if t.n_tiles > 0 and not check_tiles(s, t, n):
        bad |= BAD_TILES
    return bad


@njit
def play_batch(s, t, o, n, key0, key1, start, count):
    """Play games ``start .. start+count-1``; write ``o.results`` (int64[count * n,
    n_result_cols]) and ``o.wins`` (float32[count * n]), rows by game then seat
    (``o``: a :func:`~analyzer.kernels.kernel_view.results_view`).

    Each seat's Plan and parameter row are ``s.plan`` and ``s.prm``.
    A tied top score shares the win (``tie_share``) or gives no winner."""
    for i in range(count):
        turns = play_game(s, t, n, key0, key1, start + i)
        record_game(s, t, o, n, i, turns)


@njit
def record_game(s, t, o, n, i, turns):
    """Score the game just played in ``s`` (``turns`` turns), check its invariants
    and write its rows ``i * n ..`` of ``o`` (:func:`play_batch`)."""
    results = o.results
    wins = o.wins
    final_scores(s, t, n)
    bad = check_invariants(s, t, n)
    store_luck(s, n, i * n)
    best = s.parts[0, R_SCORE]
    for q in range(n):
        best = max(best, s.parts[q, R_SCORE])
    top = 0
    for q in range(n):
        if s.parts[q, R_SCORE] == best:
            top += 1
        tot = s.parts[q, R_PTS_PART] + t.head_start[n, q]
        for j in range(N_PARTS):
            tot += s.parts[q, j]
        if tot != s.parts[q, R_SCORE]:
            bad |= BAD_SCORE
    s.sc[S_BAD] = bad
    for q in range(n):
        r = i * n + q
        for j in range(N_PARTS + 1):
            results[r, R_PARTS + j] = s.parts[q, j]
        results[r, R_TURNS] = s.stats[q, ST_TURNS]
        results[r, R_GAME_TURNS] = turns
        results[r, R_DIAMOND] = s.held[q, H_DIAMOND]
        results[r, R_PLASTIC] = s.held[q, H_PLASTIC]
        results[r, R_TREASURE] = s.held[q, H_TREASURE]
        results[r, R_COLOURS] = s.held[q, H_COLOURS]
        results[r, R_WONDERS] = s.held[q, H_WONDERS]
        results[r, R_CARDS] = s.held[q, H_CARDS]
        results[r, R_MARKERS] = s.held[q, H_KEYS] + s.held[q, H_CHESTS]
        results[r, R_STEALS] = s.stats[q, ST_STEALS]
        results[r, R_ROBBED] = s.stats[q, ST_ROBBED]
        results[r, R_STOLE_PLASTIC] = s.stats[q, ST_STOLE_PLASTIC]
        results[r, R_THIRD] = s.stats[q, ST_THIRD]
        results[r, R_TREASURE_TURNS] = s.stats[q, ST_TREASURE_TURNS]
        results[r, R_NOTHING] = s.stats[q, ST_NOTHING]
        results[r, R_NO_VICTIM] = s.stats[q, ST_NO_VICTIM]
        results[r, R_BAD] = bad
        results[r, R_LEFT] = s.sc[S_LEFT]
        results[r, R_GEM_TURN] = s.sc[S_GEM_TURN]
        results[r, R_EXPLORER_TURN] = s.sc[S_EXPLORER_TURN]
        results[r, R_TREASURE_COUNTED] = s.counted[q]
        results[r, R_PTS_TILES] = s.parts[q, R_PTS_PART]
        results[r, R_TILES_TAKEN] = s.stats[q, ST_TILES_TAKEN]
        results[r, R_TILES_USED] = s.stats[q, ST_TILES_USED]
        took = 0
        held = 0
        if t.n_tiles > 0:
            took = s.tiles_took[q]
            for k in range(t.n_tiles):
                if s.tile_owner[k] == q:
                    held |= 1 << k
        results[r, R_TILES_TOOK] = took
        results[r, R_TILES_HELD] = held
        for g in range(t.n_colours):
            results[r, R_GEMS + g] = s.gems[q, g]
        won = s.parts[q, R_SCORE] == best
        if not won:
            wins[r] = 0.0
        elif top == 1:
            wins[r] = 1.0
        elif t.tie_share == 1:
            wins[r] = np.float32(1.0 / top)
        else:
            wins[r] = 0.0
        if t.rewards == 1:  # the treasure majority, as scored
            trace(s, EV_TREASURE, q, s.counted[q], s.parts[q, 5], 0)
        trace(s, EV_END, q, s.parts[q, R_SCORE], np.int64(wins[r] * 1000.0 + 0.5), 0)


@njit
def deal_batch(s, t, o, key0, key1, start, count):
    """The set-up layouts of games ``start .. start+count-1`` exactly as
    :func:`play_game` deals them: ``o.results`` int64[count, n_cards] (card at each
    position; ``o`` a :func:`~analyzer.kernels.kernel_view.results_view`). Draws what the
    set-up draws from each game's stream."""
    grids = o.results
    for i in range(count):
        rng_seed(s.rng, key0, key1, start + i)
        setup(s, t, 1)
        for p in range(t.n_cards):
            grids[i, p] = s.grid[p]
