"""Whole games of Unearth inside numba: set-up, turns, delver cards, claims, end of age.

Implements ``docs/rules/unearth.md`` sections "Set-up", "A turn", "Claims and
tiebreaks" (through :mod:`.claims`), "End of age", "Delver cards" and "Stones,
rings and wonders" (through :mod:`.tableau`), and "Scoring" (through
:mod:`.scoring`). Decisions are delegated to :mod:`.strategies`.

Rulings made here where ``docs/rules/unearth.md`` is silent (also in ``docs/rulings.md``):

- Claims are checked slot by slot, in slot order, after every roll, reroll and card.
- Consolation draws and Day of Rest draws go in seat order from the current player.
- Pending card modifiers (Ancestral Claim, Reading the Stones) apply to the next
  die the current player rolls this turn, rerolls included; several copies stack.
  An Ancient Map reroll loses them (rulebook FAQ). The event modifier applies to
  every roll and reroll.
- Named-wonder options (College, Columns, Sanctuary, Edifice) are chosen by the
  die's owner on any roll of theirs; the order of modifiers is the owner's best.
- The Shattered Edifice allows one reroll per roll of a natural 4 or 5.
- The Eternal Flame's owner draws when a ruin they have no dice on is claimed (not on a tie).
- A die taken back (all five dice on ruins) leaves its ruin before the roll.
- Delver-card draw stats count cards drawn after the deal.
"""

import numpy as np

from analyzer.jit import njit
from analyzer.kernel_view import borrowed
from analyzer.rng import rng_below, rng_die, rng_seed, rng_shuffle
from analyzer.unearth.claims import RANK_DICE, claim_winner, player_rank
from analyzer.unearth.codes import CardKind, Delver, EventEffect, WonderEffect, WonderKind
from analyzer.unearth.scoring import N_PARTS, score_player, share_wins
from analyzer.unearth.state import (
    EV_CLAIM,
    EV_END,
    EV_EVENT,
    EV_PLAY,
    EV_REVEAL,
    EV_ROLL,
    EV_STONE,
    EV_TAKE_BACK,
    EV_TAKE_RUIN,
    EV_WONDER,
    MAX_TURNS,
    S_ABORTED,
    S_ANCESTRAL,
    S_BAND,
    S_BOXED_N,
    S_CUR,
    S_DDECK_N,
    S_DECK_LEN,
    S_DECK_POS,
    S_EOA,
    S_EXPEDITION,
    S_GAME,
    S_GREATER_POS,
    S_LESSER_POS,
    S_MAP,
    S_N_PLAYERS,
    S_N_SLOTS,
    S_OVER,
    S_READING,
    S_REMOVED_N,
    S_ROLL_MOD,
    S_TURN,
    ST_CLAIMS,
    ST_PLAYED,
    ST_PLAYED_KIND,
    ST_TURNS,
    clamp,
    draw_delver,
    draw_from_bag,
    gather_slot,
    place_ruin_stones,
    return_ruin_stones,
    slot_totals,
    take_ruin,
    trace,
)
from analyzer.unearth.strategies import (
    choose_cell,
    choose_colour,
    choose_excavation,
    choose_expedition_slot,
    choose_memorial,
    choose_named,
    choose_play,
    choose_value,
    choose_value_of_other,
    forget_memo,
    owns_effect,
    reachable_values,
    want_reroll,
)
from analyzer.unearth.tableau import (
    NO_WONDER,
    all_alike,
    empty_box,
    grow_box,
    ring_colour_counts,
    rings_closed_by,
    stones_box,
)

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

# columns of a claims-log row
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


# ====================================================================== set-up


@njit
def setup(s, t, n_players, key0, key1, game):
    """Reset ``s`` and set up game ``game`` for ``n_players`` (``docs/rules/unearth.md``, "Set-up").

    Draws random numbers from the game's own stream only.
    """
    s.sc[:] = 0
    rng_seed(s.rng, key0, key1, game)
    s.sc[S_GAME] = game
    s.sc[S_N_PLAYERS] = n_players
    s.sc[S_N_SLOTS] = t.revealed_by_players[n_players]
    n_col = t.n_stone_colours
    for c in range(n_col):
        s.bag[c] = t.stones_per_colour
    s.slot_card[:] = -1
    s.slot_stones[:] = 0
    s.die_slot[:] = -1
    s.die_value[:] = 0
    s.hand[:] = 0
    s.ddisc[:] = 0
    s.stone[:] = -1
    s.centre[:] = -1
    for q in range(s.box.shape[0]):
        empty_box(s.box[q])
    s.n_stones[:] = 0
    s.tokens[:] = 0
    s.held[:] = 0
    s.hidden[:] = -1
    s.held_colour[:] = 0
    s.effects[:] = 0
    s.seat_stats[:] = 0
    s.named_state[:] = -2
    s.trace[:] = 0
    forget_memo(s)  # each game starts from a cold strategy memo
    # 1. delver deck, deal
    n = 0
    for k in range(t.delver_copies.shape[0]):
        for _ in range(t.delver_copies[k]):
            s.ddeck[n] = k
            n += 1
    rng_shuffle(s.rng, s.ddeck, n)
    s.sc[S_DDECK_N] = n
    for _ in range(t.delver_dealt):
        for p in range(n_players):
            draw_delver(s, p, False)
    # 2-4. ruins: hidden, removed, deck with the end-of-age card at the bottom
    n_ruins = t.n_ruins
    for i in range(n_ruins):
        s.ruin_deck[i] = i
    rng_shuffle(s.rng, s.ruin_deck, n_ruins)
    pos = 0
    for _ in range(t.hidden_per_player):
        for p in range(n_players):
            card = s.ruin_deck[pos]
            pos += 1
            take_ruin(s, t, p, card)
            s.hidden[p] = card
    n_removed = t.removed_by_players[n_players]
    for i in range(n_removed):
        s.removed[i] = s.ruin_deck[pos]
        pos += 1
    s.sc[S_REMOVED_N] = n_removed
    m = 0
    for i in range(pos, n_ruins):
        s.ruin_deck[m] = s.ruin_deck[i]
        m += 1
    n_eoa = t.card_kind.shape[0] - n_ruins
    eoa = n_ruins + rng_below(s.rng, n_eoa)
    s.ruin_deck[m] = eoa
    s.sc[S_EOA] = eoa
    s.sc[S_DECK_LEN] = m + 1
    s.sc[S_DECK_POS] = 0
    # 5. reveal
    for slot in range(s.sc[S_N_SLOTS]):
        reveal(s, t, slot)
    # 6. named wonders (players + 2) and token piles
    n_named = s.named_state.shape[0]
    order = s.scratch[64 : 64 + n_named]
    for w in range(n_named):
        order[w] = w
    rng_shuffle(s.rng, order, n_named)
    for i in range(min(n_players + 2, n_named)):
        s.named_state[order[i]] = -1
    for i in range(t.lesser_values.shape[0]):
        s.lesser[i] = t.lesser_values[i]
    rng_shuffle(s.rng, s.lesser, t.lesser_values.shape[0])
    for i in range(t.greater_values.shape[0]):
        s.greater[i] = t.greater_values[i]
    rng_shuffle(s.rng, s.greater, t.greater_values.shape[0])
    s.sc[S_CUR] = 0


@njit
def reveal(s, t, slot):
    """Fill an empty slot from the ruins deck ("End of age" for the last card)."""
    s.slot_card[slot] = -1
    if s.sc[S_DECK_POS] >= s.sc[S_DECK_LEN]:
        return
    card = s.ruin_deck[s.sc[S_DECK_POS]]
    s.sc[S_DECK_POS] += 1
    if t.card_kind[card] == CardKind.EVENT:
        trace(s, EV_EVENT, -1, card, 0, 0, 0, 0)
        eff = t.card_event[card]
        if eff == EventEffect.DAY_OF_REST:
            n_players = s.sc[S_N_PLAYERS]
            for i in range(n_players):
                p = (s.sc[S_CUR] + i) % n_players
                for _ in range(t.card_amount[card]):
                    draw_delver(s, p, True)
        elif eff == EventEffect.ROLL_MODIFIER:
            s.sc[S_ROLL_MOD] += t.card_amount[card]
        return
    s.slot_card[slot] = card
    trace(s, EV_REVEAL, -1, slot, card, 0, 0, 0)
    place_ruin_stones(s, slot, t.card_stones[card])


@njit
def table_empty(s):
    for slot in range(s.sc[S_N_SLOTS]):
        if s.slot_card[slot] >= 0:
            return False
    return True


# ====================================================================== claims


@njit
def decided_by(owner, faces, value, n, n_players):
    """Where the tiebreak between the two best seats was decided (see CONTRACTS.md)."""
    owner = borrowed(owner)
    value = borrowed(value)
    best = np.int64(-1)
    second = np.int64(-1)
    seats = 0
    for p in range(n_players):
        r = player_rank(owner, faces, value, n, p)
        if r == 0:
            continue
        seats += 1
        if r > best:
            second = best
            best = r
        elif r > second:
            second = r
    if seats < 2:
        return 0
    if best == second:
        return -1
    for i in range(RANK_DICE):
        shift = 10 * (RANK_DICE - 1 - i)
        ka = (best >> shift) & 1023
        kb = (second >> shift) & 1023
        if ka != kb:
            if ka // 32 != kb // 32:
                return 2 * i
            return 2 * i + 1
    return -1


@njit
def check_claims(s, t, strat, prm, neigh, claims, n_claims):
    """Resolve every ruin whose dice reach its claim value, in slot order.

    Appends a row per resolution to ``claims`` (if it has room; ``n_claims`` is a
    one-element counter). Draws random numbers (reveals, draws).
    """
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    claims = borrowed(claims)
    n_claims = borrowed(n_claims)
    owner = s.scratch[96:128]
    faces = s.scratch[128:160]
    value = s.scratch[160:192]
    n_players = s.sc[S_N_PLAYERS]
    n_slots = s.sc[S_N_SLOTS]
    # every slot's total in one pass over the dice; resolving a slot changes only its own
    totals = s.scratch[200 : 200 + n_slots]
    slot_totals(s, totals)
    for slot in range(n_slots):
        card = s.slot_card[slot]
        if card < 0:
            continue
        total = totals[slot]
        if total < t.card_claim[card]:
            continue
        n = gather_slot(s, t, slot, owner, faces, value)
        winner = claim_winner(owner, faces, value, n, n_players)
        row = n_claims[0]
        if claims.shape[0] > 1 and row < claims.shape[0]:
            seats = 0
            for q in range(n_players):
                for i in range(n):
                    if owner[i] == q:
                        seats += 1
                        break
            top = -1
            if winner >= 0:
                best_key = -1
                for i in range(n):
                    if owner[i] == winner and value[i] * 32 + faces[i] > best_key:
                        best_key = value[i] * 32 + faces[i]
                        top = faces[i]
            claims[row, C_GAME] = s.sc[S_GAME]
            claims[row, C_TURN] = s.sc[S_TURN]
            claims[row, C_CARD] = card
            claims[row, C_CLAIM] = t.card_claim[card]
            claims[row, C_NDICE] = n
            claims[row, C_NSEATS] = seats
            claims[row, C_TOTAL] = total
            claims[row, C_WINNER] = winner if winner >= 0 else -1
            claims[row, C_FACES] = top
            claims[row, C_DECIDED] = decided_by(owner, faces, value, n, n_players)
            n_claims[0] = row + 1
        trace(s, EV_CLAIM, -1, slot, card, winner, total, 0)
        if winner >= 0:
            take_ruin(s, t, winner, card)
            s.seat_stats[winner, ST_CLAIMS] += 1
        else:
            s.sc[S_BOXED_N] += 1
        # consolation cards, then the Eternal Flame, in seat order from the current player
        for i in range(n_players):
            q = (s.sc[S_CUR] + i) % n_players
            if q == winner:
                continue
            had = 0
            for j in range(n):
                if owner[j] == q:
                    had += 1
            for _ in range(had):
                draw_delver(s, q, True)
            if had == 0 and winner >= 0 and owns_effect(s, t, q, WonderEffect.FLAME) >= 0:
                draw_delver(s, q, True)
        for q in range(n_players):
            for d in range(s.die_slot.shape[1]):
                if s.die_slot[q, d] == slot:
                    s.die_slot[q, d] = -1
        return_ruin_stones(s, slot)
        reveal(s, t, slot)
    if table_empty(s):
        s.sc[S_OVER] = 1


# ====================================================================== stones and wonders


@njit
def gain_stone(s, t, p, slot, strat, prm, neigh):
    """Seat ``p`` gains a stone: its choice from ``slot``, else random from the bag
    (two drawn, one kept, with the Underground Library), else nothing."""
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    avail = s.scratch[192:200]
    n_col = t.n_stone_colours
    any_on = False
    for c in range(n_col):
        avail[c] = s.slot_stones[slot, c] if slot >= 0 else 0
        if avail[c] > 0:
            any_on = True
    source = 0
    if any_on:
        colour = choose_colour(s, t, p, strat, prm, avail[:n_col], neigh, s.cellbuf)
        s.slot_stones[slot, colour] -= 1
    else:
        source = 1
        lib = owns_effect(s, t, p, WonderEffect.LIBRARY)
        n_draw = t.wonder_amount[lib] if lib >= 0 else 1
        for c in range(n_col):
            avail[c] = 0
        got = 0
        for _ in range(max(n_draw, 1)):
            c = draw_from_bag(s)
            if c >= 0:
                avail[c] += 1
                got += 1
        if got == 0:
            return
        colour = choose_colour(s, t, p, strat, prm, avail[:n_col], neigh, s.cellbuf)
        avail[colour] -= 1
        for c in range(n_col):
            s.bag[c] += avail[c]
    place_stone(s, t, p, colour, strat, prm, neigh, source)


@njit
def place_stone(s, t, p, colour, strat, prm, neigh, source):
    """Put a ``colour`` stone in ``p``'s tableau and build any wonders it completes."""
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    cell = choose_cell(s, t, p, strat, prm, colour, neigh, s.cellbuf)
    s.stone[p, cell] = colour
    grow_box(s.box[p], cell)
    s.n_stones[p, colour] += 1
    trace(s, EV_STONE, p, colour, cell, source, 0, 0)
    centres = s.scratch[60:66]
    k = rings_closed_by(s.stone[p], s.centre[p], neigh, cell, centres)
    for i in range(k):
        build_wonder(s, t, p, centres[i], strat, prm, neigh)


@njit
def build_wonder(s, t, p, centre, strat, prm, neigh):
    """Fill a completed ring's centre: a named wonder (optional), else a greater
    token if all six stones share a colour, else a lesser token (ruling in
    ``docs/rules/unearth.md`` on empty piles: the other pile if ``token_fallback``)."""
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    n_col = t.n_stone_colours
    counts = s.scratch[66 : 66 + n_col]
    ring_colour_counts(s.stone[p], neigh, centre, n_col, counts)
    alike = all_alike(counts, n_col)
    w = choose_named(s, t, p, strat, prm, counts, alike)
    if w >= 0:
        s.named_state[w] = p
        s.effects[p] |= np.int64(1) << t.wonder_effect[w]
        s.centre[p, centre] = WonderKind.NAMED
        trace(s, EV_WONDER, p, centre, WonderKind.NAMED, w, 0, 0)
        eff = t.wonder_effect[w]
        n_rem = s.sc[S_REMOVED_N]
        if (eff == WonderEffect.CENOTAPH or eff == WonderEffect.MEMORIAL) and n_rem > 0:
            if eff == WonderEffect.CENOTAPH:
                i = rng_below(s.rng, n_rem)
            else:
                i = choose_memorial(s, t, p, strat)
            take_ruin(s, t, p, s.removed[i])
            trace(s, EV_TAKE_RUIN, p, s.removed[i], w, 0, 0, 0)
            s.removed[i] = s.removed[n_rem - 1]
            s.removed[n_rem - 1] = -1
            s.sc[S_REMOVED_N] = n_rem - 1
        return
    n_less = t.lesser_values.shape[0]
    n_great = t.greater_values.shape[0]
    less_left = s.sc[S_LESSER_POS] < n_less
    great_left = s.sc[S_GREATER_POS] < n_great
    use_greater = alike
    if alike and not great_left:
        use_greater = False if (t.token_fallback and less_left) else True
    if not alike and not less_left:
        use_greater = True if (t.token_fallback and great_left) else False
    if use_greater and great_left:
        v = s.greater[s.sc[S_GREATER_POS]]
        s.sc[S_GREATER_POS] += 1
        s.tokens[p, 1] += 1
        s.tokens[p, 2] += v
        s.centre[p, centre] = WonderKind.GREATER
        trace(s, EV_WONDER, p, centre, WonderKind.GREATER, v, 0, 0)
    elif not use_greater and less_left:
        v = s.lesser[s.sc[S_LESSER_POS]]
        s.sc[S_LESSER_POS] += 1
        s.tokens[p, 0] += 1
        s.tokens[p, 2] += v
        s.centre[p, centre] = WonderKind.LESSER
        trace(s, EV_WONDER, p, centre, WonderKind.LESSER, v, 0, 0)
    else:
        s.centre[p, centre] = NO_WONDER
        trace(s, EV_WONDER, p, centre, NO_WONDER, 0, 0, 0)


# ====================================================================== rolls


@njit
def roll_die(s, t, q, d, slot, is_excavation, strat, prm, neigh, claims, n_claims):
    """Seat ``q`` rolls its die ``d`` onto (or on) ``slot`` and resolves the roll.

    Applies the modifiers (pending card modifiers only when ``q`` is the current
    player; an Ancient Map reroll only for the excavation roll), the owner's
    Shattered Edifice reroll, gives the stone of a natural 1-3, then checks
    claims. Draws random numbers.
    """
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    claims = borrowed(claims)
    n_claims = borrowed(n_claims)
    faces = t.dice_faces[d]
    mods = s.mods
    cur = s.sc[S_CUR]
    mine = q == cur
    # the current player's card modifiers: on its own dice, and on a die its card
    # makes another player reroll if the ruling says so (docs/rulings.md)
    cards = mine or t.card_mods_on_forced_rerolls
    s.die_slot[q, d] = -1  # the die is in the air
    natural = rng_die(s.rng, faces)
    n_anc = s.sc[S_ANCESTRAL] if cards else 0
    n_read = s.sc[S_READING] if cards else 0
    if is_excavation and mine and s.sc[S_MAP] > 0:
        mask = reachable_values(s, t, q, slot, faces, natural, n_anc, n_read, mods)
        again = want_reroll(s, t, q, strat[q], prm[q], slot, d, natural, mask, True)
        trace(s, EV_ROLL, q, d, slot, natural, 1 if again else 0, 2)
        if again:
            s.sc[S_MAP] -= 1
            natural = rng_die(s.rng, faces)
            # the FAQ: modifiers played before only apply to the first roll
            n_anc = 0
            n_read = 0
            _consume_card_mods(s, t, faces)
    if is_excavation and mine and s.sc[S_EXPEDITION] > 0:
        s.sc[S_EXPEDITION] -= 1
        slot = choose_expedition_slot(s, t, q, strat[q], prm[q], d, natural, n_anc, n_read)
    mask = reachable_values(s, t, q, slot, faces, natural, n_anc, n_read, mods)
    edi = owns_effect(s, t, q, WonderEffect.EDIFICE)
    if edi >= 0 and t.wonder_low[edi] <= natural <= t.wonder_high[edi]:
        again = want_reroll(s, t, q, strat[q], prm[q], slot, d, natural, mask, True)
        trace(s, EV_ROLL, q, d, slot, natural, 1 if again else 0, 3)
        if again:
            natural = rng_die(s.rng, faces)
            if cards:
                _consume_card_mods(s, t, faces)
            n_anc = 0
            n_read = 0
            mask = reachable_values(s, t, q, slot, faces, natural, 0, 0, mods)
    if not mine and (n_anc > 0 or n_read > 0):
        # the current player's cards changed another player's die: it picks the value
        value = choose_value_of_other(s, t, cur, strat[cur], prm[cur], q, d, slot, mask)
    else:
        value = choose_value(s, t, q, strat[q], prm[q], slot, d, mask)
    if cards and (n_anc > 0 or n_read > 0):
        _consume_card_mods(s, t, faces)
    s.die_slot[q, d] = slot
    s.die_value[q, d] = value
    trace(s, EV_ROLL, q, d, slot, natural, value, 0 if is_excavation else 1)
    if natural <= t.stone_faces_max:
        gain_stone(s, t, q, slot, strat[q], prm[q], neigh)
    check_claims(s, t, strat, prm, neigh, claims, n_claims)


@njit
def _consume_card_mods(s, t, faces):
    """The current player's next roll used the pending Reading the Stones, and the
    pending Ancestral Claim if the die has the card's faces."""
    s.sc[S_READING] = 0
    for k in range(t.delver_effect.shape[0]):
        if t.delver_effect[k] == Delver.ANCESTRAL_CLAIM:
            if t.delver_faces[k] == 0 or t.delver_faces[k] == faces:
                s.sc[S_ANCESTRAL] = 0


# ====================================================================== a turn


@njit
def play_card(s, t, p, kind, a, b, strat, prm, neigh, claims, n_claims):
    """Seat ``p`` plays a delver card of ``kind`` with targets ``a``, ``b``."""
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    claims = borrowed(claims)
    n_claims = borrowed(n_claims)
    s.hand[p, kind] -= 1
    s.ddisc[kind] += 1
    s.seat_stats[p, ST_PLAYED] += 1
    s.seat_stats[p, ST_PLAYED_KIND + kind] += 1
    trace(s, EV_PLAY, p, kind, a, b, 0, 0)
    eff = t.delver_effect[kind]
    n_players = s.sc[S_N_PLAYERS]
    n_dice = s.die_slot.shape[1]
    if eff == Delver.ANCIENT_MAP:
        s.sc[S_MAP] += 1
    elif eff == Delver.BAND_OF_DELVERS:
        s.sc[S_BAND] = 1
    elif eff == Delver.ANCESTRAL_CLAIM:
        s.sc[S_ANCESTRAL] += 1
    elif eff == Delver.READING_THE_STONES:
        s.sc[S_READING] += 1
    elif eff == Delver.EXPEDITION:
        s.sc[S_EXPEDITION] += 1
    elif eff == Delver.RESTORATION:
        for d in range(n_dice):
            slot = s.die_slot[p, d]
            if slot >= 0:
                roll_die(s, t, p, d, slot, False, strat, prm, neigh, claims, n_claims)
    elif eff == Delver.FORGOTTEN_SONG:
        # every die showing the number at the moment the card is played
        marked = s.marked
        n_marked = 0
        for i in range(n_players):
            q = (p + i) % n_players
            for d in range(n_dice):
                if s.die_slot[q, d] >= 0 and s.die_value[q, d] == a:
                    marked[n_marked] = q * n_dice + d
                    n_marked += 1
        for i in range(n_marked):
            q = marked[i] // n_dice
            d = marked[i] % n_dice
            slot = s.die_slot[q, d]
            if slot >= 0:  # still there (an earlier reroll may have claimed the ruin)
                roll_die(s, t, q, d, slot, False, strat, prm, neigh, claims, n_claims)
    elif eff == Delver.LOST_IN_THE_RUINS:
        slot = s.die_slot[a, b]
        if slot >= 0:
            roll_die(s, t, a, b, slot, False, strat, prm, neigh, claims, n_claims)
    elif eff == Delver.FORLORN or eff == Delver.A_NEW_DISCOVERY:
        if s.die_slot[a, b] >= 0:
            s.die_value[a, b] = clamp(s.die_value[a, b] + t.delver_amount[kind], t.dice_faces[b])
    check_claims(s, t, strat, prm, neigh, claims, n_claims)


@njit
def excavate(s, t, p, strat, prm, neigh, claims, n_claims):
    """Seat ``p``'s excavation roll: declare a die and a ruin, roll it there."""
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    claims = borrowed(claims)
    n_claims = borrowed(n_claims)
    choice = s.scratch[50:52]
    choose_excavation(s, t, p, strat[p], prm[p], choice)
    d = choice[0]
    slot = choice[1]
    if d < 0 or slot < 0:
        return
    if s.die_slot[p, d] >= 0:
        trace(s, EV_TAKE_BACK, p, d, s.die_slot[p, d], 0, 0, 0)
        s.die_slot[p, d] = -1
    roll_die(s, t, p, d, slot, True, strat, prm, neigh, claims, n_claims)


@njit
def take_turn(s, t, p, strat, prm, neigh, claims, n_claims):
    """One turn of seat ``p``: the delver phase, then one (or two) excavation rolls."""
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    claims = borrowed(claims)
    n_claims = borrowed(n_claims)
    s.sc[S_CUR] = p
    s.sc[S_ANCESTRAL] = 0
    s.sc[S_READING] = 0
    s.sc[S_MAP] = 0
    s.sc[S_EXPEDITION] = 0
    s.sc[S_BAND] = 0
    s.seat_stats[p, ST_TURNS] += 1
    play = s.scratch[52:55]
    for _ in range(64):
        choose_play(s, t, p, strat[p], prm[p], s.sc[S_BAND] > 0, play)
        if play[0] < 0:
            break
        play_card(s, t, p, play[0], play[1], play[2], strat, prm, neigh, claims, n_claims)
        if s.sc[S_OVER]:
            return
    excavate(s, t, p, strat, prm, neigh, claims, n_claims)
    if s.sc[S_BAND] > 0 and not s.sc[S_OVER]:
        excavate(s, t, p, strat, prm, neigh, claims, n_claims)


@njit
def play_game(s, t, n_players, strat, prm, neigh, key0, key1, game, claims, n_claims):
    """Play one whole game in ``s`` (set up from scratch). Draws random numbers."""
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    claims = borrowed(claims)
    n_claims = borrowed(n_claims)
    setup(s, t, n_players, key0, key1, game)
    p = 0
    while not s.sc[S_OVER]:
        if s.sc[S_TURN] >= MAX_TURNS:
            s.sc[S_ABORTED] = 1
            break
        take_turn(s, t, p, strat, prm, neigh, claims, n_claims)
        s.sc[S_TURN] += 1
        p = (p + 1) % n_players


@njit
def final_scores(s, t, n_players, scores, parts, wins):
    """Score every seat and share the win (``docs/rules/unearth.md``, "Scoring")."""
    wins = borrowed(wins)
    named = s.scratch[64 : 64 + s.named_state.shape[0]]
    for p in range(n_players):
        for w in range(s.named_state.shape[0]):
            named[w] = 1 if s.named_state[w] == p else 0
        scores[p] = score_player(
            t,
            s.held[p],
            s.n_stones[p],
            s.tokens[p, 2],
            s.tokens[p, 0] + s.tokens[p, 1],
            named,
            parts[p],
        )
    share_wins(t, scores, s.held, n_players, wins)


# ====================================================================== invariants

INV_STONES = 1  #: stones of each colour conserved across bag, ruins and tableaux
INV_DELVERS = 2  #: delver cards conserved across deck, discards and hands
INV_RUINS = 4  #: every ruin held, set aside, boxed by a tie, or on the table / in the deck
INV_TABLE = 8  #: the game ended with no ruin on the table and the deck used up
INV_TOUCH = 16  #: every stone touches another (a tableau of 2+ stones is connected)
INV_BOX = 32  #: the bounding box kept for each tableau (``s.box``) matches its stones


@njit
def check_invariants(s, t, n_players, neigh):
    """Bitmask of the invariants that fail at the end of a game (0 when all hold)."""
    neigh = borrowed(neigh)
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
    cnt = s.scratch[0:16]
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


@njit
def write_results(s, t, n_players, row0, results, wins, scores, parts, win):
    """Write one finished game's rows (one per seat) into ``results``/``wins``."""
    results = borrowed(results)
    wins = borrowed(wins)
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
        wins[row0 + p] = win[p]


@njit
def play_batch(
    s,
    t,
    n_players,
    strat,
    prm,
    neigh,
    key0,
    key1,
    first_game,
    count,
    results,
    wins,
    claims,
    n_claims,
):
    """Play games ``first_game .. first_game+count-1``; write one row per (game, seat).

    ``results``: int32[count * n_players, n_result_cols(t)]; ``wins``:
    float32[count * n_players]; ``claims``: int32[rows, N_CLAIM_COLS] claims log
    (shape (1, N_CLAIM_COLS) to skip it); ``n_claims``: int64[1] rows written.
    ``strat``: int64[n_players] strategy codes; ``prm``: float64[n_players, N_PARAMS].
    Each game draws only from its own stream (key0, key1, game index).
    """
    # the caller owns every array: no reference counting below this point
    strat = borrowed(strat)
    prm = borrowed(prm)
    neigh = borrowed(neigh)
    results = borrowed(results)
    wins = borrowed(wins)
    claims = borrowed(claims)
    n_claims = borrowed(n_claims)
    scores = np.zeros(n_players, np.int64)
    parts = np.zeros((n_players, N_PARTS), np.int64)
    win = np.zeros(n_players, np.float64)
    for i in range(count):
        game = first_game + i
        play_game(s, t, n_players, strat, prm, neigh, key0, key1, game, claims, n_claims)
        final_scores(s, t, n_players, scores, parts, win)
        write_results(s, t, n_players, i * n_players, results, wins, scores, parts, win)
        results[i * n_players, R_INVARIANTS] = check_invariants(s, t, n_players, neigh)
        for p in range(1, n_players):
            results[i * n_players + p, R_INVARIANTS] = results[i * n_players, R_INVARIANTS]
        for p in range(n_players):
            trace(s, EV_END, p, scores[p], int(round(win[p] * 1000)), 0, 0, 0)
