"""``analyzer replay``: one game of a seeded run as text, from the command line."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from analyzer.cli import run_cli


def replay(capsys, *args: str) -> tuple[int, str, str]:
    code = run_cli(["replay", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_replay_is_the_game_the_same_run_simulates(capsys, tmp_path):
    """Game 2 of seed 5 in ``simulate --out`` has the scores the replay ends with."""
    table = tmp_path / "run.parquet"
    args = ("--players", "3", "--strategy", "claimer,random,balanced", "--seed", "5")
    sim = ["simulate", *args, "--games", "4", "--workers", "1", "--quiet", "--out", str(table)]
    assert run_cli(sim) == 0
    capsys.readouterr()
    rows = pd.read_parquet(table)
    rows = rows[rows["game"] == 2].sort_values("seat")
    code, out, err = replay(capsys, *args, "--game", "2")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("# Unearth replay") and "seed 5, game 2" in lines[0]
    assert "seat 0 claimer, seat 1 random, seat 2 balanced" in lines[1]
    finals = [re.match(r"# seat (\d): score (-?\d+)", x) for x in lines if x.startswith("# seat")]
    assert [(int(m[1]), int(m[2])) for m in finals] == list(
        zip(rows["seat"].tolist(), rows["score"].astype(int).tolist(), strict=True)
    )
    assert sum("excavation:" in x for x in lines) > 10


def test_replay_out_writes_the_same_text_atomically(capsys, tmp_path):
    args = ("--players", "2", "--strategy", "random", "--seed", "9", "--game", "1")
    code, out, _ = replay(capsys, *args)
    assert code == 0
    target = tmp_path / "game.txt"
    code, printed, err = replay(capsys, *args, "--out", str(target))
    assert code == 0, err
    assert target.read_text() == out
    assert printed.strip() == f"replay: {target}"
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "7", "--seed", "1"), "--players: bad value 7"),
        (("--strategy", "greedy", "--seed", "1"), "--strategy: bad value 'greedy'"),
        (("--seed", "1", "--game", "-3"), "--game: bad value -3"),
        (("--seed", "1", "--edition", "french"), "--edition"),
        (
            (
                "--players",
                "2",
            ),
            "--seed",
        ),
        (("--seed", "1", "--out", "/no/such/dir/game.txt"), "--out: bad value"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, args, message):
    code, out, err = replay(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("analyzer: error: ")
    assert message in err
