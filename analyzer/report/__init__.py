"""Balance reports: a run directory with PDF, PNG charts, CSV tables, summary and manifest.

:func:`run_and_report` is the library side of ``analyzer run``: it simulates a
scenario (:func:`analyzer.scenario.run_scenario`) and writes the report.
:func:`rebuild_report` is ``analyzer report DIR``: it recomputes every table,
chart and the PDF from the per-game tables saved in ``DIR/data`` (or from the
saved aggregate of an aggregate-only run), without simulating again.

Reports only read tables: the aggregate goes through
:func:`analyzer.tables.aggregate.build_tables`, charts through :mod:`analyzer.report.charts`
and the game's own :meth:`~analyzer.games.Game.charts` (the run's game is named
in the manifest).
A report directory is built whole in a temporary directory beside the target
and swapped into place at the end (:func:`analyzer.core.outputs.replace_dir`), so a
half-written report never exists and an old report is replaced only by a
complete new one. Only the files the manifest lists (``files``: everything
analyzer wrote, data included) are ever replaced or removed; anything else the
user put in the folder stays.

The findings (:mod:`analyzer.tables.findings`: the scenario's or the game's questions
answered in sentences with intervals and n) open page 1 of the PDF, the HTML
page and ``summary.md``, and are in the manifest (``findings``) and
``tables/findings.csv``.

A run with a ``[balance]`` (the manifest's ``balance``) opens with its answer
instead: :mod:`analyzer.report.balance_page` says it in words (page 1, the top of
the HTML page and of ``summary.md``), :mod:`analyzer.report.balance_design_charts`
draws its response curve, seats before and after, and front.

The parts: :mod:`analyzer.report.build` (the two entry points),
:mod:`analyzer.report.write` (every file of a report), :mod:`analyzer.report.info`,
:mod:`analyzer.report.findings_view`, :mod:`analyzer.report.run_charts`,
:mod:`analyzer.report.table_display`, :mod:`analyzer.report.summary` and
:mod:`analyzer.report.files`; this package keeps every name it had before they
had modules of their own.

Layout of a report directory::

    report.pdf  report.html  summary.md  manifest.json
    charts/<name>.png        one per chart
    tables/<name>.csv        one per table
    data/games.parquet       per-game table (unless aggregate-only)
    data/claims.parquet      per-claim table (if recorded)
    data/aggregate.parquet   summed partials (always)
    data/claims_exact.parquet  exact claim odds (if available)
"""

from __future__ import annotations

from analyzer.core.errors import AnalyzerError
from analyzer.report.build import (
    ReportResult,
    rebuild_report,
    run_and_report,
)
from analyzer.report.findings_view import (
    compact_whose_play,
    findings_blocks,
    findings_display,
    findings_markdown,
    findings_pages,
    findings_subtitle,
    page_one_findings,
    strategy_parameters,
)
from analyzer.report.info import (
    data_tables,
    make_stamp,
    plays_games,
    section_charts,
    section_notes,
    versions_text,
)
from analyzer.report.run_charts import MAX_PAIR_CHARTS, intervention_table, make_charts
from analyzer.report.summary import (
    TITLE_ASSUMED,
    headlines,
    summary_markdown,
    title_lines,
)
from analyzer.report.table_display import (
    MAX_CELL_TEXT,
    TABLE_PAGES,
    display_table,
    settings_table,
    table_figures,
    table_items,
    table_pages,
)
from analyzer.report.write import write_report

__all__ = [
    "ReportResult",
    "rebuild_report",
    "run_and_report",
    "write_report",
    "AnalyzerError",
    # the parts of a report, by their names here before they had modules of their own
    "MAX_CELL_TEXT",
    "MAX_PAIR_CHARTS",
    "TABLE_PAGES",
    "TITLE_ASSUMED",
    "compact_whose_play",
    "data_tables",
    "display_table",
    "findings_blocks",
    "findings_display",
    "findings_markdown",
    "findings_pages",
    "findings_subtitle",
    "headlines",
    "intervention_table",
    "make_charts",
    "make_stamp",
    "page_one_findings",
    "plays_games",
    "section_charts",
    "section_notes",
    "settings_table",
    "strategy_parameters",
    "summary_markdown",
    "table_figures",
    "table_items",
    "table_pages",
    "title_lines",
    "versions_text",
]
