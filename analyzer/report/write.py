"""Writing a report: tables, charts, ``report.pdf``, ``report.html``, ``summary.md``, manifest.

:func:`write_report` turns a run's summed partials and manifest into every file
of a report directory (the caller owns the directory); the findings open page 1
of the PDF, the HTML page and ``summary.md``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from matplotlib.backends.backend_pdf import PdfPages

from analyzer.games import DEFAULT_GAME, load_game
from analyzer.report import balance_design_charts, balance_page, charts, webpage
from analyzer.report.files import _json
from analyzer.report.findings_view import (
    GLOSSARY,
    _cap,
    compact_whose_play,
    findings_pages,
    findings_subtitle,
    glossary_pages,
    page_one_findings,
    strategy_parameters,
)
from analyzer.report.info import make_stamp, plays_games, section_charts, section_notes
from analyzer.report.run_charts import make_charts
from analyzer.report.summary import summary_markdown, title_lines
from analyzer.report.table_display import pdf_items, settings_table, table_items
from analyzer.studies import landscape, sections, sensitivity
from analyzer.tables import findings, restricted
from analyzer.tables.aggregate import build_tables


def write_report(
    directory: Path, aggregate: pd.DataFrame, info: dict, extra: dict | None = None
) -> list[str]:
    """Write tables (CSV), charts (PNG), ``report.pdf``, ``summary.md`` and
    ``manifest.json`` into ``directory`` (which the caller owns). Returns the
    relative paths of the files written. A run with ``[ladder]``/``[tune]``
    (``info["ladder"]``, ``info["tune"]``) gets their pages after page 1 and their
    data files (:func:`analyzer.studies.sections.write_files`)."""
    directory = Path(directory)
    tables = build_tables(aggregate, info) if plays_games(info) else {}
    if info.get("assumed"):
        tables["assumed_values"] = pd.DataFrame(info["assumed"])
    params = strategy_parameters(info)
    if len(params):
        tables["strategy_parameters"] = params
    for name, df in (extra or {}).items():
        df = df.copy()
        if "cell" in df:
            labels = {c["index"]: c["label"] for c in info.get("cells", [])}
            df.insert(1, "label", df["cell"].map(labels))
        tables[name] = df
    tables.update(landscape.report_tables(info))  # skill_gradient, drama
    tables.update(restricted.report_tables(info))  # restricted play (question 'dominance')
    found = findings.answer(tables, info)
    tables["findings"] = found.table()
    tables.update(sensitivity.report_tables(info, found))
    stamp = make_stamp(info)
    (directory / "tables").mkdir(exist_ok=True)
    (directory / "charts").mkdir(exist_ok=True)
    files = []
    for name, df in tables.items():
        df.to_csv(directory / "tables" / f"{name}.csv", index=False, float_format="%.6g")
        files.append(f"tables/{name}.csv")
    figures = section_charts(info, stamp) + make_charts(tables, info, stamp)
    balance = balance_page.doc_of(info)  # a [balance] run: its answer is page 1
    answer_figures = balance_design_charts.make_charts(balance, stamp) if balance else []
    pngs = {}
    for name, fig in answer_figures + figures:  # each drawn once; the PDF keeps this layout
        pngs[name] = charts.png_bytes(fig)
        (directory / "charts" / f"{name}.png").write_bytes(pngs[name])
        files.append(f"charts/{name}.png")
    title = load_game(info.get("game", DEFAULT_GAME)).title
    pages = []
    if balance:
        sub = balance_page.answer_subtitle(balance, info)
        pages += balance_page.answer_pages(balance, f"{title}: {info['scenario']['name']}",
                                           sub, stamp)  # fmt: skip
        pages += [fig for _, fig in answer_figures]
    pages += findings_pages(found, info, f"{title}: {info['scenario']['name']}", stamp)
    pages += [fig for _, fig in figures]
    if plays_games(info):
        pages += glossary_pages(stamp)
    settings = title_lines(tables, info)
    items = table_items(tables, info, frozenset(extra or {}), found)
    items[:0] = [it for it in sections.display_items(info) if it[0] == "ladder_ratings"]
    items[:0] = balance_page.display_items(info)
    items += landscape.display_items(info)
    items.append(("settings", settings_table(settings), "How this report was made", ""))
    pages += charts.packed_table_pages(pdf_items(items), stamp, "Appendix: tables")
    with PdfPages(directory / "report.pdf") as pdf:
        for fig in pages:
            pdf.savefig(fig)
        meta = pdf.infodict()
        meta["Title"] = f"analyzer report: {info['scenario']['name']}"
        meta["Subject"] = stamp
    files.append("report.pdf")
    page = webpage.report_html(
        title=f"{title}: {info['scenario']['name']}",
        subtitle=findings_subtitle(info),
        stamp=stamp,
        answer=(
            (
                balance.get("question") or "",
                balance_page.answer_blocks(balance),
                [(name, fig.get_suptitle(), pngs[name]) for name, fig in answer_figures],
            )
            if balance
            else None
        ),
        questions=[
            (
                q["text"],
                [(f.significant, f"{f.text} {_cap(f.verdict())}.") for f in fs],
                found.across_for(i),
                found.verdict_for(i),
            )
            for i, (q, fs) in enumerate(
                (q, shown + rest) for q, shown, rest in page_one_findings(found, 10**9)
            )
        ],
        lead=[("Field of players", found.field_of_players)] if found.field_of_players else [],
        notes=[
            *section_notes(info, found),
            ("Whose play these numbers describe", compact_whose_play(found.whose_play)),
            ("What was assumed", found.assumed),
        ],
        method=found.method if plays_games(info) else "",
        charts=[(name, fig.get_suptitle(), pngs[name]) for name, fig in figures],
        tables=[
            (name, t, note, df)
            for name, df, t, note in balance_page.display_items(info)
            + sections.display_items(info)
            + landscape.display_items(info)
            + table_items(tables, info, frozenset(extra or {}), found, True)
        ],
        settings=settings,
        glossary=GLOSSARY if plays_games(info) else (),
        shown=findings.PAGE_PER_QUESTION,
    )
    (directory / "report.html").write_text(page, "utf-8")
    files.append("report.html")
    (directory / "summary.md").write_text(
        summary_markdown(tables, info, [n for n, _ in answer_figures + figures], found), "utf-8"
    )
    files.append("summary.md")
    files += sections.write_files(directory, info)
    from analyzer.studies.balance import write_files as balance_files

    files += balance_files(directory, info)  # balance.json, tables/balance_candidates.csv
    data_files = sorted(f"data/{p.name}" for p in (directory / "data").glob("*.parquet"))
    info = {
        **info,
        "findings": found.as_dict(),
        "files": sorted(files + data_files + ["manifest.json"]),
    }
    (directory / "manifest.json").write_text(
        json.dumps(info, indent=1, default=_json) + "\n", "utf-8"
    )
    files.append("manifest.json")
    return sorted(files)
