"""Experiment: the other games' versions of "spent on what cannot score" (issue 39
item 3), from the games table, 1,000 games per player count, the default against
the frozen baseline in every seat.

- Colorful Treasure: the share of seats that end holding key or chest cards
  (`treasure_cards` > 0) without any share of the treasure reward
  (`treasure_reward` = 0): those cards scored nothing (their markers may have
  stolen; a key or chest revealed must be taken, so this is the reveals' cost).
- Unearth: delver cards drawn and never played (`delvers_drawn - delvers_played`),
  per seat: cards left in hand score nothing (the default's `card_end` term lowers
  a kept card's worth as the ruins run out).

    python studies/2026-11-28-stronger-players/other_games_end.py --games 1000 --seed 39

Prints one JSON line per (game, strategy, players). Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json

import numpy as np


def _ci(x: np.ndarray) -> list[float]:
    m, se = x.mean(), x.std(ddof=1) / np.sqrt(len(x))
    return [round(m - 1.96 * se, 4), round(m + 1.96 * se, 4)]


def main(argv=None) -> None:
    import analyzer

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=39)
    a = ap.parse_args(argv)
    for game, names in (
        ("colorful_treasure", ("greedy", "baseline")),
        ("unearth", ("balanced", "baseline")),
    ):
        for name in names:
            for n in (2, 4):
                t = analyzer.simulate(n, [name] * n, a.games, a.seed, game=game)
                if game == "colorful_treasure":
                    x = ((t["treasure_cards"] > 0) & (t["treasure_reward"] == 0)).to_numpy(float)
                    what = "share of seats holding key/chest cards without the treasure reward"
                else:
                    x = (t["delvers_drawn"] - t["delvers_played"]).to_numpy(float)
                    what = "delver cards drawn and never played, per seat"
                print(
                    json.dumps(
                        {
                            "game": game,
                            "strategy": name,
                            "players": n,
                            "games": a.games,
                            "seed": a.seed,
                            "what": what,
                            "value": round(float(x.mean()), 4),
                            "ci95_seat_level": _ci(x),
                        }
                    )
                )


if __name__ == "__main__":
    main()
