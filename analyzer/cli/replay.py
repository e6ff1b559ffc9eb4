"""``analyzer replay``: one seeded game as text, every roll, choice and claim."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from analyzer.cli.options import STRATEGY_HELP

#: the largest game index: game indices are unsigned 64-bit integers in the kernels
MAX_INDEX = 2**64 - 1

EXAMPLES = """
Play one game and print its replay: set-up, every draw, card, roll, reroll
decision, stone, wonder and claim, then the final scores. Game N of seed S is
the same game that `analyzer simulate --seed S` plays as its game N, so an odd
result in a table can be looked at move by move.

Examples:

  analyzer replay --players 4 --strategy balanced --seed 7

  analyzer replay --players 3 --strategy claimer,collector,random --seed 7 --game 12

  analyzer replay --players 2 --edition german --seed 1 --out game.txt

  analyzer replay --game unearth --index 12 --seed 7

  analyzer replay --game uruk --players 2 --seed 7 --rule settlement_on_replace=to_pool

  analyzer replay --game colorful_treasure --players 3 --seed 7 --json > trace.json

`--game` names the game; an integer there is read as the game index, as in
earlier versions (`--game 12` is `--index 12`).
"""


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command to ``app``."""

    @app.command("replay", help=EXAMPLES)
    def replay_cmd(
        players: int = typer.Option(4, "--players", help="number of players (seats)"),
        strategy: list[str] = typer.Option([], "--strategy", help=STRATEGY_HELP),
        seed: int = typer.Option(..., "--seed", help="seed of the run the game belongs to"),
        game: str = typer.Option(
            "unearth", "--game", help="game name (analyzer games); an integer: the game index"
        ),
        index: int | None = typer.Option(
            None, "--index", help="game index within the run (0-based; default 0)"
        ),
        edition: str | None = typer.Option(
            None, "--edition", help="edition of the rules (Unearth: english or german)"
        ),
        rule: list[str] = typer.Option(
            [], "--rule", help="a ruling switch KEY=VALUE (analyzer games --rules GAME); repeatable"
        ),
        out: Path | None = typer.Option(
            None, "--out", help="write the replay to FILE (atomically) instead of stdout"
        ),
        as_json: bool = typer.Option(
            False,
            "--json",
            help="the checkable trace as JSON: every chance outcome and choice, marked as such",
        ),
    ) -> None:
        from analyzer.cli.simulate import parse_rules

        name = game
        if game.strip().lstrip("-").isdigit():  # the old meaning of --game: an index
            if index is not None:
                from analyzer.core.errors import InputError

                raise InputError("--game: an index given twice (use --index alone)")
            name, index, where = "unearth", int(game), "--game"
        else:
            where = "--index"
        text = replay_text(
            players,
            strategy,
            seed,
            index or 0,
            edition,
            game=name,
            where=where,
            rulings=parse_rules(rule),
            as_json=as_json,
        )
        if out is None:
            typer.echo(text, nl=False)
            return
        write_text_atomic(out, text)
        typer.echo(f"replay: {out}")


def replay_text(
    players,
    strategy,
    seed,
    index,
    edition=None,
    *,
    game="unearth",
    where="--index",
    rulings: dict | None = None,
    as_json: bool = False,
    overrides: dict | None = None,
) -> str:
    """The replay of game ``index`` of a run (validates every argument first);
    ``rulings`` are the game's ruling switches (``--rule``), ``overrides`` its
    rules values by path (a scenario's ``[overrides]``); ``as_json``: the
    checkable trace (:meth:`analyzer.games.Game.replay_events`) as JSON text."""
    from analyzer.core.errors import bad_value
    from analyzer.games import load_game
    from analyzer.runs.simulate import parse_strategies

    g = load_game(game, where="--game")
    rule_where = "--rule" if rulings else "--edition"
    rulings = dict(rulings or {})
    if edition is not None:
        rulings["edition"] = edition
        rule_where = "--edition"
    rules = g.load_rules(rulings, dict(overrides or {}), rule_where)
    lo, hi = g.player_range(rules)
    if not lo <= players <= hi:
        raise bad_value("--players", players, f"{lo} to {hi}")
    if seed < 0:
        raise bad_value("--seed", seed, "a non-negative integer")
    if not 0 <= index <= MAX_INDEX:
        raise bad_value(where, index, f"a game index from 0 to {MAX_INDEX:,} (2**64 - 1)")
    per_seat = parse_strategies(strategy, players, g.strategy_names(), g.default_strategy)
    job = g.make_job(players, per_seat, seed, rules)
    if not as_json:
        return g.replay(job, index)
    import json

    trace = g.replay_events(job, index)
    rulings_used, overrides = g.rules_settings(rules)
    head = {
        "game": g.name,
        "rules_version": g.rules_version,
        "strategies_version": g.strategies_version,
        "players": players,
        "strategies": list(per_seat),
        "seed": seed,
        "index": index,
        "rulings": rulings_used,
        "overrides": overrides,
    }
    return json.dumps({**head, **trace}, indent=1, default=int) + "\n"


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed into place."""
    from analyzer.core.errors import bad_value
    from analyzer.runs.runner import _atomic_write

    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise bad_value("--out", str(path), "a file in an existing, writable directory")
    if path.is_dir() or not os.access(parent, os.W_OK):
        from analyzer.core.errors import EnvironmentFailure

        why = "is a directory" if path.is_dir() else f"cannot write in {parent}"
        raise EnvironmentFailure(f"--out: {path} {why} (allowed: a file in a writable directory)")

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)

    _atomic_write(path, write)
