"""Deep advice for Colorful Treasure: the choices of the cards to reveal first,
ranked by win chance and expected final score from rollouts of the ``search``
player (``analyzer advise --game colorful_treasure STATE.toml --deep``;
``docs/games/colorful_treasure.md``).

The table state (:mod:`.odds`, :data:`~.odds.EXAMPLE`) says what the seat knows
at the start of its turn. The rest of the game is filled in as *assumed* and
listed with the answer:

- the seats: me first (to play now), then the other players in turn order;
- the cards gone that I do not hold are held by the other players, dealt at
  random among them (the same deal for every ``--seed``); whoever holds a
  wonder's diamond card took its plastic diamond; each seat's key and chest
  cards have been paired as far as they go (their markers discarded);
- a "first to" reward already given went to the next player;
- the game has gone on for as many turns as cards are gone;
- everything I do not remember is dealt again in every rollout, and the other
  players remember what I remember (:mod:`.search`, "It never reads what it
  cannot see").

Each choice gets the same number of rollouts (the same dealt copies and streams
for every choice: common random numbers), every seat then playing tuned
``greedy``. The ranking, its intervals and its verdict come from
:mod:`analyzer.kernels.search`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import analyzer.games.deep as shared
from analyzer.colorful_treasure.odds import TurnOdds, TurnState, turn_odds
from analyzer.colorful_treasure.rules import Rules, load_rules
from analyzer.core.errors import InputError, Param, ParamError
from analyzer.core.seeding import resolve_seed, root_key
from analyzer.kernels.search import verdict_words

#: seed of the assumed parts of the game (the same for every ``--seed``, so that
#: runs with different seeds differ only by their rollouts)
BUILD_SEED = 2026
#: rollouts in all when ``--budget`` is not given
DEFAULT_BUDGET = 60_000


@dataclass(frozen=True)
class DeepChoice(shared.Estimates):
    """One reveal choice and what its rollouts say (:class:`analyzer.games.deep.Estimates`)."""

    choice: str  #: named as the exact ranking names it: "pyramids unknown + ..."
    greedy_value: float  #: greedy's exact expected points of the take (its ranking)


@dataclass(frozen=True)
class DeepAdvice(shared.DeepAnswer):
    """The first-reveal choices ranked (:class:`analyzer.games.deep.DeepAnswer`)."""

    players: int
    greedy_choice: str  #: the choice tuned greedy would make


def _rules(state: TurnState, rules: Rules | None) -> Rules:
    if rules is not None:
        return rules
    return load_rules({"scoring": state.scoring})


def build(state: TurnState, rules: Rules, seed: int = BUILD_SEED):
    """The game of ``state`` as the engine holds it (module docstring), seat 0 to
    play; returns ``(State, assumed)``."""
    from analyzer.colorful_treasure import engine, turn
    from analyzer.colorful_treasure.game import strategy_arrays
    from analyzer.colorful_treasure.state import (
        H_CHESTS,
        H_KEYS,
        H_PLASTIC,
        NEVER,
        S_DISCARDED,
        S_EXPLORER_OWNER,
        S_GEM_OWNER,
        S_GRID_CARDS,
        S_GRID_PLACES,
        S_LEFT,
        S_SEAT,
        S_TURN,
        new_state,
    )
    from analyzer.kernels.kernel_view import make_view

    t = rules.tables
    n = state.players
    s = new_state(t, n)
    plan, prm = strategy_arrays(rules, ("greedy",) * n)
    s.plan[:] = plan
    s.prm[:] = prm
    k0, k1 = root_key(seed)
    sv, tv = make_view(s, "CTState"), make_view(t, "CTTables")
    engine.start_game(sv, tv, n, k0, k1, 0)
    rows = t.rows
    in_grid: set[int] = set()
    s.grid[:] = -1
    for col in state.columns:
        for i, c in enumerate(col.remembered + tuple(sorted(col.unknown))):
            s.grid[col.wonder * rows + i] = c
            in_grid.add(c)
    free = {
        w: [p for p in range(w * rows, (w + 1) * rows) if s.grid[p] < 0] for w in range(t.n_wonders)
    }
    for c in range(t.n_cards):
        if c in in_grid:
            s.pos_of[c] = int(np.flatnonzero(s.grid == c)[0])
        else:
            s.pos_of[c] = free[c // rows].pop(0)
    s.sc[S_LEFT] = len(in_grid)
    s.sc[S_GRID_CARDS] = sum(1 << c for c in in_grid)
    s.sc[S_GRID_PLACES] = sum(1 << int(s.pos_of[c]) for c in in_grid)
    gone = [c for c in range(t.n_cards) if c not in in_grid and c not in state.mine]
    rng = np.random.default_rng(seed)
    gone = [int(c) for c in rng.permutation(gone)]
    holder = {c: 0 for c in state.mine}
    for i, c in enumerate(gone):
        holder[c] = 1 + i % (n - 1)
    for c in sorted(holder):
        turn.gain_card(sv, tv, holder[c], c)
        if int(t.card_kind[c]) == 1 and s.board_plastic[c // rows] == 1:  # a diamond card
            s.board_plastic[c // rows] = 0
            s.held[holder[c], H_PLASTIC] += 1
    from analyzer.colorful_treasure.codes import Kind

    for q in range(n):
        keys = sum(1 for c, h in holder.items() if h == q and t.card_kind[c] == Kind.KEY)
        chests = sum(1 for c, h in holder.items() if h == q and t.card_kind[c] == Kind.CHEST)
        pairs = min(keys, chests)
        s.held[q, H_KEYS] = keys - pairs
        s.held[q, H_CHESTS] = chests - pairs
        s.sc[S_DISCARDED] += 2 * pairs
    if "gem" in state.rewards_given:
        s.sc[S_GEM_OWNER] = 1
    if "explorer" in state.rewards_given:
        s.sc[S_EXPLORER_OWNER] = 1
    turns = len(gone) + len(state.mine)
    s.sc[S_TURN] = turns
    s.sc[S_SEAT] = 0
    s.mem[:] = NEVER
    s.kn[:] = 0
    for col in state.columns:
        for c in col.remembered:
            s.mem[0, c] = turns
            s.kn[0] |= 1 << c
    seats = ", ".join(["me"] + [f"player {q + 1}" for q in range(1, n)])
    assumed = [
        f"seats in turn order: {seats} (me to play now)",
        f"the {len(gone)} cards gone that I do not hold are held by the other players, dealt at "
        "random among them; whoever holds a diamond card took its plastic diamond; key and "
        "chest cards paired as far as they go",
    ]
    if state.rewards_given:
        assumed.append(
            f"rewards already given ({', '.join(sorted(state.rewards_given))}) went to player 2"
        )
    assumed += [
        f"{turns} turns played so far",
        "every place I do not remember is dealt again in every rollout (uniform over its "
        "wonder's cards I do not know); the other players remember what I remember",
        "every seat plays tuned greedy after my choice (the rest of my turn too), standard "
        "rules (no action tiles)",
    ]
    return s, assumed


def _slot_name(rules: Rules, slot: int) -> str:
    t = rules.tables
    ids = rules.wonder_ids
    if slot < 0:
        return f"{ids[-1 - slot]} unknown"
    w = slot // t.rows
    return rules.card_name(slot).replace(rules.wonder_names[w], ids[w]) + " (remembered)"


def choice_name(state: TurnState, rules: Rules, a: int, b: int) -> str:
    """A pair of slots named as the exact ranking (:func:`.odds.turn_odds`) names
    it: the file's column order, a remembered place before the unknown ones."""
    t = rules.tables
    order = {col.wonder: i for i, col in enumerate(state.columns)}

    def key(slot):
        if slot < 0:
            return (order[-1 - slot], 1, 0)
        col = state.columns[order[slot // t.rows]]
        return (order[slot // t.rows], 0, col.remembered.index(slot))

    return " + ".join(_slot_name(rules, x) for x in sorted((a, b), key=key))


def deep_advice(
    state: TurnState,
    rules: Rules | None = None,
    *,
    budget: int | None = None,
    seed=None,
) -> DeepAdvice:
    """Rank the first-reveal choices of ``state`` by win chance from ``budget``
    rollouts in all (``DEFAULT_BUDGET``), shared equally, seeded by ``seed``."""
    from analyzer.colorful_treasure import search
    from analyzer.colorful_treasure.game import rollout_state
    from analyzer.kernels.kernel_view import make_view

    rules = _rules(state, rules)
    budget = shared.check_budget(budget, DEFAULT_BUDGET, 2, 10_000_000)
    seed = resolve_seed(seed)
    t = rules.tables
    if int(t.first_reveals) != 2 or int(t.n_tiles) > 0:
        raise ParamError(
            Param("deep"), ": needs the standard rules (two cards revealed first, no tiles)"
        )
    s, assumed = build(state, rules)
    n = state.players
    if sum(len(c.remembered) + len(c.unknown) for c in state.columns) < 3:
        raise InputError(
            "table state: grid: fewer than 3 face-down cards, nothing to choose "
            "(allowed: at least 3 face-down cards)"
        )
    r = rollout_state(rules, n)
    keep = max(budget // 2, 2)
    w = search.new_search(t, n, budget=budget, width=0, keep=keep)
    key0, _ = root_key(seed)
    views = (make_view(s, "CTState"), make_view(t, "CTTables"), make_view(r, "CTState"))
    played = shared.play_ranking(
        lambda: search.rank_all(*views, search.pack_search(w), 0, n, key0, budget, 0),
        w,
        "table state: grid: nothing to choose",  # (never: three face-down cards at least)
    )
    names = [choice_name(state, rules, int(c), int(d)) for c, d, _ in w.cand[: len(played.rows)]]
    ranked = [
        DeepChoice(
            choice=names[row.index],
            **shared.estimates(row),
            greedy_value=float(w.cand_h[row.index]),
        )
        for row in played.rows
    ]
    return DeepAdvice(players=n, greedy_choice=names[0], **played.answer(ranked, seed, assumed))


# --------------------------------------------------------------------------- output


def exact_points(state: TurnState, rules: Rules | None = None) -> dict[str, float]:
    """Each choice's exact expected points this turn (:func:`.odds.turn_odds`), by name."""
    odds: TurnOdds = turn_odds(state, _rules(state, rules))
    return {c.name: float(c.points) for c in odds.choices}


def render(advice: DeepAdvice, exact: dict):
    """A rich table of the deep ranking, with the exact points this turn beside."""

    def cells(i, c):
        ex = exact.get(c.choice)
        mine = " (greedy's)" if c.choice == advice.greedy_choice else ""
        return (c.choice + mine,), ("-" if ex is None else f"{ex:.3f}",)

    n_roll = advice.choices[0].rollouts
    return shared.ranking_table(
        f"Cards to reveal first, by win chance: {n_roll:,} rollouts each, "
        f"{advice.players} players (± half a 95% interval)",
        advice.choices,
        before=(("reveal first", "left"),),
        after=(("points this turn (exact)", "right"),),
        cells=cells,
    )


def verdict(advice: DeepAdvice) -> str:
    """The answer in words."""
    best = advice.choices[0]
    tied = [advice.choices[i].choice for i in advice.within_noise]
    return verdict_words(f"reveal {best.choice}", best.win, tied)


def to_json(advice: DeepAdvice, exact: dict) -> str:
    """``advise --deep --json``: Unearth's shape (``choices`` best first, each with
    its ``choice`` name, and ``within_noise_of_best``)."""
    rows = [
        {
            "choice": c.choice,
            **shared.estimates_json(c),
            "points_this_turn_exact": exact.get(c.choice),
            "greedy_value": c.greedy_value,
            "greedy_choice": c.choice == advice.greedy_choice,
        }
        for c in advice.choices
    ]
    return shared.advice_json(
        {"goal": "win chance from rollouts of the whole game"},
        advice,
        "every seat tuned greedy in the rollouts",
        [advice.choices[i].choice for i in advice.within_noise],
        rows,
    )
