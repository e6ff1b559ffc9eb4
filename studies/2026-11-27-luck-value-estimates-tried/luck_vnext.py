"""Experiment: value estimates ``V`` of other families for Unearth's luck terms
(issue 28; ``studies/2026-11-27-luck-value-estimates-tried.md``).

Fits a variant's parameters on games of the training seeds (``luck_fit``'s:
``--train-seed`` + player count, 4244-4246 by default) and measures the
benchmark's three interval ratios on the benchmark's seeds (``bench_luck.py``:
2026 for the first seat at 4 players, 2027 for balanced against ``baseline`` at
2 players, seats swapped, paired), today's shipped ``V`` beside it, on the same
games.

The variants' engine side is not shipped (none beat today's ``V`` at its cost);
it is kept as a patch in the git tag ``luck-vnext-patch``. Apply it to a scratch
worktree of ``e4d8bb9``, the commit the figures were measured on (it also
applies to the tagged commit), and run this script on that engine::

    git worktree add --detach /tmp/vnext e4d8bb9
    git show luck-vnext-patch:benchmarks/luck_vnext.patch | git -C /tmp/vnext apply
    PYTHONPATH=/tmp/vnext .venv/bin/python \\
        studies/2026-11-27-luck-value-estimates-tried/luck_vnext.py \\
        --variant pairwise --draw --ring --fit-games 1500 --games 20000

(the write-up beside this script, ``../2026-11-27-luck-value-estimates-tried.md``,
has the figures.)

Variants (parameters of ``analyzer.unearth.luck``, on top of the shipped row of
each player count):

- ``shipped``: today's softmax at ``tau0 + tau1 * ruins left``;
- ``pairwise``/``normal``: each seat's final score normal around its score value,
  variance ``var0 + var_ruin * ruins left + var_claim * (Bernoulli variances of
  its pending claims' gains)``; the win value is the chance of being highest,
  pairwise products (``pairwise``) or Gauss-Hermite quadrature (``normal``);
- ``--race``: a seat's chance of a pending claim by a dice race (the pips the
  ruin needs come as random dice in turn order; the best die takes it);
- ``--table``: that chance from a table measured on other games (seeds
  ``--train-seed`` + 100 + player count): by the seat's best die there, the
  others' best, the pips needed and the turn order;
- ``--ring``: a promised stone worth more when its tableau has a ring one (or
  two) stones from closing;
- ``--draw``: a luck term at every delver card drawn in play, a worth per kind.

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import analyzer.unearth.luck as uluck
from analyzer.kernels.luck import adjusted, coordinate_search, residual
from analyzer.unearth.game import make_job, play_raw
from analyzer.unearth.state import C_CARD, C_GAME, C_WINNER

VARIANTS = {"shipped": 0, "pairwise": 1, "normal": 2}
#: parameters each variant fits (the others stay as shipped)
FIT = {
    "shipped": ("tau0", "tau1"),
    "pairwise": ("var0", "var_ruin", "var_claim"),
    "normal": ("var0", "var_ruin", "var_claim"),
}
RACE_FIT = ("race", "race_pow", "pending", "stone", "card")
RING_FIT = ("ring5", "ring4", "stone")
SUBST_FIT = ("subst", "pending", "claimed")
DRAW_FIT = tuple(f"kind{k}" for k in range(10))  # the delver kinds of delvers.toml


def row(variant, players, gh=8, race=False, ring=False, draw=False, subst=False) -> np.ndarray:
    """The shipped row of ``players`` with ``variant``'s switch and start values."""
    par = uluck.load_value_params(players)
    par[uluck.LP_MODEL] = VARIANTS[variant]
    if variant != "shipped":
        par[uluck.LP_VAR0] = 8.0
        par[uluck.LP_VAR_RUIN] = 6.0
        par[uluck.LP_VAR_CLAIM] = 3.0
        par[uluck.LP_GH] = gh
    if subst:
        par[uluck.LP_SUBST] = 0.5
    if draw:
        par[uluck.LP_DRAW] = 1.0
        # distinct start worths (equal ones would make every draw's term 0)
        par[uluck.LP_KIND : uluck.LP_KIND + uluck.N_DELVER_KINDS] = np.linspace(0.3, 1.2, 10)
    if ring:
        par[uluck.LP_RING5] = 3.0
        par[uluck.LP_RING4] = 1.0
    if race:
        par[uluck.LP_RACE] = 4.0
        par[uluck.LP_RACE_POW] = 1.5
    return par


def training(players, games, seed):
    """``run(par) -> (score, win, luck)`` over every seat of the training games."""
    job = make_job(players, "balanced", seed)

    def run(par):
        res, wins, _, s = play_raw(job, 0, games, luck_par=par)
        return res[:, 0].astype(float), wins.astype(float), s.luck_out.sum(axis=1)

    return run


def claim_table(players, games, seed, prior=10.0):
    """The claim table of ``analyzer.unearth.luck.table_shares`` measured on the
    training games: at every roll, for every ruin on the table and seat, the cell
    (its best rank there, the others' best, the pips the ruin needs, its turn
    order) and whether it took that ruin in the end; each cell's rate, shrunk
    towards its rank pair's rate by ``prior`` games."""
    par = uluck.load_value_params(players)
    par[uluck.LP_LOG] = games * 1500 * players
    job = make_job(players, "balanced", seed)
    _, _, claims, s = play_raw(job, 0, games, luck_par=par)
    log = s.luck_log[: s.luck_nlog[0]]
    n_cards = int(job.rules.tables.card_kind.shape[0])
    winner = np.full((games + 1) * n_cards, -9, np.int64)
    winner[claims[:, C_GAME] * n_cards + claims[:, C_CARD]] = claims[:, C_WINNER]
    won = (winner[log[:, 0] * n_cards + log[:, 1]] == log[:, 2]).astype(float)
    r1 = int(s.luck_race.shape[0])
    size = r1 * r1 * uluck.N_NEED * uluck.N_ORDER
    seen = np.bincount(log[:, 3], minlength=size).reshape(r1, r1, -1)
    wins = np.bincount(log[:, 3], weights=won, minlength=size).reshape(r1, r1, -1)
    pair = (wins.sum(axis=2) + 1.0) / (seen.sum(axis=2) + players)
    tab = (wins + prior * pair[:, :, None]) / (seen + prior)
    print(
        f"  claim table {players}p: {len(log)} rows of {games} games, "
        f"{(seen > 0).sum()} of {size} cells seen"
    )
    return tab.ravel()


def with_table(par, tab):
    out = np.concatenate([par[: uluck.N_LUCK_PAR], [0.0], tab])
    out[uluck.LP_TAB] = 1.0
    out[uluck.LP_LOG] = 0.0
    return out


def fit(
    variant, players, games, seed, rounds, gh, race, ring, table=False, draw=False, subst=False
):
    par = row(variant, players, gh, race, ring, draw, subst)
    names = FIT[variant] + (RACE_FIT if race else ()) + (RING_FIT if ring else ())
    names += DRAW_FIT if draw else ()
    names += SUBST_FIT if subst else ()
    if table:
        par = with_table(par, claim_table(players, games, seed + 100 + players))
        names += ("pending", "stone", "claimed")

    def move(name, value, step, sign):
        return value * step**sign if name in names else value

    runs = [training(players, games, seed + players)]
    head = len(uluck.PAR_NAMES)

    def objective(p):
        return residual(runs, p)

    def move_all(name, value, step, sign):
        return move(name, value, step, sign)

    best = coordinate_search(
        lambda p: objective(np.concatenate([p, par[head:]])),
        par[:head],
        uluck.PAR_NAMES,
        rounds=rounds,
        move=move_all,
        log=lambda line: print(f"  fit {players}p: {line}", flush=True),
    )
    return np.concatenate([best, par[head:]])


def bench(par4, par2, games, seed):
    """(a), (b), (c) of bench_luck.py with these rows: interval ratios."""
    job = make_job(4, "balanced", seed)
    res, wins, _, s = play_raw(job, 0, games, luck_par=par4)
    luck = s.luck_out.reshape(games, 4, -1, 2).sum(axis=2)
    a = adjusted(wins.reshape(games, 4)[:, 0].astype(float), luck[:, 0, 0])
    c = adjusted(res[:, 0].reshape(games, 4)[:, 0].astype(float), luck[:, 0, 1])
    ab = make_job(2, ("balanced", "baseline"), seed + 1)
    ba = make_job(2, ("baseline", "balanced"), seed + 1)
    _, w1, _, s1 = play_raw(ab, 0, games, luck_par=par2)
    _, w2, _, s2 = play_raw(ba, 0, games, luck_par=par2)
    l1 = s1.luck_out.reshape(games, 2, -1, 2).sum(axis=2)[:, 0, 0]
    l2 = s2.luck_out.reshape(games, 2, -1, 2).sum(axis=2)[:, 1, 0]
    win = (w1.reshape(games, 2)[:, 0] + w2.reshape(games, 2)[:, 1]) / 2.0
    b = adjusted(win, (l1 + l2) / 2.0)
    return a["ratio"], b["ratio"], c["ratio"]


def mean_zero(par, players, games, seed):
    """Each kind's summed terms over ``games`` games, seat 0's win and score and the
    seats' summed score, their means in standard errors (games independent;
    unbiased terms: within about +-2 of 0)."""
    job = make_job(players, "balanced", seed)
    _, _, _, s = play_raw(job, 0, games, luck_par=par)
    luck = s.luck_out.reshape(games, players, -1, 2)
    out = []
    for k, name in enumerate(uluck.KIND_NAMES):
        for label, x in (
            ("seat 0 win", luck[:, 0, k, 0]),
            ("seat 0 score", luck[:, 0, k, 1]),
            ("all scores", luck[:, :, k, 1].sum(axis=1)),
        ):
            if x.std() > 0:
                out.append(f"{name} {label} {x.mean() / (x.std(ddof=1) / np.sqrt(games)):+.2f}")
    print(f"mean zero, {players} players, {games} games (z): " + ", ".join(out))


def cost(par, games, rounds, seed):
    """CPU seconds of ``games`` 4-player games with ``par`` over the terms off."""
    on = make_job(4, "balanced", seed)
    off = make_job(4, "balanced", seed, luck=False)
    play_raw(on, 0, 2, luck_par=par)
    play_raw(off, 0, 2)
    ratios = []
    for r in range(rounds):
        t0 = time.process_time()
        play_raw(on, r * games, games, luck_par=par)
        t1 = time.process_time()
        play_raw(off, r * games, games)
        t2 = time.process_time()
        ratios.append((t1 - t0) / (t2 - t1))
    return float(np.median(ratios))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", choices=sorted(VARIANTS), default="normal")
    ap.add_argument("--fit-games", type=int, default=1500, help="training games (0: no fit)")
    ap.add_argument("--train-seed", type=int, default=4242)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--race", action="store_true", help="claim chances by the dice race")
    ap.add_argument("--table", action="store_true", help="claim chances from a measured table")
    ap.add_argument("--subst", action="store_true", help="a claim displaces the mean gain")
    ap.add_argument("--draw", action="store_true", help="terms at delver draws, worths by kind")
    ap.add_argument("--ring", action="store_true", help="a promised stone's worth by its rings")
    ap.add_argument("--gh", type=int, default=8, help="quadrature nodes")
    ap.add_argument("--games", type=int, default=20000, help="benchmark games")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--cost-games", type=int, default=2000)
    ap.add_argument("--check", type=int, default=0, help="games of the mean-zero check (0: none)")
    ap.add_argument("--cost-rounds", type=int, default=3)
    a = ap.parse_args(argv)
    if not hasattr(uluck, "LP_MODEL"):
        raise SystemExit(
            "luck_vnext: the engine lacks the variants' parameters; in a scratch "
            "worktree of e4d8bb9 apply the tag luck-vnext-patch (see this file's docstring)"
        )
    rows = {}
    for n in (4, 2):
        if a.fit_games:
            rows[n] = fit(
                a.variant,
                n,
                a.fit_games,
                a.train_seed,
                a.rounds,
                a.gh,
                a.race,
                a.ring,
                a.table,
                a.draw,
                a.subst,
            )
        else:
            rows[n] = row(a.variant, n, a.gh, a.race, a.ring, a.draw, a.subst)
        shown = dict(zip(uluck.PAR_NAMES, rows[n][: len(uluck.PAR_NAMES)].round(4), strict=True))
        print(f"{a.variant} {n}p: {shown}")
    before = bench(uluck.load_value_params(4), uluck.load_value_params(2), a.games, a.seed)
    after = bench(rows[4], rows[2], a.games, a.seed)
    for label, x, y in zip(("(a)", "(b)", "(c)"), before, after, strict=True):
        print(f"{label} interval ratio: shipped {x:.3f}, {a.variant} {y:.3f} ({a.games} games)")
    if a.check:
        for n in (4, 2):
            mean_zero(rows[n], n, a.check, a.seed + 500)
    if a.cost_games:
        print(
            f"cost (4 players, {a.cost_games} games, median of {a.cost_rounds}): shipped "
            f"{cost(uluck.load_value_params(4), a.cost_games, a.cost_rounds, a.seed):.3f}, "
            f"{a.variant} {cost(rows[4], a.cost_games, a.cost_rounds, a.seed):.3f}"
        )


if __name__ == "__main__":
    main()
