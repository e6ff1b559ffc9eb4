"""Aggregation: per-game tables -> additive partials -> report tables (pandas).

This is the one place that builds pandas tables for reports, for every game. It
works in two steps, so that aggregate-only runs (bounded memory) and runs that
keep every game give the same report:

1. :class:`Reducer` (:mod:`analyzer.tables.reducer`) turns one batch's tables
   (``games`` and the game's own, plus the ``cell`` and ``order`` columns added
   by :class:`analyzer.runs.driver.ScenarioJob`) into a *partial*
   (:mod:`analyzer.tables.partial`): a DataFrame indexed by
   ``(cell, group, key, metric)`` with float64 columns ``n``, ``sum``,
   ``sumsq``, summed by the hand-written groupby of
   :mod:`analyzer.tables.groupby` to the bits pandas gives. Partials are
   additive, so batches are combined with :func:`combine` (or the runner's own
   summation).
2. :func:`build_tables` (:mod:`analyzer.tables.report_tables`) turns the summed
   partials into the report tables, every estimate with a 95% interval (Wilson
   for rates, normal for means; :mod:`analyzer.tables.estimates`). The runner
   judges a precision target by a headline (:mod:`analyzer.tables.headlines`).

Only the core columns (:data:`analyzer.games.CORE_COLUMNS`) are known here by
name; every other column is used as the game declares it
(:class:`analyzer.games.Column`), and the game adds its own partial rows and
tables through :meth:`analyzer.games.Game.reduce` and
:meth:`~analyzer.games.Game.report_tables`. Display names come from the
``labels`` mapping the scenario supplies.

This module gathers the names of those modules in one place: a game's tables
and the layers above import them from here.
"""

from __future__ import annotations

from analyzer.core.frames import column_arrays, scratch
from analyzer.core.stats import wilson, z_value
from analyzer.tables.estimates import (
    frame,
    mean_ci,
    mean_ci_arrays,
    per_use,
    pivot,
    rate,
)
from analyzer.tables.groupby import (
    Family,
    Table,
    _number_codes,
    _texts,
    blockwise,
    counts,
    counts_by_pandas,
    flag_blocks,
    grouped,
    key_codes,
    moments,
    moments_by_pandas,
    stacked,
    stacked_by_pandas,
)
from analyzer.tables.headlines import (
    first_player_headline,
    headline,
    widest_seat_headline,
)
from analyzer.tables.partial import (
    INDEX,
    MOMENTS,
    Part,
    _unique,
    assemble,
    combine,
    empty_partial,
    group_lists,
    group_rows,
    group_rows_by_pandas,
)
from analyzer.tables.reducer import (
    ADJUSTED,
    CORE,
    CORE_METRICS,
    GAME_METRICS,
    Reducer,
    metric_columns,
    metric_scopes,
    paired_metrics,
    run_columns,
    with_adjusted,
)
from analyzer.tables.report_tables import (
    PER_USE_PARTS,
    build_tables,
)

#: the names pandas' own path had before it moved (the plain twins the tests compare
#: the groupby with are ``tests/pandas_twins.py``'s)
moments_pandas = moments_by_pandas
counts_pandas = counts_by_pandas
stacked_pandas = stacked_by_pandas
group_rows_pandas = group_rows_by_pandas

__all__ = [
    "ADJUSTED",
    "CORE",
    "CORE_METRICS",
    "GAME_METRICS",
    "INDEX",
    "MOMENTS",
    "PER_USE_PARTS",
    "Family",
    "Part",
    "Reducer",
    "Table",
    "assemble",
    "blockwise",
    "build_tables",
    "column_arrays",
    "combine",
    "counts",
    "counts_by_pandas",
    "counts_pandas",
    "empty_partial",
    "first_player_headline",
    "flag_blocks",
    "frame",
    "group_lists",
    "group_rows",
    "group_rows_by_pandas",
    "group_rows_pandas",
    "grouped",
    "headline",
    "key_codes",
    "mean_ci",
    "mean_ci_arrays",
    "metric_columns",
    "metric_scopes",
    "moments",
    "moments_by_pandas",
    "moments_pandas",
    "paired_metrics",
    "per_use",
    "pivot",
    "rate",
    "run_columns",
    "scratch",
    "stacked",
    "stacked_by_pandas",
    "stacked_pandas",
    "widest_seat_headline",
    "wilson",
    "with_adjusted",
    "z_value",
    # private names the tests read
    "_number_codes",
    "_texts",
    "_unique",
]
