"""The project's own exceptions.

Library code raises :class:`AnalyzerError` (or a subclass) for anything a user
can fix: bad input files, bad options, impossible requests. The CLI turns it
into one line on stderr and exit code 2; nothing else is shown to the user.
"""


class AnalyzerError(Exception):
    """A problem the user can fix. ``str(err)`` is the one-line message."""

    exit_code = 2


class InputError(AnalyzerError):
    """Bad input: a file, key or value that is not allowed.

    The message names where (file, key), what was found and what is allowed.
    """


def bad_value(where: str, value, allowed: str) -> InputError:
    """Build the canonical one-line error: ``where: bad value 'x' (allowed: ...)``."""
    return InputError(f"{where}: bad value {value!r} (allowed: {allowed})")
