"""``analyzer run SCENARIO`` and ``analyzer report DIR``: scenario reports."""

from __future__ import annotations

from pathlib import Path

import typer

RUN_EXAMPLES = """
Simulate a scenario and write its report folder: report.pdf, report.html, charts/*.png,
tables/*.csv, summary.md, data/*.parquet and manifest.json (seed, versions,
settings). A scenario with a [ladder] or [tune] table also plays that ladder
or tuning (same seed and workers) and adds its page and ladder/ or tune/ files.
The folder is replaced only by a complete new report, and only analyzer's own
files in it are replaced: notes or subfolders you add stay. --games sets the
scenario's own games, not those of [ladder]/[tune].

Examples:

  analyzer run scenarios/default.toml

  analyzer run scenarios/ladder.toml --seed 3

  analyzer run scenarios/editions.toml --games 2000 --seed 1 --out reports/quick

  analyzer run scenarios/tournament.toml --workers 1 --quiet

scenarios/README.md documents every key of a scenario file.
"""

REPORT_EXAMPLES = """
Rebuild the report of a saved run from its tables (data/*.parquet), without
simulating again: every table, chart, the PDF and the summary. Files you added
to the folder stay.

Examples:

  analyzer report reports/default

  analyzer run scenarios/editions.toml --out reports/ed && analyzer report reports/ed
"""


def register(app: typer.Typer) -> None:
    """Add the ``run`` and ``report`` commands to ``app``."""

    @app.command("run", help=RUN_EXAMPLES)
    def run_cmd(
        scenario: Path = typer.Argument(..., help="scenario file, e.g. scenarios/default.toml"),
        out: Path | None = typer.Option(
            None, "--out", help="report directory (default: reports/<scenario name>)"
        ),
        games: int | None = typer.Option(None, "--games", help="games per configuration"),
        seed: int | None = typer.Option(None, "--seed", help="seed (overrides the file's)"),
        workers: int | None = typer.Option(
            None, "--workers", help="worker processes (default: all cores; 1: this process)"
        ),
        quiet: bool = typer.Option(False, "--quiet", help="no progress display, no summary"),
    ) -> None:
        _check_first(scenario, out, games, seed, workers)
        from analyzer.report import run_and_report

        result = run_and_report(
            scenario, out, games=games, seed=seed, workers=workers, progress=not quiet
        )
        if not quiet:
            from analyzer.report import section_notes

            info = result.info
            if info.get("cells"):
                compiled = info.get("compile_seconds")
                typer.echo(
                    f"{info['games_total']:,} games in {info['seconds']:.1f} s "
                    f"({info['games_per_second'] or 0:,.0f} games/s"
                    + (f"; first compile {compiled:.1f} s, not in games/s" if compiled else "")
                    + f"); seed {info['seed']}"
                )
            else:
                typer.echo(f"[ladder]/[tune] only, {info['seconds']:.1f} s; seed {info['seed']}")
            _echo_findings(info)
            for heading, lines in section_notes(info):
                typer.echo(f"{heading}:")
                for line in lines:
                    typer.echo(f"  {line}")
            if info.get("balance"):  # [balance]: its answer in one line (balance.json has it all)
                typer.echo(f"Balance: {info['balance'].get('verdict', '')}")
            typer.echo(
                f"report: {result.directory}/report.pdf and report.html ({len(result.files)} files)"
            )

    @app.command("report", help=REPORT_EXAMPLES)
    def report_cmd(
        directory: Path = typer.Argument(..., help="a directory written by 'analyzer run'"),
    ) -> None:
        if not (directory / "manifest.json").is_file():  # said before the report's libraries load
            from analyzer.core.errors import InputError

            raise InputError(f"{directory}: not a report directory (no manifest.json)")
        from analyzer.report import rebuild_report

        result = rebuild_report(directory)
        typer.echo(
            f"report: {result.directory}/report.pdf and report.html ({len(result.files)} files)"
        )


def _check_first(scenario: Path, out: Path | None, games, seed, workers) -> None:
    """Read and check the scenario and the options as :func:`analyzer.report.run_and_report`
    will, before the report's libraries (pandas, matplotlib) and the engine load: bad
    input is answered at once."""
    from analyzer.runs.options import check_workers
    from analyzer.runs.scenario_file import check_overrides, load_scenario, with_overrides

    check_workers(workers, "--workers")
    check_overrides(games, seed)  # before the file is read: its game's rules need not load
    with_overrides(load_scenario(scenario), games=games, seed=seed)


def _echo_findings(info: dict) -> None:
    """The first question of page 1 and its findings, as on the page."""
    found = info.get("findings") or {}
    questions = found.get("questions") or []
    if not questions:
        return
    from analyzer.tables.findings import question_key

    key = question_key(questions[0])
    first = [f for f in found.get("findings", []) if f["question"] == key]
    typer.echo(questions[0]["text"])
    for f in first[:4]:
        typer.echo(f"  {'*' if f['significant'] else ' '} {f['text']}")
