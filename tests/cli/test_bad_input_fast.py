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
