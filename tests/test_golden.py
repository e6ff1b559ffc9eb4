"""Golden replays: three seeded games recorded as text and diffed on every run.

Each game in :data:`GOLDEN` is played again, rendered by
:func:`analyzer.unearth.replay.replay_game` and compared line by line with its
recording in ``tests/golden/<name>.txt``. A difference means the engine's
behaviour changed (rules, strategies, RNG use or the replay format).

If the change is deliberate (and ``RULES_VERSION`` was bumped when simulated
behaviour changed), regenerate the recordings on purpose and review the diff:

    .venv/bin/python -m tests.test_golden --regenerate
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

from analyzer.unearth.game import make_job
from analyzer.unearth.replay import replay_game

GOLDEN_DIR = Path(__file__).parent / "golden"

#: (name, players, strategies, seed, game)
GOLDEN = (
    ("2p_random", 2, "random", 20240601, 5),
    ("3p_balanced", 3, "balanced", 20240602, 1),
    ("4p_mixed", 4, "random,claimer,collector,balanced", 20240603, 2),
)

CONTEXT_LINES = 30  #: diff lines shown in a failure message


def render(name: str) -> str:
    """The replay text of golden game ``name``, played now."""
    _, players, strategies, seed, game = next(g for g in GOLDEN if g[0] == name)
    return replay_game(make_job(players, strategies, seed), game)


def first_difference(expected: str, actual: str) -> str:
    """A message naming the first differing line and showing the start of the diff."""
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
        "If the change is deliberate: .venv/bin/python -m tests.test_golden --regenerate"
    )


@pytest.mark.parametrize("name", [g[0] for g in GOLDEN])
def test_golden_replay_matches_recording(name):
    path = GOLDEN_DIR / f"{name}.txt"
    assert path.exists(), f"missing recording {path}; run: python -m tests.test_golden --regenerate"
    expected = path.read_text("utf-8")
    actual = render(name)
    if actual != expected:
        pytest.fail(first_difference(expected, actual), pytrace=False)


def test_replay_is_deterministic_and_covers_the_whole_game():
    text = render("2p_random")
    assert text == render("2p_random")
    lines = text.splitlines()
    assert lines[0].startswith("# Unearth replay")
    body = [ln for ln in lines if not ln.startswith("#")]
    assert "game over" in body[-1]
    assert any("excavation:" in ln for ln in body)
    assert any("claimed by seat" in ln for ln in body)
    assert sum(ln.startswith("# seat") for ln in lines) == 2


def test_first_difference_names_the_line_and_shows_it():
    msg = first_difference("a\nb\nc\n", "a\nB\nc\n")
    assert "from line 2" in msg
    assert "-b" in msg and "+B" in msg


def regenerate() -> None:
    """Write every recording anew (atomically)."""
    import os
    import tempfile

    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, *_ in GOLDEN:
        path = GOLDEN_DIR / f"{name}.txt"
        fd, tmp = tempfile.mkstemp(dir=GOLDEN_DIR, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(render(name))
        os.replace(tmp, path)
        print(f"wrote {path}")


if __name__ == "__main__":
    if "--regenerate" in sys.argv[1:]:
        regenerate()
    else:
        print(__doc__)
