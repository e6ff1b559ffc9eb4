"""``analyzer compare RUN_A RUN_B``: what changed between two saved runs."""

from __future__ import annotations

from pathlib import Path

import typer

EXAMPLES = """
What changed from RUN_A to RUN_B, two folders written by `analyzer run`: every
seat's win rate, the mean score and its parts, and the game length, B minus A,
with 95% intervals, Holm-corrected and largest effect first. Runs with the same
seed and player count that kept their per-game tables are compared game by game
(paired: same random numbers); others as independent samples. Two sweeps of
the same parameters are compared swept value by swept value (the values both
played); other runs configuration by configuration, in order.

Examples:

  analyzer run scenarios/default.toml --out reports/before

  analyzer run my_card_change.toml --out reports/after --seed 20240601

  analyzer compare reports/before reports/after

  analyzer compare reports/before reports/after --csv changes.csv
"""


def register(app: typer.Typer) -> None:
    """Add the ``compare`` command to ``app``."""

    @app.command("compare", help=EXAMPLES)
    def compare_cmd(
        run_a: Path = typer.Argument(..., help="the first report folder (the baseline)"),
        run_b: Path = typer.Argument(..., help="the second report folder (the change)"),
        csv: Path | None = typer.Option(
            None, "--csv", help="also write the differences to this CSV file"
        ),
    ) -> None:
        from analyzer.studies.compare import compare_runs, comparison_lines, write_csv

        result = compare_runs(run_a, run_b)
        for line in comparison_lines(result):
            typer.echo(line)
        if csv is not None:
            typer.echo(f"table: {write_csv(result, csv)}")
