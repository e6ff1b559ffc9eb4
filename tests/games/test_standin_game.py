"""The whole pipeline on a stand-in game with only the core columns.

``tests/standin_game.py`` registers *Coin flip*: scenario files, the one
driver, aggregation, charts, the PDF report, its rebuild, ``simulate`` and
``replay`` must all work on it with nothing that is Unearth's.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import analyzer
import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.cli import run_cli
from analyzer.core.errors import AnalyzerError, InputError
from analyzer.games import CORE_COLUMNS, available_games, load_game
from analyzer.scenario import parse_scenario

SCENARIO = """
game = "coin"
name = "coins"
description = "is the lucky coin better?"
players = 3
strategies = ["fair", "lucky", "fair"]
games = 400
seed = 9
[rules]
rounds = 4
"""


def test_registry_lists_and_loads_the_game():
    assert {"coin", "unearth"} <= set(available_games())
    assert analyzer.available_games() == available_games()
    g = load_game("coin")
    assert g.title == "Coin flip" and load_game("coin") is g
    with pytest.raises(InputError, match=r"game: bad value 'chess' \(allowed: .*coin.*unearth"):
        load_game("chess")


@pytest.mark.slow
def test_simulate_api_gives_the_core_table_and_is_worker_independent():
    one = analyzer.simulate(3, "fair,lucky,fair", 300, seed=4, game="coin")
    assert list(one.columns) == list(CORE_COLUMNS)
    assert len(one) == 900 and one["game"].nunique() == 300
    assert np.allclose(one.groupby("game")["win"].sum(), 1.0)
    two = analyzer.simulate(3, "fair,lucky,fair", 300, seed=4, game="coin", workers=2,
                            batch_size=70)  # fmt: skip
    pd.testing.assert_frame_equal(one, two, check_exact=True)
    # the lucky coin (p = 0.6) wins more often than a fair one: a real effect, 300 games
    rate = one.groupby("strategy", observed=True)["win"].mean()
    assert rate["lucky"] > rate["fair"]


@pytest.mark.slow
def test_scenario_run_report_and_rebuild(tmp_path):
    src = tmp_path / "coins.toml"
    src.write_text(SCENARIO)
    out = tmp_path / "report"
    assert run_cli(["run", str(src), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == "coin" and manifest["rules_version"] == "coin-1"
    assert [c["name"] for c in manifest["columns"]] == list(CORE_COLUMNS)
    seats = pd.read_csv(out / "tables" / "seats.csv")
    assert seats["n"].tolist() == [400] * 3
    assert seats["win_rate"].sum() == pytest.approx(1.0)
    assert {"seats", "first_player", "strategies", "game_length"} <= {
        p.stem for p in (out / "charts").glob("*.png")
    }
    assert not any("claim" in p.name or "delver" in p.name for p in out.rglob("*"))
    pdf = (out / "report.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    assert "# coins" in (out / "summary.md").read_text()
    before = (out / "tables" / "seats.csv").read_text()
    assert run_cli(["report", str(out)]) == 0
    assert (out / "tables" / "seats.csv").read_text() == before


def test_python_run_returns_tables():
    raw = parse_scenario(
        {"game": "coin", "players": 2, "strategies": "fair", "games": 50, "seed": 1,
         "sweep": {"param": "rules.rounds", "values": [1, 9]}}, "api"
    )  # fmt: skip
    result = analyzer.run(raw)
    assert result.games["cell"].nunique() == 2
    sweep = result.report_tables()["sweep"]
    turns = sweep[sweep["metric"] == "mean game_turns"]["estimate"].tolist()
    assert turns == [1.0, 9.0]


@pytest.mark.parametrize(
    "text, message",
    [
        ('game = "chess"\nplayers = 2\nstrategies = "fair"\ngames = 5\n',
         "game: bad value 'chess'"),
        ('game = "coin"\nplayers = 2\nstrategies = "balanced"\ngames = 5\n',
         "strategies: bad value 'balanced' (allowed: fair, lucky)"),
        ('game = "coin"\nplayers = 2\nstrategies = "fair"\ngames = 5\n[rules]\nedition = "x"\n',
         "unknown key 'rules.edition' (allowed: rounds)"),
        ('game = "coin"\nplayers = 9\nstrategies = "fair"\ngames = 5\n',
         "players: bad value 9 (allowed: an integer from 2 to 6)"),
    ],
)  # fmt: skip
def test_the_game_validates_its_own_keys(tmp_path, capsys, text, message):
    src = tmp_path / "bad.toml"
    src.write_text(text)
    assert run_cli(["run", str(src), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_simulate_and_replay_cli(capsys):
    assert run_cli(["simulate", "--game", "coin", "--players", "2", "--strategy", "lucky,fair",
                    "--games", "200", "--seed", "3", "--workers", "1", "--quiet"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "seat 0 (lucky)" in out and "strategy fair" in out
    assert run_cli(["replay", "--game", "coin", "--players", "2", "--seed", "3",
                    "--index", "5"]) == 0  # fmt: skip
    assert capsys.readouterr().out.startswith("coin game 5: heads by seat")


def test_an_undeclared_column_is_refused():
    from analyzer.tables.aggregate import Reducer

    job = load_game("coin").make_job(2, ("fair", "fair"), 1, {"rounds": 2, "p_lucky": 0.6})
    tables = job(0, 10)
    tables["games"]["pts_extra"] = 1
    with pytest.raises(AnalyzerError, match="undeclared column 'pts_extra'"):
        Reducer(game="coin", columns=())(tables)


def test_a_broken_game_does_not_take_the_others_down(monkeypatch, capsys):
    import analyzer.games as registry

    def broken():
        raise ImportError("no module named 'analyzer.broken.plugin'")

    monkeypatch.setitem(registry._FACTORIES, "broken", broken)
    monkeypatch.setattr(registry, "BROKEN", {})
    with pytest.raises(AnalyzerError, match="game 'broken' could not be loaded .ImportError"):
        load_game("broken")
    assert run_cli(["games"]) == 0
    out = capsys.readouterr()
    assert "coin: Coin flip" in out.out and "unearth: Unearth" in out.out
    assert "broken: could not be loaded" in out.err


def test_precision_may_play_past_games_up_to_the_cap():
    # the target is never met: the run goes on past games=50 to max_games=130
    table = analyzer.simulate(2, "fair", 50, seed=1, game="coin", precision=1e-6,
                              max_games=130, batch_size=40)  # fmt: skip
    assert table["game"].nunique() == 130
    # default cap: ten times games
    table = analyzer.simulate(2, "fair", 12, seed=1, game="coin", precision=1e-6, batch_size=50)
    assert table["game"].nunique() == 120
    # a line-up in several seat orders cannot stop early: every order plays its share
    raw = {"game": "coin", "players": 2, "lineup": ["fair", "lucky"], "games": 20, "seed": 1}
    with pytest.raises(InputError, match="precision: not with a line-up"):
        analyzer.run(raw, precision=0.1)


def test_numpy_integers_and_first_game():
    import numpy as np

    a = analyzer.simulate(np.int64(2), "fair", np.int64(30), seed=2, game="coin", first_game=10)
    b = analyzer.simulate(2, "fair", 40, seed=2, game="coin")
    assert a["game"].tolist() == b["game"].tolist()[20:]
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.iloc[20:].reset_index(drop=True))
    with pytest.raises(InputError, match="first_game"):
        analyzer.simulate(2, "fair", 5, seed=2, game="coin", first_game=-1)
