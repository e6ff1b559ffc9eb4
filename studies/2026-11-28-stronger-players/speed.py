"""Experiment: games per CPU-second of Uruk's default (strategies version 4's
`balanced`) and the previous default (`balanced_v3`), every seat one strategy,
side by side in one process, median of `--repeats` alternating runs.

    python studies/2026-11-28-stronger-players/speed.py --games 5000 --repeats 5

Prints one JSON line per player count. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time


def main(argv=None) -> None:
    from analyzer.uruk.game import make_job, play_raw

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=39)
    a = ap.parse_args(argv)
    for n in (2, 4):
        jobs = {s: make_job(n, [s] * n, seed=a.seed) for s in ("balanced", "balanced_v3")}
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
                    "games_per_cpu_s": {s: round(v) for s, v in med.items()},
                    "ratio_new_to_old": round(med["balanced"] / med["balanced_v3"], 3),
                }
            )
        )


if __name__ == "__main__":
    main()
