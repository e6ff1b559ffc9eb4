"""Uruk: does a fresh random search beat the default player? (``docs/strategies.md``, "Uruk")

Draws ``--rows`` parameter rows uniformly within the declared tuning ranges
(``analyzer/uruk/data/tuning.toml``), plays each in one seat against the default
strategy (``balanced`` with its shipped row for this player count) in every
other seat, the seat rotated, every row on the same games (common random
numbers). The best ``--replay`` rows are played again on fresh games (game
indices after the search's), each with a 95% interval, beside the fair share.
A candidate row plays under the name ``builder`` (every strategy but ``random``
and ``baseline`` runs the same code: the name only picks the row, here fully
overridden).

    python studies/2026-11-27-players-uruk/uruk_random_search.py \\
        --players 2 --rows 60 --games 2000 \\
        --replay-games 6000 --seed 60

Counts, not timings: the same arguments give the same figures on any machine.
"""

from __future__ import annotations

import argparse

import numpy as np

from analyzer.games.data import read_bounds
from analyzer.uruk.defaults import PARAM_NAMES
from analyzer.uruk.game import simulate

TUNED = PARAM_NAMES[1:]  # not ``uniform`` (the random player's switch)


def share(row: dict, players: int, games: int, seed: int, first: int) -> np.ndarray:
    """Per game, the candidate's win share averaged over its seats."""
    w = np.zeros(games)
    for k in range(players):
        lineup = ["balanced"] * players
        lineup[k] = "builder"
        t = simulate(
            players, lineup, games, seed=seed, first_game=first,
            strategy_params={"builder": row},
        )  # fmt: skip
        w += t.loc[t["seat"] == k, "win"].to_numpy() / players
    return w


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rows", type=int, default=60)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--replay", type=int, default=3)
    ap.add_argument("--replay-games", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=60)
    args = ap.parse_args(argv)
    bounds = {p: (lo, hi) for p, lo, hi in read_bounds("analyzer.uruk", PARAM_NAMES)}
    rng = np.random.default_rng(args.seed)
    fair = 1 / args.players
    found = []
    for i in range(args.rows):
        row = {p: float(rng.uniform(*bounds[p])) for p in TUNED} | {"uniform": 0.0}
        m = share(row, args.players, args.games, args.seed, 0).mean()
        found.append((m, i, row))
    found.sort(key=lambda x: -x[0])
    print(
        f"{args.rows} random rows, {args.players} players, {args.games} games x "
        f"{args.players} seatings against balanced, seed {args.seed}; fair {fair:.3f}"
    )
    print(f"  search: best {found[0][0]:.3f} ({100 * (found[0][0] - fair):+.1f} points), "
          f"median {np.median([f[0] for f in found]):.3f}")  # fmt: skip
    for m, i, row in found[: args.replay]:
        w = share(row, args.players, args.replay_games, args.seed, args.games)
        h = 1.96 * w.std(ddof=1) / np.sqrt(len(w))
        text = ", ".join(f"{p} = {row[p]:.3f}" for p in TUNED)
        print(
            f"  row {i} (search {m:.3f}): fresh {w.mean():.3f} [{w.mean() - h:.3f}, "
            f"{w.mean() + h:.3f}] over {args.replay_games} games ({text})"
        )


if __name__ == "__main__":
    main()
