"""Drama and decisiveness: the leader, lead changes and the decided point on
hand-made tracks, and every game's score track checked against its final scores."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.studies.drama import (
    drama,
    game_measures,
    lead_changes,
    leaders,
    summarise,
)
from analyzer.tables.landscape import drama_sentences


def test_the_leader_is_the_single_top_score_ties_broken_by_the_keys():
    scores = [[0, 0], [3, 1], [3, 3], [2, 5], [5, 5]]
    assert leaders(scores).tolist() == [-1, 0, -1, 1, -1]
    keys = [[[0], [0]], [[0], [0]], [[1], [0]], [[0], [0]], [[0], [2]]]
    assert leaders(scores, keys).tolist() == [-1, 0, 0, 1, 1]


def test_a_tie_does_not_end_a_lead():
    assert lead_changes([-1, 0, -1, 0, 1, -1, 1, 0]) == 2
    assert lead_changes([-1, -1]) == 0


def _track(leader_path, final_winner, turns=10):
    """A 2-seat track whose single leader follows ``leader_path`` (one per turn)."""
    scores = []
    for p in leader_path:
        row = [0.0, 0.0]
        if p >= 0:
            row[p] = 1.0
        scores.append(row)
    scores[-1] = [1.0, 0.0] if final_winner == 0 else [0.0, 1.0]
    return {"turns": list(range(turns)), "scores": scores}


def test_a_game_decided_at_seven_tenths():
    # seat 1 leads the first six turns and loses; seat 0 leads from the 7th turn and wins
    path = [1] * 6 + [0] * 4
    measures = [game_measures(_track(path, 0), [0]) for _ in range(20)]
    row = summarise(measures)
    assert row["decided_at_share"] == pytest.approx(0.7)
    assert row["lead_changes"] == 1.0
    assert row["leader_wins_at_60pct"] == 0.0 and row["leader_wins_at_70pct"] == 1.0
    assert row["margin"] == 1.0 and row["close_share"] == 0.0


def test_a_game_never_decided_before_the_end():
    rng = np.random.default_rng(0)
    measures = []
    for _ in range(50):
        winner = int(rng.integers(2))
        path = [int(x) for x in rng.integers(0, 2, 10)]
        measures.append(game_measures(_track(path, winner), [winner]))
    row = summarise(measures)
    assert row["decided_at_share"] == 1.0  # only the last turn's leader always wins
    text = " ".join(drama_sentences({"rows": [{**row, "players": 2, "field": "x, x"}]}))
    assert "No point before the end decides it" in text and "x in every seat" in text


@pytest.mark.parametrize("game", ["colorful_treasure", "unearth", "uruk"])
@pytest.mark.parametrize("players", [2, 4])
def test_every_score_track_ends_at_the_final_scores(game, players):
    """A game's score track is checked against its final scores: every game of a
    short run has one (a missing event kind would leave one short)."""
    from analyzer.games import load_game

    g = load_game(game)
    job = g.make_job(players, [g.default_strategy] * players, 11, g.load_rules({}, {}, "x"))
    for i in range(12):
        trace = g.replay_events(job, i)
        track = g.score_track(job, trace)
        assert track is not None, f"game {i}: the track misses the final scores"
        assert len(track["scores"]) == len(track["turns"])
        lead = leaders(track["scores"], track.get("keys"))[-1]
        winners = trace["final"]["winners"]
        if len(winners) == 1:  # the last turn's single leader is the winner
            assert lead == winners[0]


def test_drama_reports_a_game_without_a_track_as_not_measured(monkeypatch):
    from analyzer.games import Game, load_game

    assert Game.score_track(None, None, {}) is None  # the default: the game cannot say
    d = drama("colorful_treasure", [2], 6, seed=2)
    assert d.info["measured"] and len(d.table) == 1 and d.table.iloc[0]["untracked"] == 0
    assert math.isfinite(d.table.iloc[0]["lead_changes"])
    g = load_game("colorful_treasure")
    monkeypatch.setattr(type(g), "score_track", lambda self, job, trace: None)
    d = drama("colorful_treasure", [2, 3], 6, seed=2)
    assert not d.info["measured"] and d.info["not_measured"] == [2, 3] and d.table.empty
    words = drama_sentences(d.as_dict())
    assert words == ["Not measured at 2, 3 players: this game's trace gives no running score."]
