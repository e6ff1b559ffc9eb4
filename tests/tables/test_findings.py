"""Findings: sentences with interval and n, Holm's correction, ranking, questions.

The end-to-end tests use the stand-in coin game (``tests/standin_game.py``), so
the findings layer is exercised with nothing that is Unearth's.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pytest

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.core.stats import holm
from analyzer.games import Strategy, available_games, load_game
from analyzer.scenario import parse_scenario
from analyzer.tables import findings as F


def test_holm_by_hand():
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 -> max(0.06, 0.04)
    got = holm([0.01, 0.04, 0.03, 0.005])
    assert got == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.2, 0.9]) == pytest.approx([0.4, 0.9])
    assert holm([0.7, 0.8]) == pytest.approx([1.0, 1.0])  # capped at 1
    nan = holm([0.01, math.nan])  # a NaN does not count towards m
    assert nan[0] == pytest.approx(0.01) and math.isnan(nan[1])


def _finding(effect_size: float, p: float, question="q") -> F.Finding:
    return F.Finding(question, "x", "s", "t", 0.3, 0.2, 0.4, 100, "games", 0.25, 0.05,
                     effect_size, p)  # fmt: skip


def test_correction_decides_significance_and_effect_size_decides_rank():
    found = F.correct(
        [_finding(0.10, 0.02), _finding(0.50, 0.30), _finding(0.05, 0.0001), _finding(0.2, 0.03)]
    )
    # ranked by effect size, not by p-value
    assert [f.effect_size for f in found] == [0.50, 0.2, 0.10, 0.05]
    assert [f.rank for f in found] == [1, 2, 3, 4]
    sig = {f.effect_size: f.significant for f in found}
    # 0.02 and 0.03 are below 0.05 alone but not after Holm over four (0.02 x 3, 0.03 x 2)
    assert sig == {0.05: True, 0.2: False, 0.10: False, 0.50: False}
    adjusted = {f.effect_size: f.p_adjusted for f in found}
    assert adjusted[0.2] == pytest.approx(0.06) and adjusted[0.10] == pytest.approx(0.06)
    assert adjusted[0.05] == pytest.approx(0.0004) and adjusted[0.50] == pytest.approx(0.30)


def _first_player_table(win=0.274, low=0.267, high=0.281, games=16000, players=4):
    return pd.DataFrame(
        {"cell": [0], "label": ["default"], "players": [players], "games": [games],
         "seat0_win": [win], "seat0_win_low": [low], "seat0_win_high": [high],
         "fair": [1 / players], "advantage": [win - 1 / players], "significant": [True]}
    )  # fmt: skip


def _seats_table():
    rates = [0.274, 0.262, 0.245, 0.219]
    return pd.DataFrame(
        {"cell": 0, "label": "default", "players": 4, "seat": range(4), "n": 16000,
         "win_rate": rates, "win_rate_low": [r - 0.007 for r in rates],
         "win_rate_high": [r + 0.007 for r in rates], "fair": 0.25}
    )  # fmt: skip


@dataclass
class _Game:
    strategies: tuple = (Strategy("balanced", "plays well", (("w", 1.0),)),)
    questions: tuple = field(default_factory=lambda: F.GENERIC)

    def strategy_names(self):
        return tuple(s.name for s in self.strategies)


INFO = {
    "scenario": {"name": "default", "strategies": ["balanced"] * 4, "overrides": {}},
    "cells": [{"index": 0, "label": "default", "players": 4, "orders": [["balanced"] * 4]}],
    "rules": {"rulings": {"edition": "english"}},
    "analyzer_version": "9.9",
    "rules_version": "r-1",
    "assumed": [{"key": "deck.size", "value": 40, "note": "not printed"}],
}


def test_first_player_sentence_has_estimate_interval_n_and_fair_share():
    found = F.answer({"first_player": _first_player_table()}, INFO, _Game())
    (f,) = found.findings
    assert f.text == (
        "The first player wins 27.4% [26.7, 28.1] of 4-player games, "
        "2.4 points above a fair 25% (n = 16,000 games)."
    )
    assert f.significant and f.p_adjusted < 1e-6 and f.n == 16000
    assert f.effect == pytest.approx(0.024) and f.effect_size == pytest.approx(0.024 / 0.25)
    assert [q["id"] for q in found.questions] == ["first_player"]  # no data: others left out


def test_a_small_effect_is_not_significant():
    table = _first_player_table(win=0.255, low=0.24, high=0.27, games=3000)
    (f,) = F.answer({"first_player": table}, INFO, _Game()).findings
    assert not f.significant and "0.5 points above a fair 25% (n = 3,000 games)" in f.text
    assert f.verdict().startswith("not significant (Holm-adjusted p = 0.")


def test_every_sentence_states_an_interval_and_n():
    tables = {"first_player": _first_player_table(), "seats": _seats_table()}
    found = F.answer(tables, INFO, _Game())
    assert len(found.findings) == 4  # first player and three other seats
    for f in found.findings:
        assert f"[{100 * f.low:.1f}, {100 * f.high:.1f}]" in f.text
        assert f"n = {f.n:,} games" in f.text
    # the last seat is held back by more than the first is favoured: it ranks first
    assert found.findings[0].subject == "seat 3 win rate"
    assert "The fourth (last) player wins 21.9%" in found.findings[0].text
    # the p-values were corrected over all four findings
    raw = [f.p_value for f in found.findings]
    assert [f.p_adjusted for f in found.findings] == pytest.approx(list(holm(raw)))


def test_whose_play_and_assumed_values_are_stated():
    found = F.answer({"first_player": _first_player_table()}, INFO, _Game())
    assert found.whose_play[0] == "Every seat played balanced."
    assert "balanced: plays well (parameters w 1)." in found.whose_play
    assert "analyzer 9.9" in found.whose_play[-1] and "r-1" in found.whose_play[-1]
    assert any("deck.size = 40" in line for line in found.assumed)
    assert any("edition = english" in line for line in found.assumed)


def test_explicit_questions_are_answered_in_their_order():
    asked = [{"id": "seats", "params": {"seat": 0}}]
    info = {**INFO, "scenario": {**INFO["scenario"], "questions": asked}}
    found = F.answer({"first_player": _first_player_table(), "seats": _seats_table()}, info,
                     _Game())  # fmt: skip
    assert found.explicit and [q["id"] for q in found.questions] == ["seats"]
    (f,) = found.findings
    assert f.question == "seats:seat=0" and "The first player wins 27.4%" in f.text


def test_every_game_registers_questions_through_the_seam():
    for name in available_games():
        g = load_game(name)
        ids = [q.id for q in F.game_questions(g)]
        assert ids[0] == "first_player" and len(set(ids)) == len(ids), name
    own = {"unearth": "named_wonders", "uruk": "inventions", "colorful_treasure": "rewards"}
    for name, qid in own.items():
        assert qid in [q.id for q in load_game(name).questions]


BASE = {"game": "coin", "players": 3, "strategies": ["fair", "lucky", "fair"], "games": 50}


@pytest.mark.parametrize(
    "questions, message",
    [
        (["nope"], "q: questions[0].ask: bad value 'nope' (allowed: first_player, seats"),
        ([{"ask": "seats", "colour": 1}], "q: questions[0]: unknown key 'colour' for question "
                                          "'seats' (allowed: seat)"),
        (["variant_effect"], "q: questions[0]: question 'variant_effect' needs a [compare.a]"),
        ([{"ask": "strategies", "strategy": "greedy"}],
         "q: questions[0].strategy: bad value 'greedy' (allowed: fair, lucky)"),
        ([{"seat": 1}], "q: questions[0]: missing key 'ask'"),
        ("seats", "q: questions: bad value 'seats' (allowed: a non-empty list"),
    ],
)  # fmt: skip
def test_scenario_questions_are_checked(questions, message):
    with pytest.raises(InputError) as err:
        parse_scenario({**BASE, "questions": questions}, "q")
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_scenario_questions_are_kept():
    sc = parse_scenario({**BASE, "questions": ["first_player", {"ask": "seats", "seat": 2}]}, "q")
    assert sc.as_dict()["questions"] == [
        {"id": "first_player", "params": {}},
        {"id": "seats", "params": {"seat": 2}},
    ]


SCENARIO = """
game = "coin"
name = "coins"
description = "is the lucky coin better?"
players = 3
strategies = ["fair", "lucky", "fair"]
games = 600
seed = 9
questions = ["strategies", "first_player"]
"""


@pytest.mark.slow
def test_report_opens_with_the_findings(tmp_path):
    src = tmp_path / "coins.toml"
    src.write_text(SCENARIO)
    out = tmp_path / "r"
    assert run_cli(["run", str(src), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    data = manifest["findings"]
    assert [q["id"] for q in data["questions"]] == ["strategies", "first_player"]
    assert data["explicit"] and len(data["findings"]) == 3  # fair, lucky, seat 0
    ranks = sorted(data["findings"], key=lambda f: f["rank"])
    sizes = [f["effect_size"] for f in ranks]
    assert sizes == sorted(sizes, reverse=True)
    lucky = next(f for f in data["findings"] if f["subject"] == "lucky win rate")
    assert lucky["significant"] and lucky["effect"] > 0  # p = 0.6 beats a fair coin
    table = pd.read_csv(out / "tables" / "findings.csv")
    assert len(table) == 3 and "tables/findings.csv" in manifest["files"]
    summary = (out / "summary.md").read_text()
    head = summary.split("## Settings")[0]
    assert "## Findings" in head and "**1. Does any strategy win more" in head
    assert lucky["text"] in head and "Holm-adjusted" in head
    assert np.isfinite(lucky["low"]) and lucky["low"] < lucky["estimate"] < lucky["high"]


def test_assumed_lines_name_the_rulings_of_every_configuration():
    """A comparison of rulings lists the first configuration's rulings and then what
    the others play instead, so a variant's ruling is never hidden behind cell 0's."""
    rulings = {"scoring": "advanced", "tiles": "none"}
    info = {
        "rules": {"rulings": rulings},
        "cells": [
            {"label": "no tiles", "rules": {"rulings": rulings}},
            {"label": "tiles a", "rules": {"rulings": {**rulings, "tiles": "a"}}},
        ],
    }
    first = F.assumed_lines(info)[0]
    assert first == "Rulings: scoring = advanced, tiles = none; except in tiles a: tiles = a."
    info["cells"] = info["cells"][:1]
    assert F.assumed_lines(info)[0] == "Rulings: scoring = advanced, tiles = none."
    many = [{"label": f"c{i}", "rules": {"rulings": {"tiles": str(i)}}} for i in range(6)]
    info["cells"] = many
    assert "6 configurations play other rulings" in F.assumed_lines(info)[0]


def _three_variant_run(seed: int = 3, games: int = 300):
    """A synthetic run of the coin game in three variants on the same game indices,
    with a per-seat column ``steals`` and its per-game mean ``steals_per_seat``:
    variant b adds one steal to seat 1, variant c none. Returns (tables, info, games)."""
    from analyzer.games import Column, describe_columns
    from analyzer.tables.aggregate import Reducer, build_tables, paired_metrics

    rng = np.random.default_rng(seed)
    players = 3
    base = rng.poisson(2.0, size=(games, players)).astype(np.int16)
    noise = rng.integers(0, 2, size=(games, players)).astype(np.int16)
    frames = []
    for cell, extra in enumerate((np.zeros_like(base), noise * np.array([0, 2, 0]), 0 * base)):
        steals = base + extra
        score = rng.integers(0, 6, size=(games, players)).astype(np.int16)
        win = (score == score.max(axis=1, keepdims=True)).astype(np.float32)
        win /= win.sum(axis=1, keepdims=True)
        frames.append(
            pd.DataFrame(
                {
                    "cell": np.int16(cell),
                    "order": np.int16(0),
                    "game": np.repeat(np.arange(games, dtype=np.int64), players),
                    "seat": np.tile(np.arange(players, dtype=np.int8), games),
                    "n_players": np.int8(players),
                    "strategy": pd.Categorical(["fair", "lucky", "fair"] * games),
                    "score": score.reshape(-1),
                    "win": win.reshape(-1),
                    "game_turns": np.int16(5),
                    "steals": steals.reshape(-1),
                }
            )
        )
    g = pd.concat(frames, ignore_index=True)
    columns = (Column("steals", "steals made", game_mean="steals_per_seat"),)
    info = {
        "game": "coin",
        "cells": [
            {"index": i, "label": lab, "players": players, "params": {"variant": k}}
            for i, (k, lab) in enumerate((("a", "plain"), ("b", "thief"), ("c", "honest")))
        ],
        "pairs": [[0, 1], [0, 2]],
        "columns": describe_columns(columns),
        "scenario": {
            "compare": {k: {"label": lab} for k, lab in (("a", "plain"), ("b", "thief"),
                                                         ("c", "honest"))},
            "questions": [
                {"id": "variant_effect", "params": {"metric": "steals"}},
                {"id": "variant_effect", "params": {"metric": "steals", "seat": 1}},
                {"id": "variant_effect", "params": {"metric": "steals_per_seat"}},
                {"id": "variant_effect", "params": {"strategy": "lucky"}},
            ],
        },
    }  # fmt: skip
    assert paired_metrics(info) == ("steals",)
    reducer = Reducer(((0, 1), (0, 2)), game="coin", columns=columns, paired_metrics=("steals",))
    tables = build_tables(reducer({"games": g}), info)
    return tables, info, g


def test_each_variant_is_paired_with_the_first_on_a_declared_metric():
    """A game's own per-seat metric and its per-game mean are compared variant by
    variant against the first (the right scope each), Holm over all of them, and
    the headings name the variants by their labels (also for a strategy)."""
    tables, info, g = _three_variant_run()
    out = F.answer(tables, info, load_game("coin"))
    heads = [q["text"] for q in out.questions]
    assert heads == [
        "What does each of the 2 variants change, against plain? (steals)",
        "What does each of the 2 variants change, against plain? (steals, seat 1)",
        "What does each of the 2 variants change, against plain? (steals_per_seat)",
        "What does each of the 2 variants change, against plain? (win rate of lucky)",
    ]
    assert len(out.findings) == 4 * 2  # every question, each variant against the first
    by = {(f.question, f.label): f for f in out.findings}
    a = g[g["cell"] == 0].set_index(["game", "seat"])["steals"]
    b = g[g["cell"] == 1].set_index(["game", "seat"])["steals"]
    d = (b - a).astype(float)
    f = by[("variant_effect:metric=steals", "thief")]
    assert f.estimate == pytest.approx(d.mean()) and f.n == len(d) and f.significant
    half = 1.959964 * d.std(ddof=1) / np.sqrt(len(d))
    assert (f.low, f.high) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-4)
    seat1 = by[("variant_effect:metric=steals,seat=1", "thief")]
    d1 = d.xs(1, level="seat")
    assert seat1.estimate == pytest.approx(d1.mean()) and seat1.n == len(d1)
    per_game = by[("variant_effect:metric=steals_per_seat", "thief")]
    assert per_game.estimate == pytest.approx(d.groupby(level="game").mean().mean())
    assert per_game.n == g["game"].nunique()
    honest = by[("variant_effect:metric=steals", "honest")]
    assert honest.estimate == 0 and not honest.significant
    assert "honest instead of plain" in honest.text
    assert "unchanged in every one of the 900 paired games" in honest.text  # no pair differs
    p = sorted(x.p_value for x in out.findings if np.isfinite(x.p_value))
    m = len(p)
    assert min(x.p_adjusted for x in out.findings if np.isfinite(x.p_value)) == pytest.approx(
        min(1.0, m * p[0])
    )  # Holm over every variant's findings, not per variant
