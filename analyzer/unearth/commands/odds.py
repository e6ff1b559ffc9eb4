"""``analyzer odds``: exact odds of one ruin (see ``docs/odds.md``)."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    """Add the ``odds`` command to ``app``."""

    @app.command("odds")
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
    ) -> None:
        """Exact chance to claim a ruin, stones and consolation cards, per player."""
        from rich.console import Console

        from analyzer.unearth import odds as lib
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
        result = lib.exact_odds(question, rules)
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
