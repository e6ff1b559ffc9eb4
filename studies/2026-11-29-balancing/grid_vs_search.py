"""Cheaper than a grid? The balance search against a plain paired grid, same run.

The search (``analyzer.studies.balance``: a 5-value grid, then 3 values around the
first root, the root's 95% interval a bootstrap over games) is run with a budget;
its interval's width is the precision to reach. A plain grid then plays every
allowed value of the knob on the same seed (common random numbers), the same games
at every value, fitted the same way; its games per value double until its interval
is as narrow. Both are counted in games that decide the interval (the search's
grid and refinement, the plain grid's every value).

    PYTHONPATH=. python studies/2026-11-29-balancing/grid_vs_search.py coin
    PYTHONPATH=. python studies/2026-11-29-balancing/grid_vs_search.py \
        unearth [W PATH LOW HIGH [GAMES]]

GAMES replaces the question's budget (the search's), to keep a run to minutes.
"""

from __future__ import annotations

import sys
import time

import numpy as np

import tests.standin_game  # noqa: F401  (registers the coin game)
from analyzer.runs.scenario_file import parse_scenario
from analyzer.studies.balance import Evaluator, _seat_gaps, balance, fit_root

CAP = 12  #: the plain grid stops at this many times the search's games

QUESTIONS = {
    # the lucky coin in seat 1: fair at p = 0.5
    "coin": {
        "game": "coin",
        "seed": 7,
        "balance": {
            "counts": 2,
            "players": ["lucky", "fair"],
            "rotate": False,
            "games": 6000,
            "knobs": {"coin.p_lucky": {"low": 0.3, "high": 0.7, "step": 0.01}},
        },
    },
    # Unearth, 4 players, balanced in every seat: the faces of a natural roll that give
    # a stone (printed 3); the last seat is the furthest from fair
    "unearth": {
        "game": "unearth",
        "players": 4,
        "seed": 7,
        "balance": {
            "counts": 4,
            "games": 24000,
            "knobs": {"components.stone_faces_max": {"low": 1, "high": 6}},
        },
    },
}


def main(
    name: str, workers: int = 1, knob: list[str] | None = None, games: int | None = None
) -> None:
    raw = QUESTIONS[name]
    if games:
        raw = {**raw, "balance": {**raw["balance"], "games": games}}
    if knob:  # another knob: PATH LOW HIGH (the Unearth compensation knob, once it exists)
        path, low, high = knob[0], int(knob[1]), int(knob[2])
        raw = {**raw, "balance": {**raw["balance"], "knobs": {path: {"low": low, "high": high}}}}
    sc = parse_scenario(raw, f"{name}.toml")
    t0 = time.perf_counter()
    res = balance(sc, workers=workers, progress=True)
    d = res.to_json()
    knob = sc.balance.knobs[0]
    c = d["curve"]
    low, high = c["root_interval"]
    width = high - low
    s = d["search"]
    search_games = len(s["grid"]) * s["games_grid"] + len(s["refine"]) * s["games_refine"]
    print(
        f"search: root {c['root']:.3f} [{low:.3f}, {high:.3f}] (width {width:.3f}), "
        f"{search_games:,} games deciding it ({d['games']['total']:,} in all with the fresh "
        f"and attribution games), {time.perf_counter() - t0:.0f} s"
    )
    n, seat = c["players"], c["seat"] - 1
    ev = Evaluator(sc, sc.balance, workers=workers)
    seed = d["seeds"]["search"] + 1  # the grid's own games (the same for every value)
    values = list(knob.values)
    per, played = 200, 0
    while True:
        outs = [ev.play({knob.path: v}, n, 0, per, seed) for v in values]
        played = per * len(values)
        W = np.column_stack([o.wins[:, seat] for o in outs])
        f = fit_root(values, W, 1.0 / n, seed)
        lo, hi = f["root_interval"]
        w = (hi - lo) if lo is not None else float("inf")
        print(
            f"plain grid: {len(values)} values x {per:,} games = {played:,}: root "
            f"{f['root']:.3f} [{lo}, {hi}] (width {w:.3f}, fit {f['kind']})"
        )
        if w <= width or played > CAP * search_games:
            break
        per = int(per * 1.5)
    gaps = _seat_gaps(outs[values.index(knob.printed)]) if knob.printed in values else None
    print(
        f"ratio: the plain grid needed {played / search_games:.1f} times the search's games "
        f"({played:,} against {search_games:,}); printed-value seat gaps "
        f"{np.round(gaps * 100, 1) if gaps is not None else '-'} win points; "
        f"{time.perf_counter() - t0:.0f} s in all"
    )


if __name__ == "__main__":
    main(
        sys.argv[1] if len(sys.argv) > 1 else "coin",
        int(sys.argv[2]) if len(sys.argv) > 2 else 1,
        sys.argv[3:6] or None,
        int(sys.argv[6]) if len(sys.argv) > 6 else None,
    )
