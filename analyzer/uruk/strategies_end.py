"""The end game seen: does a seat spend its last turns on cards it never makes?

Once the last stone has left epoch card IV (``docs/games/uruk.md``, "Game end and
scoring") every seat has at most two turns left: the rest of the round and one
more. A hand card scores nothing at the end, so a card taken then is worth
something only if the seat still makes it. :func:`late_cards` reads one game's
trace and says, per seat, how many cards the seat took (the take-a-card action,
from the display or the deck) after the end was triggered and never made
afterwards (as that invention or in a colour pair of
another); :func:`late_card_share` is the share of seats of a strategy with at
least one such card over many games, the statistic whose bound
``tests/uruk/test_uruk_end_game.py`` holds (issue #39, item 3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.uruk import state as S
from analyzer.uruk.codes import Action


def late_cards_from_trace(rows, players: int) -> np.ndarray:
    """int64[2, players]: per seat, the cards taken after the end was triggered
    (``EV_END``) that the seat did not make afterwards (row 0), and of them those
    it chose (row 1: some other action was legal; the rulebook's three actions
    are not optional, so a seat with nothing else to do must take a card), from a
    game's trace rows ``(event, turn, seat, a, b, c)``. A card counts as made
    when the seat makes that invention later (``EV_MAKE``, Enlil's free one
    included) or pays it in a colour pair of a make (``EV_PAIR``)."""
    late = [[] for _ in range(players)]
    ended = False
    forced = True  # the options of the action being carried out were all card takes
    options_done = True
    for ev, _turn, seat, a, b, _c in rows:
        if ev == S.EV_OPTION_ACTION:
            if options_done:  # the first option of a new action
                forced, options_done = True, False
            forced = forced and a == Action.TAKE_CARD
            continue
        if ev == S.EV_ACTION:
            options_done = True
        if ev == S.EV_END:
            ended = True
        elif not ended:
            continue
        elif ev == S.EV_TAKE_CARD:
            late[seat].append((int(a), not forced))
        elif ev == S.EV_MAKE or ev == S.EV_PAIR:
            for y in (a,) if ev == S.EV_MAKE else (a, b):
                made = [i for i, (x, _) in enumerate(late[seat]) if x == int(y)]
                if made:
                    late[seat].pop(made[0])
    out = np.zeros((2, players), np.int64)
    for p, cards in enumerate(late):
        out[0, p] = len(cards)
        out[1, p] = sum(chosen for _, chosen in cards)
    return out


def late_cards(job, game: int, state=None) -> np.ndarray:
    """int64[2, players]: :func:`late_cards_from_trace` of game ``game`` of ``job``
    (a :class:`analyzer.uruk.game.GameJob`), played with its trace. ``state``:
    a state with trace rows to reuse (``new_state(t, DEFAULT_TRACE_ROWS)``)."""
    from analyzer.uruk.game import check_results, play_raw
    from analyzer.uruk.replay import DEFAULT_TRACE_ROWS

    results, _, s = play_raw(job, game, 1, trace_rows=DEFAULT_TRACE_ROWS, state=state)
    check_results(results, game)
    k = int(s.sc[S.S_TRACE_N])
    if k >= s.trace.shape[0]:
        raise RuntimeError(f"uruk game {game}: the trace overflowed {s.trace.shape[0]} rows")
    return late_cards_from_trace(s.trace[:k].tolist(), job.players)


@dataclass(frozen=True)
class LateCards:
    """How often seats of ``strategy`` took cards after the end and never made them."""

    strategy: str
    players: int
    games: int
    seed: int
    seats: int  #: seats of ``strategy`` over the games
    wasteful: int  #: of them, seats that took at least one such card
    chosen: int  #: of them, seats that took one when another action was legal
    cards: int  #: such cards in all

    @property
    def share(self) -> float:
        """Share of the strategy's seats that took a card after the end and never made it."""
        return self.wasteful / self.seats if self.seats else 0.0

    @property
    def chosen_share(self) -> float:
        """Share of the strategy's seats that chose such a card (another action was legal)."""
        return self.chosen / self.seats if self.seats else 0.0

    def ci95(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`share` (seats of one game are not independent
        at 4 players; the interval is a guide, the test bounds the share)."""
        from analyzer.core.stats import wilson

        return wilson(self.wasteful, self.seats)


def late_card_share(
    players: int,
    games: int,
    *,
    strategy: str = "balanced",
    strategies=None,
    seed: int = 4601,
    start: int = 0,
    **options,
) -> LateCards:
    """:class:`LateCards` of ``strategy`` over ``games`` games from ``start``
    (every seat ``strategy`` unless ``strategies`` names each seat's)."""
    from analyzer.uruk.game import make_job
    from analyzer.uruk.replay import DEFAULT_TRACE_ROWS
    from analyzer.uruk.state import new_state

    seats = list(strategies) if strategies is not None else [strategy] * players
    job = make_job(players, seats, seed=seed, **options)
    s = new_state(job.rules.tables, DEFAULT_TRACE_ROWS)
    mine = np.array([x == strategy for x in seats])
    n_seats = wasteful = chosen = cards = 0
    for g in range(start, start + games):
        late = late_cards(job, g, state=s)[:, mine]
        n_seats += late.shape[1]
        wasteful += int((late[0] > 0).sum())
        chosen += int((late[1] > 0).sum())
        cards += int(late[0].sum())
    return LateCards(strategy, players, games, seed, n_seats, wasteful, chosen, cards)
