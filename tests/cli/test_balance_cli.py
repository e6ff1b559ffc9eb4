"""``analyzer balance SCENARIO``: the report folder with balance.json, the candidates'
table and the manifest's ``balance`` entry; progress kept so ``--resume`` finishes
with the same answer; bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tests.standin_game  # noqa: F401  (registers the coin game)
from analyzer.cli import run_cli
from analyzer.report import rebuild_report, run_and_report
from analyzer.studies.balance import STORE_DIR, Interrupted

COIN = """game = "coin"
seed = 5
description = "Which lucky coin makes the first seat fair?"
[balance]
counts = 2
players = ["lucky", "fair"]
rotate = false
games = 1000
[balance.knobs."coin.p_lucky"]
low = 0.3
high = 0.7
step = 0.02
"""


@pytest.fixture
def scenario(tmp_path) -> Path:
    path = tmp_path / "coin_balance.toml"
    path.write_text(COIN, "utf-8")
    return path


def _answer(folder: Path) -> dict:
    d = json.loads((folder / "balance.json").read_text("utf-8"))
    d.pop("seconds")
    return d


def test_help_has_examples(capsys):
    assert run_cli(["balance", "--help"]) == 0
    out = capsys.readouterr().out
    assert "analyzer balance scenarios/unearth_balance.toml" in out and "--resume" in out


def test_a_scenario_without_balance_is_one_line(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text('game = "coin"\nplayers = 2\ngames = 10\nstrategies = "fair"\n', "utf-8")
    assert run_cli(["balance", str(path)]) == 2
    err = capsys.readouterr().err
    assert "no [balance] table" in err and err.count("\n") == 1


def test_resume_needs_the_folder(scenario, capsys):
    assert run_cli(["balance", str(scenario), "--resume"]) == 2
    assert "--resume: give --out" in capsys.readouterr().err


def test_games_outside_the_budget_bounds_is_one_line(scenario, capsys):
    assert run_cli(["balance", str(scenario), "--games", "5"]) == 2
    assert "--games: bad value 5" in capsys.readouterr().err


@pytest.mark.slow  # (two report folders)
def test_the_folder_holds_the_answer_and_resume_finishes_it_the_same(scenario, tmp_path, capsys):
    whole = tmp_path / "whole"
    assert run_cli(["balance", str(scenario), "--out", str(whole), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "Change coin.p_lucky from 0.6 to" in out and "balance.json" in out
    manifest = json.loads((whole / "manifest.json").read_text("utf-8"))
    b = manifest["balance"]
    assert b["knobs"][0]["path"] == "coin.p_lucky" and b["seeds"]["search"] == 5
    assert b["budget"]["games"] == 1000 and b["search"]["grid"] and b["method"]
    assert {"balance.json", "tables/balance_candidates.csv"} <= set(manifest["files"])
    csv = (whole / "tables" / "balance_candidates.csv").read_text("utf-8").splitlines()
    assert csv[0] == "candidate,round,rung,coin.p_lucky,games,fairness_2p,score,kept"
    assert len(csv) == 1 + b["candidates"]

    # interrupted after 3 blocks of games, then resumed by the command
    part = tmp_path / "part"

    def stop(k: int) -> None:
        if k == 3:
            raise Interrupted("stopped by the test")

    with pytest.raises(Interrupted):
        run_and_report(
            scenario,
            part,
            workers=1,
            progress=False,
            balance={"resume": False, "on_evaluated": stop},
        )
    assert [p.name for p in part.iterdir()] == [STORE_DIR]
    kept = len(list((part / STORE_DIR).glob("*.npz")))
    assert kept == 3
    resumed = []
    run_and_report(
        scenario,
        part,
        workers=1,
        progress=False,
        balance={"resume": True, "on_evaluated": resumed.append},
    )
    total = len(list((part / STORE_DIR).glob("*.npz")))
    assert len(resumed) == total - kept > 0  # only what was missing was played
    assert _answer(part) == _answer(whole)
    # the command resumes too (here: nothing left to play)
    assert run_cli(["balance", str(scenario), "--out", str(part), "--resume", "--quiet"]) == 0
    assert _answer(part) == _answer(whole)

    # without --resume the kept progress is not used: a fresh start, the same answer
    played = []
    run_and_report(
        scenario,
        part,
        workers=1,
        progress=False,
        balance={"resume": False, "on_evaluated": played.append},
    )
    assert len(played) == total
    assert _answer(part) == _answer(whole)

    # the report is redrawn from the manifest, balance.json and the table with it
    (whole / "balance.json").unlink()
    (whole / "tables" / "balance_candidates.csv").unlink()
    rebuild_report(whole)
    assert _answer(whole) == _answer(part)
    assert (whole / "tables" / "balance_candidates.csv").is_file()


@pytest.mark.slow
def test_resume_refuses_another_question(scenario, tmp_path, capsys):
    part = tmp_path / "part"

    def stop(k: int) -> None:
        raise Interrupted("stopped by the test")

    with pytest.raises(Interrupted):
        run_and_report(
            scenario,
            part,
            workers=1,
            progress=False,
            balance={"resume": False, "on_evaluated": stop},
        )
    code = run_cli(["balance", str(scenario), "--out", str(part), "--resume", "--seed", "6"])
    assert code == 2 and "holds another balance question" in capsys.readouterr().err


@pytest.mark.slow
def test_analyzer_run_plays_the_balance_question_too(scenario, tmp_path, capsys):
    out = tmp_path / "run"
    assert run_cli(["run", str(scenario), "--out", str(out), "--workers", "1"]) == 0
    assert "Balance: Change coin.p_lucky from 0.6 to" in capsys.readouterr().out
    assert (out / "balance.json").is_file()
    assert json.loads((out / "manifest.json").read_text("utf-8"))["balance"]["certified"] in (
        True,
        False,
    )
