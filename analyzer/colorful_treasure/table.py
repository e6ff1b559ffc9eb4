"""Colorful Treasure's table questions (``analyzer odds|advise --game
colorful_treasure``; ``docs/games/colorful_treasure.md``): their options and how the game answers
them. The machinery that reads the state, checks the options and builds the
commands is :mod:`analyzer.games.table`'s.

Cheap to import: the odds and deep modules are imported by the functions that answer.
"""

from __future__ import annotations

from functools import partial

from analyzer.games.deep import Quick
from analyzer.games.deep import answer as deep_answer
from analyzer.games.table import (
    Answer,
    Question,
    Recent,
    TableSpec,
    assumed_line,
    deep_options,
    on_state,
    ranking,
    top,
)

ODDS_HELP = """
Exact odds of my turn of Colorful Treasure from what I know: for each face-down
place, the chance of each card (a gem colour, diamond, key, chest) given the
cards gone and the ones I remember; for each choice of the cards to reveal
first, the expected points this turn (fractions, not samples). The table state
is a TOML file; --example prints a documented one.

Examples:

  analyzer odds --game colorful_treasure --example > turn.toml

  analyzer odds --game colorful_treasure turn.toml

  analyzer odds --game colorful_treasure turn.toml --json --top 0
"""

ADVISE_HELP = """
Every choice of the cards to reveal first this turn, ranked by exact expected
points this turn (the third card then revealed when it raises them, the best
kind taken), from what I know: the cards gone and the ones I remember. The
table state is a TOML file; --example prints a documented one. Choices tied
with the best are named as within noise (exactly equal).

--deep ranks the same choices by win chance and expected final score instead:
each is played to the end of the game many times (rollouts of the search
player, every seat then playing tuned greedy), on the same dealt copies for
every choice; what I do not remember is dealt again in every rollout. It says
what it assumed about the parts of the game the file does not give (who holds
the cards gone, ...) and which choices are within noise of the best (their
paired 95% interval includes 0). About 3 CPU-s at the default budget.

Examples:

  analyzer advise --game colorful_treasure --example > turn.toml

  analyzer advise --game colorful_treasure turn.toml

  analyzer advise --game colorful_treasure turn.toml --json

  analyzer advise --game colorful_treasure turn.toml --deep

  analyzer advise --game colorful_treasure turn.toml --deep --budget 200000 --seed 3 --json
"""


def load(data: dict, where: str):
    """The :class:`analyzer.colorful_treasure.odds.TurnState` of a state file's ``data``."""
    from analyzer.colorful_treasure.odds import state_from_dict

    return state_from_dict(data, where)


def _turn_odds(state):
    from analyzer.colorful_treasure import odds as lib

    return lib.turn_odds(state)


#: the exact search of the last table states (odds and advice of one state, as a
#: table page asks them together, search once)
TURN_ODDS = Recent(_turn_odds)


def odds(*, state, top) -> Answer:
    """Exact odds of my turn: each face-down place's cards, each reveal choice's
    expected points (the terminal shows the ``top`` best)."""
    from analyzer.colorful_treasure import odds as lib

    result = TURN_ODDS(state)

    def terminal():
        return [*lib.render(result, top or len(result.choices)), assumed_line(result.assumed)]

    return Answer(result, lambda: lib.to_json(result), terminal)


def advise(*, state, top, **_) -> Answer:
    """The reveal choices ranked by exact expected points this turn."""
    from analyzer.colorful_treasure import odds as lib

    result = TURN_ODDS(state)
    table = partial(lambda n: lib.render(result, n)[1], top or len(result.choices))
    return ranking(result, partial(lib.advice_json, result), table, lib.advice_verdict(result),
                   result.assumed)  # fmt: skip


def deep(*, state, budget, seed, **_) -> Answer:
    """The reveal choices ranked by win chance from rollouts, the exact points beside."""
    from analyzer.colorful_treasure import deep as dlib

    advice, exact = dlib.deep_advice(state, budget=budget, seed=seed), dlib.exact_points(state)
    to_json, table = partial(dlib.to_json, advice, exact), partial(dlib.render, advice, exact)
    return deep_answer(advice, to_json, table, dlib.verdict, quick(TURN_ODDS(state)))


def quick(result) -> Quick:
    """The exact ranking's best (and its exact ties), to set the deep one beside."""
    from analyzer.colorful_treasure import odds as lib

    tied = tuple(result.choices[i].name for i in lib.within_noise(result))
    return Quick(
        result.choices[0].name, lib.RANKED_BY, "the exact points count this turn only", tied
    )


ODDS = Question(
    "odds",
    ODDS_HELP,
    on_state(top(10, "Reveal choices shown (0: all; --json always lists all).")),
    odds,
)
TOP = top(10, "Choices shown (0: all).")
#: rollouts per second of the deep advice said before this machine has timed it (about
#: 34,000 measured on a loaded 2-core machine, the search's load included: halved)
DEEP_RATE = 15_000.0
ADVISE = Question(
    "advise", ADVISE_HELP, on_state(*deep_options(60_000), TOP), advise, deep, DEEP_RATE
)
#: Colorful Treasure's table questions (declared to ``register_game`` as ``table``)
TABLE = TableSpec("analyzer.colorful_treasure", (ODDS, ADVISE), load)
