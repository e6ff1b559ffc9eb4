"""Colorful Treasure: one ``search`` seat against ``greedy``, 2 players, seats swapped.

Games ``0 .. games-1`` of one seed are played twice, ``search,greedy`` and
``greedy,search`` (common random numbers: the same deal and stream for both
seatings); the unit is the game index, its two win shares averaged. Prints the
search's win share with a normal 95% interval, CPU seconds per game and the
searched decisions per second.

    python studies/2026-11-27-players-colorful-treasure/ct_search_vs_greedy.py \\
        [--games 2000] [--seed 2026]
        [--budget 96] [--width 6] [--z 1.0]
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main(argv=None) -> None:
    from analyzer.colorful_treasure import search
    from analyzer.colorful_treasure.game import make_job, play_raw

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--budget", type=int)
    ap.add_argument("--width", type=int)
    ap.add_argument("--z", type=float)
    args = ap.parse_args(argv)
    settings = {
        k: getattr(args, k) for k in ("budget", "width", "z") if getattr(args, k) is not None
    }
    params = {"search": settings} if settings else None
    a = make_job(2, "search,greedy", seed=args.seed, strategy_params=params)
    b = make_job(2, "greedy,search", seed=args.seed, strategy_params=params)
    play_raw(a, 0, 1)  # compile or load the kernels
    outs: list = []
    t0 = time.process_time()
    _, wa, _, _ = play_raw(a, 0, args.games, search_out=outs)
    _, wb, _, _ = play_raw(b, 0, args.games, search_out=outs)
    sec = time.process_time() - t0
    x = (wa[0::2] + wb[1::2]) / 2
    m = float(x.mean())
    se = float(x.std(ddof=1) / np.sqrt(len(x)))
    count = outs[0].count + outs[1].count
    dec = int(count[search.K_DECISIONS])
    print(
        f"search vs greedy, 2 players, seed {args.seed}, {args.games} game indices x 2 seatings, "
        f"settings {settings or 'default'}: search's win share {m:.3f} "
        f"[{m - 1.96 * se:.3f}, {m + 1.96 * se:.3f}]; {sec / (2 * args.games):.4f} CPU-s/game; "
        f"{dec / (2 * args.games):.1f} searched decisions/game "
        f"({count[search.K_CHANGED] / max(dec, 1):.0%} not greedy's), "
        f"{dec / sec:.0f} decisions/CPU-s"
    )


if __name__ == "__main__":
    main()
