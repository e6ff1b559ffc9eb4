"""Experiment: how often one ``search`` seat beats ``balanced`` (or another field).

Every game index is played in every seat order (the search in each seat in
turn, the same game indices: common random numbers); the unit is the game
index, whose value is the search's win share averaged over the orders, so the
95% interval is over independent game indices, not over seat-games. Prints one
JSON line.

    python studies/2026-11-23-players-unearth/search_vs_balanced.py \\
        --games 400 --start 100 --seed 7
        [--opp balanced] [--players 2] [--budget 256 --width 6 --margin 0.01 --z 1]

docs/strategies.md quotes its figures. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def main(argv=None) -> None:
    from analyzer.unearth.game import simulate

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--start", type=int, default=0, help="first game index")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--opp", default="balanced", help="the strategy of every other seat")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--budget", type=int, default=256)
    ap.add_argument("--width", type=int, default=6)
    ap.add_argument("--margin", type=float, default=0.01)
    ap.add_argument("--z", type=float, default=1.0)
    a = ap.parse_args(argv)
    settings = {"budget": a.budget, "width": a.width, "margin": a.margin, "z": a.z}
    n = a.players
    t0 = time.time()
    wins = np.zeros(a.games)
    score = np.zeros(a.games)
    for seat in range(n):
        strategies = [a.opp] * n
        strategies[seat] = "search"
        df = simulate(
            n,
            strategies,
            a.games,
            seed=a.seed,
            first_game=a.start,
            strategy_params={"search": settings},
        )
        mine = df[df.seat == seat].sort_values("game")
        wins += mine.win.to_numpy() / n
        score += mine.score.to_numpy() / n
    m = wins.mean()
    se = wins.std(ddof=1) / np.sqrt(len(wins))
    print(
        json.dumps(
            {
                **settings,
                "opp": a.opp,
                "players": n,
                "game_indices": a.games,
                "start": a.start,
                "seed": a.seed,
                "win": round(m, 4),
                "ci95": [round(m - 1.96 * se, 4), round(m + 1.96 * se, 4)],
                "score": round(score.mean(), 2),
                "seconds": round(time.time() - t0, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
