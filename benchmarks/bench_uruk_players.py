"""Benchmark: Uruk's strategies' speed side by side (the tuned default beside version 1).

Kernel games per second of CPU time (``play_raw``, no table) for ``baseline``
(``balanced`` of strategies version 1, frozen), ``balanced`` (the tuned default)
and ``random``, every seat the strategy, timed in interleaved rounds so that the
machine's load falls on all alike; the medians and the ratio of ``balanced`` to
``baseline`` are what to read.

    python benchmarks/bench_uruk_players.py [--games 1500] [--rounds 5] [--players 2,4]

Nothing here is asserted: the machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import statistics
import time

from analyzer.uruk.game import make_job, play_raw

NAMES = ("baseline", "balanced", "random")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--players", default="2,4")
    args = ap.parse_args(argv)
    for n in (int(x) for x in args.players.split(",")):
        jobs = {s: make_job(n, s, seed=1) for s in NAMES}
        for job in jobs.values():
            job.warm_up()
        rates: dict[str, list[float]] = {s: [] for s in NAMES}
        for _ in range(args.rounds):
            for s, job in jobs.items():
                t0 = time.process_time()
                play_raw(job, 0, args.games)
                rates[s].append(args.games / (time.process_time() - t0))
        med = {s: statistics.median(v) for s, v in rates.items()}
        print(
            f"{n} players, games/s of CPU time (median of {args.rounds} interleaved rounds "
            f"of {args.games}): "
            + ", ".join(f"{s} {v:,.0f}" for s, v in med.items())
            + f"; balanced / baseline {med['balanced'] / med['baseline']:.2f}"
        )


if __name__ == "__main__":
    main()
