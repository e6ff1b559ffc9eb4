"""What restricted play may bar a Uruk seat from (``forbid``), read without numba:
a scenario that asks for it is checked before any engine loads."""

from __future__ import annotations

from analyzer.games import jobs
from analyzer.uruk.codes import BAR_GODS, BAR_TRADE
from analyzer.uruk.rules import Rules

#: what restricted play may bar a seat from: ``forbid`` kind -> the ids it takes
ACTIONS = {"trading": BAR_TRADE, "god_auctions": BAR_GODS}


def intervention_ids(rules: Rules, kind: str) -> tuple[str, ...]:
    """The ids a seat may be barred from: ``inventions`` the seat could make (level 2
    and up: level-1 ones are dealt, not made), ``actions`` trading and god auctions."""
    if kind == "inventions":
        levels = rules.tables.inv_level
        return tuple(x for i, x in enumerate(rules.invention_ids) if levels[i] > 1)
    if kind == "actions":
        return tuple(ACTIONS)
    return ()


def freeze_forbid(forbid: dict, rules: Rules, players: int) -> tuple:
    """``{seat: {kind: [id, ...]}}`` checked and frozen: ``((seat, kind, ids), ...)``
    sorted (raises InputError naming a bad seat, kind or id)."""
    return jobs.freeze_forbid(
        forbid, players, lambda kind: intervention_ids(rules, kind), "inventions, actions"
    )
