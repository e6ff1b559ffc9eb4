"""The command line being run, for the results that record how they were made.

The CLI (:func:`analyzer.cli.run_cli`) sets it; library code (a ladder's or a
tune's result, ``analyzer run``'s sections) reads it through
:func:`command_line`, so nothing below the CLI imports typer or the CLI itself.
"""

from __future__ import annotations

import contextvars

#: the arguments of the command being run (recorded by tune and ladder outputs);
#: the CLI replaces its contents in place
_ARGV: list[str] = []


def command_line() -> list[str]:
    """``["analyzer", *arguments]`` of the command being run."""
    return ["analyzer", *_ARGV]


#: True while a command answers a web request (``analyzer serve``, in a thread of a
#: server): a command then runs everything in its own thread and forks no child
#: process (a fork from a process with threads can inherit a lock another thread
#: holds, and hang); nobody presses Ctrl-C on a request
SERVING: contextvars.ContextVar[bool] = contextvars.ContextVar("analyzer_serving", default=False)


def serving() -> bool:
    """Whether the running command answers a web request (:data:`SERVING`)."""
    return SERVING.get()
