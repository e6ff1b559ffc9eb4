"""How long deep advice should take on this machine (analyzer/games/deep_rate.py): the
estimate from the last rate recorded here, said before a deep advice starts, and the
terminal's line while it runs."""

from __future__ import annotations

import json

import pytest

from analyzer.core.errors import InputError
from analyzer.games import deep_rate as rate


@pytest.fixture
def rates(tmp_path, monkeypatch):
    """The file of measured deep-advice speeds, in a folder of this test's own."""
    path = tmp_path / rate.RATES_FILE
    monkeypatch.setattr(rate, "_rates_path", lambda: path)
    return path


def test_the_estimate_is_the_budget_over_the_last_rate_measured_here(rates):
    assert rate.measured_rate("g") is None
    fresh = rate.estimate("g", 12_000, 1_500.0)  # the game's default rate
    assert fresh == "deep advice: 12,000 rollouts, about 8 s (not yet timed on this machine)"
    assert fresh.seconds == 8.0 and fresh.rollouts == 12_000
    assert rate.estimate("g", 2_000).seconds == 2_000 / rate.DEFAULT_ROLLOUTS_PER_S
    rate.record_rate("g", 12_000, 4.0)  # 3,000 a second
    rate.record_rate("h", 500, 4.0)  # too few rollouts to time (overhead, mostly)
    rate.record_rate("h", 1_200, 4.0, budget=2)  # the web's probe: a budget of 2
    assert json.loads(rates.read_text("utf-8")) == {"g": 3000.0}
    said = rate.estimate("g", 60_000, 1_500.0)
    assert said == "deep advice: 60,000 rollouts, about 20 s on this machine"
    assert said.seconds == 20.0
    rate.record_rate("g", 60_000, 120.0)  # the last run counts
    assert (
        rate.estimate("g", 60_000)
        == "deep advice: 60,000 rollouts, about 2 minutes on this machine"
    )


def test_an_unreadable_rates_file_only_loses_the_estimate(rates):
    for text in ("not json", "[1, 2]", '{"g": "fast"}', '{"g": -3}', '{"g": true}'):
        rates.write_text(text, "utf-8")
        assert rate.measured_rate("g") is None
        assert rate.estimate("g", 1_000, 1_000.0).endswith("(not yet timed on this machine)")
    rate.record_rate("g", 2_000, 1.0)  # over a bad file: a good one
    assert rate.measured_rate("g") == 2_000.0


def test_asking_a_deep_advice_says_its_estimate_first_and_times_it(rates, monkeypatch):
    """Through the table question (the CLI and the web ask it so): the line said before
    the rollouts is the estimate from the recorded rate; the run's own speed is kept."""
    from analyzer.games import table

    rates.write_text(json.dumps({"uruk": 500.0}), "utf-8")
    ticks = iter(range(0, 100, 4))  # a clock of the wait: 4 s a reading
    monkeypatch.setattr(table, "_clock", lambda: next(ticks))
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
    assert got.value.rollouts > 0
    assert rate.measured_rate("uruk") == 1_000 / 4  # the budget over the wait
    assert table.deep_estimate("uruk").rollouts == 12_000  # its default budget
    assert table.deep_estimate("uruk", 3_000).seconds == 3_000 / rate.measured_rate("uruk")
    rates.write_text(json.dumps({"uruk": 500.0}), "utf-8")
    probe = {"deep": True, "budget": 2, "seed": 1}  # the web's probe: said, not timed
    table.ask("uruk", "advise", table.example("uruk"), probe, say=heard.append)
    assert rate.measured_rate("uruk") == 500.0
    heard.clear()
    state = table.example("uruk")
    with pytest.raises(InputError, match="budget"):  # bad input: its one line, no estimate
        table.ask("uruk", "advise", state, {"deep": True, "budget": 0}, say=heard.append)
    assert heard == []
    table.ask("uruk", "advise", state, {}, say=heard.append)  # not deep: no estimate
    assert heard == []


def test_the_terminal_counts_seconds_against_the_estimate_then_says_it_is_late():
    from analyzer.cli.table import ticker_text

    assert ticker_text(3.2, 10.0) == (
        "  3 s of about 10 s (one compiled search: no count until it ends)"
    )
    assert ticker_text(14.0, 10.0) == "  14 s: taking longer than estimated (about 10 s)"
