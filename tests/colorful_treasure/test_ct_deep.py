"""Deep advice for Colorful Treasure (analyzer/colorful_treasure/deep.py):
``analyzer advise --game colorful_treasure STATE.toml --deep``.

What must hold: the game built from a table state is a legal game (the engine's
invariants hold) that says what the file says; the ranking is best first with
intervals, names its choices as the exact ranking does, says what it assumed
and which choices are within noise; the same seed gives the same answer; bad
input is one line.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from analyzer.cli import run_cli
from analyzer.colorful_treasure import deep, engine
from analyzer.colorful_treasure import odds as O
from analyzer.colorful_treasure.rules import default_rules
from analyzer.colorful_treasure.state import S_GRID_CARDS, S_LEFT
from analyzer.colorful_treasure.strategies import recount_memory
from analyzer.kernels.kernel_view import make_view

CT = ["--game", "colorful_treasure"]
RULES = default_rules()
T = RULES.tables


def _out(capsys, args, code=0):
    assert run_cli(args) == code
    return capsys.readouterr()


def test_the_built_game_is_legal_and_says_what_the_file_says():
    state = O.parse_state(O.EXAMPLE)
    s, assumed = deep.build(state, RULES)
    sv, tv = make_view(s, "CTState"), make_view(T, "CTTables")
    assert engine.check_invariants(sv, tv, state.players) == 0
    in_grid = {c for col in state.columns for c in col.remembered + col.unknown}
    assert s.sc[S_LEFT] == len(in_grid)
    assert {int(c) for c in s.grid if c >= 0} == in_grid
    assert int(s.sc[S_GRID_CARDS]) == sum(1 << c for c in in_grid)
    assert sorted(np.flatnonzero(s.owner == 0)) == sorted(state.mine)
    assert (s.owner[list(in_grid)] == -1).all()
    gone = set(range(T.n_cards)) - in_grid - set(state.mine)
    assert all(s.owner[c] >= 1 for c in gone)
    remembered = {c for col in state.columns for c in col.remembered}
    assert recount_memory(sv, tv, 0) == sum(1 << c for c in remembered)
    assert any("player" in a for a in assumed) and any("remember" in a for a in assumed)


def test_deep_advice_on_the_example_is_a_ranking_with_intervals():
    state = O.parse_state(O.EXAMPLE)
    a = deep.deep_advice(state, budget=3000, seed=4)
    b = deep.deep_advice(state, budget=3000, seed=4)
    assert a.choices == b.choices  # same seed, same answer
    wins = [c.win for c in a.choices]
    assert wins == sorted(wins, reverse=True)
    exact = deep.exact_points(state)
    names = [c.choice for c in a.choices]
    assert len(set(names)) == len(names) > 10
    assert set(names) <= set(exact)  # named as the exact ranking names them
    assert a.greedy_choice in names
    for c in a.choices:
        assert c.win_ci[0] <= c.win <= c.win_ci[1]
        assert c.score_ci[0] <= c.score <= c.score_ci[1]
        assert c.rollouts == a.choices[0].rollouts >= 2
    assert a.choices[0].gain == 0.0
    for i in a.within_noise:
        assert a.choices[i].gain_ci[1] >= 0
    assert "Best: reveal" in deep.verdict(a)


@pytest.mark.slow
def test_advise_deep_via_cli(tmp_path, capsys):
    p = tmp_path / "turn.toml"
    p.write_text(_out(capsys, ["advise", *CT, "--example"]).out)
    args = ["advise", *CT, str(p), "--deep", "--budget", "2000", "--seed", "3"]
    out = json.loads(_out(capsys, [*args, "--json"]).out)
    rows = out["choices"]
    assert [r["win"] for r in rows] == sorted((r["win"] for r in rows), reverse=True)
    assert all(isinstance(r["choice"], str) for r in rows)
    assert set(out["within_noise_of_best"]) <= {r["choice"] for r in rows[1:]}
    assert out["assumed"] and out["seed"] == 3
    assert sum(r["greedy_choice"] for r in rows) == 1
    text = _out(capsys, args).out
    assert "Best: reveal" in text and "Assumed:" in text


def test_deep_bad_input_is_one_line(tmp_path, capsys):
    p = tmp_path / "turn.toml"
    p.write_text(O.EXAMPLE)
    for args, word in (
        (["--budget", "100"], "--budget and --seed need --deep"),
        (["--deep", "--budget", "1"], "--budget"),
        (["--deep", "--seed", "-4"], "--seed"),
    ):
        err = _out(capsys, ["advise", *CT, str(p), *args], 2).err
        assert err.count("\n") == 1 and word in err and "Traceback" not in err, err
