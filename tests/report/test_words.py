"""People's words on charts and table pages; ticks where their labels say; the PDF's
appendix keeps long tables short."""

from __future__ import annotations

import pandas as pd

from analyzer.report.chart_style import MAX_SERIES, pct_tick, shown_labels
from analyzer.report.table_display import PDF_ROWS, in_words, pdf_items
from analyzer.report.words import header, metric_name, scope_name


def test_column_names_read_as_words():
    labels = {"pts_ruin_sets": "ruin_sets"}
    assert metric_name("pts_ruin_sets", labels) == "points from ruin sets"
    assert header("seat0_win_adj") == "first player's win rate, luck-adjusted"
    assert header("var_ratio").startswith("variance ratio")
    assert header("win_rate [95% CI]") == "win rate [95% CI]"
    assert metric_name("win rate seat 2") == "third player's win rate"
    assert metric_name("mean game_turns") == "mean game length (turns)"
    assert scope_name("seat=0") == "first player" and scope_name("strategy=greedy") == "greedy"


def test_a_display_table_counts_seats_from_one_and_keeps_the_csv_names_out():
    df = pd.DataFrame({"seat": ["0", "3"], "scope": ["seat=0", "all seats"],
                       "metric": ["pts_tokens", "win"], "seat0_win": ["0.3", "0.2"]})  # fmt: skip
    out = in_words(df, {})
    assert list(out["seat (1 = first player)"]) == ["1", "4"]
    assert list(out["whose"]) == ["first player", "every seat"]
    assert list(out["what"]) == ["points from tokens", "win rate"]
    assert "first player's win rate" in out.columns and "seat0_win" not in out.columns
    assert list(df.columns) == ["seat", "scope", "metric", "seat0_win"]  # the input untouched


def test_percent_ticks_say_where_they_are():
    assert pct_tick(0.225) == "22.5%" and pct_tick(0.275) == "27.5%"
    assert pct_tick(0.22) == "22%" and pct_tick(0.3) == "30%"


def test_a_chart_draws_the_base_and_the_widest_spread_only():
    rows = [{"label": f"c{i}", "x": k, "v": 0.25 + (i % 5) * 0.01 * (k - 1)}
            for i in range(12) for k in range(3)]  # fmt: skip
    df = pd.DataFrame(rows)
    got = shown_labels(df, "v")
    assert len(got) == MAX_SERIES and got[0] == "c0"
    assert {"c4", "c9"} <= set(got)  # the widest spread (i % 5 == 4)


def test_long_tables_are_cut_in_the_pdf_and_say_where_the_rest_is():
    long = pd.DataFrame({"a": range(PDF_ROWS + 20)})
    ((df, title, note),) = pdf_items([("sweep", long, "Sweep", "every metric")])
    assert len(df) == PDF_ROWS and title == "Sweep"
    assert note.startswith(
        f"first {PDF_ROWS} of {PDF_ROWS + 20} rows; every row in tables/sweep.csv"
    )
