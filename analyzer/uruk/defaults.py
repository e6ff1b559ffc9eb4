"""The strategies' default parameter rows, by player count (``data/strategies.toml``).

Read without numba. Each ``[strategies.<name>.<players>]`` table of the data file
is a full parameter row (names in :data:`PARAM_NAMES`) with the ``analyzer tune``
command that produced it and its confirmation; a player count without a table
takes the row of the nearest smaller count that has one (and the smallest listed
count below that). ``random`` plays no parameters and ``baseline``'s row is
frozen in the code (:data:`analyzer.uruk.strategies.BASELINE_PARAMS`): neither
is in the file. docs/games/uruk.md lists the rows and how they were made.
"""

from __future__ import annotations

from analyzer.games.strategy_rows import RowsFile, search_params

#: parameter names, in the order of a strategy's row (analyzer.uruk.strategies)
PARAM_NAMES = ("uniform", "w_points", "w_level", "w_resource", "w_card", "auction", "secret")
STRATEGY_NAMES = (
    "random",
    "builder",
    "hoarder",
    "balanced",
    "baseline",
    "search",
    "balanced_v3",
    "trained",
)
#: the ``search`` player's own settings (``strategy_params = {search = {budget = 64}}``):
#: (name, default, meaning); its row is ``balanced``'s
SEARCH_PARAMS = search_params(
    256,
    4,
    extra=(
        (
            "bids",
            1.0,
            "1: secret bids against disasters chosen by rollouts too; 2: and the limit in a "
            "god auction; 0: both as balanced",
        ),
    ),
)
#: the search player's settings: (low, high, allowed) of each, checked without numba
SEARCH_SETTINGS = {
    "budget": (1, 1_000_000, "an integer from 1 to 1,000,000"),
    "width": (1, 64, "an integer from 1 to 64"),
    "margin": (0.0, 1.0, "a number from 0 to 1"),
    "z": (0.0, 10.0, "a number from 0 to 10"),
    "bids": (0, 2, "0, 1 or 2"),
}


def search_settings(params: dict | None) -> dict[str, float]:
    """The ``search`` player's settings: its defaults with ``params["search"]``
    applied (checked: ``strategy_params.search.<key>: bad value ...``;
    :func:`analyzer.kernels.search_settings.search_settings`, no engine loaded)."""
    from analyzer.kernels.search_settings import search_settings as checked

    return checked(params, SEARCH_PARAMS, SEARCH_SETTINGS)


TUNED_NAMES = ("builder", "hoarder", "balanced")
#: strategies whose rows the data file keeps but ``analyzer tune`` does not search:
#: ``balanced_v3``, the default of strategies version 3, its rows kept as shipped
KEPT_NAMES = ("balanced_v3",)
RANDOM_ROW = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
#: balanced as shipped in strategies version 1, frozen (strategies.BASELINE_PARAMS)
BASELINE_ROW = (0.0, 1.0, 0.4, 0.3, 0.4, 1.0, 0.5)


#: the data file's reader (:class:`analyzer.games.strategy_rows.RowsFile`)
ROWS = RowsFile(
    "analyzer.uruk",
    PARAM_NAMES,
    tuned=TUNED_NAMES + KEPT_NAMES,
    fixed={"random": RANDOM_ROW, "baseline": BASELINE_ROW},
    row_of={"search": "balanced", "trained": "balanced"},
)
data = ROWS.data
version = ROWS.version
rows_by_players = ROWS.rows_by_players
default_row = ROWS.default_row
