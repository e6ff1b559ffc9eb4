"""Colorful Treasure's questions for the findings page: the generic ones and its own.

Registered as :attr:`analyzer.colorful_treasure.plugin.ColorfulTreasure.questions`;
answered from the ``rewards`` table of :mod:`analyzer.colorful_treasure.tables`.
"""

from __future__ import annotations

from analyzer.tables import findings as F


def _reward(r, tables):
    """A reward's holders against the other seats (its row of ``rewards``)."""
    n_all = _seat_games(tables, int(r["cell"]))
    if not n_all or not r["held"] > 0 or r["held"] >= 1:
        return None
    n1 = r["held"] * n_all
    n0 = n_all - n1
    holders, others = r["win_holders"], r["win_others"]
    name = str(r["reward"]).replace("_", " ")
    return name, holders, holders * n1, n1, others, others * n0, n0, n_all


def _seat_games(tables, cell: int) -> float:
    seats = tables.get("seats")
    if seats is None:
        return 0.0
    return float(seats.loc[seats["cell"] == cell, "n"].sum())


REWARDS = F.Question(
    "rewards",
    "Does taking a reward go with winning?",
    F.association("rewards", "rewards", "holders'", "Seats holding the {}", _reward),
)

#: Colorful Treasure's standard questions, in page order
QUESTIONS = (*F.GENERIC, REWARDS)
