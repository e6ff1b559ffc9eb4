"""What a run is asked for and what it gives: :class:`RunOptions`, :class:`RunResult`.

Game-agnostic. Also the bounds every front checks a number of games against
(:data:`MAX_GAMES`) and of local workers (:data:`MAX_WORKERS`); the runner
(:func:`analyzer.runs.runner.run`) checks the options before any work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analyzer.core.stats import Headline

BatchFn = Callable[[int, int], dict[str, pd.DataFrame]]
Reducer = Callable[[dict[str, pd.DataFrame]], pd.DataFrame]

#: default cap on games when a precision target is set: this many times ``games``
DEFAULT_CAP_FACTOR = 10
#: most games one run may ask for: a trillion (years of CPU time; a larger number
#: is a typo, and the game index must stay a 64-bit integer)
MAX_GAMES = 10**12
GAMES_ALLOWED = f"an integer from 1 to {MAX_GAMES:,}"
#: most local worker processes (one per core is the useful most; more is a typo
#: that would start a process per batch)
MAX_WORKERS = 1024


@dataclass(frozen=True)
class RunOptions:
    """How to run: sizes, where, resume, precision, memory, progress.

    With ``precision`` set, the run stops after the first batch (in index order)
    whose prefix aggregate has a headline half-width below ``precision``, or at
    ``max_games`` (default ``10 * games``); ``games`` then only sets the default
    cap. ``seed`` is recorded in the checkpoint manifest; the batch function owns
    the seed that drives the games.
    """

    games: int
    seed: int
    batch_size: int = 5000
    workers: int | None = None
    scheduler: str | None = None
    checkpoint_dir: Path | None = None
    resume: bool = False
    precision: float | None = None
    max_games: int | None = None
    keep_tables: bool = True
    progress: bool = True


@dataclass
class RunResult:
    """What :func:`run` returns.

    ``games_per_second`` counts the games simulated in this call (not those
    loaded from a checkpoint) over the wall time ``seconds``.
    """

    tables: dict[str, pd.DataFrame]
    aggregate: pd.DataFrame
    games: int
    batches: int
    seconds: float
    games_per_second: float
    stopped_by: str
    headline: Headline | None
