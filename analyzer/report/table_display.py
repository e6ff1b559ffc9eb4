"""The report's tables as pages: which tables, in which order, and how they read.

:data:`TABLE_PAGES` lists the tables a report shows with their titles and notes;
:func:`display_table` rounds and labels a table for reading; :func:`table_items`
gives the tables of a run (the findings, the generic ones, the game's, the
sensitivity study's) for the PDF's table pages and the HTML page.
"""

from __future__ import annotations

import re
import textwrap

import numpy as np
import pandas as pd

from analyzer.games import DEFAULT_GAME, load_game
from analyzer.report import charts
from analyzer.report.findings_view import findings_display, page_one_findings
from analyzer.report.words import header, metric_name, scope_name
from analyzer.studies import sensitivity
from analyzer.tables import findings

#: generic tables shown as PDF pages, in order, with the note printed under the
#: title; the game's own pages (:meth:`~analyzer.games.Game.table_pages`) follow
TABLE_PAGES = (
    ("first_player", "First-player advantage", "first player's win rate vs fair share 1/players"),
    ("seats", "Balance by seat", "win rate and mean score"),
    ("strategies", "Balance by strategy", "seat-games pooled over seats"),
    ("seat_strategy", "Strategy by seat", "rotation: every strategy in every seat"),
    (
        "comparison",
        "Paired differences (each variant − the first)",
        "per game index; * = interval excludes 0",
    ),
    ("sweep", "Sweep", "every metric at every swept value"),
    ("games_summary", "Games", "per game: length, mean score, shared wins"),
    (
        "strategy_parameters",
        "Strategy parameters",
        "the values each strategy played with (the row of this player count; a "
        "[strategy_params] change on top); per field: 'Fields of players' on page 1",
    ),
    (
        "sensitivity",
        "Sensitivity to assumed values",
        "each finding of the run (base, 95% interval), at the study's games with the values "
        "as played and moved; significance after Holm in each; every column in "
        "tables/sensitivity.csv",
    ),
    (
        "sensitivity_shifts",
        "What each assumed value moves",
        "paired shift (moved − as played, same games) of the first player's win rate, "
        "the mean score and the game length, 95% intervals",
    ),
    (
        "assumed_values",
        "Assumed values",
        "not given by the rulebook: each can be changed in a scenario's [overrides]",
    ),
)


#: characters of a text cell shown in a PDF table (the CSV has the whole text)
MAX_CELL_TEXT = 44


def table_pages(info: dict) -> tuple[tuple[str, str, str], ...]:
    """The generic table pages, then the game's."""
    return TABLE_PAGES + tuple(load_game(info.get("game", DEFAULT_GAME)).table_pages())


def display_table(df: pd.DataFrame) -> pd.DataFrame:
    """A table for reading: ``x, x_low, x_high`` become one ``x [95% CI]`` text column,
    numbers are rounded, and id columns with a single value are dropped."""
    out = {}
    cols = list(df.columns)
    for c in cols:
        if c.endswith("_low") or c.endswith("_high"):
            continue
        if c in ("cell", "cell_a") or (c in ("label", "players") and df[c].nunique() <= 1):
            continue
        if c in ("low", "high") or (c in ("wonder", "card") and "name" in df):
            continue
        if f"{c}_low" in df and f"{c}_high" in df:
            out[f"{c} [95% CI]"] = [
                f"{_num(v)} [{_num(lo)}, {_num(hi)}]"
                for v, lo, hi in zip(df[c], df[f"{c}_low"], df[f"{c}_high"], strict=True)
            ]
        elif c == "estimate" and "low" in df:
            out["estimate [95% CI]"] = [
                f"{_num(v)} [{_num(lo)}, {_num(hi)}]"
                for v, lo, hi in zip(df[c], df["low"], df["high"], strict=True)
            ]
        elif c == "significant":
            out[c] = np.where(df[c], "*", "")
        else:
            out[c] = [_num(v) for v in df[c]]
    return pd.DataFrame(out)


def _num(v) -> str:
    if isinstance(v, bool | np.bool_):
        return "yes" if v else "no"
    if isinstance(v, int | np.integer):
        return str(int(v))
    if isinstance(v, float | np.floating):
        if not np.isfinite(v):
            return "–"
        if float(v).is_integer() and abs(v) >= 10:
            return f"{int(v):,}"
        if abs(v) >= 100:
            return f"{v:,.1f}"
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.2f}"
    text = str(v)
    # a page shows a text cell shortened; the CSV keeps it whole
    return text if len(text) <= MAX_CELL_TEXT else text[: MAX_CELL_TEXT - 1] + "…"


def table_figures(
    tables: dict[str, pd.DataFrame],
    info: dict,
    stamp: str,
    first_cell_only=frozenset(),
    found: findings.Findings | None = None,
) -> list:
    """PDF pages for the tables of :func:`table_pages` that exist, small ones
    sharing a page (see :func:`table_items`)."""
    items = table_items(tables, info, first_cell_only, found)
    return charts.packed_table_pages(pdf_items(items), stamp)


def table_items(
    tables: dict[str, pd.DataFrame],
    info: dict,
    first_cell_only=frozenset(),
    found: findings.Findings | None = None,
    all_findings: bool = False,
) -> list[tuple[str, pd.DataFrame, str, str]]:
    """``[(name, display table, title, note)]`` of the tables of :func:`table_pages`
    that exist; the tables in ``first_cell_only`` (exact tables, the same for every
    cell) show cell 0 only. Every finding is listed first when page 1 could not
    show them all (or always, with ``all_findings``)."""
    items = []
    if (
        found is not None
        and found.findings
        and (
            all_findings
            or len(found.findings) > sum(len(shown) for _, shown, _ in page_one_findings(found))
        )
    ):
        items.append(
            ("findings", findings_display(found), "All findings, largest effect first", "")
        )
    for name, title, note in table_pages(info):
        if name in tables and len(tables[name]):
            df = tables[name]
            if name == "seat_strategy" and df.groupby("cell")["strategy"].nunique().max() <= 1:
                continue
            if name in first_cell_only and "cell" in df:
                df = df[df["cell"] == df["cell"].min()]
            if name == sensitivity.TABLE:
                df = sensitivity.display(df)
            items.append((name, in_words(display_table(df), info.get("labels")), title, note))
    return items


def in_words(df: pd.DataFrame, labels: dict | None = None) -> pd.DataFrame:
    """A display table in people's words: headers (``seat0_win`` -> "first player's win
    rate"), seats counted from 1, what a paired row is about (``seat=0`` -> "first
    player") and metric names. The CSV files keep the names scripts read."""
    out = df.copy()
    if "seat" in out:
        out["seat"] = [str(int(v) + 1) if str(v).lstrip("-").isdigit() else v for v in out["seat"]]
    if "scope" in out:
        out["scope"] = [scope_name(v) for v in out["scope"]]
    for col in ("metric", "part"):
        if col in out:
            out[col] = [metric_name(v, labels) for v in out[col]]
    out.columns = [header(c, labels) for c in out.columns]
    return out


#: rows of a table the PDF shows (the HTML page and the CSV have every row)
PDF_ROWS = 30


def pdf_items(items):
    """``[(display table, title, note)]`` for the PDF's appendix: a table longer than
    :data:`PDF_ROWS` shows its first rows and says where the rest is."""
    out = []
    for name, df, title, note in items:
        if len(df) > PDF_ROWS and name != "settings":
            more = f"first {PDF_ROWS} of {len(df):,} rows; every row in tables/{name}.csv"
            note = f"{more} · {note}" if note else more
            df = df.iloc[:PDF_ROWS]
        out.append((df, title, note))
    return out


def settings_table(lines: list[str], width: int = 100) -> pd.DataFrame:
    """The settings of :func:`title_lines` (``key   value`` lines) as a two-column
    table for the last PDF page; long values wrapped over several rows. The
    assumed values have their own table and are left out here."""
    rows = []
    for line in lines:
        if line.startswith("Assumed values ("):
            break
        m = re.match(r"^(\S[^ ]*(?: [^ ]+)*?)\s{2,}(.*)$", line)
        if not m:
            continue
        for i, part in enumerate(textwrap.wrap(m.group(2), width) or [""]):
            rows.append({"setting": m.group(1) if i == 0 else "", "value": part})
    return pd.DataFrame(rows, columns=["setting", "value"])
