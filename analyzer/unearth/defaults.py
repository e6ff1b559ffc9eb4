"""The strategies' default parameter rows, by player count (``data/strategies.toml``).

Read without numba. Each ``[<strategy>.<players>]`` table of the data file is a
full parameter row (names in :data:`PARAM_NAMES`) with the ``analyzer tune``
command that produced it and its confirmation; a player count without a table
takes the row of the nearest smaller count that has one (and the smallest
listed count below that). ``random`` plays no parameters; ``baseline``'s row
is frozen in the code (:data:`analyzer.unearth.strategies.BASELINE_PARAMS`),
not here. docs/games/unearth.md lists the rows and how they were made.
"""

from __future__ import annotations

from analyzer.games.strategy_rows import RowsFile, search_params

#: parameter names, in the order of a strategy's parameter row (docs/games/unearth.md)
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
#: defaults and what they mean (docs/games/unearth.md)
SEARCH_PARAMS = search_params(256, 6, decision="excavation decision")

#: the search player's own settings (``strategy_params = {search = {budget = 64}}``):
#: (low, high, allowed) of each, checked without numba
SEARCH_SETTINGS = {
    "budget": (1, 1_000_000, "an integer from 1 to 1,000,000"),
    "width": (1, 64, "an integer from 1 to 64"),
    "margin": (0.0, 1.0, "a number from 0 to 1"),
    "z": (0.0, 10.0, "a number from 0 to 10"),
}


def search_settings(params: dict | None) -> dict[str, float]:
    """The ``search`` player's settings: its defaults with ``params["search"]``
    applied (checked: ``strategy_params.search.<key>: bad value ...``;
    :func:`analyzer.kernels.search_settings.search_settings`, no engine loaded)."""
    from analyzer.kernels.search_settings import search_settings as checked

    return checked(params, SEARCH_PARAMS, SEARCH_SETTINGS)


#: strategies whose row is another's: ``search`` decides everything but its
#: excavation rolls as ``balanced`` does, with ``balanced``'s rows
ROW_OF = {"search": "balanced"}

#: ``baseline``'s row: ``balanced``'s defaults as shipped before any tuning, frozen;
#: its last four columns (added later) are 0, which is the evaluation it shipped with
BASELINE_ROW = (1.0, 1.3, 1.0, 0.4, 0.6, 1.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0)


#: the data file's reader (:class:`analyzer.games.strategy_rows.RowsFile`)
ROWS = RowsFile(
    "analyzer.unearth",
    PARAM_NAMES,
    tuned=tuple(x for x in STRATEGY_NAMES if x not in ("random", "baseline", *ROW_OF)),
    fixed={"random": (0.0,) * len(PARAM_NAMES), "baseline": BASELINE_ROW},
    row_of=ROW_OF,
)
data = ROWS.data
version = ROWS.version
rows_by_players = ROWS.rows_by_players
default_row = ROWS.default_row
