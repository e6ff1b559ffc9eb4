"""The end game seen (issue 39 item 3) in Colorful Treasure: once the end is
triggered, the default chooses no turn that cannot change its final score.

:func:`analyzer.colorful_treasure.end_game.late_turns_from_trace` is checked on
hand-written traces and, over whole games, against the running score of
:func:`analyzer.colorful_treasure.replay.score_track` (an independent reading of
the checkable trace); the bound is held over 1,000 games per player count, and
``random`` under the ruling ``take = optional`` (it sometimes takes nothing) is
shown to break it (the statistic can fail).
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.colorful_treasure import state as S
from analyzer.colorful_treasure.end_game import late_turn_share, late_turns, late_turns_from_trace
from analyzer.colorful_treasure.game import make_job
from analyzer.colorful_treasure.replay import replay_events, score_track
from analyzer.colorful_treasure.rules import default_rules, load_rules

#: at most this share of the default's seats chooses a turn after the end is
#: triggered that changes nothing in its final score
BOUND = 0.05

T = default_rules().tables  # 10 wonders of 5 cards; treasure card 5w+4: keys even, chests odd
SAFE = [0, 5, 10, 15, 20]  # gem cards of wonders 0-4, whose treasure cards are gone
TREASURE_LEFT = [29, 34, 39, 44, 49]  # the treasure cards of wonders 5-9, still in the grid


def _before_the_end():
    """40 takes (one a turn, seats alternating) that leave SAFE and TREASURE_LEFT:
    the grid holds 10 cards, the end is triggered, turn 40 (seat 0) is late."""
    gone = [c for c in range(50) if c not in SAFE + TREASURE_LEFT]
    return [(S.EV_TAKE, i, i % 2, c, 0, 0, 0, 0) for i, c in enumerate(gone)]


def _reveal(seat, card, number, places, turn=40):
    mask = sum(1 << p for p in places)  # the deal of these traces: place = card
    return (S.EV_REVEAL, turn, seat, card, card, number, mask, 0)


def _end(counts, turn=41):
    return [(S.EV_TREASURE, turn, p, c, 0, 0, 0, 0) for p, c in enumerate(counts)]


ALL = SAFE + TREASURE_LEFT


def test_a_late_chest_that_changes_nothing_is_counted_and_chosen():
    # seat 0 reveals a chest first though five cards of treasure-free columns were left
    turn = [_reveal(0, 29, 1, ALL), _reveal(0, 0, 2, [p for p in ALL if p != 29])]
    turn += [(S.EV_TAKE, 40, 0, 29, 0, 0, 0, 0), (S.EV_BACK, 40, 0, 0, 0, 0, 0, 0)]
    rows = _before_the_end() + turn + _end([1, 5])
    assert late_turns_from_trace(rows, 2, T).tolist() == [[1, 0], [1, 0]]
    # the same chest giving seat 0 a share of the treasure reward scores
    assert late_turns_from_trace(_before_the_end() + turn + _end([1, 1]), 2, T).sum() == 0
    # the same turn before the end is triggered (11 cards left) is not counted
    early = _before_the_end()[:-1] + [(S.EV_TAKE, 38, 0, 1, 0, 0, 0, 0)]
    early = [r for r in early if r[3] != 1] + [(S.EV_TAKE, 39, 1, 24, 0, 0, 0, 0)]
    assert len(early) == 39
    rows = early + [r[:1] + (39,) + r[2:] for r in turn] + _end([1, 5], 40)
    assert late_turns_from_trace(rows, 2, T).sum() == 0


def test_forced_and_optional_reveals():
    # no two safe cards left (only one): the chest was bad luck, not chosen
    places = [0, *TREASURE_LEFT]
    turn = [_reveal(0, 29, 1, places), _reveal(0, 34, 2, [p for p in places if p != 29])]
    turn += [(S.EV_TAKE, 40, 0, 29, 0, 0, 0, 0), (S.EV_TAKE, 40, 0, 34, 0, 0, 0, 0)]
    rows = _before_the_end() + turn + _end([2, 5])
    assert late_turns_from_trace(rows, 2, T).tolist() == [[1, 0], [0, 0]]
    # a third reveal (optional) finds the chest after two gems: chosen
    turn = [_reveal(0, 0, 1, places), _reveal(0, 5, 2, [29, 34, 5]), _reveal(0, 29, 3, [29, 34])]
    turn += [(S.EV_TAKE, 40, 0, 29, 0, 0, 0, 0)]
    rows = _before_the_end() + turn + _end([1, 5])
    assert late_turns_from_trace(rows, 2, T).tolist() == [[1, 0], [1, 0]]


def test_gems_score_steals_of_keys_may_not_and_nothing_is_chosen():
    gem = [_reveal(0, 0, 1, ALL), _reveal(0, 5, 2, ALL), (S.EV_TAKE, 40, 0, 0, 0, 0, 0, 0)]
    assert late_turns_from_trace(_before_the_end() + gem + _end([0, 5]), 2, T).sum() == 0
    # a pair's steal of a key card that leaves the treasure reward as it was
    both = [_reveal(0, 29, 1, [29, 34]), _reveal(0, 34, 2, [34])]
    both += [(S.EV_TAKE, 40, 0, 29, 0, 0, 0, 0), (S.EV_TAKE, 40, 0, 34, 0, 0, 0, 0)]
    both += [(S.EV_PAIR, 40, 0, -1, -1, 0, 0, 0), (S.EV_STEAL, 40, 0, 1, 4, 0, 0, 0)]
    rows = _before_the_end() + both + _end([3, 4])
    assert late_turns_from_trace(rows, 2, T).tolist() == [[1, 0], [0, 0]]
    # ... and a steal of a plastic diamond scores
    plastic = both[:-1] + [(S.EV_STEAL, 40, 0, 1, -1, 0, 0, 0)]
    assert late_turns_from_trace(_before_the_end() + plastic + _end([2, 5]), 2, T).sum() == 0
    # taking nothing while a kind is face up (ruling take = optional): chosen
    nothing = gem[:2] + [(S.EV_NOTHING, 40, 0, 0, 0b11, 0, 0, 0)]
    rows = _before_the_end() + nothing + _end([0, 5])
    assert late_turns_from_trace(rows, 2, T).tolist() == [[1, 0], [1, 0]]


@pytest.mark.parametrize("strategy,players", [("greedy", 2), ("random", 4)])
def test_it_agrees_with_the_running_score(strategy, players):
    """A late turn scores nothing by :func:`late_turns_from_trace` exactly when the
    seat's score as it stands (``score_track``) does not rise over it (the two
    agree when no later turn moves the treasure majority, as in these games)."""
    job = make_job(players, [strategy] * players, seed=39)
    late_seen = 0
    for g in range(40):
        trace = replay_events(job, g)
        track = score_track(job, trace)
        left, seat_of, late = 50, {}, []
        for ev in trace["events"]:
            if ev["type"] == "reveal" and ev["turn"] not in seat_of:
                seat_of[ev["turn"]] = ev["seat"]
                if left <= 10:
                    late.append(ev["turn"])
            left -= ev["type"] == "take"
        at = {t: i for i, t in enumerate(track["turns"])}
        flat = np.zeros(players, np.int64)
        for t in late:
            p, i = seat_of[t], at[t]
            flat[p] += track["scores"][i][p] - track["scores"][i - 1][p] <= 1e-9
        counted, n_late = late_turns(job, g)
        assert counted[0].tolist() == flat.tolist(), g
        assert int(n_late.sum()) == len(late)
        late_seen += len(late)
    assert late_seen > 20


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_default_spends_no_last_turn_on_nothing(players):
    new = late_turn_share(players, 1000, seed=39)
    assert new.seats == 1000 * players
    assert new.late_seats > 300  # seats play turns after the end is triggered, often
    assert new.chosen_share <= BOUND
    # a player that sometimes takes nothing though it could breaks the bound
    wasteful = late_turn_share(
        players, 500, strategy="random", seed=39, rules=load_rules({"take": "optional"})
    )
    assert wasteful.chosen_share > BOUND
