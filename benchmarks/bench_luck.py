"""Benchmark and experiment: luck-adjusted estimates of Unearth (issue 28).

Prints, on games of one seed (never the luck value's training seeds):

1. **cost**: CPU seconds of the same games with the luck terms on and off,
   alternated round by round, the median ratio (target <= 1.3);
2. **interval ratios** at equal games, adjusted 95% interval / plain one, for
   (a) the first seat's win rate at 4 players (balanced), (b) balanced against
   ``baseline`` at 2 players, seats swapped, paired by game, (c) the first seat's
   final score at 4 players (targets <= 0.6, 0.6, 0.5), each with the share of
   the variance each kind of chance event removes alone;
3. **time to an answer**: the games, and CPU seconds at the measured rates, to
   settle the first-seat win rate of ``scenarios/default.toml`` (4 balanced
   players) to +/-0.5 points, plain against adjusted;
4. with ``--seeds``: the spread of the adjusted estimate over independent seeds
   against the intervals each run claims, and plain against adjusted pooled.

    .venv/bin/python benchmarks/bench_luck.py [--games 20000] [--rounds 5] [--seed 2026]
        [--seeds 10 --seed-games 20000]   # and the spread over independent seeds

Nothing is asserted; the machine is shared: compare the figures of one run.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np

from analyzer.kernels.luck import adjusted
from analyzer.unearth.game import make_job, play_raw
from analyzer.unearth.luck import KIND_NAMES


def cpu(job, games, start=0):
    t0 = time.process_time()
    out = play_raw(job, start, games)
    return time.process_time() - t0, out


def cost(players, games, rounds, seed):
    on = make_job(players, "balanced", seed)
    off = make_job(players, "balanced", seed, luck=False)
    cpu(on, 2)
    cpu(off, 2)
    t_on, t_off = [], []
    for r in range(rounds):
        for job, out in ((off, t_off), (on, t_on)) if r % 2 else ((on, t_on), (off, t_off)):
            out.append(cpu(job, games, r * games)[0])
    ratio = statistics.median(a / b for a, b in zip(t_on, t_off, strict=True))
    print(
        f"cost, {players} players balanced, {games} games x {rounds} rounds: "
        f"on {statistics.median(t_on):.2f} s, off {statistics.median(t_off):.2f} s CPU "
        f"(medians); on/off median of rounds {ratio:.3f}"
    )
    return statistics.median(t_on) / games, statistics.median(t_off) / games


def split(values, luck_by_kind, label):
    """Adjusted vs plain interval, and the variance each kind removes alone."""
    total = luck_by_kind.sum(axis=1)
    est = adjusted(values, total)
    var = np.var(values, ddof=1)
    kinds = ", ".join(
        f"{name} {1 - np.var(values - luck_by_kind[:, k], ddof=1) / var:+.3f}"
        for k, name in enumerate(KIND_NAMES)
    )
    print(
        f"{label}: plain {est['mean']:.4f} +/- {est['half']:.4f}, adjusted "
        f"{est['adj']:.4f} +/- {est['adj_half']:.4f} (n={est['n']}), interval ratio "
        f"{est['ratio']:.3f}, variance removed {1 - est['ratio'] ** 2:.3f} "
        f"(alone: {kinds})"
    )
    return est


def first_seat(players, games, seed):
    job = make_job(players, "balanced", seed)
    res, wins, _, s = play_raw(job, 0, games)
    luck = s.luck_out.reshape(games, players, -1, 2)
    win = wins.reshape(games, players)[:, 0].astype(float)
    score = res[:, 0].reshape(games, players)[:, 0].astype(float)
    a = split(win, luck[:, 0, :, 0], f"(a) first seat's win rate, {players} players")
    c = split(score, luck[:, 0, :, 1], f"(c) first seat's score, {players} players")
    return a, c


def paired(games, seed):
    """balanced in seat 0 of game g and seat 1 of the swapped game g (same seed)."""
    ab = make_job(2, ("balanced", "baseline"), seed)
    ba = make_job(2, ("baseline", "balanced"), seed)
    _, w1, _, s1 = play_raw(ab, 0, games)
    _, w2, _, s2 = play_raw(ba, 0, games)
    l1 = s1.luck_out.reshape(games, 2, -1, 2)[:, 0, :, 0]
    l2 = s2.luck_out.reshape(games, 2, -1, 2)[:, 1, :, 0]
    win = (w1.reshape(games, 2)[:, 0] + w2.reshape(games, 2)[:, 1]) / 2.0
    return split(win, (l1 + l2) / 2.0, "(b) balanced vs baseline, 2 players, paired win")


def seeds_check(games, seeds, seed):
    """Independent seeds: the spread of the adjusted estimates against the
    intervals each run claims, and the pooled plain and adjusted estimates."""
    rows = []
    for k in range(seeds):
        job = make_job(4, "balanced", seed + 1000 + k)
        _, wins, _, s = play_raw(job, 0, games)
        luck = s.luck_out.reshape(games, 4, -1, 2)[:, 0, :, 0].sum(axis=1)
        rows.append((wins.reshape(games, 4)[:, 0].astype(float), luck))
    ests = [adjusted(w, lk) for w, lk in rows]
    adj = np.array([e["adj"] for e in ests])
    claimed_se = np.mean([e["adj_half"] for e in ests]) / 1.96
    pooled = adjusted(np.concatenate([w for w, _ in rows]), np.concatenate([lk for _, lk in rows]))
    z = (pooled["mean"] - pooled["adj"]) / math.hypot(pooled["half"], pooled["adj_half"]) * 1.96
    print(
        f"{seeds} seeds x {games} games (4 players, first seat's win): sd of the adjusted "
        f"estimates {adj.std(ddof=1):.4f} vs the standard error each run claims "
        f"{claimed_se:.4f} (ratio {adj.std(ddof=1) / claimed_se:.2f}); pooled "
        f"{seeds * games} games: plain {pooled['mean']:.4f} +/- {pooled['half']:.4f}, "
        f"adjusted {pooled['adj']:.4f} +/- {pooled['adj_half']:.4f}, difference "
        f"{z:+.2f} combined standard errors"
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--cost-games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--seeds", type=int, default=0, help="independent seeds for the spread check")
    ap.add_argument("--seed-games", type=int, default=20000)
    a = ap.parse_args(argv)
    if a.seeds:
        seeds_check(a.seed_games, a.seeds, a.seed)
    per_on, per_off = cost(4, a.cost_games, a.rounds, a.seed)
    win, _ = first_seat(4, a.games, a.seed)
    paired(a.games, a.seed + 1)
    # (3) time to settle the first seat's win rate to +/- 0.5 points (95%)
    sd_plain = win["half"] * math.sqrt(win["n"]) / 1.96
    sd_adj = win["adj_half"] * math.sqrt(win["n"]) / 1.96
    n_plain = math.ceil((1.96 * sd_plain / 0.005) ** 2)
    n_adj = math.ceil((1.96 * sd_adj / 0.005) ** 2)
    print(
        f"time to +/-0.5 points on the first seat's win rate (4 balanced players): plain "
        f"{n_plain} games x {per_off * 1e3:.3f} ms = {n_plain * per_off:.1f} s CPU; adjusted "
        f"{n_adj} games x {per_on * 1e3:.3f} ms = {n_adj * per_on:.1f} s CPU; "
        f"speed-up {n_plain * per_off / (n_adj * per_on):.2f}x"
    )


if __name__ == "__main__":
    main()
