# ruff: noqa: E501  (the table of bad cases reads best one case per line)
"""Scenario files: validation of every key, sweep and rotation expansion, shipped files."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from analyzer.core.errors import InputError
from analyzer.scenario import (
    ScenarioJob,
    comparison_pairs,
    expand,
    games_per_order,
    load_scenario,
    parse_scenario,
    seat_orders,
    with_overrides,
)

SCENARIOS = sorted((Path(__file__).parents[2] / "scenarios").glob("*.toml"))
BASE = {"players": 4, "strategies": "balanced", "games": 100, "seed": 1}
WHERE = "scenarios/x.toml"


def parse(**changes):
    raw = {**BASE, **changes}
    for k, v in list(raw.items()):
        if v is None:
            del raw[k]
    return parse_scenario(raw, WHERE)


def test_every_shipped_scenario_validates():
    assert len(SCENARIOS) >= 8
    names = set()
    for path in SCENARIOS:
        sc = load_scenario(path)
        assert sc.name == path.stem and sc.description
        # a scenario of only a [ladder], [tune] or [balance] (issue 42) plays no games of its own
        assert (
            expand(sc) if sc.plays_games else sc.ladder or sc.tune or getattr(sc, "balance", None)
        )
        names.add(sc.name)
    assert {"default", "editions", "tournament", "band_of_delvers"} <= names


def test_minimal_scenario_defaults():
    sc = parse()
    assert sc.strategies == ("balanced",) and sc.claims and sc.save_tables
    (cell,) = expand(sc)
    assert cell.orders == (("balanced",) * 4,)
    assert cell.rules.rulings.edition == "english"


BAD = [
    # (changes, text the message must contain)
    ({"name": ""}, "name: bad value ''"),
    ({"name": 3}, "name: bad value 3"),
    ({"description": 5}, "description: bad value 5 (allowed: a string)"),
    ({"players": "four"}, "players: bad value 'four' (allowed: a positive integer)"),
    ({"players": 9}, "players: bad value 9 (allowed: an integer from 2 to 5)"),
    ({"players": True}, "players: bad value True"),
    ({"games": 0}, "games: bad value 0 (allowed: an integer from 1 to 1,000,000,000,000)"),
    ({"games": 10**20}, "games: bad value 100000000000000000000 (allowed: an integer from 1 to"),
    ({"games": 1.5}, "games: bad value 1.5"),
    ({"games": None}, "missing key 'games'"),
    ({"players": None}, "missing key 'players'"),
    ({"seed": -1}, "seed: bad value -1 (allowed: an integer from 0 to 2**64 - 1)"),
    ({"seed": 2**64}, "seed: bad value 18446744073709551616 (allowed: an integer from 0 to"),
    ({"seed": "x"}, "seed: bad value 'x'"),
    ({"strategies": "greedy"}, "strategies: bad value 'greedy' (allowed: random, claimer"),
    ({"strategies": ["random", "claimer"]}, "strategies: bad value ['random', 'claimer']"),
    ({"strategies": []}, "strategies: bad value []"),
    ({"strategies": None}, "give exactly one of 'strategies'"),
    ({"lineup": ["random"] * 4}, "give exactly one of 'strategies'"),
    ({"strategies": None, "lineup": ["random", "x", "random", "random"]}, "lineup: bad value 'x'"),
    ({"strategies": None, "lineup": ["random"] * 3}, "lineup: bad value ['random', 'random', 'random']"),
    ({"strategies": None, "lineup": ["random"] * 4, "rotation": "zig"}, "rotation: bad value 'zig' (allowed: all, cyclic)"),
    ({"rotation": "all"}, "rotation: only allowed with 'lineup'"),
    ({"rules": "german"}, "rules: bad value 'german' (allowed: a table)"),
    ({"rules": {"edition": "french"}}, "bad value 'french' (allowed: english, german)"),
    ({"rules": {"tomb": "nope"}}, "rules.tomb: bad value 'nope' (allowed: stone_colours, ruin_colours)"),
    ({"rules": {"colour": 1}}, "unknown key 'rules.colour'"),
    ({"overrides": {"ruins.*17.claim": "a"}}, "override 'ruins.*17.claim': bad value 'a'"),
    ({"overrides": {"nodeck.x": 1}}, "override 'nodeck.x'"),
    ({"overrides": {"delvers.band_of_delvers.copies": -1}}, "delvers.band_of_delvers.copies: bad value -1"),
    ({"overrides": 3}, "overrides: bad value 3 (allowed: a table)"),
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"output": {"claims": "yes"}}, "output.claims: bad value 'yes' (allowed: true or false)"),
    ({"output": {"save_tables": 1}}, "output.save_tables: bad value 1"),
    ({"output": {"batch_size": 0}}, "output.batch_size: bad value 0"),
    ({"output": {"pdf": True}}, "unknown key 'output.pdf'"),
    ({"sweep": 3}, "sweep: bad value 3"),
    ({"sweep": {"param": "players"}}, "missing key 'values'"),
    ({"sweep": {"values": [1]}}, "missing key 'param'"),
    ({"sweep": {"param": "players", "values": [2, 3], "step": 1}}, "unknown key 'sweep.step'"),
    ({"sweep": {"param": "players", "values": []}}, "sweep.values: bad value []"),
    ({"sweep": {"param": "players", "values": ["a"]}}, "sweep.values: bad value 'a' (allowed: a list of integers)"),
    ({"sweep": {"param": "players", "values": [2, 7]}}, "sweep.values: bad value 7 (allowed: an integer from 2 to 5)"),
    ({"sweep": {"param": "ruins.*17.claim", "values": [16, "a"]}}, "sweep.values: bad value 'a' (allowed: a list of integers)"),
    ({"sweep": {"param": "ruins.*17.claim", "values": [16, 16]}}, "sweep.values: bad value [16, 16] (allowed: a list without repeated values)"),
    ({"sweep": {"param": "ruins.*17.claim", "values": [0]}}, "bad value 0 (allowed: a positive integer)"),
    ({"sweep": {"param": "wonder_tokens.lesser", "values": [3]}}, "sweep.values: bad value 3 (allowed: a list of lists of integers)"),
    ({"sweep": {"param": "rules.colour", "values": ["a"]}}, "sweep.param: bad value 'rules.colour'"),
    ({"sweep": {"param": "rules.tomb", "values": ["x"]}}, "rules.tomb: bad value 'x'"),
    ({"sweep": {"param": "nodeck.x", "values": [1]}}, "override 'nodeck.x'"),
    ({"sweep": [{"param": "players", "values": [2]}] * 3}, "sweep: bad value"),
    ({"sweep": [{"param": "players", "values": [2]}, {"param": "players", "values": [3]}]}, "swept twice"),
    ({"sweep": [{"param": "edition", "values": ["english"]}, 5]}, "sweep[1]: bad value 5"),
    ({"sweep": {"param": "ruins.*.claim", "values": list(range(1, 66))}}, "at most 64"),
    ({"strategies": ["random"] * 4, "sweep": {"param": "players", "values": [2, 3]}}, ""),
    ({"strategies": ["random", "claimer", "random", "random"], "sweep": {"param": "players", "values": [2, 3]}}, "sweeping 'players' needs one strategy"),
    ({"compare": 1}, "compare: bad value 1"),
    ({"compare": {"a": {}}}, "missing key 'compare.b'"),
    ({"compare": {"b": {}, "c": {}}}, "missing key 'compare.a' (the reference variant)"),
    ({"compare": {"a": {}, "b": {}, "c": {}}}, ""),
    ({"compare": {"a": {}, "b c": {}}}, "compare: bad value 'b c' (allowed: variant names of letters"),
    ({"compare": {"a": {}, "b": {}, "c": {"label": "B"}}}, "compare.c.label: bad value 'B' (allowed: a label no other variant has (b has it))"),
    ({"compare": {"a": {}, "b": {}, "c": {"rules": {"tomb": "x"}}}}, "bad value 'x'"),
    ({"compare": {"a": {}, **{f"v{i}": {"label": f"v{i}"} for i in range(64)}}}, "compare: bad value '65 variants'"),
    ({"compare": {"a": {}, **{f"v{i}": {"label": f"v{i}"} for i in range(63)}}}, ""),
    ({"strategies": None, "fields": {"x": "random", "y": "balanced"}, "compare": {"a": {}, **{f"v{i}": {"label": f"v{i}"} for i in range(32)}}}, "fields: 66 configurations (allowed: at most 64)"),
    ({"compare": {"a": {}, "b": {"players": 3}}}, "unknown key 'compare.b.players'"),
    ({"compare": {"a": {"label": "x"}, "b": {"label": "x"}}}, "compare.b.label: bad value 'x'"),
    ({"compare": {"a": {"label": 2}, "b": {}}}, "compare.a.label: bad value 2"),
    ({"compare": {"a": {}, "b": {"rules": {"edition": "klingon"}}}}, "bad value 'klingon'"),
    ({"compare": {"a": {}, "b": {"strategies": "x"}}}, "compare.b.strategies: bad value 'x'"),
    ({"compare": {"a": {}, "b": {}}, "sweep": {"param": "players", "values": [2]}}, "not both"),
    ({"strategies": None, "lineup": ["random"] * 4, "compare": {"a": {}, "b": {"strategies": "random"}}}, "compare.b.strategies: not allowed with 'lineup'"),
    ({"strategies": None, "lineup": ["random"] * 4, "compare": {"a": {}, "b": {}, "c": {"strategies": "random"}}}, "compare.c.strategies: not allowed with 'lineup'"),
    ({"compare": {"a": {}, "b": {}}, "questions": [{"ask": "variant_effect", "metric": "nope"}]}, "questions[0].metric: bad value 'nope' (allowed: win, score, game_turns, mean_score, shared_win, "),
    ({"compare": {"a": {}, "b": {}}, "questions": [{"ask": "variant_effect", "metric": "wonders_per_seat", "seat": 1}]}, "questions[0].metric: bad value 'wonders_per_seat' (allowed: with 'seat': win, score, "),
    ({"compare": {"a": {}, "b": {}}, "questions": [{"ask": "variant_effect", "metric": "wonders_per_seat"}, {"ask": "variant_effect", "metric": "claims_won", "seat": 2}]}, ""),
]  # fmt: skip


def check_named(changes, text):
    """``changes`` to the base scenario load (``text`` empty), or are refused with
    one line that starts with the file and contains ``text``."""
    if text == "":  # a valid variant of a nearby bad case: must load
        parse(**changes)
        return
    with pytest.raises(InputError) as err:
        parse(**changes)
    msg = str(err.value)
    assert msg.startswith(WHERE), msg
    assert text in msg, msg
    assert "\n" not in msg


@pytest.mark.parametrize(("changes", "text"), BAD)
def test_bad_values_are_named(changes, text):
    check_named(changes, text)


def test_file_errors(tmp_path):
    with pytest.raises(InputError, match="no such scenario file"):
        load_scenario(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("players = [", "utf-8")
    with pytest.raises(InputError, match=r"bad.toml: not valid TOML"):
        load_scenario(bad)
    ok = tmp_path / "mine.toml"
    ok.write_text('players = 3\nstrategies = "random"\ngames = 10\n', "utf-8")
    sc = load_scenario(ok)
    assert sc.name == "mine" and sc.seed is None


def test_dotted_override_keys_are_flattened(tmp_path):
    p = tmp_path / "o.toml"
    p.write_text(
        'players = 4\nstrategies = "random"\ngames = 10\n[overrides]\n'
        'delvers.band_of_delvers.copies = 4\n"ruins.*17.claim" = 18\n',
        "utf-8",
    )
    sc = load_scenario(p)
    assert sc.overrides == {"delvers.band_of_delvers.copies": 4, "ruins.*17.claim": 18}
    (cell,) = expand(sc)
    assert cell.rules.tables.delver_copies[cell.rules.delver_ids.index("band_of_delvers")] == 4


def test_rotation_all_and_cyclic():
    sc = parse(strategies=None, lineup=["random", "claimer", "collector", "balanced"], games=100)
    orders = seat_orders(sc)
    assert len(orders) == 24 and len(set(orders)) == 24
    assert orders[0] == ("random", "claimer", "collector", "balanced")
    for seat in range(4):  # every strategy sits in every seat equally often
        assert sorted(o[seat] for o in orders).count("random") == 6
    assert games_per_order(sc) == math.ceil(100 / 24) == 5
    cyc = parse(strategies=None, lineup=["random", "claimer", "random", "balanced"],
                rotation="cyclic")  # fmt: skip
    assert seat_orders(cyc) == [
        ("random", "claimer", "random", "balanced"),
        ("claimer", "random", "balanced", "random"),
        ("random", "balanced", "random", "claimer"),
        ("balanced", "random", "claimer", "random"),
    ]
    dup = parse(strategies=None, lineup=["random", "random", "random", "claimer"])
    assert len(seat_orders(dup)) == 4  # distinct permutations only


def test_sweep_expansion_two_axes():
    sc = parse(
        sweep=[
            {"param": "players", "values": [2, 3]},
            {"param": "rules.wonder_bonus", "values": ["once", "per_threshold"]},
        ]
    )
    cells = expand(sc)
    assert [(c.players, c.rulings["wonder_bonus"]) for c in cells] == [
        (2, "once"), (2, "per_threshold"), (3, "once"), (3, "per_threshold"),
    ]  # fmt: skip
    assert cells[1].label == "players=2, wonder_bonus=per_threshold"
    assert cells[3].orders == (("balanced",) * 3,)
    assert cells[1].rules.rulings.wonder_bonus == "per_threshold"


def test_sweep_of_override_and_edition():
    cells = expand(parse(sweep={"param": "ruins.*17.claim", "values": [16, 18]}))
    t = cells[1].rules.tables
    assert sorted(set(t.card_claim[: t.n_ruins].tolist())) == [9, 11, 13, 15, 18]
    ed = expand(parse(sweep={"param": "edition", "values": ["english", "german"]}))
    assert ed[1].rules.rulings.tomb == "ruin_colours"


def test_compare_variants_merge_on_base():
    sc = parse(
        overrides={"wonder_tokens.lesser": [1] * 10},
        compare={
            "a": {"label": "base"},
            "b": {"overrides": {"delvers.band_of_delvers.copies": 4}, "strategies": "random",
                  "rules": {"edition": "german"}},
        },
    )  # fmt: skip
    a, b = expand(sc)
    assert (a.label, b.label) == ("base", "B")
    assert b.overrides == {"wonder_tokens.lesser": [1] * 10, "delvers.band_of_delvers.copies": 4}
    assert a.orders == (("balanced",) * 4,) and b.orders == (("random",) * 4,)
    assert b.rules.rulings.edition == "german" and a.rules.rulings.edition == "english"


def test_several_variants_each_paired_with_the_first():
    """``a`` is the reference wherever it stands in the file; every other variant,
    in the file's order, is paired with it, in every field of players."""
    compare = {
        "german": {"rules": {"edition": "german"}},
        "a": {"label": "printed"},
        "b": {"rules": {"tomb": "ruin_colours"}},
    }
    sc = parse(compare=compare)
    cells = expand(sc)
    assert [c.label for c in cells] == ["printed", "german", "B"]
    assert [c.params for c in cells] == [{"variant": "a"}, {"variant": "german"}, {"variant": "b"}]
    assert comparison_pairs(sc, cells) == ((0, 1), (0, 2))
    assert (
        cells[2].rules.rulings.tomb == "ruin_colours"
        and cells[0].rules.rulings.edition == "english"
    )
    two = parse(strategies=None, fields={"x": "random", "y": "balanced"}, compare=compare)
    assert comparison_pairs(two, expand(two)) == ((0, 1), (0, 2), (3, 4), (3, 5))


def test_with_overrides():
    sc = with_overrides(parse(), games=7, seed=3)
    assert (sc.games, sc.seed) == (7, 3)
    with pytest.raises(InputError, match="--games: bad value 0"):
        with_overrides(parse(), games=0)


class _Recorder:
    """Batch function that records what it was asked to play."""

    def __init__(self, tag, log):
        self.tag, self.log = tag, log

    def __call__(self, start, count):
        self.log.append((self.tag, start, count))
        games = pd.DataFrame({"game": range(start, start + count), "seat": 0})
        return {"games": games}


def test_scenario_job_splits_games_by_seat_order():
    """Order k plays game indices [k*per_order, (k+1)*per_order); every cell plays them all."""
    log = []
    jobs = tuple(tuple(_Recorder((c, k), log) for k in range(3)) for c in range(2))
    job = ScenarioJob(jobs=jobs, per_order=4)
    out = job(2, 8)  # games 2..9: order 0 gets 2-3, order 1 gets 4-7, order 2 gets 8-9
    assert log == [
        ((0, 0), 2, 2), ((0, 1), 4, 4), ((0, 2), 8, 2),
        ((1, 0), 2, 2), ((1, 1), 4, 4), ((1, 2), 8, 2),
    ]  # fmt: skip
    g = out["games"]
    assert g["cell"].tolist() == [0] * 8 + [1] * 8
    assert g["order"].tolist()[:8] == [0, 0, 1, 1, 1, 1, 2, 2]
    assert g["game"].tolist()[:8] == list(range(2, 10))


def test_strategy_params_reach_the_games_and_are_checked(tmp_path):
    import analyzer
    from analyzer.scenario import load_scenario

    base = 'players = 2\nstrategies = "balanced"\ngames = 30\nseed = 4\n'
    plain = analyzer.run(parse_toml(base)).games
    tuned = analyzer.run(parse_toml(base + "[strategy_params]\nbalanced = { w_stone = 9.0 }\n"))
    assert tuned.info["scenario"]["strategy_params"] == {"balanced": {"w_stone": 9.0}}
    assert not plain["score"].equals(tuned.games["score"])  # the games changed
    for text, msg in (
        ("[strategy_params]\nchess = { w_stone = 1 }\n", "strategy_params: bad value 'chess'"),
        ("[strategy_params]\nbalanced = { speed = 1 }\n", "unknown key 'strategy_params.balanced"),
        ("[strategy_params]\nbalanced = { w_stone = 'x' }\n", "w_stone: bad value 'x'"),
    ):
        src = tmp_path / "s.toml"
        src.write_text(base + text)
        with pytest.raises(InputError, match=msg):
            load_scenario(src)


def parse_toml(text: str) -> dict:
    import tomllib

    return tomllib.loads(text)
