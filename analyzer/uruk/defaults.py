"""The strategies' default parameter rows, by player count (``data/strategies.toml``).

Read without numba. Each ``[strategies.<name>.<players>]`` table of the data file
is a full parameter row (names in :data:`PARAM_NAMES`) with the ``analyzer tune``
command that produced it and its confirmation; a player count without a table
takes the row of the nearest smaller count that has one (and the smallest listed
count below that). ``random`` plays no parameters and ``baseline``'s row is
frozen in the code (:data:`analyzer.uruk.strategies.BASELINE_PARAMS`): neither
is in the file. docs/strategies.md lists the rows and how they were made.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

#: parameter names, in the order of a strategy's row (analyzer.uruk.strategies)
PARAM_NAMES = ("uniform", "w_points", "w_level", "w_resource", "w_card", "auction", "secret")
STRATEGY_NAMES = ("random", "builder", "hoarder", "balanced", "baseline", "search")
#: the ``search`` player's own settings (``strategy_params = {search = {budget = 64}}``):
#: (name, default, meaning); its row is ``balanced``'s
SEARCH_PARAMS = (
    ("budget", 256.0, "rollouts per decision"),
    ("width", 4.0, "choices kept for rollouts: the best by balanced's evaluation"),
    ("margin", 0.01, "weight of a rollout's score margin beside its win share"),
    ("z", 1.0, "standard errors by which a choice must beat balanced's to replace it"),
    (
        "bids",
        1.0,
        "1: secret bids against disasters chosen by rollouts too; 2: and the limit in a god "
        "auction; 0: both as balanced",
    ),
)
TUNED_NAMES = ("builder", "hoarder", "balanced")
RANDOM_ROW = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
#: balanced as shipped in strategies version 1, frozen (strategies.BASELINE_PARAMS)
BASELINE_ROW = (0.0, 1.0, 0.4, 0.3, 0.4, 1.0, 0.5)


@cache
def data() -> dict:
    """The parsed data file (checked: tunable strategies, full rows)."""
    text = resources.files("analyzer.uruk").joinpath("data", "strategies.toml").read_text()
    doc = tomllib.loads(text)
    for name, counts in doc.get("strategies", {}).items():
        if name not in TUNED_NAMES:
            raise ValueError(f"data/strategies.toml: strategies.{name}: not a tunable strategy")
        for n, table in counts.items():
            row = table.get("params", {})
            if set(row) != set(PARAM_NAMES):
                odd = sorted(set(PARAM_NAMES) ^ set(row))
                raise ValueError(f"data/strategies.toml: strategies.{name}.{n}: params {odd}")
    return doc


def version() -> str:
    """The strategies version (written beside the rules version)."""
    return str(data()["version"])


@cache
def rows_by_players(name: str) -> tuple[tuple[int, tuple[float, ...]], ...]:
    """``((players, row), ...)`` of ``name``, by increasing player count."""
    if name == "random":
        return ((2, RANDOM_ROW),)
    if name == "baseline":
        return ((2, BASELINE_ROW),)
    if name == "search":
        return rows_by_players("balanced")
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
