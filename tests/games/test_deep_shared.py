"""Deep advice's shared answer (analyzer/deep.py): the budget check, the table's
columns and the JSON's keys. The games' answers through it are pinned in
tests/games/test_search_pinned.py."""

from __future__ import annotations

import json
from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from analyzer.core.errors import InputError
from analyzer.games import deep
from analyzer.kernels.search import RolloutRow


def _choices():
    rows = [
        RolloutRow(0, 40, 0.5, (0.35, 0.65), 30.0, (29.0, 31.0), 0.0, (0.0, 0.0)),
        RolloutRow(1, 40, 0.25, (0.14, 0.4), 28.0, (27.5, 28.5), -0.25, (-0.4, -0.1)),
    ]
    return [SimpleNamespace(name=f"c{r.index}", **deep.estimates(r)) for r in rows]


def test_check_budget():
    assert deep.check_budget(None, 500, 1, 1000) == 500
    assert deep.check_budget(7, 500, 1, 1000) == 7
    for bad in (0, 1001, 2.0, True, "5"):
        with pytest.raises(InputError, match=r"^budget: bad value .*an integer from 1 to 1,000"):
            deep.check_budget(bad, 500, 1, 1000)


def test_the_table_puts_the_games_columns_around_the_estimates():
    from rich.console import Console

    tab = deep.ranking_table(
        "T",
        _choices(),
        before=(("choice", "left"),),
        after=(("exact", "right"),),
        cells=lambda i, c: ((c.name,), (f"x{i}",)),
    )
    heads = [c.header for c in tab.columns]
    assert heads == [
        "#",
        "choice",
        "win chance",
        "vs best, paired (% points)",
        "final score",
        "exact",
    ]
    console = Console(width=200, record=True)
    console.print(tab)
    text = console.export_text()
    assert "│ 1 │ c0     │ 50.0% ± 15.0 │" in text and "best" in text and "x2" in text
    assert "-25.0 ± 15.0" in text and "28.0 ± 0.5" in text


#: the Advice fields below that are numbers
NUMBERS = ("seed", "rollouts", "seconds")


def test_the_json_keeps_the_games_keys_first():
    @dataclass
    class Advice:
        seed: int = 3
        rollouts: int = 80
        seconds: float = 0.12345
        assumed: tuple = ("a",)

    rows = [{"choice": c.name, **deep.estimates_json(c), "mine": 1} for c in _choices()]
    out = json.loads(deep.advice_json({"me": "x"}, Advice(), "everyone", ["c1"], rows))
    assert list(out) == [
        "me",
        "seed",
        "rollouts",
        "seconds",
        "players",
        "assumed",
        "within_noise_of_best",
        "choices",
    ]
    # the Advice's numbers as written (its 0.12345 to 3 decimals: a format, no clock)
    assert [out[k] for k in NUMBERS] == [3, 80, 0.123]
    assert out["within_noise_of_best"] == ["c1"]
    assert list(out["choices"][1]) == [
        "choice",
        "rollouts",
        "win",
        "win_ci95",
        "score",
        "score_ci95",
        "gain_vs_best",
        "gain_vs_best_ci95",
        "mine",
    ]
