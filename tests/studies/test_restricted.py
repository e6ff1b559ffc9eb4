# ruff: noqa: E501  (the tables of cases read best one case per line)
"""Restricted play (the question ``dominance``): a planted worth found with its
interval, a thing that changes nothing measured as exactly nothing, Holm over
the things, the words, the file's keys checked, and the report's
``tables/restricted_play.csv`` and top finding."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass

import numpy as np
import pytest

import tests.standin_game as coin
from analyzer.core.errors import InputError
from analyzer.games import Barrable, register_game
from analyzer.scenario import parse_scenario
from analyzer.studies import restricted as R
from analyzer.tables import restricted as T

WHERE = "scenarios/x.toml"

#: barred from "weighted", a seat flips a coin showing heads with this probability
BARRED_P = 0.3
ROUNDS = 5


@dataclass(frozen=True)
class BarJob(coin.CoinJob):
    """A coin job whose ``barred`` seats flip ``BARRED_P`` coins (same uniforms)."""

    barred: tuple = ()

    def __call__(self, start, count):
        out = super().__call__(start, count)
        if not self.barred:
            return out
        n = self.players
        scores = np.empty((count, n), np.int16)
        for i in range(count):  # the same uniforms as CoinJob: common random numbers
            rng = np.random.default_rng([self.seed, start + i])
            u = rng.random((self.rounds, n))
            p = np.full(n, 0.5)
            p[list(self.barred)] = BARRED_P
            scores[i] = (u < p).sum(axis=0)
        best = scores.max(axis=1, keepdims=True)
        top = scores == best
        games = out["games"]
        games["score"] = scores.reshape(-1)
        games["win"] = (top / top.sum(axis=1, keepdims=True)).reshape(-1).astype(np.float32)
        return out


@dataclass
class CoinBar(coin.CoinGame):
    """Coin flip with two things a seat can be barred from: ``weighted`` (then its coin
    shows heads with BARRED_P: a planted worth) and ``spare`` (changes nothing)."""

    name: str = "coinbar"
    interventions: dict = None  # type: ignore[assignment]
    ids: tuple = ("weighted", "spare")

    def __post_init__(self):
        self.interventions = {"coins": "the seat's coin is worse (weighted) or the same (spare)"}

    def intervention_ids(self, rules, kind):
        return self.ids if kind == "coins" else ()

    def make_job(
        self, players, strategies, seed, rules, *, claims=False, strategy_params=None, forbid=None
    ):
        barred = tuple(
            sorted(s for s, k in (forbid or {}).items() if "weighted" in k.get("coins", ()))
        )
        return BarJob(players, tuple(strategies), seed, rules["rounds"], rules["p_lucky"], barred)


register_game("coinbar", CoinBar)


def _many() -> CoinBar:
    return CoinBar(name="coinmany", ids=tuple(f"c{i}" for i in range(70)))


register_game("coinmany", _many)

BASE = {"game": "coinbar", "players": 2, "strategies": "fair", "games": 4000, "seed": 7,
        "questions": [{"ask": "dominance"}]}  # fmt: skip


def exact_win(p: float, q: float, rounds: int = ROUNDS) -> float:
    """The win share of a seat flipping ``p`` coins against one flipping ``q`` (ties shared)."""

    def pmf(x, k):
        return math.comb(rounds, k) * x**k * (1 - x) ** (rounds - k)

    return sum(
        pmf(p, a) * pmf(q, b) * (1.0 if a > b else 0.5 if a == b else 0.0)
        for a, b in itertools.product(range(rounds + 1), repeat=2)
    )


# --------------------------------------------------------------------------- the study


def test_a_planted_worth_is_found_and_a_thing_that_changes_nothing_is_exactly_nothing():
    sc = parse_scenario(BASE, WHERE)
    doc = R.run_restricted(sc, 7, workers=1, progress=False)
    rows = {r["thing"]: r for r in doc["rows"]}
    assert set(rows) == {"weighted", "spare"}
    w, s = rows["weighted"], rows["spare"]
    truth = 100 * (exact_win(BARRED_P, 0.5) - 0.5)  # about -24 points
    assert w["low"] <= truth <= w["high"], (w, truth)
    assert w["pairs"] == 4000 and w["win_free"] == pytest.approx(0.5, abs=0.03)
    assert w["significant"] and w["p_holm"] < 1e-6 and w["verdict"] == "decisive"
    # barring 'spare' plays the very same games: a paired difference of exactly 0
    assert s["effect"] == s["low"] == s["high"] == 0.0
    assert not s["significant"] and s["verdict"] == "can ignore" and s["p"] == s["p_holm"] == 1.0
    assert doc["games"] == 4000 and doc["games_total"] == 3 * 4000
    assert doc["players"] == 2 and doc["strategies"] == ["fair", "fair"]


def test_each_seat_is_barred_in_turn_the_others_play_as_usual():
    sc = parse_scenario(BASE, WHERE)
    ((study, things),) = R.study_scenarios(sc)
    from analyzer.scenario import expand

    cells = expand(study)
    assert [c.label for c in cells] == ["nothing barred", "weighted barred", "spare barred"]
    assert all(c.treated == ((0,), (1,)) for c in cells)  # each seat in turn, in every arm
    assert cells[0].forbid == {} and cells[1].forbid == {"coins": ("weighted",)}
    assert [b.thing for b in things] == ["weighted", "spare"]


def test_more_things_than_a_run_holds_are_split_over_runs_of_the_same_games():
    sc = parse_scenario({**BASE, "game": "coinmany", "games": 10}, WHERE)
    parts = R.study_scenarios(sc)
    assert [len(t) for _, t in parts] == [63, 7]
    assert all(p.seed == sc.seed and p.compare[0].label == "nothing barred" for p, _ in parts)
    doc = R.run_restricted(sc, 3, workers=1, progress=False)
    assert len(doc["rows"]) == 70 and all(r["effect"] == 0 for r in doc["rows"])


def test_scale_sizes_the_things_from_the_scenarios_games():
    """``scale``: paired games a thing as a multiple of the scenario's games, so
    ``--games`` scales restricted play with the rest of a run."""
    from analyzer.runs.scenario_file import with_overrides

    sc = parse_scenario(
        {**BASE, "games": 40, "questions": [{"ask": "dominance", "scale": 2.5}]}, WHERE
    )
    assert {p.games for p, _ in R.study_scenarios(sc)} == {100}
    assert {p.games for p, _ in R.study_scenarios(with_overrides(sc, games=8))} == {20}
    plain = parse_scenario({**BASE, "games": 40, "questions": ["dominance"]}, WHERE)
    assert {p.games for p, _ in R.study_scenarios(plain)} == {40}


def test_the_things_asked_for_are_those_played():
    sc = parse_scenario(
        {**BASE, "questions": [{"ask": "dominance", "things": ["spare"], "games": 50}]}, WHERE
    )
    ((study, things),) = R.study_scenarios(sc)
    assert [b.thing for b in things] == ["spare"] and study.games == 50
    groups = parse_scenario(
        {**BASE, "questions": [{"ask": "dominance", "things": ["coins"]}]}, WHERE
    )
    assert len(R.study_scenarios(groups)[0][1]) == 2


# --------------------------------------------------------------------------- the words


@pytest.mark.parametrize(
    ("effect", "low", "high", "sig", "want"),
    [
        (-8.0, -10.0, -6.0, True, "decisive"),
        (-3.0, -4.5, -1.5, True, "matters"),
        (3.0, 1.5, 4.5, True, "a trap"),
        (0.2, -1.3, 1.7, False, "can ignore"),
        (-1.0, -3.0, 1.0, False, "unclear"),
        (-6.0, -12.0, 0.1, False, "unclear"),
    ],
)  # fmt: skip
def test_verdicts(effect, low, high, sig, want):
    assert T.verdict(effect, low, high, sig, False) == want
    forced = T.verdict(effect, low, high, sig, True)
    assert forced == (want if not sig else "forcing costs" if effect < 0 else "forcing pays")


def test_holm_over_the_things():
    rows = [{"effect": -5.0, "low": -7.0, "high": -3.0, "p": p} for p in (0.01, 0.02, 0.04)]
    out = T.holm_rows(rows)
    assert [r["p_holm"] for r in out] == pytest.approx([0.03, 0.04, 0.04])
    assert all(r["significant"] for r in out)
    out = T.holm_rows([{**rows[0], "p": 0.02}, {**rows[0], "p": 0.03}])
    assert [r["p_holm"] for r in out] == pytest.approx([0.04, 0.04])


def test_summary_names_the_costliest_in_words():
    doc = {"rows": [
        {"label": "Leier", "effect": -8.2, "verdict": "decisive", "significant": True},
        {"label": "Waage", "effect": -4.4, "verdict": "matters", "significant": True},
        {"label": "Rad", "effect": -1.1, "verdict": "can ignore", "significant": False},
    ]}  # fmt: skip
    lines = T.summary(doc)
    assert lines[0].startswith("Leier is worth about 8 points of win rate, Waage about 4")
    assert any("Decisive" in x and "Leier" in x for x in lines)
    assert any("can ignore" in x and "Rad" in x for x in lines) and "Rad about" not in lines[0]
    none = T.summary(
        {
            "rows": [
                {"label": "Rad", "effect": -1.1, "low": -2.0, "high": -0.2, "verdict": "unclear"}
            ]
        }
    )
    assert none[0].startswith(
        "Barring no single thing costs a seat significantly; the costliest, Rad, −1.1"
    )


# --------------------------------------------------------------------------- the file


@pytest.mark.parametrize(
    ("question", "extra", "text"),
    [
        ({"ask": "dominance", "runs": 3}, {}, "questions[0]: unknown key 'runs' for question 'dominance' (allowed: games, things, scale)"),
        ({"ask": "dominance", "scale": 0}, {}, "questions[0].scale: bad value 0 (allowed: a number from 0.01 to 100)"),
        ({"ask": "dominance", "scale": "2"}, {}, "questions[0].scale: bad value '2'"),
        ({"ask": "dominance", "scale": 2, "games": 10}, {}, "'games' and 'scale' both given"),
        ({"ask": "dominance", "scale": 2.5}, {}, ""),
        ({"ask": "dominance", "games": 0}, {}, "questions[0].games: bad value 0 (allowed: an integer from 1"),
        ({"ask": "dominance", "games": True}, {}, "questions[0].games: bad value True"),
        ({"ask": "dominance", "things": ["nope"]}, {}, "questions[0].things: bad value 'nope' (allowed: coins, weighted, spare)"),
        ({"ask": "dominance", "things": []}, {}, "questions[0].things: bad value []"),
        ({"ask": "dominance"}, {"compare": {"a": {}, "b": {}}}, "question 'dominance' not with [compare]"),
        ({"ask": "dominance"}, {"game": "coin"}, "game 'coin' declares nothing a seat can be barred from"),
        ({"ask": "dominance", "things": ["weighted"], "games": 10}, {}, ""),
    ],
)  # fmt: skip
def test_the_question_s_keys_are_checked(question, extra, text):
    raw = {**BASE, **extra, "questions": [question]}
    if not text:
        parse_scenario(raw, WHERE)
        return
    with pytest.raises(InputError) as err:
        parse_scenario(raw, WHERE)
    msg = str(err.value)
    assert msg.startswith(WHERE) and text in msg and "\n" not in msg, msg


def test_every_game_declares_things_to_bar():
    from analyzer.games import load_game

    want = {
        "unearth": {"eternal_flame", "wonder_path", "forlorn"},
        "uruk": {"leier", "trading", "god_auctions"},
        "colorful_treasure": {"stealing", "gem_reward", "explorer_reward"},
    }
    for name, things in want.items():
        game = load_game(name)
        got = game.barrable(game.load_rules({}, {}, "x"))
        assert all(isinstance(b, Barrable) for b in got)
        ids = [b.thing for b in got]
        assert things <= set(ids) and len(set(ids)) == len(ids), (name, ids)
    ct = load_game("colorful_treasure")
    tiles = ct.barrable(ct.load_rules({"tiles": "a"}, {}, "x"))
    assert sum(b.group == "tiles" and not b.forced for b in tiles) == 5
    assert [b.thing for b in tiles if b.forced] == ["take_tiles"]


# --------------------------------------------------------------------------- the report


def test_the_report_ranks_the_things_in_its_table_and_names_the_costliest(tmp_path):
    from analyzer.report import run_and_report

    path = tmp_path / "bar.toml"
    path.write_text(
        'game = "coinbar"\nname = "bar"\nplayers = 2\nstrategies = "fair"\ngames = 2000\nseed = 5\n'
        'questions = [{ ask = "dominance" }, "first_player"]\n',
        "utf-8",
    )
    res = run_and_report(path, tmp_path / "out", workers=1, progress=False)
    out = tmp_path / "out"
    import pandas as pd

    t = pd.read_csv(out / "tables" / "restricted_play.csv")
    assert {"thing", "effect", "low", "high", "p_holm"} <= set(t.columns)
    assert list(t["thing"]) == ["weighted", "spare"]  # the costliest first
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    top = manifest["findings"]["findings"][0]
    assert top["question"].startswith("dominance") and top["label"] == "weighted"
    assert top["text"].startswith("Weighted is worth about 24 points of win rate")  # ~ -24 points
    # the verdict quotes the subject: it names the field of players too
    assert top["subject"] == "win rate barred from weighted (2 fair players)"
    assert (out / "charts" / "restricted_play.png").is_file()
    assert "restricted" in res.info
