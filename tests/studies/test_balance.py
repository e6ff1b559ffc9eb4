"""The balance search (:mod:`analyzer.studies.balance`) on the coin game, whose fair
value is known: with the lucky coin in seat 1 and a fair coin in seat 2, the seats
are fair exactly when the lucky coin is fair (p = 0.5, by symmetry)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tests.standin_game  # noqa: F401  (registers the coin game)
from analyzer.runs.balance_file import BalanceSpec, KnobSpec, ObjectiveSpec
from analyzer.runs.scenario_file import parse_scenario
from analyzer.studies.balance import (
    Outcome,
    balance,
    certificate,
    combined,
    derived_seed,
    fit_root,
    measure,
)


def coin(seed=1, games=3000, **extra) -> object:
    raw = {
        "game": "coin",
        "seed": seed,
        "balance": {
            "counts": 2,
            "players": ["lucky", "fair"],
            "rotate": False,
            "games": games,
            "knobs": {"coin.p_lucky": {"low": 0.3, "high": 0.7, "step": 0.01}},
            **extra,
        },
    }
    return parse_scenario(raw, "coin.toml")


@pytest.fixture(scope="module")
def answer():
    return balance(coin(), workers=1)


def test_one_knob_finds_the_known_fair_value(answer):
    d = answer.to_json()
    low, high = d["interval"]["coin.p_lucky"]
    assert low <= 0.5 <= high and high - low < 0.1
    assert abs(d["recommended"]["coin.p_lucky"] - 0.5) <= 0.03
    assert d["method"] == "monotone grid + fit" and d["curve"]["fit"]["kind"] in (
        "logistic",
        "linear",
    )
    assert d["curve"]["root_interval"] == [low, high]


def test_the_answer_keeps_to_the_schema(answer):
    d = answer.to_json()
    for key in (
        "schema",
        "game",
        "question",
        "players",
        "field",
        "field_label",
        "delta",
        "knobs",
        "frozen",
        "objectives",
        "combine",
        "method",
        "recommended",
        "interval",
        "before",
        "after",
        "retuned",
        "retune",
        "seat_rates",
        "costs",
        "certified",
        "certificate",
        "attribution",
        "curve",
        "front",
        "verdict",
        "sentences",
        "candidates",
        "games",
        "seeds",
        "budget",
        "stopped",
    ):
        assert key in d, key
    assert d["delta"] == pytest.approx(0.015) and d["players"] == [2]
    assert d["knobs"][0] == {
        "path": "coin.p_lucky",
        "label": "coin.p_lucky",
        "printed": 0.6,
        "kind": "float",
        "low": 0.3,
        "high": 0.7,
        "step": 0.01,
        "values": None,
    }
    rates = d["seat_rates"]["2"]["after"]
    assert [r["seat"] for r in rates] == [1, 2] and all(
        r["low"] <= r["rate"] <= r["high"] for r in rates
    )
    assert d["games"]["total"] == sum(v for k, v in d["games"].items() if k != "total")
    assert d["candidates"] == len(answer.candidates) == 8
    row = answer.candidates[0]
    assert {
        "candidate",
        "round",
        "rung",
        "coin.p_lucky",
        "games",
        "fairness_2p",
        "score",
        "kept",
    } <= set(row)
    assert "first player" in " ".join(d["sentences"]) and d["verdict"]
    assert "BalanceResult coin" in repr(answer)
    spread = d["costs"]["score_spread"]["before"]
    assert 0 < spread["low"] <= spread["value"] <= spread["high"] <= 5  # heads of 5 flips
    assert d["costs"]["length"]["after"]["value"] == 5  # the coin game: 5 turns


def test_before_and_after_come_from_fresh_games_only(answer):
    """The after/before seat rates are those of the fresh seed's games, played again
    here with analyzer.simulate: not the games that chose the design."""
    from analyzer.runs.simulate import simulate_games

    d = answer.to_json()
    assert d["seeds"]["fresh"] == derived_seed(d["seeds"]["search"], "balance fresh")
    assert d["seeds"]["fresh"] != d["seeds"]["search"]
    games = d["after"]["fairness_2p"]["games"]
    for which, design in (("after", d["recommended"]), ("before", {"coin.p_lucky": 0.6})):
        sim = simulate_games(
            2,
            ["lucky", "fair"],
            games,
            d["seeds"]["fresh"],
            game="coin",
            overrides=design,
            progress=False,
            workers=1,
        )
        seats = sim.table[sim.table["by"] == "seat"]["win_rate"].tolist()
        got = [r["rate"] for r in d["seat_rates"]["2"][which]]
        assert got == pytest.approx(seats)
        assert d[which]["fairness_2p"]["value"] == pytest.approx(abs(seats[0] - 0.5))


def test_attribution_is_per_step_with_an_interval(answer):
    d = answer.to_json()
    first = [a for a in d["attribution"] if a["seat"] == 1][0]
    # a lucky coin 0.01 better wins more for seat 1, by about a point (5 flips each)
    assert first["low"] <= first["per_step"] <= first["high"] and first["per_step"] > 0
    assert "first player's win rate" in first["sentence"]


def test_the_same_seed_gives_the_same_answer():
    a, b = balance(coin(games=1000), workers=1), balance(coin(games=1000), workers=1)
    a, b = a.to_json(), b.to_json()
    a.pop("seconds"), b.pop("seconds")
    assert a == b


@pytest.mark.slow  # (worker processes)
def test_the_answer_is_the_same_for_any_number_of_workers():
    a, b = balance(coin(games=1000), workers=1), balance(coin(games=1000), workers=2)
    a, b = a.to_json(), b.to_json()
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def _outcome(rates, games, rng):
    """Games of two seats whose seat 1 wins with ``rates[0]``."""
    w = (rng.random(games) < rates[0]).astype(float)
    return Outcome(np.column_stack([w, 1 - w]), np.full(games, 5.0))


def _spec(**kw):
    knob = KnobSpec("k", "int", (0, 1, 2, 3, 4), 2, 0, 4, 1)
    return BalanceSpec(
        knobs=(knob,),
        objectives=(ObjectiveSpec("fairness_2p", "seat_fairness", 2),),
        field=("fair",),
        counts=(2,),
        **kw,
    )


def test_the_certificate_passes_a_fair_game_and_refuses_an_unfair_one():
    rng = np.random.default_rng(0)
    spec = _spec()
    fair = certificate(spec, {2: _outcome([0.5], 100_000, rng)})
    assert fair["certified"] and fair["games_needed"] is None and "Certified" in fair["sentence"]
    unfair = certificate(spec, {2: _outcome([0.55], 100_000, rng)})
    assert not unfair["certified"] and unfair["games_needed"] is None
    assert unfair["worst"]["seat"] in (1, 2) and abs(unfair["worst"]["gap"]) > 0.04
    few = certificate(spec, {2: _outcome([0.5], 2_000, rng)})
    assert not few["certified"] and few["games_needed"] > 2_000
    assert f"{few['games_needed']:,}" in few["sentence"]


def test_the_certificate_is_two_one_sided_tests_per_seat():
    """A plain twin: seat 1's gap and its one-sided 95% bounds against ±delta."""
    rng = np.random.default_rng(3)
    spec = _spec(delta=2.0)
    for p in (0.49, 0.5, 0.515, 0.53):
        o = _outcome([p], 20_000, rng)
        w = o.wins[:, 0]
        gap, se = w.mean() - 0.5, w.std(ddof=1) / math.sqrt(len(w))
        twin = gap - 1.6448536 * se > -0.02 and gap + 1.6448536 * se < 0.02
        assert certificate(spec, {2: o})["certified"] == twin


def test_the_fitted_root_and_its_interval_cover_a_known_curve():
    rng = np.random.default_rng(5)
    xs = np.array([1.0, 2.0, 3.0])
    truth = 0.5 + 0.08 * (xs - 2.4)  # fair at 2.4
    u = rng.random((4000, 1))
    W = (u < truth).astype(float)  # paired: one uniform per game for every value
    f = fit_root(xs, W, 0.5, seed=1)
    assert f["root_interval"][0] <= 2.4 <= f["root_interval"][1]
    assert abs(f["root"] - 2.4) < 0.2


def test_objectives_and_their_combination():
    o = Outcome(
        np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 0.0]]),
        np.array([10.0, 12.0, 14.0, 16.0]),
        {"score": np.array([1.0, 2.0, 3.0, 4.0])},
    )
    knob = KnobSpec("k", "int", (0, 1, 2, 3, 4), 2, 0, 4, 1)
    obs = (
        ObjectiveSpec("fairness_2p", "seat_fairness", 2, weight=1.0),
        ObjectiveSpec("length_2p", "length", 2, band=(10.0, 12.0), weight=2.0),
        ObjectiveSpec("score_2p", "column", 2, band=(0.0, 2.0), column="score"),
        ObjectiveSpec("edits", "edits"),
    )
    spec = BalanceSpec(knobs=(knob,), objectives=obs, field=("fair",), counts=(2,))
    v = measure(spec, {"k": 4}, {2: o})
    assert v == {"fairness_2p": 25.0, "length_2p": 1.0, "score_2p": 0.5, "edits": 2.0}
    assert combined(spec, v) == 25.0 + 2.0 + 0.5 + 2.0
    ordered = BalanceSpec(
        knobs=(knob,), objectives=obs, field=("fair",), counts=(2,), combine="order"
    )
    assert combined(ordered, v) > combined(ordered, {**v, "fairness_2p": 24.0})


def test_several_knobs_are_searched_with_tpe_and_halving():
    import examples.pig  # noqa: F401  (registers pig)

    raw = {
        "game": "pig",
        "players": 2,
        "seed": 4,
        "balance": {
            "games": 3000,
            "objectives": ["seat_fairness", "edits"],
            "knobs": {
                "target": {"low": 20, "high": 60, "step": 20},
                "faces": {"values": [5, 6, 7]},
            },
        },
    }
    res = balance(parse_scenario(raw, "pig.toml"), workers=1)
    d = res.to_json()
    assert d["method"] == "optuna TPE + successive halving"
    assert d["recommended"]["target"] in (20, 40, 60) and d["recommended"]["faces"] in (5, 6, 7)
    assert d["curve"] is None and d["interval"] == {}
    rungs = [r["rung"] for r in res.candidates]
    assert min(rungs) == 0 and max(rungs) >= 2
    # halving: fewer candidates reach each rung
    assert rungs.count(0) > rungs.count(1) > rungs.count(2)
    assert d["games"]["search"] <= 1.1 * 3000


@pytest.mark.slow
def test_retuning_is_measured_on_the_fresh_games():
    """The coin's tunable lucky player re-tuned at the found value plays its own p
    (the knob no longer moves it): the re-tuned rates are measured on the fresh games."""
    res = balance(
        coin(games=1000, retune=True, retune_trials=3, retune_games=100, rounds=1), workers=1
    )
    d = res.to_json()
    assert d["retune"]["done"] and d["retune"]["strategy"] == "lucky"
    assert d["retuned"]["fairness_2p"]["games"] == d["after"]["fairness_2p"]["games"] > 0
    assert d["games"]["retune"] > 0 and d["retune"]["params"]["lucky"].keys() == {"p"}
    assert d["seat_rates"]["2"]["retuned"] != d["seat_rates"]["2"]["after"]
    assert "re-tun" in " ".join(d["sentences"]).lower()


def test_a_mixed_field_is_rotated_and_its_strategies_compared():
    """Two Pig strategies: seats rotated by default, so each strategy plays every seat;
    viability is their spread of win rates, and every block is whole rotations."""
    import examples.pig  # noqa: F401  (registers pig)
    from analyzer.studies.balance import Evaluator

    raw = {
        "game": "pig",
        "players": 2,
        "seed": 2,
        "balance": {
            "players": ["hold", "random"],
            "games": 1200,
            "objectives": ["seat_fairness", "strategy_viability"],
            "knobs": {"target": {"low": 20, "high": 100, "step": 20}},
        },
    }
    sc = parse_scenario(raw, "pig.toml")
    assert sc.balance.rotate
    o = Evaluator(sc, sc.balance).play({"target": 60}, 2, 0, 400, 9)
    assert o.wins.shape == (400, 2)
    # rotated: hold and random each sit in both seats, as often
    hold, rand = o.by_strategy["hold"], o.by_strategy["random"]
    assert np.allclose(hold + rand, 1.0) and hold.mean() > 0.7
    d = balance(sc, workers=1).to_json()
    assert d["field_label"] == "hold, random, seats rotated"
    assert d["before"]["viability_2p"]["value"] > 0.3  # hold beats random by far
    assert all(r["games"] % 2 == 0 for r in balance(sc, workers=1).candidates)


@pytest.mark.slow
def test_players_that_undo_the_fix_send_the_search_round_again_and_it_says_so():
    """Re-tuned, the lucky player picks a coin near p = 1, whatever the knob: the
    fix is undone, the search runs again with it (once: rounds = 1) and stops saying so."""
    res = balance(
        coin(seed=1, games=4000, retune=True, retune_trials=4, retune_games=200, rounds=1),
        workers=1,
    )
    d = res.to_json()
    r = d["retune"]
    assert r["undone"] and r["rounds"] == 2 and r["shift"] > 1.5
    assert "1 more search" in r["note"] and "the largest gap from fair goes from" in r["note"]
    assert d["stopped"] == "re-tuning still undoes the fix after 1 more search"
    assert sorted({c["round"] for c in res.candidates}) == [0, 1, 2, 3]  # two searches


def test_a_budget_in_minutes_is_measured_once_and_kept(tmp_path):
    raw = {
        "game": "coin",
        "seed": 3,
        "balance": {
            "counts": 2,
            "players": ["lucky", "fair"],
            "rotate": False,
            "minutes": 0.02,
            "knobs": {"coin.p_lucky": {"low": 0.4, "high": 0.6, "step": 0.05}},
        },
    }
    sc = parse_scenario(raw, "coin.toml")
    d = balance(sc, workers=1, store=tmp_path).to_json()
    kept = (tmp_path / "budget.json").read_text("utf-8")
    assert d["budget"]["minutes"] == 0.02 and "games/s measured" in d["budget"]["note"]
    assert f'"games": {d["budget"]["games"]}' in kept
    again = balance(sc, workers=1, store=tmp_path).to_json()
    assert again["budget"] == d["budget"] and again["recommended"] == d["recommended"]


def test_combine_front_lists_the_candidates_no_other_beats():
    raw = {
        "game": "coin",
        "seed": 3,
        "balance": {
            "counts": 2,
            "players": ["lucky", "fair"],
            "rotate": False,
            "games": 600,
            "combine": "front",
            "objectives": ["seat_fairness", "edits"],
            "knobs": {"coin.p_lucky": {"low": 0.4, "high": 0.6, "step": 0.05}},
        },
    }
    res = balance(parse_scenario(raw, "coin.toml"), workers=1)
    front = res.to_json()["front"]
    assert front
    rows = {r["candidate"]: r for r in res.candidates}
    for f in front:  # fractions, like 'before' and 'after' (the candidates: win points)
        row = rows[f["candidate"]]
        assert f["objectives"]["fairness_2p"] == pytest.approx(row["fairness_2p"] / 100)
        assert f["objectives"]["edits"] == pytest.approx(row["edits"])
    for f in front:  # none dominated by another candidate of its rung
        o = {k: rows[f["candidate"]][k] for k in ("fairness_2p", "edits")}
        assert not any(
            r["fairness_2p"] <= o["fairness_2p"]
            and r["edits"] <= o["edits"]
            and (r["fairness_2p"] < o["fairness_2p"] or r["edits"] < o["edits"])
            for r in res.candidates
            if r["rung"] == max(c["rung"] for c in res.candidates)
        )


def test_a_change_that_leaves_another_count_less_fair_says_so():
    """A change chosen at 3 players is judged at 2 and 4 too: where it leaves the seats
    clearly less fair than printed, the verdict says "not for 4 players"."""
    from types import SimpleNamespace

    from analyzer.studies.balance import _other_counts

    def rates(*rs, half=0.008):
        return [{"seat": i + 1, "rate": r, "low": r - half, "high": r + half} for i, r in
                enumerate(rs)]  # fmt: skip

    d = {"seat_rates": {
        "2": {"before": rates(0.526, 0.474), "after": rates(0.491, 0.509)},
        "3": {"before": rates(0.355, 0.329, 0.315), "after": rates(0.327, 0.343, 0.33)},
        "4": {"before": rates(0.248, 0.25, 0.249, 0.253),
              "after": rates(0.227, 0.272, 0.249, 0.253)},
    }}  # fmt: skip
    spec = SimpleNamespace(counts=(2, 3, 4))
    two, four = _other_counts(spec, d, {3})
    assert two == "at 2 players the largest gap goes from 2.6 to 0.9 win points"
    assert four.startswith("at 4 players it leaves the seats less fair than printed")
    assert four.endswith("not for 4 players")
    # within noise after the change: no warning, only the numbers
    d["seat_rates"]["4"]["after"] = rates(0.24, 0.26, 0.25, 0.25, half=0.02)
    assert "less fair" not in _other_counts(spec, d, {3})[1]


def test_after_is_the_design_played_by_the_scenarios_field_even_after_a_retuning_round():
    """Re-tuned, the lucky player picks its own coin (p about 0.63) whatever the knob:
    the fix is undone and the search runs a second round with the re-tuned players.
    It keeps the printed value, so 'after' (the recommended design, the scenario's
    field, the same fresh seeds) is 'before' game for game; the re-tuned players'
    games are 'retuned' and nowhere else, and the attribution is the field's."""
    raw = {
        "game": "coin",
        "seed": 3,
        "balance": {
            "counts": 2,
            "players": ["lucky", "fair"],
            "rotate": False,
            "games": 3000,
            "combine": "front",
            "objectives": ["seat_fairness", "edits"],
            "knobs": {"coin.p_lucky": {"low": 0.4, "high": 0.6, "step": 0.05}},
            "retune": True,
            "retune_trials": 3,
            "retune_games": 100,
            "rounds": 1,
        },
    }
    d = balance(parse_scenario(raw, "coin.toml"), workers=1).to_json()
    assert d["retune"]["rounds"] == 2 and d["recommended"] == {"coin.p_lucky": 0.6}
    assert d["after"] == d["before"]
    assert d["seat_rates"]["2"]["after"] == d["seat_rates"]["2"]["before"]
    assert d["retuned"]["fairness_2p"]["value"] > d["after"]["fairness_2p"]["value"] + 0.015
    assert d["retune"]["shift"] == pytest.approx(
        100 * (d["retuned"]["fairness_2p"]["value"] - d["after"]["fairness_2p"]["value"]), abs=1e-3
    )
    # the field's lucky coin follows the knob: one step moves seat 1 clearly
    seat1 = next(a for a in d["attribution"] if a.get("seat") == 1)
    assert seat1["low"] > 0
