"""The installed package's version: a leaf module, so that any module can record
it in a manifest or result file without importing the package :mod:`analyzer`
(whose functions import the rest of it)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("analyzer")
except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0.0.0+unknown"
