# ruff: noqa: E501  (the tables of cases read best one case per line)
"""The sensitivity study: assumed values moved to the ends of their declared ranges,
the same games played again, and each finding told as holding, losing its
significance or flipping its sign."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.runs.scenario_file import sensitivity_scenario
from analyzer.scenario import load_scenario, parse_scenario
from analyzer.studies import sensitivity as S
from analyzer.tables import findings as F

WHERE = "scenarios/x.toml"
URUK = {"game": "uruk", "players": 4, "strategies": "balanced", "games": 100, "seed": 1}


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        ({"sensitivity": "yes"}, "sensitivity: bad value 'yes' (allowed: true, false or a table"),
        ({"sensitivity": {"games": 1}}, "sensitivity.games: bad value 1 (allowed: an integer from 2"),
        ({"sensitivity": {"runs": 3}}, "unknown key 'sensitivity.runs' (allowed: games, values)"),
        ({"sensitivity": {"values": ["inventions.nope"]}}, "sensitivity.values: bad value 'inventions.nope' (allowed: inventions.lehmhaus, "),
        ({"sensitivity": {"values": "some"}}, "sensitivity.values: bad value 'some' (allowed: \"all\" or a list of assumed keys"),
        ({"sensitivity": True, "compare": {"a": {}, "b": {}}}, "sensitivity: not with [compare] (allowed: a scenario of one configuration"),
        ({"sensitivity": True, "sweep": {"param": "players", "values": [3, 4]}}, "sensitivity: not with [sweep]"),
        ({"sensitivity": True}, ""),
        ({"sensitivity": False}, ""),
        ({"sensitivity": {"values": ["epochs.III.cost"], "games": 50}}, ""),
    ],
)  # fmt: skip
def test_sensitivity_key_is_checked(changes, text):
    raw = {**URUK, **changes}
    if text == "":
        parse_scenario(raw, WHERE)
        return
    with pytest.raises(InputError) as err:
        parse_scenario(raw, WHERE)
    msg = str(err.value)
    assert msg.startswith(WHERE) and text in msg and "\n" not in msg, msg


def test_plan_moves_each_assumed_number_to_each_end_of_its_range():
    sc = parse_scenario({**URUK, "sensitivity": True}, WHERE)
    p = S.plan(sc)
    moves = p["moves"]
    assert len({m["key"] for m in moves}) == 30
    assert all(m["value"] != m["current"] for m in moves)  # an end equal to the value: not played
    assert len(moves) == 58  # Domestizierung's low end and Leuchtturm's are the values played
    assert [n["key"] for n in p["not_varied"]] == ["inventions.split"]
    epoch = [m for m in moves if m["key"] == "epochs.III.cost"]
    assert [(m["path"], m["end"], m["value"]) for m in epoch] == [
        ("epochs.III.per_colour", "low", 2),
        ("epochs.III.per_colour", "high", 4),
    ]
    study = sensitivity_scenario(sc)
    assert [v.label for v in study.compare][:2] == [
        "assumed values as played",
        "inventions.lehmhaus.extra = 0 (low)",
    ]
    assert study.games == S.DEFAULT_GAMES and study.sensitivity is None and not study.save_tables
    # a value the scenario sets itself is no longer a guess
    own = parse_scenario(
        {**URUK, "sensitivity": True, "overrides": {"epochs.III.per_colour": 3}}, WHERE
    )
    assert "epochs.III.cost" not in {m["key"] for m in S.plan(own)["moves"]}


def _finding(subject, estimate, low, high, significant, reference=0.25):
    return F.Finding(
        question="q", label="base", subject=subject, text="", estimate=estimate, low=low,
        high=high, n=1000, n_unit="games", reference=reference, effect=estimate - reference,
        effect_size=0.0, p_value=0.0, significant=significant,
    )  # fmt: skip


def _row(subject, estimate, significant, reference=0.25):
    return {"question": "q", "subject": subject, "estimate": estimate, "low": estimate - 0.01,
            "high": estimate + 0.01, "n": 500, "effect": estimate - reference,
            "significant": significant}  # fmt: skip


def test_verdicts_hold_lose_flip_or_cannot_tell():
    """Each main-run finding against each moved value, at the study's own n."""
    found = F.Findings(
        questions=[{"id": "q", "text": "q", "params": {}}],
        findings=[
            _finding("a", 0.30, 0.29, 0.31, True),
            _finding("b", 0.30, 0.29, 0.31, True),
            _finding("c", 0.26, 0.24, 0.28, False),
        ],
        method="",
    )
    move = {"key": "k", "path": "x.y", "end": "low", "value": 1, "current": 2}
    info = {
        "assumed": [{"key": "k"}],
        "sensitivity": {
            "games": 500,
            "games_total": 1500,
            "moves": [move, {**move, "end": "high", "value": 3}],
            "not_varied": [],
            "cells": [
                {"index": 0, "move": None,
                 "findings": [_row("a", 0.30, True), _row("b", 0.26, False), _row("c", 0.26, False)]},
                {"index": 1, "move": move,
                 "findings": [_row("a", 0.26, False), _row("b", 0.30, True), _row("c", 0.31, True)]},
                {"index": 2, "move": {**move, "end": "high", "value": 3},
                 "findings": [_row("a", 0.20, True), _row("b", 0.30, True), _row("c", 0.26, False)]},
            ],
        },
    }  # fmt: skip
    t = S.verdict_table(info, found)
    got = {(r["finding"], r["end"]): r["verdict"] for _, r in t.iterrows()}
    assert got == {
        ("a", "low"): "loses significance",
        ("a", "high"): "flips sign",
        ("b", "low"): "too few games to tell",  # not significant at the study's n as played
        ("b", "high"): "too few games to tell",
        ("c", "low"): "becomes significant",
        ("c", "high"): "not significant in the base run",
    }
    ((heading, lines),) = S.notes(info, found)
    text = " ".join(lines)
    assert (
        "flips sign when x.y = 3 (high)" in text and "loses significance when x.y = 1 (low)" in text
    )
    assert "Too few games to tell" in text and "b" in text
    assert S.notes({"assumed": [], "sensitivity": {"moves": [], "not_varied": []}}, found)[0][
        1
    ] == [
        "The rules as played assume no value: no finding hangs on a guess, and there is nothing "
        "to vary."
    ]


SCENARIO = """
game = "colorful_treasure"
name = "ct_sens"
players = 4
lineup = ["random", "greedy", "perfect", "hunter"]
rotation = "cyclic"
games = 400
seed = 5
questions = ["first_player", "strategies"]

[sensitivity]
games = 400
"""


@pytest.mark.slow
def test_a_run_tells_the_study_on_page_one_and_in_csv(tmp_path):
    """End to end: the study plays the same games as the base run (equal games and
    seed: the values as played give the base run's very estimates), one
    configuration per end of each range, and writes its verdicts and shifts."""
    src = tmp_path / "s.toml"
    src.write_text(SCENARIO)
    out = tmp_path / "r"
    assert run_cli(["run", str(src), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    sens = manifest["sensitivity"]
    plan = S.plan(load_scenario(src))
    assert len(sens["moves"]) == len(plan["moves"]) == 3
    assert sens["configurations"] == 4 and sens["games_total"] == 4 * 400
    t = pd.read_csv(out / "tables" / "sensitivity.csv")
    base = manifest["findings"]["findings"]
    assert len(t) == len(base) * 3
    for f in base:  # common random numbers: the study's base is the run itself
        rows = t[t["finding"] == f["subject"]]
        assert rows["at_n"].to_numpy() == pytest.approx([f["estimate"]] * 3, rel=1e-5)
    assert set(t["verdict"]) <= set(S.VERDICTS)
    shifts = pd.read_csv(out / "tables" / "sensitivity_shifts.csv")
    assert len(shifts) == 3 * 3 and (shifts["shift_low"] <= shifts["shift_high"]).all()
    summary = (out / "summary.md").read_text()
    assert "Does a finding hang on a guess?" in summary.split("## Settings")[0]
    assert "2 assumed values moved to the ends of their range (3 configurations" in summary
    assert not math.isnan(t["moved"].iloc[0])
