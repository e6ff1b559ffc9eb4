"""The landscape's questions: answered from the manifest only when a scenario asks
them, in words naming the field, with intervals."""

from __future__ import annotations

import pytest

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.runs.scenario_file import parse_scenario
from analyzer.tables import findings as F
from analyzer.tables.landscape import LANDSCAPE

LADDER = {
    "strategies": ["claimer", "collector", "random"],
    "players": 2,
    "games_total": 6000,
    "equilibrium": {"claimer": 0.58, "collector": 0.42, "random": 0.0},
    "equilibrium_interval": {
        "claimer": [0.45, 0.70],
        "collector": [0.30, 0.55],
        "random": [0.0, 0.0],
    },  # fmt: skip
    "entropy": 0.98,
    "entropy_interval": [0.9, 1.0],
}
STEP = {
    "players": 2, "weaker": "baseline", "stronger": "balanced",
    "field": "one balanced seat against 1 baseline", "games": 500, "seat_games": 1000,
    "win_share": 0.76, "low": 0.73, "high": 0.79, "fair": 0.5, "verdict": "skill matters",
    "chance_share": 0.3, "chance_low": 0.25, "chance_high": 0.35,
    "chance_method": "same deals, seats swapped", "deal_share": 0.3, "deal_low": 0.25,
    "deal_high": 0.35, "skill_share": 0.2, "skill_low": 0.15, "skill_high": 0.25,
}  # fmt: skip
DRAMA = {
    "close": 0.05,
    "rows": [
        {"players": 3, "field": "greedy, greedy, greedy", "games": 400, "mean_turns": 24.0,
         "lead_changes": 5.5, "lead_changes_low": 5.1, "lead_changes_high": 5.9,
         "any_change_share": 0.95, "any_change_low": 0.92, "any_change_high": 0.97,
         "half_leader_wins": 0.48, "half_leader_low": 0.43, "half_leader_high": 0.53,
         "decided_at_share": 0.8, "decided_at_turn": 20, "decided_rate": 0.91,
         "decided_low": 0.88, "decided_high": 0.94, "leader_wins_at_90pct": 0.93,
         "margin": 7.4, "margin_low": 6.8, "margin_high": 8.1, "relative_margin": 0.17,
         "close_share": 0.13, "close_low": 0.1, "close_high": 0.17}
    ],
}  # fmt: skip


def _info(asked):
    return {
        "game": "coin",
        "scenario": {"name": "x", "questions": [{"id": q, "params": {}} for q in asked]},
        "cells": [],
        "ladder": LADDER,
        "skill": {"players": 2, "clear_edge": 0.1, "steps": [STEP]},
        "drama": DRAMA,
    }


def test_every_game_may_ask_the_landscape_questions():
    sc = parse_scenario(
        {"game": "coin", "players": 2, "strategies": "fair", "games": 10,
         "questions": ["equilibrium", "skill", "drama"]}, "q",
    )  # fmt: skip
    assert [q["id"] for q in sc.questions] == ["equilibrium", "skill", "drama"]
    assert {q.id for q in LANDSCAPE} <= {q.id for q in F.GENERIC}


def test_they_answer_only_when_asked():
    found = F.answer({}, _info([]))
    assert not any(f.question in ("equilibrium", "skill", "drama") for f in found.findings)


def test_the_answers_name_the_field_with_intervals():
    found = F.answer({}, _info(["equilibrium", "skill", "drama"]))
    by = {q["id"]: found.for_question(i) for i, q in enumerate(found.questions)}
    eq = by["equilibrium"][0].text
    assert "no strategy dominates" in eq and "claimer 58% [45, 70] and collector 42% [30, 55]" in eq
    assert "the 3 strategies claimer, collector, random at 2 players" in eq
    (sk,) = by["skill"]
    assert sk.text.startswith("Skill matters at 2 players (head to head; fair share 50%)")
    assert "one balanced seat against 1 baseline" in sk.text
    assert "Chance alone explains 30% [25, 35]" in sk.text and sk.low == 0.73
    (dr,) = by["drama"]
    assert dr.text.startswith("At 3 players (greedy in every seat; 400 games traced)")
    assert "It is decided 80% of the way through (after turn 20 of 24" in dr.text


def test_every_finding_and_its_verdict_name_the_field():
    """The subject (what page 1's verdict line quotes) and every part of the text
    name the players: the meta-game's strategies and seats, each skill step's seats,
    each player count's field in drama."""
    info = _info(["equilibrium", "skill", "drama"])
    search = {**STEP, "stronger": "search", "weaker": "balanced", "games": 50,
              "field": "one search seat against 1 balanced", "win_share": 0.6}  # fmt: skip
    info["skill"] = {**info["skill"], "steps": [STEP, search]}
    two = {**DRAMA["rows"][0], "players": 2, "field": "greedy, random"}
    info["drama"] = {**DRAMA, "rows": [*DRAMA["rows"], two]}
    info["scenario"]["players"] = 3
    found = F.answer({}, info)
    by = {q["id"]: found.for_question(i) for i, q in enumerate(found.questions)}
    for f in by["equilibrium"]:
        assert f.subject.endswith("(3 strategies at 2 players, head to head)")
    (sk,) = by["skill"]
    assert (
        sk.subject == "balanced's win share against baseline (one balanced seat against 1 baseline)"
    )
    assert "(one search seat against 1 balanced, 50 games a line-up), skill matters" in sk.text
    (dr,) = by["drama"]
    assert dr.subject == "lead changes a game at 3 players (greedy in every seat)"
    assert "2 players (greedy, random) 5.5 [5.1, 5.9] lead changes a game" in dr.text
    fields = {
        "equilibrium": "(3 strategies at 2 players, head to head)",
        "skill": "(one balanced seat against 1 baseline)",
        "drama": "(greedy in every seat)",
    }
    assert set(found.verdicts) == set(fields)
    for key, line in found.verdicts.items():
        assert fields[key] in line, f"the {key} verdict names no field: {line}"


def test_drama_leads_with_the_scenarios_own_player_count():
    info = _info(["drama"])
    two = {**DRAMA["rows"][0], "players": 2, "field": "greedy, greedy", "lead_changes": 4.0,
           "lead_changes_low": 3.8, "lead_changes_high": 4.2}  # fmt: skip
    info["drama"] = {**DRAMA, "rows": [two, *DRAMA["rows"]]}
    info["scenario"]["players"] = 3
    (dr,) = F.answer({}, info).findings
    assert dr.text.startswith("At 3 players") and dr.estimate == 5.5
    assert (
        "Other player counts: 2 players (greedy in every seat) 4.0 [3.8, 4.2] lead changes"
        in dr.text
    )
    assert dr.subject == "lead changes a game at 3 players (greedy in every seat)"


@pytest.mark.parametrize("qid", ["equilibrium", "skill", "drama"])
def test_asked_without_its_study_the_question_has_no_findings(qid):
    info = _info([qid])
    for key in ("ladder", "skill", "drama"):
        info.pop(key)
    found = F.answer({}, info)
    assert [q["id"] for q in found.questions] == [qid] and not found.findings


def test_drama_not_measured_says_so():
    info = _info(["drama"])
    info["drama"] = {"rows": [], "not_measured": [2, 3]}
    found = F.answer({}, info)
    (dr,) = found.findings
    assert dr.text == "Not measured at 2, 3 players: this game's trace gives no running score."
    assert not dr.significant and dr.verdict() == "not significant"


def test_descriptive_questions_are_said_without_yes_or_no():
    """The meta-game and drama describe, they test nothing: their page-1 line says
    what holds in words (no "Yes: … +100.0 points" of a share, no signed count)."""
    info = _info(["equilibrium", "drama"])
    found = F.answer({}, info)
    eq, dr = found.verdicts["equilibrium"], found.verdicts["drama"]
    for line in (eq, dr):
        assert not line.startswith(("Yes", "No:", "Not shown")), line
        assert "+" not in line, line
    assert "dominates" in eq
    assert dr.startswith("Measured: the lead changes 5.5 [5.1, 5.9] times a game at 3 players")
    assert dr.endswith("; decided 80% of the way through.")
    info["drama"] = {"rows": [], "not_measured": [2, 3]}
    assert F.answer({}, info).verdicts["drama"].startswith("Not measured: Not measured at 2, 3")
