"""Benchmark: how fast the ``search`` player decides, and deep advice.

For each player count: one ``search`` seat against ``balanced`` seats, its
excavation decisions per second, rollouts per second, seconds per game, and the
games per second of all-``balanced`` play timed in the same rounds (the ratio is
what to read on a shared machine). Then ``analyzer advise --deep`` on the
shipped example table at its default budget, with the kernels cached.

    python benchmarks/bench_search.py [--players 2,4] [--games 10] [--rounds 3]
        [--budget 256]

Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _search_bench import medians, warm


def deep_seconds(seed: int) -> tuple[float, int]:
    import tomllib

    from analyzer.unearth import advise as lib
    from analyzer.unearth import deep
    from analyzer.unearth.rules import default_rules

    rules = default_rules()
    text = lib.example_text()
    table = lib.parse_state(tomllib.loads(text), "example", rules)
    raw = tomllib.loads(text).get("wonders", {})
    t0 = time.perf_counter()
    a = deep.deep_advice(table, raw, rules, seed=seed)
    return time.perf_counter() - t0, a.rollouts


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--budget", type=int, default=256)
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.players.split(",")]
    warm("unearth", "balanced", counts, time.perf_counter)
    deep_seconds(0)
    for n in counts:
        med, b = medians(
            "unearth", "balanced", n, args.games, 200, args.budget, args.rounds, time.perf_counter
        )
        print(
            f"{n} players, budget {args.budget}: "
            f"{med['decisions/s']:.1f} decisions/s, {med['rollouts/s']:,.0f} rollouts/s, "
            f"{med['s/game']:.2f} s/game ({med['decisions/game']:.1f} decisions), "
            f"balanced {b:,.0f} games/s: search is {1 / (med['s/game'] * b):.5f}x balanced "
            f"(medians of {args.rounds} rounds)"
        )
    times = [deep_seconds(k) for k in range(1, args.rounds + 1)]
    sec = statistics.median(t for t, _ in times)
    print(
        f"advise --deep, example table, default budget ({times[0][1]:,} rollouts): "
        f"{sec:.2f} s (median of {args.rounds}), range {np.min([t for t, _ in times]):.2f}"
        f"-{np.max([t for t, _ in times]):.2f} s"
    )


if __name__ == "__main__":
    main()
