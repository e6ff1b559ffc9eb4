"""The project's own exceptions and the one error contract of the command line.

Library code raises :class:`AnalyzerError` (or a subclass) for anything a user
can fix or meet: bad input files, bad options, impossible requests
(:class:`InputError`, exit code 2), or an environment that stops the work (a
full disk, a path that cannot be written, an unreachable scheduler:
:class:`EnvironmentFailure`, exit code 1). The CLI (:func:`analyzer.cli.run_cli`)
is the one place that turns any failure into one line on stderr and an exit
code; :func:`describe` builds that line for exceptions that are not the
project's own (an ``OSError`` from a write, a ``MemoryError``).

Exit codes (:data:`EXIT_CODES`, also in ``analyzer --help`` and the README):

====  ===========================================================================
0     done
1     environment failure: disk full, path not writable or a directory,
      scheduler unreachable, out of memory (the input was fine; try again
      once the environment is fixed)
2     bad input: a file, key, option or value that is not allowed, named in
      the line with what is allowed
3     internal error: a bug in analyzer (``--debug`` shows the traceback)
130   interrupted (Ctrl-C or SIGTERM); finished checkpoint batches are kept
====  ===========================================================================
"""

from __future__ import annotations

import errno

#: exit code -> meaning; the CLI's help and the README list the same
EXIT_CODES = {
    0: "done",
    1: "environment failure: disk full, path not writable, scheduler unreachable",
    2: "bad input: the line names the file, key or option, the value and what is allowed",
    3: "internal error: a bug in analyzer (run again with --debug for the traceback)",
    130: "interrupted (Ctrl-C or SIGTERM)",
}

EXIT_OK, EXIT_ENVIRONMENT, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class AnalyzerError(Exception):
    """A problem the user can fix. ``str(err)`` is the one-line message."""

    exit_code = EXIT_INPUT


class InputError(AnalyzerError):
    """Bad input: a file, key or value that is not allowed.

    The message names where (file, key), what was found and what is allowed.
    ``field``: the parameter of the call it names, by its Python name, when a
    caller set it (the table questions name their ``state`` so).
    """

    field: str | None = None


class Param(str):
    """A parameter's Python name where an error message names it (``claim``).

    A ``str``, kept apart from the message's other words by :class:`ParamError`:
    each front spells it its own way (the CLI its option ``--claim``, the web
    its field ``claim``, Python the name as it is)."""


class Lift(Param):
    """A parameter that lifts the limit a message names (``force``): Python
    spells it as the way past the limit (``force=True runs it anyway``)."""


class ParamError(InputError):
    """Bad input that names parameters of the call: ``parts`` are text and
    :class:`Param` names, in order. ``str(err)`` spells each parameter by its
    Python name; :meth:`spelled` by a front's own spelling. :attr:`field` is
    the first parameter named."""

    def __init__(self, *parts: str):
        self.parts = tuple(parts)
        self.field = next((p for p in parts if type(p) is Param), None)
        super().__init__(self.spelled(python_spelling))

    def __reduce__(self):  # pickled with its parts (a forked worker hands it back)
        return (type(self), self.parts)

    def spelled(self, spell) -> str:
        """The message with each :class:`Param` part written as ``spell(part)``."""
        return "".join(spell(p) if isinstance(p, Param) else p for p in self.parts)


def python_spelling(param: Param) -> str:
    """A parameter as Python names it; a :class:`Lift` as the way past the limit."""
    return f"{param}=True runs it anyway" if isinstance(param, Lift) else str(param)


def at(where, *more: str):
    """``where`` (a place: text, a :class:`Param`, or the parts of one) followed by
    ``more`` text: text again, or parts that keep the parameter apart."""
    if isinstance(where, tuple):
        return (*where, *more)
    if isinstance(where, Param):
        return (where, *more)
    return "".join((where, *more))


def input_error(where, rest: str) -> InputError:
    """``where`` followed by ``rest`` as an :class:`InputError` (a
    :class:`ParamError` when ``where`` names a parameter)."""
    place = at(where, rest)
    return ParamError(*place) if isinstance(place, tuple) else InputError(place)


class StalledGameError(InputError):
    """A game hit its engine's turn cap: the rules or the strategies' parameters
    as given make a game that never ends (``analyzer tune`` scores such a
    candidate row as losing every game)."""


class EnvironmentFailure(AnalyzerError):
    """The environment stopped the work: disk full, unwritable path, unreachable
    scheduler, no memory. The input was fine; exit code 1."""

    exit_code = EXIT_ENVIRONMENT


class Interrupted(BaseException):
    """SIGTERM (or a second Ctrl-C) asked the run to stop; exit code 130.

    A :class:`BaseException` like :class:`KeyboardInterrupt`, so that cleanup in
    ``finally`` blocks runs and no ``except Exception`` swallows it.
    """

    exit_code = EXIT_INTERRUPTED


def bad_value(where, value, allowed: str) -> InputError:
    """Build the canonical one-line error: ``where: bad value 'x' (allowed: ...)``.
    ``where`` names a parameter (:class:`Param`, or parts made by :func:`at`): a
    :class:`ParamError`."""
    return input_error(where, f": bad value {_short(value)} (allowed: {allowed})")


def _short(value, limit: int = 120) -> str:
    """``repr(value)``, shortened for one line (a huge integer or a long list)."""
    try:
        text = repr(value)
    except ValueError:  # an integer with more digits than Python will print
        return f"<an integer of {value.bit_length()} bits>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: errno values that mean "the environment", not "the input"
_ENVIRONMENT_ERRNOS = {
    errno.ENOSPC,
    errno.EDQUOT,
    errno.EROFS,
    errno.EACCES,
    errno.EPERM,
    errno.EISDIR,
    errno.ENOTDIR,
    errno.EEXIST,
    errno.ENOTEMPTY,
    errno.EIO,
    errno.EMFILE,
    errno.ENFILE,
    errno.ENAMETOOLONG,
    errno.ENOENT,
    errno.EXDEV,
    errno.EBUSY,
}


def environment_error(err: OSError, doing: str = "") -> EnvironmentFailure:
    """An :class:`EnvironmentFailure` naming the file and the system's reason.

    ``doing`` says what was being done (``"writing the report"``).
    """
    what = err.strerror or type(err).__name__
    name = err.filename if err.filename is not None else ""
    if err.filename2 is not None:
        name = f"{name} -> {err.filename2}"
    hint = ""
    if err.errno in (errno.ENOSPC, errno.EDQUOT):
        hint = " (free some space and run again; nothing was half-written)"
    elif err.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        hint = " (choose a writable place with --out)"
    parts = [p for p in (doing, str(name)) if p]
    return EnvironmentFailure(f"{': '.join(parts) or 'file system'}: {what}{hint}")


def describe(err: BaseException) -> tuple[int, str]:
    """``(exit code, one-line message)`` for any exception reaching the CLI."""
    if isinstance(err, AnalyzerError | Interrupted):
        return err.exit_code, str(err) or type(err).__name__
    if isinstance(err, KeyboardInterrupt):
        return EXIT_INTERRUPTED, "interrupted"
    if isinstance(err, MemoryError):
        return EXIT_ENVIRONMENT, "out of memory (ask for fewer games per batch or fewer games)"
    if isinstance(err, OSError):
        return EXIT_ENVIRONMENT, str(environment_error(err))
    if isinstance(err, RecursionError):
        return EXIT_INPUT, "input nested too deeply to read"
    text = " ".join(str(err).split())[:200]
    return (
        EXIT_INTERNAL,
        f"internal error ({type(err).__name__}: {text}); this is a bug in analyzer: "
        "run again with --debug and report the traceback",
    )
