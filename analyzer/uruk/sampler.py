"""The sampler of Uruk's training (kernels): self-play games, sampled decisions
labelled by the search's rollouts (:mod:`analyzer.uruk.training` says how)."""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_float, rng_next, rng_seed
from analyzer.uruk.cards import refill_display, setup
from analyzer.uruk.engine import after_turn, do_action, trace_options
from analyzer.uruk.features import KEEP, fill_features, trained_values
from analyzer.uruk.gods import activate
from analyzer.uruk.search import (
    MODE_ACTION,
    _turn_start,
    final_left_now,
    rollout,
)
from analyzer.uruk.state import S_TRIGGER, S_TURN
from analyzer.uruk.strategies import BALANCED, P_STRATEGY, TRAINED, candidates, choose

#: mixed into the root key so the sampling's stream is not any game's stream
_SALT = np.uint64(0x7A11ED5EED0F3A9B)


@njit
def label_decision(s, t, r, w, o, p, m, k_left, rollouts, margin, chosen):
    """Label seat ``p``'s shortlisted candidates among ``m`` (features and the
    shortlist in ``s.feat``) by rollouts, the same dealt copies for each."""
    kept = 0
    for i in range(m):
        if s.feat[i, KEEP] == 1.0:
            w.cand[kept, 0] = s.cand[i, 0]
            w.cand[kept, 1] = s.cand[i, 1]
            w.cand[kept, 2] = s.cand[i, 2]
            w.alive[kept] = i
            kept += 1
    row = o.cnt[0]
    if kept < 2:
        return
    if row + kept > o.y.shape[0]:
        o.cnt[2] += 1
        return
    base = rng_next(o.rng)
    fl = final_left_now(s, p)
    args = (s, t, r, w, p, MODE_ACTION, k_left, fl)
    for c in range(kept):
        i = w.alive[c]
        total = 0.0
        for j in range(rollouts):
            win, score, other = rollout(args, c, base, j)
            total += win + margin * (score - other)
        o.y[row + c] = total / rollouts
        o.group[row + c] = o.cnt[1]
        o.chosen[row + c] = 1 if i == chosen else 0
        for f in range(o.x.shape[1]):
            o.x[row + c, f] = s.feat[i, f]
    o.cnt[0] = row + kept
    o.cnt[1] += 1


@njit
def sample_game(s, t, r, w, o, n, every, rollouts, margin):
    """One self-play game (state seeded, rows in ``s.prm``), its sampled decisions labelled."""
    setup(s, t, n)
    p = 0
    final_left = 0
    while True:
        k = _turn_start(s, t, p)
        for a in range(k):
            code = s.prm[p, P_STRATEGY]
            s.prm[p, P_STRATEGY] = BALANCED  # balanced's values: the features' first
            m = candidates(s, t, p)
            s.prm[p, P_STRATEGY] = code
            if m == 0:
                break
            fill_features(s, t, p, m)
            if code == TRAINED:
                trained_values(s, t, p, m)
            i = choose(s, t, p, m)
            if m >= 2 and rng_float(o.rng) * every < 1.0:
                label_decision(s, t, r, w, o, p, m, k - a - 1, rollouts, margin, i)
            trace_options(s, t, s, p, m)
            do_action(s, t, p, s.cand[i, 0], s.cand[i, 1], s.cand[i, 2])
        refill_display(s, t)
        if s.sc[S_TRIGGER] >= 0:
            activate(s, t)
        s.sc[S_TURN] += 1
        p, final_left = after_turn(s, t, n, p, final_left)
        if p < 0:
            break


@njit
def sample_games(s, t, r, w, o, n, key0, key1, start, count, every, rollouts, margin):
    """Games ``start .. start + count - 1`` of the run keyed ``(key0, key1)``."""
    for g in range(start, start + count):
        rng_seed(s.rng, key0, key1, g)
        rng_seed(o.rng, key0 ^ _SALT, key1, g)
        sample_game(s, t, r, w, o, n, every, rollouts, margin)
