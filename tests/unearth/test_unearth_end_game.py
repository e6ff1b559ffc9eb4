"""The end game seen (issue 39 item 3) in Unearth: once the end-of-age card is
revealed, the default gives up no wonder it could close for a ring that has no
time left.

:func:`analyzer.unearth.end_game.late_stones_from_trace` is checked on
hand-written traces and, over whole games, against the engine's own rings (a
stone it says closes a ring is followed by the engine's wonder, and only then);
the bound is held over 1,000 games per player count, and ``random``, which puts
its stones anywhere, is shown to break it (the statistic can fail).
"""

from __future__ import annotations

import pytest

from analyzer.unearth import state as S
from analyzer.unearth.end_game import closes_ring, late_stone_share, late_stones_from_trace
from analyzer.unearth.game import make_job, play_raw
from analyzer.unearth.hexgrid import MIDDLE, NEIGHBOURS
from analyzer.unearth.replay import DEFAULT_TRACE_ROWS

#: at most this share of the default's seats places a stone after the end is
#: certain on a cell closing no ring while another cell would have closed one
BOUND = 0.05

EOA = 27  # the end-of-age card of the hand-written traces
RING = [int(x) for x in NEIGHBOURS[MIDDLE]]  # the six cells around the middle


def _stone(seat, cell, turn=1):
    return (S.EV_STONE, turn, seat, 0, cell, 0, 1, 0)


def _far_cell():
    """A cell touching the ring's first stone, outside the ring and off its centre."""
    return next(
        int(x) for x in NEIGHBOURS[RING[0]] if x >= 0 and int(x) not in RING and x != MIDDLE
    )


def test_a_ring_given_up_after_the_end_is_counted():
    # seat 0 lays five stones of the ring around the middle before the end
    before = [(S.EV_EOA_CARD, 0, -1, EOA, 0, 0, 0, 0)] + [_stone(0, c) for c in RING[:5]]
    end = [(S.EV_REVEAL, 2, -1, 3, EOA, 0, 0, 0)]
    far = _far_cell()
    assert closes_ring(set(RING[:5]), set(), RING[5])
    assert not closes_ring(set(RING[:5]), set(), far)
    # after the end, a stone elsewhere while the sixth would close the ring: counted
    given_up = before + end + [_stone(0, far, 3)]
    assert late_stones_from_trace(given_up, 2).tolist() == [[1, 0], [1, 0]]
    # the same stone before the end is certain: not counted
    early = before + [_stone(0, far, 1)] + end
    assert late_stones_from_trace(early, 2).tolist() == [[0, 0], [0, 0]]
    # closing it: not counted; an event end-of-age card (EV_EVENT) ends it too
    closed = before + [(S.EV_EVENT, 2, -1, EOA, 0, 0, 0, 0), _stone(0, RING[5], 3)]
    assert late_stones_from_trace(closed, 2).tolist() == [[0, 0], [0, 0]]
    # another seat's ring is not seat 1's to close
    other = before + end + [_stone(1, MIDDLE, 3), _stone(1, RING[0], 3)]
    assert late_stones_from_trace(other, 2).tolist() == [[0, 0], [0, 0]]


def test_a_given_up_stone_that_a_later_ring_holds_bought_something():
    far = _far_cell()
    # the ring around ``far``'s neighbour centre: given up at first, closed later
    rows = [(S.EV_EOA_CARD, 0, -1, EOA, 0, 0, 0, 0)] + [_stone(0, c) for c in RING[:5]]
    rows += [(S.EV_EVENT, 2, -1, EOA, 0, 0, 0, 0), _stone(0, far, 3)]
    centre = next(int(x) for x in NEIGHBOURS[far] if x >= 0 and int(x) not in RING and x != MIDDLE)
    rows += [(S.EV_WONDER, 5, 0, centre, 2, 3, 0, 0)]  # a ring around ``centre`` closed
    assert far in [int(x) for x in NEIGHBOURS[centre]]
    assert late_stones_from_trace(rows, 2).tolist() == [[1, 0], [0, 0]]


@pytest.mark.parametrize("strategy", ["balanced", "random"])
def test_rings_agree_with_the_engine(strategy):
    """A stone closes a ring by :func:`closes_ring` exactly when the engine builds a
    wonder right after it (the slow twin of the tableau's ring test)."""
    job = make_job(3, [strategy] * 3, seed=39)
    checked = 0
    for g in range(15):
        _r, _w, _c, s = play_raw(job, g, 1, trace_rows=DEFAULT_TRACE_ROWS)
        rows = s.trace[: int(s.sc[S.S_TRACE_N])].tolist()
        stones = [set() for _ in range(3)]
        centres = [set() for _ in range(3)]
        for i, (ev, _t, seat, a, b, *_rest) in enumerate(rows):
            if ev == S.EV_STONE:
                closes = closes_ring(stones[seat], centres[seat], b)
                nxt = rows[i + 1][0] if i + 1 < len(rows) else -1
                assert closes == (nxt in (S.EV_WONDER, S.EV_NAMED_OPTIONS)), (g, i)
                stones[seat].add(b)
                checked += 1
            elif ev == S.EV_WONDER:
                centres[seat].add(a)
    assert checked > 100


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_default_closes_its_rings_when_the_end_is_certain(players):
    new = late_stone_share(players, 1000, seed=39)
    assert new.seats == 1000 * players
    assert new.late > 1000  # stones are placed after the end, often
    assert new.share <= BOUND
    # a player that puts its stones anywhere breaks the bound: the test can fail
    wasteful = late_stone_share(players, 200, strategy="random", seed=39)
    assert wasteful.share > 2 * BOUND
