"""Deep advice: the excavation choices of a table state ranked by win chance and
expected final score, from rollouts of the ``search`` player (``analyzer advise
--deep``; ``docs/games/unearth.md``, "Deep advice").

A table-state file (:mod:`.advise`) says what matters for one roll: the ruins in
play with their dice and stones, my free dice, my hand, the wonders each player
owns, the event, the bag. The rest of the game is filled in as *assumed* here and
listed with the answer:

- the seats: me first, then the other players in the order of ``players`` (or of
  their first appearance in the file), playing in that order after me;
- a ruin whose name is a card id (``A13``) is that card, otherwise an unused ruin
  card with its claim value; the stones on a ruin take colours at random from the
  bag;
- nobody has claimed a ruin or placed a stone yet (with an end-of-age event in
  play the deck is used up, so the other ruins were claimed: dealt at random);
- every other player holds the usual set-up hand (its cards unknown to me);
- everything I cannot see (the deck, the set-aside ruins, the face-down ruins,
  my own too, other hands, the token piles) is dealt again in every rollout, and
  a slot the file leaves empty is filled from the deck.

Each choice gets the same number of rollouts (the same dealt copies and dice for
every choice: common random numbers), every seat then playing tuned ``balanced``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import analyzer.games.deep as shared
from analyzer.core.errors import InputError, Param, ParamError, bad_value
from analyzer.core.seeding import resolve_seed, root_key
from analyzer.kernels.search import verdict_words
from analyzer.unearth.advise import TableState
from analyzer.unearth.rules import Rules, default_rules

#: seed of the assumed parts of the game (the same for every ``--seed``, so that
#: runs with different seeds differ only by their rollouts)
BUILD_SEED = 2026

#: rollouts in all when ``--budget`` is not given
DEFAULT_BUDGET = 12_000


@dataclass(frozen=True)
class DeepChoice(shared.Estimates):
    """One excavation choice and what its rollouts say (:class:`analyzer.games.deep.Estimates`)."""

    die: str
    from_ruin: str | None
    ruin: str
    balanced_value: float  #: balanced's one-roll evaluation (points)


@dataclass(frozen=True)
class DeepAdvice(shared.DeepAnswer):
    """The excavation choices of seat ``me`` ranked (:class:`analyzer.games.deep.DeepAnswer`)."""

    me: str
    seats: tuple[str, ...]


def _seats(
    state: TableState, players: list[str] | None, rules: Rules, owners=()
) -> tuple[str, ...]:
    """Me first, then the others: in the order of ``players`` (the others in turn
    order after me; naming me there too is allowed), else as they first appear in
    the file (dice on ruins, then the owners of named wonders, ``owners``)."""
    seen = [state.me]
    for r in state.ruins:
        for d in r.dice:
            if d.owner not in seen:
                seen.append(d.owner)
    for owner in [o for _, o in state.wonders] + list(owners):
        if owner not in seen:
            seen.append(owner)
    if players:
        order = [p for p in players if p != state.me]
        if len(set(order)) != len(order):
            raise bad_value(Param("players"), ",".join(players), "each player named once")
        missing = [p for p in seen[1:] if p not in order]
        if missing:
            raise bad_value(
                Param("players"),
                ",".join(players),
                f"every other player of the file ({', '.join(missing)} missing)",
            )
        seen = [state.me, *order]
    t = rules.tables
    if not t.min_players <= len(seen) <= t.max_players:
        raise ParamError(
            f"table state: {len(seen)} players ({', '.join(seen)}) (allowed: {t.min_players} to "
            f"{t.max_players}; name the others with ",
            Param("players"),
            ")",
        )
    return tuple(seen)


def build(state: TableState, rules: Rules, seats: tuple[str, ...], seed: int, owned: dict):
    """The game ``(s, m)`` of the table state, ``me`` at seat 0 to roll, and the
    assumptions made (module docstring). ``owned``: named wonder ids by owner."""
    from analyzer.unearth.memo import new_memo
    from analyzer.unearth.setup import setup
    from analyzer.unearth.state import (
        S_DECK_LEN,
        S_DECK_POS,
        S_EOA,
        S_REMOVED_N,
        S_ROLL_MOD,
        new_state,
    )
    from analyzer.unearth.strategies import Strategy
    from analyzer.unearth.structs import pack_memo, pack_state, pack_tables

    t = rules.tables
    n = len(seats)
    rng = np.random.default_rng(seed)
    s = new_state(t, n)
    codes = np.array([int(Strategy.SEARCH)] + [int(Strategy.BALANCED)] * (n - 1), np.int64)
    from analyzer.unearth.defaults import default_row

    prm = np.array([default_row("balanced", n)] * n, np.float64)
    m = new_memo(t, n, codes, prm)
    key0, key1 = root_key(seed)
    setup(pack_state(s), pack_memo(m), pack_tables(t), n, key0, key1, 0)
    assumed = [f"seats in turn order: {', '.join(seats)} ({seats[0]} to roll now)"]
    # --- ruins
    ids = rules.card_ids
    free_cards = list(range(t.n_ruins))
    n_slots = int(t.revealed_by_players[n])
    if len(state.ruins) > n_slots:
        raise InputError(
            f"table state: {len(state.ruins)} ruins in play (allowed: at most {n_slots} "
            f"at {n} players)"
        )
    s.slot_card[:] = -1
    s.slot_stones[:] = 0
    s.bag[:] = t.stones_per_colour
    named_cards = {r.name for r in state.ruins if r.name in ids[: t.n_ruins]}
    chosen = []
    for k, r in enumerate(state.ruins):
        if r.name in ids[: t.n_ruins]:
            card = ids.index(r.name)
            if int(t.card_claim[card]) != r.claim_value:
                raise bad_value(
                    f"ruins[{k}].claim",
                    r.claim_value,
                    f"{t.card_claim[card]} (the claim of {r.name})",
                )
        else:
            pick = [
                c
                for c in free_cards
                if int(t.card_claim[c]) == r.claim_value
                and ids[c] not in named_cards
                and c not in chosen
            ]
            if not pick:
                have = sorted({int(v) for v in t.card_claim[: t.n_ruins]})
                raise bad_value(f"ruins[{k}].claim", r.claim_value, ", ".join(map(str, have)))
            card = int(rng.choice(pick))
            assumed.append(f"ruin {r.name} is card {ids[card]}")
        chosen.append(card)
        s.slot_card[k] = card
        for _ in range(r.stones):
            c = int(rng.choice(np.flatnonzero(s.bag > 0)))
            s.bag[c] -= 1
            s.slot_stones[k, c] += 1
    if any(r.stones for r in state.ruins):
        colours = rules.stone_colours
        said = "; ".join(
            f"{r.name} "
            + "+".join(
                f"{int(s.slot_stones[k, c])} {colours[c]}"
                for c in range(len(colours))
                if s.slot_stones[k, c]
            )
            for k, r in enumerate(state.ruins)
            if r.stones
        )
        assumed.append(f"stone colours on the ruins: {said}")
    if len(state.ruins) < n_slots:
        assumed.append(
            f"{n_slots - len(state.ruins)} empty ruin slot(s) filled from the deck in each rollout"
        )
    rest = [c for c in free_cards if c not in chosen]
    rng.shuffle(rest)
    s.held[:] = 0
    s.held_colour[:] = 0
    s.hidden[:] = -1
    for q in range(n):
        card = rest.pop()
        s.hidden[q] = card
        s.held[q, card] = 1
        s.held_colour[q, t.card_colour[card]] += 1
    n_removed = int(t.removed_by_players[n])
    s.removed[:] = -1
    for i in range(n_removed):
        s.removed[i] = rest.pop()
    s.sc[S_REMOVED_N] = n_removed
    n_eoa = t.card_kind.shape[0] - t.n_ruins
    # the deck as dealt: the ruins on the table came off its top, the rest follow,
    # the end-of-age card last; its length and position tell the strategies how
    # far the game has gone (strategies.ruins_left, the Eternal Flame's worth)
    deck_cards = chosen + rest
    if state.event is None:
        eoa = t.n_ruins + int(rng.integers(n_eoa))
        pos = len(chosen)
        assumed.append("no ruin claimed and no stone placed yet")
    else:
        from analyzer.unearth.odds import _short

        eoa = next(i for i in range(t.n_ruins, len(ids)) if _short(ids[i]) == state.event)
        pos = len(deck_cards) + 1  # every card revealed, the event too
        s.sc[S_ROLL_MOD] = int(t.card_amount[eoa])
        for c in rest:  # the deck is used up: the other ruins were claimed
            q = int(rng.integers(n))
            s.held[q, c] = 1
            s.held_colour[q, t.card_colour[c]] += 1
        assumed.append("the deck is used up (event in play): the other ruins claimed at random")
    s.ruin_deck[:] = -1
    for i, c in enumerate(deck_cards):
        s.ruin_deck[i] = c
    s.ruin_deck[len(deck_cards)] = eoa
    s.sc[S_DECK_LEN] = len(deck_cards) + 1
    s.sc[S_DECK_POS] = pos
    s.sc[S_EOA] = eoa
    # --- dice
    faces = [int(f) for f in t.dice_faces]
    s.die_slot[:] = -1
    s.die_value[:] = 0
    used = {q: [False] * len(faces) for q in range(n)}
    for k, r in enumerate(state.ruins):
        for d in r.dice:
            q = seats.index(d.owner)
            i = next(i for i, f in enumerate(faces) if f == d.faces and not used[q][i])
            used[q][i] = True
            s.die_slot[q, i] = k
            s.die_value[q, i] = d.value
    mine_free = sum(1 for i in range(len(faces)) if not used[0][i])
    if mine_free != len(state.free_dice):
        assumed.append(f"{state.me}'s dice not in the file are in its pool")
    # --- cards
    k_ids = rules.delver_ids
    s.hand[:] = 0
    s.ddisc[:] = 0
    deck = []
    for k, copies in enumerate(t.delver_copies):
        deck += [k] * int(copies)
    for card in state.hand:
        k = k_ids.index(card)
        if k not in deck:
            raise bad_value(
                "hand",
                list(state.hand),
                f"at most {int(t.delver_copies[k])} {card} (the copies in the deck)",
            )
        s.hand[0, k] += 1
        deck.remove(k)
    if len(deck) < (n - 1) * int(t.delver_dealt):
        raise bad_value(
            "hand",
            list(state.hand),
            f"at most {len(deck) + len(state.hand) - (n - 1) * int(t.delver_dealt)} cards "
            f"(the others are dealt {int(t.delver_dealt)} each)",
        )
    rng.shuffle(deck)
    for q in range(1, n):
        for _ in range(int(t.delver_dealt)):
            s.hand[q, deck.pop()] += 1
    s.ddeck[:] = 0
    for i, k in enumerate(deck):
        s.ddeck[i] = k
    from analyzer.unearth.state import S_DDECK_N

    s.sc[S_DDECK_N] = len(deck)
    assumed.append(f"the other players hold {t.delver_dealt} delver cards each (unknown to me)")
    # --- named wonders
    w_ids = rules.wonder_ids
    s.named_state[:] = -2
    s.effects[:] = 0
    for owner, names in owned.items():
        q = seats.index(owner)
        for name in names:
            w = w_ids.index(name)
            s.named_state[w] = q
            s.effects[q] |= 1 << int(t.wonder_effect[w])
    free_w = [w for w in range(len(w_ids)) if s.named_state[w] == -2]
    rng.shuffle(free_w)
    in_play = min(n + 2, len(w_ids)) - sum(len(v) for v in owned.values())
    for w in free_w[: max(in_play, 0)]:
        s.named_state[w] = -1
    open_w = [w_ids[w] for w in range(len(w_ids)) if s.named_state[w] == -1]
    assumed.append(f"named wonders still to build: {', '.join(open_w)}")
    # --- bag
    if state.bag is not None:
        total = int(s.bag.sum())
        if state.bag > total:
            raise bad_value("bag", state.bag, f"at most {total} (stones not on a ruin)")
        while int(s.bag.sum()) > state.bag:
            c = int(rng.choice(np.flatnonzero(s.bag > 0)))
            s.bag[c] -= 1
        assumed.append("the stones missing from the bag are out of the game")
    return s, m, assumed


def _owned(file_wonders: dict, rules: Rules) -> dict:
    """Named wonder ids by owner, from the file's ``[wonders]`` (ids, or the
    short names ``college``, ``columns``, ``edifice``, ``sanctuary``)."""
    by_effect = {w["effect"]: w["id"] for w in rules.data["named_wonders"]["wonder"]}
    out: dict[str, list[str]] = {}
    for owner, names in file_wonders.items():
        for name in names:
            wid = name if name in rules.wonder_ids else by_effect.get(name)
            if wid is not None:
                out.setdefault(owner, []).append(wid)
    return out


def deep_advice(
    state: TableState,
    raw_wonders: dict,
    rules: Rules | None = None,
    *,
    budget: int | None = None,
    seed=None,
    players: list[str] | None = None,
) -> DeepAdvice:
    """Rank every excavation choice of ``state`` by win chance from ``budget``
    rollouts in all (``DEFAULT_BUDGET``), shared equally, seeded by ``seed``."""
    from analyzer.unearth import search
    from analyzer.unearth.defaults import default_row
    from analyzer.unearth.memo import new_memo
    from analyzer.unearth.state import new_state
    from analyzer.unearth.strategies import Strategy
    from analyzer.unearth.structs import pack_memo, pack_state, pack_tables

    rules = rules or default_rules()
    budget = shared.check_budget(budget, DEFAULT_BUDGET, 1, 1_000_000)
    seed = resolve_seed(seed)
    from analyzer.unearth.game import check_search_rules

    check_search_rules(rules, Param("deep"))
    owned = _owned(raw_wonders, rules)
    seats = _seats(state, players, rules, owners=tuple(owned))
    s, m, assumed = build(state, rules, seats, BUILD_SEED, owned)
    t = rules.tables
    n = len(seats)
    r = new_state(t, n)
    rows = np.array([default_row("balanced", n)] * n, np.float64)
    rm = new_memo(t, n, np.full(n, int(Strategy.BALANCED), np.int64), rows)
    mine = s.die_slot[0]
    dice = (
        len({int(t.dice_faces[d]) for d in range(len(mine)) if mine[d] < 0})
        if (mine < 0).any()
        else len(mine)
    )
    n_choices = max(dice * int((s.slot_card >= 0).sum()), 1)
    keep = max(budget // n_choices, 2)
    w = search.new_search(t, n, budget=budget, width=0, own_hidden=1, keep=keep)
    key0, _ = root_key(seed)
    views = (pack_state(s), pack_memo(m), pack_tables(t), pack_state(r), pack_memo(rm))
    played = shared.play_ranking(
        lambda: search.rank_all(*views, search.pack_search(w), 0, key0, budget),
        w,
        "table state: no legal excavation choice (allowed: a ruin in play)",
    )
    names = [ru.name for ru in state.ruins]
    faces = [int(f) for f in t.dice_faces]
    pool_empty = bool((s.die_slot[0] >= 0).all())
    ranked = []
    for row in played.rows:
        c = row.index
        d = int(w.cand[c, search.C_DIE])
        home = int(s.die_slot[0, d])
        die = f"d{faces[d]}" + (f" (showing {int(s.die_value[0, d])})" if pool_empty else "")
        ranked.append(
            DeepChoice(
                die=die,
                from_ruin=names[home] if pool_empty and home >= 0 else None,
                ruin=names[int(w.cand[c, search.C_SLOT])],
                **shared.estimates(row),
                balanced_value=float(w.cand_h[c]),
            )
        )
    return DeepAdvice(me=state.me, seats=seats, **played.answer(ranked, seed, assumed))


# --------------------------------------------------------------------------- output


def render(advice: DeepAdvice, exact: dict):
    """A rich table of the deep ranking, with the exact claim odds beside."""

    def cells(i, c):
        die = c.die if c.from_ruin is None else f"{c.die} from {c.from_ruin}"
        ex = exact.get((c.die.split(" ")[0], c.from_ruin, c.ruin))
        return (die, c.ruin), ("-" if ex is None else shared.pct(float(ex)),)

    n_roll = advice.choices[0].rollouts
    return shared.ranking_table(
        f"Excavation choices for {advice.me}, by win chance: {n_roll:,} rollouts each, "
        f"seats {', '.join(advice.seats)} (± half a 95% interval)",
        advice.choices,
        before=(("die", "left"), ("ruin", "left")),
        after=(("I claim (exact)", "right"),),
        cells=cells,
    )


def verdict(advice: DeepAdvice) -> str:
    """The answer in words."""
    best = advice.choices[0]
    what = f"{best.die}{' from ' + best.from_ruin if best.from_ruin else ''} on {best.ruin}"
    tied = [choice_name(advice.choices[i]) for i in advice.within_noise]
    return verdict_words(what, best.win, tied)


def choice_name(c: DeepChoice) -> str:
    """A choice named as ``within_noise_of_best`` names it: ``d6 on A13``."""
    return c.die + " on " + c.ruin


def to_json(advice: DeepAdvice, exact: dict) -> str:
    rows = []
    for c in advice.choices:
        ex = exact.get((c.die.split(" ")[0], c.from_ruin, c.ruin))
        rows.append(
            {
                "choice": choice_name(c),
                "die": c.die,
                "from_ruin": c.from_ruin,
                "ruin": c.ruin,
                **shared.estimates_json(c),
                "p_claim_exact": None if ex is None else float(ex),
                "balanced_value": c.balanced_value,
            }
        )
    return shared.advice_json(
        {"me": advice.me, "seats": list(advice.seats)},
        advice,
        "every seat tuned balanced in the rollouts",
        [choice_name(advice.choices[i]) for i in advice.within_noise],
        rows,
    )
