"""Experiment: the end game seen in Unearth and Colorful Treasure (issue 39 item 3).

Per game, strategy and player count (2, 3, 4), over ``--games`` games of
all-``strategy`` tables:

- Unearth (:func:`analyzer.unearth.end_game.late_stone_share`): the share of
  seats that placed a stone after the end-of-age card was revealed on a cell
  closing no ring while another cell would have closed one (a wonder given up
  with the end certain), and of them those whose pursued ring never closed;
- Colorful Treasure (:func:`analyzer.colorful_treasure.end_game.late_turn_share`):
  the share of seats with a turn after the end was triggered that changed
  nothing in their final score, and of them those that chose it (an optional
  reveal found the key or chest, safe cards were left, or it took nothing when
  it could take something); also under the ruling ``take = optional``, where
  ``random`` sometimes takes nothing (the statistic's failing case).

    python studies/2026-11-29-end-game/end_game.py --games 1000 --seed 39

Prints one JSON line per (game, strategy, players, rulings). Nothing here is
asserted (tests/unearth/test_unearth_end_game.py and
tests/colorful_treasure/test_ct_end_game.py hold the bounds).
"""

from __future__ import annotations

import argparse
import json
import time


def _r(x: float) -> float:
    return round(float(x), 4)


def main(argv=None) -> None:
    from analyzer.colorful_treasure.end_game import late_turn_share
    from analyzer.colorful_treasure.rules import load_rules
    from analyzer.core.stats import wilson
    from analyzer.unearth.end_game import late_stone_share

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--game", choices=("unearth", "colorful_treasure", "both"), default="both")
    a = ap.parse_args(argv)
    if a.game in ("unearth", "both"):
        for name in ("balanced", "baseline", "random"):
            for n in (2, 3, 4):
                t0 = time.process_time()
                r = late_stone_share(n, a.games, strategy=name, seed=a.seed)
                print(
                    json.dumps(
                        {
                            "game": "unearth",
                            "strategy": name,
                            "players": n,
                            "games": a.games,
                            "seed": a.seed,
                            "seats": r.seats,
                            "share": _r(r.share),
                            "ci95": [_r(x) for x in r.ci95()],
                            "unpaid_share": _r(r.unpaid_share),
                            "unpaid_ci95": [_r(x) for x in wilson(r.unpaid, r.seats)],
                            "stones_giving_up_a_ring": r.stones,
                            "late_stones": r.late,
                            "cpu_s": round(time.process_time() - t0, 1),
                        }
                    ),
                    flush=True,
                )
    if a.game in ("colorful_treasure", "both"):
        optional = load_rules({"take": "optional"})
        for rulings, rules in (("default", None), ("take=optional", optional)):
            for name in ("greedy", "baseline", "random"):
                for n in (2, 3, 4):
                    t0 = time.process_time()
                    r = late_turn_share(n, a.games, strategy=name, seed=a.seed, rules=rules)
                    print(
                        json.dumps(
                            {
                                "game": "colorful_treasure",
                                "rulings": rulings,
                                "strategy": name,
                                "players": n,
                                "games": a.games,
                                "seed": a.seed,
                                "seats": r.seats,
                                "seats_with_a_late_turn": r.late_seats,
                                "chosen_share": _r(r.chosen_share),
                                "chosen_ci95": [_r(x) for x in r.ci95()],
                                "share": _r(r.share),
                                "ci95": [_r(x) for x in r.ci95(chosen=False)],
                                "turns_scoring_nothing": r.turns,
                                "late_turns": r.late,
                                "cpu_s": round(time.process_time() - t0, 1),
                            }
                        ),
                        flush=True,
                    )


if __name__ == "__main__":
    main()
