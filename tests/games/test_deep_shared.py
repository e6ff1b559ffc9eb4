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


@pytest.fixture
def rates(tmp_path, monkeypatch):
    """The file of measured deep-advice speeds, in a folder of this test's own."""
    path = tmp_path / deep.RATES_FILE
    monkeypatch.setattr(deep, "_rates_path", lambda: path)
    return path


def test_the_estimate_is_the_budget_over_the_last_rate_measured_here(rates):
    assert deep.measured_rate("g") is None
    fresh = deep.estimate("g", 12_000, 1_500.0)  # the game's default rate
    assert fresh == "deep advice: 12,000 rollouts, about 8 s (not yet timed on this machine)"
    assert fresh.seconds == 8.0 and fresh.rollouts == 12_000
    assert deep.estimate("g", 2_000).seconds == 2_000 / deep.DEFAULT_ROLLOUTS_PER_S
    deep.record_rate("g", 12_000, 4.0)  # 3,000 a second
    deep.record_rate("h", 50, 4.0)  # too few rollouts to time (the web's probe)
    assert json.loads(rates.read_text("utf-8")) == {"g": 3000.0}
    said = deep.estimate("g", 60_000, 1_500.0)
    assert said == "deep advice: 60,000 rollouts, about 20 s on this machine"
    assert said.seconds == 20.0
    deep.record_rate("g", 60_000, 120.0)  # the last run counts
    assert (
        deep.estimate("g", 60_000)
        == "deep advice: 60,000 rollouts, about 2 minutes on this machine"
    )


def test_an_unreadable_rates_file_only_loses_the_estimate(rates):
    for text in ("not json", "[1, 2]", '{"g": "fast"}', '{"g": -3}', '{"g": true}'):
        rates.write_text(text, "utf-8")
        assert deep.measured_rate("g") is None
        assert deep.estimate("g", 1_000, 1_000.0).endswith("(not yet timed on this machine)")
    deep.record_rate("g", 2_000, 1.0)  # over a bad file: a good one
    assert deep.measured_rate("g") == 2_000.0


def test_asking_a_deep_advice_says_its_estimate_first_and_times_it(rates):
    """Through the table question (the CLI and the web ask it so): the line said before
    the rollouts is the estimate from the recorded rate; the run's own speed is kept."""
    from analyzer.games import table

    rates.write_text(json.dumps({"uruk": 500.0}), "utf-8")
    heard: list[str] = []
    got = table.ask(
        "uruk",
        "advise",
        table.example("uruk"),
        {"deep": True, "budget": 1_000, "seed": 1},
        say=heard.append,
    )
    assert heard == ["deep advice: 1,000 rollouts, about 2 s on this machine"]
    assert heard[0].seconds == 2.0
    v = got.value
    assert deep.measured_rate("uruk") == round(v.rollouts / v.seconds, 1)
    assert table.deep_estimate("uruk").rollouts == 12_000  # its default budget
    assert table.deep_estimate("uruk", 3_000).seconds == 3_000 / deep.measured_rate("uruk")
    rates.write_text(json.dumps({"uruk": 500.0}), "utf-8")
    probe = {"deep": True, "budget": 2, "seed": 1}  # the web's probe: said, not timed
    table.ask("uruk", "advise", table.example("uruk"), probe, say=heard.append)
    assert deep.measured_rate("uruk") == 500.0
    heard.clear()
    state = table.example("uruk")
    table.ask("uruk", "advise", state, {}, say=heard.append)  # not deep: no estimate
    assert heard == []


def test_the_terminal_counts_seconds_against_the_estimate_then_says_it_is_late():
    from analyzer.cli.table import ticker_text

    assert ticker_text(3.2, 10.0) == (
        "  3 s of about 10 s (one compiled search: no count until it ends)"
    )
    assert ticker_text(14.0, 10.0) == "  14 s: taking longer than estimated (about 10 s)"
