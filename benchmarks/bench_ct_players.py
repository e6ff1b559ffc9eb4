"""Benchmark: Colorful Treasure's default player against version 1 (``baseline``),
side by side in one run.

CPU seconds of the kernel alone (no tables), every seat the strategy, in
alternating rounds (baseline, then the strategy, ``--rounds`` times, the same
games); the ratio of the medians of games per CPU second is what to read (a
shared machine moves absolute figures by 2x).

    python benchmarks/bench_ct_players.py [--players 2 4] [--games 20000] [--rounds 7]
        [--strategy greedy]

Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from analyzer.colorful_treasure.game import make_job, play_raw


def cpu_rate(players: int, strategy: str, games: int) -> float:
    """Games per CPU second of the kernel, every seat ``strategy``."""
    job = make_job(players, strategy, seed=1, steals=False)
    t0 = time.process_time()
    play_raw(job, 0, games)
    return games / (time.process_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--strategy", default="greedy")
    a = ap.parse_args()
    for n in a.players:
        for s in (a.strategy, "baseline"):
            cpu_rate(n, s, 10)  # compile or load the cache
        rates = {a.strategy: [], "baseline": []}
        for _ in range(a.rounds):
            for s in ("baseline", a.strategy):
                rates[s].append(cpu_rate(n, s, a.games))
        new, old = statistics.median(rates[a.strategy]), statistics.median(rates["baseline"])
        each = [x / y for x, y in zip(rates[a.strategy], rates["baseline"], strict=True)]
        print(
            f"{n} players: {a.strategy} {new:,.0f} games/CPU s, baseline (version 1) "
            f"{old:,.0f}, ratio {new / old:.2f} (rounds {min(each):.2f}-{max(each):.2f}); "
            f"median of {a.rounds} alternating rounds of {a.games:,} games"
        )


if __name__ == "__main__":
    main()
