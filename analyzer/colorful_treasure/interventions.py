"""What restricted play may bar a Colorful Treasure seat from, or force on it
(``forbid``), read without numba: a scenario that asks for it is checked before any
engine loads."""

from __future__ import annotations

from analyzer.colorful_treasure.codes import (
    BAR_EXPLORER,
    BAR_GEM,
    BAR_STEAL,
    BAR_TREASURE,
    FORCE_TILES,
)
from analyzer.colorful_treasure.rules import Rules
from analyzer.games import jobs

#: what restricted play may bar a seat from (``forbid`` kind ``actions``) and the bar
ACTIONS = {"stealing": BAR_STEAL}
#: what restricted play may force on a seat (``forbid`` kind ``force``, with tiles)
FORCED = {"take_tiles": FORCE_TILES}
#: the rewards (``forbid`` kind ``rewards``) and their bars: a barred seat never takes
#: the gem or the explorer reward (the next seat to meet it may), and its key and
#: chest cards do not count for the treasure reward (the other seats' majority takes it)
REWARDS = {"gem_reward": BAR_GEM, "explorer_reward": BAR_EXPLORER, "treasure_reward": BAR_TREASURE}


def intervention_ids(rules: Rules, kind: str) -> tuple[str, ...]:
    """The ids a seat may be barred from: ``actions`` (stealing), ``rewards`` (the
    three reward cards, when in play) and ``tiles`` (each action tile in play, by its
    side face up)."""
    if kind == "actions":
        return tuple(ACTIONS)
    if kind == "rewards":
        return tuple(REWARDS) if rules.tables.rewards == 1 else ()
    if kind == "tiles":
        return tuple(side for _, side in rules.tile_sides())
    if kind == "force":
        return tuple(FORCED) if rules.tables.n_tiles > 0 else ()
    return ()


def freeze_forbid(forbid: dict, rules: Rules, players: int) -> tuple:
    """``{seat: {kind: [id, ...]}}`` checked and frozen: ``((seat, kind, ids), ...)``
    sorted (raises InputError naming a bad seat, kind or id)."""
    return jobs.freeze_forbid(
        forbid,
        players,
        lambda kind: intervention_ids(rules, kind),
        "actions, rewards, tiles and force (with tiles)",
    )
