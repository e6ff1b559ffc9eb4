"""``analyzer odds`` and ``analyzer advise`` for every game: ``--game NAME``.

The table commands answer a player at the table (exact odds, a ranking of one
decision's choices). Each game declares its own (its command modules register
an ``odds`` or ``advise`` command, as any other command); the CLI collects
them here, and one command per name picks the game's from ``--game`` (default
:data:`analyzer.games.DEFAULT_GAME`, so the invocations that worked before ``--game`` existed
work as they did) and hands it every other argument unchanged: the game's
options, help, output and errors are its own.
"""

from __future__ import annotations

import copy
import threading

import click
import typer

from analyzer.games import DEFAULT_GAME

#: the commands a game may declare through this dispatcher
TABLE_COMMANDS = ("odds", "advise")
#: verb -> {game: its click command, built on first use in each thread} (``analyzer
#: serve`` reads them)
GAMES: dict[str, dict] = {}

GAME_HELP = (
    "--game NAME picks the game (default {default}; games with this command: {games}). "
    "Every other option is the game's: analyzer {verb} --game NAME --help lists them."
)


def split_game(args: list[str]) -> tuple[str | None, list[str]]:
    """``--game NAME`` or ``--game=NAME`` taken out of ``args`` (the first one)."""
    out = []
    game = None
    i = 0
    while i < len(args):
        a = args[i]
        if game is None and a == "--game":
            if i + 1 >= len(args):
                raise click.UsageError("--game: missing NAME (analyzer games lists them)")
            game = args[i + 1]
            i += 2
            continue
        if game is None and a.startswith("--game="):
            game = a.split("=", 1)[1]
            i += 1
            continue
        if a == "--":
            out += args[i:]
            break
        out.append(a)
        i += 1
    return game, out


def register(app: typer.Typer, verb: str, commands: dict, epilog: str) -> None:
    """Add ``analyzer VERB`` dispatching to ``commands`` (game name -> the game's
    typer ``CommandInfo`` for ``verb``)."""
    from typer.main import get_command

    games = sorted(commands)
    default = DEFAULT_GAME if DEFAULT_GAME in commands else games[0]
    note = GAME_HELP.format(default=default, games=", ".join(games), verb=verb)
    # one built command per thread: typer's wrapper of a command's function fills
    # one dict of arguments per built command, so two threads running the same one
    # at once (``analyzer serve`` answers requests in threads) could call the
    # function with each other's arguments
    local = threading.local()

    def command(game: str) -> click.Command:
        built = local.__dict__.setdefault("built", {})
        if game not in built:
            info = copy.copy(commands[game])
            sub = typer.Typer(
                add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None
            )
            info.epilog = epilog if info.epilog is None else info.epilog
            info.help = (info.help or "").rstrip("\n") + "\n\n" + note + "\n"
            sub.registered_commands.append(info)
            built[game] = get_command(sub)
        return built[game]

    GAMES[verb] = _Lazy(commands, command)
    summary = (commands[default].help or "").strip().split("\n\n")[0]

    @app.command(
        verb,
        help=f"{summary}\n\n{note}",
        epilog=epilog,
        add_help_option=False,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )
    def dispatch(ctx: typer.Context) -> None:
        game, args = split_game(list(ctx.args))
        game = default if game is None else game
        if game not in commands:
            raise click.UsageError(
                f"{verb}: --game {game}: no such command for this game "
                f"(allowed: {', '.join(games)})"
            )
        command(game).main(args, prog_name=f"analyzer {verb}", standalone_mode=False)


class _Lazy:
    """``{game: click command}`` of one verb, each built when first asked for."""

    def __init__(self, commands: dict, build):
        self._names = set(commands)
        self._build = build

    def __contains__(self, game) -> bool:
        return game in self._names

    def get(self, game):
        """The game's click command, or None if the game has none."""
        return self._build(game) if game in self._names else None
