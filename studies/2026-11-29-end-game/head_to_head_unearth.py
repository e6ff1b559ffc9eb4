"""Experiment: one Unearth seat playing ``balanced``'s row with some parameters
changed (``--set card_end=1.0``) against the shipped ``balanced`` in every other
seat, seats rotated, common random numbers.

The variant seat is ``collector`` carrying ``balanced``'s row for the player
count with the changes (``collector`` and ``balanced`` share one evaluation:
with the same row they play the same games, checked here before the run). Every
game index is played once per seat order, the same game indices and seed; the
unit is the game index, whose value is the variant's win share averaged over
the orders, so the 95% interval is over independent game indices.

    python studies/2026-11-29-end-game/head_to_head_unearth.py --players 4 --games 1000 \\
        --seed 39 --set card_end=1.0

Prints one JSON line. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def main(argv=None) -> None:
    from analyzer.unearth import engine
    from analyzer.unearth.defaults import PARAM_NAMES, rows_by_players
    from analyzer.unearth.game import make_job, play_raw

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--set", action="append", default=[], help="name=value, a row change")
    a = ap.parse_args(argv)
    n = a.players
    rows = dict(rows_by_players("balanced"))
    row = dict(zip(PARAM_NAMES, rows[max(k for k in rows if k <= n)], strict=True))
    same = {"collector": dict(row)}
    for kv in a.set:
        k, v = kv.split("=")
        row[k] = float(v)
    # the carrier plays balanced's games with balanced's row
    r0 = play_raw(make_job(n, ["balanced"] * n, seed=a.seed), 0, 20)[0]
    r1 = play_raw(make_job(n, ["collector"] * n, seed=a.seed, strategy_params=same), 0, 20)[0]
    assert np.array_equal(r0, r1), "collector with balanced's row must play as balanced"
    params = {"collector": row}
    wins = np.zeros(a.games)
    mine = np.zeros(a.games)
    theirs = np.zeros(a.games)
    cpu = 0.0
    for seat in range(n):
        strategies = ["balanced"] * n
        strategies[seat] = "collector"
        job = make_job(n, strategies, seed=a.seed, strategy_params=params)
        t0 = time.process_time()
        results, w, _c, _s = play_raw(job, a.start, a.games)
        cpu += time.process_time() - t0
        score = results[:, engine.R_SCORE].reshape(a.games, n)
        wins += w.reshape(a.games, n)[:, seat] / n
        mine += score[:, seat] / n
        theirs += (score.sum(axis=1) - score[:, seat]) / (n - 1) / n
    m = wins.mean()
    se = wins.std(ddof=1) / np.sqrt(a.games)
    print(
        json.dumps(
            {
                "a": "balanced with " + ", ".join(a.set),
                "b": "balanced",
                "players": n,
                "game_indices": a.games,
                "games": a.games * n,
                "seed": a.seed,
                "win": round(m, 4),
                "ci95": [round(m - 1.96 * se, 4), round(m + 1.96 * se, 4)],
                "fair": round(1 / n, 4),
                "score_a": round(mine.mean(), 2),
                "score_b": round(theirs.mean(), 2),
                "cpu_s_per_game": round(cpu / (n * a.games), 5),
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
