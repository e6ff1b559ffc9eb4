"""What a seat can see of each of its candidate actions, and the ``trained`` player (kernels).

The ``trained`` player lists ``balanced``'s candidate actions (with ``balanced``'s
row), then values each by a linear function of the candidate's features
(:data:`FEATURE_NAMES`), weights fitted by ``analyzer train`` to the values the
search's rollouts give each choice (:mod:`analyzer.studies.training`). Every
other decision (auctions, secret bids, the choices inside actions) it makes as
``balanced`` does. Its weights sit in the seat's row from column
:data:`W0` on (the shipped ones in ``data/trained.toml``, by player count); the
weights ``1, 0, 0, ...`` (:func:`identity_weights`) play exactly as ``balanced``.

It chooses only among ``balanced``'s :data:`WIDTH` best candidates (the
``search`` player's width): the fitted evaluation re-ranks that shortlist.

The features see only what the seat may see: its own hand and supply, the open
table (displays, the pool, the epoch cards, every seat's inventions and
settlements, hence their scores so far), never another seat's hand or the deck.
A feature is a property of one candidate; what is the same for every candidate
of a decision matters only through its products with the candidate's own
features (the game's progress, the end, how far the seat is behind).

:func:`can_make_any` and :func:`makes_with` (what a card in hand lets the seat
make) live here so that both the players (:mod:`analyzer.uruk.strategies`,
which re-exports them) and the features use them.
"""

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.uruk.actions import can_make, tradeable
from analyzer.uruk.choices import card_use, end_resource_points, settle_cost
from analyzer.uruk.codes import Action, CardAction, Effect
from analyzer.uruk.scoring import invention_points, score_parts
from analyzer.uruk.state import MAX_FEATURES, MAX_PARAMS, S_END, S_N

TRAINED_TEXT = (
    "balanced's candidate actions valued by a linear evaluation of what the seat can see "
    "(features of each action), fitted by analyzer train to the search's rollout values; "
    "auctions, secret bids and the choices inside actions as balanced"
)

#: the ``trained`` strategy's code (``strategies.TRAINED``)
TRAINED = 7

FEATURE_NAMES = (
    "value",  # balanced's value of the action (its own row)
    "take_display",  # the action's kind (one of these seven is 1)
    "take_deck",
    "make",
    "take_resources",
    "trade",
    "settle",
    "card_action",
    "take_display_x_progress",  # the kind times the game's progress (0 at set-up, 1 at the end)
    "take_deck_x_progress",
    "make_x_progress",
    "take_resources_x_progress",
    "trade_x_progress",
    "settle_x_progress",
    "card_action_x_progress",
    "points_now",  # points the action scores at once (make, settle)
    "points_now_x_progress",
    "level",  # levels gained by a make (new minus replaced), level of a display card taken
    "card_use",  # balanced's usefulness of a display card taken
    "makes_with",  # 1: the display card lets the seat make something it could not
    "resources",  # resources gained (taken, traded for, a card action) or spent (settle)
    "resources_x_progress",
    "end_points",  # points the resources gained or spent are worth at the end
    "city",  # 1: the settlement makes a city
    "hand_x_take",  # cards in hand / 5, for a card taken
    "behind_x_points",  # points the seat is behind the best other seat / 10, x points_now
    "new_colour",  # 1: a make of a colour the seat does not display yet
    "value_x_progress",
    "value_x_end",  # balanced's value once the end is triggered
    "colour_owned",  # 1: a display card of a colour the seat already displays
)
N_FEATURES = len(FEATURE_NAMES)
#: the trained player chooses among ``balanced``'s best this many candidates (as the
#: ``search`` player's ``width``): the fitted evaluation re-ranks them, and the
#: training labels only them
WIDTH = 4
#: the value of a candidate outside that shortlist: never chosen while one is in it
LEFT_OUT = -1e9
#: the seat's row's column of the first weight (the strategy parameters come before)
W0 = 16
assert W0 + N_FEATURES <= MAX_PARAMS - 3  # the last three columns are the game's
#: the column of ``s.feat`` marking a candidate of the shortlist (1.0) or not
KEEP = MAX_FEATURES - 1
assert N_FEATURES <= KEEP

_TAKE_CARD = Action.TAKE_CARD.value
_MAKE = Action.MAKE.value
_TAKE_RESOURCES = Action.TAKE_RESOURCES.value
_TRADE = Action.TRADE.value
_SETTLE = Action.SETTLE.value
_CARD_ACTION = Action.CARD_ACTION.value
_E_TAKE = Effect.TAKE_RESOURCES.value
_E_ACTION = Effect.CARD_ACTION.value
_DRAW = CardAction.DRAW.value


def identity_weights() -> np.ndarray:
    """The weights that play exactly as ``balanced`` (1 on its value, 0 elsewhere)."""
    w = np.zeros(N_FEATURES)
    w[0] = 1.0
    return w


@njit
def can_make_any(s, t, p, x):
    """Can seat ``p`` make ``x`` now, in a free slot or replacing a lower invention?"""
    if can_make(s, t, p, x, -1):
        return True
    for r in range(t.max_inventions):
        y = s.inv[p, r]
        if y >= 0 and t.inv_level[y] < t.inv_level[x] and can_make(s, t, p, x, r):
            return True
    return False


@njit
def makes_with(s, t, p, x):
    """Would card ``x`` in seat ``p``'s hand let it make an invention it cannot
    make without it (``x`` itself, or one whose colour pair it completes)? What
    a card is worth once the end is seen: one it could never make scores nothing."""
    s.hand[p, x] += 1
    found = can_make_any(s, t, p, x)
    if not found:
        for y in range(t.n_inv):
            if y != x and s.hand[p, y] > 0 and can_make_any(s, t, p, y):
                s.hand[p, x] -= 1
                before = can_make_any(s, t, p, y)
                s.hand[p, x] += 1
                if not before:
                    found = True
                    break
    s.hand[p, x] -= 1
    return found


@njit
def progress(s, t):
    """The game's progress: the share of the epoch cards' set-up stones gone (0 to 1)."""
    n = s.sc[S_N]
    total = 0
    left = 0
    for e in range(4):
        total += t.epoch_stones[e, n]
        left += s.epoch[e]
    if total <= 0:
        return 0.0
    return min(max(1.0 - left / total, 0.0), 1.0)


@njit
def behind(s, t, p):
    """Points seat ``p`` is behind the best other seat now (0 if ahead), from the open table."""
    n = s.sc[S_N]
    a, b, c, d = score_parts(s, t, p)
    mine = a + b + c + d
    best = -(1 << 30)
    for q in range(n):
        if q != p:
            a, b, c, d = score_parts(s, t, q)
            if a + b + c + d > best:
                best = a + b + c + d
    return max(best - mine, 0)


@njit
def _owns_colour(s, t, p, c):
    for i in range(t.max_inventions):
        x = s.inv[p, i]
        if x >= 0 and t.inv_colour[x] == c:
            return True
    return False


@njit
def candidate_features(s, t, p, i, prog, late, lag):
    """Features of seat ``p``'s candidate ``i`` (``s.cand[i]``, ``balanced``'s
    value ``s.cand_val[i]``) into ``s.feat[i]`` (:data:`FEATURE_NAMES`); ``prog``
    (:func:`progress`), ``late`` (the end triggered: 1.0) and ``lag``
    (:func:`behind`) are the decision's."""
    f = s.feat[i]
    f[:N_FEATURES] = 0.0
    kind = s.cand[i, 0]
    a = s.cand[i, 1]
    b = s.cand[i, 2]
    v = s.cand_val[i]
    f[0] = v
    pts = 0.0
    gained = 0
    if kind == _TAKE_CARD:
        hand_n = 0
        for x in range(t.n_inv):
            hand_n += s.hand[p, x]
        f[24] = hand_n / 5.0
        if a < 3:
            j = 1
            x = s.display[a]
            f[17] = t.inv_level[x]
            f[18] = card_use(s, t, p, x)
            f[19] = 1.0 if makes_with(s, t, p, x) else 0.0
            f[29] = 1.0 if _owns_colour(s, t, p, t.inv_colour[x]) else 0.0
        else:
            j = 2
    elif kind == _MAKE:
        j = 3
        x = a
        if b < 0:
            pts = t.bare_points
            f[17] = t.inv_level[x]
        else:
            y = s.inv[p, b]
            st = s.stones[p, b]
            if t.stones_to_pool == 1:
                pts = invention_points(t, x, 0) - invention_points(t, y, st)
            else:
                pts = invention_points(t, x, st) - invention_points(t, y, st)
            f[17] = t.inv_level[x] - t.inv_level[y]
        f[26] = 0.0 if _owns_colour(s, t, p, t.inv_colour[x]) else 1.0
    elif kind == _TAKE_RESOURCES:
        j = 4
        x = s.inv[p, a]
        gained = 1
        if t.inv_effect[x] == _E_TAKE and s.fn_used[x] == 0:
            gained += t.inv_amount[x]
    elif kind == _TRADE:
        j = 5
        gained = tradeable(s, t, p, a)
    elif kind == _SETTLE:
        j = 6
        x = s.inv[p, a]
        st = s.stones[p, a]
        pts = invention_points(t, x, st + 1) - invention_points(t, x, st)
        gained = -settle_cost(s, t, p, a)
        f[23] = 1.0 if st == 1 else 0.0
    else:
        j = 7
        x = s.inv[p, a]
        if t.inv_kind_param[x] != _DRAW:
            gained = t.inv_amount[x]
    f[j] = 1.0
    f[j + 7] = prog
    f[15] = pts
    f[16] = pts * prog
    f[20] = gained
    f[21] = gained * prog
    f[22] = end_resource_points(s, t, p, gained)
    f[25] = lag / 10.0 * pts
    f[27] = v * prog
    f[28] = v * late


@njit
def decision_context(s, t, p):
    """``(progress, end triggered, points behind)`` of seat ``p``'s decision."""
    return progress(s, t), 1.0 if s.sc[S_END] == 1 else 0.0, behind(s, t, p)


@njit
def shortlisted(s, k, i):
    """Is candidate ``i`` among the :data:`WIDTH` best of ``k`` by ``s.cand_val``
    (ties: the earlier first, as ``choose`` breaks them)?"""
    v = s.cand_val[i]
    rank = 0
    for j in range(k):
        if s.cand_val[j] > v or (s.cand_val[j] == v and j < i):
            rank += 1
    return rank < WIDTH


@njit
def trained_values(s, t, p, k):
    """Replace the values of seat ``p``'s ``k`` candidates (``balanced``'s, in
    ``s.cand_val``) by the linear evaluation of their features with the weights
    in the seat's row (from column :data:`W0`); those outside ``balanced``'s
    :data:`WIDTH` best get :data:`LEFT_OUT`."""
    if k == 0:
        return
    prog, late, lag = decision_context(s, t, p)
    for i in range(k):
        s.feat[i, KEEP] = 1.0 if shortlisted(s, k, i) else 0.0
    for i in range(k):
        candidate_features(s, t, p, i, prog, late, lag)
        if s.feat[i, KEEP] == 0.0:
            s.cand_val[i] = LEFT_OUT
            continue
        v = 0.0
        for j in range(N_FEATURES):
            v += s.prm[p, W0 + j] * s.feat[i, j]
        s.cand_val[i] = v


@njit
def fill_features(s, t, p, k):
    """The features of seat ``p``'s ``k`` candidates (``balanced``'s values in
    ``s.cand_val``) into ``s.feat[:k]``, the shortlist in column :data:`KEEP`
    (the training's sampler)."""
    prog, late, lag = decision_context(s, t, p)
    for i in range(k):
        s.feat[i, KEEP] = 1.0 if shortlisted(s, k, i) else 0.0
    for i in range(k):
        candidate_features(s, t, p, i, prog, late, lag)
