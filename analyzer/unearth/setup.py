"""Set-up of one game (``docs/games/unearth.md``, "Set-up").

Shuffles, deals, hidden ruins, the named wonders in play and the first ruins
face up; draws random numbers from the game's own stream only.
"""

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_below, rng_seed, rng_shuffle
from analyzer.unearth.end_of_age import reveal
from analyzer.unearth.luck import luck_reset
from analyzer.unearth.memo import forget_memo
from analyzer.unearth.state import (
    EV_EOA_CARD,
    EV_HIDDEN,
    EV_IN_PLAY,
    EV_SET_ASIDE,
    S_CUR,
    S_DDECK_N,
    S_DECK_LEN,
    S_DECK_POS,
    S_EOA,
    S_GAME,
    S_N_PLAYERS,
    S_N_SLOTS,
    S_REMOVED_N,
    draw_delver,
    take_ruin,
    trace,
)
from analyzer.unearth.tableau import empty_box


@njit
def setup(s, m, t, n_players, key0, key1, game):
    """Reset ``s`` (and the strategies' memo ``m``) and set up game ``game`` for
    ``n_players`` (``docs/games/unearth.md``, "Set-up").

    Draws random numbers from the game's own stream only.
    """
    s.sc[:] = 0
    s.boxed_colour[:] = 0
    luck_reset(s)
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
    forget_memo(m)  # each game starts from a cold strategy memo
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
    # seat compensation (a balancing knob, 0 in the printed game): extra cards, seat by seat
    for p in range(n_players):
        for _ in range(t.extra_delvers[n_players, p]):
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
            trace(s, EV_HIDDEN, p, card, 0, 0, 0, 0)
    n_removed = t.removed_by_players[n_players]
    for i in range(n_removed):
        s.removed[i] = s.ruin_deck[pos]
        pos += 1
        trace(s, EV_SET_ASIDE, -1, s.removed[i], 0, 0, 0, 0)
    s.sc[S_REMOVED_N] = n_removed
    m = 0
    for i in range(pos, n_ruins):
        s.ruin_deck[m] = s.ruin_deck[i]
        m += 1
    n_eoa = t.card_kind.shape[0] - n_ruins
    eoa = n_ruins + rng_below(s.rng, n_eoa)
    s.ruin_deck[m] = eoa
    s.sc[S_EOA] = eoa
    trace(s, EV_EOA_CARD, -1, eoa, 0, 0, 0, 0)
    s.sc[S_DECK_LEN] = m + 1
    s.sc[S_DECK_POS] = 0
    # 5. reveal
    for slot in range(s.sc[S_N_SLOTS]):
        reveal(s, t, slot)
    # 6. named wonders (players + 2) and token piles
    n_named = s.named_state.shape[0]
    order = s.named_order
    for w in range(n_named):
        order[w] = w
    rng_shuffle(s.rng, order, n_named)
    for i in range(min(n_players + 2, n_named)):
        s.named_state[order[i]] = -1
        trace(s, EV_IN_PLAY, -1, order[i], 0, 0, 0, 0)
    for i in range(t.lesser_values.shape[0]):
        s.lesser[i] = t.lesser_values[i]
    rng_shuffle(s.rng, s.lesser, t.lesser_values.shape[0])
    for i in range(t.greater_values.shape[0]):
        s.greater[i] = t.greater_values[i]
    rng_shuffle(s.rng, s.greater, t.greater_values.shape[0])
    s.sc[S_CUR] = 0
