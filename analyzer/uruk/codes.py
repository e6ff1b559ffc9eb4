"""Integer codes shared by Python and the Uruk kernels.

Kernels see only these integers; names live here and in the data files. ``-1`` is
the empty sentinel in every array holding a card, invention, slot or seat.

Card codes: ``0 .. n_inventions-1`` are inventions (the index of the row in
``data/inventions.toml``), ``n_inventions + k`` is god/disaster card ``k`` (the
row of ``data/gods.toml``).
"""

from enum import IntEnum


class Effect(IntEnum):
    """The effect vocabulary of an invention (``effect`` in ``data/inventions.toml``)."""

    NONE = 0
    TAKE_RESOURCES = 1  #: more resources when taking resources
    MAKE_DISCOUNT = 2  #: fewer cards when making an invention
    SETTLEMENT_DISCOUNT = 3  #: fewer resources for a settlement stone
    CARD_ACTION = 4  #: an action printed on the card
    END_POINTS = 5  #: points at the end
    BID_BONUS = 6  #: added to its owner's bids


class CardAction(IntEnum):
    """The ``action`` of a ``card_action`` invention."""

    TAKE_ANY = 0  #: take `amount` resources of any colours from the pool
    DRAW = 1  #: draw `amount` cards from the deck


class Counts(IntEnum):
    """What an ``end_points`` invention counts."""

    INVENTIONS = 0
    VILLAGES = 1
    CITIES = 2
    RESOURCES = 3
    COLOUR_INVENTIONS = 4  #: displayed inventions of the card's colour


class GodKind(IntEnum):
    """How a god or disaster card is decided (``kind`` in ``data/gods.toml``;
    ``docs/games/uruk.md``, "Gods and disasters")."""

    AUCTION = 0  #: an open auction in rounds of hand cards; the winner gets the god
    FEWEST = 1  #: the seat with the fewest settlement stones gets the bonus (a tie: the lesser)
    EVERYONE = 2  #: every seat gets it
    DISASTER = 3  #: secret bids of resources: the highest are spared, the others suffer


class GodEffect(IntEnum):
    """What a god or disaster card does (``effect`` in ``data/gods.toml``)."""

    PLACE_INVENTION = 0
    RESOURCES = 1
    CITY_POINTS = 2
    GIBIL = 3
    MARDUK = 4
    NANNAR = 5
    CARD_OR_RESOURCE = 6
    DROUGHT = 7
    EARTHQUAKE = 8
    ERUPTION = 9


class EpochCost(IntEnum):
    """How an epoch card's stone is paid (``cost`` in ``data/epochs.toml``)."""

    LEVEL = 0  #: the invention's colour, as many as its level
    DIFFERENT = 1  #: `per_colour` of each of `colours` different colours


class Action(IntEnum):
    """The actions of a turn (docs/games/uruk.md, "A turn")."""

    TAKE_CARD = 0  #: a = display slot 0..2, or 3 for the top of the deck
    MAKE = 1  #: a = invention, b = own slot to replace (-1: a free slot)
    TAKE_RESOURCES = 2  #: a = own slot whose invention gives the colour, b = 1: use its function
    TRADE = 3  #: a = bit mask of inventions whose hand cards are traded
    SETTLE = 4  #: a = own slot (village if empty, city if a village stands there)
    CARD_ACTION = 5  #: a = own slot of the card-action invention


#: applies_to / colour parameter values besides a colour index
OWN = -1
ANY = -2


#: restricted play's bars in ``Tables.seat_bar`` (analyzer.uruk.plugin ``barrable``)
BAR_TRADE = 0  #: the seat never trades hand cards for resources
BAR_GODS = 1  #: the seat never bids in a god's open auction (it passes at once)
N_BARS = 2
