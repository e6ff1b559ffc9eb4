"""Write Unearth's ``data/strategies.toml`` from ``analyzer tune`` result files.

``python -m analyzer.unearth.ship_rows [--version N] RESULT.toml ...``: see
:mod:`analyzer.studies.ship_rows` (``render(version, results, keep=None)``,
``main(argv)``). Kept apart from :mod:`.defaults`, which the kernels
import (this module imports the tuning machinery).
"""

from __future__ import annotations

from analyzer.studies.ship_rows import for_game
from analyzer.unearth.defaults import ROWS

render, main = for_game(ROWS)

if __name__ == "__main__":
    main()
