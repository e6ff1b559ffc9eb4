"""Experiment: where the variance of Unearth's outcomes is, and how much any
value estimate ``V`` could remove (issue 28, step 1).

The luck terms can remove at most the variance of ``E[outcome | history]``
explained by the chance events that carry a term. This script measures that
ceiling without a model, by **branching**: each game is played to a cut (right
after the set-up's deal, or after turn ``T``), then its random stream is replaced
by ``R`` fresh ones and each branch is played to the end. Between the prefixes,
the variance of the branch mean (less the within-prefix variance / ``R``)
estimates ``Var(E[outcome | history to the cut])``: the share of the outcome's
variance that the chance before the cut decides, which a perfect ``V`` with a
term at every chance event before the cut would remove, and no ``V`` can beat.
Run on the adjusted outcome ``win - luck_win`` (the shipped ``V``), the same
split says where the variance the terms leave is: what a term at the deal
could still take (the deal's share of the residual), and what is left later.

    .venv/bin/python studies/2026-11-27-luck-where-the-variance-is/luck_decompose.py \\
        [--games 1500] [--branches 6]
        [--cuts 0,4,8,16,24,32] [--players 4] [--seed 7070]

Offline only: nothing here is shipped or fitted on the games it measures.
"""

from __future__ import annotations

import argparse

import numpy as np

from analyzer.core.seeding import root_key
from analyzer.kernels.jit import njit
from analyzer.kernels.kernel_view import results_view
from analyzer.kernels.rng import rng_seed
from analyzer.unearth import engine
from analyzer.unearth.engine import final_scores, setup
from analyzer.unearth.game import _params_dict, forbid_masks, make_job, strategy_arrays
from analyzer.unearth.luck import load_value_params, value_tables
from analyzer.unearth.memo import new_memo
from analyzer.unearth.state import MAX_TURNS, S_ABORTED, S_OVER, S_TURN, new_state
from analyzer.unearth.structs import pack_memo, pack_state, pack_tables
from analyzer.unearth.turn import take_turn


@njit
def branch_games(s, m, t, n, key0, key1, games, branches, cut):
    """``s.luck_out[(g * branches + b) * n + p]`` = ((win, score), (luck_win,
    luck_score)) of seat ``p`` in branch ``b`` of game ``g``: game ``g`` played to
    turn ``cut`` (0: right after the set-up), then its stream reseeded for branch
    ``b``."""
    for g in range(games):
        for b in range(branches):
            setup(s, m, t, n, key0, key1, g)
            p = 0
            reseeded = False
            while True:
                if not reseeded and s.sc[S_TURN] >= cut:
                    rng_seed(s.rng, key0 ^ 0x5EED, key1, g * 1024 + b + 1)
                    reseeded = True
                if s.sc[S_OVER]:
                    break
                if s.sc[S_TURN] >= MAX_TURNS:
                    s.sc[S_ABORTED] = 1
                    break
                take_turn(s, m, t, p)
                s.sc[S_TURN] += 1
                p = (p + 1) % n
            final_scores(s, t, n)
            for q in range(n):
                row = (g * branches + b) * n + q
                s.luck_out[row, 0, 0] = s.win[q]
                s.luck_out[row, 0, 1] = s.scores[q]
                lw = 0.0
                ls = 0.0
                for k in range(s.luck.shape[0]):
                    lw += s.luck[k, 0, q]
                    ls += s.luck[k, 1, q]
                s.luck_out[row, 1, 0] = lw
                s.luck_out[row, 1, 1] = ls


def run(players, strategy, games, branches, cut, seed, luck_par=None):
    job = make_job(players, strategy, seed)
    t = job.rules.tables
    codes, prm = strategy_arrays(job.strategies, _params_dict(job))
    par = load_value_params() if luck_par is None else luck_par
    s = new_state(t, players, 0, 0, value_tables(t, par), games * branches * players)
    m = new_memo(t, players, codes, prm, forbid_masks(players, job.rules, job.forbid))
    o = engine.new_batch(t, players, 1)
    results_view(o.results, o.wins)
    key0, key1 = root_key(job.seed)
    branch_games(
        pack_state(s), pack_memo(m), pack_tables(t), players, key0, key1, games, branches, cut
    )
    lo = s.luck_out[:, :2, :].reshape(games, branches, players, 4)
    return lo


def between_share(x, boot=200):
    """``x``: (games, branches). Share of Var(x) explained by the prefix:
    (var of branch means - mean within var / R) / total var, its total variance,
    and the share's standard error (bootstrap over the prefixes)."""
    share, total = _share(x)
    rng = np.random.default_rng(1)
    reps = [_share(x[rng.integers(0, len(x), len(x))])[0] for _ in range(boot)]
    return share, total, float(np.std(reps))


def _share(x):
    g, r = x.shape
    within = x.var(axis=1, ddof=1).mean()
    means = x.mean(axis=1)
    between = means.var(ddof=1) - within / r
    total = between + within
    return between / total, total


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--branches", type=int, default=6)
    ap.add_argument("--cuts", default="0,4,8,16,24,32")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--strategy", default="balanced")
    ap.add_argument("--seed", type=int, default=7070)
    a = ap.parse_args(argv)
    print(
        f"{a.players} players {a.strategy}, {a.games} prefixes x {a.branches} branches, "
        f"seed {a.seed}; seat 0"
    )
    print(
        "cut (turns) | win: share decided before the cut | score: share | "
        "win-luck_win: share | score-luck_score: share | var(win) var(adj win); "
        "(bootstrap standard errors)"
    )
    for cut in [int(c) for c in a.cuts.split(",")]:
        out = run(a.players, a.strategy, a.games, a.branches, cut, a.seed)
        seat = out[:, :, 0, :]
        w, sc, lw, ls = (seat[:, :, i] for i in range(4))
        sw, vw, ew = between_share(w)
        ss, _, es = between_share(sc)
        saw, vaw, eaw = between_share(w - lw)
        sas, _, eas = between_share(sc - ls)
        print(
            f"{cut:3d} | {sw:+.3f} ({ew:.3f}) | {ss:+.3f} ({es:.3f}) | {saw:+.3f} ({eaw:.3f}) "
            f"| {sas:+.3f} ({eas:.3f}) | {vw:.4f} {vaw:.4f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
