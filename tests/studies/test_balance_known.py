"""The known-answer target: the one-knob search's 95% interval covers the true fair
value in at least 18 of 20 seeds (coin game: fair exactly at ``coin.p_lucky = 0.5``;
``studies/2026-11-29-balancing/known_answer.py`` prints each seed)."""

from __future__ import annotations

import pytest

import tests.standin_game  # noqa: F401  (registers the coin game)
from analyzer.runs.scenario_file import parse_scenario
from analyzer.studies.balance import balance


@pytest.mark.slow  # (20 searches, about 30 s)
def test_the_interval_covers_the_fair_value_in_18_of_20_seeds():
    covered = 0
    for seed in range(1, 21):
        raw = {
            "game": "coin",
            "seed": seed,
            "balance": {
                "counts": 2,
                "players": ["lucky", "fair"],
                "rotate": False,
                "games": 3000,
                "knobs": {"coin.p_lucky": {"low": 0.3, "high": 0.7, "step": 0.01}},
            },
        }
        d = balance(parse_scenario(raw, "coin.toml"), workers=1).to_json()
        low, high = d["interval"]["coin.p_lucky"]
        covered += low <= 0.5 <= high
    assert covered >= 18, covered
