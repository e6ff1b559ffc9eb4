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
the verdict) are :mod:`analyzer.search`'s.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from analyzer.errors import InputError, bad_value
from analyzer.search import rank_rollouts, verdict_words
from analyzer.seeding import resolve_seed, root_key
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
    from analyzer.kernel_view import make_view
    from analyzer.uruk import search
    from analyzer.uruk.game import rollout_rows
    from analyzer.uruk.state import new_state

    rules = rules or default_rules()
    budget = DEFAULT_BUDGET if budget is None else budget
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= 1_000_000:
        raise bad_value("--budget", budget, "an integer from 1 to 1,000,000")
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
    ranking = rank_rollouts(w.n[:k], w.win[:k], w.score[:k], w.score2[:k], w.wins_by)
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
                rollouts=row.rollouts,
                win=row.win,
                win_ci=row.win_ci,
                score=row.score,
                score_ci=row.score_ci,
                balanced_value=float(w.cand_h[c]),
                default=c == 0,
                gain=row.gain,
                gain_ci=row.gain_ci,
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


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render(advice: DeepAdvice, top: int):
    from rich.table import Table

    n_roll = advice.choices[0].rollouts
    tab = Table(
        title=(
            f"{advice.decision.replace('_', ' ')} choices for {advice.me}, by win chance: "
            f"{n_roll:,} rollouts each, seats {', '.join(advice.seats)} (± half a 95% interval)"
        ),
        title_justify="left",
    )
    for col, just in (
        ("#", "right"),
        ("choice", "left"),
        ("win chance", "right"),
        ("vs best, paired (% points)", "right"),
        ("final score", "right"),
        ("", "left"),
    ):
        tab.add_column(col, justify=just)
    for i, c in enumerate(advice.choices[:top], start=1):
        half_w = (c.win_ci[1] - c.win_ci[0]) / 2
        half_g = (c.gain_ci[1] - c.gain_ci[0]) / 2
        half_s = (c.score_ci[1] - c.score_ci[0]) / 2
        tab.add_row(
            str(i),
            c.choice,
            f"{_pct(c.win)} ± {100 * half_w:.1f}",
            "best" if i == 1 else f"{100 * c.gain:+.1f} ± {100 * half_g:.1f}",
            f"{c.score:.1f} ± {half_s:.1f}",
            "balanced's choice" if c.default else "",
        )
    return tab


def verdict(advice: DeepAdvice) -> str:
    best = advice.choices[0]
    tied = [advice.choices[i].choice for i in advice.within_noise]
    return verdict_words(best.choice, best.win, tied)


def to_json(advice: DeepAdvice) -> str:
    rows = [
        {
            "choice": c.choice,
            "kind": c.kind,
            "rollouts": c.rollouts,
            "win": c.win,
            "win_ci95": list(c.win_ci),
            "score": c.score,
            "score_ci95": list(c.score_ci),
            "gain_vs_best": c.gain,
            "gain_vs_best_ci95": list(c.gain_ci),
            "balanced_value": c.balanced_value,
            "default": c.default,
        }
        for c in advice.choices
    ]
    return json.dumps(
        {
            "me": advice.me,
            "decision": advice.decision,
            "seats": list(advice.seats),
            "seed": advice.seed,
            "rollouts": advice.rollouts,
            "seconds": round(advice.seconds, 3),
            "players": "every seat tuned balanced in the rollouts",
            "assumed": list(advice.assumed),
            "within_noise_of_best": [advice.choices[i].choice for i in advice.within_noise],
            "choices": rows,
        },
        indent=2,
    )
