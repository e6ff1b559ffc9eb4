"""Known answer: does the one-knob balance search's 95% interval cover the true fair value?

The coin game (``tests/standin_game.py``): seat 1 flips a lucky coin (heads with
probability ``coin.p_lucky``), seat 2 a fair one, five flips each, most heads wins
(ties share). By symmetry the seats are fair exactly at ``coin.p_lucky = 0.5``.
The search (``analyzer.studies.balance``, knob 0.30 to 0.70 in steps of 0.01, the
printed value 0.6) is run for 20 seeds; the count of intervals covering 0.5 is
printed, with the games each run took.

    PYTHONPATH=. python studies/2026-11-29-balancing/known_answer.py [GAMES] [SEEDS]
"""

from __future__ import annotations

import sys
import time

import tests.standin_game  # noqa: F401  (registers the coin game)
from analyzer.runs.scenario_file import parse_scenario
from analyzer.studies.balance import balance


def main(games: int = 3000, seeds: int = 20) -> None:
    covered, t0 = 0, time.perf_counter()
    for seed in range(1, seeds + 1):
        raw = {
            "game": "coin",
            "seed": seed,
            "balance": {
                "counts": 2,
                "players": ["lucky", "fair"],
                "rotate": False,
                "games": games,
                "knobs": {"coin.p_lucky": {"low": 0.3, "high": 0.7, "step": 0.01}},
            },
        }
        d = balance(parse_scenario(raw, "coin.toml"), workers=1).to_json()
        low, high = d["interval"]["coin.p_lucky"]
        hit = low <= 0.5 <= high
        covered += hit
        print(
            f"seed {seed:2d}: root {d['curve']['root']:.3f} [{low:.3f}, {high:.3f}] "
            f"chosen {d['recommended']['coin.p_lucky']} {'covers' if hit else 'MISSES'} 0.5; "
            f"{d['games']['total']:,} games ({d['games']['search']:,} searching)"
        )
    print(f"{covered} of {seeds} intervals cover the fair value 0.5 "
          f"({time.perf_counter() - t0:.0f} s)")  # fmt: skip


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
