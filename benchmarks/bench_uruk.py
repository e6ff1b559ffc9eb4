"""Benchmark: whole Uruk games per second on one core, jitted vs NUMBA_DISABLE_JIT=1.

Prints, for each strategy and player count, games/s of the jitted kernel (the
median of several timed runs after warm-up; the kernel alone, without building
the pandas table, and with it) and of the same code run as plain Python (a
subprocess with NUMBA_DISABLE_JIT=1, fewer games), and their ratio. The target
of the Uruk issue is 5,000 games/s for ``balanced`` with 4 players.

    .venv/bin/python benchmarks/bench_uruk.py [--games N] [--plain-games N]
        [--repeats N] [--players 4] [--strategies balanced]

Nothing is asserted: the machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def rates(players: int, strategy: str, games: int, repeats: int) -> tuple[float, float]:
    """``(kernel games/s, with the table games/s)``: medians over ``repeats`` runs."""
    from analyzer.uruk.game import make_job, play_raw

    job = make_job(players, strategy, seed=1)
    job.warm_up()
    kernel, table = [], []
    for r in range(repeats):
        t0 = time.perf_counter()
        play_raw(job, r * games, games)
        kernel.append(games / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        job(r * games, games)
        table.append(games / (time.perf_counter() - t0))
    return statistics.median(kernel), statistics.median(table)


def plain_rate(players: int, strategy: str, games: int) -> float:
    """games/s with the JIT disabled (a subprocess, one timed run)."""
    code = (
        "import sys; sys.path.insert(0, 'benchmarks'); import bench_uruk as b; "
        f"print(b.rates({players}, {strategy!r}, {games}, 1)[0])"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONWARNINGS": "ignore"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--plain-games", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--players", default="4")
    ap.add_argument("--strategies", default="balanced")
    a = ap.parse_args()
    print(
        f"{'players':>7} {'strategy':>9} {'kernel g/s':>11} {'table g/s':>10} "
        f"{'no-JIT g/s':>11} {'ratio':>7}"
    )
    for players in (int(x) for x in a.players.split(",")):
        for strategy in a.strategies.split(","):
            kernel, table = rates(players, strategy, a.games, a.repeats)
            plain = plain_rate(players, strategy, a.plain_games)
            print(
                f"{players:>7} {strategy:>9} {kernel:>11,.0f} {table:>10,.0f} "
                f"{plain:>11,.1f} {kernel / plain:>7,.0f}x"
            )


if __name__ == "__main__":
    main()
