"""Decisions of the simulated players (``docs/games/colorful_treasure.md``,
"Players and memory").

A strategy sees what a person at the table sees: which places still hold a
card, the cards face up now, every card taken (so what is left of each wonder),
and what it remembers (``s.mem``; ``s.kn`` marks the cards it may still
remember). Its view is two card masks (:mod:`.bits`): the face-down cards it
remembers (``kf``, from :func:`seat_memory`) and the cards of the grid it does
not know (``unk``: neither remembered nor face up; :func:`seat_view`). The
unknown cards of a wonder are those of its column's masks' bits; no decision
reads the card at a face-down place it does not know. To reveal an unknown card
of a wonder it picks uniformly among that column's face-down places that hold
no card it remembers (:func:`pick_unknown`).

Two plans (:class:`~analyzer.colorful_treasure.codes.Plan`):

- ``RANDOM``: uniform among the legal choices at every decision;
- ``EXPECT``: expected value of each choice, from its knowledge: a known card
  is certain, an unknown place of a wonder holds each of the wonder's unknown
  cards with equal chance (exact for perfect memory, and for any memory that
  forgets independently of what the card is). Values are points gained now
  (cards, rewards completed, a steal's own gain), what a key or chest card changes
  in the seat's chance of the treasure majority (:func:`majority_value`; strategies
  version 2, not for ``baseline``), plus the strategy's weights:
  ``treasure`` per key or chest card, ``reward`` per step towards an open
  reward, ``deny`` times what a steal takes from the victim. ``third`` is the
  least gain for an extra reveal. ``greedy``, ``perfect`` and ``hunter`` are
  ``EXPECT`` rows of ``data/players.toml``.

Slots: a candidate reveal is a known card (``slot >= 0``, the card id) or "an
unknown place of wonder ``w``" (``slot = -1 - w``). Slots are ranked known
cards first, by card id, then the wonders in order; every choice among slots
of equal value takes the first.

Classes: what a card is worth to a seat depends only on its kind
(``t.card_key``: gem colour, diamond, key, chest) and on whether the seat holds
no card of its wonder yet: ``class = 2 * card_key + new`` (:func:`card_class`).
A wonder has one card of each kind, so two cards of one kind lie in different
wonders; the values of one, two or three cards are therefore functions of
their classes (:func:`one_value`, :func:`pair_value`, :func:`extra_value`),
each equal to :func:`take_value` of such cards (tests hold them to it).

The kernels live by what they decide: :mod:`.strategy_memory` (what a seat
knows), :mod:`.strategy_values` (what cards and steals are worth),
:mod:`.strategy_reveals` (the first reveals) and :mod:`.strategy_decisions` (the
rest of the turn); this module gathers their names.
"""

from analyzer.colorful_treasure.strategy_decisions import (
    _fewest_wonder,
    _first_of_kind,
    choose_extra,
    choose_kind,
    choose_steal,
    steal_card,
)
from analyzer.colorful_treasure.strategy_memory import (
    _slot_cards,
    _slot_wonder,
    card_class,
    column_mask,
    pick_unknown,
    recount_memory,
    seat_memory,
    slot_place,
)
from analyzer.colorful_treasure.strategy_reveals import (
    NO_SLOT,
    ONE,
    _best_of,
    _column_aim,
    _first_of,
    _known_top,
    _random_face_down,
    choose_first,
    col_best,
    column_sets,
    ev_one,
    ev_two,
    ev_two_plain,
    first_slots,
    target_pair,
    top_slot,
)
from analyzer.colorful_treasure.strategy_values import (
    EXPLORER_STEP,
    MAJORITY_GRAIN,
    MAJORITY_SCALE,
    MAJORITY_SPREAD,
    NEG,
    _group,
    _own_best_steal,
    _set_value,
    _treasure,
    best_steal,
    chain_steal,
    extra_value,
    extra_values,
    group_value,
    majority_value,
    one_value,
    pair_kind,
    pair_value,
    seat_values,
    steal_value,
    take_value,
    treasure_value,
    up_counts,
)

__all__ = [
    "EXPLORER_STEP",
    "MAJORITY_GRAIN",
    "MAJORITY_SCALE",
    "MAJORITY_SPREAD",
    "NEG",
    "NO_SLOT",
    "ONE",
    "_best_of",
    "_column_aim",
    "_fewest_wonder",
    "_first_of",
    "_first_of_kind",
    "_group",
    "_known_top",
    "_own_best_steal",
    "_random_face_down",
    "_set_value",
    "_slot_cards",
    "_slot_wonder",
    "_treasure",
    "best_steal",
    "card_class",
    "chain_steal",
    "choose_extra",
    "choose_first",
    "choose_kind",
    "choose_steal",
    "col_best",
    "column_mask",
    "column_sets",
    "ev_one",
    "ev_two",
    "ev_two_plain",
    "extra_value",
    "extra_values",
    "first_slots",
    "group_value",
    "majority_value",
    "one_value",
    "pair_kind",
    "pair_value",
    "pick_unknown",
    "recount_memory",
    "seat_memory",
    "seat_values",
    "slot_place",
    "steal_card",
    "steal_value",
    "take_value",
    "target_pair",
    "top_slot",
    "treasure_value",
    "up_counts",
]
