"""Benchmark: how fast Colorful Treasure's ``search`` player decides, and deep advice.

For each player count: one ``search`` seat against ``greedy`` seats, its
decisions per second (first reveals and steals searched), rollouts per second,
CPU seconds per game, and the games per second of all-``greedy`` play timed in
the same rounds (the ratio is what to read on a shared machine). Then
``analyzer advise --game colorful_treasure --deep`` on the shipped example at
its default budget, with the kernels cached (CPU seconds).

    python benchmarks/bench_ct_search.py [--players 2,4] [--games 100] [--rounds 3]
        [--budget 96]

Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _search_bench import medians, warm


def deep_seconds(seed: int) -> tuple[float, int]:
    from analyzer.colorful_treasure import deep
    from analyzer.colorful_treasure import odds as lib

    state = lib.parse_state(lib.EXAMPLE)
    t0 = time.process_time()
    a = deep.deep_advice(state, seed=seed)
    deep.exact_points(state)  # the command prints the exact points beside
    return time.process_time() - t0, a.rollouts


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--budget", type=int, default=96)
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.players.split(",")]
    warm("colorful_treasure", "greedy", counts, time.process_time)
    deep_seconds(0)
    for n in counts:
        med, g = medians(
            "colorful_treasure",
            "greedy",
            n,
            args.games,
            2000,
            args.budget,
            args.rounds,
            time.process_time,
        )
        print(
            f"{n} players, budget {args.budget}: "
            f"{med['decisions/s']:.0f} decisions/s, {med['rollouts/s']:,.0f} rollouts/s, "
            f"{med['s/game']:.3f} CPU-s/game ({med['decisions/game']:.1f} decisions), "
            f"greedy {g:,.0f} games/CPU-s: a search game costs {med['s/game'] * g:,.0f} "
            f"greedy games (medians of {args.rounds} rounds)"
        )
    times = [deep_seconds(k) for k in range(1, args.rounds + 1)]
    secs = [t for t, _ in times]
    print(
        f"advise --deep, example state, default budget ({times[0][1]:,} rollouts): "
        f"{statistics.median(secs):.2f} CPU-s (median of {args.rounds}), "
        f"range {min(secs):.2f}-{max(secs):.2f}"
    )


if __name__ == "__main__":
    main()
