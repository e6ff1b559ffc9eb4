"""Benchmark: Colorful Treasure whole games per second on one core, jitted vs
``NUMBA_DISABLE_JIT=1``.

Prints, for each strategy and player count, games/s of the jitted engine (the
kernel alone, median of several timed runs after warm-up; and the whole batch
job with its tables and checks), the same kernel run as plain Python (a
subprocess with the JIT disabled, fewer games), and their ratio, against the
target of 50,000 games/s for ``greedy`` with 4 players.

    python benchmarks/bench_colorful_treasure.py [--games N] [--plain-games N]
        [--repeats N] [--players 4] [--strategies greedy,random,perfect,hunter]

Nothing here is asserted: machines are shared and noisy; compare figures from one run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

TARGET = 50_000  #: games/s, greedy, 4 players, one core


def kernel_seconds(players: int, strategy: str, games: int, seed: int = 1) -> float:
    """Seconds of the kernel alone for ``games`` games (no tables, no checks)."""
    from analyzer.colorful_treasure.game import make_job, play_raw

    job = make_job(players, strategy, seed=seed, steals=False)
    t0 = time.perf_counter()
    play_raw(job, 0, games)
    return time.perf_counter() - t0


def job_seconds(players: int, strategy: str, games: int, seed: int = 1) -> float:
    """Seconds of the batch job (kernel, tables, invariants, recomputed scores)."""
    from analyzer.colorful_treasure.game import make_job

    job = make_job(players, strategy, seed=seed)
    t0 = time.perf_counter()
    job(0, games)
    return time.perf_counter() - t0


def plain_rate(players: int, strategy: str, games: int) -> float:
    """games/s of the kernel with the JIT disabled (subprocess, one timed run)."""
    code = (
        "import sys; sys.path.insert(0, 'benchmarks'); "
        "from bench_colorful_treasure import kernel_seconds; "
        f"kernel_seconds({players}, {strategy!r}, 1); "
        f"print(kernel_seconds({players}, {strategy!r}, {games}))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if res.returncode != 0:
        print("JIT-off run failed:", res.stderr.strip().splitlines()[-1], file=sys.stderr)
        return float("nan")
    return games / float(res.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--plain-games", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--players", default="4")
    ap.add_argument("--strategies", default="greedy,random,perfect,hunter")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    kernel_seconds(4, "greedy", 2)
    print(f"warm-up (compile or load cache): {time.perf_counter() - t0:.1f} s")
    print(
        f"{'strategy':<9} {'P':>2} {'kernel g/s':>11} {'job g/s':>9} {'JIT off g/s':>11} "
        f"{'ratio':>7}  target"
    )
    for players in (int(x) for x in args.players.split(",")):
        for strategy in args.strategies.split(","):
            kern = statistics.median(
                kernel_seconds(players, strategy, args.games, seed=r + 1)
                for r in range(args.repeats)
            )
            job = job_seconds(players, strategy, args.games)
            rate = args.games / kern
            plain = plain_rate(players, strategy, args.plain_games)
            target = ""
            if strategy == "greedy" and players == 4:
                target = f"{rate / TARGET:.0%} of {TARGET:,}"
            print(
                f"{strategy:<9} {players:>2} {rate:>11,.0f} {args.games / job:>9,.0f} "
                f"{plain:>11,.1f} {rate / plain:>7,.0f}  {target}"
            )


if __name__ == "__main__":
    main()
