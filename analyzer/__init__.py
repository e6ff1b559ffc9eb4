"""analyzer: a Monte Carlo and exact strategy analyzer for the board game Unearth.

The package is split so that a second game can reuse everything but its own
rules folder:

- game-agnostic machinery: :mod:`analyzer.rng`, :mod:`analyzer.seeding`,
  :mod:`analyzer.stats`, :mod:`analyzer.jit`, :mod:`analyzer.errors`, the batch
  runner, aggregation, charts, reports and the CLI;
- everything that is Unearth's (rules data, kernels, strategies) lives in
  :mod:`analyzer.unearth`.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("analyzer")
except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0.0.0+unknown"


def simulate(*args, **kwargs):
    """Simulate whole games of Unearth; see :func:`analyzer.unearth.game.simulate`."""
    from analyzer.unearth.game import simulate as _simulate

    return _simulate(*args, **kwargs)


__all__ = ["__version__", "simulate"]
