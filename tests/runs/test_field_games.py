"""A field of players with games of its own (``[fields.<key>] games``): a small
confirmatory run, e.g. of search players, beside the scenario's full fields; and
page 1's sentence on whether a finding holds for the strongest field."""

from __future__ import annotations

import pytest

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.core.errors import InputError
from analyzer.runs.driver import run_scenario
from analyzer.runs.scenario_file import parse_scenario
from analyzer.tables.fields import across_fields
from analyzer.tables.finding import Finding


def _raw(small=30):
    return {
        "game": "coin",
        "players": 2,
        "games": 200,
        "seed": 5,
        "fields": {
            "big": {"strategies": ["lucky", "fair"]},
            "small": {"strategies": ["lucky", "fair"], "games": small, "label": "small run"},
        },
    }


def test_a_field_plays_only_its_own_games_on_the_same_indices():
    sc = parse_scenario(_raw(), "t", default_name="t")
    assert [f.games for f in sc.fields] == [0, 30]
    run = run_scenario(sc, progress=False, exact=False)
    t = run.games
    counts = t.groupby("cell", observed=True)["game"].nunique().to_dict()
    assert counts == {0: 200, 1: 30}
    # the same game indices as the first of the full field's: common random numbers
    small = t[t["cell"] == 1].sort_values(["game", "seat"])
    big = t[(t["cell"] == 0) & (t["game"] < 30)].sort_values(["game", "seat"])
    assert small["score"].tolist() == big["score"].tolist()
    assert run.info["games_total"] == 230
    fields = {f["key"]: f for f in run.info["fields"]}
    assert fields["small"]["games"] == 30 and fields["small"]["games_played"] == 30
    assert fields["big"]["games_played"] == 200 and "games" not in fields["big"]
    assert not fields["small"]["strongest"]  # no slow strategy plays in it


@pytest.mark.parametrize("small", [0, -3, 1.5, "ten", True, 201])
def test_bad_field_games_is_one_clear_error(small):
    with pytest.raises(InputError, match=r"fields\.small\.games") as e:
        parse_scenario(_raw(small), "t.toml", default_name="t")
    assert "\n" not in str(e.value)


def _finding(label, estimate, low, high, significant):
    return Finding(
        question="first_player",
        label=label,
        subject="first player's win rate",
        text="",
        estimate=estimate,
        low=low,
        high=high,
        n=100,
        n_unit="games",
        reference=0.5,
        effect=estimate - 0.5,
        effect_size=abs(estimate - 0.5),
        p_value=0.01,
        significant=significant,
    )


@pytest.mark.parametrize(
    "search, says",
    [
        (
            (0.58, 0.53, 0.63, True),
            "the finding holds with the strongest players (search, 40 games)",
        ),
        ((0.42, 0.37, 0.47, True), "the finding reverses with the strongest players"),
        ((0.52, 0.40, 0.64, False), "not shown with the strongest players"),
    ],
)
def test_page_one_says_whether_it_holds_for_the_strongest_field(search, says):
    info = {
        "fields": [
            {"key": "a", "label": "tuned", "strongest": False},
            {"key": "b", "label": "search", "strongest": True, "games_played": 40},
        ],
        "cells": [{"label": "tuned", "field": "a"}, {"label": "search", "field": "b"}],
    }
    found = [_finding("tuned", 0.56, 0.54, 0.58, True), _finding("search", *search)]
    q = [{"id": "first_player", "params": {}}]
    lines = next(iter(across_fields(q, found, info).values()))
    assert lines[0].startswith("Across the fields")
    assert says in lines[1]
    # without a strongest field, no such sentence
    for f in info["fields"]:
        f["strongest"] = False
    assert len(next(iter(across_fields(q, found, info).values()))) == 1
