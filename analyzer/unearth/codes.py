"""Integer codes shared by Python and the Unearth kernels.

Kernels see only these integers; names live here. ``-1`` is the empty sentinel
in every array that holds one of these codes or an index.
"""

from enum import IntEnum


class ClaimResult(IntEnum):
    """Outcome of checking one ruin; a claimed ruin returns the seat (>= 0) instead."""

    NO_CLAIM = -1  #: total of dice below the claim value
    TIE = -2  #: claimed total reached, best two players equal all the way down


class CardKind(IntEnum):
    """Kinds of card in the ruins deck (ruins, then the end-of-age cards)."""

    RUIN = 0
    CITY = 1  #: an end-of-age ruin: no colour, scores its points
    EVENT = 2  #: an end-of-age event: takes effect, the slot stays empty


class EventEffect(IntEnum):
    NONE = 0
    DAY_OF_REST = 1  #: every player draws `amount` delver cards
    ROLL_MODIFIER = 2  #: every die rolled from now on gets `amount`


class Delver(IntEnum):
    """Delver card effects (the ``effect`` key of ``data/delvers.toml``)."""

    ANCIENT_MAP = 0
    BAND_OF_DELVERS = 1
    RESTORATION = 2
    ANCESTRAL_CLAIM = 3
    FORGOTTEN_SONG = 4
    FORLORN = 5
    LOST_IN_THE_RUINS = 6
    READING_THE_STONES = 7
    A_NEW_DISCOVERY = 8
    EXPEDITION = 9


class Formula(IntEnum):
    """Named-wonder formula kinds (``formula.kind`` in ``data/named_wonders.toml``)."""

    AT_LEAST = 0
    ALL_COLOURS = 1
    TWO_THREES = 2
    THREE_TWOS = 3
    SIX_ALIKE = 4
    ANY = 5


class WonderEffect(IntEnum):
    """Named-wonder abilities (``effect`` in ``data/named_wonders.toml``)."""

    NONE = 0
    COLLEGE = 1  #: your d8 rolls may get +1
    COLUMNS = 2  #: any die you roll may get -1
    EDIFICE = 3  #: you may reroll your rolls of 4 and 5
    FLAME = 4  #: a ruin you have no dice on is claimed: you may draw a delver card
    TEMPLE_BLACK = 5
    TEMPLE_RED = 6
    TEMPLE_BLUE = 7
    TEMPLE_YELLOW = 8
    TOMB = 9
    FOUNTAIN = 10
    LIBRARY = 11  #: drawing from the bag: draw 2, keep 1
    SANCTUARY = 12  #: roll matches a value on that ruin: may get +1 or -1
    CENOTAPH = 13  #: at once: a random removed ruin joins your scoring ruins
    MEMORIAL = 14  #: at once: choose a removed ruin for your scoring ruins


class WonderBonus(IntEnum):
    ONCE = 0  #: English: +points once for threshold or more wonders
    PER_THRESHOLD = 1  #: German: +points for every threshold wonders


class TombMode(IntEnum):
    STONE_COLOURS = 0  #: English: +1 per stone colour in your tableau
    RUIN_COLOURS = 1  #: German: +1 per ruin colour you hold


class WonderKind(IntEnum):
    LESSER = 0
    GREATER = 1
    NAMED = 2
