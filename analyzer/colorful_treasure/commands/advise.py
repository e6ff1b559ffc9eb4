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

--deep ranks the same choices by win chance and expected final score instead:
each is played to the end of the game many times (rollouts of the search
player, every seat then playing tuned greedy), on the same dealt copies for
every choice; what I do not remember is dealt again in every rollout. It says
what it assumed about the parts of the game the file does not give (who holds
the cards gone, ...) and which choices are within noise of the best (their
paired 95% interval includes 0). About 3 CPU-s at the default budget.

Examples:

  analyzer advise --game colorful_treasure --example > turn.toml

  analyzer advise --game colorful_treasure turn.toml

  analyzer advise --game colorful_treasure turn.toml --json

  analyzer advise --game colorful_treasure turn.toml --deep

  analyzer advise --game colorful_treasure turn.toml --deep --budget 200000 --seed 3 --json
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
            False, "--deep", help="Rank by win chance from rollouts of the whole game."
        ),
        budget: int = typer.Option(
            None,
            "--budget",
            help="With --deep: total rollouts (default 60,000).",
            show_default=False,
        ),
        seed: int = typer.Option(
            None,
            "--seed",
            help="With --deep: seed of the rollouts (default: fresh).",
            show_default=False,
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
        from analyzer.core.errors import bad_value

        if not deep and (budget is not None or seed is not None):
            raise click.UsageError("advise: --budget and --seed need --deep")
        if top < 0:
            raise bad_value("--top", top, "0 (all) or a positive number")
        if seed is not None:
            from analyzer.core.seeding import SEED_ALLOWED, seed_ok

            if not seed_ok(seed):  # checked here to name the option
                raise bad_value("--seed", seed, SEED_ALLOWED)
        table = lib.load_state(state)
        if deep:
            from rich.console import Console

            from analyzer.colorful_treasure import deep as dlib

            advice = dlib.deep_advice(table, budget=budget, seed=seed)
            exact = dlib.exact_points(table)
            if json_out:
                typer.echo(dlib.to_json(advice, exact))
                return
            console = Console()
            console.print(dlib.render(advice, exact))
            console.print(dlib.verdict(advice))
            console.print(
                f"{advice.rollouts:,} rollouts in {advice.seconds:.1f} s, seed {advice.seed}. "
                "Assumed: " + "; ".join(advice.assumed) + "."
            )
            return
        result = lib.turn_odds(table)
        if json_out:
            typer.echo(lib.advice_json(result))
            return
        from rich.console import Console

        console = Console()
        console.print(lib.render(result, top or len(result.choices))[1])
        console.print(lib.advice_verdict(result))
        console.print("Assumed: " + "; ".join(result.assumed) + ".")
