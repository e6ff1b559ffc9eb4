"""Uruk's score track (the drama study's running score, ``analyzer/uruk/replay.py``):
after every turn it equals the score the independent trace checker derives from the
same trace, and its last point is the games table's final score and winner."""

from __future__ import annotations

import pytest

from analyzer.games import load_game
from analyzer.studies.drama import leaders
from tests.uruk.test_uruk_trace_check import RULING_VALUES, Checker, trace_of

#: replays traces through the checker: slow, as the checker's own tests
pytestmark = pytest.mark.slow

#: the default, then each ruling switched alone
SETTINGS = [{}] + [{k: v[1]} for k, v in RULING_VALUES.items()]
LINEUPS = {
    2: ["balanced", "random"],
    3: ["balanced", "hoarder", "builder"],
    4: ["random", "builder", "hoarder", "balanced"],
}


class _Recorder(Checker):
    """The checker, noting every seat's score (its plain twin of the scoring) after
    each turn, the turn's activation included (the checker's ``after_turn``)."""

    def __init__(self, trace: dict) -> None:
        super().__init__(trace)
        self.track: list[list[int]] = []

    def after_turn(self):
        self.track.append([self.score_of(q)[0] for q in range(self.n)])
        super().after_turn()


def _checker_track(trace: dict) -> list[list[int]]:
    r = _Recorder(trace)
    r.run()
    return r.track


@pytest.mark.parametrize("rulings", SETTINGS, ids=lambda r: ",".join(r.values()) or "default")
def test_the_score_track_is_the_checkers_score_after_every_turn(rulings):
    g = load_game("uruk")
    for i in range(6):
        n = 2 + i % 3
        lineup = LINEUPS[n] if i % 2 else ["balanced"] * n
        trace = trace_of(n, lineup, 29, i, rulings)
        job = g.make_job(n, lineup, 29, g.load_rules(dict(rulings), {}, "x"))
        track = g.score_track(job, trace)
        assert track is not None, f"game {i}: the track misses the final scores"
        assert track["scores"] == _checker_track(trace), f"game {i} ({rulings})"
        assert len(track["turns"]) == len(track["scores"]) == len(track["keys"])
        assert track["turns"] == sorted(set(track["turns"]))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_last_point_is_the_games_tables_score_and_winner(players):
    from analyzer.uruk.game import simulate

    g = load_game("uruk")
    lineup = LINEUPS[players]
    rules = g.load_rules({}, {}, "x")
    job = g.make_job(players, lineup, 5, rules)
    table = simulate(players, lineup, 30, 5, rules)
    for i in range(30):
        rows = table[table.game == i].sort_values("seat")
        track = g.score_track(job, g.replay_events(job, i))
        assert track is not None, f"game {i}: the track misses the final scores"
        assert track["scores"][-1] == rows.score.tolist(), f"game {i}"
        wins = rows.win.tolist()
        top = [p for p, w in enumerate(wins) if w == max(wins)]
        lead = leaders(track["scores"], track["keys"])[-1]
        assert lead == (top[0] if len(top) == 1 else -1), f"game {i}: the leader is the winner"


def test_a_wrong_running_score_is_refused():
    """The track answers None, never a guess, when its last point misses the final
    scores (a planted fault: a resource taken that the trace does not hold)."""
    g = load_game("uruk")
    job = g.make_job(2, ["balanced"] * 2, 3, g.load_rules({}, {}, "x"))
    trace = g.replay_events(job, 0)
    assert g.score_track(job, trace) is not None
    events = trace["events"]
    i = next(i for i, e in enumerate(events) if e["type"] == "take_resource")
    events[i:i] = [dict(events[i]) for _ in range(4)]  # four more: one more point
    assert g.score_track(job, trace) is None
