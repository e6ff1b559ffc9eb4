"""The installed package's version: a leaf module, so that any module can record
it in a manifest or result file without importing the package :mod:`analyzer`
(whose functions import the rest of it). Read when first asked for
(``from analyzer._version import __version__``): :mod:`importlib.metadata` is a
noticeable part of the command line's start, which needs no version to say
what is wrong with its input."""

from __future__ import annotations


def _read() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("analyzer")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0.0.0+unknown"


def __getattr__(name: str) -> str:
    if name == "__version__":
        value = _read()
        globals()["__version__"] = value  # read once
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
