"""``analyzer ladder``: a seat-rotated round robin of strategies and their ratings."""

from __future__ import annotations

from pathlib import Path

import typer

EXAMPLES = """
Play a round robin of strategies (every ordered pair at 2 players with the seats
swapped; at more players each strategy in one seat against a field of another,
in every seat), all line-ups on the same game seeds (common random numbers), and
print Bradley-Terry ratings on the Elo scale (the anchor, baseline by default,
is 0) with 95% bootstrap intervals and the head-to-head matrix of win shares
with 95% intervals, on plain wins (Wilson intervals). --luck plays the game's
luck terms and rates luck-adjusted wins (win - luck_win: the same answer with
the dice's luck taken out, less variance; normal intervals).

Examples:

  analyzer ladder --players 2 --games 500 --seed 1

  analyzer ladder --players 4 --strategies random,claimer,collector,balanced,baseline --games 200

  analyzer ladder --players 2 --strategies balanced,baseline --param balanced.w_ruin=4 --games 2000

  analyzer ladder --game uruk --players 3 --games 300 --out ladders/uruk3

  analyzer ladder --games 5000 --checkpoint runs/ladder --resume

  analyzer ladder --players 2 --strategies balanced,baseline --games 2000 --luck
"""


def register(app: typer.Typer) -> None:
    """Add the ``ladder`` command to ``app``."""

    @app.command("ladder", help=EXAMPLES)
    def ladder_cmd(
        game: str = typer.Option("unearth", "--game", help="game (analyzer games lists them)"),
        players: int = typer.Option(2, "--players", help="players per game (a ladder per count)"),
        strategies: str = typer.Option(
            "", "--strategies", help="comma-separated strategies to rate (default: all the game's)"
        ),
        games: int = typer.Option(500, "--games", help="games per line-up"),
        seed: int | None = typer.Option(None, "--seed", help="seed (default: fresh, printed)"),
        edition: str | None = typer.Option(None, "--edition", help="edition (Unearth)"),
        rule: list[str] = typer.Option([], "--rule", help="a ruling KEY=VALUE; repeatable"),
        param: list[str] = typer.Option(
            [], "--param", help="a strategy parameter STRATEGY.NAME=VALUE; repeatable"
        ),
        anchor: str | None = typer.Option(
            None,
            "--anchor",
            help="strategy rated 0 (default: the game's yardstick, baseline, if rated, "
            "else the first)",
        ),
        bootstrap: int = typer.Option(1000, "--bootstrap", help="bootstrap resamples (0: none)"),
        workers: int | None = typer.Option(
            None, "--workers", help="worker processes (default: all cores; 1: this process)"
        ),
        checkpoint: Path | None = typer.Option(
            None, "--checkpoint", help="directory to save every finished batch in"
        ),
        resume: bool = typer.Option(False, "--resume", help="continue the run in --checkpoint"),
        out: Path | None = typer.Option(
            None, "--out", help="folder for ratings.csv, matrix.csv, ladder.json (atomic)"
        ),
        quiet: bool = typer.Option(False, "--quiet", help="no progress lines"),
        luck: bool | None = typer.Option(
            None,
            "--luck/--no-luck",
            help="--luck: play the luck terms and rate luck-adjusted wins (the same answer "
            "with the dice's luck taken out); default and --no-luck: plain wins",
        ),
    ) -> None:
        import sys

        from analyzer.cli.simulate import parse_rules
        from analyzer.core.invocation import command_line
        from analyzer.studies.ratings import format_ladder, ladder, write_ladder

        rulings = parse_rules(rule)
        if edition is not None:
            rulings["edition"] = edition
        result = ladder(
            game,
            players,
            strategies or None,
            games,
            seed,
            rulings=rulings,
            strategy_params=parse_params(param),
            anchor=anchor,
            bootstrap=bootstrap,
            workers=workers,
            checkpoint_dir=checkpoint,
            resume=resume,
            progress=None if quiet else lambda line: print(line, file=sys.stderr, flush=True),
            command=command_line(),
            luck=luck,
        )
        typer.echo(format_ladder(result))
        if out is not None:
            write_ladder(result, out)
            typer.echo(f"written: {out}/ratings.csv, matrix.csv, matrix_wide.csv, ladder.json")


def parse_params(items: list[str], option: str = "--param") -> dict:
    """``STRATEGY.NAME=VALUE`` options as ``{strategy: {name: value}}`` (values checked
    against the game's strategies later, by the scenario validation)."""
    from analyzer.core.errors import bad_value

    out: dict = {}
    for item in items:
        key, sep, text = item.partition("=")
        strat, dot, name = key.strip().partition(".")
        try:
            value = float(text)
        except ValueError:
            value = None
        if not sep or not dot or not strat or not name or value is None:
            raise bad_value(option, item, "STRATEGY.NAME=NUMBER, e.g. balanced.w_ruin=4")
        out.setdefault(strat, {})[name] = value
    return out
