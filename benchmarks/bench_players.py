"""Benchmark: the speed of the strategies relative to ``random``, side by side.

Issue 12's speed target is a ratio measured in one run: tuned ``balanced`` at 4
players plays at least 0.28 x the games per second of ``random``. Absolute
figures on a shared machine vary 2x with load, so the strategies are timed in
interleaved rounds (random, then each strategy, then again), every seat playing
the strategy, and the ratio of medians is what to read.

    python benchmarks/bench_players.py [--players 4] [--games 300] [--rounds 5]
        [--strategies balanced,baseline,claimer,collector]

Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time


def rate(players: int, strategy: str, games: int, seed: int) -> float:
    from analyzer.unearth.game import simulate

    t0 = time.perf_counter()
    simulate(players, strategy, games, seed=seed)
    return games / (time.perf_counter() - t0)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--strategies", default="balanced,baseline,claimer,collector")
    args = ap.parse_args(argv)
    names = ["random", *args.strategies.split(",")]
    for name in names:  # compile or load every kernel first
        rate(args.players, name, 2, 0)
    rates: dict[str, list[float]] = {n: [] for n in names}
    for r in range(args.rounds):
        for name in names:
            n = args.games * (5 if name == "random" else 1)
            rates[name].append(rate(args.players, name, n, 100 + r))
    base = statistics.median(rates["random"])
    print(f"{args.players} players, {args.rounds} interleaved rounds, median games/s (range)")
    print(f"{'strategy':<10} {'games/s':>9} {'range':>17} {'x random':>9}")
    for name in names:
        xs = rates[name]
        med = statistics.median(xs)
        print(f"{name:<10} {med:>9.0f} {min(xs):>8.0f}-{max(xs):<8.0f} {med / base:>9.3f}")


if __name__ == "__main__":
    main()
