"""``analyzer compare``: paired differences for runs that share seeds, independent
ones otherwise, and one-line errors. Runs of the stand-in coin game."""

from __future__ import annotations

import pandas as pd
import pytest

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.cli import run_cli
from analyzer.studies.compare import compare_runs

#: every test reads the runs the module's fixture plays (make test runs them)
pytestmark = pytest.mark.slow

SCENARIO = """
game = "coin"
name = "{name}"
players = 2
strategies = ["lucky", "fair"]
games = 800
seed = {seed}
[overrides]
"coin.p_lucky" = {p}
"""


def _run(tmp_path, name, seed, p, games=None):
    src = tmp_path / f"{name}.toml"
    src.write_text(SCENARIO.format(name=name, seed=seed, p=p))
    out = tmp_path / name
    args = ["run", str(src), "--out", str(out), "--workers", "1", "--quiet"]
    assert run_cli(args + (["--games", str(games)] if games else [])) == 0
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compare")
    return {
        "a": _run(tmp, "a", 5, 0.55),
        "b": _run(tmp, "b", 5, 0.8),  # same seed: paired
        "c": _run(tmp, "c", 6, 0.8),  # other seed: independent
    }


def _seat0(comparison):
    return next(f for f in comparison.findings if f.subject == "Seat 0's win rate")


def test_same_seed_is_paired_and_narrower(runs):
    paired = compare_runs(runs["a"], runs["b"])
    independent = compare_runs(runs["a"], runs["c"])
    assert paired.paired and not independent.paired
    assert "seeds differ" in independent.why
    p, i = _seat0(paired), _seat0(independent)
    assert p.significant and p.effect > 0.05  # a luckier coin wins more
    assert (p.high - p.low) < (i.high - i.low)  # common random numbers pay off
    assert "paired over 800 games" in p.text and "independent runs, 800 and 800" in i.text
    # the paired estimate is exactly the difference of the two runs' win rates
    wa = pd.read_csv(runs["a"] / "tables" / "seats.csv").set_index("seat")["win_rate"][0]
    wb = pd.read_csv(runs["b"] / "tables" / "seats.csv").set_index("seat")["win_rate"][0]
    assert p.estimate == pytest.approx(wb - wa)
    assert [f.rank for f in paired.findings] == list(range(1, len(paired.findings) + 1))


def test_a_run_against_itself_changes_nothing(runs):
    same = compare_runs(runs["a"], runs["a"])
    assert same.paired and not any(f.significant for f in same.findings)
    assert all(f.estimate == 0 for f in same.findings)


def test_cli_prints_and_writes_csv(runs, tmp_path, capsys):
    csv = tmp_path / "d.csv"
    assert run_cli(["compare", str(runs["a"]), str(runs["b"]), "--csv", str(csv)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("b minus a (coin;") and "paired game by game" in out
    assert "* Seat 0's win rate:" in out
    table = pd.read_csv(csv)
    assert {"subject", "estimate", "low", "high", "n", "p_adjusted", "significant"} <= set(table)


def test_bad_input_is_one_line(runs, tmp_path, capsys):
    cases = [
        ([str(tmp_path / "none"), str(runs["a"])], "RUN_A: ", "is not a directory"),
        ([str(runs["a"]), str(tmp_path)], "RUN_B: ", "is not a report folder (no manifest.json)"),
        ([str(runs["a"]), str(runs["b"]), "--csv", str(tmp_path / "x.txt")], "--csv: ", ".csv"),
    ]
    for args, start, text in cases:
        assert run_cli(["compare", *args]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"analyzer: error: {start}") and text in err, err
        assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "x.txt").exists()


SWEEP_SCENARIO = """
game = "coin"
name = "{name}"
players = 2
strategies = ["lucky", "fair"]
games = 400
seed = 5
[sweep]
param = "coin.p_lucky"
values = {values}
"""


def test_two_sweeps_with_one_seed_are_paired_by_sweep_point(tmp_path):
    """Two sweeps that share a seed: each swept value of B is compared with the same
    value of A (not with A's cell of the same index), paired game by game; the value
    both played gives exactly the same games, so every difference is 0 [0, 0]."""
    from analyzer.studies.compare import cell_pairs, load_run

    out = {}
    for name, values in (("a", "[0.5, 0.6]"), ("b", "[0.6, 0.7, 0.5]"), ("c", "[0.9]")):
        src = tmp_path / f"{name}.toml"
        src.write_text(SWEEP_SCENARIO.format(name=name, values=values))
        out[name] = tmp_path / name
        args = ["run", str(src), "--out", str(out[name]), "--workers", "1", "--quiet"]
        assert run_cli(args) == 0
    c = compare_runs(out["a"], out["b"])
    assert c.paired and "sweep point by sweep point" in c.why
    assert c.cells == [(1, 0), (0, 2)]  # 0.6 with 0.6, 0.5 with 0.5; 0.7 has no partner
    assert {f.label for f in c.findings} == {"coin.p_lucky=0.6", "coin.p_lucky=0.5"}
    assert c.findings and all(f.n_unit == "paired games" for f in c.findings)
    assert all(f.estimate == f.low == f.high == 0 for f in c.findings)
    assert compare_runs(out["a"], out["a"]).cells == [(0, 0), (1, 1)]  # itself: in order
    with pytest.raises(Exception, match="at least one swept value in common"):
        cell_pairs(load_run(out["a"], "RUN_A"), load_run(out["c"], "RUN_B"))
    assert run_cli(["compare", str(out["a"]), str(out["c"])]) == 2
