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


def search_round(players: int, games: int, budget: int, seed: int) -> dict:
    from analyzer.colorful_treasure import search
    from analyzer.colorful_treasure.game import make_job, play_raw

    names = ["search"] + ["greedy"] * (players - 1)
    job = make_job(players, names, seed, strategy_params={"search": {"budget": budget}})
    out: list = []
    t0 = time.process_time()
    play_raw(job, 0, games, search_out=out)
    sec = time.process_time() - t0
    w = out[0]
    return {
        "decisions/s": w.count[search.K_DECISIONS] / sec,
        "rollouts/s": w.count[search.K_ROLLOUTS] / sec,
        "s/game": sec / games,
        "decisions/game": w.count[search.K_DECISIONS] / games,
    }


def greedy_rate(players: int, games: int, seed: int) -> float:
    from analyzer.colorful_treasure.game import simulate

    t0 = time.process_time()
    simulate(players, "greedy", games, seed=seed)
    return games / (time.process_time() - t0)


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
    for n in counts:  # compile or load every kernel first
        search_round(n, 1, 8, 0)
        greedy_rate(n, 2, 0)
    deep_seconds(0)
    for n in counts:
        rows: dict[str, list[float]] = {}
        plain = []
        for k in range(args.rounds):
            for key, v in search_round(n, args.games, args.budget, 100 + k).items():
                rows.setdefault(key, []).append(v)
            plain.append(greedy_rate(n, 2000, 100 + k))
        med = {k: statistics.median(v) for k, v in rows.items()}
        g = statistics.median(plain)
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
