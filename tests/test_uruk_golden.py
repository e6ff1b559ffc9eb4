"""Golden replays of Uruk: three seeded games recorded as text and diffed on every run.

Each game of :data:`GOLDEN` is played again, rendered by
:func:`analyzer.uruk.replay.replay_game` and compared line by line with
``tests/golden/<name>.txt``. A difference means the engine's behaviour changed
(rules, players, random draws or the replay wording). If the change is meant
(and ``RULES_VERSION`` was bumped when simulated behaviour changed), regenerate
on purpose and review the diff:

    .venv/bin/python -m tests.test_uruk_golden --regenerate
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

from analyzer.uruk.game import make_job
from analyzer.uruk.replay import replay_game

GOLDEN_DIR = Path(__file__).parent / "golden"

#: (name, players, strategies, seed, game index)
GOLDEN = (
    ("uruk_2p_random", 2, "random", 20260101, 3),
    ("uruk_3p_balanced", 3, "balanced", 20260102, 1),
    ("uruk_4p_mixed", 4, "random,builder,hoarder,balanced", 20260103, 7),
    # frozen: baseline keeps strategies version 1's choice rules, so this never moves
    ("uruk_4p_baseline", 4, "baseline", 20260104, 2),
)


def render(name: str) -> str:
    _, players, strategies, seed, game = next(g for g in GOLDEN if g[0] == name)
    return replay_game(make_job(players, strategies, seed), game)


@pytest.mark.parametrize("name", [g[0] for g in GOLDEN])
def test_golden_replay(name):
    expected = (GOLDEN_DIR / f"{name}.txt").read_text("utf-8")
    actual = render(name)
    if actual != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(True), actual.splitlines(True), "recorded", "now"
                )
            )[:40]
        )
        pytest.fail(f"{name}: the replay changed (regenerate on purpose if meant)\n{diff}")


def test_golden_games_show_the_interesting_events():
    text = "".join(render(g[0]) for g in GOLDEN)
    for phrase in ("is activated", "makes", "village on", "city on", "the last stone left"):
        assert phrase in text


if __name__ == "__main__" and "--regenerate" in sys.argv:
    for g in GOLDEN:
        (GOLDEN_DIR / f"{g[0]}.txt").write_text(render(g[0]), "utf-8")
        print("wrote", GOLDEN_DIR / f"{g[0]}.txt")
