"""``analyzer simulate --checkpoint`` (issue #41): a resume with other options is
refused naming the option in the user's words, and two runs into one folder
cannot both write it: the second says which process holds it (exit 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analyzer.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["simulate", "--players", "2", "--strategy", "random", "--workers", "1", "--quiet"]


def _line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("analyzer: error: "), err
    return err[0]


@pytest.mark.parametrize(
    "changed, said",
    [
        (["--games", "80"], "--games: 40 in the checkpoint, 80 now"),
        (["--seed", "4"], "--seed: 3 in the checkpoint, 4 now"),
        (["--players", "3"], "the game job's players: 2 in the checkpoint, 3 now"),
    ],
)
def test_resume_with_other_options_names_the_option(capsys, tmp_path, changed, said):
    ckpt = str(tmp_path / "ck")
    assert run_cli([*ARGS, "--games", "40", "--seed", "3", "--checkpoint", ckpt]) == 0
    capsys.readouterr()
    base = {"--games": "40", "--seed": "3"}
    base.update(dict(zip(changed[::2], changed[1::2], strict=True)))
    given = [x for kv in base.items() for x in kv]
    code = run_cli([*ARGS, *given, "--checkpoint", ckpt, "--resume"])
    line = _line(capsys)
    assert code == 2, line
    assert f"is a different run: {said} (allowed:" in line, line
    assert "sha256" not in line


def _simulate(ckpt: Path, seed: int, games: int) -> subprocess.Popen:
    args = [*ARGS, "--games", str(games), "--seed", str(seed), "--checkpoint", str(ckpt)]
    return subprocess.Popen(
        [sys.executable, "-m", "analyzer", *args, "--batch-size", "20"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_two_runs_into_one_checkpoint_folder(tmp_path):
    """The first run holds the folder (its lock file is there); a second started
    then with another seed stops at once, one line naming the first's process,
    exit 1; the first finishes, alone in its folder."""
    ckpt = tmp_path / "big"
    first = _simulate(ckpt, 1, 2000)
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / ".big.lock").exists() or not (ckpt / "run.json").exists():
            assert first.poll() is None, first.stderr.read()
            assert time.monotonic() < deadline, "the first run never held its folder"
            time.sleep(0.05)
        second = _simulate(ckpt, 2, 2000)
        _, err = second.communicate(timeout=120)
        assert first.poll() is None, "the first run ended too soon to test the lock"
        lines = err.strip().splitlines()
        assert second.returncode == 1, err
        assert lines == [
            f"analyzer: error: --checkpoint: {ckpt} is being written by another analyzer "
            f"run (pid {first.pid}); wait for it or choose another folder"
        ]
        _, err = first.communicate(timeout=600)
        assert first.returncode == 0, err
    finally:
        first.kill()
        first.wait(timeout=60)
    assert json.loads((ckpt / "run.json").read_text())["seed"] == 1
    assert len(list(ckpt.glob("batch-*.partial.parquet"))) == 100
    assert not (tmp_path / ".big.lock").exists()
