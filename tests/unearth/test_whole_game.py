"""Whole games checked from their trace: set-up, dice, claims, consolation, stones, winners.

A few hundred games of 2 to 5 players (every strategy) are played with a trace
(:func:`analyzer.unearth.game.play_raw`), and a plain-Python reader follows the
dice through the events (``docs/games/unearth.md``):

- **set-up**: every seat is dealt its delver cards and holds a hidden ruin, and
  as many ruins are face up as the player count says, before the first roll;
- **a pool die is used before a die is taken back**: a seat takes a die back
  only when all its dice are on ruins;
- **claim timing**: a ruin is claimed as soon as its dice reach the claim value,
  before the next roll, card, take-back or the end, with the total the dice
  show, and no ruin stays claimable;
- **winners of claims and consolation**: the winner (or unbreakable tie) is the
  one :func:`tests.naive.naive_ruin_outcome` finds for the dice there, and every
  other seat with dice there draws one card per die (fewer only when every card
  is in a hand; the Eternal Flame's owner may draw one more);
- **stone sources**: every stone follows its seat's roll of a natural 1-3;
- **winners of the game**: the shares add up to one and go to top scorers.
"""

from __future__ import annotations

import pytest

from analyzer.unearth.codes import Delver, WonderKind
from analyzer.unearth.game import make_job, play_raw
from analyzer.unearth.rules import default_rules
from analyzer.unearth.state import (
    EV_BAG_STONE,
    EV_CLAIM,
    EV_DIE_SET,
    EV_DRAW,
    EV_END,
    EV_PILE,
    EV_PLAY,
    EV_REVEAL,
    EV_ROLL,
    EV_SHUFFLE,
    EV_STONE,
    EV_TAKE_BACK,
    EV_WONDER,
    S_TRACE_N,
)
from tests.naive import TIE, naive_ruin_outcome

RULES = default_rules()
T = RULES.tables
FLAME = RULES.wonder_ids.index("eternal_flame")
CARDS_IN_DECK = int(T.delver_copies.sum())
#: events after which no ruin may be left claimable
CHECKPOINTS = (EV_ROLL, EV_PLAY, EV_TAKE_BACK, EV_END)

LINEUPS = {
    2: "random,balanced",
    3: "claimer,collector,random",
    4: "random,claimer,collector,balanced",
    5: "balanced,random,claimer,random,collector",
}
GAMES = {2: 80, 3: 60, 4: 50, 5: 30}


def traces(players: int):
    job = make_job(players, LINEUPS[players], seed=31 + players)
    for g in range(GAMES[players]):
        _, _, _, s = play_raw(job, g, 1, trace_rows=20000)
        n = int(s.sc[S_TRACE_N])
        assert n < 20000
        yield s, [tuple(int(x) for x in row) for row in s.trace[:n]]


class Reader:
    """Follows dice, ruins and hands through one game's events."""

    def __init__(self, players: int):
        self.n = players
        self.n_dice = T.dice_faces.shape[0]
        self.pos = {(q, d): -1 for q in range(players) for d in range(self.n_dice)}
        self.val = dict.fromkeys(self.pos, 0)
        self.slot_card = {}
        self.held_cards = 0  # delver cards in all hands
        self.flame_owner = -1

    def dice_on(self, slot):
        return [(q, T.dice_faces[d], self.val[(q, d)])
                for (q, d), p in self.pos.items() if p == slot]  # fmt: skip

    def claimable(self):
        return [
            slot
            for slot, card in self.slot_card.items()
            if card >= 0 and sum(v for _, _, v in self.dice_on(slot)) >= T.card_claim[card]
        ]


def check_game(players: int, events: list[tuple]) -> None:
    r = Reader(players)
    first_roll = next(i for i, e in enumerate(events) if e[0] == EV_ROLL)
    setup = events[:first_roll]
    for q in range(players):
        assert sum(1 for e in setup if e[0] == EV_DRAW and e[2] == q) == T.delver_dealt
    assert sum(1 for e in setup if e[0] == EV_REVEAL) == T.revealed_by_players[players]

    pending_draws = None  # after a claim: seat -> cards it must draw
    for i, (ev, _turn, seat, a, b, c, d, e) in enumerate(events):
        if pending_draws is not None and ev not in (EV_DRAW, EV_SHUFFLE, EV_PILE):
            want, got, flame_extra = pending_draws
            for q in range(players):
                extra = got.get(q, 0) - want[q]
                allowed = 1 if q == flame_extra else 0
                if r.held_cards < CARDS_IN_DECK:  # a card was left to draw
                    assert 0 <= extra <= allowed, (i, q, want, got)
            pending_draws = None
        if ev in CHECKPOINTS:
            assert r.claimable() == [], f"event {i}: a claimable ruin was not claimed"
        if ev == EV_REVEAL:
            r.slot_card[a] = b
        elif ev == EV_ROLL and e in (0, 1):
            r.pos[(seat, a)] = b
            r.val[(seat, a)] = d
        elif ev == EV_PLAY:
            r.held_cards -= 1
            eff = T.delver_effect[a]
            if eff in (Delver.A_NEW_DISCOVERY, Delver.FORLORN):
                die = (b, c)
                step = T.delver_amount[a]  # signed in the data: +2, -2
                r.val[die] = min(max(r.val[die] + step, 1), T.dice_faces[c])
        elif ev == EV_DIE_SET:  # the card's change, as the engine logged it
            assert events[i - 1][0] == EV_PLAY and r.val[(seat, a)] == d, (i, r.val[(seat, a)])
        elif ev == EV_DRAW:
            r.held_cards += 1
            if pending_draws is not None:
                pending_draws[1][seat] = pending_draws[1].get(seat, 0) + 1
        elif ev == EV_TAKE_BACK:
            assert all(r.pos[(seat, k)] >= 0 for k in range(r.n_dice)), (
                f"event {i}: seat {seat} took a die back with a die still in its pool"
            )
            assert r.pos[(seat, a)] == b
            r.pos[(seat, a)] = -1
        elif ev == EV_CLAIM:
            dice = r.dice_on(a)
            assert r.slot_card[a] == b
            assert c >= 0 or c == TIE
            assert d == sum(v for _, _, v in dice) >= T.card_claim[b]
            winner, cards = naive_ruin_outcome(dice, int(T.card_claim[b]), players)
            assert winner == c, (i, dice)
            flame_extra = -1
            if r.flame_owner >= 0 and c >= 0 and not any(q == r.flame_owner for q, _, _ in dice):
                flame_extra = r.flame_owner
            pending_draws = (cards, {}, flame_extra)
            for key, p in r.pos.items():
                if p == a:
                    r.pos[key] = -1
            r.slot_card[a] = -1
        elif ev == EV_STONE:
            j = i - 1
            while events[j][0] == EV_BAG_STONE:  # the stones drawn to choose from
                j -= 1
            prev = events[j]
            assert prev[0] == EV_ROLL and prev[7] in (0, 1) and prev[2] == seat, (i, prev)
            assert prev[5] <= T.stone_faces_max
        elif ev == EV_WONDER and b == WonderKind.NAMED and c == FLAME:
            r.flame_owner = seat
    ends = [e for e in events if e[0] == EV_END]
    assert len(ends) == players
    top = max(e[3] for e in ends)
    assert abs(sum(e[4] for e in ends) - 1000) <= players
    assert all(e[3] == top for e in ends if e[4] > 0)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_games_follow_the_rules_event_by_event(players):
    for _s, events in traces(players):
        check_game(players, events)


def test_the_reader_catches_a_late_claim():
    # move a claim after the next roll: the check must fail
    _s, events = next(traces(3))
    k = next(i for i, e in enumerate(events) if e[0] == EV_CLAIM)
    nxt = next(i for i in range(k + 1, len(events)) if events[i][0] == EV_ROLL)
    broken = events[:k] + events[k + 1 : nxt + 1] + [events[k]] + events[nxt + 1 :]
    with pytest.raises(AssertionError):
        check_game(3, broken)
