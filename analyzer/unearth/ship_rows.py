"""Write Unearth's ``data/strategies.toml`` from ``analyzer tune`` result files.

``python -m analyzer.unearth.ship_rows [--version N] RESULT.toml ...``: see
:mod:`analyzer.studies.ship_rows`. Kept apart from :mod:`.defaults`, which the kernels
import (this module imports the tuning machinery).
"""

from __future__ import annotations

from analyzer.studies import ship_rows
from analyzer.unearth.defaults import ROWS


def render(version: int | str, results: list[dict], keep: dict | None = None) -> str:
    """The data file for ``results`` (:func:`analyzer.studies.ship_rows.render`)."""
    return ship_rows.render(ROWS, version, results, keep)


def main(argv: list[str]) -> None:
    ship_rows.main(ROWS, argv)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
