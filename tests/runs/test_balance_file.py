"""``[balance]`` in a scenario file: validated with the file, one line per mistake."""

from __future__ import annotations

import pytest

import tests.standin_game  # noqa: F401  (registers the coin game)
from analyzer.core.errors import InputError
from analyzer.runs.scenario_file import load_scenario, parse_scenario
from tests.cli.test_bad_input_fast import _answer


def _unearth(balance: dict, **top) -> dict:
    return {
        "game": "unearth",
        "players": 4,
        "games": 100,
        "strategies": "balanced",
        "seed": 1,
        **top,
        "balance": balance,
    }


KNOB = {"ruins.*17.claim": {"low": 14, "high": 20}}


def test_a_good_table_is_read_into_a_spec():
    sc = parse_scenario(_unearth({"knobs": KNOB, "counts": [2, 4], "games": 4000}), "s.toml")
    b = sc.balance
    assert [k.path for k in b.knobs] == ["ruins.*17.claim"]
    k = b.knobs[0]
    assert (k.kind, k.values[0], k.values[-1], k.printed) == ("int", 14, 20, 17)
    assert b.counts == (2, 4) and b.field == ("balanced",) and b.delta == 1.5
    assert [o.id for o in b.objectives] == ["fairness_2p", "fairness_4p"]
    assert sc.as_dict()["balance"]["knobs"][0]["path"] == "ruins.*17.claim"


def test_counts_default_to_the_scenario_players_and_the_field_to_the_default_strategy():
    sc = parse_scenario(_unearth({"knobs": KNOB}), "s.toml")
    assert sc.balance.counts == (4,) and sc.balance.field == ("balanced",)


def test_a_balance_only_scenario_needs_no_games_of_its_own():
    raw = {
        "game": "coin",
        "balance": {
            "counts": 2,
            "players": ["lucky", "fair"],
            "knobs": {"coin.p_lucky": {"low": 0.3, "high": 0.7, "step": 0.05}},
        },
    }
    sc = parse_scenario(raw, "s.toml")
    assert not sc.plays_games and sc.players == 2
    assert sc.balance.knobs[0].kind == "float" and len(sc.balance.knobs[0].values) == 9


def test_the_scenario_overrides_give_the_printed_value():
    sc = parse_scenario(_unearth({"knobs": KNOB}, overrides={"ruins.*17.claim": 18}), "s.toml")
    assert sc.balance.knobs[0].printed == 18


BAD = [
    ({"knobs": {"ruins.*99.claim": {"low": 1, "high": 3}}}, "balance.knobs.ruins.*99.claim"),
    ({"knobs": {"ruins.*17.claim": {"low": 1.5, "high": 3}}}, "integers: the value it replaces"),
    ({"knobs": {"ruins.*17.claim": {"low": 5, "high": 3}}}, "balance.knobs.ruins.*17.claim.high"),
    ({"knobs": {"ruins.*17.claim": {"low": 1}}}, "missing key 'high'"),
    ({"knobs": KNOB, "frozen": ["ruins.*17.claim"]}, "is also frozen"),
    ({"knobs": KNOB, "frozen": ["nope.path"]}, "balance.frozen"),
    ({"knobs": KNOB, "objectives": ["entropy"]}, "not computed by the balance search yet"),
    ({"knobs": KNOB, "objectives": ["fun"]}, "balance.objectives[0].measure"),
    ({"knobs": KNOB, "objectives": ["strategy_viability"]}, "at least two strategies"),
    ({"knobs": KNOB, "objectives": [{"measure": "length"}]}, "band of turns"),
    (
        {"knobs": KNOB, "objectives": [{"measure": "column", "column": "nope", "band": [1, 2]}]},
        "balance.objectives[0].column",
    ),
    ({"knobs": KNOB, "counts": [9]}, "balance.counts"),
    ({"knobs": KNOB, "players": "nosuch"}, "balance.players"),
    ({"knobs": KNOB, "games": 5}, "balance.games"),
    ({"knobs": KNOB, "games": 500, "minutes": 3}, "not both"),
    ({"knobs": KNOB, "delta": -1}, "balance.delta"),
    ({"knobs": KNOB, "combine": "vote"}, "balance.combine"),
    ({"knobs": KNOB, "retune": "yes"}, "balance.retune"),
    ({"knobs": KNOB, "rotate": 1}, "balance.rotate"),
    ({"knobs": KNOB, "colour": 1}, "unknown key 'balance.colour'"),
    ({}, "missing key 'balance.knobs'"),
]


@pytest.mark.parametrize("table, words", BAD, ids=[w for _, w in BAD])
def test_bad_input_is_one_line_naming_the_key(table, words):
    with pytest.raises(InputError) as err:
        parse_scenario(_unearth(table), "s.toml")
    text = str(err.value)
    assert words in text and "\n" not in text and text.startswith("s.toml: ")


def test_a_value_the_game_refuses_names_the_knob():
    raw = {
        "game": "coin",
        "balance": {
            "counts": 2,
            "players": "fair",
            "knobs": {"coin.nothing": {"low": 1, "high": 3}},
        },
    }
    with pytest.raises(InputError, match="balance.knobs.coin.nothing"):
        parse_scenario(raw, "s.toml")


@pytest.mark.slow  # (a process)
def test_bad_balance_input_loads_no_engine(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(
        'game = "unearth"\nplayers = 4\ngames = 10\nstrategies = "balanced"\n'
        '[balance.knobs."ruins.*17.claim"]\nlow = 1.5\nhigh = 4\n',
        "utf-8",
    )
    for command in ("run", "balance"):
        code, loaded, err = _answer([command, str(path)])
        assert code == 2 and "integers: the value it replaces" in err, err
        assert err.count("\n") == 1 and loaded == [], (command, loaded)


def test_a_scenario_file_with_balance_loads(tmp_path):
    path = tmp_path / "q.toml"
    path.write_text(
        'game = "unearth"\nplayers = 4\n[balance]\ncounts = [3, 4]\n'
        '[balance.knobs."ruins.*17.claim"]\nlow = 15\nhigh = 19\n',
        "utf-8",
    )
    sc = load_scenario(path)
    assert sc.balance.counts == (3, 4) and not sc.plays_games
