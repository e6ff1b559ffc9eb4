"""Benchmark and experiment: how much faster ``analyzer tune`` ranks candidate rows
on luck-adjusted outcomes than on plain ones (issue 28, item 3).

CMA-ES ranks the candidates of a generation, all played on the same game indices
(common random numbers), so the noise that matters is that of the *difference*
between two rows' win shares over the same games. This script draws ``--rows``
rows of a strategy's parameters (the shipped row first, the others uniform in the
declared bounds, numpy Generator of ``--seed``), plays each on the same games, as
``tune`` does (the tuned seat rotated over every seat against the field), and
prints, for every row against the shipped one, the standard deviation of the
per-game paired difference, plain against adjusted. The games a trial needs for
the same ranking noise scale with the variance: (sd adjusted / sd plain)^2 is the
share of the games an adjusted run needs, its inverse how much faster it is.
Then it runs ``tune`` itself both ways with the same seed and budget and prints
the rows chosen and their confirmation (plain and adjusted gains on the same
fresh games).

    .venv/bin/python studies/2026-11-27-luck-adjusted-tuning/bench_tune_luck.py \\
        [--players 2] [--strategy balanced]
        [--rows 8] [--games 2000] [--seed 31] [--trials 16] [--trial-games 200]

Nothing is asserted; the machine is shared.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from analyzer.games import load_game
from analyzer.runs.driver import run_scenario
from analyzer.runs.scenario_file import parse_scenario
from analyzer.studies.tuning import _field, _search_space, format_result, parse_bounds, tune


def play_rows(game, players, strategy, rows, games, seed):
    """Per row: (plain wins, adjusted wins) of the tuned seat, by game."""
    g = load_game(game)
    fld = _field(g, strategy, None, players)
    fixed = g.strategy(strategy).params_for(players) if hasattr(g, "strategy") else None
    if fixed is None:
        fixed = {s.name: s for s in g.strategies}[strategy].params_for(players)
    out = []
    for row in rows:
        raw = {
            "game": g.name,
            "players": players,
            "games": games,
            "seed": seed,
            "lineup": [strategy, *fld],
            "rotation": "cyclic",
            "output": {"claims": False, "luck": True},
            "strategy_params": {strategy: {**fixed, **row}},
        }
        run = run_scenario(
            parse_scenario(raw, "bench", default_name="bench"),
            workers=1,
            progress=False,
            exact=False,
        )
        t = run.games
        mine = t[t["strategy"].astype(str) == strategy].sort_values("game")
        w = mine["win"].to_numpy(np.float64)
        out.append((w, w - mine["luck_win"].to_numpy(np.float64)))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="unearth")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--strategy", default="balanced")
    ap.add_argument("--rows", type=int, default=8)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--trials", type=int, default=16)
    ap.add_argument("--trial-games", type=int, default=200)
    a = ap.parse_args(argv)
    g = load_game(a.game)
    strat = {s.name: s for s in g.strategies}[a.strategy]
    names, defaults, lows, highs = _search_space(strat, None, parse_bounds(None), a.players)
    rng = np.random.default_rng(a.seed)
    rows = [dict(zip(names, map(float, defaults), strict=True))]
    for _ in range(a.rows - 1):
        x = lows + rng.random(len(names)) * (highs - lows)
        rows.append({p: round(float(v), 6) for p, v in zip(names, x, strict=True)})
    t0 = time.process_time()
    played = play_rows(a.game, a.players, a.strategy, rows, a.games, a.seed)
    print(
        f"{a.game}, {a.players} players, {a.strategy} against the default field, seats "
        f"rotated; {len(rows)} rows x {len(played[0][0])} games (seed {a.seed}), "
        f"{time.process_time() - t0:.1f} s CPU"
    )
    ratios = []
    p0, a0 = played[0]
    print("row | win share plain, adjusted | sd of the paired difference plain, adjusted | ratio")
    for k, (p, adj) in enumerate(played[1:], 1):
        sp, sa = np.std(p - p0, ddof=1), np.std(adj - a0, ddof=1)
        ratios.append(sa / sp)
        print(f"{k:3d} | {p.mean():.3f} {adj.mean():.3f} | {sp:.4f} {sa:.4f} | {sa / sp:.3f}")
    r = float(np.median(ratios))
    print(
        f"median sd ratio {r:.3f}: an adjusted trial ranks rows as precisely as a plain one "
        f"with {r * r:.2f}x the games ({1 / (r * r):.2f}x faster, the terms' cost aside)"
    )
    for luck in (False, True):
        t0 = time.process_time()
        res = tune(
            a.game,
            a.players,
            a.strategy,
            trials=a.trials,
            games=a.trial_games,
            confirm_games=a.games,
            seed=a.seed,
            luck=luck,
            command=["bench_tune_luck"],
        )
        print(f"\ntune luck={luck}: {time.process_time() - t0:.1f} s CPU")
        print(format_result(res))


if __name__ == "__main__":
    main()
