"""Experiment: how often one Uruk ``search`` seat beats ``balanced`` (or another
field), and what it costs.

Every game index is played in every seat order (the search in each seat in
turn, the same game indices: common random numbers); the unit is the game
index, whose value is the search's win share averaged over the orders, so the
95% interval is over independent game indices. Prints one JSON line with the
CPU seconds per game and the search decisions per CPU second (one process,
one core).

    python studies/2026-11-27-players-uruk/search_vs_balanced_uruk.py --games 300 --seed 7
        [--opp balanced] [--players 2] [--budget 256 --width 4 --z 1 --bids 1]

docs/strategies.md quotes its figures. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def main(argv=None) -> None:
    from analyzer.uruk import engine
    from analyzer.uruk.defaults import SEARCH_PARAMS
    from analyzer.uruk.game import make_job, play_raw

    d = {name: v for name, v, _ in SEARCH_PARAMS}
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--start", type=int, default=0, help="first game index")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--opp", default="balanced", help="the strategy of every other seat")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--budget", type=int, default=int(d["budget"]))
    ap.add_argument("--width", type=int, default=int(d["width"]))
    ap.add_argument("--margin", type=float, default=d["margin"])
    ap.add_argument("--z", type=float, default=d["z"])
    ap.add_argument("--bids", type=int, default=int(d["bids"]))
    a = ap.parse_args(argv)
    settings = {"budget": a.budget, "width": a.width, "margin": a.margin, "z": a.z, "bids": a.bids}
    n = a.players
    make_job(n, ["search"] + [a.opp] * (n - 1), seed=a.seed).warm_up()  # compile first
    wins = np.zeros(a.games)
    score = np.zeros(a.games)
    decisions = rollouts = 0
    cpu = 0.0
    for seat in range(n):
        strategies = [a.opp] * n
        strategies[seat] = "search"
        job = make_job(n, strategies, seed=a.seed, strategy_params={"search": settings})
        out = []
        t0 = time.process_time()
        results, w, _ = play_raw(job, a.start, a.games, search_out=out)
        cpu += time.process_time() - t0
        decisions += int(out[0].count[0])
        rollouts += int(out[0].count[1])
        wins += w.reshape(a.games, n)[:, seat] / n
        score += results[:, engine.R_SCORE].reshape(a.games, n)[:, seat] / n
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
                "cpu_s_per_game": round(cpu / (n * a.games), 4),
                "decisions_per_game": round(decisions / (n * a.games), 1),
                "decisions_per_cpu_s": round(decisions / cpu, 1),
                "rollouts_per_cpu_s": round(rollouts / cpu, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
