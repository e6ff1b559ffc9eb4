"""``analyzer odds`` through the CLI entry point: output, JSON, chart, bad input."""

import json
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
        (["--claim", "9", "--dice", "red:d6", "--chart", "/no/such/dir/x.png"], "--chart"),
    ],
)
def test_bad_input_one_line_exit_2(capsys, args, fragment):
    assert run_cli(["odds", *args]) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert err.startswith("analyzer: error: ")
    assert fragment in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
