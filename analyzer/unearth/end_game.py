"""The end game seen: does a seat give up a wonder once the end is certain?

Once the end-of-age card is revealed (``docs/games/unearth.md``, "End of age")
no ruin comes any more: the game ends when the ruins on the table are claimed,
a few turns later. A stone scores through the ring it completes (a wonder: a
token of 2 to 8 points, a named wonder, the wonder-count bonus) or through a
named wonder's end effect; a ring left open scores nothing. So a stone placed
then on a cell that closes no ring, while another cell the seat could take
would have closed one at once, gives up a wonder now for a ring that has few
turns left to complete (a named wonder's colours, six alike for a greater
token): the stone is spent on what may never score.

:func:`late_stones_from_trace` reads one game's trace and counts, per seat, the
stones placed after the end was certain that closed no ring while a free cell
would have closed one (row 0), and of them those that did not become part of a
ring completed later in the game (row 1: the ring pursued instead never closed,
so the wonder given up bought nothing). :func:`late_stone_share` is the share
of seats of a strategy with at least one such stone (row 0) over many games,
the statistic whose bound ``tests/unearth/test_unearth_end_game.py`` holds
(issue #39, item 3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.core.stats import wilson
from analyzer.unearth import state as S
from analyzer.unearth.hexgrid import MIDDLE, NEIGHBOURS


def _neighbours(cell: int) -> list[int]:
    return [int(x) for x in NEIGHBOURS[cell] if x >= 0]


def closes_ring(stones: set[int], centres: set[int], cell: int) -> bool:
    """True when a stone on free ``cell`` would complete a ring: some free
    neighbour of it (neither a stone nor a wonder centre) has all six neighbours
    stones once ``cell`` holds one."""
    for nb in _neighbours(cell):
        if nb in stones or nb in centres or nb == cell:
            continue
        around = [int(x) for x in NEIGHBOURS[nb]]
        if all(x >= 0 and (x in stones or x == cell) for x in around):
            return True
    return False


def free_cells(stones: set[int], centres: set[int]) -> list[int]:
    """Where a seat's next stone may go: the middle cell for the first stone,
    else every cell holding no stone and no wonder centre that touches a stone."""
    if not stones:
        return [MIDDLE]
    out = set()
    for cell in stones:
        for nb in _neighbours(cell):
            if nb not in stones and nb not in centres:
                out.add(nb)
    return sorted(out)


def late_stones_from_trace(rows, players: int, eoa_card: int | None = None) -> np.ndarray:
    """int64[2, players]: per seat, the stones it placed after the end was certain
    (``EV_EVENT``, or ``EV_REVEAL`` of the end-of-age card ``eoa_card``, read from
    ``EV_EOA_CARD`` when None) on a cell that closed no ring while another free
    cell would have closed one (row 0); row 1, of them, those that no ring
    completed later in the game holds (a ring holds the six stones around its
    centre, ``EV_WONDER``). From a game's trace rows ``(event, turn, seat, a, b,
    ...)``: ``EV_STONE`` (a=colour, b=cell) and ``EV_WONDER`` (a=centre cell)."""
    stones: list[set[int]] = [set() for _ in range(players)]
    centres: list[set[int]] = [set() for _ in range(players)]
    given_up: list[list[int]] = [[] for _ in range(players)]
    ended = False
    for r in rows:
        ev, _turn, seat, a, b = (int(x) for x in r[:5])
        if ev == S.EV_EOA_CARD and eoa_card is None:
            eoa_card = a
        elif ev == S.EV_EVENT or (ev == S.EV_REVEAL and b == eoa_card):
            ended = True
        elif ev == S.EV_STONE:
            mine, cen = stones[seat], centres[seat]
            if ended and not closes_ring(mine, cen, b):
                if any(closes_ring(mine, cen, x) for x in free_cells(mine, cen) if x != b):
                    given_up[seat].append(b)
            mine.add(b)
        elif ev == S.EV_WONDER:
            centres[seat].add(a)
    out = np.zeros((2, players), np.int64)
    for p in range(players):
        in_rings = {int(x) for c in centres[p] for x in NEIGHBOURS[c] if x >= 0}
        out[0, p] = len(given_up[p])
        out[1, p] = sum(cell not in in_rings for cell in given_up[p])
    return out


def late_stones(job, game: int) -> np.ndarray:
    """int64[2, players]: :func:`late_stones_from_trace` of game ``game`` of ``job``
    (a :class:`analyzer.unearth.game.GameJob`), played with its trace."""
    from analyzer.unearth.game import play_raw
    from analyzer.unearth.replay import DEFAULT_TRACE_ROWS

    _results, _wins, _claims, s = play_raw(job, game, 1, trace_rows=DEFAULT_TRACE_ROWS)
    k = int(s.sc[S.S_TRACE_N])
    if k >= s.trace.shape[0]:
        raise RuntimeError(f"unearth game {game}: the trace overflowed {s.trace.shape[0]} rows")
    return late_stones_from_trace(s.trace[:k], job.players)


@dataclass(frozen=True)
class LateStones:
    """How often seats of ``strategy`` gave up a wonder after the end was certain."""

    strategy: str
    players: int
    games: int
    seed: int
    seats: int  #: seats of ``strategy`` over the games
    wasteful: int  #: of them, seats that placed at least one stone giving up a ring
    unpaid: int  #: of them, seats with such a stone that no later ring holds
    stones: int  #: such stones in all
    late: int  #: stones placed after the end was certain, in all (the denominator's scale)

    @property
    def share(self) -> float:
        """Share of the strategy's seats that gave up a ring with a late stone."""
        return self.wasteful / self.seats if self.seats else 0.0

    @property
    def unpaid_share(self) -> float:
        """Share of the strategy's seats whose given-up ring bought nothing later."""
        return self.unpaid / self.seats if self.seats else 0.0

    def ci95(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`share` (a guide: seats of one game are
        not independent)."""
        return wilson(self.wasteful, self.seats)


def late_stone_share(
    players: int,
    games: int,
    *,
    strategy: str = "balanced",
    strategies=None,
    seed: int = 39,
    start: int = 0,
    **options,
) -> LateStones:
    """:class:`LateStones` of ``strategy`` over ``games`` games from ``start``
    (every seat ``strategy`` unless ``strategies`` names each seat's)."""
    from analyzer.unearth.game import make_job, play_raw
    from analyzer.unearth.replay import DEFAULT_TRACE_ROWS

    seats = list(strategies) if strategies is not None else [strategy] * players
    job = make_job(players, seats, seed=seed, **options)
    mine = np.array([x == strategy for x in seats])
    n_seats = wasteful = unpaid = n_stones = late = 0
    for g in range(start, start + games):
        _r, _w, _c, s = play_raw(job, g, 1, trace_rows=DEFAULT_TRACE_ROWS)
        k = int(s.sc[S.S_TRACE_N])
        if k >= s.trace.shape[0]:
            raise RuntimeError(f"unearth game {g}: the trace overflowed {s.trace.shape[0]} rows")
        rows = s.trace[:k]
        x = late_stones_from_trace(rows, players)[:, mine]
        n_seats += x.shape[1]
        wasteful += int((x[0] > 0).sum())
        unpaid += int((x[1] > 0).sum())
        n_stones += int(x[0].sum())
        late += _late_count(rows, [p for p in range(players) if mine[p]])
    return LateStones(strategy, players, games, seed, n_seats, wasteful, unpaid, n_stones, late)


def _late_count(rows, seats) -> int:
    """Stones the ``seats`` placed after the end was certain."""
    eoa, ended, n = None, False, 0
    for r in rows:
        ev, _t, seat, a, b = (int(x) for x in r[:5])
        if ev == S.EV_EOA_CARD:
            eoa = a
        elif ev == S.EV_EVENT or (ev == S.EV_REVEAL and b == eoa):
            ended = True
        elif ev == S.EV_STONE and ended and seat in seats:
            n += 1
    return n
