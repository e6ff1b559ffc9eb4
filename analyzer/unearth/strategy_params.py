"""The strategies' codes and parameter rows (see :mod:`analyzer.unearth.strategies`).

A seat's strategy is an integer code (:class:`Strategy`) plus a float64
parameter row whose columns are the ``P_*`` indices below; the rows are data
(``data/strategies.toml``, by player count; :mod:`analyzer.unearth.defaults`).
No kernels here: the kernels read these constants.
"""

from enum import IntEnum

import numpy as np

from analyzer.unearth.defaults import BASELINE_ROW, PARAM_NAMES, STRATEGY_NAMES, default_row


class Strategy(IntEnum):
    RANDOM = 0
    CLAIMER = 1
    COLLECTOR = 2
    BALANCED = 3
    BASELINE = 4  #: balanced's evaluation with the frozen BASELINE_PARAMS row
    #: balanced's evaluation, its excavation rolls chosen by rollouts (:mod:`.search`;
    #: the kernels here treat it as balanced)
    SEARCH = 5


P_W_RUIN = 0  #: weight of a ruin's worth when I claim it
P_W_STONE = 1  #: points a stone is worth
P_RISK = 2  #: weight of an opponent's gain when I hand them a claim
P_LEAD = 3  #: weight of leading on an unclaimed ruin
P_W_CARD = 4  #: points a delver card in hand is worth
P_CARD_MIN = 5  #: smallest one-step gain (points) for which a card is played
P_PLACE = 6  #: stone placement: 0 compact, 1 plan rings
P_NAMED = 7  #: extra points credited to a named wonder with an ability
#: how much a card's worth (``w_card``, and the bar ``card_min`` a play must
#: clear) falls as the ruins run out: times ``1 - card_end * (1 - left)``,
#: ``left`` the share of the game's ruins not yet claimed (0: never falls)
P_CARD_END = 8
#: extra points of a stone when the seat's best open ring is nearly closed:
#: times 0 (2 or fewer stones around it) to 1 (5 around), 1.5 times that if
#: they are all one colour (a greater wonder)
P_STONE_RING = 9
#: points of rolling the seat's biggest die (the d8) while it has other dice to
#: roll: what that die is worth later in the round (0: nothing)
P_BIG_DIE = 10
#: named wonders valued by what they will bring (0: the flat credits of
#: ``baseline``; 1: the Memorial and Cenotaph by the ruins they can take, the
#: Flame by the cards it will draw; between: a blend of the two credits, and
#: above 0.5 a tie with the token goes to the wonder)
P_WONDER_FIT = 11
N_PARAMS = 12

#: ``baseline``'s parameter row: ``balanced``'s defaults as shipped before any
#: tuning, frozen. Never tune or edit it: ratings of every version are measured
#: against it (a new yardstick needs a new strategy name). Its last four columns
#: are 0: with them, the evaluation is the one it shipped with.
BASELINE_PARAMS = BASELINE_ROW
assert len(BASELINE_PARAMS) == N_PARAMS == len(PARAM_NAMES)


def default_params(players: int) -> np.ndarray:
    """float64[strategies, N_PARAMS]: every strategy's default row (Strategy
    order) at ``players`` seats, from ``data/strategies.toml``."""
    return np.array([default_row(name, players) for name in STRATEGY_NAMES], np.float64)


#: the default rows at 4 players (tests and tools that want one table)
DEFAULT_PARAMS = default_params(4)

#: strategies that take no ``strategy_params`` (their rows are frozen)
FROZEN_STRATEGIES = ("baseline",)
