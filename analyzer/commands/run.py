"""``analyzer run SCENARIO`` and ``analyzer report DIR``: scenario reports."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    """Add the ``run`` and ``report`` commands to ``app``."""

    @app.command("run")
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
        """Simulate a scenario and write its report (PDF, charts, tables, manifest)."""
        from analyzer.report import run_and_report

        result = run_and_report(
            scenario, out, games=games, seed=seed, workers=workers, progress=not quiet
        )
        if not quiet:
            info = result.info
            typer.echo(
                f"{info['games_total']:,} games in {info['seconds']:.1f} s "
                f"({info['games_per_second'] or 0:,.0f} games/s); seed {info['seed']}"
            )
            typer.echo(f"report: {result.directory}/report.pdf ({len(result.files)} files)")

    @app.command("report")
    def report_cmd(
        directory: Path = typer.Argument(..., help="a directory written by 'analyzer run'"),
    ) -> None:
        """Rebuild the report of a saved run from its tables, without simulating."""
        from analyzer.report import rebuild_report

        result = rebuild_report(directory)
        typer.echo(f"report: {result.directory}/report.pdf ({len(result.files)} files)")
