"""Bad input is answered before the engine loads: no numba, pandas or matplotlib.

Each case runs the CLI in a fresh interpreter and lists the heavy modules in
``sys.modules`` once the one-line error is out (a behaviour, not a timing: the
timings are ``benchmarks/bench_bad_input.py``'s). Overrides are checked against
the value they replace, shape included.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.core.errors import InputError
from analyzer.games.data import coerce_override

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numba", "pandas", "matplotlib")

_PROBE = (
    "import json, sys\n"
    "from analyzer.cli import run_cli\n"
    "code = run_cli(json.loads(sys.argv[1]))\n"
    f"print(json.dumps([code, [m for m in {HEAVY!r} if m in sys.modules]]))\n"
)


def _answer(args: list[str]) -> tuple[int, list[str], str]:
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
    )
    code, loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    return code, loaded, proc.stderr


CASES = [
    (["run", "nope/missing.toml"], "no such scenario file"),
    (["run", "scenarios/default.toml", "--games", "0"], "--games: bad value 0"),
    (["run", "scenarios/uruk_inventions.toml", "--seed", "-1"], "--seed: bad value -1"),
    (["run", "scenarios/default.toml", "--workers", "0"], "--workers: bad value 0"),
    (["report", "nope/report"], "not a report directory"),
    (["simulate", "--games", "-3"], "--games: bad value -3"),
    (["simulate", "--strategy", "nosuch"], "--strategy: bad value 'nosuch'"),
    (["simulate", "--rule", "nosuch=1"], "--rule: unknown ruling 'nosuch'"),
    (["simulate", "--workers", "0", "--games", "10"], "workers: bad value 0"),
    (["simulate", "--precision", "-1"], "precision: bad value"),
    (["simulate", "--game", "uruk", "--players", "9"], "--players: bad value 9"),
]


@pytest.mark.slow  # (a process each)
@pytest.mark.parametrize(
    "args, line", CASES, ids=lambda c: " ".join(c) if isinstance(c, list) else ""
)
def test_bad_input_is_answered_before_the_engine_loads(args, line):
    code, loaded, err = _answer(args)
    assert code == 2 and line in err and err.count("\n") == 1, err
    assert loaded == [], f"{' '.join(args)} imported {loaded}"


@pytest.mark.slow
def test_a_scenario_with_an_unknown_key_loads_no_engine(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('game = "unearth"\nplayers = 4\ngamez = 10\n', "utf-8")
    code, loaded, err = _answer(["run", str(path)])
    assert code == 2 and "unknown key 'gamez'" in err and loaded == []


_SEARCH = 'game = "{game}"\nplayers = 2\ngames = 10\nstrategies = "{strategy}"\n[strategy_params]\n'


@pytest.mark.slow
@pytest.mark.parametrize(
    "game, strategy, params, line",
    [
        (
            "unearth",
            "search",
            "search = { budget = 0 }",
            "strategy_params.search.budget: bad value 0",
        ),
        ("uruk", "search", "search = { bids = 3 }", "strategy_params.search.bids: bad value 3"),
        (
            "colorful_treasure",
            "search",
            "search = { width = 0.5 }",
            "strategy_params.search.width: bad value 0.5",
        ),
        (
            "colorful_treasure",
            "greedy",
            "greedy = { recall = 2 }",
            "strategy_params.greedy.recall: bad value 2",
        ),
    ],
)
def test_a_bad_strategy_param_value_loads_no_engine(tmp_path, game, strategy, params, line):
    """The values of ``[strategy_params]`` (a search's budget, a recall) are checked
    from each game's plain data, before any engine loads, the file named."""
    path = tmp_path / "s.toml"
    path.write_text(_SEARCH.format(game=game, strategy=strategy) + params + "\n", "utf-8")
    code, loaded, err = _answer(["run", str(path)])
    assert code == 2 and f"{path}: {line}" in err and err.count("\n") == 1, err
    assert loaded == [], f"{game} {params} imported {loaded}"


_LOAD = (
    "import json, sys\n"
    "from analyzer.runs.scenario_file import load_scenario\n"
    "load_scenario(sys.argv[1])\n"
    f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["unearth", "colorful_treasure", "uruk"])
def test_a_scenario_with_search_settings_is_checked_without_the_engine(tmp_path, game):
    """A good ``[strategy_params]`` table with the search's settings is checked
    (loaded as a scenario) with no engine imported."""
    path = tmp_path / "s.toml"
    text = _SEARCH.format(game=game, strategy="search") + "search = { budget = 8, z = 2.0 }\n"
    path.write_text(text, "utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", _LOAD, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []


@pytest.mark.slow
def test_the_probe_sees_an_engine_that_loads():
    """The check bites: a good command does load the engine (here: one game)."""
    code, loaded, err = _answer(["simulate", "--games", "1", "--workers", "1", "--quiet"])
    assert code == 0, err
    assert "numba" in loaded and "pandas" in loaded


@pytest.mark.parametrize(
    "old, new, message",
    [
        ([[1, 2], [3]], [1, 2], r"\[0\]: bad value 1 \(allowed: a list like \[1, 2\]\)"),
        ({"a": 1, "b": [1]}, {"z": 1}, "bad value 'z' .allowed: a key of the table it replaces"),
        ({"a": 1, "b": [1]}, {"b": [[1]]}, r"key 'b' \[0\]: bad value \[1\]"),
        ([{"id": "x", "v": 1}], [{"id": "y"}], r"allowed: a table with the keys id, v"),
        ([], ["a"], "a list of integers"),
        ("text", 3, "same type as 'text'"),
    ],
)
def test_an_override_keeps_the_shape_of_what_it_replaces(old, new, message):
    with pytest.raises(InputError, match=message):
        coerce_override(old, new, "w")


def test_an_override_of_the_same_shape_is_taken():
    assert coerce_override([[1, 2], [3]], [[1], [2, 3, 4]], "w") == [[1], [2, 3, 4]]
    # a table may leave keys out: they keep their shipped values
    assert coerce_override({"a": 1, "b": [1]}, {"a": 2}, "w") == {"a": 2, "b": [1]}
    assert coerce_override(1.5, 2, "w") == 2.0
