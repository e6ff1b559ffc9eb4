"""``analyzer replay``: one seeded game as text, every roll, choice and claim."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from analyzer.commands import STRATEGY_HELP

EXAMPLES = """
Play one game and print its replay: set-up, every draw, card, roll, reroll
decision, stone, wonder and claim, then the final scores. Game N of seed S is
the same game that `analyzer simulate --seed S` plays as its game N, so an odd
result in a table can be looked at move by move.

Examples:

  analyzer replay --players 4 --strategy balanced --seed 7

  analyzer replay --players 3 --strategy claimer,collector,random --seed 7 --game 12

  analyzer replay --players 2 --edition german --seed 1 --out game.txt
"""


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command to ``app``."""

    @app.command("replay", help=EXAMPLES)
    def replay_cmd(
        players: int = typer.Option(4, "--players", help="number of players (seats)"),
        strategy: list[str] = typer.Option([], "--strategy", help=STRATEGY_HELP),
        seed: int = typer.Option(..., "--seed", help="seed of the run the game belongs to"),
        game: int = typer.Option(0, "--game", help="game index within the run (0-based)"),
        edition: str = typer.Option("english", "--edition", help="english or german rules"),
        out: Path | None = typer.Option(
            None, "--out", help="write the replay to FILE (atomically) instead of stdout"
        ),
    ) -> None:
        text = replay_text(players, strategy, seed, game, edition)
        if out is None:
            typer.echo(text, nl=False)
            return
        write_text_atomic(out, text)
        typer.echo(f"replay: {out}")


def replay_text(players, strategy, seed, game, edition) -> str:
    """The replay of game ``game`` of a run (validates every argument first)."""
    from analyzer.errors import bad_value
    from analyzer.summary import parse_strategies
    from analyzer.unearth.game import STRATEGIES, make_job
    from analyzer.unearth.replay import replay_game
    from analyzer.unearth.rules import load_rules

    rules = load_rules(edition, where="--edition")
    comp = rules.data["components"]
    lo, hi = comp["min_players"], comp["max_players"]
    if not lo <= players <= hi:
        raise bad_value("--players", players, f"{lo} to {hi}")
    if seed < 0:
        raise bad_value("--seed", seed, "a non-negative integer")
    if game < 0:
        raise bad_value("--game", game, "a non-negative integer")
    per_seat = parse_strategies(strategy, players, tuple(STRATEGIES))
    return replay_game(make_job(players, per_seat, seed, rules), game)


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed into place."""
    from analyzer.errors import bad_value
    from analyzer.runner import _atomic_write

    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise bad_value("--out", str(path), "a file in an existing, writable directory")

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)

    _atomic_write(path, write)
