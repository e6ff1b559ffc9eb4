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


def search_round(players: int, games: int, budget: int, seed: int) -> dict:
    from analyzer.unearth import search
    from analyzer.unearth.game import make_job, play_raw

    names = ["search"] + ["balanced"] * (players - 1)
    job = make_job(players, names, seed, strategy_params={"search": {"budget": budget}})
    out: list = []
    t0 = time.perf_counter()
    play_raw(job, 0, games, search_out=out)
    sec = time.perf_counter() - t0
    w = out[0]
    return {
        "decisions/s": w.count[search.K_DECISIONS] / sec,
        "rollouts/s": w.count[search.K_ROLLOUTS] / sec,
        "s/game": sec / games,
        "decisions/game": w.count[search.K_DECISIONS] / games,
    }


def balanced_rate(players: int, games: int, seed: int) -> float:
    from analyzer.unearth.game import simulate

    t0 = time.perf_counter()
    simulate(players, "balanced", games, seed=seed)
    return games / (time.perf_counter() - t0)


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
    for n in counts:  # compile or load every kernel first
        search_round(n, 1, 8, 0)
        balanced_rate(n, 2, 0)
    deep_seconds(0)
    for n in counts:
        rows: dict[str, list[float]] = {}
        bal = []
        for k in range(args.rounds):
            for key, v in search_round(n, args.games, args.budget, 100 + k).items():
                rows.setdefault(key, []).append(v)
            bal.append(balanced_rate(n, 200, 100 + k))
        med = {k: statistics.median(v) for k, v in rows.items()}
        b = statistics.median(bal)
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
