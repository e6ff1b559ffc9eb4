"""The command line being run, for the results that record how they were made.

The CLI (:func:`analyzer.cli.run_cli`) sets it; library code (a ladder's or a
tune's result, ``analyzer run``'s sections) reads it through
:func:`command_line`, so nothing below the CLI imports typer or the CLI itself.
"""

from __future__ import annotations

#: the arguments of the command being run (recorded by tune and ladder outputs);
#: the CLI replaces its contents in place
_ARGV: list[str] = []


def command_line() -> list[str]:
    """``["analyzer", *arguments]`` of the command being run."""
    return ["analyzer", *_ARGV]
