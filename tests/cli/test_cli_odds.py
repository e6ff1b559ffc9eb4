"""``analyzer odds`` through the CLI entry point: output, JSON, chart, bad input."""

import json
import os
import stat
from fractions import Fraction as F

import pytest

from analyzer.cli import run_cli

BASE = ["odds", "--claim", "13", "--dice", "blue:d6=5,blue:d6=3,red:d8"]


def test_table_output(capsys):
    assert run_cli(BASE) == 0
    out = capsys.readouterr().out
    assert "red claims (me)" in out and "1/2" in out and "50.00%" in out
    assert "expected stones" in out


def test_json_output_keys_and_exact_values(capsys):
    assert run_cli([*BASE, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("p_claim", "p_tie", "p_no_claim", "p_win", "expected_stones", "expected_cards"):
        assert key in out and key in out["exact"]
    assert out["exact"]["p_win"] == {"blue": "0/1", "red": "1/2"}
    assert F(out["exact"]["expected_stones"]["red"]) == F(3, 8)
    assert out["p_claim"] == 0.5


def test_options_reach_the_engine(capsys):
    args = [
        "odds",
        "--claim",
        "8",
        "--dice",
        "red:d4=2,blue:d6",
        "--reading-the-stones",
        "--ancient-map",
        "--json",
    ]
    assert run_cli(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert F(out["exact"]["p_win"]["blue"]) == F(2, 6) + F(4, 6) * F(1, 6)
    args = [
        "odds",
        "--claim",
        "6",
        "--dice",
        "a:d6",
        "--wonder",
        "edifice=a",
        "--event",
        "festival",
        "--me",
        "a",
        "--ruin-stones",
        "0",
        "--bag",
        "0",
        "--json",
        "--goal",
        "stone",
    ]
    assert run_cli(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"]["expected_stones"]["a"] == "0/1"
    assert out["goal"] == "stone"


def test_chart_is_written(tmp_path, capsys):
    path = tmp_path / "odds.png"
    assert run_cli([*BASE, "--chart", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["odds.png"]  # no temp file left


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--claim", "13", "--dice", "red:d10"], "allowed: d4, d6, d8"),
        (["--claim", "13", "--dice", "red:d6=7"], "1 to 6"),
        (["--claim", "13", "--dice", "red:d6=0"], "1 to 6"),
        (["--claim", "13", "--dice", "red-d6"], "PLAYER:dFACES"),
        (["--claim", "13", "--dice", "red:d6,"], "PLAYER:dFACES"),
        (["--claim", "0", "--dice", "red:d6"], "--claim"),
        (["--claim", "-4", "--dice", "red:d6"], "--claim"),
        (["--claim", "x", "--dice", "red:d6"], "claim"),
        (["--dice", "red:d6"], "claim"),
        (["--claim", "9"], "--dice"),
        (["--claim", "9", "--dice", "red:d6", "--ruin-stones", "many"], "--ruin-stones"),
        (["--claim", "9", "--dice", "red:d6", "--event", "rain"], "gathering, festival"),
        (["--claim", "9", "--dice", "red:d6", "--wonder", "palace=red"], "college=PLAYER"),
        (["--claim", "9", "--dice", "red:d6", "--goal", "win"], "claim, stone"),
        (["--claim", "9", "--dice", "red:d6", "--bag", "-1"], "--bag"),
        (["--claim", "6", "--dice", "red:d6", "--chart", "/no/such/dir/x.png"], "--chart"),
    ],
)
def test_bad_input_one_line_exit_2(capsys, args, fragment):
    assert run_cli(["odds", *args]) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert err.startswith("analyzer: error: ")
    assert fragment in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


_HUGE = "9" * 5000  # more digits than Python converts to an int


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--claim", "99999999999999999999999", "--dice", "a:d6"], "--claim: bad value"),
        (["--claim", str(2**63 - 1), "--dice", "a:d6"], "--claim: bad value"),
        (["--claim", _HUGE, "--dice", "a:d6"], "--claim: bad value"),
        (
            ["--claim", "9", "--dice", "a:d6", "--ruin-stones", str(2**63 - 1), "--bag", "1"],
            "--ruin",
        ),
        (
            ["--claim", "9", "--dice", "a:d6", "--ruin-stones", "1", "--bag", str(2**63 - 1)],
            "--bag",
        ),
        (["--claim", "9", "--dice", "a:d6", "--bag", str(2**70)], "--bag: bad value"),
        (["--claim", "9", "--dice", "a:d6", "--ruin-stones", "-1"], "--ruin-stones: bad value"),
        (["--claim", "9", "--dice", f"a:d{_HUGE}"], "--dice: bad value"),
        (["--claim", "9", "--dice", f"a:d6={_HUGE}"], "--dice: bad value"),
        (["--claim", "9", "--dice", f"a:d6=-{_HUGE},b:d6"], "--dice: bad value"),
    ],
)
def test_hostile_integers_one_line_exit_2(capsys, args, fragment):
    """Integers past 64 bits, negative or absurd end in one line and exit 2 (they
    ended as an internal error, exit 3, or ran)."""
    assert run_cli(["odds", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("analyzer: error: ") and fragment in err and "allowed" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_me_not_at_the_table_is_refused(capsys):
    args = ["odds", "--claim", "9", "--dice", "a:d6,b:d6=3", "--wonder", "columns=c"]
    assert run_cli([*args, "--me", "zed"]) == 2
    err = capsys.readouterr().err
    assert (
        err == "analyzer: error: --me: bad value 'zed' (allowed: a player at the table: a, b, c)\n"
    )
    assert run_cli([*args, "--me", "c", "--json"]) == 0  # a wonder's owner is at the table
    assert json.loads(capsys.readouterr().out)["me"] == "c"


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o027, 0o640)])
def test_chart_obeys_the_umask(tmp_path, capsys, mask, mode):
    path = tmp_path / "odds.png"
    old = os.umask(mask)
    try:
        assert run_cli([*BASE, "--chart", str(path)]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert [p.name for p in tmp_path.iterdir()] == ["odds.png"]
