"""Integer codes shared by Python and the Colorful Treasure kernels.

Kernels see only these integers; names live here. ``-1`` is the empty sentinel
in every array that holds a card, a seat or a position.
"""

from enum import IntEnum


class Kind(IntEnum):
    """What a wonder card is (``docs/games/colorful_treasure.md``, "Components")."""

    GEM = 0
    DIAMOND = 1
    KEY = 2
    CHEST = 3


class Slot(IntEnum):
    """A card's place among its wonder's cards: card id = wonder * rows + slot."""

    GEM_A = 0
    GEM_B = 1
    GEM_C = 2
    DIAMOND = 3
    TREASURE = 4  #: absent in the young-player variant


class Reward(IntEnum):
    """The three reward cards, as recorded in the results and the trace."""

    GEM = 0
    EXPLORER = 1
    TREASURE = 2


class Plan(IntEnum):
    """How a strategy decides (the ``plan`` of each strategy code)."""

    RANDOM = 0  #: uniform among the legal choices
    EXPECT = 1  #: expected points from its memory and the columns' unseen cards
    #: EXPECT valuing steals as under the default ruling steal_pairs (= markers)
    #: whatever the ruling: the reference the ruling-aware EXPECT is measured
    #: against (studies/2026-11-25-rules-colorful-treasure/ct_rulings_players.py);
    #: no strategy uses it
    EXPECT_PLAIN = 2
    #: ``baseline``'s plan: today exactly EXPECT (the kernels ask only ``== RANDOM``
    #: and ``== EXPECT_PLAIN``, and its tile worth is its own, ``t.tile_worth_base``).
    #: A change to greedy's (EXPECT's) choice rules must be made under a test that
    #: leaves this plan out (``plan == Plan.EXPECT``, or a new plan), never in the
    #: shared code unconditionally: the frozen pinned runs of tests/games/test_pinned.py
    #: fail if it reaches baseline
    BASELINE = 3


#: strategy names, in code order; the parameter rows of the first four live in
#: ``data/players.toml``, baseline's is :data:`BASELINE_PARAMS`
STRATEGY_NAMES = ("random", "greedy", "perfect", "hunter", "baseline", "search")
#: the strategies before ``baseline``: the ``strategy`` column's categories unless a
#: seat plays it (tables of earlier runs unchanged), the rows of ``data/players.toml``
PLAYED_NAMES = STRATEGY_NAMES[:4]
#: strategies that take no ``strategy_params`` and no ``players.<name>`` override
FROZEN_STRATEGIES = ("baseline",)
#: plan of each strategy code
STRATEGY_PLANS = (Plan.RANDOM, Plan.EXPECT, Plan.EXPECT, Plan.EXPECT, Plan.BASELINE, Plan.EXPECT)
#: ``search`` plays ``greedy``'s row and plan except at the decisions it searches
#: (:mod:`~analyzer.colorful_treasure.search`); a slow strategy: never tuned
SEARCH = "search"
#: the strategy ``search`` plays where it does not search, and its rollouts' players
SEARCH_BASE = "greedy"
#: defaults of the settings (``strategy_params = {search = {budget = 64}}``):
#: name, default, what it is
SEARCH_PARAMS = (
    ("budget", 96.0, "rollouts per decision"),
    ("width", 6.0, "reveal choices kept for the rollouts (greedy's and the best by ev)"),
    ("margin", 0.01, "weight of the score margin (points) in a rollout's value"),
    ("z", 1.0, "standard errors another choice must beat greedy's by"),
)
#: the search player's own settings (``strategy_params = {search = {budget = 64}}``),
#: checked without numba
SEARCH_SETTINGS = {
    "budget": (2, 1_000_000, "a whole number from 2 to 1000000"),
    "width": (0, 64, "a whole number from 0 (every pair) to 64"),
    "margin": (0.0, 1.0, "a number from 0.0 to 1.0"),
    "z": (0.0, 10.0, "a number from 0.0 to 10.0"),
}


def search_settings(params: dict | None) -> dict[str, float]:
    """The ``search`` player's settings: its defaults (:data:`SEARCH_PARAMS`) with
    ``params["search"]`` applied (checked: ``strategy_params.search.<key>``;
    :func:`analyzer.kernels.search_settings.search_settings`, no engine loaded)."""
    from analyzer.kernels.search_settings import search_settings as checked

    return checked(params, SEARCH_PARAMS, SEARCH_SETTINGS, strict=True)


def check_param(name: str, key: str, val) -> None:
    """A value of ``strategy_params.<name>.<key>`` beyond "a number": ``recall``
    is a share of what was seen, 0.0 to 1.0."""
    if key == "recall" and not 0.0 <= val <= 1.0:
        from analyzer.core.errors import bad_value

        raise bad_value(f"strategy_params.{name}.recall", val, "0.0 to 1.0")


#: parameter names, in the order of a strategy's parameter row
PARAM_NAMES = ("recall", "treasure", "reward", "deny", "third")
P_RECALL, P_TREASURE, P_REWARD, P_DENY, P_THIRD = range(5)

#: ``baseline``'s parameter row (PARAM_NAMES order): greedy's row as shipped in
#: strategies version 1, frozen. Never tune or edit it: ratings of every version
#: are measured against it (a new yardstick needs a new strategy name).
BASELINE_PARAMS = (0.8, 0.0, 0.0, 0.0, 0.0)
#: ``baseline``'s worth of each action tile's effect (EFFECT_NAMES order): the
#: ``players.tile_worth`` of strategies version 1, frozen with its row
BASELINE_TILE_WORTH = (1.0, 1.5, 2.0, 4.0, 1.0, 1.0, 1.5, 1.5, 2.0)

#: cards revealed in one turn at most (the kernels' arrays are this long)
MAX_REVEALS = 4
#: scores are kept in 60ths of a point: a shared treasure reward splits evenly
#: among up to 6 tied players (60 = lcm(1, ..., 6))
SCALE = 60


class Effect(IntEnum):
    """What an action tile's side does (``data/tiles.toml``; docs/games/colorful_treasure.md,
    "Advanced rules: action tiles")."""

    PEEK_TWO = 0  #: look at one face-down card of each of ``amount`` wonders (x1)
    FOURTH_CARD = 1  #: reveal a fourth card this turn (x1)
    TWO_KINDS = 2  #: take two kinds of the revealed cards, no key or chest up (x1)
    TRUCE = 3  #: no one steals from the owner, the owner steals from no one
    PEEK_THREE = 4  #: look at up to ``amount`` face-down cards of one wonder (x1)
    IGNORE_TREASURE = 5  #: with keys or chests up, the owner may take a gem or diamond kind
    SIXTH_COLOUR = 6  #: one more gem colour for the gem reward
    GUARDED = 7  #: no one steals the owner's wonder cards
    WILD_MARKER = 8  #: counts as a key or a chest marker to make a pair (x1)


#: effect names as in ``data/tiles.toml``, in code order
EFFECT_NAMES = tuple(e.name.lower() for e in Effect)
#: effects that are always on while held (the others are used at a moment)
PASSIVE_EFFECTS = (Effect.TRUCE, Effect.IGNORE_TREASURE, Effect.SIXTH_COLOUR, Effect.GUARDED)
#: tiles a game may hold at most (the kernels keep sets of tiles as bits)
MAX_TILES = 16


#: restricted play's bars in ``Tables.seat_bar[seat]`` (analyzer.colorful_treasure.plugin
#: ``barrable``); all 0 as printed
BAR_STEAL = 0  #: 1: the seat never steals (its pairs are spent on nothing)
BAR_GEM = 1  #: 1: the seat may not take the gem reward
BAR_EXPLORER = 2  #: 1: the seat may not take the explorer reward
BAR_TILES = 3  #: bit i: the seat may not take action tile i
FORCE_TILES = 4  #: 1: the seat takes a tile whenever one is offered (forced, not barred)
#: 1: the seat's key and chest cards do not count for the treasure reward (the
#: majority is the other seats', and only they may share it)
BAR_TREASURE = 5
N_BARS = 6
