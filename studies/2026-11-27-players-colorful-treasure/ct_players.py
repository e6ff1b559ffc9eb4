"""Colorful Treasure: how strong is a player? (``docs/strategies.md``, "Colorful Treasure").

One seat plays ``--strategy`` (with ``--param NAME=VALUE`` overrides of its row), the
other seats ``--field``; the seat is rotated through every position on the same game
indices (common random numbers: game ``i`` deals the same grid in every rotation).
Per game index, the seat's win share averaged over the rotations; the mean over the
indices with a 95% interval (normal, 1.96 standard errors). Also the share of games
in which the seat took (a share of) each reward.

``--save FILE.npy`` writes the per-index win shares, and ``--paired FILE.npy`` prints
the paired difference with another run's (same players, games and seed; made with
this tree or another version of the analyzer): the difference between two players
on the same deals, which is what "against the previous version" means here.

    python studies/2026-11-27-players-colorful-treasure/ct_players.py \\
        --players 2 --strategy greedy --field baseline \\
        --games 10000 --seed 777
    python studies/2026-11-27-players-colorful-treasure/ct_players.py \\
        --players 4 --strategy random --field greedy \\
        --games 4000 --seed 5

Counts, not timings: the same arguments give the same figures on any machine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import analyzer


def measure(players, strategy, field, games, seed, params=None, workers=1):
    """Per game index: the seat's win share, treasure, gem and explorer rewards
    (each averaged over the seat's positions); and the CPU seconds spent."""
    win = np.zeros(games)
    rew = np.zeros((3, games))
    cpu = 0.0
    for seat in range(players):
        lineup = [field] * players
        lineup[seat] = strategy
        t0 = time.process_time()
        t = analyzer.simulate(
            players,
            lineup,
            games,
            seed,
            game="colorful_treasure",
            strategy_params=params or None,
            workers=workers,
        )
        cpu += time.process_time() - t0
        mine = t[t["seat"] == seat].sort_values("game")
        win += mine["win"].to_numpy(float) / players
        for i, col in enumerate(("treasure_reward", "gem_reward", "explorer_reward")):
            rew[i] += mine[col].to_numpy(float) / players
    return win, rew, cpu


def ci(x):
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    return f"{x.mean():.3f} [{x.mean() - half:.3f}, {x.mean() + half:.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--strategy", default="greedy")
    ap.add_argument("--field", default="baseline")
    ap.add_argument("--param", action="append", default=[], help="NAME=VALUE of the seat's row")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--save", help="write the per-index win shares (.npy)")
    ap.add_argument("--paired", help="a --save file to pair with (same games and seed)")
    a = ap.parse_args()
    params = {}
    for p in a.param:
        k, v = p.split("=")
        params[k] = float(v)
    sp = {a.strategy: params} if params else None
    win, rew, cpu = measure(a.players, a.strategy, a.field, a.games, a.seed, sp, a.workers)
    print(
        f"{a.strategy}{params or ''} in one seat against {a.field}, {a.players} players, "
        f"{a.games:,} game indices x {a.players} seats, seed {a.seed}"
    )
    print(f"  win share {ci(win)} (fair {1 / a.players:.3f})")
    print(f"  treasure reward {ci(rew[0])}, gem {ci(rew[1])}, explorer {ci(rew[2])}")
    print(f"  CPU {cpu:.1f} s")
    if a.save:
        np.save(a.save, win)
    if a.paired:
        other = np.load(a.paired)
        print(f"  paired difference (this minus {a.paired}): {ci(win - other)}")


if __name__ == "__main__":
    main()
