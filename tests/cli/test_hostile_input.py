"""Hostile input and a hostile environment (issue #25, item 5): every case ends
in one line on stderr and its documented exit code, leaves nothing behind, and
every file the tool writes has the umask's mode."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from analyzer.cli import run_cli

BIG = str(10**23)  # past 64 bits


def _cli(capsys, args) -> tuple[int, str]:
    """Exit code and the stderr of ``analyzer ARGS`` (run in this process)."""
    code = run_cli([str(a) for a in args])
    return code, capsys.readouterr().err


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("analyzer: error: "), err
    return lines[0]


URUK = ["--game", "uruk"]
SIM = ["simulate", *URUK, "--players", "2", "--games", "10", "--quiet"]
TUNE = ["tune", *URUK, "--strategy", "builder", "--field", "random", "--games", "10"]


@pytest.mark.parametrize(
    "args, option",
    [
        (["replay", "--seed", "1", "--index", BIG], "--index"),
        (["replay", "--seed", "1", "--game", BIG], "--game"),
        (["replay", *URUK, "--players", "2", "--seed", "1", "--index", 2**64], "--index"),
        (["ladder", *URUK, "--players", BIG, "--games", "10"], "--players"),
        (["ladder", *URUK, "--players", "0", "--games", "10"], "--players"),
        (["ladder", *URUK, "--players", "-1", "--games", "10"], "--players"),
        (["ladder", *URUK, "--games", "10", "--bootstrap", BIG], "--bootstrap"),
        ([*TUNE, "--players", BIG], "--players"),
        # --params: on code without the bound, fail at once instead of playing forever
        ([*TUNE, "--trials", BIG, "--params", "no_such_param"], "--trials"),
        ([*SIM, "--batch-size", BIG], "--batch-size"),
        ([*SIM, "--workers", BIG], "workers"),
        (["ladder", *URUK, "--games", "10", "--bootstrap", "0", "--workers", BIG], "workers"),
    ],
)
def test_integer_options_past_64_bits(capsys, args, option):
    code, err = _cli(capsys, args)
    line = _one_line(err)
    assert code == 2, line
    assert f"{option}: bad value" in line and "allowed:" in line, line


def test_checkpoint_not_left_behind_when_the_scheduler_is_unreachable(capsys, tmp_path):
    ckpt = tmp_path / "runs" / "big"
    args = [*SIM, "--scheduler", "tcp://127.0.0.1:1", "--checkpoint", ckpt]
    code, err = _cli(capsys, args)
    assert code == 1 and "scheduler" in _one_line(err)
    assert not (tmp_path / "runs").exists()
    # a folder the user made stays, empty as it was
    ckpt.mkdir(parents=True)
    code, err = _cli(capsys, args)
    assert code == 1 and ckpt.is_dir() and not any(ckpt.iterdir())


SCENARIO = textwrap.dedent(
    """
    game = "uruk"
    name = "tiny"
    players = 2
    strategies = ["random", "builder"]
    games = 20
    seed = 3
    """
)


@pytest.fixture
def scenario(tmp_path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(SCENARIO)
    return path


@pytest.mark.parametrize("out", ["plain.txt", "plain.txt/report"])
def test_out_names_a_file_where_a_folder_is_expected(capsys, tmp_path, scenario, out):
    (tmp_path / "plain.txt").write_text("mine\n")
    code, err = _cli(capsys, ["run", scenario, "--out", tmp_path / out, "--quiet"])
    line = _one_line(err)
    assert code == 2 and "--out" in line and "plain.txt" in line, line
    assert (tmp_path / "plain.txt").read_text() == "mine\n"


HOLD = textwrap.dedent(
    """
    import sys, time
    from analyzer.core.outputs import folder_lock
    with folder_lock(sys.argv[1]):
        print("held", flush=True)
        time.sleep(300)
    """
)


def test_a_second_run_to_a_folder_is_told_who_holds_it(capsys, tmp_path, scenario):
    from analyzer.core.outputs import folder_lock

    target = tmp_path / "rep"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(target)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        code, err = _cli(capsys, ["run", scenario, "--out", target, "--quiet", "--workers", "1"])
        line = _one_line(err)
        assert code == 1, line
        assert f"{target} is being written by another analyzer run (pid {holder.pid})" in line
        assert "tmp" not in line.replace(str(tmp_path), "")
        assert not target.exists()
        # a killed holder leaves its lock file, which blocks nobody
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=60)
        assert (tmp_path / ".rep.lock").exists()
        with folder_lock(target):
            assert (tmp_path / ".rep.lock").read_text().strip() == str(os.getpid())
        assert not (tmp_path / ".rep.lock").exists()
    finally:
        holder.kill()
        holder.wait(timeout=60)


def _modes(root: Path) -> dict[str, int]:
    """Permission bits of ``root`` and everything under it."""
    out = {str(root): stat.S_IMODE(root.stat().st_mode)}
    for path in root.rglob("*"):
        out[str(path)] = stat.S_IMODE(path.stat().st_mode)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_every_output_has_the_umask_mode(capsys, tmp_path, scenario, mask):
    """Report folder (PDF, HTML, PNG, CSV, parquet, manifest), rebuilt report,
    per-game parquet, checkpoint, replay, compare CSV, ladder and tune files."""
    old = os.umask(mask)
    try:
        rep, out = tmp_path / "rep", tmp_path / "out"
        out.mkdir()
        runs = [
            ["run", scenario, "--out", rep, "--quiet", "--workers", "1"],
            ["report", rep],
            [*SIM, "--out", out / "games.parquet", "--checkpoint", out / "ck", "--workers", "1"],
            ["replay", *URUK, "--players", "2", "--seed", "1", "--out", out / "game.txt"],
            ["compare", rep, rep, "--csv", out / "changes.csv"],
            ["ladder", *URUK, "--strategies", "random,builder", "--games", "4"]
            + ["--bootstrap", "5", "--workers", "1", "--quiet", "--out", out / "ladder"],
            [*TUNE, "--trials", "2", "--confirm-games", "0", "--quiet", "--out", out / "t.toml"],
        ]
        for args in runs:
            code, err = _cli(capsys, args)
            assert code == 0, (args, err)
    finally:
        os.umask(old)
    modes = {**_modes(rep), **_modes(out)}
    assert len(modes) > 30  # the report's files are there
    assert any(p.endswith(".pdf") for p in modes) and any(p.endswith(".png") for p in modes)
    wrong = {
        p: oct(m) for p, m in modes.items() if m != (0o777 if Path(p).is_dir() else 0o666) & ~mask
    }
    assert not wrong, wrong
