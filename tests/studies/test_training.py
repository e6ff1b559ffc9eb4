"""``analyzer train`` (analyzer/studies/training.py) and Uruk's ``trained`` player.

The fitting recovers a planted linear target; the numba evaluation of the
trained player equals a slow Python twin on positions of real games; a run cut
and resumed ends with the weights of an uninterrupted run; bad input is one
line, exit 2, before any engine loads; the identity weights play ``balanced``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analyzer.core.errors import InputError
from analyzer.studies.training import (
    TrainSettings,
    agreement,
    center,
    check_settings,
    fit_weights,
    train,
)

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------- fitting


def _planted(seed=3, decisions=400, features=6):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 9, decisions)
    group = np.repeat(np.arange(decisions), sizes)
    x = rng.normal(size=(len(group), features)) * rng.uniform(0.1, 5.0, features)
    truth = rng.normal(size=features)
    # a value per decision (the position's own worth) the fit must not see
    offset = rng.normal(scale=10.0, size=decisions)[group]
    y = x @ truth + offset + rng.normal(scale=0.01, size=len(group))
    return x, y, group, truth


def test_the_fit_recovers_a_planted_linear_target():
    x, y, group, truth = _planted()
    w = fit_weights(x, y, group, ridge=0.0)
    assert np.allclose(w, truth, atol=0.01), (w, truth)
    # a small ridge shrinks a little, no more
    assert np.allclose(fit_weights(x, y, group, ridge=1e-6), truth, atol=0.02)
    fit = agreement(x, y, group, w)
    assert fit["r2"] > 0.999 and fit["best_share"] > 0.95


def test_the_fit_ignores_what_is_the_same_within_a_decision():
    x, y, group, truth = _planted()
    x = np.column_stack([x, np.arange(len(group))[group * 0] * 0 + group])  # the decision's id
    w = fit_weights(x, y, group, ridge=0.0)
    assert w[-1] == 0.0 and np.allclose(w[:-1], truth, atol=0.01)


def test_center_is_the_mean_per_group():
    group = np.array([0, 0, 1, 1, 1])
    v = np.array([1.0, 3.0, 0.0, 3.0, 6.0])
    assert center(v, group).tolist() == [-1.0, 1.0, -3.0, 0.0, 3.0]


# ---------------------------------------------------------------------------- settings


@pytest.mark.parametrize(
    "change, line",
    [
        ({"game": "nope"}, "--game: bad value 'nope'"),
        ({"game": "unearth"}, "a game with training features"),
        ({"players": 9}, "--players: bad value 9"),
        ({"budget": 0}, "--budget: bad value 0"),
        ({"budget": 2.5}, "--budget: bad value 2.5"),
        ({"rollouts": 0}, "--rollouts: bad value 0"),
        ({"every": 0.5}, "--every: bad value 0.5"),
    ],
)
def test_bad_settings_are_one_line(change, line):
    base = {"game": "uruk", "players": 2, "seed": 1}
    with pytest.raises(InputError) as err:
        check_settings(TrainSettings(**(base | change)))
    assert line in str(err.value) and "\n" not in str(err.value)


_PROBE = (
    "import json, sys\n"
    "from analyzer.cli import run_cli\n"
    "code = run_cli(json.loads(sys.argv[1]))\n"
    "print(json.dumps([code, [m for m in ('numba', 'pandas') if m in sys.modules]]))\n"
)


@pytest.mark.slow  # a process each
@pytest.mark.parametrize(
    "args, line",
    [
        (["train", "--game", "nope", "--out", "x"], "--game: bad value 'nope'"),
        (["train", "--game", "uruk", "--budget", "0", "--out", "x"], "--budget: bad value 0"),
    ],
)
def test_bad_input_exits_2_before_the_engine_loads(args, line, tmp_path):
    args = [a if a != "x" else str(tmp_path / "out") for a in args]
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
    )
    code, loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    assert code == 2 and line in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert loaded == []
    assert not (tmp_path / "out").exists()  # nothing half-written


# ---------------------------------------------------------------------------- resuming


@pytest.mark.slow  # plays and labels games
def test_a_resumed_run_ends_with_the_weights_of_an_uninterrupted_one(tmp_path):
    settings = TrainSettings("uruk", 2, 5, rounds=2, budget=3, rollouts=2, every=10.0, chunk=1)
    whole = train(settings, tmp_path / "whole")
    assert whole.finished and (tmp_path / "whole" / "weights.toml").is_file()
    cut = tmp_path / "cut"
    first = train(settings, cut, stop_after=2)
    assert not first.finished and not (cut / "weights.toml").exists()
    with pytest.raises(InputError, match="--resume"):
        train(settings, cut)
    with pytest.raises(InputError, match="other settings"):
        train(
            TrainSettings("uruk", 2, 6, rounds=2, budget=3, rollouts=2, every=10.0, chunk=1),
            cut,
            resume=True,
        )
    second = train(settings, cut, resume=True, stop_after=3)  # into the second round
    assert not second.finished
    done = train(settings, cut, resume=True)
    assert done.finished
    assert np.array_equal(done.weights, whole.weights)
    assert (cut / "weights.toml").read_text() == (tmp_path / "whole" / "weights.toml").read_text()
    # the check bites: another seed fits other weights
    other = train(
        TrainSettings("uruk", 2, 6, rounds=2, budget=3, rollouts=2, every=10.0, chunk=1),
        tmp_path / "other",
    )
    assert not np.array_equal(other.weights, whole.weights)
