"""Claims on the table (``docs/games/unearth.md``, "Claims and tiebreaks").

After every roll, reroll and card the ruins are checked slot by slot, in slot
order; the tiebreak itself is :mod:`.claims`. Also the per-claim log columns.
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.unearth.claims import RANK_DICE, claim_winner, player_rank
from analyzer.unearth.codes import CardKind, WonderEffect
from analyzer.unearth.end_of_age import reveal, table_empty
from analyzer.unearth.modifiers import owns_effect
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
    EV_CLAIM,
    S_BOXED_N,
    S_CUR,
    S_GAME,
    S_LAST_CLAIM,
    S_N_PLAYERS,
    S_N_SLOTS,
    S_OVER,
    S_TURN,
    ST_CLAIMS,
    draw_delver,
    gather_slot,
    return_ruin_stones,
    slot_totals,
    take_ruin,
    trace,
)


@njit
def decided_by(owner, faces, value, n, n_players):
    """Where the tiebreak between the two best seats was decided (see CONTRACTS.md)."""
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
def check_claims(s, t):
    """Resolve every ruin whose dice reach its claim value, in slot order.

    Appends a row per resolution to the claims log ``s.claims`` (if it has room;
    ``s.n_claims`` is a one-element counter). Draws random numbers (reveals, draws).
    """
    claims = s.claims
    n_claims = s.n_claims
    owner = s.on_slot_owner
    faces = s.on_slot_faces
    value = s.on_slot_value
    n_players = s.sc[S_N_PLAYERS]
    n_slots = s.sc[S_N_SLOTS]
    # every slot's total in one pass over the dice; resolving a slot changes only its own
    totals = s.totals
    slot_totals(s)
    for slot in range(n_slots):
        card = s.slot_card[slot]
        if card < 0:
            continue
        total = totals[slot]
        if total < t.card_claim[card]:
            continue
        n = gather_slot(s, t, slot)
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
        s.sc[S_LAST_CLAIM] = s.sc[S_TURN]
        if winner >= 0:
            take_ruin(s, t, winner, card)
            s.seat_stats[winner, ST_CLAIMS] += 1
        else:
            s.sc[S_BOXED_N] += 1
            if t.card_kind[card] == CardKind.RUIN:
                s.boxed_colour[t.card_colour[card]] += 1
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
