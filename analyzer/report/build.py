"""Making a report: the library side of ``analyzer run`` and ``analyzer report DIR``.

:func:`run_and_report` simulates a scenario (:func:`analyzer.runs.driver.run_scenario`)
and writes the report; :func:`rebuild_report` recomputes every table, chart and the
PDF from the per-game tables saved in ``DIR/data`` (or from the saved aggregate of
an aggregate-only run), without simulating again. Both check what they read and
build the report whole beside the target (:mod:`analyzer.report.files`).
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analyzer.core.errors import InputError
from analyzer.games import DEFAULT_GAME, load_game
from analyzer.report.files import _build_dir, _check_target, _write_parquet
from analyzer.report.info import data_tables
from analyzer.report.write import write_report
from analyzer.tables.aggregate import Reducer, combine, run_columns


@dataclass
class ReportResult:
    """Where a report went and what it holds."""

    directory: Path
    files: list[str]
    info: dict


def run_and_report(
    scenario_path: str | Path,
    out: str | Path | None = None,
    *,
    games: int | None = None,
    seed: int | None = None,
    workers: int | None = None,
    progress: bool = True,
    balance: dict | None = None,
) -> ReportResult:
    """Validate, simulate and write the report of a scenario file.

    ``out`` defaults to ``reports/<scenario name>``. ``games``/``seed`` override
    the file's values. An invalid scenario raises :class:`InputError` before
    anything is written. ``balance`` holds ``analyzer balance``'s options for the
    scenario's ``[balance]`` (:func:`analyzer.studies.balance.run_in_folder`).
    """
    from analyzer.core.outputs import folder_lock
    from analyzer.runs.scenario_file import load_scenario, with_overrides

    sc = load_scenario(scenario_path)
    if balance is not None:  # analyzer balance: --games is the balance budget
        from analyzer.studies.balance import with_budget

        sc = with_overrides(with_budget(sc, games), seed=seed)
        if balance.get("resume") and sc.seed is None and out is not None:
            from dataclasses import replace

            from analyzer.studies.balance import stored_seed

            sc = replace(sc, seed=stored_seed(Path(out)))
    else:
        sc = with_overrides(sc, games=games, seed=seed)
    target = Path(out) if out is not None else Path("reports") / sc.name
    _check_target(target)
    with folder_lock(target):  # a second run to the folder stops now, not after its games
        return _run_and_write(sc, target, workers, progress, balance or {})


def _run_and_write(sc, target: Path, workers, progress, balance=None) -> ReportResult:
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
    from analyzer.studies.landscape import run_landscape  # questions equilibrium, skill, drama

    info.update(run_landscape(sc, info["seed"], workers=workers, progress=progress))
    if sc.sensitivity is not None:
        from analyzer.studies.sensitivity import run_sensitivity

        info["sensitivity"] = run_sensitivity(sc, info["seed"], workers=workers, progress=progress)
    if sc.balance is not None:  # the balance question: its progress kept in the folder
        from analyzer.studies.balance import run_in_folder

        info["balance"] = run_in_folder(
            sc, info["seed"], target, workers=workers, progress=progress, **(balance or {})
        )
    from analyzer.tables.restricted import asked

    if sc.plays_games and asked(sc) is not None:  # the question 'dominance': restricted play
        from analyzer.studies.restricted import run_restricted

        info["restricted"] = run_restricted(sc, info["seed"], workers=workers, progress=progress)
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

    from analyzer.runs.progress import phase

    with phase("writing the report (tables, charts, report.html, report.pdf)", progress):
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
            swept = tuple(tuple(p) for p in info.get("sweep_pairs") or [])
            reducer = Reducer(
                pairs,
                game=game,
                columns=columns,
                paired_metrics=paired,
                sweep_pairs=swept,
                **uptake,
            )
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
