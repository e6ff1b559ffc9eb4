"""Advice that explains itself (issue 38, item 4), for every game: a deep answer says
whether the quick ranking agrees and, where not, to follow the win chance and why; a
one-step answer's exact ties are ties, not noise; the terminal and the JSON name units
and print no ``null``; and the cache a table page's two answers of one state share
(:class:`analyzer.games.table.Recent`) computes once."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

import analyzer
from analyzer.games.deep import Quick, follow_words
from analyzer.games.table import Recent, example

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- which to follow


def test_the_deep_best_against_the_quick_best_in_words():
    q = Quick("take Rad", "tuned balanced's one-step value", "it values this decision alone")
    agree = follow_words("take Rad", [], q)
    assert agree.startswith("Both rankings agree: take Rad")
    differ = follow_words("take Leier", [], q)
    assert "The rankings differ" in differ
    assert "First by tuned balanced's one-step value: take Rad" in differ
    assert "first by win chance: take Leier" in differ
    assert "Follow the win chance: it plays the whole game out" in differ
    assert "it values this decision alone" in differ
    # the quick best within the rollouts' noise of the deep best: either will do
    near = follow_words("take Leier", ["take Rad"], q)
    assert "within noise" in near and "either will do" in near and "differ" not in near
    # the deep best tied exactly with the quick best by the quick ranking: they agree
    tied = Quick("take Rad", "the exact points this turn", "they count this turn only", ("a",))
    assert follow_words("a", [], tied).startswith("Both rankings agree")


# --------------------------------------------------------------------------- the shared cache


def test_recent_computes_once_for_asks_at_the_same_time():
    calls = []

    def slow(key):
        calls.append(key)
        time.sleep(0.2)
        return key * 2

    cache = Recent(slow, size=2)
    got = []
    threads = [threading.Thread(target=lambda: got.append(cache(21))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [42] * 4 and calls == [21]
    cache(1), cache(2)  # the oldest (21) gives way
    assert cache(21) == 42 and calls == [21, 1, 2, 21]


def test_recent_forgets_a_failure():
    tries = []

    def flaky(key):
        tries.append(key)
        if len(tries) == 1:
            raise ValueError("first")
        return key

    cache = Recent(flaky)
    with pytest.raises(ValueError):
        cache(5)
    assert cache(5) == 5 and tries == [5, 5]


def test_colorful_treasure_odds_and_advice_of_one_state_search_once(monkeypatch):
    from analyzer.colorful_treasure import odds as lib
    from analyzer.colorful_treasure import table

    calls = []
    real = lib.turn_odds

    def counted(state, rules=None):
        calls.append(state)
        return real(state, rules)

    monkeypatch.setattr(lib, "turn_odds", counted)
    monkeypatch.setattr(table, "TURN_ODDS", Recent(table._turn_odds))
    text = example("colorful_treasure")
    a = analyzer.advise("colorful_treasure", text)
    o = analyzer.odds("colorful_treasure", text)
    assert len(calls) == 1
    assert json.loads(a.to_json())["choices"][0]["choice"] == o.value.choices[0].name


# --------------------------------------------------------------------------- one-step answers


def _json(game: str, **kw) -> dict:
    return json.loads(analyzer.advise(game, example(game), **kw).to_json())


@pytest.mark.parametrize("game", ["unearth", "colorful_treasure", "uruk"])
def test_one_step_ties_are_ties_and_the_text_has_no_null(game):
    ans = analyzer.advise(game, example(game))
    data = json.loads(ans.to_json())
    assert data["within_noise_of_best"] == []  # exact values: no noise
    names = [c["choice"] for c in data["choices"]]
    assert set(data["tied_with_best"]) <= set(names[1:])
    assert "Follow the deep one" in data["verdict"] or "follow the deep one" in data["verdict"]
    text = ans.text(width=120)
    for word in ("null", "None", "within noise"):
        assert word not in text, (game, word)


def test_colorful_treasure_exact_ties_are_named_as_ties():
    from analyzer.colorful_treasure.rules import load_rules

    fresh = "players = 2\n" + "".join(  # a fresh grid: symmetric choices tie exactly
        f"[grid.{w}]\nface_down = 5\n" for w in load_rules().wonder_ids
    )
    data = json.loads(analyzer.advise("colorful_treasure", fresh).to_json())
    best = data["choices"][0]["exact"]["points"]
    tied = [c["choice"] for c in data["choices"][1:] if c["exact"]["points"] == best]
    assert tied and data["tied_with_best"] == tied  # the example has ties: not vacuous
    assert "tied exactly with" in data["verdict"]


def test_uruk_values_carry_their_unit_and_the_star_is_the_top():
    data = _json("uruk")
    assert "points" in data["value_unit"]
    ranks = [c["rank"] for c in data["choices"]]
    assert ranks == list(range(1, len(ranks) + 1))
    values = [c["value"] for c in data["choices"]]
    assert values == sorted(values, reverse=True)  # rank 1 (the ★) is the best value
    assert all("points" in c["words"] for c in data["choices"])
    assert data["balanced_choice"] in [c["choice"] for c in data["choices"]]


def test_uruk_bid_view_words_and_balanced_own_bid():
    from analyzer.uruk.advise import Advice, Choice, verdict

    rows = (
        Choice("bid 0", "bid", -0.5, None, False, (0, 0, 0), "suffers"),
        Choice("bid 2", "bid", -0.8, None, True, (2, 0, 0), "spared"),
    )
    words = verdict(Advice("anna", "secret_bid", rows, (), ("x",)))
    assert words.startswith("Best by one step: bid 0 (suffers the disaster, costs 0.50 points)")
    assert (
        "Tuned balanced itself would choose bid 2 (spared the disaster, costs 0.80 points" in words
    )
    assert "null" not in words and "None" not in words


# --------------------------------------------------------------------------- deep answers


@pytest.mark.parametrize(
    "game, budget", [("colorful_treasure", 2000), ("uruk", 600), ("unearth", 600)]
)
def test_a_deep_answer_says_which_ranking_to_follow(game, budget):
    quick = _json(game)
    ans = analyzer.advise(game, example(game), deep=True, budget=budget, seed=3)
    data = json.loads(ans.to_json())
    best = data["choices"][0]["choice"]
    assert data["quick_best"] == quick["choices"][0]["choice"]
    assert data["quick_agrees"] == (best == data["quick_best"] or best in quick["tied_with_best"])
    assert data["follow"] and " ".join(data["follow"].split()) in " ".join(ans.text(200).split())
    if not data["quick_agrees"] and data["quick_best"] not in data["within_noise_of_best"]:
        assert "Follow the win chance: it plays the whole game out" in data["follow"]
    # every key of before stays (add, don't rename)
    for key in ("seed", "rollouts", "seconds", "players", "assumed", "within_noise_of_best"):
        assert key in data
