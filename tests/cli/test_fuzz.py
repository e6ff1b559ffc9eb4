"""Hostile input, property-based (hypothesis): the error contract holds for anything.

Any generated command line or scenario file either succeeds or ends with one
line on stderr (``analyzer: error: ...``) and a documented exit code (1
environment, 2 bad input; never 3, an internal error, and never a traceback),
and nothing outside the output folder changes. A run killed at random moments
(SIGKILL, SIGTERM) leaves either the old report intact or the new one complete,
the user's own files in it, and nothing the next run does not clean.

Deterministic for CI: one fixed hypothesis profile with ``derandomize=True``,
few examples, small ``--games``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.cli import run_cli
from analyzer.core.errors import EXIT_CODES, AnalyzerError
from analyzer.scenario import TOP_KEYS, load_scenario

ROOT = Path(__file__).resolve().parents[2]

FUZZ = settings(
    derandomize=True,
    deadline=None,
    max_examples=40,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

COIN = """
game = "coin"
name = "coins"
players = 3
strategies = ["fair", "lucky", "fair"]
games = {games}
seed = {seed}
[rules]
rounds = 4
[output]
batch_size = 50
"""

# --------------------------------------------------------------------------- values

HUGE = [2**63, 2**64, -(2**63) - 1, 10**20, 10**400]
ints = st.one_of(st.integers(-5, 40), st.sampled_from(HUGE))
scalars = st.one_of(
    ints,
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=12),
    st.sampled_from(["balanced", "random", "english", "german", "unearth", "uruk"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
OVERRIDE_PATHS = [
    "ruins.*17.claim",
    "ruins.A9.stones",
    "delvers.ancient_map.copies",
    "delvers.forlorn.amount",
    "components.dice",
    "components.stones_per_colour",
    "components.delver_cards_dealt",
    "components.hidden_ruins_per_player",
    "scoring.set_points",
    "wonder_tokens.lesser",
    "end_of_age.day_of_rest.amount",
    "nonsense.path",
]


@st.composite
def scenarios(draw) -> dict:
    """A scenario mapping: mostly valid keys with hostile values, some unknown keys."""
    raw = {
        "game": draw(st.sampled_from(["unearth", "colorful_treasure", "uruk", "chess", 7])),
        "players": draw(st.one_of(st.integers(1, 6), ints)),
        "games": draw(st.one_of(st.integers(1, 5), ints)),
        "strategies": draw(
            st.one_of(
                st.sampled_from(["balanced", "random", "greedy", "nope"]),
                st.lists(st.sampled_from(["balanced", "random", "x"]), max_size=5),
            )
        ),
    }
    for key in draw(st.lists(st.sampled_from([*TOP_KEYS, "bogus"]), max_size=4, unique=True)):
        raw[key] = draw(values)
    if draw(st.booleans()):
        raw["overrides"] = draw(
            st.dictionaries(st.sampled_from(OVERRIDE_PATHS), values, min_size=1, max_size=3)
        )
    return raw


def _toml(value) -> str:
    """TOML text of a value (inline tables; a big int as TOML reads it back)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(value), repr(value))
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"


def scenario_text(raw: dict) -> str:
    return "".join(f"{json.dumps(k)} = {_toml(v)}\n" for k, v in raw.items())


# --------------------------------------------------------------------------- helpers


def snapshot(root: Path, skip: str = "out") -> dict[str, str]:
    """Every file under ``root`` but the output folder ``skip``: path -> content hash."""
    out = {}
    for dirpath, dirs, files in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        if rel.split(os.sep)[0] == skip:
            dirs[:] = []
            continue
        for f in files:
            p = Path(dirpath) / f
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
        out.update({str((Path(dirpath) / d).relative_to(root)) + "/": "" for d in dirs})
    return out


def check_contract(code: int, err: str, argv) -> None:
    """Success, or one error line and a documented code that is not an internal error."""
    assert code in EXIT_CODES and code != 3, (code, argv, err)
    assert "Traceback" not in err, (argv, err)
    if code != 0:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("analyzer: error: "), (argv, err)


# --------------------------------------------------------------------------- scenario parser


@FUZZ
@given(raw=scenarios())
def test_any_scenario_file_loads_or_is_one_input_error(raw):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "s.toml"
        path.write_text(scenario_text(raw), "utf-8")
        try:
            sc = load_scenario(path)
        except AnalyzerError as err:
            assert err.exit_code == 2 and "\n" not in str(err), str(err)
        else:
            assert sc.games >= 1 and sc.players >= 1


@FUZZ
@given(data=st.binary(max_size=300))
def test_any_bytes_as_a_scenario_file_are_one_input_error(data):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "s.toml"
        path.write_bytes(data)
        try:
            load_scenario(path)
        except AnalyzerError as err:
            assert err.exit_code == 2 and "\n" not in str(err), str(err)


def test_nested_thousands_deep_and_huge_files_are_refused(tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    wide = tmp_path / "wide.toml"
    wide.write_text("x = " + "{a = " * 40 + "1" + "}" * 40 + "\n")
    for path in (deep, wide):
        with pytest.raises(AnalyzerError, match="nested"):
            load_scenario(path)


# --------------------------------------------------------------------------- command line

OPTION_VALUES = {
    "--games": ["0", "-1", "3", "1e20", "100000000000000000000", "x", ""],
    "--players": ["0", "2", "3", "99", "18446744073709551617", "two"],
    "--seed": ["1", "-1", "18446744073709551616", "abc"],
    "--strategy": ["random", "nope", "random,random,random,random,random,random,random"],
    "--scheduler": ["nonsense", "tcp://:::::", "tcp://127.0.0.1:9", "tcp://h:99999"],
    "--precision": ["0", "-1", "nan", "inf", "0.5"],
    "--max-games": ["0", "5", "100000000000000000000"],
    "--batch-size": ["0", "2", "100000000000000000000"],
    "--checkpoint": ["out/ck", "/proc/ck", "scen.toml"],
    "--out": ["out/t.parquet", "out", ".", "/proc/x/t.parquet", "scen.toml", "notes", "out/x.csv"],
    "--rule": ["x", "=1", "wonder_bonus=per_threshold", "tomb=9"],
    "--edition": ["german", "klingon"],
    "--game": ["unearth", "coin", "chess", "3"],
    "--index": ["0", "-3", "99999999999999999999"],
}
COMMANDS = {
    "simulate": [
        "--games",
        "--players",
        "--seed",
        "--strategy",
        "--scheduler",
        "--precision",
        "--max-games",
        "--batch-size",
        "--checkpoint",
        "--out",
        "--rule",
        "--edition",
        "--game",
    ],
    "replay": ["--players", "--seed", "--strategy", "--game", "--index", "--edition", "--out"],
    "odds": [],
}
DICE = ["a:d6", "a:d6=7", "a:d7", "a:d6=3,b:d8", "b:d8,b:d8,a:d6", "a:d6=", ":d6", "", "a:d99999"]


@st.composite
def command_lines(draw) -> list[str]:
    cmd = draw(st.sampled_from(sorted(COMMANDS)))
    if cmd == "odds":
        argv = ["odds", "--claim", draw(st.sampled_from(["13", "0", "-2", "99", "1e3", "x"]))]
        argv += ["--dice", draw(st.sampled_from(DICE))]
        if draw(st.booleans()):
            argv += ["--bag", draw(st.sampled_from(["3", "-1", "99999999999999999999"]))]
        return argv
    argv = [cmd]
    for opt in draw(st.lists(st.sampled_from(COMMANDS[cmd]), max_size=4, unique=True)):
        argv += [opt, draw(st.sampled_from(OPTION_VALUES[opt]))]
    if cmd == "simulate":
        if "--games" not in argv:
            argv += ["--games", "3"]
        argv += ["--workers", "1", "--quiet"]
        if "--game" not in argv:
            argv += ["--game", "coin"]
    if cmd == "replay" and "--seed" not in argv:
        argv += ["--seed", "1"]
    if cmd == "replay" and "--game" not in argv:
        argv += ["--game", "coin"]
    return argv


@pytest.mark.slow
@FUZZ
@given(argv=command_lines())
def test_any_command_line_succeeds_or_fails_in_one_line(argv, capsys, monkeypatch):
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "scen.toml").write_text(COIN.format(games=10, seed=1))
        (root / "notes").mkdir()
        (root / "notes" / "mine.txt").write_text("my notes")
        monkeypatch.chdir(root)
        before = snapshot(root)
        capsys.readouterr()
        code = run_cli(argv)
        err = capsys.readouterr().err
        check_contract(code, err, argv)
        assert snapshot(root) == before, argv  # only out/ may change


@settings(FUZZ, max_examples=6)
@given(raw=scenarios(), out=st.sampled_from(["out/rep", "out", "."]))
def test_run_with_any_scenario_succeeds_or_fails_in_one_line(raw, out, capsys, monkeypatch):
    """``analyzer run`` end to end; a scenario that validates is shrunk to a tiny run."""
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        raw = {**raw, "games": 2} if isinstance(raw.get("games"), int) else raw
        (root / "s.toml").write_text(scenario_text(raw), "utf-8")
        (root / "keep.txt").write_text("mine")
        monkeypatch.chdir(root)
        before = snapshot(root)
        capsys.readouterr()
        argv = ["run", "s.toml", "--out", out, "--workers", "1", "--quiet"]
        code = run_cli(argv)
        check_contract(code, capsys.readouterr().err, argv)
        assert snapshot(root) == before


# --------------------------------------------------------------------------- report folders


def _report_state(folder: Path) -> dict:
    manifest = json.loads((folder / "manifest.json").read_text())
    files = {f: hashlib.sha256((folder / f).read_bytes()).hexdigest() for f in manifest["files"]}
    return {"seed": manifest["seed"], "files": files}


@pytest.mark.slow
def test_rerun_and_rebuild_keep_the_users_files_and_the_umask(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("coins.toml").write_text(COIN.format(games=20, seed=1))
    old = os.umask(0o027)
    try:
        assert run_cli(["run", "coins.toml", "--out", "rep", "--workers", "1", "--quiet"]) == 0
        (tmp_path / "rep" / "notes").mkdir()
        (tmp_path / "rep" / "notes" / "n.md").write_text("my notes")
        (tmp_path / "rep" / "charts" / "mine.png").write_bytes(b"mine")
        (tmp_path / "rep" / "data" / "extra.parquet").write_bytes(b"mine too")
        args = ["run", "coins.toml", "--out", "rep", "--workers", "1", "--quiet", "--seed", "2"]
        assert run_cli(args) == 0
        assert run_cli(["report", "rep"]) == 0
    finally:
        os.umask(old)
    rep = tmp_path / "rep"
    assert (rep / "notes" / "n.md").read_text() == "my notes"
    assert (rep / "charts" / "mine.png").read_bytes() == b"mine"
    assert (rep / "data" / "extra.parquet").read_bytes() == b"mine too"
    assert json.loads((rep / "manifest.json").read_text())["seed"] == 2
    assert (rep / "report.pdf").stat().st_mode & 0o777 == 0o640
    assert (rep / "data" / "games.parquet").stat().st_mode & 0o777 == 0o640
    assert rep.stat().st_mode & 0o777 == 0o750
    assert sorted(p.name for p in tmp_path.iterdir()) == ["coins.toml", "rep"]


@pytest.mark.slow
def test_a_run_killed_at_random_moments_leaves_the_old_report_or_the_new_one(tmp_path):
    """Kill ``analyzer run`` (SIGKILL or SIGTERM) at seeded random moments: the
    folder holds the old report intact or the new one complete, the user's note
    stays, and the next run to the folder leaves no temporary folder behind."""
    (tmp_path / "old.toml").write_text(COIN.format(games=30, seed=1))
    (tmp_path / "new.toml").write_text(COIN.format(games=600, seed=2))
    rep = tmp_path / "rep"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = (
        "import sys, tests.standin_game; from analyzer.cli import main; "
        "main(['run', sys.argv[1], '--out', 'rep', '--workers', '1', '--quiet'])"
    )

    def run(scenario: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-c", script, scenario],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    assert run("old.toml").wait() == 0
    (rep / "note.txt").write_text("mine")
    old = _report_state(rep)
    rng = random.Random(14)
    outcomes = set()
    for sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGKILL):
        proc = run("new.toml")
        time.sleep(rng.uniform(1.0, 6.0))
        proc.send_signal(sig)
        code = proc.wait()
        err = proc.stderr.read().decode()
        if sig == signal.SIGTERM and code == -signal.SIGTERM:
            # a loaded machine: still importing, before the CLI's handlers exist
            assert err == "", err
        elif sig == signal.SIGTERM and code != 0:
            assert code == 130 and err.strip().endswith("interrupted (SIGTERM)"), err
        assert (rep / "note.txt").read_text() == "mine"
        now = _report_state(rep)
        if now["seed"] == 1:
            assert now == old
            outcomes.add("old")
        else:
            assert now["seed"] == 2 and len(now["files"]) >= len(old["files"])
            outcomes.add("new")
            state = _report_state(rep)
            assert all((rep / f).stat().st_size > 0 for f in state["files"])
    assert run("old.toml").wait() == 0  # the next run to the folder cleans up
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.toml", "old.toml", "rep"]
    assert (rep / "note.txt").read_text() == "mine"
    assert outcomes  # (which ones depends on the machine's speed; both are fine)


@pytest.mark.slow
def test_a_full_disk_during_the_final_write_is_one_line_and_keeps_the_old_report(
    tmp_path, monkeypatch, capsys
):
    import errno

    monkeypatch.chdir(tmp_path)
    Path("coins.toml").write_text(COIN.format(games=20, seed=1))
    assert run_cli(["run", "coins.toml", "--out", "rep", "--workers", "1", "--quiet"]) == 0
    old = _report_state(tmp_path / "rep")

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr("pathlib.Path.write_text", full)  # summary.md, manifest.json
    capsys.readouterr()
    args = ["run", "coins.toml", "--out", "rep", "--workers", "1", "--quiet", "--seed", "2"]
    assert run_cli(args) == 1
    err = capsys.readouterr().err
    check_contract(1, err, args)
    assert "No space left on device" in err
    monkeypatch.undo()
    assert _report_state(tmp_path / "rep") == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["coins.toml", "rep"]
