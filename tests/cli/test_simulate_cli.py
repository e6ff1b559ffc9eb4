"""``analyzer simulate`` end to end on the Unearth engine (small game counts)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from analyzer.cli import run_cli
from analyzer.core.stats import wilson


def simulate(capsys, *args: str) -> tuple[int, str, str]:
    code = run_cli(["simulate", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def estimates(out: str) -> str:
    """The printed table and game count, without the timing and output-file lines."""
    skip = ("seconds:", "per-game table:")
    return "\n".join(line for line in out.splitlines() if not line.startswith(skip))


BASE = ("--players", "3", "--strategy", "random", "--games", "200", "--seed", "7")
BASE += ("--batch-size", "60", "--quiet")


@pytest.mark.slow
def test_one_and_two_workers_print_and_write_the_same(capsys, tmp_path):
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    code, out1, err1 = simulate(capsys, *BASE, "--workers", "1", "--out", str(one))
    assert code == 0, err1
    assert err1 == ""  # --quiet: no progress
    code, out2, err2 = simulate(capsys, *BASE, "--workers", "2", "--out", str(two))
    assert code == 0, err2
    assert estimates(out1) == estimates(out2)
    a, b = pd.read_parquet(one), pd.read_parquet(two)
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert not list(tmp_path.glob(".*.tmp"))  # atomic write left no temp file

    # the per-game table follows the contract and backs the printed numbers
    assert len(a) == 600 and a["game"].tolist() == list(np.repeat(np.arange(200), 3))
    assert a["seat"].tolist() == [0, 1, 2] * 200
    assert set(a["strategy"]) == {"random"}
    wins_per_game = a.groupby("game")["win"].sum()
    assert np.allclose(wins_per_game, 1.0, atol=1e-6)
    for seat in range(3):
        rows = a[a["seat"] == seat]
        rate = rows["win"].astype(float).sum() / 200
        low, high = wilson(rows["win"].astype(float).sum(), 200)
        mean = rows["score"].astype(float).mean()
        line = next(x for x in out1.splitlines() if f"seat {seat} (random)" in x)
        assert f"{rate:.4f}" in line and f"[{low:.4f}, {high:.4f}]" in line
        assert f"{mean:.2f}" in line
    assert "games: 200" in out1
    assert re.search(r"seconds: [0-9.]+ +games/s: [0-9,]+", out1)


def test_strategies_per_seat_repeated_or_comma_separated(capsys):
    args = ("--players", "2", "--games", "40", "--seed", "3", "--workers", "1", "--quiet")
    code, out_a, err = simulate(capsys, *args, "--strategy", "random", "--strategy", "claimer")
    assert code == 0, err
    code, out_b, err = simulate(capsys, *args, "--strategy", "random,claimer")
    assert code == 0, err
    assert estimates(out_a) == estimates(out_b)
    assert "seat 0 (random)" in out_a and "seat 1 (claimer)" in out_a
    assert "strategy claimer" in out_a and "strategy random" in out_a


def test_precision_and_resume_from_the_command_line(capsys, tmp_path):
    ckpt = tmp_path / "ckpt"
    args = ("--players", "2", "--strategy", "random", "--seed", "11", "--workers", "1")
    args += ("--games", "100", "--batch-size", "20", "--precision", "0.2", "--quiet")
    code, out, err = simulate(capsys, *args, "--checkpoint", str(ckpt))
    assert code == 0, err
    assert "(precision reached)" in out
    assert (ckpt / "run.json").exists()
    code, again, err = simulate(capsys, *args, "--checkpoint", str(ckpt), "--resume")
    assert code == 0, err
    assert estimates(again) == estimates(out)
    code, _, err = simulate(capsys, *args, "--checkpoint", str(ckpt))
    assert code == 2 and "already holds a run" in err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--players", "9"), "--players: bad value 9"),
        (("--strategy", "nope"), "--strategy: bad value 'nope'"),
        (("--players", "4", "--strategy", "random,claimer"), "got 2 strategies for 4 players"),
        (("--games", "0"), "games: bad value 0"),
        (("--edition", "french"), "bad value 'french'"),
        (("--out", "/nonexistent-dir/x.parquet"), "--out"),
        (("--out", "table.csv"), "--out"),
        (("--resume",), "resume"),
        (("--precision", "-1"), "precision"),
        (("--max-games", "100"), "max_games"),
        (("--games", "abc"), "--games"),
    ],
)
def test_bad_options_print_one_line_and_exit_2(capsys, args, needle):
    code, out, err = simulate(capsys, "--quiet", "--workers", "1", *args)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("analyzer: error: ")
    assert needle in err
    assert "Traceback" not in err


def test_help_shows_examples(capsys):
    code, out, _ = simulate(capsys, "--help")
    assert code == 0
    assert "analyzer simulate --players 4 --strategy balanced --games 100000 --seed 7" in out
    for option in ("--scheduler", "--precision", "--checkpoint", "--resume", "--out"):
        assert option in out


# --------------------------------------------------------------------------- batch size


def _manifest_batch(folder) -> int:
    import json

    return json.loads((folder / "run.json").read_text())["batch_size"]


@pytest.mark.slow
def test_a_run_that_names_no_batch_size_takes_the_games_and_keeps_a_checkpoints(tmp_path):
    """No batch size: the game's (Colorful Treasure 20,000, Unearth 5,000); a named one
    wins; the table is the same either way; a resume without one keeps the batches of
    its checkpoint (not "a different run" after the default changed)."""
    from analyzer.runs.simulate import simulate_games

    kw = dict(game="colorful_treasure", progress=False, workers=1, keep_tables=True)
    runs = {}
    for name, size in (("default", None), ("named", 5000)):
        runs[name] = simulate_games(
            4, "random", 25_000, 11, batch_size=size, checkpoint_dir=tmp_path / name, **kw
        )
    assert _manifest_batch(tmp_path / "default") == 20_000
    assert _manifest_batch(tmp_path / "named") == 5000
    pd.testing.assert_frame_equal(runs["default"].games, runs["named"].games, check_exact=True)
    pd.testing.assert_frame_equal(runs["default"].table, runs["named"].table, check_exact=True)

    # a checkpoint of 5,000-game batches, resumed without a batch size
    again = simulate_games(
        4, "random", 25_000, 11, checkpoint_dir=tmp_path / "named", resume=True, **kw
    )
    assert _manifest_batch(tmp_path / "named") == 5000
    pd.testing.assert_frame_equal(runs["named"].games, again.games, check_exact=True)


def test_the_batch_size_of_a_run_that_names_none():
    """A search player in the line-up: 20 games a batch; else the game's; a named
    size (even the old default 5000) always wins."""
    from analyzer.games import load_game
    from analyzer.runs.driver import run_batch_size
    from analyzer.scenario import SLOW_BATCH, Scenario, expand

    for name, fast, slow in (("unearth", 5000, SLOW_BATCH), ("colorful_treasure", 20_000, 20)):
        game = load_game(name)
        for strategies, default in ((("random", "random"), fast), (("search", "random"), slow)):
            sc = Scenario(
                path="t",
                name="t",
                description="",
                players=2,
                games=10,
                seed=1,
                strategies=strategies,
                lineup=None,
                rotation="all",
                rulings={},
                overrides={},
                game=name,
            )
            cells = expand(sc)
            assert run_batch_size(None, game, cells) == default
            assert run_batch_size(5000, game, cells) == 5000
            assert run_batch_size(7, game, cells) == 7


# --------------------------------------------------------------------------- wiring


def _simulation(**asked):
    """A :class:`~analyzer.runs.simulate.Simulation` of no games, for the printing."""
    from analyzer.runs.runner import RunResult
    from analyzer.runs.simulate import Simulation

    result = RunResult({}, pd.DataFrame(), 0, 0, 0.5, 0.0, "games", None)
    table = pd.DataFrame(
        columns=[
            "by",
            "group",
            "n",
            "win_rate",
            "win_low",
            "win_high",
            "mean_score",
            "score_low",
            "score_high",
        ]  # fmt: skip
    )
    return Simulation(result, table, asked["players"], (), 5, "english", "1", None)


def test_every_option_reaches_the_library_call(capsys, tmp_path, monkeypatch):
    """The command parses its options and hands them to ``simulate_games`` as they
    are (the call patched: no game is played; the real runs are the tests above)."""
    from unittest import mock

    from analyzer.runs import simulate as library

    fake = mock.Mock(side_effect=lambda players, *a, **k: _simulation(players=players))
    monkeypatch.setattr(library, "simulate_games", fake)
    out, ckpt = tmp_path / "t.parquet", tmp_path / "ck"
    code, printed, err = simulate(
        capsys,
        *("--game", "colorful_treasure", "--players", "3", "--strategy", "random"),
        *("--strategy", "greedy,random", "--games", "123", "--seed", "5"),
        *("--rule", "memory=perfect", "--rule", "tiles=true", "--rule", "rounds=-2"),
        *("--out", str(out), "--workers", "2", "--scheduler", "tcp://10.0.0.5:8786"),
        *("--precision", "0.01", "--max-games", "500", "--checkpoint", str(ckpt)),
        *("--resume", "--batch-size", "50", "--quiet", "--no-luck", "--edition", "english"),
        *("--override", "seat_compensation.points_first_seat=1.5"),
        *("--override", "seat_compensation.points_by_seat=[0, 1]", "--override", "a.b=word"),
    )
    assert code == 0, err
    assert fake.call_args.args == (3, ["random", "greedy,random"], 123, 5)
    assert fake.call_args.kwargs == {
        "game": "colorful_treasure",
        "edition": "english",
        "rulings": {"memory": "perfect", "tiles": True, "rounds": -2},
        "overrides": {  # each VALUE read as TOML, else the word it is
            "seat_compensation.points_first_seat": 1.5,
            "seat_compensation.points_by_seat": [0, 1],
            "a.b": "word",
        },
        "out": out,
        "batch_size": 50,
        "workers": 2,
        "scheduler": "tcp://10.0.0.5:8786",
        "checkpoint_dir": ckpt,
        "resume": True,
        "precision": 0.01,
        "max_games": 500,
        "progress": False,
        "luck": False,
    }
    assert "games: 0" in printed
    # the defaults the command passes when nothing is said
    code, _, err = simulate(capsys)
    assert code == 0, err
    assert fake.call_args.args == (4, [], 10000, None)
    assert fake.call_args.kwargs == {
        "game": "unearth",
        "edition": None,
        "rulings": {},
        "overrides": {},
        "out": None,
        "batch_size": None,
        "workers": None,
        "scheduler": None,
        "checkpoint_dir": None,
        "resume": False,
        "precision": None,
        "max_games": None,
        "progress": True,
        "luck": None,
    }
