"""Side-by-side games/s of two checkouts of the analyzer, alternating runs.

The shared machines change speed by up to 2x within minutes, so figures taken at
different times cannot be compared; this runs each checkout in its own process,
alternating, with the same games, and prints every run:

    git worktree add /tmp/old <commit>
    .venv/bin/python benchmarks/compare_builds.py /tmp/old . --strategies random,balanced

Each checkout uses its own numba cache (the cache directory is keyed on the
sources), so the first run of a checkout may compile for minutes. Nothing is
asserted.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

_CHILD = """
import sys, time
sys.path.insert(0, {root!r})
import analyzer
assert analyzer.__file__.startswith({root!r}), analyzer.__file__
from analyzer.unearth.game import make_job, play_raw
job = make_job({players}, {strategy!r}, seed=1, claims=False)
play_raw(job, 0, 1)
best = []
for _ in range({repeats}):
    t0 = time.perf_counter()
    play_raw(job, 0, {games})
    best.append({games} / (time.perf_counter() - t0))
print(sorted(best)[len(best) // 2])
"""


def rate(root: Path, strategy: str, players: int, games: int, repeats: int) -> float:
    """Median games/s of ``repeats`` batches of ``games`` games in checkout ``root``."""
    code = _CHILD.format(
        root=str(root.resolve()), strategy=strategy, players=players, games=games, repeats=repeats
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/"
    )
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--strategies", default="random,claimer,collector,balanced")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=300, help="per batch (x10 for random)")
    ap.add_argument("--repeats", type=int, default=5, help="batches per run")
    ap.add_argument("--rounds", type=int, default=2, help="alternating runs of each")
    args = ap.parse_args(argv)
    print(f"{'strategy':<10} {'round':>5} {'old games/s':>12} {'new games/s':>12} {'new/old':>8}")
    for strategy in args.strategies.split(","):
        games = args.games * (10 if strategy == "random" else 1)
        ratios = []
        for r in range(args.rounds):
            old = rate(args.old, strategy, args.players, games, args.repeats)
            new = rate(args.new, strategy, args.players, games, args.repeats)
            ratios.append(new / old)
            print(f"{strategy:<10} {r + 1:>5} {old:>12,.0f} {new:>12,.0f} {new / old:>7.2f}x")
        print(f"{strategy:<10} {'med':>5} {'':>12} {'':>12} {statistics.median(ratios):>7.2f}x")


if __name__ == "__main__":
    main()
