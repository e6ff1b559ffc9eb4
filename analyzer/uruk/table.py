"""Uruk's table question (``analyzer advise --game uruk``; ``docs/games/uruk.md``,
"Table advice"): its options and how Uruk answers it. The machinery that reads the
state, checks the options and builds the command is :mod:`analyzer.games.table`'s.

Cheap to import: the advice and deep modules are imported by the function that answers.
"""

from __future__ import annotations

from functools import partial

from analyzer.games.deep import Quick
from analyzer.games.deep import answer as deep_answer
from analyzer.games.table import Answer, Question, TableSpec, deep_options, on_state, ranking, top

ADVISE_HELP = """
Every choice of one decision of mine (my next action, or my secret bid against
a disaster), ranked by the tuned balanced player's own evaluation, with my
score change at once. The table state is a TOML file; --example prints a
documented one (docs/games/uruk.md, "Table advice").

Examples:

  analyzer advise --game uruk --example > uruk.toml

  analyzer advise --game uruk uruk.toml

  analyzer advise --game uruk uruk.toml --json

  analyzer advise --game uruk uruk.toml --deep --budget 4000 --seed 3

--deep plays every choice to the end of the game many times (rollouts, every
seat tuned balanced, what I cannot see dealt again at random in each rollout)
and ranks the choices by win chance, with expected final scores, 95% intervals,
the choices within noise of the best, and what it assumed. --budget is the
total number of rollouts (more: narrower intervals).
"""


def load(data: dict, where: str):
    """The :class:`analyzer.uruk.advise.TableState` of a state file's ``data``."""
    from analyzer.uruk.advise import parse_state
    from analyzer.uruk.rules import default_rules

    return parse_state(data, where, default_rules())


def advise(*, state, top, **_) -> Answer:
    """The choices of one decision ranked by tuned balanced's evaluation (one step)."""
    from analyzer.uruk import advise as lib
    from analyzer.uruk.rules import default_rules

    advice = lib.one_step(state, default_rules())
    table = partial(lib.render, advice, top or len(advice.choices))
    return ranking(advice, partial(lib.advice_json, advice), table, lib.verdict(advice),
                   advice.assumed)  # fmt: skip


def deep(*, state, budget, seed, top, **_) -> Answer:
    """The choices of one decision ranked by win chance from rollouts."""
    from analyzer.uruk import advise as lib
    from analyzer.uruk import deep as dlib
    from analyzer.uruk.rules import default_rules

    advice = dlib.deep_advice(state, default_rules(), budget=budget, seed=seed)
    table = partial(dlib.render, advice, top or len(advice.choices))
    quick = lib.one_step(state, default_rules())
    tied = tuple(quick.choices[i].choice for i in quick.within_noise)
    beside = Quick(quick.choices[0].choice, lib.RANKED_BY, lib.HORIZON, tied)
    return deep_answer(advice, partial(dlib.to_json, advice), table, dlib.verdict, beside)


TOP = top(20, "Choices shown (0: all; --json lists all).")
#: rollouts per second of the deep advice said before this machine has timed it (about
#: 5,900 measured on a loaded 2-core machine, the search's load included: halved)
DEEP_RATE = 3_000.0
ADVISE = Question(
    "advise", ADVISE_HELP, on_state(*deep_options(12_000), TOP), advise, deep, DEEP_RATE
)
#: Uruk's table question (declared to ``register_game`` as ``table``)
TABLE = TableSpec("analyzer.uruk", (ADVISE,), load)
