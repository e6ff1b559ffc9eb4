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

import json
import math
import os
import re
import shutil
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_pdf import PdfPages

from analyzer.core.errors import AnalyzerError, EnvironmentFailure, InputError
from analyzer.games import DEFAULT_GAME, load_game
from analyzer.report import charts, webpage
from analyzer.studies import sections, sensitivity
from analyzer.tables import findings
from analyzer.tables.aggregate import Reducer, build_tables, combine, run_columns


def data_tables(info: dict) -> tuple[str, ...]:
    """Per-game tables a run of the manifest's game may save: ``games`` and the game's own."""
    return ("games", *load_game(info.get("game", DEFAULT_GAME)).tables)


@dataclass
class ReportResult:
    """Where a report went and what it holds."""

    directory: Path
    files: list[str]
    info: dict


# --------------------------------------------------------------------------- entry points


def run_and_report(
    scenario_path: str | Path,
    out: str | Path | None = None,
    *,
    games: int | None = None,
    seed: int | None = None,
    workers: int | None = None,
    progress: bool = True,
) -> ReportResult:
    """Validate, simulate and write the report of a scenario file.

    ``out`` defaults to ``reports/<scenario name>``. ``games``/``seed`` override
    the file's values. An invalid scenario raises :class:`InputError` before
    anything is written.
    """
    from analyzer.core.outputs import folder_lock
    from analyzer.runs.scenario_file import load_scenario, with_overrides

    sc = with_overrides(load_scenario(scenario_path), games=games, seed=seed)
    target = Path(out) if out is not None else Path("reports") / sc.name
    _check_target(target)
    with folder_lock(target):  # a second run to the folder stops now, not after its games
        return _run_and_write(sc, target, workers, progress)


def _run_and_write(sc, target: Path, workers, progress) -> ReportResult:
    """:func:`run_and_report` once the scenario is read and the folder is held."""
    from analyzer.runs.driver import run_scenario, sections_only_info
    from analyzer.studies.sections import run_sections
    from analyzer.tables.aggregate import empty_partial

    if sc.plays_games:
        run = run_scenario(sc, workers=workers, progress=progress)
        info, aggregate, tables, extra = run.info, run.aggregate, run.tables, run.extra
    else:  # only [ladder]/[tune]: no games of its own
        info, aggregate, tables, extra = sections_only_info(sc, workers), empty_partial(), {}, {}
    if sc.ladder is not None or sc.tune is not None:
        t0 = time.perf_counter()
        info.update(run_sections(sc, info["seed"], workers=workers, progress=progress))
        if not sc.plays_games:
            info["seconds"] = round(time.perf_counter() - t0, 3)
    if sc.sensitivity is not None:
        from analyzer.studies.sensitivity import run_sensitivity

        info["sensitivity"] = run_sensitivity(sc, info["seed"], workers=workers, progress=progress)
    t0 = time.perf_counter()

    def fill(tmp: Path) -> list[str]:
        data = tmp / "data"
        data.mkdir()
        for name in data_tables(info):
            if name in tables and tables[name] is not None:
                _write_parquet(tables[name], data / f"{name}.parquet")
        _write_parquet(aggregate, data / "aggregate.parquet", index=True)
        for name, df in extra.items():
            _write_parquet(df, data / f"{name}.parquet")
        return write_report(tmp, aggregate, info, extra)

    files = _build_dir(target, fill)
    info["findings"] = json.loads((target / "manifest.json").read_text("utf-8"))["findings"]
    info["report_seconds"] = round(time.perf_counter() - t0, 3)
    return ReportResult(directory=target, files=files, info=info)


def rebuild_report(directory: str | Path) -> ReportResult:
    """Recompute every table, chart, the PDF and summary of a saved run in place.

    Uses ``data/games.parquet`` (and ``claims``) when present, else the saved
    aggregate of an aggregate-only run. The directory is replaced only once the
    new report is complete.
    """
    src = Path(directory)
    manifest = src / "manifest.json"
    if not manifest.is_file():
        raise InputError(f"{src}: not a report directory (no manifest.json)")
    try:
        info = json.loads(manifest.read_text("utf-8"))
    except (OSError, ValueError, RecursionError) as err:
        raise InputError(f"{manifest}: cannot read ({_one_line(err)})") from None
    _check_manifest(info, manifest)
    data = src / "data"
    tables = {}
    try:
        for name in data_tables(info):
            if (data / f"{name}.parquet").is_file():
                tables[name] = pd.read_parquet(data / f"{name}.parquet")
        if "games" in tables:
            pairs = tuple(tuple(p) for p in info.get("pairs", []))
            game = info.get("game", DEFAULT_GAME)
            load_game(game, where=f"{manifest}: game")
            columns = run_columns(info)
            _check_saved_games(tables["games"], columns, data / "games.parquet")
            from analyzer.runs.driver import reducer_uptake
            from analyzer.tables.aggregate import paired_metrics

            uptake = reducer_uptake(info.get("intervention"))
            paired = paired_metrics(info)
            reducer = Reducer(pairs, game=game, columns=columns, paired_metrics=paired, **uptake)
            agg = combine([reducer(tables)])
        elif (data / "aggregate.parquet").is_file():
            agg = pd.read_parquet(data / "aggregate.parquet")
        else:
            raise InputError(f"{data}: no games.parquet or aggregate.parquet to rebuild from")
        extra = {}
        for name in info.get("extra_tables", ["claims_exact"]):
            if (data / f"{name}.parquet").is_file():
                extra[name] = pd.read_parquet(data / f"{name}.parquet")
    except (OSError, ValueError) as err:
        raise InputError(f"{data}: cannot read the saved tables ({_one_line(err)})") from None
    except (KeyError, TypeError, AttributeError, IndexError) as err:
        raise InputError(
            f"{data}: the saved tables do not match {manifest} ({type(err).__name__}: "
            f"{_one_line(err)}; allowed: a folder written by 'analyzer run')"
        ) from None
    info["report_rebuilt"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")

    def fill(tmp: Path) -> list[str]:
        (tmp / "data").mkdir()
        for path in data.glob("*.parquet"):  # analyzer's data files; the user's are carried
            if path.stem in tables or path.stem in extra or path.name == "aggregate.parquet":
                shutil.copyfile(path, tmp / "data" / path.name)  # the umask's mode
        if "games" in tables:  # the recomputed aggregate replaces the saved one
            _write_parquet(agg, tmp / "data" / "aggregate.parquet", index=True)
        try:
            return write_report(tmp, agg, info, extra)
        except (KeyError, TypeError, AttributeError, IndexError, ValueError) as err:
            raise InputError(
                f"{manifest}: does not describe the saved tables ({type(err).__name__}: "
                f"{_one_line(err)}; allowed: a manifest written by 'analyzer run')"
            ) from None

    files = _build_dir(src, fill)
    return ReportResult(directory=src, files=files, info=info)


def _one_line(err: BaseException, limit: int = 160) -> str:
    text = " ".join(str(err).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _check_manifest(info, where: Path) -> None:
    """The keys a report is rebuilt from, with the types ``analyzer run`` writes."""

    def need(cond: bool, key: str, allowed: str) -> None:
        if not cond:
            raise InputError(
                f"{where}: {key}: not as analyzer writes it (allowed: {allowed}; "
                "a manifest written by 'analyzer run')"
            )

    need(isinstance(info, dict), "top level", "a JSON object")
    sc = info.get("scenario")
    need(isinstance(sc, dict), "scenario", "an object")
    for key in ("name", "path"):
        need(isinstance(sc.get(key), str), f"scenario.{key}", "a string")
    need(isinstance(info.get("game", DEFAULT_GAME), str), "game", "a game name")
    for key in ("games", "seed"):
        v = info.get(key)
        need(isinstance(v, int) and not isinstance(v, bool) and v >= 0, key, "an integer")
    cells = info.get("cells", [])
    need(isinstance(cells, list), "cells", "a list of objects")
    for c in cells:
        need(
            isinstance(c, dict)
            and isinstance(c.get("index"), int)
            and isinstance(c.get("label"), str)
            and isinstance(c.get("players"), int),
            "cells",
            "objects with index, label and players",
        )
    pairs = info.get("pairs", [])
    need(
        isinstance(pairs, list)
        and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) for x in p)
            for p in pairs
        ),
        "pairs",
        "a list of [a, b] cell indices",
    )
    cols = info.get("columns")
    need(
        cols is None or (isinstance(cols, list) and all(isinstance(c, dict) for c in cols)),
        "columns",
        "a list of column objects",
    )
    for key in ("extra_tables", "sweep", "assumed"):
        need(isinstance(info.get(key, []), list), key, "a list")
    for key in ("rules", "labels"):
        need(isinstance(info.get(key, {}), dict), key, "an object")


def _check_saved_games(games: pd.DataFrame, columns, where: Path) -> None:
    """A saved games table has exactly the columns its manifest declares."""
    from analyzer.games import CORE_COLUMNS, OPTIONAL_RUN_COLUMNS, RUN_COLUMNS

    declared = {c.name for c in columns}
    # declared columns may be derived (not stored), so only the core ones must be there
    missing = [c for c in (*CORE_COLUMNS, *RUN_COLUMNS) if c not in games.columns]
    known = {*CORE_COLUMNS, *RUN_COLUMNS, *OPTIONAL_RUN_COLUMNS, *declared}
    extra = [c for c in games.columns if c not in known]
    if missing or extra:
        what = f"lacks column {missing[0]!r}" if missing else f"has undeclared column {extra[0]!r}"
        raise InputError(
            f"{where}: {what} (allowed: the columns manifest.json lists; "
            "a table written by 'analyzer run')"
        )


# --------------------------------------------------------------------------- writing


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
    pngs = {}
    for name, fig in figures:  # each drawn once; the PDF page keeps the layout made here
        pngs[name] = charts.png_bytes(fig)
        (directory / "charts" / f"{name}.png").write_bytes(pngs[name])
        files.append(f"charts/{name}.png")
    title = load_game(info.get("game", DEFAULT_GAME)).title
    pages = findings_pages(found, info, f"{title}: {info['scenario']['name']}", stamp)
    pages += [fig for _, fig in figures]
    settings = title_lines(tables, info)
    items = table_items(tables, info, frozenset(extra or {}), found)
    items[:0] = [it for it in sections.display_items(info) if it[0] == "ladder_ratings"]
    items.append(("settings", settings_table(settings), "How this report was made", ""))
    pages += charts.packed_table_pages([(df, t, note) for _, df, t, note in items], stamp)
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
        questions=[
            (
                q["text"],
                [(f.significant, f"{f.text} {_cap(f.verdict())}.") for f in fs],
                found.across_for(i),
            )
            for i, (q, fs) in enumerate(
                (q, found.for_question(i)) for i, q in enumerate(found.questions)
            )
        ],
        lead=[("Field of players", found.field_of_players)] if found.field_of_players else [],
        notes=[
            *section_notes(info, found),
            ("Whose play these numbers describe", found.whose_play),
            ("What was assumed", found.assumed),
        ],
        method=found.method if plays_games(info) else "",
        charts=[(name, fig.get_suptitle(), pngs[name]) for name, fig in figures],
        tables=[
            (name, t, note, df)
            for name, df, t, note in sections.display_items(info)
            + table_items(tables, info, frozenset(extra or {}), found, True)
        ],
        settings=settings,
    )
    (directory / "report.html").write_text(page, "utf-8")
    files.append("report.html")
    (directory / "summary.md").write_text(
        summary_markdown(tables, info, [n for n, _ in figures], found), "utf-8"
    )
    files.append("summary.md")
    files += sections.write_files(directory, info)
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


def plays_games(info: dict) -> bool:
    """True when the run played games of its own (not only [ladder]/[tune])."""
    return bool(info.get("cells"))


def section_charts(info: dict, stamp: str) -> list[tuple[str, object]]:
    """The pages of the run's ``[ladder]`` and ``[tune]`` (those it has)."""
    out = []
    if info.get("ladder"):
        out.append(("ladder", charts.ladder(info["ladder"], stamp)))
    if info.get("tune"):
        out.append(("tune", charts.tune(info["tune"], stamp)))
    return out


def section_notes(
    info: dict, found: findings.Findings | None = None
) -> list[tuple[str, list[str]]]:
    """``[(heading, sentences)]``: what the ladder and the tuning found, in words, and
    (given the run's findings) what the sensitivity study says of them."""
    out = sensitivity.notes(info, found) if found is not None else []
    if info.get("ladder"):
        out.append(("Strategy ratings (ladder)", sections.ladder_sentences(info["ladder"])))
    if info.get("tune"):
        out.append(("Tuning", sections.tune_sentences(info["tune"])))
    return out


def page_one_findings(found: findings.Findings, k: int | None = None):
    """``[(question, findings shown, findings left out)]`` for page 1: each
    question's findings ranked by effect size, at most ``k`` each (default
    :data:`analyzer.tables.findings.PAGE_PER_QUESTION`, fewer when page 1 is full)."""
    k = k or getattr(found, "page_per_question", findings.PAGE_PER_QUESTION)
    out = []
    for i, q in enumerate(found.questions):
        got = found.for_question(i)
        out.append((q, got[:k], got[k:]))
    return out


def findings_pages(found: findings.Findings, info: dict, title: str, stamp: str) -> list:
    """Page 1: the findings, with as many per question as fit on one page (at
    least one each; what does not fit is on the page 'All findings')."""
    pages = []
    # the parameter values of "whose play" give way first (they are on the page
    # 'Strategy parameters'), then findings beyond the largest of each question
    tries = [(k, False) for k in range(findings.PAGE_PER_QUESTION, 1, -1)]
    tries += [(k, True) for k in range(findings.PAGE_PER_QUESTION, 0, -1)]
    tries.append((1, "tight"))  # last: the method in one line, no closing line
    for k, compact in tries:
        found.page_per_question = k
        pages = charts.text_blocks_pages(
            title,
            findings_blocks(found, info, compact),
            stamp,
            subtitle=findings_subtitle(info),
            smallest=0.75 if compact == "tight" else 0.85,
        )
        if len(pages) == 1:
            break
    return pages


def compact_whose_play(lines: list[str]) -> list[str]:
    """ "Whose play" without the parameter values (page 'Strategy parameters' has them)."""
    out = [re.sub(r" \(parameters [^)]*\)", "", line) for line in lines]
    if out != lines:
        out.append("Parameter values: page 'Strategy parameters' (tables/strategy_parameters.csv).")
    return out


def strategy_parameters(info: dict) -> pd.DataFrame:
    """One row per strategy the run played: the parameter values it played with (the
    row of the scenario's player count, ``[strategy_params]`` on top)."""
    used: list[str] = []
    for cell in info.get("cells", []):
        for order in cell.get("orders", []):
            for x in order:
                if x not in used:
                    used.append(x)
    rows = []
    for r in info.get("strategy_rows") or []:
        if r["name"] in used and r.get("params"):
            rows.append({"strategy": r["name"], **r["params"]})
    return pd.DataFrame(rows)


def findings_subtitle(info: dict) -> str:
    sc = info["scenario"]
    n_cells = len(info.get("cells", [])) or 1
    per = f"{info['games']:,} games" + (
        f" in each of {n_cells} configurations" if n_cells > 1 else ""
    )
    if sections.games_text(info):
        per = (per + "; " if plays_games(info) else "") + sections.games_text(info)
    desc = sc.get("description") or ""
    return f"{desc}  ({per}, seed {info['seed']})".strip()


def findings_blocks(
    found: findings.Findings, info: dict, compact: bool | str = False
) -> list[tuple[str, str]]:
    """Page 1: the field of players, each question and its answers, whose play (without
    the parameter values when ``compact``), what was assumed, the method (in one line
    and without the closing line when ``compact`` is ``"tight"``)."""
    blocks: list[tuple[str, str]] = []
    how = "questions this scenario asks" if found.explicit else "the game's standard questions"
    games = plays_games(info)
    if games:
        text = (
            f"Answers to {how}, each finding with its 95% interval and sample size; "
            "● significant, ○ not (after correction)."
        )
        blocks.append(("small", text))
    field = getattr(found, "field_of_players", [])
    if field:
        heading = "Fields of players" if len(info.get("fields") or []) > 1 else "Field of players"
        blocks += [("gap", ""), ("h", heading)]
        blocks += [("p", line) for line in field]
    if not found.questions and games:
        blocks.append(("p", "No question has an answer in this run's tables."))
    for i, (q, shown, rest) in enumerate(page_one_findings(found)):
        blocks += [("gap", ""), ("h", f"{i + 1}. {q['text']}")]
        if not shown:
            blocks.append(("ns", "No data in this run answers it."))
        for f in shown:
            blocks.append(("sig" if f.significant else "ns", f"{f.text} {_cap(f.verdict())}."))
        blocks += [("p", line) for line in found.across_for(i)]
        if rest:
            n_sig = sum(f.significant for f in rest)
            blocks.append(
                (
                    "small",
                    f"… and {len(rest)} smaller effects ({n_sig} significant): page "
                    "'All findings' and tables/findings.csv.",
                )  # fmt: skip
            )
    for heading, lines in section_notes(info, found):
        blocks += [("gap", ""), ("h", heading)]
        blocks += [("p", line) for line in lines]
    blocks += [("gap", ""), ("h", "Whose play these numbers describe")]
    whose = compact_whose_play(found.whose_play) if compact else found.whose_play
    blocks += [("p", line) for line in whose]
    blocks += [("gap", ""), ("h", "What was assumed")]
    blocks += [("p", line) for line in found.assumed]
    if compact == "tight":
        if games:
            n = len(found.findings)
            blocks += [("gap", ""), ("small", (
                f"Method: two-sided z-tests, significant at p < {findings.ALPHA:g} after Holm's "
                f"correction for the {n} findings; 95% intervals, uncorrected; "
                "the settings are on the last page."))]  # fmt: skip
        return blocks
    if games:
        blocks += [("gap", ""), ("small", found.method)]
    else:
        blocks.append(("gap", ""))
    blocks.append(("small", "Charts and tables follow; the settings and run details are on "
                            "the last page."))  # fmt: skip
    return blocks


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def findings_markdown(found: findings.Findings) -> list[str]:
    """The findings as Markdown lines (questions, ranked findings, whose play, assumed)."""
    lines = []
    if getattr(found, "field_of_players", []):
        lines += ["**Field of players.** " + " ".join(found.field_of_players), ""]
    for i, q in enumerate(found.questions):
        lines += [f"**{i + 1}. {q['text']}**", ""]
        for f in found.for_question(i):
            lines.append(f"- {f.text} {_cap(f.verdict())}.")
        lines += [""] + [f"_{line}_" for line in found.across_for(i)]
        lines.append("")
    if not found.questions:
        lines += ["No question has an answer in this run's tables.", ""]
    lines += ["**Whose play these numbers describe.** " + " ".join(found.whose_play), ""]
    lines += ["**What was assumed.** " + " ".join(found.assumed), ""]
    lines += [f"_{found.method}_", ""]
    return lines


def findings_display(found: findings.Findings) -> pd.DataFrame:
    """The findings as a table for a page: rank, question, sentence subject, estimate."""
    rows = []
    for f in found.findings:
        share = f.unit == "share"
        scale = 100 if share else 1
        unit = " pts" if share and f.reference == 0 else ("%" if share else "")
        rows.append(
            {
                "rank": f.rank,
                "question": f.question,
                "configuration": f.label,
                "what": f.subject,
                "estimate [95% CI]": f"{scale * f.estimate:.1f}{unit} "
                f"[{scale * f.low:.1f}, {scale * f.high:.1f}]",
                "no effect": f"{scale * f.reference:.1f}{unit}",
                "n": f"{f.n:,} {f.n_unit}",
                "Holm p": _holm_text(f.p_adjusted),
                "significant": "*" if f.significant else "",
            }
        )
    return pd.DataFrame(rows)


def _holm_text(p: float) -> str:
    """A Holm-adjusted p-value for the findings table; none (``nan``: no game of the
    pair differed, so nothing was tested) reads "none differ"."""
    if not math.isfinite(p):
        return "none differ"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def versions_text(info: dict, sep: str = ", ") -> str:
    """``rules N, strategies N`` of a manifest (a run saved before strategies were
    versioned has the rules version only)."""
    text = f"rules {info.get('rules_version', '?')}"
    if info.get("strategies_version") is not None:
        text += f"{sep}strategies {info['strategies_version']}"
    return text


def make_stamp(info: dict) -> str:
    """One line saying how a page was made: scenario, seed, versions, games."""
    sc = info["scenario"]
    n_cells = len(info.get("cells", [])) or 1
    per = f"{info['games']:,} games" + (f" per configuration × {n_cells}" if n_cells > 1 else "")
    if sections.games_text(info):
        per = (per + " · " if plays_games(info) else "") + sections.games_text(info)
    return (
        f"scenario {sc['name']} ({sc['path']}) · seed {info['seed']} · analyzer "
        f"{info['analyzer_version']} · {versions_text(info, ' · ')} · {per} · "
        f"{str(info.get('created', ''))[:10]}"
    )


def make_charts(
    tables: dict[str, pd.DataFrame], info: dict, stamp: str
) -> list[tuple[str, object]]:
    """``[(name, Figure)]`` for every chart the tables support: the generic ones,
    then the game's (a game chart of the same name replaces the generic one)."""
    out = []
    t = tables
    if "first_player" in t:
        out.append(("first_player", charts.first_player(t["first_player"], stamp, t.get("seats"))))
    if "seats" in t:
        out.append(("seats", charts.seats(t["seats"], stamp)))
    if "strategies" in t and (t["strategies"].groupby("cell")["strategy"].nunique() > 1).any():
        out.append(("strategies", charts.strategies(t["strategies"], stamp)))
    if "comparison" in t:
        cells = info.get("cells", [])
        comp = t["comparison"]
        comp = comp[~comp["metric"].str.endswith(" per use")]
        for i, (a, b) in enumerate(info["pairs"][:MAX_PAIR_CHARTS]):
            sub = comp[comp["cell"] == b]
            if len(sub):
                name = "comparison" if i == 0 else f"comparison_{i + 1}"
                fig = charts.comparison(sub, cells[a]["label"], cells[b]["label"], stamp)
                out.append((name, fig))
    worth = intervention_table(t.get("comparison"), info)
    if worth is not None:
        iv = info["intervention"]
        verb, past = (list(iv.get("words") or []) + ["use", "used"])[:2]
        fig = charts.intervention(worth, findings.intervention_thing(info), verb, stamp, past)
        out.insert(0, ("intervention", fig))
    if "sweep" in t:
        out.append(("sweep", charts.sweep(t["sweep"], list(info.get("sweep", [])), stamp)))
    if "score_distribution" in t:
        out.append(
            ("score_distribution", charts.score_distribution(t["score_distribution"], stamp))
        )
    if "score_parts" in t and len(t["score_parts"]["part"].unique()) > 1:
        fig = charts.score_parts(t["score_parts"], stamp, labels=info.get("labels", {}))
        out.append(("score_parts", fig))
    if "game_length" in t:
        out.append(("game_length", charts.game_length(t["game_length"], stamp)))
    if not plays_games(info):
        return out
    game_figs = load_game(info.get("game", DEFAULT_GAME)).charts(tables, info, stamp)
    replaced = {name: fig for name, fig in game_figs}
    out = [(name, replaced.pop(name, fig)) for name, fig in out]
    return out + [(name, fig) for name, fig in game_figs if name in replaced]


def intervention_table(comp: pd.DataFrame | None, info: dict) -> pd.DataFrame | None:
    """The treated seats' paired differences, allowed minus forbidden, one row per field
    and metric (for :func:`analyzer.report.charts.intervention`); None without an intervention."""
    iv = info.get("intervention") or {}
    if comp is None or not iv.get("variant") or "scope" not in comp:
        return None
    sub = comp[comp["scope"] == "treated seats"]
    sub = sub[sub["metric"].isin(["win", "score", "win per use", "score per use"])]
    if not len(sub):
        return None
    sign = 1.0 if iv["variant"] == "a" else -1.0
    rows = []
    for _, r in sub.iterrows():
        lo, hi = sorted((sign * r["diff_low"], sign * r["diff_high"]))
        field = findings._field_label(info, int(r["cell"])) if info.get("fields") else r["label"]
        rows.append(
            {
                "field": field.removeprefix("field "),
                "metric": r["metric"],
                "est": sign * r["diff"],
                "low": lo,
                "high": hi,
                "significant": bool(r["significant"]),
                "pairs": r["pairs"],
                "uptake": r.get("uptake", np.nan),
            }
        )
    return pd.DataFrame(rows)


#: paired comparisons drawn (one chart each, a field of players each); the rest are tables
MAX_PAIR_CHARTS = 8

#: generic tables shown as PDF pages, in order, with the note printed under the
#: title; the game's own pages (:meth:`~analyzer.games.Game.table_pages`) follow
TABLE_PAGES = (
    ("first_player", "First-player advantage", "seat 0 win rate vs fair share 1/players"),
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

#: assumed values listed on the first page; the rest are on their own page
TITLE_ASSUMED = 8


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
    return charts.packed_table_pages([(df, t, note) for _, df, t, note in items], stamp)


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
            items.append((name, display_table(df), title, note))
    return items


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


def title_lines(tables: dict[str, pd.DataFrame], info: dict) -> list[str]:
    """Text of the title page: what was run, how, and the headline results."""
    sc = info["scenario"]
    lines = [sc.get("description") or "", ""]
    lines.append(f"scenario file   {sc['path']}")
    if plays_games(info):
        lines.append(f"players         {sc['players']}")
        if sc.get("fields"):
            for f in info.get("fields") or sc["fields"]:
                who = (
                    f"line-up {', '.join(f['lineup'])} (rotation: {f['rotation']})"
                    if f.get("lineup")
                    else f"strategies {', '.join(f['strategies'])}"
                )
                params = f.get("strategy_params") or {}
                more = f", strategy_params {json.dumps(params)}" if params else ""
                per = (
                    f", {f['games_per_order']:,} games per seat order"
                    if f.get("games_per_order")
                    else ""
                )
                lines.append(f"field           {f['label']}: {who}{more}{per}")
        elif sc.get("lineup"):
            lines.append(
                f"line-up         {', '.join(sc['lineup'])} (rotation: {sc['rotation']}, "
                f"{info.get('games_per_order', 0):,} games per seat order)"
            )
        else:
            lines.append(f"strategies      {', '.join(sc['strategies'])}")
        if sc.get("strategy_params"):
            lines.append(f"strategy_params {json.dumps(sc['strategy_params'])}")
        if info.get("intervention"):
            iv = info["intervention"]
            where = f" (variant {iv['variant']})" if iv.get("variant") else ""
            lines.append(f"forbid          {json.dumps(iv['forbid'])}{where}")
        lines.append(
            f"games           {info['games']:,} per configuration, "
            f"{info.get('games_total', info['games']):,} in all"
        )
    lines += sections.settings_lines(info)
    lines.append(f"seed            {info['seed']}")
    lines.append(f"rules           {json.dumps(info['rules'].get('rulings', {}))}")
    if sc.get("overrides"):
        lines.append(f"overrides       {json.dumps(sc['overrides'])}")
    for axis in sc.get("sweep") or []:
        lines.append(f"sweep           {axis['param']} over {axis['values']}")
    if sc.get("compare"):
        for k, v in sc["compare"].items():
            lines.append(
                f"variant {k}       {v['label']}: rules {json.dumps(v['rules'])}, "
                f"overrides {json.dumps(v['overrides'])}"
            )
    if info.get("seconds") is not None:
        rate = (
            f"{info.get('games_per_second') or 0:,.0f} games/s, "
            if info.get("games_per_second") is not None
            else ""
        )
        lines.append(
            f"run time        {info['seconds']:.1f} s, {rate}workers "
            f"{info.get('workers') or 'all cores'}"
        )
    lines.append(f"versions        analyzer {info['analyzer_version']}, {versions_text(info)}")
    assumed = info.get("assumed") or []
    if assumed:
        lines.append(
            f"assumed values  {len(assumed)} not given by the rulebook (page 'Assumed values', "
            "tables/assumed_values.csv)"
        )
    if plays_games(info):
        lines += load_game(info.get("game", DEFAULT_GAME)).title_notes(tables)
    if assumed:
        lines += ["", "Assumed values (not in the rulebook; change them in a scenario file)", ""]
        for a in assumed[:TITLE_ASSUMED]:
            lines.append(f"  {a['key']} = {a['value']}"[:110])
        if len(assumed) > TITLE_ASSUMED:
            lines.append(
                f"  ... and {len(assumed) - TITLE_ASSUMED} more: every one with its note is on "
                "the page 'Assumed values' and in tables/assumed_values.csv"
            )
    return lines


def headlines(tables: dict[str, pd.DataFrame], info: dict) -> list[str]:
    """A few sentences with the main estimates."""
    out = []
    fp = tables.get("first_player")
    if fp is not None:
        for _, r in fp.iterrows():
            verdict = "differs from" if r["significant"] else "is consistent with"
            out.append(
                f"{r['label']}: first player wins {r['seat0_win']:.3f} "
                f"[{r['seat0_win_low']:.3f}, {r['seat0_win_high']:.3f}] of {int(r['games']):,} "
                f"games; {verdict} the fair share {r['fair']:.3f}."
            )
    st = tables.get("strategies")
    if st is not None and st["strategy"].nunique() > 1:
        for label, sub in st.groupby("label", sort=False):
            best = sub.sort_values("win_rate", ascending=False).iloc[0]
            out.append(
                f"{label}: best strategy {best['strategy']} wins {best['win_rate']:.3f} "
                f"[{best['win_rate_low']:.3f}, {best['win_rate_high']:.3f}] of its seat-games."
            )
    comp = tables.get("comparison")
    if comp is not None:
        sig = comp[comp["significant"]]
        out.append(f"comparison: {len(sig)} of {len(comp)} paired differences exclude 0.")
        for _, r in sig.head(6).iterrows():
            out.append(
                f"    {r['metric']} ({r['scope']}): {r['diff']:+.3f} "
                f"[{r['diff_low']:+.3f}, {r['diff_high']:+.3f}]"
            )
    return out


def summary_markdown(
    tables: dict[str, pd.DataFrame],
    info: dict,
    chart_names: list[str],
    found: findings.Findings | None = None,
) -> str:
    """``summary.md``: the findings, then settings and the main tables as Markdown."""
    sc = info["scenario"]
    if found is None:
        found = findings.answer(tables, info)
    lines = [
        f"# {sc['name']}",
        "",
        sc.get("description") or "",
        "",
        f"_{make_stamp(info)}_",
        "",
        "## Findings",
        "",
    ]
    lines += findings_markdown(found) if plays_games(info) else []
    for heading, sentences in section_notes(info, found):
        lines += [f"**{heading}.** " + " ".join(sentences), ""]
    if not plays_games(info):
        lines += ["**Whose play these numbers describe.** " + " ".join(found.whose_play), ""]
        lines += ["**What was assumed.** " + " ".join(found.assumed), ""]
    lines += ["## Settings", ""]
    lines += [f"    {s}" for s in title_lines(tables, info)[2:]]
    lines += ["", "## Main tables (95% intervals)", ""]
    for name, df, title, note in sections.display_items(info):
        if name != "tune_trials":
            lines += [f"### {title}", "", f"_{note}_" if note else "", _markdown(df), ""]
    for name, title, _ in table_pages(info):
        if name in ("claims_exact", "sweep", "assumed_values") or name not in tables:
            continue
        lines += [f"### {title}", "", _markdown(display_table(tables[name])), ""]
    lines += [
        "## Files",
        "",
        "- `report.pdf`: findings, then every chart and table",
        "- `report.html`: the same in one file for a browser (charts embedded, tables sortable)",
    ]
    lines += [f"- `charts/{n}.png`" for n in chart_names]
    lines += [f"- `tables/{n}.csv`" for n in tables]
    if info.get("ladder"):
        lines.append(
            f"- `{sections.LADDER_DIR}/ratings.csv`, `matrix.csv`, `matrix_wide.csv`, "
            "`ladder.json`: the ladder's ratings and head-to-head matrix"
        )
    if info.get("tune"):
        lines.append(
            f"- `{sections.TUNE_DIR}/tune.toml`, `trials.csv`: the tuning's result "
            "(the best row, its confirmation, every trial)"
        )
    lines += [
        "- `data/*.parquet`: per-game tables and the aggregate (for `analyzer report`)",
        "- `manifest.json`: scenario as resolved, seed, versions, timing",
        "",
    ]
    return "\n".join(lines)


def _markdown(df: pd.DataFrame, max_rows: int = 40) -> str:
    part = df.head(max_rows)
    head = "| " + " | ".join(str(c) for c in part.columns) + " |"
    sep = "|" + "|".join("---" for _ in part.columns) + "|"
    rows = ["| " + " | ".join(str(v) for v in r) + " |" for r in part.itertuples(index=False)]
    more = ["", f"({len(df) - max_rows} more rows in the CSV)"] if len(df) > max_rows else []
    return "\n".join([head, sep, *rows, *more])


# --------------------------------------------------------------------------- files


def _json(v):
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, tuple | set):
        return list(v)
    return str(v)


def _write_parquet(df: pd.DataFrame, path: Path, index: bool = False) -> None:
    df.to_parquet(path, engine="pyarrow", index=index)


def _check_target(target: Path) -> None:
    """Refuse, before any work, a report folder that cannot or must not be written."""
    target = Path(target)
    here = Path.cwd().resolve()
    full = target.resolve()
    if full == here or full in here.parents:
        raise InputError(
            f"--out: {target} is the current directory or one above it (allowed: a report "
            "folder of its own, e.g. --out reports/NAME)"
        )
    if target.exists() and not target.is_dir():
        raise InputError(f"--out: {target} is a file (allowed: a folder, new or a report)")
    if target.is_dir() and any(target.iterdir()) and not (target / "manifest.json").is_file():
        raise InputError(
            f"--out: {target} is a non-empty directory that is not a report "
            "(allowed: a new directory, an empty one, or an earlier report to replace)"
        )
    ancestor = full.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise InputError(f"--out: {ancestor} is a file (allowed: a path of folders)")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise EnvironmentFailure(
            f"--out: cannot write in {ancestor} (permission denied; choose a writable place)"
        )


def _build_dir(target: Path, fill) -> list[str]:
    """Build a directory with ``fill(tmp)`` beside ``target``, then swap it into place
    keeping the user's files (:func:`analyzer.core.outputs.replace_dir`)."""
    from analyzer.core.outputs import replace_dir

    target = Path(target)
    _check_target(target)
    return replace_dir(target, fill)


__all__ = ["ReportResult", "rebuild_report", "run_and_report", "write_report", "AnalyzerError"]
