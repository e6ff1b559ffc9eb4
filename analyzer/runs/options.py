"""What a run is asked for and what it gives: :class:`RunOptions`, :class:`RunResult`.

Game-agnostic. Also the bounds every front checks a number of games against
(:data:`MAX_GAMES`) and of local workers (:data:`MAX_WORKERS`); the runner
(:func:`analyzer.runs.runner.run`) checks the options before any work.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.core.errors import InputError, bad_value

if TYPE_CHECKING:  # pandas is imported where tables are made: checking input stays fast
    import pandas as pd

    from analyzer.core.stats import Headline

BatchFn = Callable[[int, int], "dict[str, pd.DataFrame]"]
Reducer = Callable[["dict[str, pd.DataFrame]"], "pd.DataFrame"]

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

    ``games_per_second`` counts the game indices simulated in this call (not
    those loaded from a checkpoint) over the wall time ``seconds`` less
    ``compile_seconds`` (a first compile, run before the games and announced).
    """

    tables: dict[str, pd.DataFrame]
    aggregate: pd.DataFrame
    games: int
    batches: int
    seconds: float
    games_per_second: float
    stopped_by: str
    headline: Headline | None
    compile_seconds: float = 0.0


def _is_int(value) -> bool:
    """An integer (Python's or numpy's: both are ``numbers.Integral``), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_workers(workers, where: str = "workers") -> None:
    """``workers``: None (all cores) or an integer from 1 to :data:`MAX_WORKERS`."""
    if workers is not None and (not _is_int(workers) or not 1 <= workers <= MAX_WORKERS):
        allowed = f"an integer from 1 to {MAX_WORKERS:,}, or None for all cores"
        raise bad_value(where, workers, allowed)


def check_options(options: RunOptions, has_headline: bool = True) -> None:
    """Raise :class:`InputError` naming the first bad option of ``options`` (the
    runner's check, also made by the driver before any engine is loaded, so bad
    input is answered at once; the runner also checks the scheduler's address).
    ``has_headline``: a headline function judges a precision target."""
    if not _is_int(options.games) or not 1 <= options.games <= MAX_GAMES:
        raise bad_value("games", options.games, GAMES_ALLOWED)
    if not _is_int(options.batch_size) or not 1 <= options.batch_size <= MAX_GAMES:
        raise bad_value("batch_size", options.batch_size, GAMES_ALLOWED)
    check_workers(options.workers)
    if options.precision is not None:
        p = options.precision
        if (
            isinstance(p, bool)
            or not isinstance(p, int | float)
            or not (p > 0 and math.isfinite(p))
        ):
            raise bad_value("precision", p, "a positive number")
        if not has_headline:
            raise InputError("precision: needs a headline function to judge the target")
    if options.max_games is not None:
        if not _is_int(options.max_games) or not 1 <= options.max_games <= MAX_GAMES:
            raise bad_value("max_games", options.max_games, GAMES_ALLOWED)
        if options.precision is None:
            raise InputError("max_games: only used with a precision target (set precision too)")
    if options.resume and options.checkpoint_dir is None:
        raise InputError("resume: needs a checkpoint directory to resume from")
