"""``analyzer advise --game uruk``: rank the choices of one decision."""

from __future__ import annotations

from pathlib import Path

import click
import typer

EXAMPLES = """
Every choice of one decision of mine (my next action, or my secret bid against
a disaster), ranked by the tuned balanced player's own evaluation, with my
score change at once. The table state is a TOML file; --example prints a
documented one (docs/rules/uruk.md, "Table advice").

Examples:

  analyzer advise --game uruk --example > uruk.toml

  analyzer advise --game uruk uruk.toml

  analyzer advise --game uruk uruk.toml --json

  analyzer advise --game uruk uruk.toml --deep --budget 4000 --seed 3

--deep plays every choice to the end of the game many times (rollouts, every
seat tuned balanced, what I cannot see dealt again at random in each rollout)
and ranks the choices by win chance, with expected final scores, 95% intervals,
the choices within noise of the best, and what it assumed. --budget is the
total number of rollouts (more: narrower intervals).
"""


def register(app: typer.Typer) -> None:
    """Add Uruk's ``advise`` command to ``app``."""

    @app.command("advise", help=EXAMPLES)
    def advise(
        state: Path = typer.Argument(None, help="Table-state TOML file.", show_default=False),
        example: bool = typer.Option(
            False, "--example", help="Print the documented example state file and exit."
        ),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
        deep: bool = typer.Option(
            False, "--deep", help="Rank by win chance from rollouts of the whole game."
        ),
        budget: int = typer.Option(
            None,
            "--budget",
            help="With --deep: total rollouts (default 3,000).",
            show_default=False,
        ),
        seed: int = typer.Option(
            None,
            "--seed",
            help="With --deep: seed of the rollouts (default: fresh).",
            show_default=False,
        ),
        top: int = typer.Option(20, "--top", help="Choices shown (0: all; --json lists all)."),
    ) -> None:
        from analyzer.core.errors import bad_value
        from analyzer.uruk import advise as lib

        if example:
            typer.echo(lib.example_text(), nl=False)
            return
        if state is None:
            raise click.UsageError(
                "advise: missing STATE.toml (allowed: a table-state file; "
                "`analyzer advise --game uruk --example` prints one)"
            )
        if top < 0:
            raise bad_value("--top", top, "0 (all) or a positive number")
        if not deep and (budget is not None or seed is not None):
            raise click.UsageError("advise: --budget and --seed need --deep")
        if seed is not None:
            from analyzer.core.seeding import SEED_ALLOWED, seed_ok

            if not seed_ok(seed):
                raise bad_value("--seed", seed, SEED_ALLOWED)
        from rich.console import Console

        from analyzer.uruk.rules import default_rules

        rules = default_rules()
        table = lib.load_state(state, rules)
        if deep:
            from analyzer.uruk import deep as dlib

            advice = dlib.deep_advice(table, rules, budget=budget, seed=seed)
            if json_out:
                typer.echo(dlib.to_json(advice))
                return
            console = Console()
            console.print(dlib.render(advice, top or len(advice.choices)))
            console.print(dlib.verdict(advice))
            console.print(
                f"{advice.rollouts:,} rollouts in {advice.seconds:.1f} s, seed {advice.seed}. "
                "Assumed: " + "; ".join(advice.assumed) + "."
            )
            return
        advice = lib.one_step(table, rules)
        if json_out:
            typer.echo(lib.advice_json(advice))
            return
        console = Console()
        console.print(lib.render(advice, top or len(advice.choices)))
        console.print(lib.verdict(advice))
        console.print("Assumed: " + "; ".join(advice.assumed) + ".")
