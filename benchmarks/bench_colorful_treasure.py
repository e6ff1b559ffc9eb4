"""Benchmark: Colorful Treasure whole games per second on one core, jitted vs
``NUMBA_DISABLE_JIT=1``.

Prints, for each strategy and player count, games/s of the jitted engine (the
kernel alone, median of several timed runs after warm-up; and the whole batch
job with its tables and checks), the same kernel run as plain Python (a
subprocess with the JIT disabled, fewer games), and their ratio, against the
target of 50,000 games/s for ``greedy`` with 4 players.

    python benchmarks/bench_colorful_treasure.py [--games N] [--plain-games N]
        [--repeats N] [--players 4] [--strategies greedy,random,perfect,hunter]

Side by side with another checkout (``--old``: its games/s and this checkout's,
each a child process, alternating for ``--rounds`` rounds, the same games):

    git worktree add /tmp/ct-base main
    python benchmarks/bench_colorful_treasure.py --old /tmp/ct-base --rounds 5

Nothing here is asserted: machines are shared and noisy; compare figures from one run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

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


_CHILD = """
import statistics, sys, time
sys.path.insert(0, {root!r})
import analyzer
assert analyzer.__file__.startswith({root!r}), analyzer.__file__
from analyzer.colorful_treasure.game import make_job, play_raw
job = make_job({players}, {strategy!r}, seed=1, steals=False)
play_raw(job, 0, 2)
rates = []
for r in range({repeats}):
    t0 = time.perf_counter()
    play_raw(job, r * {games}, {games})
    rates.append({games} / (time.perf_counter() - t0))
print(statistics.median(rates))
"""


def child_rate(root: Path, players: int, strategy: str, games: int, repeats: int) -> float:
    """Median games/s of ``repeats`` batches of the kernel in checkout ``root``
    (a child process: its own imports and numba cache)."""
    code = _CHILD.format(
        root=str(root.resolve()), players=players, strategy=strategy, games=games, repeats=repeats
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/"
    )
    return float(out.stdout.strip().splitlines()[-1])


def side_by_side(old: Path, args) -> None:
    """Alternating child runs of ``old`` and this checkout; every round and the medians."""
    new = Path(__file__).resolve().parents[1]
    print(f"old: {old}  new: {new}  load average: {os.getloadavg()[0]:.2f}")
    print(f"{'strategy':<9} {'P':>2} {'round':>5} {'old g/s':>9} {'new g/s':>9} {'new/old':>8}")
    for players in (int(x) for x in args.players.split(",")):
        for strategy in args.strategies.split(","):
            olds, news, ratios = [], [], []
            for r in range(args.rounds):
                o = child_rate(old, players, strategy, args.games, args.repeats)
                n = child_rate(new, players, strategy, args.games, args.repeats)
                olds.append(o)
                news.append(n)
                ratios.append(n / o)
                print(f"{strategy:<9} {players:>2} {r + 1:>5} {o:>9,.0f} {n:>9,.0f} {n / o:>7.2f}x")
            print(
                f"{strategy:<9} {players:>2} {'med':>5} {statistics.median(olds):>9,.0f} "
                f"{statistics.median(news):>9,.0f} {statistics.median(ratios):>7.2f}x"
            )
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--plain-games", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--players", default="4")
    ap.add_argument("--strategies", default="greedy,random,perfect,hunter")
    ap.add_argument("--old", type=Path, help="a second checkout: side by side, alternating")
    ap.add_argument("--rounds", type=int, default=5, help="alternating runs (with --old)")
    args = ap.parse_args(argv)
    if args.old:
        side_by_side(args.old, args)
        return
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
