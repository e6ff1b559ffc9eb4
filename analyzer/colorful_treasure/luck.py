"""Luck terms of Colorful Treasure's chance events (``docs/statistics.md``,
"Luck-adjusted estimates"; the accounting itself is :mod:`analyzer.kernels.luck`).

The only chance in a game is the set-up's layout: each column is a uniform
shuffle of its wonder's five cards. It shows itself one card at a time, when a
card is turned face up ("A turn"). At each reveal every seat gets ``V(after the
outcome) - sum_o P(o) V(after o)``: given everything seen so far (every card
revealed, and every card peeked at by a seat with an action tile, since the
seats' choices may depend on it), the card at a place never seen is uniform
over its wonder's cards never seen; a card seen before has no luck. The terms
only observe: they draw no random numbers and change nothing the game reads
(``s.luck*`` fields only). They are summed per kind of reveal in ``s.luck``
(float64[N_KINDS, 2, P]: win, score) when ``s.luck_par`` holds the value
estimate's parameters (shape ``(1,)``: off).

Kinds: the turn's first reveals (chosen together, "Reveal two"), and the
further ones (the extra reveal, a fourth card of a tile). The set-up deal
needs no term of its own: it shows nothing until a reveal.

``V`` reads only what is public (holdings, rewards, the cards face up, cards
left): a seat's score value is its score if the game ended now, plus, for the
seat to move, the worth of the best take among the cards face up (every key and
chest when one is up: ``treasure`` points each; else the best kind: a colour's
gem points, the gem reward if it reaches the goal, a diamond's points), times
``take``. Win values are a softmax of the score values at temperature ``tau0 +
tau1 * cards left``. Parameters fitted by :mod:`analyzer.colorful_treasure.luck_fit`
on games of other seeds, shipped in ``data/luck_value.toml``.
"""

from __future__ import annotations

import numpy as np

import analyzer.kernels.luck as shared
from analyzer.colorful_treasure.codes import SCALE
from analyzer.colorful_treasure.state import LUCK_KINDS, S_GEM_OWNER, S_LEFT, S_N, S_N_UP, S_TURN
from analyzer.colorful_treasure.turn import counted_holdings, final_scores
from analyzer.kernels.jit import njit
from analyzer.kernels.luck import event_begin, event_end, event_outcome, luck_on

#: kinds of chance event, the first axis of ``State.luck``
KIND_FIRST = 0
KIND_EXTRA = 1
N_KINDS = LUCK_KINDS
KIND_NAMES = ("first reveals", "further reveals")

#: the value estimate's parameters, in ``State.luck_par``
LP_TAKE = 0  #: weight of the seat to move's best take among the cards face up
LP_TREASURE = 1  #: points a key or chest card taken is worth (the treasure majority)
LP_TAU0 = 2  #: win temperature (points) with no card left
LP_TAU1 = 3  #: ... plus this per card left in the grid
LP_NEXT = 4  #: weight of the best kind left face up to the next seat (it knows them now)
N_LUCK_PAR = 5
#: tests only: a ``luck_par`` one longer plants a known bias
#: (``tests/colorful_treasure/test_colorful_treasure_luck.py`` shows the checks catch it): 1, the
#: expectation taken in the state after the outcome (the revealed card already face
#: up beside each card enumerated); 2, ``V`` reads the hidden layout (a bonus to the seat to move
#: when the card valued is the one really at the place)
LP_PLANT = N_LUCK_PAR
PAR_NAMES = ("take", "treasure", "tau0", "tau1", "next")


def load_value_params() -> np.ndarray:
    """The shipped parameters of ``V`` (``data/luck_value.toml``), float64[N_LUCK_PAR]."""
    return shared.value_row(shared.shipped_values("analyzer.colorful_treasure"), PAR_NAMES)


@njit
def luck_reset(s):
    """A new game: no luck yet, nothing seen."""
    s.luck[:] = 0.0
    s.luck_seen[0] = 0
    s.luck_seen[1] = -1


@njit
def luck_seen(s, card):
    """``card`` is seen (a seat peeked at it): its place has no luck any more."""
    if luck_on(s, N_LUCK_PAR):
        s.luck_seen[0] |= np.int64(1) << card


# ------------------------------------------------------------------ the value estimate


@njit
def kind_value(s, t, q, n, key, m):
    """Points seat ``q`` would make by taking ``m`` face-up cards of ``card_key``
    ``key`` (a gem colour or the diamond): a colour's gem points and the gem reward
    it would complete, a diamond's card and plastic points."""
    nc = t.n_colours
    if key == nc:
        return float(m * (t.diamond_card + t.plastic_diamond))
    top = t.gem_points.shape[0] - 1
    h = s.gems[q, key]
    g = float(t.gem_points[min(h + m, top)] - t.gem_points[min(h, top)])
    if h == 0 and t.rewards == 1 and s.sc[S_GEM_OWNER] < 0:
        colours, _, _ = counted_holdings(s, t, q)
        if colours + 1 >= t.gem_goal[n]:
            g += t.gem_reward[n]
    return g


@njit
def take_value(s, t, q, n, k, hyp, nxt, more):
    """``(mine, left)``: points seat ``q`` would make by its best take of the ``k``
    cards face up, the last one replaced by ``hyp``, and ``more`` if it is a card
    (>= 0: one chosen already, to be turned next) (every key and chest,
    ``LP_TREASURE`` each, when one is up, else the best kind), and what the best
    kind left face up (then known to all) is worth to seat ``nxt``."""
    cnt = s.luck_cnt
    cnt[:] = 0
    for i in range(k):
        c = hyp if i == k - 1 else s.grid[s.up[i]]
        cnt[t.card_key[c]] += 1
    if more >= 0:
        cnt[t.card_key[more]] += 1
    nc = t.n_colours
    treasure = cnt[nc + 1] + cnt[nc + 2]
    taken = -1
    mine = 0.0
    if treasure > 0:
        mine = s.luck_par[LP_TREASURE] * treasure
    else:
        for key in range(nc + 1):
            if cnt[key] > 0:
                g = kind_value(s, t, q, n, key, cnt[key])
                if taken < 0 or g > mine:
                    mine = g
                    taken = key
    left = 0.0
    if nxt != q:
        for key in range(nc + 1):
            if cnt[key] > 0 and key != taken:
                left = max(left, kind_value(s, t, nxt, n, key, cnt[key]))
    return mine, left


@njit
def base_values(s, t, n):
    """``s.luck_base[p]``: seat ``p``'s score if the game ended now (points; writes
    ``s.parts`` and ``s.counted``, which the game rewrites when it ends)."""
    final_scores(s, t, n)
    for p in range(n):
        s.luck_base[p] = s.parts[p, 6] / SCALE


# ------------------------------------------------------------------ chance events


@njit
def _unseen(t, w, seen):
    """The cards of wonder ``w`` outside the mask ``seen`` (each still face down)."""
    m = 0
    for c in range(w * t.rows, (w + 1) * t.rows):  # a column's cards are its places' ids
        if (seen >> c) & 1 == 0:
            m += 1
    return m


@njit
def outcome_values(s, t, seat, nxt, n, k, c, pending, seen):
    """``s.luck_vs``: the score values once card ``c`` shows as the ``k``-th card
    face up; with a ``pending`` place (chosen already, turned next) the mean over
    its card: known if seen, else uniform over its wonder's unseen cards but ``c``."""
    vs = s.luck_vs
    for r in range(n):
        vs[r] = s.luck_base[r]
    if pending < 0:
        mine, left = take_value(s, t, seat, n, k, c, nxt, -1)
        vs[seat] += s.luck_par[LP_TAKE] * mine
        vs[nxt] += s.luck_par[LP_NEXT] * left
        return
    if (seen >> s.grid[pending]) & 1 == 1:  # a card seen before: known to all
        mine, left = take_value(s, t, seat, n, k, c, nxt, s.grid[pending])
        vs[seat] += s.luck_par[LP_TAKE] * mine
        vs[nxt] += s.luck_par[LP_NEXT] * left
        return
    w2 = pending // t.rows
    seen2 = seen | (np.int64(1) << c)
    m2 = _unseen(t, w2, seen2)
    for c2 in range(w2 * t.rows, (w2 + 1) * t.rows):
        if (seen2 >> c2) & 1 == 1:
            continue
        mine, left = take_value(s, t, seat, n, k, c, nxt, c2)
        vs[seat] += s.luck_par[LP_TAKE] * mine / m2
        vs[nxt] += s.luck_par[LP_NEXT] * left / m2


@njit
def luck_reveal(s, t, seat, p, pending):
    """``seat`` has just turned the card at place ``p`` face up (the last of
    ``s.up``); ``pending``: the place it chose at the same time to turn next (-1:
    none), whose card ``V`` averages over (what is known of it)."""
    if not luck_on(s, N_LUCK_PAR):
        return
    actual = s.grid[p]
    seen = s.luck_seen[0]
    s.luck_seen[0] = seen | (np.int64(1) << actual)
    if (seen >> actual) & 1 == 1:
        return  # a card seen before: no chance
    w = t.card_wonder[actual]
    m = _unseen(t, w, seen)
    if m <= 1:
        return  # the last unseen card of its column: no chance
    n = s.sc[S_N]
    k = s.sc[S_N_UP]
    kind = KIND_FIRST if k <= t.first_reveals else KIND_EXTRA
    plant = shared.planted(s, N_LUCK_PAR)
    if s.luck_seen[1] != s.sc[S_TURN]:  # the holdings change only at a take
        base_values(s, t, n)
        s.luck_seen[1] = s.sc[S_TURN]
    acc = s.luck_acc
    event_begin(acc, n)
    tau = s.luck_par[LP_TAU0] + s.luck_par[LP_TAU1] * s.sc[S_LEFT]
    prob = 1.0 / m
    nxt = seat + 1 if seat + 1 < n else 0
    vs = s.luck_vs
    if plant == 1:  # planted: the actual card already up when the expectation is taken
        outcome_values(s, t, seat, nxt, n, k, actual, pending, seen)
        event_outcome(acc, vs, n, tau, 0.0, True)
        for c in range(w * t.rows, (w + 1) * t.rows):
            if (seen >> c) & 1 == 0:
                for r in range(n):
                    vs[r] = s.luck_base[r]
                mine, left = take_value(s, t, seat, n, k, c, nxt, actual)
                vs[seat] += s.luck_par[LP_TAKE] * mine
                vs[nxt] += s.luck_par[LP_NEXT] * left
                event_outcome(acc, vs, n, tau, prob, False)
        event_end(acc, s.luck[kind, 0], s.luck[kind, 1], n)
        return
    for c in range(w * t.rows, (w + 1) * t.rows):
        if (seen >> c) & 1 == 1:
            continue
        outcome_values(s, t, seat, nxt, n, k, c, pending, seen)
        if plant == 2 and c == s.grid[p]:  # planted: V reads the hidden layout
            vs[seat] += 5.0
        event_outcome(acc, vs, n, tau, prob, c == actual)
    event_end(acc, s.luck[kind, 0], s.luck[kind, 1], n)


@njit
def store_luck(s, n, row0):
    """Copy this game's luck into rows ``row0 ..`` of ``s.luck_out``
    (:func:`analyzer.kernels.luck.store_luck`)."""
    shared.store_luck(s, n, row0, N_LUCK_PAR)
