"""What the games' golden replays and checkable traces share in the tests.

- :func:`trace_of`: one game's checkable trace as ``analyzer replay --json``
  prints it (through the command's library function), parsed;
- :func:`trace_checker`: the independent checker of a game's trace, a plain
  Python twin of its rules that imports nothing of the engine
  (``tests/<game>_trace_checker.py`` or the game's trace test module, see
  :data:`TRACE_CHECKERS`), as a function ``check(trace)`` raising
  ``AssertionError`` (each checker's ``TraceError``) at the first fault;
- :func:`assert_recording` and :func:`write_recordings`: a golden replay
  (``tests/golden/<name>.txt``) compared with the text played now, the first
  differing line named, and the recordings written again on purpose.
"""

from __future__ import annotations

import difflib
import importlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

GOLDEN_DIR = Path(__file__).parent / "golden"
CONTEXT_LINES = 30  #: diff lines shown in a failure message

#: game -> the module of its trace checker (each has ``check_trace(trace)``)
TRACE_CHECKERS = {
    "unearth": "tests.unearth_trace_checker",
    "colorful_treasure": "tests.colorful_treasure.test_colorful_treasure_trace_check",
    "uruk": "tests.uruk.test_uruk_trace_check",
    "pig": "tests.pig_trace_checker",
}


def trace_of(
    game: str,
    players: int,
    strategies,
    seed: int,
    index: int,
    rulings: dict | None = None,
    overrides: dict | None = None,
) -> dict:
    """Game ``index`` of seed ``seed`` as ``analyzer replay --game GAME --json`` prints
    it, parsed. ``strategies``: one comma-separated string or a list of names (as
    ``--strategy``); ``rulings``: the ruling switches (``--rule``; Unearth's
    ``edition`` as ``--edition``); ``overrides``: rules values by path."""
    from analyzer.cli.replay import replay_text

    rulings = dict(rulings or {})
    edition = rulings.pop("edition", None)
    lineup = [strategies] if isinstance(strategies, str) else list(strategies)
    text = replay_text(
        players,
        lineup,
        seed,
        index,
        edition,
        game=game,
        rulings=rulings,
        as_json=True,
        overrides=overrides,
    )
    return json.loads(text)


def trace_checker(game: str) -> Callable[[dict], object]:
    """The ``check_trace`` of game ``game``'s independent checker."""
    return importlib.import_module(TRACE_CHECKERS[game]).check_trace


def first_difference(expected: str, actual: str, command: str) -> str:
    """A message naming the first differing line and showing the start of the diff;
    ``command`` regenerates the recording."""
    exp = expected.splitlines()
    act = actual.splitlines()
    line = next(
        (i for i, (a, b) in enumerate(zip(exp, act, strict=False)) if a != b),
        min(len(exp), len(act)),
    )
    diff = list(difflib.unified_diff(exp, act, "recorded", "replayed", n=2, lineterm=""))
    shown = "\n".join(diff[:CONTEXT_LINES])
    more = ""
    if len(diff) > CONTEXT_LINES:
        more = f"\n... ({len(diff) - CONTEXT_LINES} more diff lines)"
    return (
        f"replay differs from the recording from line {line + 1} "
        f"({len(exp)} recorded lines, {len(act)} replayed):\n{shown}{more}\n"
        f"If the change is deliberate: {command}"
    )


def assert_recording(path: Path, actual: str, command: str) -> None:
    """Fail (naming the first differing line) unless ``path`` holds ``actual``."""
    assert path.exists(), f"missing recording {path}; run: {command}"
    expected = path.read_text("utf-8")
    if actual != expected:
        pytest.fail(first_difference(expected, actual, command), pytrace=False)


def write_recordings(recordings: Iterable[tuple[Path, str]]) -> None:
    """Write each ``(path, text)`` anew, atomically, and say so."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    for path, text in recordings:
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
        print(f"wrote {path}")
