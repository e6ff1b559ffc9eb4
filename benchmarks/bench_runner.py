"""Batch runner benchmark: games/s on 1 and 2 workers, and peak memory of an aggregate-only run.

Prints figures, asserts nothing. Uses the Unearth ``GameJob`` when
``analyzer.unearth.game`` is importable, else a numpy coin-flip toy job.

    .venv/bin/python benchmarks/bench_runner.py                       # defaults
    .venv/bin/python benchmarks/bench_runner.py --games 40000 --strategy balanced
    .venv/bin/python benchmarks/bench_runner.py --memory-games 10000000 --skip-speed

The speed runs keep only aggregates (``keep_tables=False``), like
``analyzer simulate`` without ``--out``. The kernels are compiled (or loaded
from the numba cache) in this process first, so workers load a warm cache; the
2-worker wall time still includes starting the worker processes, which is
measured separately as ``startup``. Peak memory is measured in a fresh
subprocess (``resource.getrusage``: max RSS of that process, and of its largest
worker child), so the speed runs do not inflate it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.runs.runner import RunOptions, run
from analyzer.runs.simulate import headline, reduce_games


@dataclass(frozen=True)
class ToyJob:
    """Fallback job: seeded coin-flip games (same columns as the summary needs)."""

    seed: int
    players: int = 4

    def __call__(self, start: int, count: int) -> dict[str, pd.DataFrame]:
        n = self.players
        scores = np.empty((count, n), dtype=np.int16)
        for k in range(count):
            scores[k] = np.random.default_rng([self.seed, start + k]).binomial(60, 0.5, n)
        top = scores == scores.max(axis=1, keepdims=True)
        win = (top / top.sum(axis=1, keepdims=True)).astype(np.float32)
        games = pd.DataFrame(
            {
                "game": np.repeat(np.arange(start, start + count, dtype=np.int64), n),
                "seat": np.tile(np.arange(n, dtype=np.int8), count),
                "strategy": np.tile(np.array(["toy"] * n), count),
                "score": scores.reshape(-1),
                "win": win.reshape(-1),
            }
        )
        return {"games": games}


def make_job(strategy: str, players: int, seed: int):
    """``(job, description)``: the Unearth game job if available, else the toy."""
    try:
        from analyzer.unearth.game import make_job as unearth_job
    except ImportError:
        return ToyJob(seed, players), f"toy coin-flip job, {players} seats"
    job = unearth_job(players, strategy, seed, claims=False)
    return job, f"Unearth GameJob, {players} players, strategy {strategy}"


def timed(job, games: int, workers: int, batch_size: int) -> tuple[float, float]:
    """``(wall seconds, games/s)`` of an aggregate-only run."""
    opts = RunOptions(
        games=games,
        seed=0,
        batch_size=batch_size,
        workers=workers,
        keep_tables=False,
        progress=False,
    )
    t0 = time.perf_counter()
    res = run(job, opts, reduce_games, headline)
    wall = time.perf_counter() - t0
    return wall, res.games / wall


def memory_child(args) -> None:
    """Run one aggregate-only run and print peak RSS figures as JSON (subprocess)."""
    job, _ = make_job(args.strategy, args.players, 1)
    opts = RunOptions(
        games=args.memory_games,
        seed=1,
        batch_size=args.batch_size,
        workers=args.workers,
        keep_tables=False,
        progress=False,
    )
    t0 = time.perf_counter()
    res = run(job, opts, reduce_games, headline)
    wall = time.perf_counter() - t0
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({"games": res.games, "seconds": wall, "self_mb": own, "child_mb": kids}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000, help="games per speed run")
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--strategy", default="random")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--memory-games", type=int, default=200000)
    parser.add_argument("--workers", type=int, default=2, help="workers of the memory run")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--memory-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        memory_child(args)
        return

    job, what = make_job(args.strategy, args.players, 7)
    print(f"job: {what}; batch size {args.batch_size}; {os.cpu_count()} cores")
    if not args.skip_speed:
        t0 = time.perf_counter()
        job(0, 2)  # compile or load the numba cache here, so workers find it warm
        print(f"compile/load in this process: {time.perf_counter() - t0:.1f} s")
        timed(job, 2, 2, 1)  # workers load (or, if stale, compile) the cache once
        startup, _ = timed(job, 2, 2, 1)
        print(f"startup of 2 worker processes (2 one-game batches): {startup:.2f} s")
        w1, r1 = timed(job, args.games, 1, args.batch_size)
        print(f"1 worker : {args.games:,} games in {w1:.2f} s = {r1:,.0f} games/s")
        w2, r2 = timed(job, args.games, 2, args.batch_size)
        print(f"2 workers: {args.games:,} games in {w2:.2f} s = {r2:,.0f} games/s")
        print(f"speed-up 2 vs 1 workers: {r2 / r1:.2f}x (target 1.8x)")
        if w2 > startup:
            steady = args.games / (w2 - startup)
            print(f"  without worker startup: {steady:,.0f} games/s = {steady / r1:.2f}x")
    if not args.skip_memory:
        # two sizes: bounded memory means the peak does not grow with the games
        for games in (max(args.memory_games // 10, 1), args.memory_games):
            cmd = [sys.executable, str(Path(__file__).resolve()), "--memory-child"]
            cmd += ["--memory-games", str(games), "--batch-size", str(args.batch_size)]
            cmd += ["--strategy", args.strategy, "--players", str(args.players)]
            cmd += ["--workers", str(args.workers)]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            fig = json.loads(out.strip().splitlines()[-1])
            print(
                f"aggregate-only run of {fig['games']:,} games on {args.workers} workers: "
                f"{fig['seconds']:.1f} s; peak RSS main {fig['self_mb']:.0f} MB, "
                f"largest worker {fig['child_mb']:.0f} MB"
            )


if __name__ == "__main__":
    main()
