"""Deep advice for Uruk: the choices of a table state's decision ranked by win
chance and expected final score, from rollouts (``analyzer advise --game uruk
--deep``; ``docs/games/uruk.md``, "Table advice").

The table state is built into a game as :func:`analyzer.uruk.advise.build`
does (what it assumes is listed with the answer). Every choice of the decision
(each legal action, or each secret bid from 0 to my supply) gets the same
number of rollouts: from a copy of the game in which everything I cannot see is
dealt again at random (:func:`analyzer.uruk.search.determinize`), the choice is
played and the game finished by tuned ``balanced`` players; rollout ``j``
starts from the same deal and stream for every choice (common random numbers).
The statistics (intervals, the order, the choices within noise of the best,
the verdict) are :mod:`analyzer.kernels.search`'s.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import analyzer.games.deep as shared
from analyzer.core.seeding import resolve_seed, root_key
from analyzer.kernels.search import verdict_words
from analyzer.uruk.advise import BUILD_SEED, TableState, action_name, build
from analyzer.uruk.rules import Rules, default_rules

#: rollouts in all when ``--budget`` is not given
DEFAULT_BUDGET = 12_000
#: kinds of action, by ``codes.Action``
ACTION_KINDS = ("take_card", "make", "take_resources", "trade", "settle", "card_action")


@dataclass(frozen=True)
class DeepChoice(shared.Estimates):
    """One choice and what its rollouts say (:class:`analyzer.games.deep.Estimates`)."""

    choice: str
    kind: str
    balanced_value: float  #: balanced's evaluation (for a bid: minus its distance to balanced's)
    default: bool  #: tuned balanced's own choice


@dataclass(frozen=True)
class DeepAdvice(shared.DeepAnswer):
    """The choices of seat ``me``'s ``decision`` ranked
    (:class:`analyzer.games.deep.DeepAnswer`)."""

    me: str
    decision: str
    seats: tuple[str, ...]


def deep_advice(
    state: TableState, rules: Rules | None = None, *, budget: int | None = None, seed=None
) -> DeepAdvice:
    """Rank every choice of ``state``'s decision by win chance from ``budget``
    rollouts in all (:data:`DEFAULT_BUDGET`), shared equally, seeded by ``seed``."""
    from analyzer.kernels.kernel_view import make_view
    from analyzer.uruk import search
    from analyzer.uruk.game import rollout_rows
    from analyzer.uruk.state import new_state

    rules = rules or default_rules()
    budget = shared.check_budget(budget, DEFAULT_BUDGET, 1, 1_000_000)
    seed = resolve_seed(seed)
    t = rules.tables
    n = len(state.seats)
    s, assumed = build(state, rules)
    p = state.me
    sv = make_view(s, "UrukState")
    tv = make_view(t, "UrukTables")
    if state.decision == "action":
        mode, k_left, g = search.MODE_ACTION, state.actions_left - 1, -1
        final_left = search.final_left_now(sv, p)
        n_choices = max(len(_actions(s, rules, p)), 1)
    else:
        mode, k_left, g = search.MODE_BID, 0, state.god
        final_left = search.final_left_now(sv, state.trigger)
        n_choices = int(s.supply[p].sum()) + 1
    groups = GROUPS if not state.discard_ordered or state.discard_unknown else 1
    keep = max(budget // n_choices, 2 * groups)
    w = search.new_search(t, rollout_rows(t, n), keep=keep)
    r = new_state(t)
    key0, _ = root_key(seed)
    names = {}
    if mode == search.MODE_ACTION:
        for kind, a, b in _actions(s, rules, p):
            names[(kind, a, b)] = action_name(rules, s, p, kind, a, b)
    rv, wv = make_view(r, "UrukState"), search.pack_search(w)
    if groups == 1:

        def rank():
            return search.rank_all(sv, tv, rv, wv, p, key0, budget, mode, k_left, final_left, g)
    else:  # the discard pile's order (or part of it) unknown: dealt again per group

        def rank():
            builds = [s] + [build(state, rules, BUILD_SEED + i)[0] for i in range(1, groups)]
            keys = [key0] + [_group_key(seed, i) for i in range(1, groups)]
            per = max(budget // groups, n_choices)

            def one(view, key):
                return search.rank_all(view, tv, rv, wv, p, key, per, mode, k_left, final_left, g)

            return _grouped(w, [make_view(b, "UrukState") for b in builds], keys, one)

    played = shared.play_ranking(
        rank,
        w,
        "table state: no legal choice for the decision (allowed: a state where "
        f"{state.names[p]} can act)",
        clock=time.process_time,  # CPU seconds (benchmarks/bench_uruk_deep_advice.py)
    )
    rows = []
    for row in played.rows:
        c = row.index
        kind, a, b = (int(v) for v in w.cand[c])
        if mode == search.MODE_ACTION:
            word, what = names[(kind, a, b)], ACTION_KINDS[kind]
        else:
            word, what = f"bid {kind}", "bid"
        rows.append(
            DeepChoice(
                choice=word,
                kind=what,
                **shared.estimates(row),
                balanced_value=float(w.cand_h[c]),
                default=c == 0,
            )
        )
    assumed.append(
        "in every rollout what I cannot see (the deck, the other hands, a face-down trigger) "
        "is dealt again at random, and every seat then plays tuned balanced"
    )
    return DeepAdvice(
        me=state.names[p],
        decision=state.decision,
        seats=state.names,
        **played.answer(rows, seed, assumed),
    )


#: groups of rollouts, each on its own deal of the discard pile's unknown order or cards
GROUPS = 8
#: the tallies :func:`analyzer.kernels.search.record` adds to, one value per choice
_TALLIES = ("n", "win", "win2", "score", "score2", "value")


def _group_key(seed: int, i: int):
    """Group ``i``'s rollout key: its own stream, from ``seed`` and ``i``."""
    import numpy as np

    return np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1, np.uint64)[0]


def _grouped(w, views, keys, rank_one) -> int:
    """Deep advice in groups: ``rank_one(view, key)`` on each game ``views[i]`` (one
    deal of what the file leaves unknown of the discard pile) with its ``keys[i]``,
    the tallies of the groups summed into ``w`` and each choice's rollouts set one
    group after another in ``w.wins_by`` (rollout ``j`` of a group on the same deal
    for every choice, so the pairing holds). Returns the choices (the same in every
    group: the discard pile does not change what I may do)."""
    from analyzer.kernels.search import K_ROLLOUTS

    sums = {name: 0.0 for name in _TALLIES}
    rows, rollouts, k = [], 0, None
    for view, key in zip(views, keys, strict=True):
        for name in _TALLIES:
            getattr(w, name)[:] = 0
        w.count[K_ROLLOUTS] = 0
        got = rank_one(view, key)
        if k is not None and got != k:
            raise RuntimeError(f"deep advice groups differ in their choices ({got} and {k})")
        k = got
        for name in _TALLIES:
            sums[name] = sums[name] + getattr(w, name)[:k].copy()
        per = int(w.n[0]) if k else 0
        rows.append(w.wins_by[:k, :per].copy())
        rollouts += int(w.count[K_ROLLOUTS])
    if not k:
        return 0
    for name in _TALLIES:
        getattr(w, name)[:k] = sums[name]
    import numpy as np

    joined = np.concatenate(rows, axis=1)
    w.wins_by[:k, : joined.shape[1]] = joined
    w.count[K_ROLLOUTS] = rollouts
    return k


def _actions(s, rules, p):
    from analyzer.uruk.advise import list_actions

    return [(kind, a, b) for kind, a, b, _ in list_actions(s, rules, p)]


# --------------------------------------------------------------------------- output


def render(advice: DeepAdvice, top: int):
    n_roll = advice.choices[0].rollouts
    return shared.ranking_table(
        f"{advice.decision.replace('_', ' ')} choices for {advice.me}, by win chance: "
        f"{n_roll:,} rollouts each, seats {', '.join(advice.seats)} (± half a 95% interval)",
        advice.choices[:top],
        before=(("choice", "left"),),
        after=(("", "left"),),
        cells=lambda i, c: ((c.choice,), ("balanced's choice" if c.default else "",)),
    )


def verdict(advice: DeepAdvice) -> str:
    best = advice.choices[0]
    tied = [advice.choices[i].choice for i in advice.within_noise]
    return verdict_words(best.choice, best.win, tied)


def to_json(advice: DeepAdvice) -> str:
    rows = [
        {
            "choice": c.choice,
            "kind": c.kind,
            **shared.estimates_json(c),
            "balanced_value": c.balanced_value,
            "default": c.default,
        }
        for c in advice.choices
    ]
    return shared.advice_json(
        {"me": advice.me, "decision": advice.decision, "seats": list(advice.seats)},
        advice,
        "every seat tuned balanced in the rollouts",
        [advice.choices[i].choice for i in advice.within_noise],
        rows,
    )
