"""``analyzer odds``: exact odds of one ruin (see ``docs/odds.md``)."""

from __future__ import annotations

from pathlib import Path

import typer

EXAMPLES = """
Exact chance to claim a ruin, stones and consolation cards, per player: every
roll is enumerated (fractions, not samples). Dice with a value are on the ruin;
dice without one are rolled, in the order given. See docs/odds.md.

Examples:

  analyzer odds --claim 13 --dice "blue:d6=5,blue:d6=3,red:d8"

  analyzer odds --claim 13 --dice "blue:d6=5,blue:d6=3,red:d8" --reading-the-stones --json

  analyzer odds --claim 15 --dice "me:d8,you:d6=6,you:d6=4" --ancient-map --wonder columns=me

  analyzer odds --claim 11 --dice "me:d6,me:d4" --event festival --chart odds.png

A question is priced before it runs (the rolls it enumerates and a pessimistic
time); one priced above a minute is refused unless --force is given. Ctrl-C
stops a running enumeration.
"""


def register(app: typer.Typer) -> None:
    """Add the ``odds`` command to ``app``."""

    @app.command("odds", help=EXAMPLES)
    def odds(
        claim: str = typer.Option(None, "--claim", help="Claim value of the ruin (required)."),
        dice: str = typer.Option(
            None,
            "--dice",
            help="Dice as PLAYER:dFACES[=VALUE], comma-separated; no value: rolled, in order.",
        ),
        me: str = typer.Option(
            None, "--me", help="Asking player (default: owner of the first unknown die)."
        ),
        ruin_stones: str = typer.Option(None, "--ruin-stones", help="Stones on the ruin."),
        bag: str = typer.Option(None, "--bag", help="Stones in the bag."),
        reading_the_stones: bool = typer.Option(
            False, "--reading-the-stones", help="Play Reading the Stones (+1/-1 after the roll)."
        ),
        ancestral_claim: bool = typer.Option(
            False, "--ancestral-claim", help="Play Ancestral Claim (+2 on my next d6)."
        ),
        ancient_map: bool = typer.Option(
            False, "--ancient-map", help="Play Ancient Map (reroll my first die once)."
        ),
        event: str = typer.Option(None, "--event", help="Active event: gathering or festival."),
        wonder: list[str] = typer.Option(
            None,
            "--wonder",
            help="Named wonder owned: college|columns|edifice|sanctuary=PLAYER (repeatable).",
        ),
        goal: str = typer.Option("claim", "--goal", help="What my choices maximise: claim|stone."),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
        chart: Path = typer.Option(None, "--chart", help="Write a bar chart (PNG) here."),
        force: bool = typer.Option(
            False, "--force", help="Run an enumeration priced above a minute anyway."
        ),
    ) -> None:
        import contextlib
        import sys

        from rich.console import Console

        from analyzer.unearth import odds as lib
        from analyzer.unearth import odds_cost
        from analyzer.unearth.rules import default_rules

        rules = default_rules()
        # integers are parsed by the library so that bad values get the one-line error
        question = lib.OddsQuestion(
            claim_value=lib.parse_int("--claim", claim, minimum=1, required=True),
            dice=lib.parse_dice(dice, rules),
            me=me,
            ruin_stones=lib.parse_int("--ruin-stones", ruin_stones),
            bag=lib.parse_int("--bag", bag),
            reading_the_stones=reading_the_stones,
            ancestral_claim=ancestral_claim,
            ancient_map=ancient_map,
            event=event,
            wonders=tuple(lib.parse_wonder(w, rules) for w in wonder or ()),
            goal=goal,
        )
        lib.check_me(question)
        cost = odds_cost.estimate(question, rules)
        if cost.seconds > odds_cost.FORK_S and (force or cost.seconds <= odds_cost.LIMIT_S):
            sys.stderr.write(f"odds: enumerating {cost.describe()}; Ctrl-C stops it\n")
        with odds_cost.no_limit() if force else contextlib.nullcontext():
            result = odds_cost.exact_odds(question, rules)
        if chart is not None:
            lib.write_chart(result, chart)
        if json_out:
            typer.echo(result.to_json())
            return
        console = Console()
        for table in lib.render_odds(result):
            console.print(table)
        if chart is not None:
            console.print(f"chart written to {chart}")
