"""``analyzer advise``: rank my excavation choices from a table-state file."""

from __future__ import annotations

from pathlib import Path

import click
import typer

EXAMPLES = """
Every legal (die, ruin) choice of my turn, ranked by my exact chance to claim
(or my expected stones with --goal stone), with the card in hand that helps
most. The table state is a TOML file; --example prints a documented one.

Examples:

  analyzer advise --example > table.toml

  analyzer advise table.toml

  analyzer advise table.toml --goal stone --json

Each exact question is priced first; one priced above a minute is refused
unless --force is given. Ctrl-C stops a running enumeration.
"""


def register(app: typer.Typer) -> None:
    """Add the ``advise`` command to ``app``."""

    @app.command("advise", help=EXAMPLES)
    def advise(
        state: Path = typer.Argument(None, help="Table-state TOML file.", show_default=False),
        example: bool = typer.Option(
            False, "--example", help="Print the documented example state file and exit."
        ),
        goal: str = typer.Option("claim", "--goal", help="What my choices maximise: claim|stone."),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
        force: bool = typer.Option(
            False, "--force", help="Run enumerations priced above a minute anyway."
        ),
    ) -> None:
        import contextlib

        from analyzer.unearth import advise as lib
        from analyzer.unearth import odds_cost

        if example:
            typer.echo(lib.example_text(), nl=False)
            return
        if state is None:
            raise click.UsageError(
                "advise: missing STATE.toml (allowed: a table-state file; "
                "`analyzer advise --example` prints a documented example)"
            )
        from rich.console import Console

        from analyzer.unearth.rules import default_rules

        rules = default_rules()
        table = lib.load_state(state, rules)
        with odds_cost.no_limit() if force else contextlib.nullcontext():
            choices = lib.advise(table, rules, goal=goal)
        if json_out:
            typer.echo(lib.advice_json(table, choices, goal))
            return
        Console().print(lib.render_advice(table, choices, rules))
