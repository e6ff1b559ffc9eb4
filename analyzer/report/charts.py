"""Charts: matplotlib figures drawn from report tables (DataFrames only).

Charts never import the engine and never compute statistics: every estimate
and interval comes ready-made from :mod:`analyzer.tables.aggregate`. Each function
returns a :class:`matplotlib.figure.Figure` (object API, no pyplot state) whose
subtitle states the sample size and whose footer, the *stamp*, says how it was
made (scenario, seed, version, rules version, games).

The charts live in :mod:`analyzer.report.chart_style` (the page, palette and
helpers), :mod:`analyzer.report.balance_charts` (seat balance; a ``[balance]``
run's own charts are :mod:`analyzer.report.balance_design_charts`),
:mod:`analyzer.report.variant_charts`,
:mod:`analyzer.report.study_charts` and :mod:`analyzer.report.pages` (table and
text pages); this module gathers their names, as a game's charts and the report
use them.
"""

from __future__ import annotations

from analyzer.report.balance_charts import (
    first_player,
    game_length,
    score_distribution,
    score_parts,
    seats,
    seats_title,
    strategies,
)
from analyzer.report.chart_style import (
    COLOURS,
    MIN_PART,
    PAGE,
    PAGE_ROWS,
    PLAIN,
    PNG_DPI,
    REFERENCE,
    SIGNIFICANT,
    axes_grid,
    cell_labels,
    count_range_text,
    count_text,
    dot_plot,
    error_bars,
    figure,
    grouped_bars,
    png_bytes,
    uptake_and_wins,
)
from analyzer.report.pages import (
    MARKS,
    SUBTITLE_WIDTH,
    TEXT_STYLES,
    packed_table_pages,
    table_pages,
    text_blocks_pages,
    text_page,
)
from analyzer.report.study_charts import ladder, tune
from analyzer.report.variant_charts import (
    comparison,
    intervention,
    sweep,
    sweep_title,
    variants_overview,
)

__all__ = [
    "COLOURS",
    "MARKS",
    "MIN_PART",
    "PAGE",
    "PAGE_ROWS",
    "PLAIN",
    "PNG_DPI",
    "REFERENCE",
    "SIGNIFICANT",
    "SUBTITLE_WIDTH",
    "TEXT_STYLES",
    "axes_grid",
    "cell_labels",
    "comparison",
    "count_range_text",
    "count_text",
    "dot_plot",
    "error_bars",
    "figure",
    "first_player",
    "game_length",
    "grouped_bars",
    "intervention",
    "ladder",
    "packed_table_pages",
    "png_bytes",
    "score_distribution",
    "score_parts",
    "seats",
    "seats_title",
    "strategies",
    "sweep",
    "sweep_title",
    "table_pages",
    "text_blocks_pages",
    "variants_overview",
    "text_page",
    "tune",
    "uptake_and_wins",
]
