# ruff: noqa: E501  (the table of bad cases reads best one case per line)
"""Interventions (``forbid``) and fields of players (``[fields]``): validation of
every key, expansion into cells, the engine never building a forbidden wonder,
games with nothing forbidden unchanged, a paired difference that must be exactly
zero, the per-use ratio, and the findings across fields."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import analyzer
from analyzer.core.errors import InputError
from analyzer.scenario import expand, parse_scenario, plan_games
from analyzer.tables.aggregate import Reducer, build_tables, per_use
from analyzer.tables.findings import Finding, across_fields
from analyzer.unearth.game import forbid_masks, simulate
from analyzer.unearth.rules import default_rules
from tests.runs.test_scenario import BASE, WHERE, check_named, parse

FLAME = {"wonders": ["eternal_flame"], "seats": "each"}
COMPARE = {"a": {"label": "printed"}, "b": {"label": "forbidden", "forbid": FLAME}}
FIELDS = {
    "tuned": {"strategies": "balanced"},
    "old": "baseline",
    "mix": {"lineup": ["claimer", "collector", "balanced", "baseline"], "rotation": "cyclic"},
}


BAD = [
    # (changes, text the message must contain)
    ({"forbid": 3}, "forbid: bad value 3 (allowed: a table such as { wonders = [\"...\"], seats = \"each\" })"),
    ({"forbid": {"wonders": ["eternal_flame"], "seats": 0, "colour": 1}}, "unknown key 'forbid.colour' (allowed: wonders, delvers, seats, strategy)"),
    ({"forbid": {"seats": 0}}, "forbid: names nothing to forbid (allowed: one of wonders, delvers)"),
    ({"forbid": {"wonders": "eternal_flame", "seats": 0}}, "forbid.wonders: bad value 'eternal_flame' (allowed: a non-empty list of ids from college_of_the_overseers"),
    ({"forbid": {"wonders": [], "seats": 0}}, "forbid.wonders: bad value []"),
    ({"forbid": {"wonders": ["flame"], "seats": 0}}, "forbid.wonders: bad value 'flame' (allowed: college_of_the_overseers,"),
    ({"forbid": {"wonders": ["eternal_flame", "eternal_flame"], "seats": 0}}, "forbid.wonders: bad value ['eternal_flame', 'eternal_flame'] (allowed: a list without repeated ids)"),
    ({"forbid": {"wonders": ["eternal_flame"]}}, "forbid: give exactly one of 'seats'"),
    ({"forbid": {"wonders": ["eternal_flame"], "seats": 0, "strategy": "balanced"}}, "forbid: give exactly one of 'seats'"),
    ({"forbid": {"wonders": ["eternal_flame"], "seats": "some"}}, "forbid.seats: bad value 'some' (allowed: \"each\", \"all\", a seat from 0 to 3 or a list of them)"),
    ({"forbid": {"wonders": ["eternal_flame"], "seats": 4}}, "forbid.seats: bad value 4"),
    ({"forbid": {"wonders": ["eternal_flame"], "seats": [0, 0]}}, "forbid.seats: bad value [0, 0]"),
    ({"forbid": {"wonders": ["eternal_flame"], "seats": []}}, "forbid.seats: bad value []"),
    ({"forbid": {"wonders": ["eternal_flame"], "seats": True}}, "forbid.seats: bad value True"),
    ({"forbid": {"wonders": ["eternal_flame"], "strategy": "greedy"}}, "forbid.strategy: bad value 'greedy' (allowed: random, claimer"),
    ({"forbid": {"wonders": ["eternal_flame"], "strategy": "collector"}}, "forbid.strategy: bad value 'collector' (allowed: a strategy that plays a seat)"),
    ({"forbid": {"wonders": ["eternal_flame"], "seats": 0}, "compare": COMPARE}, "compare.b.forbid: not with a top-level 'forbid'"),
    ({"compare": {"a": {"forbid": FLAME}, "b": {"label": "x", "forbid": FLAME}}}, "compare.b.forbid: both variants forbid something"),
    ({"compare": {"a": {"strategies": "claimer"}, "b": {"forbid": {"wonders": ["eternal_flame"], "strategy": "balanced"}}}}, "compare.b.forbid.strategy: not with compare.a/b.strategies"),
    ({"compare": {"a": {}, "b": {"forbid": {"wonders": ["x"], "seats": 0}}}}, "compare.b.forbid.wonders: bad value 'x'"),
    ({"compare": {"a": {}, "b": {"forbid": FLAME}, "c": {}}}, "compare.b.forbid: only in a comparison of two variants (this one has 3"),
    ({"compare": {"a": {}, "flame": {"forbid": FLAME}}}, ""),
    ({"sweep": {"param": "players", "values": [2, 4]}, "forbid": {"wonders": ["eternal_flame"], "seats": [3]}}, "forbid.seats: bad value [3] (allowed: seats from 0 to 1"),
    # fields
    ({"strategies": None, "fields": 3}, "fields: bad value 3 (allowed: a table of named fields"),
    ({"strategies": None, "fields": {}}, "fields: bad value {}"),
    ({"fields": FIELDS}, "give exactly one of 'strategies'"),
    ({"strategies": None, "lineup": ["random"] * 4, "fields": FIELDS}, "give exactly one of 'strategies'"),
    ({"strategies": None, "fields": {"x": 3}}, "fields.x: bad value 3 (allowed: a table with 'strategies' or 'lineup'"),
    ({"strategies": None, "fields": {"x": {"strategies": "balanced", "players": 3}}}, "unknown key 'fields.x.players' (allowed: label, strategies, lineup, rotation, strategy_params, games)"),
    ({"strategies": None, "fields": {"x": {"label": "x"}}}, "fields.x: give exactly one of 'strategies'"),
    ({"strategies": None, "fields": {"x": {"strategies": "balanced", "lineup": ["random"] * 4}}}, "fields.x: give exactly one of 'strategies'"),
    ({"strategies": None, "fields": {"x": "greedy"}}, "fields.x.strategies: bad value 'greedy' (allowed: random, claimer"),
    ({"strategies": None, "fields": {"x": {"lineup": ["random"] * 3}}}, "fields.x.lineup: bad value ['random', 'random', 'random'] (allowed: a list of 4 strategy names"),
    ({"strategies": None, "fields": {"x": {"strategies": "random", "rotation": "all"}}}, "fields.x.rotation: only allowed with 'lineup'"),
    ({"strategies": None, "fields": {"x": {"lineup": ["random"] * 4, "rotation": "zig"}}}, "fields.x.rotation: bad value 'zig' (allowed: all, cyclic)"),
    ({"strategies": None, "fields": {"x": {"strategies": "random", "label": ""}}}, "fields.x.label: bad value ''"),
    ({"strategies": None, "fields": {"x": {"strategies": "random", "label": "L"}, "y": {"strategies": "claimer", "label": "L"}}}, "fields.y.label: bad value 'L' (allowed: a label no other field has)"),
    ({"strategies": None, "fields": {"a/b": "random"}}, "fields: bad value 'a/b'"),
    ({"strategies": None, "fields": {"x": {"strategies": "balanced", "strategy_params": {"balanced": {"zzz": 1}}}}}, "unknown key 'fields.x.strategy_params.balanced.zzz'"),
    ({"strategies": None, "fields": {"x": {"strategies": "balanced", "strategy_params": {"baseline": {"w_ruin": 1}}}}}, "fields.x.strategy_params: bad value 'baseline'"),
    ({"strategies": None, "fields": {"x": {"strategies": "balanced", "strategy_params": {"balanced": {"w_ruin": "a"}}}}}, "fields.x.strategy_params.balanced.w_ruin: bad value 'a' (allowed: a number)"),
    ({"strategies": None, "fields": FIELDS, "rotation": "all"}, "rotation: only allowed with 'lineup' (with [fields], give each field's own 'rotation')"),
    ({"strategies": None, "fields": FIELDS, "sweep": {"param": "players", "values": [2, 3]}}, "sweeping 'players' needs one strategy for every seat (strategies = \"name\", in every field)"),
    ({"strategies": None, "fields": FIELDS, "compare": {"a": {}, "b": {"strategies": "random"}}}, "compare.b.strategies: not allowed with [fields]"),
    ({"strategies": None, "fields": FIELDS, "sweep": {"param": "ruins.*.claim", "values": list(range(1, 23))}}, "fields: 66 configurations (allowed: at most 64)"),
    ({"strategies": None, "fields": {"x": "random"}, "forbid": {"wonders": ["eternal_flame"], "strategy": "claimer"}}, "forbid.strategy: bad value 'claimer' (allowed: a strategy that plays a seat in field 'x')"),
    # valid neighbours: must load
    ({"forbid": {"wonders": ["eternal_flame", "palace_of_relics"], "seats": [0, 2]}}, ""),
    ({"forbid": {"wonders": ["eternal_flame"], "seats": 3}}, ""),
    ({"compare": COMPARE}, ""),
    ({"strategies": None, "fields": FIELDS, "compare": COMPARE}, ""),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "text"), BAD)
def test_bad_values_are_named(changes, text):
    check_named(changes, text)


def test_forbid_needs_a_game_with_interventions():
    import tests.standin_game  # noqa: F401  (registers "coin", a game without interventions)

    raw = {"game": "coin", "players": 4, "strategies": "fair", "games": 10}
    with pytest.raises(InputError, match="game 'coin' offers no interventions"):
        parse_scenario({**raw, "forbid": {"x": ["y"], "seats": 0}}, WHERE)


def test_forbid_with_only_a_ladder_is_refused():
    raw = {"ladder": {"players": 2, "games": 2}, "forbid": FLAME}
    with pytest.raises(InputError, match="forbid: needs games of the scenario's own"):
        parse_scenario(raw, WHERE)


# --------------------------------------------------------------------------- expansion


def test_each_seat_in_turn_expands_the_orders_and_marks_the_same_seats_in_both_arms():
    sc = parse(compare=COMPARE)
    a, b = expand(sc)
    assert a.orders == b.orders == (("balanced",) * 4,) * 4
    assert a.treated == b.treated == ((0,), (1,), (2,), (3,))
    assert a.forbid == {} and b.forbid == {"wonders": ("eternal_flame",)}
    assert plan_games(sc, [a, b]) == (100, (25, 25))
    assert sc.intervention == (sc.compare[1].forbid, "b")


def test_a_strategy_target_follows_the_rotated_lineup():
    sc = parse(
        strategies=None,
        lineup=["collector", "balanced", "balanced", "balanced"],
        rotation="cyclic",
        forbid={"wonders": ["eternal_flame"], "strategy": "collector"},
    )
    (cell,) = expand(sc)
    assert [o.index("collector") for o in cell.orders] == [t[0] for t in cell.treated]
    assert sorted(t[0] for t in cell.treated) == [0, 1, 2, 3]
    assert cell.forbid == {"wonders": ("eternal_flame",)}


def test_fields_times_variants_and_games_per_order_of_each_field():
    sc = parse(strategies=None, fields=FIELDS, compare=COMPARE, games=30)
    cells = expand(sc)
    assert [c.label for c in cells] == [
        "tuned: printed", "tuned: forbidden", "old: printed", "old: forbidden",
        "mix: printed", "mix: forbidden",
    ]  # fmt: skip
    assert [c.params for c in cells][:2] == [
        {"field": "tuned", "variant": "a"},
        {"field": "tuned", "variant": "b"},
    ]
    # 4 orders (each seat) in a plain field, 4 cyclic x 4 seats in the mixture: lcm 16
    total, per = plan_games(sc, cells)
    assert total == 32 and per == (8, 8, 8, 8, 2, 2)
    from analyzer.scenario import comparison_pairs

    assert comparison_pairs(sc, cells) == ((0, 1), (2, 3), (4, 5))


def test_field_strategy_params_merge_over_the_scenario_s():
    sc = parse(
        strategies=None,
        strategy_params={"balanced": {"w_ruin": 2.0, "risk": 1.0}},
        fields={
            "a": {"strategies": "balanced"},
            "b": {"strategies": "balanced", "strategy_params": {"balanced": {"risk": 0.5}}},
        },
    )
    a, b = expand(sc)
    assert a.strategy_params == {"balanced": {"w_ruin": 2.0, "risk": 1.0}}
    assert b.strategy_params == {"balanced": {"w_ruin": 2.0, "risk": 0.5}}


def test_a_scenario_without_fields_or_interventions_expands_as_before():
    cells = expand(parse(strategies=None, lineup=["random", "claimer", "collector", "balanced"]))
    (cell,) = cells
    assert len(cell.orders) == 24 and cell.treated == () and cell.forbid == {}
    assert cell.field_key == "" and "field" not in cell.describe()


# --------------------------------------------------------------------------- the engine


def test_forbid_masks_and_bad_seats():
    rules = default_rules()
    ids = list(rules.wonder_ids)
    m = forbid_masks(3, rules, {0: ["eternal_flame"], 2: ("palace_of_relics", "eternal_flame")})
    flame, palace = 1 << ids.index("eternal_flame"), 1 << ids.index("palace_of_relics")
    assert m.tolist() == [flame, 0, flame | palace]
    with pytest.raises(InputError, match="forbid: seat: bad value 3"):
        forbid_masks(3, rules, {3: ["eternal_flame"]})
    with pytest.raises(InputError, match="forbid: wonder: bad value 'x'"):
        forbid_masks(3, rules, {0: ["x"]})


@pytest.mark.slow
def test_a_forbidden_wonder_is_never_built_over_many_games():
    ids = list(default_rules().wonder_ids)
    forbid = {0: ids, 1: ["eternal_flame", "underground_library"], 3: ["underground_library"]}
    g = simulate(4, ["collector", "random", "balanced", "collector"], 1500, seed=11, forbid=forbid)
    by_seat = g.groupby("seat")
    built = {w: g[f"named_{w}"].astype(int).groupby(g["seat"]).sum() for w in ids}
    assert by_seat["wonders_named"].sum()[0] == 0  # seat 0: no named wonder at all
    assert by_seat["wonders_lesser"].sum()[0] > 0  # it takes tokens instead
    for w in ("eternal_flame", "underground_library"):
        assert built[w][1] == 0
    assert built["underground_library"][3] == 0
    # the others still build them: the test can fail
    assert built["eternal_flame"][2] + built["eternal_flame"][3] > 0
    assert built["underground_library"][2] > 0 and built["palace_of_relics"][1] > 0


def test_nothing_forbidden_plays_the_identical_games():
    a = simulate(3, ["random", "claimer", "balanced"], 150, seed=5)
    b = simulate(3, ["random", "claimer", "balanced"], 150, seed=5, forbid={})
    c = simulate(3, ["random", "claimer", "balanced"], 150, seed=5, forbid={1: []})
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)


def test_forbidding_a_wonder_no_one_can_build_changes_nothing():
    """No stones, no rings, no wonders: the paired difference is exactly 0."""
    sc = {
        **BASE,
        "games": 40,
        "overrides": {"components.stones_per_colour": 0},
        "compare": COMPARE,
    }
    run = analyzer.run(sc)
    g = run.games
    a = g[g["cell"] == 0].drop(columns=["cell"]).reset_index(drop=True)
    b = g[g["cell"] == 1].drop(columns=["cell"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
    comp = run.report_tables()["comparison"]
    assert len(comp[comp["scope"] == "treated seats"]) > 0
    assert (comp["diff"].fillna(0) == 0).all()
    assert (comp.loc[comp["scope"] != "treated seats", "diff_low"] == 0).all()


@pytest.mark.slow
def test_the_intervention_run_marks_treated_seats_and_forbids_only_them():
    run = analyzer.run({**BASE, "players": 4, "games": 400, "compare": COMPARE})
    g = run.games
    assert g.groupby(["cell", "game"])["treated"].sum().eq(1).all()  # one seat a game
    # the block of orders k plays seat k treated: game indices 0..99 seat 0, ...
    first = g[(g["treated"] == 1) & (g["cell"] == 0)].set_index("game")["seat"]
    assert (first == first.index // 100).all()
    built = g.groupby(["cell", "treated"])["named_eternal_flame"].sum()
    assert built[(1, 1)] == 0 and built[(0, 1)] > 0 and built[(1, 0)] > 0
    info = run.info["intervention"]
    assert info["variant"] == "b" and info["uptake"] == ["named_eternal_flame"]
    comp = run.report_tables()["comparison"]
    per = comp[comp["metric"] == "win per use"].iloc[0]
    t = comp[(comp["scope"] == "treated seats") & (comp["metric"] == "win")].iloc[0]
    assert per["uptake"] == pytest.approx(built[(0, 1)] / 400)
    assert per["diff"] == pytest.approx(t["diff"] / per["uptake"])


def test_python_simulate_takes_a_forbid_like_a_scenario():
    g = analyzer.simulate(
        4, "collector", 80, seed=2, forbid={"wonders": ["underground_library"], "seats": [1]}
    )
    assert g.groupby("seat")["treated"].max().tolist() == [0, 1, 0, 0]
    assert g[g["seat"] == 1]["named_underground_library"].sum() == 0
    with pytest.raises(InputError, match="analyzer.simulate: forbid.seats: bad value 7"):
        analyzer.simulate(
            4, "collector", 5, seed=2, forbid={"wonders": ["eternal_flame"], "seats": 7}
        )


# --------------------------------------------------------------------------- statistics


def test_per_use_is_the_ratio_of_sums_with_a_delta_method_interval():
    rng = np.random.default_rng(3)
    u = (rng.random(5000) < 0.1).astype(float)
    d = u * rng.normal(0.4, 1.0, 5000) + (1 - u) * rng.normal(0.0, 0.05, 5000)
    n = len(d)
    r, lo, hi = per_use(n, d.sum(), (d * d).sum(), u.sum(), (u * u).sum(), (d * u).sum())
    assert r == pytest.approx(d.sum() / u.sum())
    # the linearised form: var(d - r u) / (n mean(u)^2)
    se = np.std(d - r * u, ddof=1) / math.sqrt(n) / u.mean()
    assert (hi - lo) / 2 == pytest.approx(1.959964 * se, rel=1e-3)
    assert per_use(n, 1.0, 1.0, 0.0, 0.0, 0.0)[0] != per_use(n, 1.0, 1.0, 0.0, 0.0, 0.0)[0]  # nan


def test_reducer_pairs_treated_seats_and_reads_uptake_where_allowed():
    rows = []
    for cell in (0, 1):
        for game in range(4):
            for seat in range(2):
                treated = int(seat == game % 2)
                built = int(cell == 0 and treated and game < 2)  # a: allowed
                win = 1.0 if (seat == 0) != (cell == 1 and game == 0) else 0.0
                rows.append(
                    (
                        cell,
                        0,
                        treated,
                        game,
                        seat,
                        2,
                        "balanced",
                        10 + cell * treated,
                        win,
                        30,
                        built,
                    )
                )
    g = pd.DataFrame(
        rows,
        columns=[
            "cell",
            "order",
            "treated",
            "game",
            "seat",
            "n_players",
            "strategy",
            "score",
            "win",
            "game_turns",
            "named_eternal_flame",
        ],
    )
    import tests.standin_game  # noqa: F401  (registers the core-columns-only game 'coin')
    from analyzer.games import Column

    cols = (Column("named_eternal_flame", "built"),)
    agg = Reducer(
        ((0, 1),), game="coin", columns=cols, uptake=("named_eternal_flame",), uptake_arm="a"
    )({"games": g})
    info = {
        "game": "coin",
        "pairs": [[0, 1]],
        "cells": [
            {"index": 0, "label": "a", "players": 2},
            {"index": 1, "label": "b", "players": 2},
        ],
        "columns": [c.as_dict() for c in cols],
    }
    comp = build_tables(agg, info)["comparison"]
    t = comp[comp["scope"] == "treated seats"].set_index("metric")
    assert t.loc["score", "diff"] == pytest.approx(1.0)  # b gives treated seats +1 point
    assert t.loc["score", "mean_a"] == pytest.approx(10.0) and t.loc["score", "mean_b"] == 11
    assert t.loc["win per use", "uptake"] == pytest.approx(0.5)
    assert t.loc["score per use", "diff"] == pytest.approx(2.0)  # 4 points / 2 builds
    o = comp[comp["scope"] == "other seats"].set_index("metric")
    assert o.loc["score", "diff"] == 0


def _finding(label, est, lo, hi, sig, subject="worth"):
    return Finding(
        "q",
        label,
        subject,
        "",
        est,
        lo,
        hi,
        100,
        "games",
        0.0,
        est,
        abs(est),
        0.01,
        significant=sig,
    )


def test_across_fields_says_whether_the_answer_holds_in_every_field():
    info = {
        "fields": [{"key": "x", "label": "X"}, {"key": "y", "label": "Y"}],
        "cells": [
            {"index": 0, "label": "X", "field": "x"},
            {"index": 1, "label": "Y", "field": "y"},
        ],
    }
    q = [{"id": "q", "params": {}}]
    both = across_fields(
        q, [_finding("X", 0.1, 0.05, 0.15, True), _finding("Y", 0.2, 0.1, 0.3, True)], info
    )
    assert "holds in every field: above 'no effect' and significant in all 2" in both["q"][0]
    one = across_fields(
        q, [_finding("X", 0.1, 0.05, 0.15, True), _finding("Y", 0.02, -0.1, 0.1, False)], info
    )
    assert (
        "does not hold in every field: significantly above 'no effect' in 1 of 2, not in Y"
        in one["q"][0]
    )
    none = across_fields(
        q, [_finding("X", 0.0, -0.1, 0.1, False), _finding("Y", 0.0, -0.1, 0.1, False)], info
    )
    assert "no field shows a significant effect (0 of 2)" in none["q"][0]
    opposite = across_fields(
        q, [_finding("X", 0.1, 0.05, 0.15, True), _finding("Y", -0.1, -0.15, -0.05, True)], info
    )
    assert (
        "the fields disagree: significantly above 'no effect' in X, below in Y" in opposite["q"][0]
    )
    assert (
        across_fields(
            q, [_finding("X", 0.1, 0.05, 0.15, True)], {**info, "fields": info["fields"][:1]}
        )
        == {}
    )


# --------------------------------------------------------------------------- reports

FIELDS_TOML = """
name = "flame_fields"
description = "The Flame, forbidden each seat in turn, in two fields."
players = 4
games = 48
seed = 4

[fields.tuned]
label = "tuned"
strategies = "balanced"

[fields.old]
label = "untuned"
lineup = ["balanced", "baseline", "baseline", "baseline"]
rotation = "cyclic"
strategy_params = { balanced = { risk = 0.5 } }

[compare.a]
label = "Flame forbidden"
forbid = { wonders = ["eternal_flame"], seats = "each" }

[compare.b]
label = "as printed"
"""


@pytest.mark.slow
def test_a_fields_report_names_each_field_and_answers_in_each(tmp_path):
    from analyzer.report import rebuild_report, run_and_report

    path = tmp_path / "flame_fields.toml"
    path.write_text(FIELDS_TOML, "utf-8")
    out = tmp_path / "out"
    res = run_and_report(path, out, workers=1, progress=False)
    summary = (out / "summary.md").read_text("utf-8")
    assert (
        "Field tuned: every seat balanced; balanced on its tuned 4-player row (strategies version"
        in summary
    )
    assert (
        "Field untuned: line-up balanced, baseline, baseline, baseline played in 4 cyclic seat orders"
        in summary
    )
    assert "balanced on its tuned 4-player row with risk = 0.5" in summary
    assert (
        "Intervention, variant Flame forbidden: each seat in turn forbidden The Eternal Flame"
        in summary
    )
    assert "What is The Eternal Flame worth to a seat that may build it?" in summary
    assert "Across the fields, worth of The Eternal Flame (win share):" in summary
    html = (out / "report.html").read_text("utf-8")
    assert "Field of players" in html and "Across the fields" in html
    assert (out / "charts" / "intervention.png").is_file()
    assert (out / "charts" / "comparison_2.png").is_file()
    found = res.info["findings"]["findings"]
    worth = [f for f in found if f["subject"] == "worth of The Eternal Flame (win share)"]
    assert {f["label"] for f in worth} == {"tuned: as printed", "untuned: as printed"}
    before = pd.read_csv(out / "tables" / "comparison.csv")
    assert {"win per use", "score per use"} <= set(before["metric"])
    rebuild_report(out)  # the manifest carries the intervention: the same table again
    pd.testing.assert_frame_equal(before, pd.read_csv(out / "tables" / "comparison.csv"))
    sp = pd.read_csv(out / "tables" / "strategy_parameters.csv")
    assert set(sp["strategy"]) == {"balanced", "baseline"}


@pytest.mark.slow
def test_a_plain_report_names_its_field(tmp_path):
    from analyzer.report import run_and_report

    path = tmp_path / "plain.toml"
    path.write_text(
        'players = 3\nstrategies = ["claimer", "balanced", "random"]\ngames = 12\nseed = 1\n',
        "utf-8",
    )
    run_and_report(path, tmp_path / "out", workers=1, progress=False)
    summary = (tmp_path / "out" / "summary.md").read_text("utf-8")
    assert (
        "**Field of players.** Field: seats claimer (first player), balanced (second player), "
        "random (third player); claimer on its tuned 3-player row; balanced on its tuned 3-player row; random on its shipped row "
        "(strategies version"
    ) in summary
