"""``analyzer train``: fit a game's fast evaluation to its search's values (expert iteration).

A command of its own rather than ``tune --method``: ``tune`` searches a strategy's
parameter row against a field and confirms it on fresh games; ``train`` labels
self-play positions with the search and fits feature weights, round after round,
its state in an output folder it can resume from.
"""

from __future__ import annotations

from pathlib import Path

import typer

EXAMPLES = """
Self-play games of the current player; at sampled decisions every candidate
action is valued by the search's rollouts; a linear evaluation of what the seat
can see of each candidate is fitted to those values, and plays the next round.
The state is kept in --out (train.json, a file per chunk of games): --resume
continues an interrupted run to the weights an uninterrupted one finds.
weights.toml holds the result as the game's data/trained.toml ships it (the
`trained` strategy), with the command that made it.

Examples:

  analyzer train --game uruk --players 2 --seed 39 --rounds 2 --budget 100 --out train-uruk

  analyzer train --game uruk --players 2 --seed 39 --rounds 2 --budget 100 --out train-uruk --resume
"""


def register(app: typer.Typer) -> None:
    """Add the ``train`` command to ``app``."""

    @app.command("train", help=EXAMPLES)
    def train_cmd(
        game: str = typer.Option("uruk", "--game", help="game (one with training features)"),
        players: int = typer.Option(2, "--players", help="players per game"),
        seed: int = typer.Option(1, "--seed", help="seed of the self-play games and rollouts"),
        rounds: int = typer.Option(2, "--rounds", help="rounds of self-play, labels and fit"),
        budget: int = typer.Option(200, "--budget", help="self-play games per round"),
        rollouts: int = typer.Option(16, "--rollouts", help="rollouts per candidate action"),
        every: float = typer.Option(
            8.0, "--every", help="a decision is labelled with probability 1/EVERY"
        ),
        margin: float = typer.Option(
            0.01, "--margin", help="label: win share + MARGIN x (score - best other score)"
        ),
        chunk: int = typer.Option(10, "--chunk", help="games per saved chunk (resume unit)"),
        out: Path = typer.Option(..., "--out", help="folder of the run's state and result"),
        resume: bool = typer.Option(False, "--resume", help="continue the run in --out"),
        quiet: bool = typer.Option(False, "--quiet", help="no progress lines"),
    ) -> None:
        import sys

        from analyzer.core.errors import bad_value
        from analyzer.studies.training import (
            TrainSettings,
            check_settings,
            default_command,
            format_result,
            train,
        )

        settings = TrainSettings(
            game,
            players,
            seed,
            rounds=rounds,
            budget=budget,
            rollouts=rollouts,
            every=every,
            margin=margin,
            chunk=chunk,
        )
        check_settings(settings)  # one line, exit 2, before any engine is loaded
        if out.exists() and not out.is_dir():
            raise bad_value("--out", str(out), "a folder (made if missing)")
        result = train(
            settings,
            out,
            resume=resume,
            progress=None if quiet else lambda line: print(line, file=sys.stderr, flush=True),
            command=default_command(settings),
        )
        typer.echo(format_result(result))
        typer.echo(f"written: {out / 'weights.toml'}")
