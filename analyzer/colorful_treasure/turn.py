"""The rules of set-up, a turn, the rewards and the end scoring, as small kernels.

Sections of ``docs/games/colorful_treasure.md``: "Set-up" (:func:`setup`), "A
turn" (:func:`reveal`, :func:`must_take_treasure`, :func:`take_from_grid`,
:func:`turn_back`, :func:`pairs_ready`, :func:`steal`), "Players and memory"
(:func:`remember`), "Scoring" (:func:`check_rewards`, :func:`final_scores`).
Decisions are not made here: the game loop (:mod:`.engine`) asks the
strategies (:mod:`.strategies`) and applies their answers with these kernels.
"""

import numpy as np

from analyzer.colorful_treasure.bits import lowest, popcount
from analyzer.colorful_treasure.codes import (
    BAR_EXPLORER,
    BAR_GEM,
    BAR_TREASURE,
    P_RECALL,
    SCALE,
    Effect,
    Kind,
    Reward,
)
from analyzer.colorful_treasure.state import (
    ALWAYS,
    EV_BACK,
    EV_PAIR,
    EV_PLASTIC,
    EV_REVEAL,
    EV_REWARD,
    EV_STEAL,
    EV_TAKE,
    H_CARDS,
    H_CHESTS,
    H_COLOURS,
    H_DIAMOND,
    H_KEYS,
    H_PLASTIC,
    H_TREASURE,
    H_WONDERS,
    NEVER,
    S_COLS_TURN,
    S_DISCARDED,
    S_EXPLORER_OWNER,
    S_EXPLORER_TURN,
    S_GEM_OWNER,
    S_GEM_TURN,
    S_GRID_CARDS,
    S_GRID_PLACES,
    S_LEFT,
    S_N,
    S_N_UP,
    S_PAIRED,
    S_STEAL_N,
    S_STOLEN,
    S_SV_TURN,
    S_TURN,
    S_UP_CARDS,
    S_UP_COUNTED,
    S_UP_PLACES,
    S_VALUES_TURN,
    ST_ROBBED,
    ST_STEALS,
    ST_STOLE_PLASTIC,
    trace,
    trace_opts,
    tracing,
)
from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_below, rng_float

# ------------------------------------------------------------------ set-up


@njit
def setup(s, t, n):
    """Reset ``s`` for a new game of ``n`` seats and lay out the grid.

    Each wonder's cards are shuffled into its own column (draws ``rows - 1``
    numbers per column with :func:`~analyzer.kernels.rng.rng_below`, so tests may force
    them), unless ``s.deal[0] >= 0``: then ``s.deal`` is the layout (card at
    each position). A plastic diamond goes above every column.
    """
    rows = t.rows
    for p in range(t.n_cards):
        s.owner[p] = -1
        for q in range(n):
            s.mem[q, p] = NEVER
    for q in range(n):
        s.kn[q] = 0
    for w in range(t.n_wonders):
        base = w * rows
        for r in range(rows):
            s.grid[base + r] = base + r
        if s.deal[0] >= 0:
            for r in range(rows):
                s.grid[base + r] = s.deal[base + r]
        else:
            for i in range(rows - 1, 0, -1):
                j = rng_below(s.rng, i + 1)
                tmp = s.grid[base + i]
                s.grid[base + i] = s.grid[base + j]
                s.grid[base + j] = tmp
        s.board_plastic[w] = 1
    for p in range(t.n_cards):
        s.pos_of[s.grid[p]] = p
    s.gems[:, :] = 0
    s.wcards[:, :] = 0
    s.held[:, :] = 0
    s.stats[:, :] = 0
    s.sc[S_LEFT] = t.n_cards
    s.sc[S_GRID_CARDS] = (np.int64(1) << t.n_cards) - 1
    s.sc[S_GRID_PLACES] = (np.int64(1) << t.n_cards) - 1
    s.sc[S_UP_CARDS] = 0
    s.sc[S_UP_PLACES] = 0
    s.sc[S_SV_TURN] = -1
    s.sc[S_VALUES_TURN] = -1
    s.sc[S_UP_COUNTED] = -1
    s.sc[S_COLS_TURN] = -1
    s.sc[S_N_UP] = 0
    s.sc[S_GEM_OWNER] = -1
    s.sc[S_EXPLORER_OWNER] = -1
    s.sc[S_GEM_TURN] = -1
    s.sc[S_EXPLORER_TURN] = -1
    s.sc[S_DISCARDED] = 0
    s.sc[S_STOLEN] = 0
    s.sc[S_PAIRED] = 0
    s.sc[S_TURN] = 0


# ------------------------------------------------------------------ a turn


@njit
def face_down(s, p):
    """Position ``p`` holds a card that is face down (in the grid, not revealed now)."""
    return (face_down_places(s) >> p) & 1 == 1


@njit
def face_down_places(s):
    """Mask of the places that hold a face-down card."""
    return s.sc[S_GRID_PLACES] & ~s.sc[S_UP_PLACES]


@njit
def face_down_count(s):
    """Cards in the grid that are face down now."""
    return s.sc[S_LEFT] - s.sc[S_N_UP]


@njit
def reveal(s, seat, p):
    """Turn the card at position ``p`` face up (everyone sees it)."""
    k = s.sc[S_N_UP]
    options = face_down_places(s)  # (the trace's options: every face-down place)
    s.up[k] = p
    s.sc[S_N_UP] = k + 1
    s.sc[S_UP_PLACES] |= np.int64(1) << p
    s.sc[S_UP_CARDS] |= np.int64(1) << s.grid[p]
    trace_opts(s, EV_REVEAL, seat, p, s.grid[p], k + 1, options, 0)


@njit
def is_treasure(t, card):
    kind = t.card_kind[card]
    return kind == Kind.KEY or kind == Kind.CHEST


@njit
def must_take_treasure(s, t):
    """A key or chest is face up: the turn must take every key and chest revealed."""
    for i in range(s.sc[S_N_UP]):
        if is_treasure(t, s.grid[s.up[i]]):
            return True
    return False


@njit
def gain_card(s, t, seat, card):
    """``seat`` now holds ``card`` (from the grid or a steal): update its holdings."""
    s.owner[card] = seat
    kind = t.card_kind[card]
    if kind == Kind.GEM:
        g = t.card_colour[card]
        if s.gems[seat, g] == 0:
            s.held[seat, H_COLOURS] += 1
        s.gems[seat, g] += 1
    elif kind == Kind.DIAMOND:
        s.held[seat, H_DIAMOND] += 1
    else:
        s.held[seat, H_TREASURE] += 1
    w = t.card_wonder[card]
    if s.wcards[seat, w] == 0:
        s.held[seat, H_WONDERS] += 1
    s.wcards[seat, w] += 1
    s.held[seat, H_CARDS] += 1


@njit
def lose_card(s, t, seat, card):
    """``seat`` no longer holds ``card`` (stolen): the reverse of :func:`gain_card`."""
    kind = t.card_kind[card]
    if kind == Kind.GEM:
        g = t.card_colour[card]
        s.gems[seat, g] -= 1
        if s.gems[seat, g] == 0:
            s.held[seat, H_COLOURS] -= 1
    elif kind == Kind.DIAMOND:
        s.held[seat, H_DIAMOND] -= 1
    else:
        s.held[seat, H_TREASURE] -= 1
    w = t.card_wonder[card]
    s.wcards[seat, w] -= 1
    if s.wcards[seat, w] == 0:
        s.held[seat, H_WONDERS] -= 1
    s.held[seat, H_CARDS] -= 1


@njit
def take_from_grid(s, t, seat, card):
    """``seat`` takes the face-up ``card``: a diamond card brings the plastic diamond
    above its column, a key or chest card brings its wonder's treasure marker."""
    p = s.pos_of[card]
    s.grid[p] = -1
    s.sc[S_LEFT] -= 1
    s.sc[S_GRID_CARDS] &= ~(np.int64(1) << card)
    s.sc[S_GRID_PLACES] &= ~(np.int64(1) << p)
    gain_card(s, t, seat, card)
    trace(s, EV_TAKE, seat, card, 0, 0)
    kind = t.card_kind[card]
    if kind == Kind.DIAMOND:
        w = t.card_wonder[card]
        if s.board_plastic[w] == 1:
            s.board_plastic[w] = 0
            s.held[seat, H_PLASTIC] += 1
            trace(s, EV_PLASTIC, seat, w, 0, 0)
    elif kind == Kind.KEY:
        s.held[seat, H_KEYS] += 1
    elif kind == Kind.CHEST:
        s.held[seat, H_CHESTS] += 1


@njit
def remember(s, n, card):
    """Every seat sees ``card`` before it goes face down: draw how long each keeps it.

    Seat ``q`` remembers it at game turn ``turn + k`` with probability
    ``recall**k`` (``prm[q, P_RECALL]``): the number of further turns is drawn
    once, geometric, ``floor(log(u) / log(recall))`` with ``u`` uniform on (0, 1].
    Draws one number per seat whose recall is strictly between 0 and 1. A seat
    that keeps the card past this turn gets its bit in ``kn`` (it may use it at
    its next decision).
    """
    prm = s.prm
    turn = s.sc[S_TURN]
    bit = np.int64(1) << card
    for q in range(n):
        r = prm[q, P_RECALL]
        if r >= 1.0:
            s.mem[q, card] = ALWAYS
            s.kn[q] |= bit
        elif r <= 0.0:
            s.mem[q, card] = turn
        else:
            if s.log_recall[q, 0] != r:  # log(recall) once per value, not per draw
                s.log_recall[q, 0] = r
                s.log_recall[q, 1] = np.log(r)
            u = 1.0 - rng_float(s.rng)
            k = np.int64(np.log(u) / s.log_recall[q, 1])
            s.mem[q, card] = turn + k
            if k > 0:
                s.kn[q] |= bit


@njit
def turn_back(s, n, seat):
    """End of the reveal: every face-up card still in the grid goes face down in place."""
    for i in range(s.sc[S_N_UP]):
        p = s.up[i]
        if s.grid[p] >= 0:
            remember(s, n, s.grid[p])
            trace(s, EV_BACK, seat, p, s.grid[p], 0)
        s.up[i] = -1
    s.sc[S_N_UP] = 0
    s.sc[S_UP_PLACES] = 0
    s.sc[S_UP_CARDS] = 0


@njit
def pairs_ready(s, seat):
    """``seat`` holds a key marker and a chest marker (two of one kind never pair);
    with the ruling ``steal_pairs = "cards"``, a key card and a chest card not yet
    spent in a pair (the same counters, kept by :func:`steal` and :func:`spend_card`)."""
    return s.held[seat, H_KEYS] > 0 and s.held[seat, H_CHESTS] > 0


@njit
def discard_pair(s, t, seat):
    """``seat`` discards a key and a chest marker (``steal_pairs = "cards"``: spends a
    key card and a chest card, :func:`spend_card`)."""
    s.held[seat, H_KEYS] -= 1
    s.held[seat, H_CHESTS] -= 1
    s.sc[S_DISCARDED] += 2
    key = -1
    chest = -1
    if t.pair_cards == 1:
        key = spend_card(s, t, seat, Kind.KEY)
        chest = spend_card(s, t, seat, Kind.CHEST)
    trace(s, EV_PAIR, seat, key, chest, 0)


@njit
def spend_card(s, t, seat, kind):
    """Ruling ``steal_pairs = "cards"``: the lowest card of ``kind`` (key or chest)
    that ``seat`` holds and has not spent in a pair is spent now: it stays with its
    holder (it counts for the treasure reward) but makes no other pair, whoever
    holds it later. Returns the card (-1 if none)."""
    x = t.key_mask[t.n_colours + kind - Kind.DIAMOND] & ~s.sc[S_GRID_CARDS] & ~s.sc[S_PAIRED]
    while x != 0:
        c = lowest(x)
        x &= x - 1
        if s.owner[c] == seat:
            s.sc[S_PAIRED] |= np.int64(1) << c
            return c
    return -1


@njit
def unspent(s, t, seat, kind):
    """Cards of ``kind`` (key or chest) ``seat`` holds that are not spent in a pair."""
    x = t.key_mask[t.n_colours + kind - Kind.DIAMOND] & ~s.sc[S_GRID_CARDS] & ~s.sc[S_PAIRED]
    k = 0
    while x != 0:
        c = lowest(x)
        x &= x - 1
        if s.owner[c] == seat:
            k += 1
    return k


@njit
def has_loot(s, victim):
    """``victim`` holds something a steal can take (a plastic diamond or a card)."""
    return s.held[victim, H_PLASTIC] > 0 or s.held[victim, H_CARDS] > 0


@njit
def steal_options(s, t, seat):
    """``(cards, seats)``: masks of what a steal by ``seat`` may take now, for the
    trace: the cards of the other seats, the seats with a plastic diamond (a seat
    holding the truce: nothing; holding guarded: no card)."""
    cards = np.int64(0)
    seats = np.int64(0)
    for v in range(s.sc[S_N]):
        if v == seat or holds_effect(s, t, v, Effect.TRUCE) > 0:
            continue
        if s.held[v, H_PLASTIC] > 0:
            seats |= np.int64(1) << v
        if holds_effect(s, t, v, Effect.GUARDED) > 0:
            continue
        for c in range(t.n_cards):
            if s.owner[c] == v:
                cards |= np.int64(1) << c
    return cards, seats


@njit
def up_kinds(s, t, skip):
    """Mask of the gem and diamond kinds face up (bit = ``card_key``), less the kind
    ``skip`` (-1: none), for the trace's options of a take."""
    m = np.int64(0)
    for i in range(s.sc[S_N_UP]):
        c = s.grid[s.up[i]]
        if c >= 0 and not is_treasure(t, c) and t.card_key[c] != skip:
            m |= np.int64(1) << t.card_key[c]
    return m


@njit
def steal(s, t, seat, victim, card, game):
    """``seat`` takes ``card`` (or a plastic diamond if ``card`` is -1) from ``victim``."""
    opt_cards = np.int64(0)
    opt_seats = np.int64(0)
    if tracing(s):  # the options of the choice, before it changes anything
        opt_cards, opt_seats = steal_options(s, t, seat)
    if card < 0:
        s.held[victim, H_PLASTIC] -= 1
        s.held[seat, H_PLASTIC] += 1
        s.stats[seat, ST_STOLE_PLASTIC] += 1
    else:
        lose_card(s, t, victim, card)
        gain_card(s, t, seat, card)
        s.sc[S_STOLEN] |= np.int64(1) << card
        if t.pair_cards == 1 and is_treasure(t, card) and (s.sc[S_PAIRED] >> card) & 1 == 0:
            # steal_pairs = "cards": an unspent key or chest card may pair for its thief
            col = H_KEYS if t.card_kind[card] == Kind.KEY else H_CHESTS
            s.held[victim, col] -= 1
            s.held[seat, col] += 1
    s.stats[seat, ST_STEALS] += 1
    s.stats[victim, ST_ROBBED] += 1
    trace_opts(s, EV_STEAL, seat, victim, card, 0, opt_cards, opt_seats)
    i = s.sc[S_STEAL_N]
    if i < s.steals.shape[0]:
        s.steals[i, 0] = game
        s.steals[i, 1] = s.sc[S_TURN]
        s.steals[i, 2] = seat
        s.steals[i, 3] = victim
        s.steals[i, 4] = card
    s.sc[S_STEAL_N] = i + 1


# ------------------------------------------------------------------ scoring


@njit
def gem_open(s, t):
    return t.rewards == 1 and s.sc[S_GEM_OWNER] < 0


@njit
def explorer_open(s, t):
    return t.rewards == 1 and s.sc[S_EXPLORER_OWNER] < 0


@njit
def counted_holdings(s, t, seat):
    """``(colours, wonders, treasure cards)`` of ``seat`` that count for the rewards:
    every card it holds, or with the ruling ``stolen_cards = "ignore"`` only the
    cards never taken by a steal."""
    if t.stolen_ignore == 0:
        return s.held[seat, H_COLOURS], s.held[seat, H_WONDERS], s.held[seat, H_TREASURE]
    stolen = s.sc[S_STOLEN]
    colours = np.int64(0)
    wonders = np.int64(0)
    treasure = np.int64(0)
    for c in range(t.n_cards):
        if s.owner[c] != seat or (stolen >> c) & 1 == 1:
            continue
        kind = t.card_kind[c]
        if kind == Kind.GEM:
            colours |= np.int64(1) << t.card_colour[c]
        elif kind == Kind.KEY or kind == Kind.CHEST:
            treasure += 1
        wonders |= np.int64(1) << t.card_wonder[c]
    return popcount(colours), popcount(wonders), treasure


@njit
def holds_effect(s, t, seat, effect):
    """Action tiles of ``effect`` that ``seat`` holds (0 when no tiles are played)."""
    k = 0
    for i in range(t.n_tiles):
        if s.tile_owner[i] == seat and t.tile_effect[i] == effect:
            k += 1
    return k


@njit
def check_rewards(s, t, seat, n):
    """End of ``seat``'s turn: it takes each open "first to" reward it now meets (a
    sixth colour tile counts as one more gem colour)."""
    if t.rewards == 0:
        return
    colours, wonders, _ = counted_holdings(s, t, seat)
    colours += holds_effect(s, t, seat, Effect.SIXTH_COLOUR)
    if gem_open(s, t) and colours >= t.gem_goal[n] and t.seat_bar[seat, BAR_GEM] == 0:
        s.sc[S_GEM_OWNER] = seat
        s.sc[S_GEM_TURN] = s.sc[S_TURN]
        trace(s, EV_REWARD, seat, Reward.GEM, t.gem_reward[n], 0)
    if explorer_open(s, t) and wonders >= t.explorer_goal and t.seat_bar[seat, BAR_EXPLORER] == 0:
        s.sc[S_EXPLORER_OWNER] = seat
        s.sc[S_EXPLORER_TURN] = s.sc[S_TURN]
        trace(s, EV_REWARD, seat, Reward.EXPLORER, t.explorer_points, 0)


@njit
def gem_points(t, count):
    """Points of ``count`` gem cards of one colour."""
    return t.gem_points[min(count, t.gem_points.shape[0] - 1)]


@njit
def final_scores(s, t, n):
    """Score every seat into ``s.parts`` (int64[P, 8], 60ths of a point):
    gems, diamond cards, plastic diamonds, gem reward, explorer reward,
    treasure reward, total, action tiles (the points of the tiles held). The
    treasure reward goes to the most key and chest cards (at least
    ``treasure_min``; those that count, :func:`counted_holdings`, into
    ``s.counted``); tied seats share it. A seat restricted play bars from it
    (``seat_bar[q, BAR_TREASURE]``) neither takes nor blocks it."""
    parts = s.parts
    counted = s.counted
    best = 0
    for q in range(n):
        _, _, counted[q] = counted_holdings(s, t, q)
        if t.seat_bar[q, BAR_TREASURE] == 0:
            best = max(best, counted[q])
    tied = 0
    if t.rewards == 1 and best >= t.treasure_min:
        for q in range(n):
            if counted[q] == best and t.seat_bar[q, BAR_TREASURE] == 0:
                tied += 1
    for q in range(n):
        g = 0
        for c in range(t.n_colours):
            g += gem_points(t, s.gems[q, c])
        parts[q, 0] = g * SCALE
        parts[q, 1] = s.held[q, H_DIAMOND] * t.diamond_card * SCALE
        parts[q, 2] = s.held[q, H_PLASTIC] * t.plastic_diamond * SCALE
        parts[q, 3] = t.gem_reward[n] * SCALE if s.sc[S_GEM_OWNER] == q else 0
        parts[q, 4] = t.explorer_points * SCALE if s.sc[S_EXPLORER_OWNER] == q else 0
        parts[q, 5] = 0
        if tied > 0 and counted[q] == best and t.seat_bar[q, BAR_TREASURE] == 0:
            parts[q, 5] = t.treasure_points * SCALE // tied
        parts[q, 7] = 0
        for i in range(t.n_tiles):
            if s.tile_owner[i] == q:
                parts[q, 7] += t.tile_points[i] * SCALE
        # the total: the parts, the tiles and the seat's head start (a balancing knob,
        # 0 as printed; no part of its own)
        parts[q, 6] = parts[q, 7] + t.head_start[n, q]
        for i in range(6):
            parts[q, 6] += parts[q, i]


@njit
def random_index(s, n):
    """Uniform on ``0 .. n-1`` from the game's stream (forcible in tests)."""
    return rng_below(s.rng, n)
