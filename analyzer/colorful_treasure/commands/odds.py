"""``analyzer odds --game colorful_treasure``: exact odds of my turn (``docs/odds.md``)."""

from __future__ import annotations

from pathlib import Path

import click
import typer

EXAMPLES = """
Exact odds of my turn of Colorful Treasure from what I know: for each face-down
place, the chance of each card (a gem colour, diamond, key, chest) given the
cards gone and the ones I remember; for each choice of the cards to reveal
first, the expected points this turn (fractions, not samples). The table state
is a TOML file; --example prints a documented one.

Examples:

  analyzer odds --game colorful_treasure --example > turn.toml

  analyzer odds --game colorful_treasure turn.toml

  analyzer odds --game colorful_treasure turn.toml --json --top 0
"""


def register(app: typer.Typer) -> None:
    """Add Colorful Treasure's ``odds`` command to ``app``."""

    @app.command("odds", help=EXAMPLES)
    def odds(
        state: Path = typer.Argument(None, help="Table-state TOML file.", show_default=False),
        example: bool = typer.Option(
            False, "--example", help="Print the documented example state file and exit."
        ),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
        top: int = typer.Option(
            10, "--top", help="Reveal choices shown (0: all; --json always lists all)."
        ),
    ) -> None:
        from analyzer.colorful_treasure import odds as lib

        if example:
            typer.echo(lib.EXAMPLE, nl=False)
            return
        if state is None:
            raise click.UsageError(
                "odds: missing STATE.toml (allowed: a table-state file; "
                "`analyzer odds --game colorful_treasure --example` prints one)"
            )
        if top < 0:
            from analyzer.core.errors import bad_value

            raise bad_value("--top", top, "0 (all) or a positive number")
        result = lib.turn_odds(lib.load_state(state))
        if json_out:
            typer.echo(lib.to_json(result))
            return
        from rich.console import Console

        console = Console()
        for table in lib.render(result, top or len(result.choices)):
            console.print(table)
        console.print("Assumed: " + "; ".join(result.assumed) + ".")
