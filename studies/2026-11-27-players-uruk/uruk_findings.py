"""Uruk: what the players change in the game's findings (``docs/strategies.md``, "Uruk").

Every seat ``baseline`` (strategies version 1), then every seat ``balanced``
(version 2), on the same games, under both readings of
``settlement_on_replace``, at 2 and 4 players: mean score, the first seat's
win share (95% interval), turns per seat, resources left, trades, card
actions, robberies, cities and points from resources.

    python studies/2026-11-27-players-uruk/uruk_findings.py [--games 4000] [--seed 20260126]

Counts, not timings: the same arguments give the same figures on any machine.
"""

from __future__ import annotations

import argparse

import numpy as np

from analyzer.uruk.game import simulate
from analyzer.uruk.rules import load_rules


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=20260126)
    args = ap.parse_args(argv)
    for n in (2, 4):
        for rule in ("moves", "to_pool"):
            rules = load_rules({}, rulings={"settlement_on_replace": rule})
            for st in ("baseline", "balanced"):
                t = simulate(n, st, args.games, seed=args.seed, rules=rules)
                w0 = t[t.seat == 0].win.to_numpy()
                h = 1.96 * w0.std() / np.sqrt(len(w0))
                print(
                    f"{n}p {rule:8s} {st:9s} score {t.score.mean():.2f} seat0 win "
                    f"{w0.mean():.3f} +-{h:.3f} turns {t.game_turns.mean() / n:.1f}/seat "
                    f"res_left {t.resources_left.mean():.1f} traded>0 {(t.traded > 0).mean():.3f} "
                    f"card_actions {t.card_actions.mean():.3f} robbed {t.robbed.mean():.2f} "
                    f"cities {t.cities.mean():.2f} pts_res {t.pts_resources.mean():.2f}"
                )


if __name__ == "__main__":
    main()
