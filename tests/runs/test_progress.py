"""Honest progress: one count over every game of a run, a first compile announced
and left out of the rate, the report phase shown, the compile probe of the cache."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pandas as pd
import pytest

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.kernels import compiled, jit
from analyzer.runs import progress as P
from analyzer.runs.driver import run_scenario
from analyzer.runs.runner import RunOptions, run
from analyzer.runs.scenario_file import parse_scenario


def _lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


def test_one_count_over_every_configuration(capsys, monkeypatch):
    """A scenario of 3 configurations at 40 games each plays 120 games: the count
    says 120/120 (it said 40/40), and the label names the configurations."""
    monkeypatch.setattr(P, "PLAIN_EVERY_S", 0.0)
    sc = parse_scenario(
        {
            "game": "coin",
            "players": 2,
            "games": 40,
            "seed": 3,
            "strategies": "fair",
            "output": {"batch_size": 10},
            "sweep": {"param": "rules.rounds", "values": [3, 5, 7]},
        },
        "three.toml",
    )
    out = run_scenario(sc, workers=1, progress=True)
    assert out.info["games_total"] == 120
    last = _lines(capsys.readouterr().err)[-1]
    assert "120/120 (100%)" in last and "3 configurations" in last, last


class _Slow:
    """A batch function (that offers ``warm_up``) whose first call (its 'compile')
    takes 0.3 s more."""

    def __init__(self):
        self.calls = 0

    def __call__(self, start, count):
        self.calls += 1
        if self.calls == 1:
            time.sleep(0.3)
        return {"games": pd.DataFrame({"x": range(start, start + count)})}

    def warm_up(self):
        pass


def _reduce(tables):
    return pd.DataFrame({"n": [len(tables["games"])]}, index=pd.Index([0], name="k"))


def test_a_compile_is_announced_first_and_left_out_of_the_rate(capsys):
    fn = _Slow()
    options = RunOptions(games=20, seed=1, batch_size=5, workers=1, progress=True)
    res = run(fn, options, _reduce, compile_note="compiling the Coin engine: about 5 s")
    err = _lines(capsys.readouterr().err)
    assert err[0] == "compiling the Coin engine: about 5 s"
    assert err[1].startswith("compiled in") and "not counted in games/s" in err[1]
    assert fn.calls == 1 + 4 and res.compile_seconds >= 0.3  # one warm-up game, 4 batches
    assert res.seconds >= res.compile_seconds
    # the rate is over the games' time alone
    assert res.games_per_second == pytest.approx(20 / (res.seconds - res.compile_seconds), rel=1e-9)


def test_without_a_note_nothing_is_compiled_first(capsys):
    """A compiled engine (no note): no extra warm-up game in one process, no line."""
    fn = _Slow()
    res = run(fn, RunOptions(games=20, seed=1, batch_size=5, workers=1, progress=True), _reduce)
    assert fn.calls == 4 and res.compile_seconds == 0.0
    assert not any("compil" in line for line in _lines(capsys.readouterr().err))


def test_the_probe_reads_the_cache_without_compiling(tmp_path, monkeypatch):
    """Not in an empty cache; in it once numba's index of the engine's play_batch is
    in the folder of the engine's source key; unknown for an engine elsewhere."""
    monkeypatch.setattr(jit, "CACHE_DIR", str(tmp_path))
    assert compiled.engine_cached("analyzer.unearth") is False
    note = compiled.compile_note("unearth", "Unearth", "analyzer.unearth")
    assert note == "compiling the Unearth engine, once per machine and version: about a minute"
    path = jit._module_file("analyzer.unearth.engine")
    folder = tmp_path / jit.source_key(path.resolve()) / "analyzer_unearth"
    folder.mkdir(parents=True)
    (folder / "engine.other_kernel-10.py311.nbi").write_bytes(b"")
    assert compiled.engine_cached("analyzer.unearth") is False
    (folder / "engine.play_batch-288.py311.nbi").write_bytes(b"")
    assert compiled.engine_cached("analyzer.unearth") is True
    assert compiled.compile_note("unearth", "Unearth", "analyzer.unearth") is None
    assert compiled.engine_cached("tests") is None  # the stand-in game: not ours to know
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert compiled.engine_cached("analyzer.unearth") is None


def test_the_expected_time_is_the_last_one_measured_here(tmp_path, monkeypatch):
    monkeypatch.setattr(jit, "CACHE_DIR", str(tmp_path))
    assert compiled.expected_seconds("uruk") == compiled.DEFAULT_COMPILE_S
    compiled.record_seconds("uruk", 21.4)
    compiled.record_seconds("unearth", 130)
    assert compiled.expected_seconds("uruk") == 21.4
    assert compiled.about(21.4) == "about 20 s"
    assert compiled.about(130) == "about 2 minutes"
    (tmp_path / compiled.TIMES_FILE).write_text("not json")
    assert compiled.expected_seconds("uruk") == compiled.DEFAULT_COMPILE_S


def test_a_phase_is_shown_in_a_log(capsys):
    with P.phase("writing the report", every=0.05):
        time.sleep(0.12)
    err = _lines(capsys.readouterr().err)
    assert err[0] == "writing the report…"
    assert any(re.fullmatch(r"writing the report… \d+ s", line) for line in err[1:-1])
    assert re.fullmatch(r"writing the report: done in [\d.]+ s", err[-1])
    with P.phase("quiet", enabled=False):
        pass
    assert capsys.readouterr().err == ""


def test_a_failed_phase_does_not_say_done(capsys):
    with pytest.raises(ValueError), P.phase("building"):
        raise ValueError("x")
    assert "done" not in capsys.readouterr().err


def test_report_phase_is_announced(tmp_path, capsys):
    """``analyzer run`` says it is writing the report while it does (it was silent)."""
    from analyzer.report import run_and_report

    path = Path(tmp_path / "coin.toml")
    path.write_text(
        'game = "coin"\nplayers = 2\ngames = 20\nseed = 1\nstrategies = "fair"\n', "utf-8"
    )
    run_and_report(path, tmp_path / "out", workers=1, progress=True)
    err = capsys.readouterr().err
    assert "writing the report (tables, charts, report.html, report.pdf)…" in err
    assert "writing the report (tables, charts, report.html, report.pdf): done in" in err


def test_the_driver_announces_a_compile_the_cache_lacks(capsys, monkeypatch, tmp_path):
    """The note reaches the run when the probe finds no compiled engine (here made to
    say so for the stand-in game), and the manifest keeps the compile's time."""
    monkeypatch.setattr(jit, "CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(compiled, "engine_cached", lambda package, kernel="play_batch": False)
    sc = parse_scenario(
        {"game": "coin", "players": 2, "games": 20, "seed": 1, "strategies": "fair"}, "c.toml"
    )
    out = run_scenario(sc, workers=1, progress=True)
    err = _lines(capsys.readouterr().err)
    assert err[0] == "compiling the Coin flip engine, once per machine and version: about a minute"
    assert err[1].startswith("compiled in")
    assert out.info["compile_seconds"] >= 0
    assert compiled.expected_seconds("coin") == pytest.approx(out.info["compile_seconds"], abs=0.1)
    run_scenario(sc, workers=1, progress=False)  # quiet: nothing said, nothing compiled first
    assert capsys.readouterr().err == ""
