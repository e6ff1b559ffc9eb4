"""Colorful Treasure through the one driver: shipped scenarios, report tables, report files."""

from __future__ import annotations

from pathlib import Path

import pytest

import analyzer
from analyzer.core.errors import InputError
from analyzer.report import write_report
from analyzer.scenario import expand, load_scenario, parse_scenario

SCENARIOS = sorted(Path(__file__).parents[2].glob("scenarios/colorful_treasure*.toml"))


def test_the_scenarios_are_shipped():
    names = {p.stem for p in SCENARIOS}
    assert {
        "colorful_treasure",
        "colorful_treasure_memory",
        "colorful_treasure_rewards",
        "colorful_treasure_first_player",
        "colorful_treasure_young",
    } <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_scenario_loads(path):
    sc = load_scenario(path)
    assert sc.game == "colorful_treasure"
    assert expand(sc) or getattr(sc, "balance", None)  # a [balance] question plays none of its own


@pytest.mark.slow
def test_the_memory_sweep_reports_win_rate_by_recall(tmp_path):
    sc = load_scenario(Path("scenarios/colorful_treasure_memory.toml"))
    run = analyzer.run(sc, games=400, seed=3, workers=1)
    tables = run.report_tables()
    strat = tables["strategies"]
    greedy = strat[strat["strategy"] == "greedy"].sort_values("cell")
    assert len(greedy) == 6
    assert greedy["win_rate"].iloc[-1] > greedy["win_rate"].iloc[0]  # recall 1 beats recall 0
    assert {"rewards", "steals_by_seat", "steal_items"} <= set(tables)
    rew = tables["rewards"]
    assert set(rew["reward"]) == {"gem_reward", "explorer_reward", "treasure_reward"}
    assert ((rew["held"] >= 0) & (rew["held"] <= 1)).all()
    assert "exact" in run.extra
    assert any(a["key"] == "scoring.basic.gems" for a in run.info["assumed"])
    files = write_report(tmp_path, run.aggregate, run.info, run.extra)
    assert "report.pdf" in files or (tmp_path / "report.pdf").exists()
    assert (tmp_path / "charts" / "rewards.png").exists()
    assert (tmp_path / "charts" / "steals.png").exists()


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"rules": {"variant": "kids"}}, "s.toml: rules: rules.variant: bad value 'kids'"),
        ({"overrides": {"rewards.explorer.points": "five"}}, "bad value 'five'"),
        ({"strategies": "clever"}, "s.toml: strategies: bad value 'clever'"),
        ({"players": 5}, "s.toml: players: bad value 5 (allowed: an integer from 2 to 4)"),
    ],
)
def test_bad_scenario_values_give_one_line_errors(raw, message):
    base = {"game": "colorful_treasure", "players": 3, "games": 10, "strategies": "greedy"}
    with pytest.raises(InputError) as err:
        parse_scenario({**base, **raw}, "s.toml")
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.slow
def test_the_tiles_scenario_reports_the_tiles_the_same_for_any_worker_count():
    sc = load_scenario(Path("scenarios/colorful_treasure_tiles.toml"))
    one = analyzer.run(sc, games=120, seed=5, workers=1)
    two = analyzer.run(sc, games=120, seed=5, workers=2)
    a = one.report_tables()
    b = two.report_tables()
    tiles = a["tiles"]
    assert set(tiles["tile"]) == {"peek_two", "fourth_card", "two_kinds", "truce", "peek_three"}
    assert (tiles["cell"] == 1).all()  # only the cell that plays tiles
    # a tile is taken by one seat of a game at most, and some are taken: held, the
    # share of seat-games that took it, lies in (0, 1/4] at 4 players
    assert ((tiles["held"] > 0) & (tiles["held"] <= 0.25 + 1e-12)).all()
    assert (tiles["held_low"] <= tiles["held"]).all()
    assert (tiles["held"] <= tiles["held_high"]).all()
    for name in ("tiles", "rewards", "strategies"):
        assert a[name].equals(b[name])
    keys = {r["key"] for r in one.info["assumed"]}
    assert {"tiles.tile.*", "tiles.tile.t5.b"} <= keys
