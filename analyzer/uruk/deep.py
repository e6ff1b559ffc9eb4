"""Deep advice for Uruk: the choices of a table state's decision ranked by win
chance and expected final score, from rollouts (``analyzer advise --game uruk
--deep``; ``docs/rules/uruk.md``, "Table advice").

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

from analyzer.core.errors import InputError
from analyzer.core.seeding import resolve_seed, root_key
from analyzer.games.deep import (
    advice_json,
    check_budget,
    estimates,
    estimates_json,
    ranking_table,
)
from analyzer.kernels.search import rank_work, verdict_words
from analyzer.uruk.advise import TableState, action_name, build
from analyzer.uruk.rules import Rules, default_rules

#: rollouts in all when ``--budget`` is not given
DEFAULT_BUDGET = 12_000
#: kinds of action, by ``codes.Action``
ACTION_KINDS = ("take_card", "make", "take_resources", "trade", "settle", "card_action")


@dataclass(frozen=True)
class DeepChoice:
    """One choice and what its rollouts say (95% intervals: Wilson for the win
    chance, normal for the score and the paired difference to the best)."""

    choice: str
    kind: str
    rollouts: int
    win: float
    win_ci: tuple[float, float]
    score: float
    score_ci: tuple[float, float]
    balanced_value: float  #: balanced's evaluation (for a bid: minus its distance to balanced's)
    default: bool  #: tuned balanced's own choice
    gain: float  #: mean paired win-share difference to the best choice
    gain_ci: tuple[float, float]


@dataclass(frozen=True)
class DeepAdvice:
    me: str
    decision: str
    seats: tuple[str, ...]
    choices: tuple[DeepChoice, ...]  #: best first
    rollouts: int
    seconds: float
    seed: int
    assumed: tuple[str, ...]
    within_noise: tuple[int, ...]  #: ranks (in ``choices``) not distinguishable from the best


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
    budget = check_budget(budget, DEFAULT_BUDGET, 1, 1_000_000)
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
    keep = max(budget // n_choices, 2)
    w = search.new_search(t, rollout_rows(t, n), keep=keep)
    r = new_state(t)
    key0, _ = root_key(seed)
    names = {}
    if mode == search.MODE_ACTION:
        for kind, a, b in _actions(s, rules, p):
            names[(kind, a, b)] = action_name(rules, s, p, kind, a, b)
    t0 = time.process_time()
    k = search.rank_all(
        sv,
        tv,
        make_view(r, "UrukState"),
        search.pack_search(w),
        p,
        key0,
        budget,
        mode,
        k_left,
        final_left,
        g,
    )
    seconds = time.process_time() - t0
    if k == 0:
        raise InputError(
            "table state: no legal choice for the decision (allowed: a state where "
            f"{state.names[p]} can act)"
        )
    ranking = rank_work(w, k)
    rows = []
    for row in ranking.rows:
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
                **estimates(row),
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
        choices=tuple(rows),
        rollouts=int(w.count[search.K_ROLLOUTS]),
        seconds=seconds,
        seed=seed,
        assumed=tuple(assumed),
        within_noise=ranking.within_noise,
    )


def _actions(s, rules, p):
    from analyzer.uruk.advise import list_actions

    return [(kind, a, b) for kind, a, b, _ in list_actions(s, rules, p)]


# --------------------------------------------------------------------------- output


def render(advice: DeepAdvice, top: int):
    n_roll = advice.choices[0].rollouts
    return ranking_table(
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
            **estimates_json(c),
            "balanced_value": c.balanced_value,
            "default": c.default,
        }
        for c in advice.choices
    ]
    return advice_json(
        {"me": advice.me, "decision": advice.decision, "seats": list(advice.seats)},
        advice,
        "every seat tuned balanced in the rollouts",
        [advice.choices[i].choice for i in advice.within_noise],
        rows,
    )
