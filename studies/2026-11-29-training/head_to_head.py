"""Experiment: one seat of strategy ``--a`` against ``--b`` in every other seat,
Uruk, seats rotated, common random numbers.

Every game index is played once per seat order (``--a`` in each seat in turn, the
same game indices and seed: common random numbers); the unit is the game index,
whose value is ``--a``'s win share averaged over the orders, so the 95% interval
is over independent game indices. Prints one JSON line (win share, interval, the
fair share 1/players, mean score of each side, CPU seconds per game).

    python studies/2026-11-29-training/head_to_head.py --a trained --b balanced \\
        --players 2 --games 300 --seed 41 --weights /tmp/train/weights.toml
    python studies/2026-11-29-training/head_to_head.py --a search --b trained \\
        --players 2 --games 150 --seed 41

``--weights`` (a ``weights.toml`` written by ``analyzer train``) makes ``trained``
play those weights instead of the shipped ones (the rollouts of ``search`` play
``balanced`` as always). Copied from 2026-11-28-stronger-players, with ``--weights``.

``search`` plays at its default settings unless ``--budget``/``--width`` are given.
Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def main(argv=None) -> None:
    from analyzer.uruk import engine
    from analyzer.uruk.game import make_job, play_raw

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="balanced")
    ap.add_argument("--b", default="balanced_v3")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--budget", type=int, default=None)
    ap.add_argument("--width", type=int, default=None)
    ap.add_argument("--weights", default=None)
    a = ap.parse_args(argv)
    if a.weights:
        import tomllib

        from analyzer.uruk import game

        table = next(iter(tomllib.loads(open(a.weights).read())["trained"].values()))
        fitted = np.array(table["weights"], float)
        game.trained_weights = lambda n: fitted
    settings = {k: v for k, v in (("budget", a.budget), ("width", a.width)) if v is not None}
    params = {"search": settings} if settings else None
    n = a.players
    wins = np.zeros(a.games)
    mine = np.zeros(a.games)
    theirs = np.zeros(a.games)
    cpu = 0.0
    for seat in range(n):
        strategies = [a.b] * n
        strategies[seat] = a.a
        job = make_job(n, strategies, seed=a.seed, strategy_params=params)
        if seat == 0:
            job.warm_up()
        t0 = time.process_time()
        results, w, _ = play_raw(job, a.start, a.games)
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
                "a": a.a,
                "b": a.b,
                "players": n,
                "game_indices": a.games,
                "games": a.games * n,
                "start": a.start,
                "seed": a.seed,
                "search": settings or "defaults",
                "weights": a.weights or "shipped",
                "win": round(m, 4),
                "ci95": [round(m - 1.96 * se, 4), round(m + 1.96 * se, 4)],
                "fair": round(1 / n, 4),
                "score_a": round(mine.mean(), 2),
                "score_b": round(theirs.mean(), 2),
                "cpu_s_per_game": round(cpu / (n * a.games), 5),
            }
        )
    )


if __name__ == "__main__":
    main()
