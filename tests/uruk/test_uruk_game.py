"""Whole Uruk games: registration, seeding contract, invariants, scoring twin,
the end rule, rules loading and overrides, the CLI and a scenario run."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import analyzer
from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.games import CORE_COLUMNS, load_game
from analyzer.uruk import engine
from analyzer.uruk import state as S
from analyzer.uruk.game import make_job, play_raw
from analyzer.uruk.rules import assumed_values, load_rules


def test_registered_with_strategies_and_player_range():
    g = load_game("uruk")
    assert g.title.startswith("Uruk") and g.strategy_names() == (
        "random",
        "builder",
        "hoarder",
        "balanced",
        "baseline",
        "search",
        "balanced_v3",
        "trained",
    )
    assert [s.name for s in g.strategies if s.slow] == ["search"]
    rules = g.load_rules({}, {}, "x")
    assert g.player_range(rules) == (2, 4)
    assert all(dict(s.params) for s in g.strategies)


def test_same_tables_however_the_games_are_split():
    job = make_job(3, "random,builder,hoarder", seed=11)
    whole = job(0, 30)["games"]
    parts = pd.concat([job(0, 13)["games"], job(13, 17)["games"]], ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts, check_exact=True)
    assert list(whole.columns[: len(CORE_COLUMNS)]) == list(CORE_COLUMNS)
    assert np.allclose(whole.groupby("game")["win"].sum(), 1.0)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("line_up", ["random", "balanced", "builder,hoarder,balanced,random"])
def test_invariants_hold_in_every_game(players, line_up):
    names = line_up.split(",")[:players]
    job = make_job(players, names if len(names) > 1 else names[0], seed=players)
    games = job(0, 150)["games"]  # games_frame raises on a broken invariant
    assert len(games) == 150 * players
    assert games["capped"].mean() < 0.02
    assert (games["score"] == games.filter(like="pts_").sum(axis=1)).all()


def test_a_broken_invariant_is_raised():
    job = make_job(2, "balanced", seed=1)
    results, wins, _ = play_raw(job, 0, 3)
    results[4, engine.R_INVARIANTS] = engine.INV_STONES
    from analyzer.uruk.game import check_results

    with pytest.raises(RuntimeError, match="settlement stones not conserved"):
        check_results(results, 0)


def _twin_score(rules, s, p):
    """Score of seat ``p`` recomputed from the final state by the rules text."""
    t = rules.tables
    inv = [(int(x), int(st)) for x, st in zip(s.inv[p], s.stones[p], strict=True) if x >= 0]
    pts = 0
    for x, st in inv:
        pts += (1, int(t.inv_level[x]), 2 * int(t.inv_level[x]))[st]
    pts += int(s.supply[p].sum()) // 4
    data = rules.data["inventions"]["invention"]
    for x, _ in inv:
        row = data[x]
        if row["effect"] == "end_points":
            counted = {
                "inventions": len(inv),
                "villages": sum(1 for _, st in inv if st == 1),
                "cities": sum(1 for _, st in inv if st == 2),
                "resources": int(s.supply[p].sum()),
            }[row["counts"]]
            pts += row["points"] * (counted // row["per"])
    cities = sum(1 for _, st in inv if st == 2)
    return pts + int(s.city_points[p]) * cities, cities


def test_scores_and_wins_recomputed_from_the_final_state():
    rules = load_rules()
    for players, line_up in (
        (2, "random"),
        (3, "balanced"),
        (4, "hoarder,builder,random,balanced"),
    ):
        job = make_job(players, line_up, seed=5)
        for g in range(12):
            results, wins, s = play_raw(job, g, 1)
            twin = [_twin_score(rules, s, p) for p in range(players)]
            assert results[:, engine.R_SCORE].tolist() == [sc for sc, _ in twin]
            best = max(twin)
            tied = [p for p in range(players) if twin[p] == best]
            share = [Fraction(1, len(tied)) if p in tied else 0 for p in range(players)]
            assert wins.tolist() == pytest.approx([float(x) for x in share])


def test_the_end_finishes_the_round_then_one_more_turn_each():
    for players in (2, 3, 4):
        job = make_job(players, "balanced", seed=3)
        for g in range(8):
            results, _, s = play_raw(job, g, 1, trace_rows=20000)
            rows = s.trace[: s.sc[S.S_TRACE_N]]
            ends = np.flatnonzero(rows[:, 0] == S.EV_END)
            assert len(ends) == 1
            end = ends[0]
            turns = np.flatnonzero(rows[:, 0] == S.EV_TURN)
            seat = rows[turns[turns < end][-1], 2]  # whose turn it was
            after = rows[turns[turns > end], 2].tolist()
            assert after == list(range(seat + 1, players)) + list(range(players))


def test_overrides_change_the_rules_and_bad_ones_name_the_path():
    r = load_rules({"epochs.III.per_colour": 2, "inventions.axt.forbidden": True})
    assert r.tables.epoch_per_colour[2] == 2 and r.tables.inv_forbidden[:, 14].all()
    with pytest.raises(InputError, match=r"inventions.axt.level: bad value 9 \(allowed: 1 to 4\)"):
        load_rules({"inventions.axt.level": 9})
    with pytest.raises(InputError, match="matches no card"):
        load_rules({"inventions.wheel.level": 2})
    with pytest.raises(InputError, match="unknown override 'components.decks'"):
        load_rules({"components.decks": 2})


def test_assumed_values_listed_and_a_designer_can_clear_them():
    rows = assumed_values(load_rules())
    keys = {r["key"] for r in rows}
    assert {"epochs.III.cost", "epochs.IV.cost", "inventions.leuchtturm"} <= keys
    ranged = {"key", "value", "note", "path", "current", "low", "high", "range_note"}
    assert all(set(r) in ({"key", "value", "note", "range_note"}, ranged) for r in rows)
    # every assumed number has a declared range around the value played
    ranges = [r for r in rows if "path" in r]
    assert len(ranges) == 30 and all(r["low"] <= r["current"] <= r["high"] for r in ranges)
    assert all(r["low"] < r["high"] and r["range_note"] for r in ranges)
    rules = load_rules({r["path"]: r[end] for r in ranges[:1] for end in ("high",)})
    assert next(a for a in assumed_values(rules) if "path" in a)["current"] == ranges[0]["high"]
    cleared = assumed_values(load_rules({"epochs.III.assumed": False}))
    assert "epochs.III.cost" not in {r["key"] for r in cleared}


def test_without_gods_no_activation_and_forbidden_invention_never_made():
    no_gods = make_job(4, "balanced", seed=2, rules=load_rules({"gods.*.copies": 0}))
    games = no_gods(0, 60)["games"]
    assert (games["activations"] == 0).all()
    forbid = make_job(4, "balanced", seed=2, rules=load_rules({"inventions.*.forbidden": True}))
    games = forbid(0, 20)["games"]
    made = games.filter(like="has_")
    # only the level-1 inventions dealt at set-up can be displayed
    level1 = {"has_lehmhaus", "has_tongefaess", "has_axt", "has_netz"}
    assert made.drop(columns=list(level1)).to_numpy().sum() == 0


def test_simulate_api_replay_and_cli(capsys):
    df = analyzer.simulate(3, "balanced", 40, seed=1, game="uruk", workers=1)
    assert df["game"].nunique() == 40 and "pts_inventions" in df
    assert (
        run_cli(
            [
                "simulate",
                "--game",
                "uruk",
                "--players",
                "2",
                "--games",
                "50",
                "--seed",
                "3",
                "--workers",
                "1",
                "--quiet",
            ]
        )
        == 0
    )
    assert "seat 0 (trained)" in capsys.readouterr().out  # the default (strategies 5)
    assert (
        run_cli(["replay", "--game", "uruk", "--players", "3", "--seed", "3", "--index", "4"]) == 0
    )
    text = capsys.readouterr().out
    assert text.startswith("Uruk replay") and "scores" in text


@pytest.mark.slow
def test_scenario_run_lists_assumed_values(tmp_path):
    src = tmp_path / "u.toml"
    src.write_text(
        'game = "uruk"\nname = "u"\nplayers = 3\nstrategies = "balanced"\ngames = 60\n'
        'seed = 4\n[compare.a]\nlabel = "printed"\n[compare.b]\nlabel = "no gods"\n'
        '[compare.b.overrides]\n"gods.*.copies" = 0\n'
    )
    out = tmp_path / "r"
    assert run_cli(["run", str(src), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == "uruk"
    assert any(a["key"] == "epochs.IV.cost" for a in manifest["assumed"])
    assert (out / "tables" / "inventions_at_end.csv").exists()
    assert (out / "report.pdf").read_bytes().startswith(b"%PDF")


def test_an_invention_forbidden_to_one_seat():
    rules = load_rules({"components.forbid": "brennofen", "components.forbid_seat": 0})
    games = make_job(4, "balanced", seed=9, rules=rules)(0, 300)["games"]
    has = games.pivot(index="game", columns="seat", values="has_brennofen").sum()
    assert has[0] == 0 and has[1:].min() > 0
