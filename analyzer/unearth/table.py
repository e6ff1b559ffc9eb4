"""Unearth's table questions (``analyzer odds``, ``analyzer advise``; ``docs/games/unearth.md``):
their options and how Unearth answers them. The machinery that reads the state,
checks the options and builds the commands is :mod:`analyzer.games.table`'s.

Cheap to import (the CLI reads it to build the commands): the odds, advice and
deep modules are imported by the functions that answer.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import NamedTuple

from analyzer.core.errors import Param
from analyzer.games.deep import Quick
from analyzer.games.deep import answer as deep_answer
from analyzer.games.table import (
    EXAMPLE,
    JSON,
    STATE,
    Answer,
    Option,
    Question,
    TableSpec,
    deep_options,
    note,
)

ODDS_HELP = """
Exact chance to claim a ruin, stones and consolation cards, per player: every
roll is enumerated (fractions, not samples). Dice with a value are on the ruin;
dice without one are rolled, in the order given. See docs/games/unearth.md.

Examples:

  analyzer odds --claim 13 --dice "blue:d6=5,blue:d6=3,red:d8"

  analyzer odds --claim 13 --dice "blue:d6=5,blue:d6=3,red:d8" --reading-the-stones --json

  analyzer odds --claim 15 --dice "me:d8,you:d6=6,you:d6=4" --ancient-map --wonder columns=me

  analyzer odds --claim 11 --dice "me:d6,me:d4" --event festival --chart odds.png

A question is priced before it runs (the rolls it enumerates and a pessimistic
time); one priced above a minute is refused unless --force is given. Ctrl-C
stops a running enumeration.
"""

ADVISE_HELP = """
Every legal (die, ruin) choice of my turn, ranked by my exact chance to claim
(or my expected stones with --goal stone), with the card in hand that helps
most. The table state is a TOML file; --example prints a documented one.

Examples:

  analyzer advise --example > table.toml

  analyzer advise table.toml

  analyzer advise table.toml --goal stone --json

  analyzer advise table.toml --deep

  analyzer advise table.toml --deep --budget 40000 --seed 3 --json

--deep plays every choice to the end of the game many times (rollouts of the
search player, every seat tuned balanced, the unknowns dealt at random) and ranks
the choices by win chance, with expected final scores, 95% intervals, the exact
claim odds beside, and what it assumed about the parts of the game the file does
not give. --budget is the total number of rollouts (more: narrower intervals).

Each exact question is priced first; one priced above a minute is refused
unless --force is given. Ctrl-C stops a running enumeration.
"""

GOAL = Option("goal", "--goal", "text", "claim", "What my choices maximise: claim|stone.")


class Table(NamedTuple):
    """A table state as the advice takes it: the checked state and the file's
    ``[wonders]`` as written (the deep advice gives their owners every named wonder)."""

    state: object  #: :class:`analyzer.unearth.advise.TableState`
    wonders: dict


def load(data: dict, where: str) -> Table:
    """The table state of a state file's ``data`` (errors name ``where``)."""
    from analyzer.unearth.advise import parse_state
    from analyzer.unearth.rules import default_rules

    return Table(parse_state(data, where, default_rules()), data.get("wonders", {}))


def _limit(force: bool):
    """No price limit for the block when ``force`` (``--force``)."""
    from analyzer.unearth import odds_cost

    return odds_cost.no_limit() if force else contextlib.nullcontext()


def odds(
    *,
    claim,
    dice,
    me,
    ruin_stones,
    bag,
    reading_the_stones,
    ancestral_claim,
    ancient_map,
    event,
    wonder,
    goal,
    chart,
    force,
) -> Answer:
    """Exact odds of one ruin (``analyzer odds``)."""
    from analyzer.unearth import odds as lib
    from analyzer.unearth import odds_cost
    from analyzer.unearth.rules import default_rules

    rules = default_rules()
    question = lib.OddsQuestion(
        claim_value=lib.parse_int(Param("claim"), claim, minimum=1, required=True),
        dice=lib.parse_dice(dice, rules, Param("dice")),
        me=me,
        ruin_stones=lib.parse_int(Param("ruin_stones"), ruin_stones),
        bag=lib.parse_int(Param("bag"), bag),
        reading_the_stones=reading_the_stones,
        ancestral_claim=ancestral_claim,
        ancient_map=ancient_map,
        event=event,
        wonders=tuple(lib.parse_wonder(w, rules, Param("wonder")) for w in wonder or ()),
        goal=goal,
    )
    lib.check_me(question, Param("me"))
    cost = odds_cost.estimate(question, rules)  # checks the question whole
    lib.check_reachable(question, Param("claim"), rules)
    if cost.seconds > odds_cost.FORK_S and (force or cost.seconds <= odds_cost.LIMIT_S):
        note(f"odds: enumerating {cost.describe()}; Ctrl-C stops it")
    with _limit(force):
        result = odds_cost.exact_odds(question, rules)
    if chart is not None:
        lib.write_chart(result, chart)

    def terminal():
        return [*lib.render_odds(result), *([f"chart written to {chart}"] if chart else [])]

    return Answer(result, result.to_json, terminal)


def _choices(table, goal, force) -> list:
    """Every excavation choice of ``table`` ranked by its exact odds for ``goal``."""
    from analyzer.unearth import advise as lib

    with _limit(force):
        return lib.advise(table, None, goal=goal)


def advise(*, state: Table, goal, force, **_) -> Answer:
    """My excavation choices ranked by my exact chance to claim (or stones: ``goal``)."""
    from analyzer.unearth import advise as lib

    choices = _choices(state.state, goal, force)
    return Answer(
        choices,
        partial(lib.advice_json, state.state, choices, goal),
        lambda: [lib.render_advice(state.state, choices), lib.verdict(choices)],
    )


def deep(*, state: Table, goal, force, budget, seed, players, **_) -> Answer:
    """My excavation choices ranked by win chance from rollouts, the exact odds beside."""
    from analyzer.unearth import deep as dlib

    choices = _choices(state.state, goal, force)
    order = [p.strip() for p in players.split(",") if p.strip()] if players else None
    advice = dlib.deep_advice(state.state, state.wonders, budget=budget, seed=seed, players=order)
    exact = {(c.die.split(" ")[0], c.from_ruin, c.ruin): c.p_claim for c in choices}
    to_json, table = partial(dlib.to_json, advice, exact), partial(dlib.render, advice, exact)
    return deep_answer(advice, to_json, table, dlib.verdict, _quick(choices, advice))


def _quick(choices, advice) -> Quick | None:
    """The exact ranking's best, named as the deep advice names its choices."""
    from analyzer.unearth import advise as lib
    from analyzer.unearth import deep as dlib

    if not choices:
        return None

    def key(c):
        return (c.die.split(" ")[0], c.from_ruin, c.ruin)

    deep_name = {key(c): dlib.choice_name(c) for c in advice.choices}

    def name(c):
        return deep_name.get(key(c), f"{c.die} on {c.ruin}")

    tied = tuple(name(c) for c in lib.tied_with_best(choices))
    return Quick(name(choices[0]), lib.RANKED_BY, lib.HORIZON, tied)


ODDS = Question(
    "odds",
    ODDS_HELP,
    (
        Option("claim", "--claim", help="Claim value of the ruin (required)."),
        Option(
            "dice",
            "--dice",
            help="Dice as PLAYER:dFACES[=VALUE], comma-separated; no value: rolled, in order.",
        ),
        Option("me", "--me", help="Asking player (default: owner of the first unknown die)."),
        Option("ruin_stones", "--ruin-stones", help="Stones on the ruin."),
        Option("bag", "--bag", help="Stones in the bag."),
        Option(
            "reading_the_stones",
            "--reading-the-stones",
            "flag",
            False,
            "Play Reading the Stones (+1/-1 after the roll).",
        ),
        Option(
            "ancestral_claim",
            "--ancestral-claim",
            "flag",
            False,
            "Play Ancestral Claim (+2 on my next d6).",
        ),
        Option(
            "ancient_map",
            "--ancient-map",
            "flag",
            False,
            "Play Ancient Map (reroll my first die once).",
        ),
        Option("event", "--event", help="Active event: gathering or festival."),
        Option(
            "wonder",
            "--wonder",
            "texts",
            help="Named wonder owned: college|columns|edifice|sanctuary=PLAYER (repeatable).",
        ),
        GOAL,
        JSON,
        Option("chart", "--chart", "path", help="Write a bar chart (PNG) here."),
        Option(
            "force",
            "--force",
            "flag",
            False,
            "Run an enumeration priced above a minute anyway.",
        ),
    ),
    odds,
)
ADVISE = Question(
    "advise",
    ADVISE_HELP,
    (
        STATE,
        EXAMPLE,
        GOAL,
        JSON,
        Option(
            "force",
            "--force",
            "flag",
            False,
            "Run enumerations priced above a minute anyway.",
        ),
        *deep_options(12_000),
        Option(
            "players",
            "--players",
            help="With --deep: the other players in turn order after me, "
            "comma-separated (default: as they appear in the file).",
            show_default=False,
            deep_only=True,
        ),
    ),
    advise,
    deep,
)
#: Unearth's table questions (declared to ``register_game`` as ``table``)
TABLE = TableSpec("analyzer.unearth", (ODDS, ADVISE), load)
