"""Colorful Treasure: does a fresh random search find a row that beats the default player?

Draws ``--rows`` parameter rows uniformly within the declared bounds
(``data/tuning.toml``; ``recall`` fixed at the default player's: memory is the
person's, not a skill) and plays each in one seat against the default strategy in
the other seats, the seat rotated through every position, every row on the same
game indices (common random numbers). The searched row plays as ``perfect`` with
its whole row overridden (the same plan as ``greedy`` and ``hunter``: only the row
differs), so the field keeps the default's shipped row. The best ``--replay`` rows
are then played again on fresh games (``--replay-games`` indices from
``--games``): their win shares there, with 95% intervals, are the figures to read,
since the best of many noisy rows is flattered by its own games.

    python studies/2026-11-27-players-colorful-treasure/ct_random_search.py \\
        --players 2 --rows 60 --games 2000 --seed 31
    python studies/2026-11-27-players-colorful-treasure/ct_random_search.py \\
        --players 4 --rows 60 --games 1000 --seed 32

Counts, not timings: the same arguments give the same figures on any machine.
"""

from __future__ import annotations

import argparse

import numpy as np

import analyzer
from analyzer.colorful_treasure.codes import PARAM_NAMES
from analyzer.games import load_game
from analyzer.games.data import read_bounds


def play(players, row, field, games, seed, first_game=0):
    """Per game index: the row's seat's win share, averaged over its positions."""
    win = np.zeros(games)
    for seat in range(players):
        lineup = [field] * players
        lineup[seat] = "perfect"
        t = analyzer.simulate(
            players,
            lineup,
            games,
            seed,
            game="colorful_treasure",
            strategy_params={"perfect": row},
            first_game=first_game,
        )
        mine = t[t["seat"] == seat].sort_values("game")
        win += mine["win"].to_numpy(float) / players
    return win


def ci(x):
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    return f"{x.mean():.3f} [{x.mean() - half:.3f}, {x.mean() + half:.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rows", type=int, default=60)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--replay", type=int, default=3)
    ap.add_argument("--replay-games", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=31)
    a = ap.parse_args()
    g = load_game("colorful_treasure")
    field = g.default_strategy
    recall = dict(g.strategies[[s.name for s in g.strategies].index(field)].params)["recall"]
    bounds = read_bounds("analyzer.colorful_treasure", PARAM_NAMES)
    rng = np.random.default_rng([a.seed, a.players])
    rows = [
        {"recall": recall, **{p: round(float(rng.uniform(lo, hi)), 4) for p, lo, hi in bounds}}
        for _ in range(a.rows)
    ]
    fair = 1 / a.players
    print(
        f"{a.rows} random rows in one seat against {field} (its shipped {a.players}-player "
        f"row), {a.players} players, {a.games:,} game indices x {a.players} seats, "
        f"seed {a.seed}; fair share {fair:.3f}"
    )
    shares = [play(a.players, r, field, a.games, a.seed).mean() for r in rows]
    order = np.argsort(shares)[::-1]
    for i in order[:5]:
        print(f"  search {shares[i]:.3f} ({100 * (shares[i] - fair):+.1f} points): {rows[i]}")
    print(f"  median of the {a.rows} rows: {np.median(shares):.3f}")
    print(f"replayed on {a.replay_games:,} fresh game indices (from game {a.games}):")
    for i in order[: a.replay]:
        w = play(a.players, rows[i], field, a.replay_games, a.seed, first_game=a.games)
        print(f"  {ci(w)} ({100 * (w.mean() - fair):+.1f} points): {rows[i]}")


if __name__ == "__main__":
    main()
