"""The landscape scenarios: every part sized from the scenario's games, and a
small run of one end to end (ladder.json's keys, the tables, page 1's answers)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.runs.scenario_file import load_scenario, with_overrides
from analyzer.studies.landscape import QUESTION_IDS, asked, sizes

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(ROOT.glob("scenarios/*_landscape.toml"))


def test_one_landscape_scenario_per_game_asks_every_question():
    games = {load_scenario(p).game for p in SCENARIOS}
    assert games == {"unearth", "colorful_treasure", "uruk"}
    for path in SCENARIOS:
        sc = load_scenario(path)
        assert set(QUESTION_IDS) <= {q["id"] for q in sc.questions}
        assert sc.plays_games and asked(sc) == list(QUESTION_IDS)


def test_games_scales_every_part():
    sc = load_scenario(ROOT / "scenarios/unearth_landscape.toml")
    big, small = sizes(sc), sizes(with_overrides(sc, games=400))
    assert small == {"ladder_games": 400, "skill_games": 400, "search_games": 10,
                     "drama_games": 200}  # fmt: skip
    assert all(big[k] > small[k] for k in big)
    assert sizes(with_overrides(sc, games=2))["search_games"] == 4  # the floors


@pytest.mark.slow
def test_a_small_landscape_run_end_to_end(tmp_path):
    from analyzer.report import run_and_report
    from analyzer.tables.finding import question_key

    out = tmp_path / "ct"
    run_and_report(
        ROOT / "scenarios/colorful_treasure_landscape.toml", out, games=40, workers=1,
        progress=False,
    )  # fmt: skip
    lad = json.loads((out / "ladder" / "ladder.json").read_text())
    assert set(lad["equilibrium"]) == set(lad["strategies"])
    assert abs(sum(lad["equilibrium"].values()) - 1) < 1e-6 and "entropy" in lad
    assert lad["games_per_lineup"] == 40
    assert (out / "tables" / "skill_gradient.csv").is_file()
    drama = (out / "tables" / "drama.csv").read_text().splitlines()
    assert len(drama) == 1 + 3  # 2, 3 and 4 players
    man = json.loads((out / "manifest.json").read_text())
    asked_ids = [q["id"] for q in man["findings"]["questions"]]
    assert asked_ids == ["equilibrium", "dominance", "skill", "drama"]
    keys = {question_key(q) for q in man["findings"]["questions"]}  # "dominance:scale=3"
    assert (
        all(f["text"] for f in man["findings"]["findings"])
        and {f["question"] for f in man["findings"]["findings"]} == keys
    )
    assert man["skill"]["search_games_per_lineup"] == 4 and man["drama"]["games_per_count"] == 20
    summary = (out / "summary.md").read_text()
    assert "Skill gradient" in (out / "report.html").read_text()
    assert "at 2 players" in summary
