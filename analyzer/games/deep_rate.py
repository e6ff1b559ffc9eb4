"""How long a game's deep advice should take on this machine, said before it starts.

The time of a deep advice is its budget (rollouts in all) over the rollouts per
second of the game's last deep advice timed here (:func:`record_rate`, called by
:func:`analyzer.games.table.ask` after each one with its budget and the wall seconds of
the whole answer: what the user waited, not the rollouts' own CPU seconds that an
answer reports), else over the game's default rate
(its ``Question.deep_rate``, else :data:`DEFAULT_ROLLOUTS_PER_S`). The rates are kept
in a small JSON file beside the compiled kernels' cache, as
:mod:`analyzer.kernels.compiled` keeps the compile times. Plain Python; no game is
imported here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

#: the file of each game's last measured deep-advice speed here (rollouts per second),
#: beside the compile times of :mod:`analyzer.kernels.compiled`
RATES_FILE = "deep_rollouts_per_s.json"
#: rollouts per second said when this machine has not timed a game's deep advice: the
#: slowest game's (Unearth's, about 1,300 on a loaded 2-core machine), rounded down
DEFAULT_ROLLOUTS_PER_S = 1_000.0
#: runs of a smaller budget are not timed: their time is mostly overhead (the kernels'
#: first load, the web's probe of a budget of 2), and the tests' small runs on a loaded
#: machine would leave a rate no real deep advice has
MIN_TIMED = 1_000


class Estimate(str):
    """The line that says a deep advice's price before it runs ("deep advice: 12,000
    rollouts, about 10 s on this machine"), with its ``seconds`` and ``rollouts``."""

    seconds: float
    rollouts: int


def _rates_path() -> Path:
    from analyzer.kernels.jit import CACHE_DIR

    return Path(CACHE_DIR) / RATES_FILE


def _read_rates() -> dict:
    try:
        rates = json.loads(_rates_path().read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return rates if isinstance(rates, dict) else {}


def measured_rate(game: str) -> float | None:
    """Rollouts per second of ``game``'s last timed deep advice here, or None."""
    value = _read_rates().get(game)
    ok = isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 1e9
    return float(value) if ok else None


def record_rate(game: str, rollouts: int, seconds: float, budget: int | None = None) -> None:
    """Remember ``game``'s deep advice played ``rollouts`` in ``seconds`` here (not a
    run whose ``budget``, else ``rollouts``, is below :data:`MIN_TIMED`; best effort: an
    unwritable cache folder only loses the estimate). The last run counts, a first
    compile's included: the next run's time puts it right."""
    if (rollouts if budget is None else budget) < MIN_TIMED or rollouts <= 0 or not seconds > 0:
        return
    path = _rates_path()
    try:
        rates = _read_rates()
        rates[game] = round(rollouts / seconds, 1)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(rates, sort_keys=True), "utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def seconds_words(seconds: float) -> str:
    """``seconds`` in round words: "about 3 s", "about 25 s", "about 2 minutes"."""
    from analyzer.kernels.compiled import about

    return f"about {max(1, round(seconds))} s" if seconds < 10 else about(seconds)


def estimate(game: str, rollouts: int, default_rate: float | None = None) -> Estimate:
    """How long ``game``'s deep advice of ``rollouts`` should take here: ``rollouts``
    over the last measured rate (:func:`record_rate`), else over ``default_rate``
    (:data:`DEFAULT_ROLLOUTS_PER_S` if None), said as a line."""
    rate = measured_rate(game)
    measured = rate is not None
    if rate is None:
        rate = default_rate or DEFAULT_ROLLOUTS_PER_S
    seconds = rollouts / rate
    where = "on this machine" if measured else "(not yet timed on this machine)"
    what = f"{rollouts:,} rollout" + ("" if rollouts == 1 else "s")
    line = Estimate(f"deep advice: {what}, {seconds_words(seconds)} {where}")
    line.seconds, line.rollouts = seconds, rollouts
    return line
