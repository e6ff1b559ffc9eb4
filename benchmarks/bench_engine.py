"""Benchmark: whole games per second on one core, jitted vs NUMBA_DISABLE_JIT=1.

Prints, for each strategy and player count, games/s of the jitted engine (median
of several timed runs after warm-up) and of the same code run as plain Python
(in a subprocess with NUMBA_DISABLE_JIT=1, fewer games), and their ratio. Also
the memory of the per-game table, scaled to a million games.

    python benchmarks/bench_engine.py [--games N] [--plain-games N] [--repeats N]
        [--players 2,3,4] [--strategies random,claimer,collector,balanced]

Nothing here is asserted: the machines are shared and noisy; compare figures
side by side from one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def time_games(players: int, strategy: str, games: int, repeats: int, seed: int = 1) -> list[float]:
    """Seconds for ``games`` games, ``repeats`` times (the first call warms up)."""
    from analyzer.unearth.game import simulate

    simulate(players, strategy, 2, seed=seed)  # compile / load the cache
    out = []
    for r in range(repeats):
        t0 = time.perf_counter()
        simulate(players, strategy, games, seed=seed + r, first_game=0)
        out.append(time.perf_counter() - t0)
    return out


def plain_rate(players: int, strategy: str, games: int) -> float:
    """games/s of the engine with the JIT disabled (subprocess, one timed run)."""
    code = (
        "import time, sys; from analyzer.unearth.game import simulate; "
        f"simulate({players}, {strategy!r}, 1, seed=9); t0 = time.perf_counter(); "
        f"simulate({players}, {strategy!r}, {games}, seed=1); "
        "print(time.perf_counter() - t0)"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    res = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return games / float(res.stdout.strip().splitlines()[-1])


def table_memory(players: int, games: int = 20_000) -> float:
    """Bytes per game of the per-(game, seat) table, measured on ``games`` games."""
    from analyzer.unearth.game import simulate

    df = simulate(players, "random", games, seed=3)
    return df.memory_usage(deep=True).sum() / games


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--plain-games", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--strategies", default="random,claimer,collector,balanced")
    ap.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = ap.parse_args(argv)
    rows = []
    print(f"{'strategy':<10} {'players':>7} {'jit games/s':>12} {'plain games/s':>14} {'ratio':>8}")
    for strategy in args.strategies.split(","):
        for players in (int(p) for p in args.players.split(",")):
            games = args.games * (10 if strategy == "random" else 1)
            times = time_games(players, strategy, games, args.repeats)
            jit = games / statistics.median(times)
            plain = plain_rate(players, strategy, args.plain_games)
            rows.append(
                {
                    "strategy": strategy,
                    "players": players,
                    "jit": jit,
                    "plain": plain,
                    "ratio": jit / plain,
                }
            )
            print(f"{strategy:<10} {players:>7} {jit:>12.0f} {plain:>14.2f} {jit / plain:>8.0f}x")
            sys.stdout.flush()
    per_game = table_memory(4)
    print(
        f"per-game table, 4 players: {per_game:.0f} bytes/game -> "
        f"{per_game * 1e6 / 2**30:.2f} GiB for a million games"
    )
    if args.json:
        print(json.dumps({"rows": rows, "bytes_per_game_4p": per_game}))


if __name__ == "__main__":
    main()
