"""Revealing ruins and the end of the age (``docs/games/unearth.md``, "End of age").

A slot is refilled from the ruins deck; an end-of-age card revealed there is an
event (Day of Rest, The Gathering, Festival) or a city that stays in the slot.
"""

from analyzer.kernels.jit import njit
from analyzer.unearth.codes import CardKind, EventEffect
from analyzer.unearth.luck import luck_reveal
from analyzer.unearth.state import (
    EV_EVENT,
    EV_REVEAL,
    S_CUR,
    S_DECK_LEN,
    S_DECK_POS,
    S_N_PLAYERS,
    S_N_SLOTS,
    S_ROLL_MOD,
    draw_delver,
    place_ruin_stones,
    trace,
)


@njit
def reveal(s, t, slot):
    """Fill an empty slot from the ruins deck ("End of age" for the last card)."""
    s.slot_card[slot] = -1
    if s.sc[S_DECK_POS] >= s.sc[S_DECK_LEN]:
        return
    luck_reveal(s, t, slot)
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
