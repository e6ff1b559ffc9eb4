"""Benchmark and experiment: luck-adjusted estimates of Colorful Treasure and Uruk
(issue 28; Unearth's is ``bench_luck.py``).

Prints, for ``--game``, on games of one seed (never the luck value's training seeds):

1. **cost**: CPU seconds of the same games with the luck terms on and off,
   alternated round by round, the median ratio (target <= 1.3);
2. **interval ratios** at equal games, adjusted 95% interval / plain one, for
   (a) the first seat's win rate at 4 players (the game's default strategy),
   (b) the default strategy against ``baseline`` at 2 players, seats swapped,
   paired by game, (c) the first seat's final score at 4 players (target <= 0.75
   each), each with the share of the variance each kind of chance event removes
   alone;
3. with ``--seeds``: the spread of the adjusted estimate over independent seeds
   against the intervals each run claims, and plain against adjusted pooled.

    .venv/bin/python benchmarks/bench_luck_games.py --game uruk [--games 20000]
        [--rounds 5] [--cost-games 20000] [--seed 2026] [--seeds 10 --seed-games 20000]

Nothing is asserted; the machine is shared: compare the figures of one run.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from analyzer.kernels.luck import adjusted


class Game:
    """What the benchmark needs of one game: jobs, a run's (score, win, luck) rows."""

    def __init__(self, name: str):
        self.name = name
        if name == "colorful_treasure":
            from analyzer.colorful_treasure import game, luck
            from analyzer.colorful_treasure.codes import SCALE
            from analyzer.colorful_treasure.engine import R_SCORE

            self.strategy = "greedy"
            self.kinds = luck.KIND_NAMES
            self._make = lambda n, st, seed, on: game.make_job(n, st, seed, steals=False, luck=on)

            def play(job, start, count):
                res, wins, _, s = game.play_raw(job, start, count)
                return res[:, R_SCORE] / SCALE, wins, s

            self._play = play
        else:
            from analyzer.uruk import game, luck
            from analyzer.uruk.engine import R_SCORE

            self.strategy = "balanced"
            self.kinds = luck.KIND_NAMES
            self._make = lambda n, st, seed, on: game.make_job(n, st, seed, luck=on)

            def play(job, start, count):
                res, wins, s = game.play_raw(job, start, count)
                return res[:, R_SCORE].astype(float), wins, s

            self._play = play

    def job(self, players, seed, strategies=None, luck=True):
        return self._make(players, strategies or self.strategy, seed, luck)

    def run(self, job, start, count):
        """``(score, win, luck)`` rows of each (game, seat): luck float64[rows, kinds, 2]."""
        score, wins, s = self._play(job, start, count)
        rows = count * job.players
        return score, wins.astype(float), s.luck_out[:rows] if job.luck else None


def cost(g: Game, players, games, rounds, seed):
    on, off = g.job(players, seed), g.job(players, seed, luck=False)
    g.run(on, 0, 2)
    g.run(off, 0, 2)
    t_on, t_off = [], []
    for r in range(rounds):
        for job, out in ((off, t_off), (on, t_on)) if r % 2 else ((on, t_on), (off, t_off)):
            t0 = time.process_time()
            g.run(job, r * games, games)
            out.append(time.process_time() - t0)
    ratio = statistics.median(a / b for a, b in zip(t_on, t_off, strict=True))
    print(
        f"cost, {players} players {g.strategy}, {games} games x {rounds} rounds: "
        f"on {statistics.median(t_on):.2f} s, off {statistics.median(t_off):.2f} s CPU "
        f"(medians); on/off median of rounds {ratio:.3f}"
    )


def split(g: Game, values, luck_by_kind, label):
    """Adjusted vs plain interval, and the variance each kind removes alone."""
    est = adjusted(values, luck_by_kind.sum(axis=1))
    var = np.var(values, ddof=1)
    kinds = ", ".join(
        f"{name} {1 - np.var(values - luck_by_kind[:, k], ddof=1) / var:+.3f}"
        for k, name in enumerate(g.kinds)
    )
    print(
        f"{label}: plain {est['mean']:.4f} +/- {est['half']:.4f}, adjusted "
        f"{est['adj']:.4f} +/- {est['adj_half']:.4f} (n={est['n']}), interval ratio "
        f"{est['ratio']:.3f}, variance removed {1 - est['ratio'] ** 2:.3f} "
        f"(alone: {kinds})"
    )
    return est


def first_seat(g: Game, players, games, seed):
    score, wins, luck = g.run(g.job(players, seed), 0, games)
    luck = luck.reshape(games, players, -1, 2)
    win = wins.reshape(games, players)[:, 0]
    split(g, win, luck[:, 0, :, 0], f"(a) first seat's win rate, {players} players")
    split(g, score.reshape(games, players)[:, 0], luck[:, 0, :, 1], "(c) first seat's score")


def paired(g: Game, games, seed):
    """The default strategy in seat 0 of game k and seat 1 of the swapped game k."""
    ab = g.job(2, seed, (g.strategy, "baseline"))
    ba = g.job(2, seed, ("baseline", g.strategy))
    _, w1, s1 = g.run(ab, 0, games)
    _, w2, s2 = g.run(ba, 0, games)
    l1 = s1.reshape(games, 2, -1, 2)[:, 0, :, 0]
    l2 = s2.reshape(games, 2, -1, 2)[:, 1, :, 0]
    win = (w1.reshape(games, 2)[:, 0] + w2.reshape(games, 2)[:, 1]) / 2.0
    split(g, win, (l1 + l2) / 2.0, f"(b) {g.strategy} vs baseline, 2 players, paired win")


def seeds_check(g: Game, games, seeds, seed):
    """Independent seeds: the spread of the adjusted first-seat win estimates
    against the intervals each run claims, and plain against adjusted pooled."""
    rows = []
    for k in range(seeds):
        _, wins, luck = g.run(g.job(4, seed + 1000 + k), 0, games)
        luck = luck.reshape(games, 4, -1, 2)[:, 0, :, 0].sum(axis=1)
        rows.append((wins.reshape(games, 4)[:, 0], luck))
    ests = [adjusted(w, lk) for w, lk in rows]
    adj = np.array([e["adj"] for e in ests])
    claimed_se = np.mean([e["adj_half"] for e in ests]) / 1.96
    pooled = adjusted(np.concatenate([w for w, _ in rows]), np.concatenate([lk for _, lk in rows]))
    z = (pooled["mean"] - pooled["adj"]) / np.hypot(pooled["half"], pooled["adj_half"]) * 1.96
    print(
        f"{seeds} seeds x {games} games (4 players, first seat's win): sd of the adjusted "
        f"estimates {adj.std(ddof=1):.4f} vs the standard error each run claims "
        f"{claimed_se:.4f} (ratio {adj.std(ddof=1) / claimed_se:.2f}); pooled plain "
        f"{pooled['mean']:.4f} +/- {pooled['half']:.4f}, adjusted {pooled['adj']:.4f} "
        f"+/- {pooled['adj_half']:.4f}, differ by {z:.2f} combined standard errors"
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=("colorful_treasure", "uruk"), default="uruk")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cost-games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--seeds", type=int, default=0, help="independent seeds to check")
    ap.add_argument("--seed-games", type=int, default=20000)
    a = ap.parse_args(argv)
    g = Game(a.game)
    print(f"game {a.game}, seed {a.seed}")
    cost(g, 4, a.cost_games, a.rounds, a.seed)
    first_seat(g, 4, a.games, a.seed)
    paired(g, a.games, a.seed)
    if a.seeds:
        seeds_check(g, a.seed_games, a.seeds, a.seed)


if __name__ == "__main__":
    main()
