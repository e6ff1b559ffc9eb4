"""Golden replays of Uruk: three seeded games recorded as text and diffed on every run.

Each game of :data:`GOLDEN` is played again, rendered by
:func:`analyzer.uruk.replay.replay_game` and compared line by line with
``tests/golden/<name>.txt``. A difference means the engine's behaviour changed
(rules, players, random draws or the replay wording). If the change is meant
(and ``RULES_VERSION`` was bumped when simulated behaviour changed), regenerate
on purpose and review the diff:

    .venv/bin/python -m tests.uruk.test_uruk_golden --regenerate
"""

from __future__ import annotations

import sys

import pytest

from analyzer.uruk.game import make_job
from analyzer.uruk.replay import replay_game
from tests import replays
from tests.replays import GOLDEN_DIR

REGENERATE = ".venv/bin/python -m tests.uruk.test_uruk_golden --regenerate"

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
    replays.assert_recording(GOLDEN_DIR / f"{name}.txt", render(name), REGENERATE)


def test_golden_games_show_the_interesting_events():
    text = "".join(render(g[0]) for g in GOLDEN)
    for phrase in ("is activated", "makes", "village on", "city on", "the last stone left"):
        assert phrase in text


if __name__ == "__main__" and "--regenerate" in sys.argv:
    replays.write_recordings((GOLDEN_DIR / f"{g[0]}.txt", render(g[0])) for g in GOLDEN)
