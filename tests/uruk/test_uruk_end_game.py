"""The end game seen (issue 39 item 3): the statistic of cards taken after Uruk's
end is triggered and never made, checked on hand-written traces."""

from __future__ import annotations

from analyzer.uruk import state as S
from analyzer.uruk.codes import Action
from analyzer.uruk.strategies_end import late_cards_from_trace

TAKE = int(Action.TAKE_CARD)
MAKE = int(Action.MAKE)

def _take(seat, card, options):
    """The rows of one take-a-card action chosen among ``options`` (Action kinds)."""
    rows = [(S.EV_OPTION_ACTION, 0, seat, k, 0, 0) for k in options]
    return rows + [(S.EV_ACTION, 0, seat, TAKE, 0, 0), (S.EV_TAKE_CARD, 0, seat, card, 0, 0)]


def test_cards_taken_after_the_end_and_never_made_are_counted():
    rows = (
        _take(0, 5, [TAKE, MAKE])  # before the end: never counted
        + [(S.EV_END, 0, 0, 0, 0, 0)]
        + _take(0, 7, [TAKE, MAKE])  # chosen, never made
        + _take(1, 3, [TAKE, TAKE])  # forced, never made
        + _take(1, 4, [TAKE, MAKE])  # chosen, then made
        + [(S.EV_MAKE, 0, 1, 4, -1, 0)]
        + _take(0, 9, [MAKE, TAKE])  # chosen, then paid in a colour pair
        + [(S.EV_PAIR, 0, 0, 2, 9, 1)]
        + [(S.EV_MAKE, 0, 0, 5, -1, 0)]  # made, but taken before the end
    )
    late = late_cards_from_trace(rows, 2)
    assert late[0].tolist() == [1, 1]  # seat 0: card 7; seat 1: card 3
    assert late[1].tolist() == [1, 0]  # only seat 0's was chosen


def test_a_card_made_by_another_seat_still_counts():
    rows = [(S.EV_END, 0, 0, 0, 0, 0), *_take(0, 7, [TAKE, MAKE]), (S.EV_MAKE, 0, 1, 7, -1, 0)]
    assert late_cards_from_trace(rows, 2).tolist() == [[1, 0], [1, 0]]
