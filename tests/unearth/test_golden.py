"""Golden replays: three seeded games recorded as text and diffed on every run.

Each game in :data:`GOLDEN` is played again, rendered by
:func:`analyzer.unearth.replay.replay_game` and compared line by line with its
recording in ``tests/golden/<name>.txt``. A difference means the engine's
behaviour changed (rules, strategies, RNG use or the replay format).

If the change is deliberate (and ``RULES_VERSION`` was bumped when simulated
behaviour changed), regenerate the recordings on purpose and review the diff:

    .venv/bin/python -m tests.unearth.test_golden --regenerate
"""

from __future__ import annotations

import sys

import pytest

from analyzer.unearth.game import make_job
from analyzer.unearth.replay import replay_game
from tests import replays
from tests.replays import GOLDEN_DIR

#: (name, players, strategies, seed, game)
GOLDEN = (
    ("2p_random", 2, "random", 20240601, 5),
    ("3p_balanced", 3, "balanced", 20240602, 1),
    ("4p_mixed", 4, "random,claimer,collector,balanced", 20240603, 2),
)

REGENERATE = ".venv/bin/python -m tests.unearth.test_golden --regenerate"


def render(name: str) -> str:
    """The replay text of golden game ``name``, played now."""
    _, players, strategies, seed, game = next(g for g in GOLDEN if g[0] == name)
    return replay_game(make_job(players, strategies, seed), game)


def first_difference(expected: str, actual: str) -> str:
    """A message naming the first differing line and showing the start of the diff."""
    return replays.first_difference(expected, actual, REGENERATE)


@pytest.mark.parametrize("name", [g[0] for g in GOLDEN])
def test_golden_replay_matches_recording(name):
    replays.assert_recording(GOLDEN_DIR / f"{name}.txt", render(name), REGENERATE)


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
    replays.write_recordings((GOLDEN_DIR / f"{name}.txt", render(name)) for name, *_ in GOLDEN)


if __name__ == "__main__":
    if "--regenerate" in sys.argv[1:]:
        regenerate()
    else:
        print(__doc__)
