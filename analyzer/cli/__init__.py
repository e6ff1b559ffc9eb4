"""The ``analyzer`` command line: thin typer commands over library functions.

Each command lives in :mod:`analyzer.cli` and registers itself on
:data:`app`. Library modules never import typer. :func:`run_cli` is the one
place where failures meet the user: every exception becomes one line on stderr
(``analyzer: error: ...``) and a documented exit code
(:data:`analyzer.core.errors.EXIT_CODES`: 1 environment, 2 bad input, 3 internal
error, 130 interrupted); a traceback only with ``--debug``. SIGTERM is turned
into the same orderly stop as Ctrl-C (temporary files removed, workers ended).
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import warnings

import click
import typer

from analyzer.cli import coercion
from analyzer.core.errors import EXIT_CODES, AnalyzerError, Interrupted, describe
from analyzer.core.invocation import _ARGV, command_line  # noqa: F401 - command_line: its old home

coercion.install()  # options of plain types read without importing pydantic

#: the exit codes as shown under every command's --help
EXIT_HELP = (
    "Exit codes: "
    + "; ".join(f"{code} {text}" for code, text in EXIT_CODES.items())
    + (". --debug (anywhere on the line) shows the traceback of a failure.")
)

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
        "  analyzer run scenarios/default.toml\n\n"
        "Add --debug anywhere to see the traceback of a failure."
    ),
    epilog=EXIT_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

#: game-agnostic command modules under analyzer.cli, each with ``register(app)``
COMMAND_MODULES = (
    "games",
    "simulate",
    "replay",
    "run",
    "compare",
    "ladder",
    "tune",
    "balance",
    "train",
    "serve",
)


def _register_commands() -> None:
    from analyzer.cli import table
    from analyzer.games import available_games, command_modules, load_game

    tables: dict[str, dict] = {verb: {} for verb in table.TABLE_COMMANDS}
    for name in available_games():  # a game's own commands (odds, advise, ...)
        own = typer.Typer()
        modules = command_modules(name)
        if modules is not None:  # declared: added without building the game
            for module in modules:
                importlib.import_module(module).register(own)
        else:
            try:
                load_game(name).register_commands(own)
            except AnalyzerError:  # a broken game: `analyzer games` says why
                continue
        for info in own.registered_commands:
            if info.name in tables:  # one `analyzer odds --game NAME` for every game
                tables[info.name][name] = info
            else:
                app.registered_commands.append(info)
        try:  # the game's table questions, built from what it declares
            questions = table.commands_of(name)
        except AnalyzerError:  # a broken game: `analyzer games` says why
            questions = {}
        for verb, info in questions.items():
            tables.setdefault(verb, {})[name] = info
    for verb, by_game in tables.items():
        if by_game:
            table.register(app, verb, by_game, EXIT_HELP)
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"analyzer.cli.{name}")
        module.register(app)
    for info in app.registered_commands:  # every command's help ends with the exit codes
        if info.epilog is None:
            info.epilog = EXIT_HELP


def error_line(message: str) -> None:
    """Print ``analyzer: error: message`` on one line of stderr."""
    sys.stderr.write(f"analyzer: error: {' '.join(str(message).split())}\n")


def main(argv: list[str] | None = None) -> None:
    """Console entry point: runs the command and exits with its code (see ``EXIT_CODES``)."""
    code = run_cli(argv)
    try:
        sys.stdout.flush()
    except (BrokenPipeError, OSError):  # `analyzer ... | head`: the reader left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(code)


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


def _on_sigterm(signum, frame):
    raise Interrupted("interrupted (SIGTERM)")


def _on_sigint(signum, frame):
    raise Interrupted("interrupted (Ctrl-C)")


def _quiet_unraisable(hook_args) -> None:
    """Errors in ``__del__`` during shutdown (e.g. a Dask client that never
    connected) are not the user's business; ``--debug`` shows them."""


def run_cli(argv: list[str] | None = None) -> int:
    """Run the CLI on ``argv`` and return the exit code instead of exiting (for tests).

    ``--debug`` anywhere in ``argv`` (or ``ANALYZER_DEBUG=1``) lets a failure's
    traceback through instead of the one line.
    """
    if not app.registered_commands:
        _register_commands()
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args or os.environ.get("ANALYZER_DEBUG", "") not in ("", "0")
    args = [a for a in args if a != "--debug"]
    _ARGV[:] = args
    old_term = old_int = old_hook = None
    in_main = threading_is_main()
    if in_main:
        old_term = signal.signal(signal.SIGTERM, _on_sigterm)
        # a shell starts a background job with SIGINT ignored; the run must still stop
        # (and typer would turn a KeyboardInterrupt into a silent return: our own
        # exception passes through it to the one place below)
        old_int = signal.signal(signal.SIGINT, _on_sigint)
    if not debug:
        old_hook, sys.unraisablehook = sys.unraisablehook, _quiet_unraisable
    try:
        with warnings.catch_warnings():
            if not debug:  # a path or label in a script matplotlib's font lacks
                warnings.filterwarnings("ignore", message=r"(?s).*missing from (current )?font")
                warnings.filterwarnings("ignore", message=r"(?s).*missing from font\(s\)")
            return _invoke(args, debug)
    finally:
        if in_main and old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
            signal.signal(signal.SIGINT, old_int)
        if old_hook is not None:
            sys.unraisablehook = old_hook


def threading_is_main() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _invoke(args: list[str], debug: bool, on_failure=None) -> int:
    """Run the command ``args``: its exit code, a failure as one line on stderr.
    ``on_failure(err, code)`` is told of an exception that is not click's (bad
    input, internal error, ...) before its line is written: ``analyzer serve``
    logs the traceback of what it answers with a 500."""
    try:
        code = app(args=args, standalone_mode=False, prog_name="analyzer")
        if code == 130:  # typer's answer to a KeyboardInterrupt it caught
            error_line("interrupted")
            return 130
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
    except _of("Abort") as err:  # click's wrapper of a KeyboardInterrupt
        cause = err.__cause__ or err.__context__
        if debug and cause is not None:
            raise cause from None
        error_line("interrupted")
        return 130
    except (Exception, KeyboardInterrupt, Interrupted) as err:
        if debug:
            raise
        code, line = describe(err)
        if on_failure is not None:
            on_failure(err, code)
        error_line(line)
        return code
    return 0


if __name__ == "__main__":  # pragma: no cover
    main()
