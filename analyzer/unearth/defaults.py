"""The strategies' default parameter rows, by player count (``data/strategies.toml``).

Read without numba. Each ``[<strategy>.<players>]`` table of the data file is a
full parameter row (names in :data:`PARAM_NAMES`) with the ``analyzer tune``
command that produced it and its confirmation; a player count without a table
takes the row of the nearest smaller count that has one (and the smallest
listed count below that). ``random`` plays no parameters; ``baseline``'s row
is frozen in the code (:data:`analyzer.unearth.strategies.BASELINE_PARAMS`),
not here. docs/strategies.md lists the rows and how they were made.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

#: parameter names, in the order of a strategy's parameter row (docs/strategies.md)
PARAM_NAMES = (
    "w_ruin",
    "w_stone",
    "risk",
    "lead",
    "w_card",
    "card_min",
    "place",
    "named",
    "card_end",
    "stone_ring",
    "big_die",
    "wonder_fit",
)

STRATEGY_NAMES = ("random", "claimer", "collector", "balanced", "baseline", "search")

#: the ``search`` player's own settings (:mod:`analyzer.unearth.search`), their
#: defaults and what they mean (docs/strategies.md)
SEARCH_PARAMS = (
    ("budget", 256.0, "rollouts per excavation decision"),
    ("width", 6.0, "choices kept for rollouts: the best by balanced's evaluation"),
    ("margin", 0.01, "weight of a rollout's score margin beside its win share"),
    ("z", 1.0, "standard errors by which a choice must beat balanced's to replace it"),
)

#: strategies whose row is another's: ``search`` decides everything but its
#: excavation rolls as ``balanced`` does, with ``balanced``'s rows
ROW_OF = {"search": "balanced"}

#: ``baseline``'s row: ``balanced``'s defaults as shipped before any tuning, frozen;
#: its last four columns (added later) are 0, which is the evaluation it shipped with
BASELINE_ROW = (1.0, 1.3, 1.0, 0.4, 0.6, 1.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0)


@cache
def data() -> dict:
    """The parsed data file."""
    text = resources.files("analyzer.unearth").joinpath("data", "strategies.toml").read_text()
    doc = tomllib.loads(text)
    for name, counts in doc.get("strategies", {}).items():
        if name not in STRATEGY_NAMES or name in ("random", "baseline", *ROW_OF):
            raise ValueError(f"data/strategies.toml: strategies.{name}: not a tunable strategy")
        for n, table in counts.items():
            row = table.get("params", {})
            if set(row) != set(PARAM_NAMES):
                missing = sorted(set(PARAM_NAMES) - set(row)) or sorted(set(row) - set(PARAM_NAMES))
                raise ValueError(f"data/strategies.toml: strategies.{name}.{n}: params {missing}")
    return doc


def version() -> str:
    """The strategies version (written beside the rules version)."""
    return str(data()["version"])


@cache
def rows_by_players(name: str) -> tuple[tuple[int, tuple[float, ...]], ...]:
    """``((players, row), ...)`` of ``name``, by increasing player count."""
    if name == "random":
        return ((2, (0.0,) * len(PARAM_NAMES)),)
    if name == "baseline":
        return ((2, BASELINE_ROW),)
    name = ROW_OF.get(name, name)
    counts = data()["strategies"][name]
    return tuple(
        (int(n), tuple(float(counts[n]["params"][p]) for p in PARAM_NAMES))
        for n in sorted(counts, key=int)
    )


def default_row(name: str, players: int) -> tuple[float, ...]:
    """``name``'s default parameter row at ``players`` seats."""
    rows = rows_by_players(name)
    row = rows[0][1]
    for n, r in rows:
        if n <= players:
            row = r
    return row
