"""Rolling a die (``docs/games/unearth.md``, "A turn"): modifiers, rerolls, stones, claims.

Which modifiers apply and their timing are ruled in ``docs/games/unearth.md``.
"""

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_die
from analyzer.unearth.claiming import check_claims
from analyzer.unearth.codes import Delver, WonderEffect
from analyzer.unearth.luck import luck_roll
from analyzer.unearth.modifiers import owns_effect, reachable_values
from analyzer.unearth.state import (
    EV_DIE,
    EV_EXPEDITION,
    EV_ROLL,
    EV_VALUE,
    ROLL_EDIFICE,
    ROLL_FIRST,
    ROLL_MAP,
    S_ANCESTRAL,
    S_CUR,
    S_EXPEDITION,
    S_MAP,
    S_READING,
    open_slots,
    trace,
    tracing,
)
from analyzer.unearth.strategies import (
    choose_expedition_slot,
    choose_value,
    choose_value_of_other,
    want_reroll,
)
from analyzer.unearth.wonders import gain_stone


@njit
def roll_die(s, m, t, q, d, slot, is_excavation):
    """Seat ``q`` rolls its die ``d`` onto (or on) ``slot`` and resolves the roll.

    Applies the modifiers (pending card modifiers only when ``q`` is the current
    player; an Ancient Map reroll only for the excavation roll), the owner's
    Shattered Edifice reroll, gives the stone of a natural 1-3, then checks
    claims. Draws random numbers.
    """
    faces = t.dice_faces[d]
    cur = s.sc[S_CUR]
    mine = q == cur
    # the current player's card modifiers: on its own dice, and on a die its card
    # makes another player reroll if the ruling says so (docs/games/unearth.md)
    cards = mine or t.card_mods_on_forced_rerolls
    s.die_slot[q, d] = -1  # the die is in the air
    natural = rng_die(s.rng, faces)
    if tracing(s):
        trace(s, EV_DIE, q, d, slot, natural, ROLL_FIRST, 0)
    luck_roll(s, t, q, d, slot, faces, natural)
    n_anc = s.sc[S_ANCESTRAL] if cards else 0
    n_read = s.sc[S_READING] if cards else 0
    if is_excavation and mine and s.sc[S_MAP] > 0:
        mask = reachable_values(s, t, q, slot, faces, natural, n_anc, n_read)
        again = want_reroll(s, m, t, q, slot, d, natural, mask, True)
        trace(s, EV_ROLL, q, d, slot, natural, 1 if again else 0, 2)
        if again:
            s.sc[S_MAP] -= 1
            natural = rng_die(s.rng, faces)
            if tracing(s):
                trace(s, EV_DIE, q, d, slot, natural, ROLL_MAP, 0)
            luck_roll(s, t, q, d, slot, faces, natural)
            # the FAQ: modifiers played before only apply to the first roll
            n_anc = 0
            n_read = 0
            _consume_card_mods(s, t, faces)
    if is_excavation and mine and s.sc[S_EXPEDITION] > 0:
        s.sc[S_EXPEDITION] -= 1
        open_before = open_slots(s) if tracing(s) else 0
        slot = choose_expedition_slot(s, m, t, q, d, natural, n_anc, n_read)
        trace(s, EV_EXPEDITION, q, d, slot, open_before, 0, 0)
    mask = reachable_values(s, t, q, slot, faces, natural, n_anc, n_read)
    edi = owns_effect(s, t, q, WonderEffect.EDIFICE)
    if edi >= 0 and t.wonder_low[edi] <= natural <= t.wonder_high[edi]:
        again = want_reroll(s, m, t, q, slot, d, natural, mask, True)
        trace(s, EV_ROLL, q, d, slot, natural, 1 if again else 0, 3)
        if again:
            natural = rng_die(s.rng, faces)
            if tracing(s):
                trace(s, EV_DIE, q, d, slot, natural, ROLL_EDIFICE, 0)
            luck_roll(s, t, q, d, slot, faces, natural)
            if cards:
                _consume_card_mods(s, t, faces)
            n_anc = 0
            n_read = 0
            mask = reachable_values(s, t, q, slot, faces, natural, 0, 0)
    chooser = q
    if not mine and (n_anc > 0 or n_read > 0):
        # the current player's cards changed another player's die: it picks the value
        value = choose_value_of_other(s, m, t, cur, q, d, slot, mask)
        chooser = cur
    else:
        value = choose_value(s, m, t, q, slot, d, mask)
    if tracing(s) and mask & (mask - 1):  # more than one value reachable: a choice
        trace(s, EV_VALUE, chooser, d, slot, value, mask, q)
    if cards and (n_anc > 0 or n_read > 0):
        _consume_card_mods(s, t, faces)
    s.die_slot[q, d] = slot
    s.die_value[q, d] = value
    trace(s, EV_ROLL, q, d, slot, natural, value, 0 if is_excavation else 1)
    if natural <= t.stone_faces_max:
        gain_stone(s, m, t, q, slot)
    check_claims(s, t)


@njit(inline="always")
def _consume_card_mods(s, t, faces):
    """The current player's next roll used the pending Reading the Stones, and the
    pending Ancestral Claim if the die has the card's faces."""
    s.sc[S_READING] = 0
    for k in range(t.delver_effect.shape[0]):
        if t.delver_effect[k] == Delver.ANCESTRAL_CLAIM:
            if t.delver_faces[k] == 0 or t.delver_faces[k] == faces:
                s.sc[S_ANCESTRAL] = 0
