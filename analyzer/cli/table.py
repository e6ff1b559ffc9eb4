"""``analyzer odds`` and ``analyzer advise`` for every game: ``--game NAME``.

The table commands answer a player at the table (exact odds, a ranking of one
decision's choices). Each game declares its questions once
(:class:`analyzer.games.table.TableSpec`); this module builds each game's
``odds``/``advise`` typer command from them (:func:`commands_of`: the options, the
help, one function that asks :func:`analyzer.games.table.ask` and prints the
answer), and one command per name picks the game's from ``--game`` (default
:data:`analyzer.games.DEFAULT_GAME`, so the invocations that worked before
``--game`` existed work as they did) and hands it every other argument
unchanged: the game's options, help, output and errors are its own. A game may
still add an ``odds`` or ``advise`` command of its own (its command modules).
"""

from __future__ import annotations

import copy
import inspect
import sys
import threading
from pathlib import Path

import click
import typer

from analyzer.games import DEFAULT_GAME

#: the commands a game may declare through this dispatcher
TABLE_COMMANDS = ("odds", "advise")
#: verb -> {game: its click command, built on first use in each thread}
GAMES: dict[str, dict] = {}

GAME_HELP = (
    "--game NAME picks the game (default {default}; games with this command: {games}). "
    "Every other option is the game's: analyzer {verb} --game NAME --help lists them."
)

#: the Python type typer reads an option of each kind as
_TYPES = {"text": str, "int": int, "flag": bool, "texts": list[str], "path": Path, "state": Path}


def commands_of(game: str) -> dict:
    """``{verb: typer CommandInfo}`` of game ``game``'s table questions (none: {})."""
    from analyzer.games.table import spec

    found = spec(game)
    return {} if found is None else {q.verb: _command(game, q) for q in found.questions}


def _command(game: str, question):
    """The typer command of one question: its options as the question declares them,
    in order, and a function that asks it and prints the answer."""

    def command(**values) -> None:
        _run(game, question, values)

    params = []
    for o in question.options:
        if o.kind == "state":
            default = typer.Argument(None, help=o.help, show_default=o.show_default)
        else:
            default = typer.Option(o.default, o.flag, help=o.help, show_default=o.show_default)
        params.append(
            inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                              annotation=_TYPES[o.kind])
        )  # fmt: skip
    command.__signature__ = inspect.Signature(params)
    sub = typer.Typer()
    sub.command(question.verb, help=question.help)(command)
    return sub.registered_commands[0]


def _run(game: str, question, values: dict) -> None:
    """``analyzer VERB --game GAME ...``: the example, or the answer as JSON or tables."""
    from analyzer.core.errors import InputError, ParamError
    from analyzer.games.table import ask, example_command, spec

    if values.pop("example", False):
        typer.echo(spec(game).example_text(), nl=False)
        return
    json_out = values.pop("json_out", False)
    state = values.pop("state", None)
    if question.takes_state and state is None:
        raise click.UsageError(
            f"{question.verb}: missing STATE.toml (allowed: a table-state file; "
            f"`{example_command(game, question.verb)}` prints one)"
        )
    tickers: list[_Ticker] = []

    def say(line: str) -> None:
        _say(line)
        seconds = getattr(line, "seconds", None)  # a deep advice's estimate: time it
        if seconds is not None and sys.stderr.isatty():
            tickers.append(_Ticker(seconds))

    try:
        answer = ask(game, question.verb, state, values, say=say)
    except ParamError as err:  # the parameters as this command names them: --claim
        raise InputError(err.spelled(lambda p: spelling(question, p))) from None
    finally:
        for t in tickers:
            t.stop()
    if json_out:
        typer.echo(answer.to_json())
        return
    from rich.console import Console

    console = Console()
    for part in answer.renderables():
        console.print(part)


def spelling(question, param) -> str:
    """A parameter named by an error as the command line names it: its option
    (``--ruin-stones``); the way past a limit as the command offers it."""
    from analyzer.core.errors import Lift

    flag = next((o.flag for o in question.options if o.name == param and o.flag), str(param))
    if isinstance(param, Lift):
        return f"add {flag} to run it anyway, Ctrl-C stops it"
    return flag


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")


def ticker_text(elapsed: float, estimate: float) -> str:
    """The terminal's line while a deep advice runs: the seconds elapsed against the
    estimate, and past it that it takes longer; no share of the work done, which the
    one compiled search does not report until it ends."""
    from analyzer.games.deep_rate import seconds_words

    said = seconds_words(estimate)
    if elapsed <= estimate:
        return f"  {elapsed:.0f} s of {said} (one compiled search: no count until it ends)"
    return f"  {elapsed:.0f} s: taking longer than estimated ({said})"


class _Ticker:
    """:func:`ticker_text` rewritten on stderr twice a second until :meth:`stop`,
    which clears the line."""

    def __init__(self, estimate: float):
        import time

        self._t0, self._estimate = time.perf_counter(), estimate
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import time

        while not self._done.wait(0.5):
            text = ticker_text(time.perf_counter() - self._t0, self._estimate)
            sys.stderr.write("\r\033[K" + text)
            sys.stderr.flush()

    def stop(self) -> None:
        self._done.set()
        self._thread.join()
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


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
    # at once (run_cli from threads; ``analyzer serve`` once did so) could call the
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
