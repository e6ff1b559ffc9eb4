"""Deep advice's answer, for every game: the budget check, the rollouts run and
ranked, the choices' estimates, the table and the JSON (``analyzer advise --game
G STATE.toml --deep``).

A game's deep advice ranks the choices of a table state's decision by win chance
from rollouts (its ``deep.py``, through :mod:`analyzer.kernels.search`); what every game
shows of each choice is the same: its rollouts, its win chance, its paired
difference to the best and its final score, with 95% intervals
(:class:`Estimates`), and of the answer the same facts (:class:`DeepAnswer`). A
game builds the table state into a game, names its choices and adds its own
fields and columns (the exact odds beside, the base player's choice) before or
after those. Plain Python; no game is imported here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.core.errors import InputError, Param, bad_value
from analyzer.games.table import Answer, assumed_line, columns_table, rollouts_start

if TYPE_CHECKING:  # the kernels are the deep modules' own import (numba): not needed here
    from analyzer.kernels.search import RolloutRow


@dataclass(frozen=True, kw_only=True)
class Estimates:
    """What the rollouts say of one choice (95% intervals: Wilson for the win
    chance, normal for the score and the paired difference to the best); a
    game's ``DeepChoice`` adds how it names the choice."""

    rollouts: int
    win: float
    win_ci: tuple[float, float]
    score: float
    score_ci: tuple[float, float]
    gain: float  #: mean paired win-share difference to the best choice
    gain_ci: tuple[float, float]


@dataclass(frozen=True, kw_only=True)
class DeepAnswer:
    """A deep answer: the choices best first and how they were played; a game's
    ``DeepAdvice`` adds its seats and decision."""

    choices: tuple  #: the game's ``DeepChoice`` rows, best first
    rollouts: int  #: rollouts played in all
    seconds: float  #: time the rollouts took
    seed: int
    assumed: tuple[str, ...]  #: what the answer assumes beyond the table state, in words
    within_noise: tuple[int, ...]  #: ranks (in ``choices``) not distinguishable from the best


@dataclass(frozen=True)
class Played:
    """A deep advice's rollouts, ranked (:func:`play_ranking`)."""

    rows: tuple[RolloutRow, ...]  #: each choice's estimates, best first
    within_noise: tuple[int, ...]  #: ranks (in ``rows``) not distinguishable from the best
    rollouts: int  #: rollouts played in all
    seconds: float  #: time they took

    def answer(self, choices, seed: int, assumed) -> dict:
        """The fields of a :class:`DeepAnswer` (keyword arguments of a game's
        ``DeepAdvice``) with the game's ``choices``, one per row of :attr:`rows`."""
        return {
            "choices": tuple(choices),
            "rollouts": self.rollouts,
            "seconds": self.seconds,
            "seed": seed,
            "assumed": tuple(assumed),
            "within_noise": self.within_noise,
        }


def play_ranking(rank, w, no_choice: str, clock=time.perf_counter) -> Played:
    """Play a game's deep-advice rollouts, ``rank()`` (it returns how many
    choices it played, their tallies in the search's work space ``w``), and
    rank them (:func:`analyzer.kernels.search.rank_work`), timed by ``clock``; their
    estimated time is said as they start (:func:`analyzer.games.table.rollouts_start`).
    No choice at all: :class:`InputError` ``no_choice``."""
    from analyzer.kernels.search import K_ROLLOUTS, rank_work

    rollouts_start()
    t0 = clock()
    k = rank()
    seconds = clock() - t0
    if k == 0:
        raise InputError(no_choice)
    ranking = rank_work(w, k)
    return Played(ranking.rows, ranking.within_noise, int(w.count[K_ROLLOUTS]), seconds)


def check_budget(budget, default: int, low: int, high: int) -> int:
    """``budget``: ``default`` if None, else a whole number from ``low`` to
    ``high`` (``budget: bad value ...`` otherwise, :class:`ParamError`)."""
    budget = default if budget is None else budget
    if isinstance(budget, bool) or not isinstance(budget, int) or not low <= budget <= high:
        raise bad_value(Param("budget"), budget, f"an integer from {low:,} to {high:,}")
    return budget


def estimates(row: RolloutRow) -> dict:
    """What the rollouts say of one choice, as keyword arguments of a game's
    ``DeepChoice`` (fields ``rollouts, win, win_ci, score, score_ci, gain,
    gain_ci``)."""
    return {
        "rollouts": row.rollouts,
        "win": row.win,
        "win_ci": row.win_ci,
        "score": row.score,
        "score_ci": row.score_ci,
        "gain": row.gain,
        "gain_ci": row.gain_ci,
    }


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ranking_table(title: str, choices, before=(), after=(), cells=None):
    """A rich table of a deep ranking (``choices`` best first, each with the
    fields of :func:`estimates`): ``#``, the game's columns ``before`` (``(name,
    justify)`` pairs), win chance, the paired difference to the best, the final
    score (each ± half its 95% interval), then the columns ``after``.
    ``cells(rank, choice) -> (before cells, after cells)`` fills the game's
    columns (``rank`` from 1)."""
    tab = columns_table(
        title,
        (
            ("#", "right"),
            *before,
            ("win chance", "right"),
            ("vs best, paired (% points)", "right"),
            ("final score", "right"),
            *after,
        ),
    )
    for i, c in enumerate(choices, start=1):
        first, last = cells(i, c) if cells else ((), ())
        half_w = (c.win_ci[1] - c.win_ci[0]) / 2
        half_g = (c.gain_ci[1] - c.gain_ci[0]) / 2
        half_s = (c.score_ci[1] - c.score_ci[0]) / 2
        tab.add_row(
            str(i),
            *first,
            f"{pct(c.win)} ± {100 * half_w:.1f}",
            "best" if i == 1 else f"{100 * c.gain:+.1f} ± {100 * half_g:.1f}",
            f"{c.score:.1f} ± {half_s:.1f}",
            *last,
        )
    return tab


def estimates_json(c) -> dict:
    """A choice's estimates in ``--deep --json`` (between the game's naming keys
    and its own)."""
    return {
        "rollouts": c.rollouts,
        "win": c.win,
        "win_ci95": list(c.win_ci),
        "score": c.score,
        "score_ci95": list(c.score_ci),
        "gain_vs_best": c.gain,
        "gain_vs_best_ci95": list(c.gain_ci),
    }


def advice_json(head: dict, advice, players: str, tied: list[str], rows: list[dict]) -> str:
    """``--deep --json``: the game's ``head`` keys, then ``seed``, ``rollouts``,
    ``seconds``, ``players`` (who plays the rollouts), ``assumed``,
    ``within_noise_of_best`` (``tied``: the names of those choices) and
    ``choices`` (``rows``, best first)."""
    return json.dumps(
        {
            **head,
            "seed": advice.seed,
            "rollouts": advice.rollouts,
            "seconds": round(advice.seconds, 3),
            "players": players,
            "assumed": list(advice.assumed),
            "within_noise_of_best": tied,
            "choices": rows,
        },
        indent=2,
    )


@dataclass(frozen=True)
class Quick:
    """The quick ranking a deep answer is set beside (the game's one-step advice):
    ``best``, its best choice named as the deep answer names its choices; ``what``,
    what it ranks by in words ("the exact points this turn"); ``horizon``, why it
    sees less than the rollouts ("they count this turn only"); ``tied``, the choices
    exactly as good as ``best`` by it."""

    best: str
    what: str
    horizon: str
    tied: tuple[str, ...] = ()


def follow_words(deep_best: str, deep_tied: Sequence[str], quick: Quick) -> str:
    """Which ranking to follow, in words: the quick one's best against the deep one's.
    They agree when the quick best is the deep best or tied with it (exactly, by the
    quick ranking); the quick best within noise of the deep best is no disagreement
    the rollouts can see; otherwise the deep ranking wins, because it plays the whole
    game out."""
    if deep_best == quick.best or deep_best in quick.tied:
        return f"Both rankings agree: {deep_best} is first by win chance and by {quick.what}."
    if quick.best in deep_tied:
        return (
            f"First by {quick.what}: {quick.best}; by win chance it is within noise of "
            f"{deep_best}, so either will do ({deep_best} is the better guess)."
        )
    return (
        f"The rankings differ. First by {quick.what}: {quick.best}; first by win chance: "
        f"{deep_best}. Follow the win chance: it plays the whole game out, while "
        f"{quick.horizon}."
    )


def answer(advice, to_json, table, verdict, quick: Quick | None = None) -> Answer:
    """A deep advice as a table question's :class:`Answer`: ``to_json()`` its JSON text,
    on the terminal ``table()``, ``verdict(advice)``, which ranking to follow when the
    game's ``quick`` one is given (:func:`follow_words`; in the JSON too, as
    ``quick_best``, ``quick_ranking``, ``quick_agrees`` and ``follow``), and the
    rollouts, time, seed and what was assumed."""
    rollouts = f"{advice.rollouts:,} rollouts in {advice.seconds:.1f} s, seed {advice.seed}. "

    def with_quick() -> tuple[str, str]:
        text = to_json()
        if quick is None:
            return text, ""
        data = json.loads(text)
        choices = data.get("choices") or []
        if not choices:
            return text, ""
        best = choices[0]["choice"]
        tied = list(data.get("within_noise_of_best") or [])
        words = follow_words(best, tied, quick)
        data.update(
            quick_best=quick.best,
            quick_ranking=quick.what,
            quick_agrees=best == quick.best or best in quick.tied,
            follow=words,
        )
        return json.dumps(data, indent=2), words

    def terminal():
        words = with_quick()[1]
        return [table(), verdict(advice), *([words] if words else []),
                rollouts + assumed_line(advice.assumed)]  # fmt: skip

    return Answer(advice, lambda: with_quick()[0], terminal)
