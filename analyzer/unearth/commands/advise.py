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

  analyzer advise table.toml --deep

  analyzer advise table.toml --deep --budget 40000 --seed 3 --json

--deep plays every choice to the end of the game many times (rollouts of the
search player, every seat tuned balanced, the unknowns dealt at random) and ranks
the choices by win chance, with expected final scores, 95% intervals, the exact
claim odds beside, and what it assumed about the parts of the game the file does
not give. --budget is the total number of rollouts (more: narrower intervals).

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
        deep: bool = typer.Option(
            False, "--deep", help="Rank by win chance from rollouts of the whole game."
        ),
        budget: int = typer.Option(
            None,
            "--budget",
            help="With --deep: total rollouts (default 12,000).",
            show_default=False,
        ),
        seed: int = typer.Option(
            None,
            "--seed",
            help="With --deep: seed of the rollouts (default: fresh).",
            show_default=False,
        ),
        players: str = typer.Option(
            None,
            "--players",
            help="With --deep: the other players in turn order after me, "
            "comma-separated (default: as they appear in the file).",
            show_default=False,
        ),
    ) -> None:
        import contextlib

        from analyzer.core.errors import bad_value
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
        if not deep and (budget is not None or seed is not None or players is not None):
            raise click.UsageError("advise: --budget, --seed and --players need --deep")
        if seed is not None:
            from analyzer.core.seeding import SEED_ALLOWED, seed_ok

            if not seed_ok(seed):  # checked here to name the option
                raise bad_value("--seed", seed, SEED_ALLOWED)
        with odds_cost.no_limit() if force else contextlib.nullcontext():
            choices = lib.advise(table, rules, goal=goal)
        if deep:
            import tomllib

            from analyzer.unearth import deep as dlib

            raw = tomllib.loads(Path(state).read_text("utf-8")).get("wonders", {})
            order = [p.strip() for p in players.split(",") if p.strip()] if players else None
            advice = dlib.deep_advice(table, raw, rules, budget=budget, seed=seed, players=order)
            exact = {(c.die.split(" ")[0], c.from_ruin, c.ruin): c.p_claim for c in choices}
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
        if json_out:
            typer.echo(lib.advice_json(table, choices, goal))
            return
        Console().print(lib.render_advice(table, choices, rules))
