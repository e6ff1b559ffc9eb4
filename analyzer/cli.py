"""The ``analyzer`` command line: thin typer commands over library functions.

Each command lives in :mod:`analyzer.commands` and registers itself on
:data:`app`. Library modules never import typer. Any :class:`AnalyzerError`
becomes one line on stderr and exit code 2 (no traceback); so do usage errors.
"""

from __future__ import annotations

import importlib
import sys

import click
import typer

from analyzer.errors import AnalyzerError

app = typer.Typer(
    name="analyzer",
    help=(
        "Monte Carlo and exact strategy analyzer for board games "
        "(analyzer games lists them; Unearth is the default).\n\n"
        "Examples:\n\n"
        "  analyzer odds --claim 13 --dice 'blue:d6=5,blue:d6=3,red:d8'\n\n"
        "  analyzer advise my_table.toml\n\n"
        "  analyzer simulate --players 4 --strategy balanced --games 100000 --seed 7\n\n"
        "  analyzer replay --players 4 --strategy balanced --seed 7 --game 3\n\n"
        "  analyzer run scenarios/default.toml"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

#: game-agnostic command modules under analyzer.commands, each with ``register(app)``
COMMAND_MODULES = ("games", "simulate", "replay", "run", "compare")


def _register_commands() -> None:
    from analyzer.games import available_games, load_game

    for name in available_games():  # a game's own commands (Unearth: odds, advise)
        try:
            load_game(name).register_commands(app)
        except AnalyzerError:  # a broken game: `analyzer games` says why
            continue
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"analyzer.commands.{name}")
        module.register(app)


def error_line(message: str) -> None:
    """Print ``analyzer: error: message`` on one line of stderr."""
    sys.stderr.write(f"analyzer: error: {' '.join(str(message).split())}\n")


def main(argv: list[str] | None = None) -> None:
    """Console entry point: runs the command and exits with its code (2 on bad input)."""
    sys.exit(run_cli(argv))


def _click_modules():
    """click's exception modules: the installed click and, for typer >= 0.29, the
    copy of click that typer bundles (its exceptions are distinct classes)."""
    mods = [click.exceptions]
    try:
        from typer._click import exceptions as bundled  # noqa: PLC0415
    except ImportError:  # older typer uses the installed click
        bundled = None
    if bundled is not None and bundled is not click.exceptions:
        mods.append(bundled)
    return mods


def _of(name: str) -> tuple[type, ...]:
    return tuple(getattr(m, name) for m in _click_modules() if hasattr(m, name))


def run_cli(argv: list[str] | None = None) -> int:
    """Run the CLI on ``argv`` and return the exit code instead of exiting (for tests)."""
    if not app.registered_commands:
        _register_commands()
    try:
        app(args=argv, standalone_mode=False, prog_name="analyzer")
    except AnalyzerError as err:
        error_line(str(err))
        return err.exit_code
    except _of("NoArgsIsHelpError") as err:
        click.echo(err.ctx.get_help() if getattr(err, "ctx", None) else "")
        return 0
    except _of("UsageError") as err:
        error_line(err.format_message())
        return 2
    except _of("ClickException") as err:
        error_line(err.format_message())
        return err.exit_code or 1
    except _of("Exit") as err:
        return err.exit_code
    except (*_of("Abort"), KeyboardInterrupt):
        error_line("interrupted")
        return 130
    return 0


if __name__ == "__main__":  # pragma: no cover
    main()
