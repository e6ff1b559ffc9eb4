"""Playing a delver card (``docs/games/unearth.md``, "Delver cards")."""

from analyzer.kernels.jit import njit
from analyzer.unearth.claiming import check_claims
from analyzer.unearth.codes import Delver
from analyzer.unearth.rolls import roll_die
from analyzer.unearth.state import (
    EV_DIE_SET,
    EV_PLAY,
    S_ANCESTRAL,
    S_BAND,
    S_EXPEDITION,
    S_MAP,
    S_N_PLAYERS,
    S_READING,
    ST_PLAYED,
    ST_PLAYED_KIND,
    clamp,
    trace,
    tracing,
)
from analyzer.unearth.strategies import _legal


@njit
def play_card(s, m, t, p, kind, a, b):
    """Seat ``p`` plays a delver card of ``kind`` with targets ``a``, ``b``."""
    options = playable_kinds(s, t, p) if tracing(s) else 0
    s.hand[p, kind] -= 1
    s.ddisc[kind] += 1
    s.seat_stats[p, ST_PLAYED] += 1
    s.seat_stats[p, ST_PLAYED_KIND + kind] += 1
    trace(s, EV_PLAY, p, kind, a, b, options, 0)
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
                roll_die(s, m, t, p, d, slot, False)
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
                roll_die(s, m, t, q, d, slot, False)
    elif eff == Delver.LOST_IN_THE_RUINS:
        slot = s.die_slot[a, b]
        if slot >= 0:
            roll_die(s, m, t, a, b, slot, False)
    elif eff == Delver.FORLORN or eff == Delver.A_NEW_DISCOVERY:
        slot = s.die_slot[a, b]
        if slot >= 0:
            was = s.die_value[a, b]
            s.die_value[a, b] = clamp(was + t.delver_amount[kind], t.dice_faces[b])
            trace(s, EV_DIE_SET, a, b, slot, was, s.die_value[a, b], 0)
    check_claims(s, t)


@njit
def playable_kinds(s, t, p):
    """Bitmask of the delver kinds seat ``p`` holds and could play now (for the
    trace: the options of a play; ``docs/games/unearth.md``, a card must be able to act)."""
    dice_on = 0
    for q in range(s.sc[S_N_PLAYERS]):
        for d in range(s.die_slot.shape[1]):
            if s.die_slot[q, d] >= 0:
                dice_on += 1
    mask = 0
    for k in range(s.hand.shape[1]):
        if s.hand[p, k] > 0 and _legal(s, t, k, p, dice_on, s.sc[S_BAND] > 0):
            mask |= 1 << k
    return mask
