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
        "Monte Carlo and exact strategy analyzer for the board game Unearth.\n\n"
        "Examples:\n\n"
        "  analyzer odds --claim 13 --dice 'blue:d6=5,blue:d6=3,red:d8'\n\n"
        "  analyzer advise my_table.toml\n\n"
        "  analyzer simulate --players 4 --strategy balanced --games 100000 --seed 7\n\n"
        "  analyzer run scenarios/default.toml"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

#: command modules under analyzer.commands, each with ``register(app)``
COMMAND_MODULES = ("odds", "advise", "simulate", "run")


def _register_commands() -> None:
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"analyzer.commands.{name}")
        module.register(app)


def error_line(message: str) -> None:
    """Print ``analyzer: error: message`` on one line of stderr."""
    sys.stderr.write(f"analyzer: error: {' '.join(str(message).split())}\n")


def main(argv: list[str] | None = None) -> None:
    """Console entry point: runs the command and exits with its code (2 on bad input)."""
    sys.exit(run_cli(argv))


def run_cli(argv: list[str] | None = None) -> int:
    """Run the CLI on ``argv`` and return the exit code instead of exiting (for tests)."""
    if not app.registered_commands:
        _register_commands()
    try:
        app(args=argv, standalone_mode=False, prog_name="analyzer")
    except AnalyzerError as err:
        error_line(str(err))
        return err.exit_code
    except click.exceptions.NoArgsIsHelpError as err:
        click.echo(err.ctx.get_help() if err.ctx else "")
        return 0
    except click.UsageError as err:
        error_line(err.format_message())
        return 2
    except click.exceptions.Exit as err:
        return err.exit_code
    except (click.Abort, KeyboardInterrupt):
        error_line("interrupted")
        return 130
    return 0


if __name__ == "__main__":  # pragma: no cover
    main()
