"""Experiment: games per CPU-second of Uruk's `trained` and the default `balanced`,
every seat one strategy, side by side in one process, median of `--repeats`
alternating runs (`--weights`: as head_to_head.py; `--features`: seats with the
identity weights run the features' evaluation, as before strategies version 5,
instead of balanced's code, ``analyzer.uruk.game.IDENTITY_AS_BALANCED``).

    python studies/2026-11-29-training/speed.py --games 2000 --repeats 5
    python studies/2026-11-29-training/speed.py --games 1000 --repeats 3 --players 3,4

Prints one JSON line per player count. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np


def main(argv=None) -> None:
    from analyzer.uruk import game
    from analyzer.uruk.game import make_job, play_raw

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--weights", default=None)
    ap.add_argument("--features", action="store_true")
    a = ap.parse_args(argv)
    game.IDENTITY_AS_BALANCED = not a.features
    if a.weights:
        import tomllib

        table = next(iter(tomllib.loads(open(a.weights).read())["trained"].values()))
        w = np.array(table["weights"], float)
        game.trained_weights = lambda n: w
    for n in (int(x) for x in a.players.split(",")):
        jobs = {s: make_job(n, [s] * n, seed=a.seed) for s in ("trained", "balanced")}
        for job in jobs.values():
            job.warm_up()
            play_raw(job, 0, 10)
        rates: dict[str, list[float]] = {s: [] for s in jobs}
        for _ in range(a.repeats):
            for s, job in jobs.items():
                t0 = time.process_time()
                play_raw(job, 0, a.games)
                rates[s].append(a.games / (time.process_time() - t0))
        med = {s: statistics.median(r) for s, r in rates.items()}
        print(
            json.dumps(
                {
                    "players": n,
                    "games": a.games,
                    "repeats": a.repeats,
                    "identity_as_balanced": game.IDENTITY_AS_BALANCED,
                    "games_per_cpu_s": {s: round(v) for s, v in med.items()},
                    "ratio_trained_to_default": round(med["trained"] / med["balanced"], 3),
                }
            )
        )


if __name__ == "__main__":
    main()
