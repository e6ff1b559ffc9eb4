"""``analyzer tune``: search a strategy's parameters against a field of opponents."""

from __future__ import annotations

from pathlib import Path

import typer

EXAMPLES = """
Search one strategy's parameters (CMA-ES, from the shipped row) for the highest
win share against a field of opponents, seats rotated, every candidate on the
same game seeds; then play the best row and the shipped row on fresh games and
print the confirmation win share with its 95% interval (the search's own
estimate of the best row is flattered by the search). --out writes the result
with the command that made it.

Examples:

  analyzer tune --players 2 --strategy balanced --trials 40 --games 400 --seed 1 --out tuned.toml

  analyzer tune --players 4 --strategy balanced --field baseline --params w_ruin,w_stone

  analyzer tune --strategy collector --bound w_stone=0:5 --bound named=0:8 --trials 60

  analyzer tune --game uruk --players 3 --trials 30 --games 300 --out uruk3.json

Self-play: the field may name the tuned strategy (or "self"): those seats play
its shipped row, so the search looks for the best reply to the current default
(Uruk; the game names which strategies can stand in for it):

  analyzer tune --game uruk --players 4 --field self --trials 150 --games 2000

  analyzer tune --game uruk --players 4 --field self,baseline,baseline
"""


def register(app: typer.Typer) -> None:
    """Add the ``tune`` command to ``app``."""

    @app.command("tune", help=EXAMPLES)
    def tune_cmd(
        game: str = typer.Option("unearth", "--game", help="game (analyzer games lists them)"),
        players: int = typer.Option(2, "--players", help="players per game"),
        strategy: str | None = typer.Option(
            None,
            "--strategy",
            help="strategy to tune (default: the game's default strategy, or the one "
            "whose row it plays)",
        ),
        field: str = typer.Option(
            "",
            "--field",
            help="opponents: one strategy for every other seat, or one per other seat "
            "(default: the game's yardstick, its baseline); 'self' or the tuned strategy's "
            "name: its shipped row (self-play)",
        ),
        params: str = typer.Option(
            "",
            "--params",
            help="comma-separated parameters to search (default: those with a declared range)",
        ),
        bound: list[str] = typer.Option(
            [], "--bound", help="search range NAME=LOW:HIGH (default: the game's); repeatable"
        ),
        trials: int = typer.Option(
            40, "--trials", help="candidate rows to play (shipped row first)"
        ),
        games: int = typer.Option(
            400, "--games", help="games per trial (same seeds for every trial)"
        ),
        confirm_games: int = typer.Option(
            2000, "--confirm-games", help="fresh games for the best and the shipped row (0: none)"
        ),
        seed: int | None = typer.Option(None, "--seed", help="seed (default: fresh, recorded)"),
        edition: str | None = typer.Option(None, "--edition", help="edition (Unearth)"),
        rule: list[str] = typer.Option([], "--rule", help="a ruling KEY=VALUE; repeatable"),
        workers: int | None = typer.Option(
            1, "--workers", help="worker processes per trial (default 1: this process)"
        ),
        out: Path | None = typer.Option(
            None, "--out", help="write the result to FILE.toml or FILE.json (atomically)"
        ),
        quiet: bool = typer.Option(False, "--quiet", help="no progress lines"),
        luck: bool | None = typer.Option(
            None,
            "--luck/--no-luck",
            help="--luck: play the luck terms and compare luck-adjusted wins (the same "
            "answer with the dice's luck taken out); default and --no-luck: plain wins",
        ),
    ) -> None:
        import sys

        from analyzer.cli.simulate import parse_rules
        from analyzer.core.invocation import command_line
        from analyzer.studies.tuning import format_result, tune, write_result

        rulings = parse_rules(rule)
        if edition is not None:
            rulings["edition"] = edition
        if out is not None and (out.suffix not in (".toml", ".json") or not out.parent.is_dir()):
            from analyzer.core.errors import bad_value

            raise bad_value("--out", str(out), "a .toml or .json file in an existing folder")
        result = tune(
            game,
            players,
            strategy,
            field or None,
            params=params or None,
            bounds=bound,
            trials=trials,
            games=games,
            confirm_games=confirm_games,
            seed=seed,
            rulings=rulings,
            workers=workers,
            progress=None if quiet else lambda line: print(line, file=sys.stderr, flush=True),
            command=command_line(),
            luck=luck,
        )
        typer.echo(format_result(result))
        if out is not None:
            write_result(result, out)
            typer.echo(f"written: {out}")
