"""``analyzer advise --game colorful_treasure``: rank the cards to reveal first."""

from __future__ import annotations

from pathlib import Path

import click
import typer

EXAMPLES = """
Every choice of the cards to reveal first this turn, ranked by exact expected
points this turn (the third card then revealed when it raises them, the best
kind taken), from what I know: the cards gone and the ones I remember. The
table state is a TOML file; --example prints a documented one. Choices tied
with the best are named as within noise (exactly equal).

Examples:

  analyzer advise --game colorful_treasure --example > turn.toml

  analyzer advise --game colorful_treasure turn.toml

  analyzer advise --game colorful_treasure turn.toml --json
"""


def register(app: typer.Typer) -> None:
    """Add Colorful Treasure's ``advise`` command to ``app``."""

    @app.command("advise", help=EXAMPLES)
    def advise(
        state: Path = typer.Argument(None, help="Table-state TOML file.", show_default=False),
        example: bool = typer.Option(
            False, "--example", help="Print the documented example state file and exit."
        ),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
        deep: bool = typer.Option(
            False, "--deep", help="Rank by win chance from rollouts (not yet for this game)."
        ),
        top: int = typer.Option(10, "--top", help="Choices shown (0: all)."),
    ) -> None:
        from analyzer.colorful_treasure import odds as lib

        if example:
            typer.echo(lib.EXAMPLE, nl=False)
            return
        if state is None:
            raise click.UsageError(
                "advise: missing STATE.toml (allowed: a table-state file; "
                "`analyzer advise --game colorful_treasure --example` prints one)"
            )
        if deep:
            raise click.UsageError(
                "advise: --deep is not available for colorful_treasure yet (allowed: without "
                "--deep, the exact ranking by expected points this turn)"
            )
        if top < 0:
            from analyzer.errors import bad_value

            raise bad_value("--top", top, "0 (all) or a positive number")
        result = lib.turn_odds(lib.load_state(state))
        if json_out:
            typer.echo(lib.advice_json(result))
            return
        from rich.console import Console

        console = Console()
        console.print(lib.render(result, top or len(result.choices))[1])
        console.print(lib.advice_verdict(result))
        console.print("Assumed: " + "; ".join(result.assumed) + ".")
