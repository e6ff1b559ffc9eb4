"""``analyzer tune``: the search finds a known optimum, is deterministic,
confirms on fresh games, and its data file round-trips."""

from __future__ import annotations

import json
import tomllib

import pytest

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.studies.tuning import (
    format_result,
    parse_bounds,
    read_result,
    to_toml,
    tune,
    write_result,
)
from tests.studies.test_ratings import _exact_share


def test_search_finds_the_best_coin():
    """The lucky coin wins more the likelier its heads: the optimum is p = 1,
    far from the shipped 0.6; the confirmation is on games the search never
    played and agrees with the exact odds of the row it found."""
    r = tune("coin", 2, "lucky", "fair", trials=10, games=100, confirm_games=400, seed=2)
    assert r.trials[0].params == {"p": 0.6}  # the shipped row is trial 1
    assert r.best.params["p"] > 0.85
    assert r.best.win_share == max(t.win_share for t in r.trials)
    c = r.confirm
    assert c["first_game"] == 100  # after the search's games (2 seat orders x 50)
    assert c["low"] <= _exact_share(r.best.params["p"], 5, 1) <= c["high"]
    assert c["shipped_low"] <= _exact_share(0.6, 5, 1) <= c["shipped_high"]
    assert c["gain_low"] > 0


def test_same_seed_same_search():
    a = tune("coin", 3, "lucky", "fair", trials=5, games=30, confirm_games=0, seed=9)
    b = tune("coin", 3, "lucky", "fair", trials=5, games=30, confirm_games=0, seed=9)
    assert [(t.params, t.win_share) for t in a.trials] == [
        (t.params, t.win_share) for t in b.trials
    ]
    c = tune("coin", 3, "lucky", "fair", trials=5, games=30, confirm_games=0, seed=10)
    assert [t.params for t in c.trials] != [t.params for t in a.trials]


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_data_file_round_trips(tmp_path, suffix):
    r = tune(
        "coin",
        2,
        "lucky",
        "fair",
        trials=3,
        games=20,
        confirm_games=20,
        seed=1,
        bounds=["p=0.2:0.9"],
        command=["analyzer", "tune", "--game", "coin"],
    )
    path = write_result(r, tmp_path / f"t{suffix}")
    doc = read_result(path)
    assert doc == json.loads(json.dumps(r.as_dict()))
    assert doc["tune"]["command"] == "analyzer tune --game coin"
    assert doc["tune"]["bounds"] == {"p": [0.2, 0.9]}
    assert all(0.2 <= t["params"]["p"] <= 0.9 for t in doc["trials"][1:])
    assert doc["best"]["row"] == {"p": doc["best"]["params"]["p"]}
    assert {"analyzer_version", "seed", "games_per_trial", "field", "optimiser"} <= set(doc["tune"])


def test_toml_writer_quotes_and_nests():
    doc = {
        "a": {"s": 'x "y"', "n": [1, 2.5], "t": {"k": True}},
        "rows": [{"i": 1, "p": {"q": 0.5}}],
    }
    assert tomllib.loads(to_toml(doc)) == doc


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "unearth", "strategy": "baseline"}, "baseline is frozen"),
        ({"game": "unearth", "strategy": "balanced", "field_": "balanced"}, "--field"),
        ({"strategy": "lucky", "field_": "lucky"}, "--field"),
        ({"strategy": "lucky", "params": "q"}, "--params: bad value 'q'"),
        ({"strategy": "lucky", "bounds": ["p=1:0"]}, "LOW < HIGH"),
        ({"strategy": "lucky", "bounds": ["p=a:b"]}, "NAME=LOW:HIGH"),
        ({"strategy": "fair"}, "no parameters"),
        ({"strategy": "lucky", "trials": 0}, "--trials"),
        ({"strategy": "lucky", "field_": "fair,fair"}, "--field"),
    ],
)
def test_bad_input_is_one_clear_error(kwargs, message):
    args = {"game": "coin", "players": 2, "games": 10, "seed": 1, **kwargs}
    with pytest.raises(InputError, match=message):
        tune(**args)


def test_parse_bounds():
    assert parse_bounds(["w_ruin=0:4", "lead=0.5:1"]) == {"w_ruin": (0.0, 4.0), "lead": (0.5, 1.0)}


def test_cli_tunes_unearth_and_writes_the_file(capsys, tmp_path):
    out = tmp_path / "tuned.toml"
    code = run_cli(
        ["tune", "--players", "2", "--strategy", "balanced", "--params", "w_ruin,w_stone"]
        + ["--bound", "w_ruin=0.5:4", "--trials", "2", "--games", "10", "--confirm-games", "10"]
        + ["--seed", "3", "--out", str(out)]
    )
    cap = capsys.readouterr()
    assert code == 0, cap.err
    assert "trial 2/2" in cap.err and "confirmation on 10 fresh games" in cap.out
    doc = read_result(out)
    assert doc["tune"]["field"] == ["baseline"] and doc["tune"]["params"] == ["w_ruin", "w_stone"]
    assert set(doc["best"]["row"]) >= {"w_ruin", "w_stone", "risk", "named"}
    code = run_cli(["tune", "--strategy", "baseline", "--games", "5"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "frozen" in err


def _uruk_share(lineup, params, games, seed, game="uruk"):
    """The first strategy's win share when ``lineup`` plays ``games`` games, seats
    rotated, played straight by the driver (the reference for self-play)."""
    from analyzer.runs.driver import run_scenario
    from analyzer.runs.scenario_file import parse_scenario

    raw = {"game": game, "players": len(lineup), "games": games, "seed": seed}
    raw |= {"lineup": lineup, "rotation": "cyclic", "output": {"claims": False}}
    raw |= {"strategy_params": params}
    t = run_scenario(parse_scenario(raw, "t", default_name="t"), progress=False, exact=False).games
    return float(t.loc[t["strategy"].astype(str) == lineup[0], "win"].mean())


def test_self_play_field_seats_the_shipped_row():
    """``--field self`` (or the tuned name): the other seats play the tuned
    strategy's shipped row, under a stand-in running the same code; the name
    ``self`` and the strategy's own name are one field."""
    from analyzer.games import load_game

    row = next(s for s in load_game("uruk").strategies if s.name == "balanced").params_for(3)
    r = tune("uruk", 3, "balanced", "self", trials=2, games=300, confirm_games=0, seed=5)
    assert r.settings["field"] == ["balanced", "balanced"]
    assert r.settings["self_play"] == {"stand_in": "builder", "row": row, "seats": 2}
    assert "shipped row" in r.settings["objective"]
    mirror = _uruk_share(["balanced", "builder", "builder"], {"builder": row}, 300, 5)
    assert r.trials[0].win_share == pytest.approx(mirror)
    own_rows = _uruk_share(["balanced", "builder", "builder"], {}, 300, 5)
    assert r.trials[0].win_share != pytest.approx(own_rows)  # not the stand-in's own row
    same = tune("uruk", 3, "balanced", "balanced", trials=2, games=300, confirm_games=0, seed=5)
    assert [(t.params, t.win_share) for t in same.trials] == [
        (t.params, t.win_share) for t in r.trials
    ]


def test_mixed_self_play_field():
    """A field mixing the shipped row with other opponents; the stand-in is a
    same-code strategy the field does not name."""
    r = tune(
        "uruk", 4, "balanced", "self,builder,baseline", trials=1, games=80, confirm_games=0, seed=4
    )
    assert r.settings["field"] == ["balanced", "builder", "baseline"]
    assert r.settings["self_play"]["stand_in"] == "hoarder"
    assert r.settings["self_play"]["seats"] == 1
    with pytest.raises(InputError, match="leaving one of builder, hoarder free"):
        tune("uruk", 4, "balanced", "self,builder,hoarder", trials=1, games=8, seed=4)


def test_old_fields_write_no_self_play_keys():
    r = tune("coin", 2, "lucky", "fair", trials=2, games=10, confirm_games=0, seed=1)
    assert "self_play" not in r.settings
    assert r.settings["objective"] == "mean win share of the tuned strategy's seat, seats rotated"


@pytest.mark.parametrize("fld", ["self", "lucky"])
def test_self_play_needs_a_stand_in(fld):
    with pytest.raises(InputError, match="self-play needs a stand-in"):
        tune("coin", 2, "lucky", fld, games=10, seed=1)


def test_cli_self_play(capsys, tmp_path):
    out = tmp_path / "self.toml"
    code = run_cli(
        ["tune", "--game", "uruk", "--players", "2", "--field", "self", "--trials", "2"]
        + ["--games", "20", "--confirm-games", "20", "--seed", "3", "--out", str(out), "--quiet"]
    )
    cap = capsys.readouterr()
    assert code == 0, cap.err
    assert "against balanced (its shipped row)" in cap.out
    assert read_result(out)["tune"]["self_play"]["stand_in"] == "builder"


def test_runner_up_confirmed_when_the_shipped_row_wins(tmp_path):
    """The shipped row (p = 0.6, the top of the range) wins its own search: the
    confirmation then plays the runner-up on the same fresh games, and says how
    close it came (its paired gain over the shipped row, below zero here)."""
    r = tune(
        "coin",
        2,
        "lucky",
        "fair",
        trials=6,
        games=200,
        confirm_games=800,
        seed=3,
        bounds=["p=0.1:0.6"],
    )
    assert r.best.index == 1
    c = r.confirm
    run = c["runner_up"]
    others = [t for t in r.trials if t.index != 1]
    assert run["trial"] == max(others, key=lambda t: (t.win_share, -t.index)).index
    assert run["params"]["p"] < 0.6
    assert run["low"] <= _exact_share(run["params"]["p"], 5, 1) <= run["high"]
    assert c["gain"] == 0.0 and run["gain"] < 0 and run["gain_low"] < run["gain"] < run["gain_high"]
    assert run["search_gap"] == pytest.approx(run["search_win_share"] - r.trials[0].win_share)
    text = format_result(r)
    assert "the runner-up (trial" in text and "paired gain over the shipped row" in text
    assert read_result(write_result(r, tmp_path / "r.toml"))["confirm"]["runner_up"] == run
    # a best row other than the shipped one confirms no runner-up
    b = tune("coin", 2, "lucky", "fair", trials=6, games=100, confirm_games=100, seed=2)
    assert b.best.index != 1 and "runner_up" not in b.confirm


def test_self_play_in_colorful_treasure():
    """Colorful Treasure's greedy, perfect and hunter run one plan: ``--field self``
    seats greedy's shipped row under a stand-in (``perfect``), whose games are
    those of a seat playing greedy's row, not perfect's own."""
    from analyzer.games import load_game

    row = next(
        s for s in load_game("colorful_treasure").strategies if s.name == "greedy"
    ).params_for(2)
    r = tune("colorful_treasure", 2, "greedy", "self", trials=2, games=200, confirm_games=0, seed=5)
    assert r.settings["field"] == ["greedy"]
    assert r.settings["self_play"] == {"stand_in": "perfect", "row": row, "seats": 1}
    lineup = ["greedy", "perfect"]
    mirror = _uruk_share(lineup, {"perfect": row}, 200, 5, game="colorful_treasure")
    assert r.trials[0].win_share == pytest.approx(mirror)
    own_row = _uruk_share(lineup, {}, 200, 5, game="colorful_treasure")
    assert r.trials[0].win_share != pytest.approx(own_row)
