"""Strategies: every decision a player makes, inside numba.

Implements the choices of ``docs/games/unearth.md`` ("A turn", "Delver cards",
"Stones, rings and wonders"). A seat's strategy is an integer code
(:class:`Strategy`) plus a float64 parameter row (``P_*`` indices below):

- ``random``: uniform among the legal choices at every decision (dice, ruins,
  card plays and their targets, stone colours and cells, wonders, values).
- ``claimer``: the ruin path. The evaluation below with a row tuned for ruins
  (a stone's base worth ``w_stone`` searched only up to 1) and one rule of its own: it never puts a
  stone on a ring centre it could still close (3 or more stones around, no
  wonder next to it), unless every legal cell is one.
- ``collector``: the stone path. A row tuned under the constraint that at least
  a third of its points come from wonders (tokens, named wonders, the bonus).
- ``balanced``: the row tuned for the most wins, with nothing imposed.
- ``baseline``: ``balanced`` with the default parameters it shipped with until issue 12
  (:data:`BASELINE_PARAMS`), frozen: a yardstick for ratings across versions.
  The kernels treat it exactly as ``balanced`` (they only ask ``== RANDOM`` and
  ``== CLAIMER``).

The rows are data (``data/strategies.toml``, by player count, each with the
``analyzer tune`` command that made it; :mod:`analyzer.unearth.defaults`).

The value of a situation for seat ``p`` (in points, roughly):

- a ruin claimed by ``p``: ``W_RUIN * worth(p, ruin)`` (marginal set points,
  five-colour sets, city points; ``p`` knows its own hidden ruin);
- claimed by another seat ``w``: ``-RISK * worth(w, ruin)`` from what ``w`` shows
  (a strategy never sees another seat's hidden ruin) plus ``W_CARD`` per
  consolation card;
- not claimed: ``LEAD * worth(p, ruin) * total / claim`` if ``p`` leads there;
- a stone: ``W_STONE``, plus ``STONE_RING`` times how close ``p``'s best open
  ring is (:func:`ring_closeness`);
- a card kept: ``W_CARD``, falling towards 0 as the ruins run out (``CARD_END``).

Rolling the biggest die while other dice wait costs (or, negative, earns)
``BIG_DIE``. Named wonders are valued by their points and what they bring
(``WONDER_FIT``: the Memorial and Cenotaph by the ruins they can take, as far as
``p`` can know them, the Flame by the cards it will draw).

Strategies see only public information and their own hand/hidden ruin.

The kernels live by the decision they make: :mod:`analyzer.unearth.strategy_params`
(the codes and rows), :mod:`analyzer.unearth.strategy_worth` (the evaluation),
:mod:`analyzer.unearth.strategy_excavation`, :mod:`analyzer.unearth.strategy_stones`
and :mod:`analyzer.unearth.strategy_delvers`; this module gathers their names.
"""

from analyzer.unearth.defaults import STRATEGY_NAMES
from analyzer.unearth.strategy_delvers import (
    _bound_at_most,
    _can_roll_faces,
    _die_change_gain,
    _die_values_once,
    _excavation_with,
    _legal,
    _popcount,
    _reroll_gain,
    choose_play,
    die_values,
)
from analyzer.unearth.strategy_excavation import (
    _best_roll_pruned,
    _bit_index,
    _cached_value,
    _check_env,
    _die_cost,
    _face_gain,
    _fill_values,
    _first_of_its_faces,
    _gain_bound,
    _gain_for_mask,
    _gain_row,
    _note_summary,
    _pack_dice,
    _pool_empty,
    _roll_ev,
    _roll_gain,
    _sort_pairs,
    best_excavation,
    break_stall,
    choose_excavation,
    choose_expedition_slot,
    choose_value,
    choose_value_of_other,
    fill_slot_cache,
    random_slot,
    want_reroll,
)
from analyzer.unearth.strategy_params import (
    BASELINE_PARAMS,
    DEFAULT_PARAMS,
    FROZEN_STRATEGIES,
    N_PARAMS,
    P_BIG_DIE,
    P_CARD_END,
    P_CARD_MIN,
    P_LEAD,
    P_NAMED,
    P_PLACE,
    P_RISK,
    P_STONE_RING,
    P_W_CARD,
    P_W_RUIN,
    P_W_STONE,
    P_WONDER_FIT,
    Strategy,
    default_params,
)
from analyzer.unearth.strategy_stones import (
    _open_centre,
    _removed_worth,
    choose_cell,
    choose_colour,
    choose_memorial,
    choose_named,
    claimer_cells,
    may_build,
    pile_worth,
    score_cells,
)
from analyzer.unearth.strategy_worth import (
    _insert_rank,
    _keep_best_two,
    _push_key,
    _ring_around,
    _slot_value_for,
    _value,
    _value_if,
    colour_worth,
    config_value,
    refresh_params,
    ring_closeness,
    ruin_worth,
    ruins_left,
    slot_info,
    stone_available,
)

__all__ = [
    "STRATEGY_NAMES",
    "BASELINE_PARAMS",
    "DEFAULT_PARAMS",
    "FROZEN_STRATEGIES",
    "N_PARAMS",
    "P_BIG_DIE",
    "P_CARD_END",
    "P_CARD_MIN",
    "P_LEAD",
    "P_NAMED",
    "P_PLACE",
    "P_RISK",
    "P_STONE_RING",
    "P_WONDER_FIT",
    "P_W_CARD",
    "P_W_RUIN",
    "P_W_STONE",
    "Strategy",
    "_best_roll_pruned",
    "_bit_index",
    "_bound_at_most",
    "_cached_value",
    "_can_roll_faces",
    "_check_env",
    "_die_change_gain",
    "_die_cost",
    "_die_values_once",
    "_excavation_with",
    "_face_gain",
    "_fill_values",
    "_first_of_its_faces",
    "_gain_bound",
    "_gain_for_mask",
    "_gain_row",
    "_insert_rank",
    "_keep_best_two",
    "_legal",
    "_note_summary",
    "_open_centre",
    "_pack_dice",
    "_pool_empty",
    "_popcount",
    "_push_key",
    "_removed_worth",
    "_reroll_gain",
    "_ring_around",
    "_roll_ev",
    "_roll_gain",
    "_slot_value_for",
    "_sort_pairs",
    "_value",
    "_value_if",
    "best_excavation",
    "break_stall",
    "choose_cell",
    "choose_colour",
    "choose_excavation",
    "choose_expedition_slot",
    "choose_memorial",
    "choose_named",
    "choose_play",
    "choose_value",
    "choose_value_of_other",
    "claimer_cells",
    "colour_worth",
    "config_value",
    "default_params",
    "die_values",
    "fill_slot_cache",
    "may_build",
    "pile_worth",
    "random_slot",
    "refresh_params",
    "ring_closeness",
    "ruin_worth",
    "ruins_left",
    "score_cells",
    "slot_info",
    "stone_available",
    "want_reroll",
]
