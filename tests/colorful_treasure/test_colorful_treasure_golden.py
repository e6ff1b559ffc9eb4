"""Golden replays of Colorful Treasure: seeded games recorded as text, diffed on every run.

Each game in :data:`GOLDEN` is played again, rendered by
:func:`analyzer.colorful_treasure.replay.replay_game` and compared line by line
with ``tests/golden/colorful_treasure_<name>.txt``. A difference means the
engine's behaviour changed (rules, strategies, random draws or the replay
format). If the change is deliberate (and ``RULES_VERSION`` was bumped when
simulated behaviour changed), regenerate and review the diff:

    .venv/bin/python -m tests.colorful_treasure.test_colorful_treasure_golden --regenerate
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from analyzer.colorful_treasure.game import make_job
from analyzer.colorful_treasure.replay import replay_game
from analyzer.colorful_treasure.rules import load_rules
from tests import replays
from tests.replays import GOLDEN_DIR

REGENERATE = (
    ".venv/bin/python -m tests.colorful_treasure.test_colorful_treasure_golden --regenerate"
)

#: (name, players, strategies, seed, game, rulings)
GOLDEN = (
    ("2p_random", 2, "random", 20261123, 3, {}),
    ("3p_greedy", 3, "greedy,perfect,hunter", 20261124, 1, {}),
    ("4p_mixed", 4, "random,greedy,perfect,hunter", 20261125, 2, {}),
    ("3p_young", 3, "greedy", 20261126, 0, {"variant": "young"}),
    (
        "4p_tiles_a",
        4,
        "random,greedy,perfect,hunter",
        20261127,
        11,
        {"tiles": "a", "scoring": "advanced"},
    ),
)


def render(name: str) -> str:
    """The replay text of golden game ``name``, played now."""
    _, players, strategies, seed, game, rulings = next(g for g in GOLDEN if g[0] == name)
    job = make_job(players, strategies, seed, load_rules(rulings))
    return replay_game(job, game)


def path_of(name: str) -> Path:
    return GOLDEN_DIR / f"colorful_treasure_{name}.txt"


@pytest.mark.parametrize("name", [g[0] for g in GOLDEN])
def test_golden_replay_matches_recording(name):
    replays.assert_recording(path_of(name), render(name), REGENERATE)


def test_replay_covers_a_whole_game():
    text = render("4p_mixed")
    assert text == render("4p_mixed")
    lines = text.splitlines()
    assert lines[0].startswith("# Colorful Treasure replay")
    assert sum(ln.startswith("# seat") for ln in lines) == 4
    body = [ln for ln in lines if not ln.startswith("#")]
    assert "game over" in body[-1]
    assert any("reveals" in ln for ln in body) and any("takes" in ln for ln in body)


def test_the_replay_command_path_uses_the_game():
    from analyzer.games import load_game

    game = load_game("colorful_treasure")
    job = game.make_job(2, ("random", "random"), 20261123, game.load_rules({}, {}, "t"))
    assert game.replay(job, 3) == render("2p_random")


def regenerate() -> None:
    replays.write_recordings((path_of(name), render(name)) for name, *_ in GOLDEN)


if __name__ == "__main__":
    if "--regenerate" in sys.argv[1:]:
        regenerate()
    else:
        print(__doc__)
