"""The end game seen: does a seat spend its last-round turns on what cannot score?

Once ``end_cards`` (10) or fewer cards are left in the grid the round is
finished and the game ends (``docs/games/colorful_treasure.md``, "Game end"):
every seat after the one that triggered it has one turn left. A turn scores
through what it takes: a gem or diamond card (always points), a plastic
diamond, a reward, a steal (a key and a chest marker paired). Key and chest
cards score only through the treasure reward at the end, and a key or chest
revealed must be taken while the other revealed cards go back face down. So a
last-round turn that reveals a key or chest and takes nothing else can score
nothing, unless those cards change the seat's share of the treasure reward.

:func:`late_turns_from_trace` reads one game's trace and counts, per seat, the
turns it played after the end was triggered whose takes did not change its
final score (row 0: no gem or diamond card, plastic diamond or reward taken or
stolen, and the key and chest cards taken or stolen, if any, left its treasure
reward as it would have been without them), and of them those it chose (row 1):
the turn's first key or chest came with an optional extra reveal, or when it
was revealed enough face-down cards were left in columns whose treasure card
was already gone (public knowledge: a key or chest revealed is always taken) to
make the turn's remaining reveals safe, or the seat took nothing though a kind
was face up (the ruling ``take = optional``). A pair's steal is not optional,
so it chooses nothing. Nothing here reads what a seat remembers: a seat that
reveals a key it forgot is counted as choosing it only when safe cards were
left anyway.
:func:`late_turn_share` is the share of seats of a strategy with at least one
chosen such turn over many games, the statistic whose bound
``tests/colorful_treasure/test_ct_end_game.py`` holds (issue #39, item 3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.colorful_treasure import state as S
from analyzer.colorful_treasure.codes import Kind
from analyzer.core.stats import wilson


def _reward(counts: list[int], p: int, points: int, min_cards: int) -> float:
    """Seat ``p``'s treasure reward (points) when the seats count ``counts`` cards."""
    most = max(counts)
    if most < min_cards or counts[p] != most:
        return 0.0
    return points / sum(1 for c in counts if c == most)


def late_turns_from_trace(rows, players: int, tables) -> np.ndarray:
    """int64[2, players]: per seat, its turns after the end was triggered that did
    not change its final score (row 0) and of them those it chose (row 1), from a
    game's trace rows ``(event, turn, seat, a, b, c, d, e)`` and the game's
    :class:`analyzer.colorful_treasure.rules.Tables` ``tables`` (which cards are
    keys and chests, ``end_cards``, the treasure reward). A turn belongs to the
    seat of its reveals; the end is triggered once the cards taken (``EV_TAKE``)
    leave ``end_cards`` or fewer in the grid at a turn's start."""
    t = tables
    rows_per = int(t.rows)
    kind = t.card_kind
    left = int(t.n_cards)
    gone_treasure: set[int] = set()  # columns whose treasure card left the grid
    turns: dict[int, dict] = {}  # late turns: seat, scored, chosen, treasure cards taken
    final_counts = [0] * players
    spent: set[int] = set()
    holder: dict[int, int] = {}
    cur = None
    for r in rows:
        ev, turn, seat, a, b, c, d, _e = (int(x) for x in r[:8])
        if ev == S.EV_END:
            continue
        if ev == S.EV_TREASURE:
            final_counts[seat] = a
            continue
        if turn != cur:
            cur = turn
            late = left <= int(t.end_cards) and int(t.end_cards) > 0
            info = {
                "seat": seat,
                "scored": False,
                "chosen": False,
                "cards": [],
                "late": late,
                "treasure_up": False,
            }
            turns[turn] = info
        info = turns[turn]
        if ev == S.EV_REVEAL:
            info["seat"] = seat
            if kind[b] in (Kind.KEY, Kind.CHEST) and not info["treasure_up"]:
                info["treasure_up"] = True  # the first key or chest makes it a treasure turn
                if c > int(t.first_reveals):
                    info["chosen"] = True  # an optional reveal found it
                else:
                    need = int(t.first_reveals) - c + 1  # reveals still to make, this one included
                    safe = sum(
                        1 for p in range(64) if (d >> p) & 1 and p // rows_per in gone_treasure
                    )
                    if safe >= need:
                        info["chosen"] = True
        elif ev == S.EV_TAKE:
            left -= 1
            holder[a] = seat
            if kind[a] in (Kind.KEY, Kind.CHEST):
                info["cards"].append(a)
                gone_treasure.add(int(t.card_wonder[a]))
            else:
                info["scored"] = True
        elif ev == S.EV_STEAL and b >= 0 and kind[b] in (Kind.KEY, Kind.CHEST):
            holder[b] = seat  # a stolen key or chest scores only through the treasure reward
            info["cards"].append(b)
        elif ev in (S.EV_PLASTIC, S.EV_STEAL, S.EV_REWARD):
            info["scored"] = True  # a plastic diamond, a gem or diamond card, points
        elif ev == S.EV_NOTHING and b != 0:
            info["chosen"] = True
        elif ev == S.EV_PAIR:
            spent.update(x for x in (a, b) if x >= 0)
    # what a seat's late key and chest cards did to its treasure reward
    out = np.zeros((2, players), np.int64)
    pts, lo = int(t.treasure_points), int(t.treasure_min)
    for info in turns.values():
        if not info["late"] or info["scored"]:
            continue
        p = info["seat"]
        mine = [x for x in info["cards"] if holder.get(x) == p and x not in spent]
        if mine:
            without = list(final_counts)
            without[p] -= len(mine)
            if _reward(final_counts, p, pts, lo) != _reward(without, p, pts, lo):
                continue  # the cards changed its share of the treasure reward
        out[0, p] += 1
        out[1, p] += int(info["chosen"])
    return out


def late_turns(job, game: int) -> tuple[np.ndarray, np.ndarray]:
    """(:func:`late_turns_from_trace` of game ``game`` of ``job``, int64[players]
    turns each seat played after the end was triggered), played with its trace."""
    from analyzer.colorful_treasure.game import play_raw
    from analyzer.colorful_treasure.replay import DEFAULT_TRACE_ROWS

    _results, _wins, _steals, s = play_raw(job, game, 1, trace_rows=DEFAULT_TRACE_ROWS)
    k = int(s.sc[S.S_TRACE_N])
    if k >= s.trace.shape[0]:
        raise RuntimeError(f"colorful treasure game {game}: the trace overflowed")
    rows = s.trace[:k]
    return late_turns_from_trace(rows, job.players, job.rules.tables), _late_turn_counts(
        rows, job.players, job.rules.tables
    )


def _late_turn_counts(rows, players: int, t) -> np.ndarray:
    left, cur, out = int(t.n_cards), None, np.zeros(players, np.int64)
    for r in rows:
        ev, turn, seat = (int(x) for x in r[:3])
        if ev in (S.EV_END, S.EV_TREASURE):
            continue
        if ev == S.EV_REVEAL and turn != cur:
            cur = turn
            if 0 < int(t.end_cards) and left <= int(t.end_cards):
                out[seat] += 1
        if ev == S.EV_TAKE:
            left -= 1
    return out


@dataclass(frozen=True)
class LateTurns:
    """How often seats of ``strategy`` spent a last-round turn on nothing that scores."""

    strategy: str
    players: int
    games: int
    seed: int
    seats: int  #: seats of ``strategy`` over the games
    late_seats: int  #: of them, seats that played a turn after the end was triggered
    wasteful: int  #: seats with at least one late turn that scored nothing
    chosen: int  #: seats with at least one such turn they chose
    turns: int  #: such turns in all
    late: int  #: turns played after the end was triggered, in all

    @property
    def share(self) -> float:
        """Share of the strategy's seats with a late turn that scored nothing."""
        return self.wasteful / self.seats if self.seats else 0.0

    @property
    def chosen_share(self) -> float:
        """Share of the strategy's seats that chose such a turn."""
        return self.chosen / self.seats if self.seats else 0.0

    def ci95(self, chosen: bool = True) -> tuple[float, float]:
        """95% Wilson interval of :attr:`chosen_share` (or :attr:`share`); a guide:
        seats of one game are not independent."""
        return wilson(self.chosen if chosen else self.wasteful, self.seats)


def late_turn_share(
    players: int,
    games: int,
    *,
    strategy: str = "greedy",
    strategies=None,
    seed: int = 39,
    start: int = 0,
    **options,
) -> LateTurns:
    """:class:`LateTurns` of ``strategy`` over ``games`` games from ``start``
    (every seat ``strategy`` unless ``strategies`` names each seat's)."""
    from analyzer.colorful_treasure.game import make_job

    seats = list(strategies) if strategies is not None else [strategy] * players
    job = make_job(players, seats, seed=seed, **options)
    mine = np.array([x == strategy for x in seats])
    n_seats = late_seats = wasteful = chosen = n_turns = late = 0
    for g in range(start, start + games):
        x, n_late = late_turns(job, g)
        x, n_late = x[:, mine], n_late[mine]
        n_seats += x.shape[1]
        late_seats += int((n_late > 0).sum())
        wasteful += int((x[0] > 0).sum())
        chosen += int((x[1] > 0).sum())
        n_turns += int(x[0].sum())
        late += int(n_late.sum())
    return LateTurns(
        strategy, players, games, seed, n_seats, late_seats, wasteful, chosen, n_turns, late
    )
