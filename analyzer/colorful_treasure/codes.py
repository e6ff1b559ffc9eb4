"""Integer codes shared by Python and the Colorful Treasure kernels.

Kernels see only these integers; names live here. ``-1`` is the empty sentinel
in every array that holds a card, a seat or a position.
"""

from enum import IntEnum


class Kind(IntEnum):
    """What a wonder card is (``docs/rules/colorful-treasure.md``, "Components")."""

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


#: strategy names, in code order; the parameter rows live in ``data/players.toml``
STRATEGY_NAMES = ("random", "greedy", "perfect", "hunter")
#: plan of each strategy code
STRATEGY_PLANS = (Plan.RANDOM, Plan.EXPECT, Plan.EXPECT, Plan.EXPECT)
#: parameter names, in the order of a strategy's parameter row
PARAM_NAMES = ("recall", "treasure", "reward", "deny", "third")
P_RECALL, P_TREASURE, P_REWARD, P_DENY, P_THIRD = range(5)

#: cards revealed in one turn at most (the kernels' arrays are this long)
MAX_REVEALS = 4
#: scores are kept in 60ths of a point: a shared treasure reward splits evenly
#: among up to 6 tied players (60 = lcm(1, ..., 6))
SCALE = 60
