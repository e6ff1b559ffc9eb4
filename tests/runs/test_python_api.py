"""The Python API speaks Python: parameter names in errors, a short repr and a
notebook view of a run, win rates with intervals, and workers that say when
processes would be slower than one."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import analyzer
import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.core.errors import InputError


@pytest.mark.parametrize(
    "kwargs, name, option",
    [
        ({"strategies": "nosuch"}, "strategies: bad value 'nosuch'", "--strategy"),
        ({"games": 0}, "games: bad value 0", "--games"),
        ({"players": 9}, "players: bad value 9", "--players"),
        ({"rulings": {"nosuch": 1}}, "rulings: unknown ruling 'nosuch'", "--rule"),
        ({"batch_size": 0}, "batch_size: bad value 0", "--batch-size"),
    ],
)
def test_simulate_errors_name_the_parameter(kwargs, name, option):
    with pytest.raises(InputError) as err:
        analyzer.simulate(**{"games": 10, **kwargs})
    assert str(err.value).startswith(name) and option not in str(err.value)


def test_the_command_line_still_names_its_options(capsys):
    from analyzer.cli import run_cli

    assert run_cli(["simulate", "--strategy", "nosuch"]) == 2
    assert "--strategy: bad value 'nosuch'" in capsys.readouterr().err


def test_run_errors_name_the_parameter():
    with pytest.raises(InputError, match=r"^games: bad value 0"):
        analyzer.run({"game": "coin", "players": 2, "games": 5, "strategies": "fair"}, games=0)


def _naive_win_rates(table: pd.DataFrame, by: str) -> dict:
    """The obvious loop: wins and seat-games of each group."""
    out: dict = {}
    for key, win in zip(table[by], table["win"], strict=True):
        n, w = out.get(key, (0, 0.0))
        out[key] = (n + 1, w + float(win))
    return out


@pytest.mark.parametrize("by", ["seat", "strategy"])
def test_win_rates_count_what_the_table_holds(by):
    table = analyzer.simulate(3, ["fair", "lucky", "fair"], 300, 5, game="coin")
    rates = analyzer.win_rates(table, by=by)
    naive = _naive_win_rates(table, by)
    assert list(rates.columns) == [by, "n", "wins", "win_rate", "low", "high"]
    assert len(rates) == len(naive)
    for row in rates.itertuples(index=False):
        n, w = naive[getattr(row, by)]
        assert row.n == n and math.isclose(row.wins, w, rel_tol=1e-9)
        assert math.isclose(row.win_rate, w / n)
        # Wilson's interval, the obvious formula
        z, p = 1.959963984540054, w / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        assert row.low == pytest.approx(centre - half) and row.high == pytest.approx(centre + half)
    if by == "strategy":  # the lucky coin wins more than its share
        lucky = rates.set_index("strategy").loc["lucky"]
        assert lucky.low > 1 / 3


def test_win_rates_of_a_run_keep_its_configurations_apart():
    run = analyzer.run(
        {
            "game": "coin",
            "players": 2,
            "games": 50,
            "seed": 2,
            "strategies": "fair",
            "sweep": {"param": "rules.rounds", "values": [1, 9]},
        }
    )
    rates = analyzer.win_rates(run.games, by="seat")
    assert list(rates[["cell", "seat"]].itertuples(index=False, name=None)) == [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
    ]
    assert (rates["n"] == 50).all()


def test_win_rates_refuse_what_is_not_a_games_table():
    with pytest.raises(InputError, match="by: bad value 'colour'"):
        analyzer.win_rates(pd.DataFrame({"seat": [0], "win": [1.0]}), by="colour")
    with pytest.raises(InputError, match="table: no column 'win'"):
        analyzer.win_rates(pd.DataFrame({"seat": [0]}))


def test_a_run_has_a_short_repr_and_a_notebook_view():
    run = analyzer.run(
        {"game": "coin", "players": 2, "games": 400, "seed": 4, "strategies": ["lucky", "fair"]}
    )
    text = repr(run)
    assert text.startswith("<ScenarioRun 'scenario': Coin flip, 400 games, seed 4")
    assert "\n" not in text and len(text) < 200
    page = run._repr_html_()
    found = run.findings()
    assert found.questions and found.questions[0]["text"] in page.replace("&#x27;", "'")
    first = found.for_question(0)[0]
    assert first.text.split(" [")[0].replace("'", "&#x27;") in page
    assert "<script" not in page


def test_processes_say_when_they_would_be_slower_than_one():
    """Two batches for four processes: each would start Python and load the engine
    for one batch; the run says so (a warning; a line with progress on)."""
    from analyzer.runs.runner import RunOptions, run

    def batch(start, count):
        return {"games": pd.DataFrame({"x": np.arange(start, start + count)})}

    def reduce(tables):
        return pd.DataFrame({"n": [len(tables["games"])]}, index=pd.Index([0], name="k"))

    from analyzer.runs import runner

    class Stop(Exception):
        pass

    def no_backend(*args, **kwargs):
        raise Stop  # (the nested functions here cannot go to processes)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runner, "_Backend", no_backend)
        with pytest.warns(RuntimeWarning, match="workers=4: 2 batches are too few"):
            with pytest.raises(Stop):
                options = RunOptions(games=10, seed=1, batch_size=5, workers=4, progress=False)
                run(batch, options, reduce)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(Stop):  # four batches each for two: nothing to say
                options = RunOptions(games=40, seed=1, batch_size=5, workers=2, progress=False)
                run(batch, options, reduce)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run(batch, RunOptions(games=10, seed=1, batch_size=5, workers=1), reduce)
