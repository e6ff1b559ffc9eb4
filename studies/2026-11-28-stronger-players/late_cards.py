"""Experiment: the end game seen (issue 39 item 3). Per strategy and player count,
the share of a strategy's seats that take a card after Uruk's end is triggered
and never make it (all such seats, and those that chose it while another action
was legal), over ``--games`` games of all-``strategy`` tables.

    python studies/2026-11-28-stronger-players/late_cards.py --games 1000 --seed 4601

Prints one JSON line per (strategy, players). Nothing here is asserted
(tests/uruk/test_uruk_end_game.py holds the bound).
"""

from __future__ import annotations

import argparse
import json


def main(argv=None) -> None:
    from analyzer.uruk.strategies_end import late_card_share

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=4601)
    ap.add_argument("--strategies", default="balanced,balanced_v3,builder,hoarder")
    a = ap.parse_args(argv)
    for name in a.strategies.split(","):
        for n in (2, 3, 4):
            r = late_card_share(n, a.games, strategy=name, seed=a.seed)
            lo, hi = r.ci95()
            print(
                json.dumps(
                    {
                        "strategy": name,
                        "players": n,
                        "games": a.games,
                        "seed": a.seed,
                        "seats": r.seats,
                        "share": round(r.share, 4),
                        "ci95": [round(lo, 4), round(hi, 4)],
                        "chosen_share": round(r.chosen_share, 4),
                        "cards_per_seat": round(r.cards / r.seats, 3),
                    }
                )
            )


if __name__ == "__main__":
    main()
