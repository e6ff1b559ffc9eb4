"""Whole games of Unearth inside numba: the game loop, scores, invariants, results.

The rules themselves are laid out like the rulebook (``docs/games/unearth.md``),
one module per section, each citing its section:

- "Set-up": :mod:`.setup`
- "A turn": :mod:`.turn` (the delver phase, then the excavation) and :mod:`.rolls`
  (rolling a die: modifiers, rerolls, its stone, the claim check)
- "Claims and tiebreaks": :mod:`.claiming` (claims on the table, the claims log)
  and :mod:`.claims` (the tiebreak)
- "Delver cards": :mod:`.cards`
- "End of age": :mod:`.end_of_age` (revealing ruins, events)
- "Stones, rings and wonders": :mod:`.wonders` and :mod:`.tableau` (geometry)
- "Scoring": :mod:`.scoring`

Decisions are delegated to :mod:`.strategies`; how the engine reads the rules
where the rulebooks are silent is in ``docs/games/unearth.md``. Every section's kernels
can still be imported from here, as before the split.
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.kernel_view import Results
from analyzer.unearth.cards import play_card
from analyzer.unearth.claiming import check_claims, decided_by
from analyzer.unearth.codes import CardKind
from analyzer.unearth.end_of_age import reveal, table_empty
from analyzer.unearth.luck import store_luck
from analyzer.unearth.rolls import roll_die
from analyzer.unearth.scoring import N_PARTS, score_player, share_wins
from analyzer.unearth.setup import setup
from analyzer.unearth.state import (
    C_CARD,
    C_CLAIM,
    C_DECIDED,
    C_FACES,
    C_GAME,
    C_NDICE,
    C_NSEATS,
    C_TOTAL,
    C_TURN,
    C_WINNER,
    EV_END,
    MAX_CLAIMS_PER_GAME,
    MAX_TURNS,
    N_CLAIM_COLS,
    S_ABORTED,
    S_BOXED_N,
    S_DDECK_N,
    S_DECK_LEN,
    S_DECK_POS,
    S_EOA,
    S_N_SLOTS,
    S_OVER,
    S_REMOVED_N,
    S_TURN,
    ST_CLAIMS,
    ST_PLAYED,
    ST_PLAYED_KIND,
    ST_TURNS,
    trace,
)
from analyzer.unearth.tableau import (
    stones_box,
)
from analyzer.unearth.turn import excavate, take_turn
from analyzer.unearth.wonders import build_wonder, gain_stone, place_stone

# columns of the per-(game, seat) result row written by play_batch
R_SCORE = 0
R_PARTS = 1  #: R_PARTS .. R_PARTS + N_PARTS - 1
R_TURNS = R_PARTS + N_PARTS
R_GAME_TURNS = R_TURNS + 1
R_EOA = R_GAME_TURNS + 1
R_LESSER = R_EOA + 1
R_GREATER = R_LESSER + 1
R_NAMED = R_GREATER + 1
R_DRAWN = R_NAMED + 1
R_PLAYED = R_DRAWN + 1
R_CLAIMS = R_PLAYED + 1
R_ABORTED = R_CLAIMS + 1
R_INVARIANTS = R_ABORTED + 1  #: bitmask of failed invariants (0: all hold)
R_BASE = (
    R_INVARIANTS + 1
)  #: then ruins by colour (+cities), stones by colour, named, played by kind


@njit(inline="always")
def play_game(s, m, t, n_players, key0, key1, game):
    """Play one whole game in ``s`` (set up from scratch), the seats deciding with
    the strategies and memo ``m``. Draws random numbers."""
    setup(s, m, t, n_players, key0, key1, game)
    p = 0
    while not s.sc[S_OVER]:
        if s.sc[S_TURN] >= MAX_TURNS:
            s.sc[S_ABORTED] = 1
            break
        take_turn(s, m, t, p)
        s.sc[S_TURN] += 1
        p = (p + 1) % n_players


@njit(inline="always")
def final_scores(s, t, n_players):
    """Score every seat into ``s.scores`` (parts in ``s.parts``) and share the win
    in ``s.win`` (``docs/games/unearth.md``, "Scoring")."""
    for p in range(n_players):
        s.scores[p] = score_player(s, t, p)
    share_wins(s, t, n_players)


# ====================================================================== invariants

INV_STONES = 1  #: stones of each colour conserved across bag, ruins and tableaux
INV_DELVERS = 2  #: delver cards conserved across deck, discards and hands
INV_RUINS = 4  #: every ruin held, set aside, boxed by a tie, or on the table / in the deck
INV_TABLE = 8  #: the game ended with no ruin on the table and the deck used up
INV_TOUCH = 16  #: every stone touches another (a tableau of 2+ stones is connected)
INV_BOX = 32  #: the bounding box kept for each tableau (``s.box``) matches its stones


@njit(inline="always")
def check_invariants(s, t, n_players):
    """Bitmask of the invariants that fail at the end of a game (0 when all hold)."""
    neigh = t.neigh
    bad = 0
    n_col = t.n_stone_colours
    for c in range(n_col):
        total = s.bag[c]
        for slot in range(s.slot_stones.shape[0]):
            total += s.slot_stones[slot, c]
        for p in range(n_players):
            total += s.n_stones[p, c]
        if total != t.stones_per_colour:
            bad |= INV_STONES
    cards = s.sc[S_DDECK_N]
    for k in range(s.ddisc.shape[0]):
        cards += s.ddisc[k]
        for p in range(n_players):
            cards += s.hand[p, k]
    if cards != t.delver_copies.sum():
        bad |= INV_DELVERS
    held = 0
    for p in range(n_players):
        for card in range(s.held.shape[1]):
            held += s.held[p, card]
    on_table = 0
    for slot in range(s.sc[S_N_SLOTS]):
        if s.slot_card[slot] >= 0:
            on_table += 1
    in_deck = s.sc[S_DECK_LEN] - s.sc[S_DECK_POS]
    if not s.sc[S_ABORTED]:
        # at the end: every ruin (and an end-of-age city) is held, set aside or boxed
        expect = t.n_ruins + (1 if t.card_kind[s.sc[S_EOA]] == CardKind.CITY else 0)
        if held + s.sc[S_REMOVED_N] + s.sc[S_BOXED_N] != expect:
            bad |= INV_RUINS
    if not s.sc[S_ABORTED] and (on_table != 0 or in_deck != 0):
        bad |= INV_TABLE
    # one pass over each tableau: stones by colour, bounding box, then a flood fill
    # from one stone must reach every stone
    cnt = s.colour_n
    seen = s.cellmark
    stack = s.cellbuf
    for p in range(n_players):
        for c in range(n_col):
            cnt[c] = 0
        start = -1
        n = 0
        for cell in range(s.stone.shape[1]):
            seen[cell] = 0
            c = s.stone[p, cell]
            if c >= 0:
                cnt[c] += 1
                n += 1
                start = cell
        for c in range(n_col):
            if cnt[c] != s.n_stones[p, c]:
                bad |= INV_STONES
        r0, r1, q0, q1 = stones_box(s.stone[p], n)
        box = s.box[p]
        if box[0] != r0 or box[1] != r1 or box[2] != q0 or box[3] != q1:
            bad |= INV_BOX
        if n < 2:
            continue
        top = 0
        stack[0] = start
        seen[start] = 1
        reached = 1
        while top >= 0:
            cell = stack[top]
            top -= 1
            for k in range(6):
                nb = neigh[cell, k]
                if nb >= 0 and not seen[nb] and s.stone[p, nb] >= 0:
                    seen[nb] = 1
                    reached += 1
                    top += 1
                    stack[top] = nb
        if reached != n:
            bad |= INV_TOUCH
    return bad


# ====================================================================== batch


def n_result_cols(t):
    """Width of a per-(game, seat) result row (see ``R_*`` and :func:`write_results`)."""
    return (
        R_BASE
        + t.n_ruin_colours
        + 1
        + t.n_stone_colours
        + t.wonder_points.shape[0]
        + t.delver_copies.shape[0]
    )


def new_batch(t, n_players: int, count: int) -> Results:
    """Room for the results of ``count`` games of ``n_players``: int32 rows of
    :func:`n_result_cols` (``R_*`` columns) and float32 win shares."""
    return Results(
        results=np.zeros((count * n_players, n_result_cols(t)), np.int32),
        wins=np.zeros(count * n_players, np.float32),
    )


@njit(inline="always")
def write_results(s, t, o, n_players, row0):
    """Write one finished game's rows (one per seat, from ``s.scores``, ``s.parts``
    and ``s.win``) into ``o.results``/``o.wins`` from row ``row0``."""
    results = o.results
    scores = s.scores
    parts = s.parts
    named_built = 0
    for p in range(n_players):
        r = results[row0 + p]
        r[:] = 0
        r[R_SCORE] = scores[p]
        for i in range(N_PARTS):
            r[R_PARTS + i] = parts[p, i]
        r[R_TURNS] = s.seat_stats[p, ST_TURNS]
        r[R_GAME_TURNS] = s.sc[S_TURN]
        r[R_EOA] = s.sc[S_EOA]
        r[R_LESSER] = s.tokens[p, 0]
        r[R_GREATER] = s.tokens[p, 1]
        named_built = 0
        for w in range(s.named_state.shape[0]):
            if s.named_state[w] == p:
                named_built += 1
        r[R_NAMED] = named_built
        r[R_DRAWN] = s.seat_stats[p, 0]
        r[R_PLAYED] = s.seat_stats[p, ST_PLAYED]
        r[R_CLAIMS] = s.seat_stats[p, ST_CLAIMS]
        r[R_ABORTED] = s.sc[S_ABORTED]
        col = R_BASE
        for c in range(t.n_ruin_colours):
            cnt = 0
            for card in range(s.held.shape[1]):
                if (
                    s.held[p, card]
                    and t.card_kind[card] == CardKind.RUIN
                    and (t.card_colour[card] == c)
                ):
                    cnt += 1
            r[col] = cnt
            col += 1
        cnt = 0
        for card in range(s.held.shape[1]):
            if s.held[p, card] and t.card_kind[card] == CardKind.CITY:
                cnt += 1
        r[col] = cnt
        col += 1
        for c in range(t.n_stone_colours):
            r[col] = s.n_stones[p, c]
            col += 1
        for w in range(s.named_state.shape[0]):
            r[col] = 1 if s.named_state[w] == p else 0
            col += 1
        for k in range(s.hand.shape[1]):
            r[col] = s.seat_stats[p, ST_PLAYED_KIND + k]
            col += 1
        o.wins[row0 + p] = s.win[p]


@njit
def play_batch(s, m, t, o, n_players, key0, key1, first_game, count):
    """Play games ``first_game .. first_game+count-1``; write one row per (game, seat)
    into ``o`` (a :class:`~analyzer.kernels.kernel_view.Results` view, :func:`new_batch`).

    ``s``: the game state (with the claims log ``s.claims``, shape (1, N_CLAIM_COLS)
    to skip it, and its row counter ``s.n_claims``); ``m``: the seats' strategies,
    parameters and memo (:class:`~analyzer.unearth.memo.Memo`). Each game draws
    only from its own stream (key0, key1, game index).
    """
    for i in range(count):
        game = first_game + i
        play_game(s, m, t, n_players, key0, key1, game)
        end_game(s, t, o, n_players, i)


@njit(inline="always")
def end_game(s, t, o, n_players, i):
    """A finished game: scores, its rows (row block ``i`` of ``o``), the
    invariants, the trace's end events."""
    final_scores(s, t, n_players)
    write_results(s, t, o, n_players, i * n_players)
    bad = check_invariants(s, t, n_players)
    for p in range(n_players):
        o.results[i * n_players + p, R_INVARIANTS] = bad
    store_luck(s, n_players, i * n_players)
    for p in range(n_players):
        trace(s, EV_END, p, s.scores[p], int(round(s.win[p] * 1000)), 0, 0, 0)


#: the kernels of every section, importable from here as before the split
__all__ = [
    "C_CARD",
    "C_CLAIM",
    "C_DECIDED",
    "C_FACES",
    "C_GAME",
    "C_NDICE",
    "C_NSEATS",
    "C_TOTAL",
    "C_TURN",
    "C_WINNER",
    "MAX_CLAIMS_PER_GAME",
    "N_CLAIM_COLS",
    "build_wonder",
    "check_claims",
    "check_invariants",
    "decided_by",
    "end_game",
    "excavate",
    "final_scores",
    "gain_stone",
    "n_result_cols",
    "new_batch",
    "place_stone",
    "play_batch",
    "play_card",
    "play_game",
    "reveal",
    "roll_die",
    "setup",
    "table_empty",
    "take_turn",
    "write_results",
]
