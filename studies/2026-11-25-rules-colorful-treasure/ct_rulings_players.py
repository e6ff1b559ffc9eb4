"""Colorful Treasure: do the players that read a ruling play it better than the same
players valuing it as under the default? (``docs/games/colorful_treasure.md``,
"Players and memory", ruling ``steal_pairs``.)

Under ``steal_pairs = cards`` a ``greedy``, ``perfect`` or ``hunter`` seat values a
stolen key or chest card that completes one of its pairs (it brings another steal)
and takes such a card first. The reference is the same strategy valuing steals as
under ``markers`` (plan ``EXPECT_PLAIN``, used by no strategy). Each game is played
twice on the same seed, the ruling-aware seats at seats 0 and 2, then at 1 and 3;
per game, the difference of the two groups' mean win share and score, averaged over
the two seatings; the mean over games with a 95% interval (normal, 1.96 standard
errors).

    python studies/2026-11-25-rules-colorful-treasure/ct_rulings_players.py \\
        [--games 20000] [--seed 1]
        [--strategies greedy perfect hunter] [--tiles none b]

Counts, not timings: the same arguments give the same figures on any machine.
"""

from __future__ import annotations

import argparse

import numpy as np

from analyzer.colorful_treasure import engine
from analyzer.colorful_treasure.codes import SCALE, Plan
from analyzer.colorful_treasure.game import make_job, play_raw
from analyzer.colorful_treasure.rules import load_rules

PLAYERS = 4


def play(job, plans, games: int):
    """``(results, wins)`` of games ``0 .. games-1`` of ``job`` with seat plans ``plans``."""
    results, wins, _, _ = play_raw(job, 0, games, plans=plans)
    if (results[:, engine.R_BAD] != 0).any():
        raise RuntimeError("an engine invariant failed")
    return results, wins


def compare(strategy: str, tiles: str, games: int, seed: int) -> dict:
    rules = load_rules({"steal_pairs": "cards", "tiles": tiles})
    job = make_job(PLAYERS, strategy, seed=seed, rules=rules, steals=False)
    aware = np.array([1, 0, 1, 0], bool)
    win_d = np.zeros(games)
    score_d = np.zeros(games)
    steals = np.zeros(2)
    for mask in (aware, ~aware):
        plans = np.where(mask, Plan.EXPECT, Plan.EXPECT_PLAIN).astype(np.int64)
        results, wins = play(job, plans, games)
        w = wins.reshape(games, PLAYERS)
        sc = results[:, engine.R_SCORE].reshape(games, PLAYERS) / SCALE
        st = results[:, engine.R_STEALS].reshape(games, PLAYERS)
        win_d += (w[:, mask].mean(axis=1) - w[:, ~mask].mean(axis=1)) / 2
        score_d += (sc[:, mask].mean(axis=1) - sc[:, ~mask].mean(axis=1)) / 2
        steals += [st[:, mask].mean() / 2, st[:, ~mask].mean() / 2]
    half = 1.96 / np.sqrt(games)
    return {
        "win": (win_d.mean(), half * win_d.std(ddof=1)),
        "score": (score_d.mean(), half * score_d.std(ddof=1)),
        "steals": steals,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategies", nargs="+", default=["greedy", "perfect", "hunter"])
    ap.add_argument("--tiles", nargs="+", default=["none", "b"])
    args = ap.parse_args()
    print(
        f"steal_pairs = cards, {PLAYERS} players, {args.games} games x 2 seatings, "
        f"seed {args.seed}: ruling-aware seats less the reference seats\n"
    )
    print("| strategy | tiles | win share (95%) | score (95%) | steals a seat: aware, reference |")
    print("|---|---|---|---|---|")
    for tiles in args.tiles:
        for strategy in args.strategies:
            r = compare(strategy, tiles, args.games, args.seed)
            (w, wh), (sc, sh) = r["win"], r["score"]
            a, p = r["steals"]
            print(
                f"| {strategy} | {tiles} | {w:+.4f} ± {wh:.4f} | {sc:+.3f} ± {sh:.3f} "
                f"| {a:.3f}, {p:.3f} |"
            )


if __name__ == "__main__":
    main()
