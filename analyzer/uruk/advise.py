"""Table advice for Uruk: the choices of one decision ranked (``analyzer advise
--game uruk``; ``docs/games/uruk.md``, "Table advice").

A table state (a TOML file; ``examples/table.toml``, printed by ``--example``)
says what a player sees at the table: every seat's displayed inventions with
their settlements and its resources, my hand, the other hands' sizes, the
central display, the stones left on the epoch cards, the face-up discard pile,
and the decision: my next action (``decision = "action"``) or my secret bid
against a disaster (``"secret_bid"``). :func:`build` turns it into a full game
state, dealing what I cannot see (the deck, the others' hands) at random and
listing what it assumed. :func:`one_step` ranks the choices by the tuned
``balanced`` player's own evaluation (its value of each action; a bid by the
points it saves or costs, the others bidding as tuned ``balanced`` would from
what they show); :mod:`analyzer.uruk.deep` ranks them by win chance from
rollouts. Draws no random numbers but the deal of :func:`build` (a fixed seed).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.core.errors import InputError, bad_value
from analyzer.games.table import columns_table, example_file, read_state, unknown_keys
from analyzer.uruk.rules import Rules, default_rules

TOP_KEYS = (
    "me",
    "decision",
    "actions_left",
    "god",
    "trigger",
    "display",
    "epochs",
    "discard",
    "discard_counts",
    "discard_unknown",
    "pending",
    "reshuffled",
    "stone_pool",
    "final_round",
    "functions_used",
    "seat",
)
SEAT_KEYS = ("name", "inventions", "resources", "hand", "cards", "half_price", "city_points")
DECISIONS = ("action", "secret_bid")
SETTLEMENTS = ("none", "village", "city")
#: seed of the deal of what I cannot see in :func:`build` (fixed: the same file
#: always builds the same game)
BUILD_SEED = 2026
#: the largest number a count in the file may take
MAX_COUNT = 100


def example_text() -> str:
    """The shipped, commented example state file."""
    return example_file("analyzer.uruk")


# --------------------------------------------------------------------------- the file


@dataclass(frozen=True)
class Seat:
    name: str
    inventions: tuple[tuple[int, int], ...]  #: (invention, stones 0/1/2), as in the file
    resources: tuple[int, ...]  #: per colour
    hand: tuple[int, ...] | None  #: my cards (inventions, with repeats); None for others
    cards: int  #: hand size
    half_price: int
    city_points: int


@dataclass(frozen=True)
class TableState:
    """A validated Uruk table state (:func:`load_state`)."""

    me: int  #: my seat
    decision: str
    actions_left: int
    god: int  #: the disaster of a secret bid (god index), -1 none
    trigger: int  #: the seat whose turn just ended (secret bid)
    display: tuple[int, ...]
    epochs: tuple[int, ...]
    discard: tuple[int, ...]  #: card codes (inventions, then n_inv + god), earliest first
    pending: int  #: god index beside the display, -1 none
    reshuffled: bool
    stone_pool: int
    final_round: bool
    functions_used: tuple[int, ...]
    seats: tuple[Seat, ...]
    #: whether ``discard`` is in the order discarded (a list in the file); by counts
    #: (``discard_counts``) its order is unknown and dealt at random
    discard_ordered: bool = True
    #: cards in the discard pile I do not remember (``discard_unknown``): any cards
    #: not seen, dealt at random
    discard_unknown: int = 0

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)


def _fold(name: str) -> str:
    """A card name as the lookup compares it: lower case, umlauts spelt out,
    no spaces or accents (``Dürre`` = ``duerre``)."""
    text = name.strip().lower()
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(a, b)
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if ch.isalnum())


def _lookup(rules: Rules) -> tuple[dict, dict]:
    inv = {}
    for i, (a, b) in enumerate(zip(rules.invention_ids, rules.invention_names, strict=True)):
        inv[_fold(a)] = i
        inv[_fold(b)] = i
    god = {}
    for g, (a, b) in enumerate(zip(rules.god_ids, rules.god_names, strict=True)):
        god[_fold(a)] = g
        god[_fold(b)] = g
    return inv, god


def load_state(path: str | Path, rules: Rules | None = None) -> TableState:
    """Read and validate a table-state TOML file; every problem is one
    :class:`InputError` line ``FILE: key: bad value ... (allowed: ...)``."""
    data, src = read_state(Path(path), "analyzer advise --game uruk --example")
    return parse_state(data, src, rules or default_rules())


def _int(value, where: str, lo: int, hi: int = MAX_COUNT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise bad_value(where, value, f"an integer from {lo} to {hi}")
    return value


def _bool(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise bad_value(where, value, "true or false")
    return value


def _list(value, where: str) -> list:
    if not isinstance(value, list):
        raise bad_value(where, value, "a list")
    return value


def parse_state(data: dict, src: str, rules: Rules) -> TableState:
    """Validate the dict of a table-state file (``src`` names it in errors)."""
    t = rules.tables
    inv_ids, god_ids = _lookup(rules)
    inv_list = ", ".join(rules.invention_ids)
    god_list = ", ".join(rules.god_ids)
    colours = rules.colours

    def inv(name, where):
        if not isinstance(name, str) or _fold(name) not in inv_ids:
            raise bad_value(where, name, f"an invention: {inv_list}")
        return inv_ids[_fold(name)]

    def god(name, where, allowed=None):
        ok = isinstance(name, str) and _fold(name) in god_ids
        if ok and allowed is not None and god_ids[_fold(name)] not in allowed:
            ok = False
        if not ok:
            names = god_list if allowed is None else ", ".join(rules.god_ids[g] for g in allowed)
            raise bad_value(where, name, names)
        return god_ids[_fold(name)]

    unknown_keys(data, TOP_KEYS, src)
    seats_raw = data.get("seat")
    if not isinstance(seats_raw, list):
        raise bad_value(f"{src}: seat", seats_raw, "[[seat]] tables, one per player")
    for k, raw in enumerate(seats_raw):
        if not isinstance(raw, dict):
            raise bad_value(f"{src}: seat[{k}]", raw, "a [[seat]] table")
    if not t.min_players <= len(seats_raw) <= t.max_players:
        raise bad_value(
            f"{src}: seat",
            f"{len(seats_raw)} seats",
            f"{t.min_players} to {t.max_players} [[seat]] tables",
        )
    names = []
    for k, raw in enumerate(seats_raw):
        nm = raw.get("name")
        if not isinstance(nm, str) or not re.fullmatch(r"[A-Za-z0-9_\-]+", nm) or nm in names:
            raise bad_value(
                f"{src}: seat[{k}].name", nm, "a player name (letters, digits, _ or -), each once"
            )
        names.append(nm)
    me_name = data.get("me")
    if me_name not in names:
        raise bad_value(f"{src}: me", me_name, "the name of one [[seat]]: " + ", ".join(names))
    me = names.index(me_name)
    decision = data.get("decision", "action")
    if decision not in DECISIONS:
        raise bad_value(f"{src}: decision", decision, ", ".join(DECISIONS))
    actions_left = _int(
        data.get("actions_left", t.actions_per_turn), f"{src}: actions_left", 1, t.actions_per_turn
    )
    disasters = [g for g in range(t.n_gods) if t.god_kind[g] == 3]
    gd = -1
    if decision == "secret_bid":
        if "god" not in data:
            raise InputError(
                f'{src}: god: missing (allowed: with decision = "secret_bid", the disaster '
                f"resolved: {', '.join(rules.god_ids[g] for g in disasters)})"
            )
        gd = god(data["god"], f"{src}: god", disasters)
    elif "god" in data:
        raise InputError(f'{src}: god: only with decision = "secret_bid" (allowed: remove it)')
    trig = data.get("trigger", me_name)
    if trig not in names:
        raise bad_value(f"{src}: trigger", trig, ", ".join(names))
    display = _list(data.get("display", []), f"{src}: display")
    if len(display) > t.display_size:
        raise bad_value(f"{src}: display", display, f"at most {t.display_size} inventions")
    display = tuple(inv(x, f"{src}: display[{i}]") for i, x in enumerate(display))
    epochs = _list(data.get("epochs"), f"{src}: epochs")
    n = len(names)
    if len(epochs) != 4:
        raise bad_value(f"{src}: epochs", epochs, "four counts (stones left on cards I to IV)")
    epochs = tuple(
        _int(e, f"{src}: epochs[{i}]", 0, int(t.epoch_stones[i, n])) for i, e in enumerate(epochs)
    )

    def card(x, where):
        if isinstance(x, str) and _fold(x) in god_ids:
            return t.n_inv + god_ids[_fold(x)]
        if isinstance(x, str) and _fold(x) in inv_ids:
            return inv_ids[_fold(x)]
        raise bad_value(where, x, "an invention or god card id")

    if "discard" in data and "discard_counts" in data:
        raise InputError(
            f"{src}: discard_counts: given with discard (allowed: one of them: discard, the "
            "pile in order; discard_counts, how many of each card, order unknown)"
        )
    discard = [
        card(x, f"{src}: discard[{i}]")
        for i, x in enumerate(_list(data.get("discard", []), f"{src}: discard"))
    ]
    ordered = "discard_counts" not in data
    if not ordered:
        counts = data["discard_counts"]
        if not isinstance(counts, dict):
            raise bad_value(f"{src}: discard_counts", counts, "a table card = count")
        for name, k in counts.items():
            c = card(name, f"{src}: discard_counts")
            discard += [c] * _int(k, f"{src}: discard_counts.{name}", 0)
        discard.sort()  # by card: the order is not known
    discard_unknown = _int(data.get("discard_unknown", 0), f"{src}: discard_unknown", 0)
    pending = data.get("pending", "none")
    pending = -1 if pending == "none" else god(pending, f"{src}: pending")
    reshuffled = _bool(data.get("reshuffled", False), f"{src}: reshuffled")
    stone_pool = _int(data.get("stone_pool", 0), f"{src}: stone_pool", 0, t.settlement_stones)
    final_round = _bool(data.get("final_round", False), f"{src}: final_round")
    if final_round and epochs[3] != 0:
        raise bad_value(f"{src}: final_round", True, "false while epoch card IV holds stones")
    used = _list(data.get("functions_used", []), f"{src}: functions_used")
    used = tuple(inv(x, f"{src}: functions_used[{i}]") for i, x in enumerate(used))
    seats = []
    for k, raw in enumerate(seats_raw):
        where = f"{src}: seat[{k}]"
        unknown_keys(raw, SEAT_KEYS, where)
        invs = raw.get("inventions", {})
        if not isinstance(invs, dict) or not 1 <= len(invs) <= t.max_inventions:
            raise bad_value(
                f"{where}.inventions",
                invs,
                f"a table of 1 to {t.max_inventions} inventions = none | village | city",
            )
        shown = []
        for name, st in invs.items():
            x = inv(name, f"{where}.inventions")
            if st not in SETTLEMENTS:
                raise bad_value(f"{where}.inventions.{name}", st, ", ".join(SETTLEMENTS))
            if any(x == y for y, _ in shown):
                raise bad_value(f"{where}.inventions", name, "each invention once")
            shown.append((x, SETTLEMENTS.index(st)))
        res = raw.get("resources", {})
        if not isinstance(res, dict):
            raise bad_value(f"{where}.resources", res, "a table colour = count")
        supply = [0] * len(colours)
        for c, v in res.items():
            if c not in colours:
                raise bad_value(f"{where}.resources", c, ", ".join(colours))
            supply[colours.index(c)] = _int(v, f"{where}.resources.{c}", 0, t.resources_per_colour)
        hand = None
        if k == me:
            if "cards" in raw:
                raise InputError(
                    f"{where}.cards: my hand is listed by `hand` (allowed: remove `cards`)"
                )
            hand = tuple(
                inv(x, f"{where}.hand[{i}]")
                for i, x in enumerate(_list(raw.get("hand", []), f"{where}.hand"))
            )
            cards = len(hand)
        else:
            if "hand" in raw:
                raise InputError(
                    f"{where}.hand: only my own hand is known (allowed: `cards = N`, its size)"
                )
            cards = _int(raw.get("cards", 0), f"{where}.cards", 0)
        seats.append(
            Seat(
                names[k],
                tuple(shown),
                tuple(supply),
                hand,
                cards,
                _int(raw.get("half_price", 0), f"{where}.half_price", 0, 9),
                _int(raw.get("city_points", 0), f"{where}.city_points", 0, 9),
            )
        )
    for c, colour in enumerate(colours):
        total = sum(s.resources[c] for s in seats)
        if total > t.resources_per_colour:
            raise bad_value(
                f"{src}: resources.{colour}",
                total,
                f"at most {t.resources_per_colour} in all the seats' supplies",
            )
    state = TableState(
        me,
        decision,
        actions_left,
        gd,
        names.index(trig),
        display,
        epochs,
        tuple(discard),
        pending,
        reshuffled,
        stone_pool,
        final_round,
        used,
        tuple(seats),
        ordered,
        discard_unknown,
    )
    _check_counts(state, src, rules)
    return state


def _check_counts(state: TableState, src: str, rules: Rules) -> None:
    """Every card at most as often as it exists; every stone counted."""
    t = rules.tables
    seen = np.zeros(t.n_inv, np.int64)
    gods = np.zeros(t.n_gods, np.int64)
    for s in state.seats:
        for x, _ in s.inventions:
            seen[x] += 1
        for x in s.hand or ():
            seen[x] += 1
    for x in state.display:
        seen[x] += 1
    for c in state.discard:
        if c < t.n_inv:
            seen[c] += 1
        else:
            gods[c - t.n_inv] += 1
    if state.pending >= 0:
        gods[state.pending] += 1
    if state.decision == "secret_bid" and state.pending != state.god:
        if state.pending >= 0:
            raise bad_value(
                f"{src}: pending",
                rules.god_ids[state.pending],
                f"{rules.god_ids[state.god]!r} or none (the disaster being resolved)",
            )
        gods[state.god] += 1  # the disaster resolved lies beside the display
    for s in state.seats:
        if s.city_points > 0:
            gods[2] += 1  # Ninurta lies before its winner
    for x in range(t.n_inv):
        if seen[x] > t.inv_copies[x]:
            raise bad_value(
                f"{src}: {rules.invention_ids[x]}",
                f"{int(seen[x])} cards seen",
                f"at most {int(t.inv_copies[x])} (the copies in the game)",
            )
    for g in range(t.n_gods):
        if gods[g] > t.god_copies[g]:
            raise bad_value(
                f"{src}: {rules.god_ids[g]}",
                f"{int(gods[g])} cards seen",
                f"at most {int(t.god_copies[g])} (the copies in the game)",
            )
    unseen = sum(int(t.inv_copies[x] - seen[x]) for x in range(t.n_inv) if t.inv_level[x] >= 2)
    others = sum(s.cards for k, s in enumerate(state.seats) if k != state.me)
    if others > unseen:
        raise bad_value(
            f"{src}: seat.cards",
            others,
            f"at most {unseen} in the other hands (the level-2 to 4 cards not seen)",
        )
    gods_unseen = int(sum(t.god_copies[g] - gods[g] for g in range(t.n_gods)))
    if state.decision == "secret_bid":
        gods_unseen -= 1  # the trigger: a god card not seen
    if state.discard_unknown > unseen - others + gods_unseen:
        raise bad_value(
            f"{src}: discard_unknown",
            state.discard_unknown,
            f"at most {unseen - others + max(gods_unseen, 0)} (the cards not seen, less the "
            "other hands)",
        )
    n = len(state.seats)
    placed = sum(st for s in state.seats for _, st in s.inventions)
    total = sum(state.epochs) + placed + state.stone_pool
    if total > t.settlement_stones:
        raise bad_value(
            f"{src}: epochs",
            list(state.epochs),
            f"at most {t.settlement_stones} stones with the {placed} on inventions and "
            f"stone_pool (the stones of the game)",
        )
    del n


# --------------------------------------------------------------------------- the game


def build(state: TableState, rules: Rules, seed: int = BUILD_SEED):
    """The game ``s`` (a numpy :class:`~analyzer.uruk.state.State`) of the table
    state, every seat playing tuned ``balanced``, and the assumptions made.
    What I cannot see is dealt at random with ``seed``: the other hands from the
    level-2 to 4 cards not seen, the rest into the deck (the level-2 cards on
    top unless the deck was rebuilt, as set-up puts them)."""
    from analyzer.uruk.defaults import default_row
    from analyzer.uruk.state import (
        S_ACTIVE,
        S_BOX_GODS,
        S_BOX_INV,
        S_BOX_STONES,
        S_DECK_N,
        S_DISCARD_N,
        S_END,
        S_FINAL,
        S_GODS_HELD,
        S_N,
        S_PENDING,
        S_POOL_STONES,
        S_RESHUFFLES,
        S_TRIGGER,
        S_TRIGGER_SEAT,
        new_state,
    )
    from analyzer.uruk.strategies import BALANCED, P_STRATEGY

    t = rules.tables
    n = len(state.seats)
    rng = np.random.default_rng(seed)
    s = new_state(t)
    s.sc[:] = 0
    s.sc[S_N] = n
    s.sc[S_PENDING] = -1
    s.sc[S_TRIGGER] = -1
    s.sc[S_TRIGGER_SEAT] = -1
    row = default_row("balanced", n)
    for p in range(n):
        s.prm[p, : len(row)] = row
        s.prm[p, P_STRATEGY] = BALANCED
    assumed = [
        "seats in turn order: "
        + ", ".join(state.names)
        + f" (the first player {state.names[0]}); every seat plays tuned balanced"
    ]
    left = t.inv_copies.copy()
    gods_left = t.god_copies.copy()
    for p, seat in enumerate(state.seats):
        for i, (x, st) in enumerate(seat.inventions):
            s.inv[p, i] = x
            s.stones[p, i] = st
            left[x] -= 1
        s.supply[p] = seat.resources
        s.half_price[p] = seat.half_price
        s.city_points[p] = seat.city_points
        s.actions_next[p] = t.actions_per_turn
        if seat.city_points > 0:
            gods_left[2] -= 1
            s.sc[S_GODS_HELD] += 1
    for x in state.seats[state.me].hand:
        s.hand[state.me, x] += 1
        left[x] -= 1
    for slot, x in enumerate(state.display):
        s.display[slot] = x
        left[x] -= 1
    for c in state.discard:
        if c < t.n_inv:
            left[c] -= 1
        else:
            gods_left[c - t.n_inv] -= 1
    discard = list(state.discard)  # today's files: in order, no random number drawn
    if state.pending >= 0:
        s.sc[S_PENDING] = t.n_inv + state.pending
        gods_left[state.pending] -= 1
    for c in range(t.n_colours):
        s.pool[c] = t.resources_per_colour - s.supply[:n, c].sum()
    s.epoch[:] = state.epochs
    placed = int(s.stones[:n].sum())
    s.sc[S_POOL_STONES] = state.stone_pool
    s.sc[S_BOX_STONES] = t.settlement_stones - placed - sum(state.epochs) - state.stone_pool
    if state.epochs[3] == 0:
        s.sc[S_END] = 1
    if state.final_round:
        s.sc[S_FINAL] = 1
    # level-1 cards not seen left the game at set-up
    box = 0
    for x in range(t.n_inv):
        if t.inv_level[x] == 1:
            box += int(left[x])
            left[x] = 0
    s.sc[S_BOX_INV] = box
    assumed.append("the level-1 inventions not seen left the game at set-up")
    if state.discard_unknown:  # cards of the pile I do not remember: any not seen
        pool = [x for x in range(t.n_inv) for _ in range(int(left[x]))]
        pool += [t.n_inv + g for g in range(t.n_gods) for _ in range(int(gods_left[g]))]
        if state.decision == "secret_bid" and state.pending < 0:
            pool.remove(t.n_inv + state.god)  # the disaster lies beside the display
        for c in rng.choice(pool, state.discard_unknown, replace=False):
            c = int(c)
            discard.append(c)
            if c < t.n_inv:
                left[c] -= 1
            else:
                gods_left[c - t.n_inv] -= 1
        assumed.append(
            f"the {state.discard_unknown} cards of the discard pile I do not remember: cards "
            "not seen, dealt at random (again in each group of rollouts)"
        )
    if not state.discard_ordered or state.discard_unknown:
        rng.shuffle(discard)
        assumed.append(
            "the discard pile's order (which cards leave the game when the deck is rebuilt): "
            "random (again in each group of rollouts)"
        )
    for k, c in enumerate(discard):
        s.discard[k] = c
    s.sc[S_DISCARD_N] = len(discard)
    # the other hands, dealt at random from the cards not seen
    unseen = [x for x in range(t.n_inv) for _ in range(int(left[x]))]
    rng.shuffle(unseen)
    for p, seat in enumerate(state.seats):
        if p == state.me:
            continue
        for _ in range(seat.cards):
            s.hand[p, unseen.pop()] += 1
    assumed.append("the other hands hold cards not seen (dealt at random in each rollout)")
    gods = [t.n_inv + g for g in range(t.n_gods) for _ in range(int(gods_left[g]))]
    if state.decision == "secret_bid":
        # the disaster is the card beside the display; a god card drawn later is the trigger
        g = state.god
        if state.pending < 0:
            gods.remove(t.n_inv + g)
            s.sc[S_PENDING] = t.n_inv + g
        rng.shuffle(gods)
        if not gods:
            raise InputError("table state: no god card left for the trigger (allowed: fewer seen)")
        s.sc[S_TRIGGER] = gods.pop()
        s.sc[S_TRIGGER_SEAT] = state.trigger
        s.sc[S_ACTIVE] = state.trigger
        assumed.append(
            f"the trigger is a god card not seen, before {state.names[state.trigger]}; "
            "hands were already cut to the limit"
        )
    else:
        s.sc[S_ACTIVE] = state.me
        for x in state.functions_used:
            s.fn_used[x] = 1
    level2 = [x for x in unseen if t.inv_level[x] == 2]
    rest = [x for x in unseen if t.inv_level[x] != 2] + gods
    if state.reshuffled:
        deck = level2 + rest
        rng.shuffle(deck)
        s.sc[S_RESHUFFLES] = 1
        assumed.append("the deck: the cards not seen, in random order")
    else:
        rng.shuffle(rest)
        deck = rest + level2  # the level-2 cards lie on top (set-up)
        assumed.append(
            "the deck: the cards not seen in random order, the level-2 ones on top (set-up)"
        )
    for i, c in enumerate(deck):
        s.deck[i] = c
    s.sc[S_DECK_N] = len(deck)
    s.sc[S_BOX_GODS] = 0
    s.actions_next[state.me] = t.actions_per_turn
    return s, assumed


# --------------------------------------------------------------------------- one step


@dataclass(frozen=True)
class Choice:
    choice: str  #: the choice in words (the form of ``within_noise_of_best``)
    kind: str  #: take_card, make, take_resources, trade, settle, card_action, bid
    value: float  #: tuned balanced's evaluation (points now and later)
    points_now: float | None  #: my score change at once (None: it depends on a draw)
    default: bool  #: the tuned player's own choice
    args: tuple[int, int, int] = (0, 0, 0)  #: (Action, a, b) or (bid, 0, 0)
    outcome: str = ""  #: a bid's outcome by the model: "spared" or "suffers" ("": an action)


@dataclass(frozen=True)
class Advice:
    me: str
    decision: str
    choices: tuple[Choice, ...]  #: best first
    within_noise: tuple[int, ...]  #: ranks tied with the best (equal value: a tie, not noise)
    assumed: tuple[str, ...]


ACTION_KINDS = ("take_card", "make", "take_resources", "trade", "settle", "card_action")


def action_name(rules: Rules, s, p: int, kind: int, a: int, b: int) -> str:
    """Seat ``p``'s action ``(kind, a, b)`` in words, e.g. ``make Rad replacing Lehmhaus``."""
    names = rules.invention_names
    if kind == 0:
        return "take the deck's top card" if a == 3 else f"take {names[int(s.display[a])]}"
    if kind == 1:
        out = f"make {names[a]}"
        return out if b < 0 else out + f" replacing {names[int(s.inv[p, b])]}"
    if kind == 2:
        return f"take resources with {names[int(s.inv[p, a])]}"
    if kind == 3:
        got = [names[x] for x in range(len(names)) if (a >> x) & 1 and s.hand[p, x] > 0]
        return "trade " + " + ".join(got)
    if kind == 4:
        what = "village" if s.stones[p, a] == 0 else "city"
        return f"{what} on {names[int(s.inv[p, a])]}"
    return f"card action of {names[int(s.inv[p, a])]}"


def list_actions(s, rules: Rules, p: int) -> list[tuple[int, int, int, float]]:
    """Seat ``p``'s legal actions ``(kind, a, b, value)`` in the tuned player's
    order (the kernel's candidate list)."""
    from analyzer.kernels.kernel_view import make_view
    from analyzer.uruk.strategies import candidates

    k = candidates(make_view(s, "UrukState"), make_view(rules.tables, "UrukTables"), p)
    return [
        (int(s.cand[i, 0]), int(s.cand[i, 1]), int(s.cand[i, 2]), float(s.cand_val[i]))
        for i in range(k)
    ]


def _score(s, t, p) -> int:
    from analyzer.kernels.kernel_view import make_view
    from analyzer.uruk.scoring import score_parts

    return int(sum(score_parts(make_view(s, "UrukState"), make_view(t, "UrukTables"), p)))


def _points_now(s, rules: Rules, p: int, kind: int, a: int, b: int) -> float | None:
    """My score after the action minus before (None for a draw from the deck)."""
    import copy

    from analyzer.kernels.kernel_view import make_view
    from analyzer.uruk.engine import do_action

    t = rules.tables
    if kind == 0 or (kind == 5 and t.inv_kind_param[int(s.inv[p, a])] == 1):
        return None if kind == 5 else 0.0
    r = type(s)(*[copy.copy(x) for x in s])
    before = _score(r, t, p)
    do_action(make_view(r, "UrukState"), make_view(t, "UrukTables"), p, kind, a, b)
    return float(_score(r, t, p) - before)


def action_choices(s, rules: Rules, p: int) -> list[Choice]:
    """Every legal action of seat ``p``, best first by tuned ``balanced``'s value."""
    from analyzer.uruk.strategies import P_UNIFORM  # noqa: F401

    rows = list_actions(s, rules, p)
    best = max(range(len(rows)), key=lambda i: (rows[i][3], -i)) if rows else -1
    out = []
    for i, (kind, a, b, v) in enumerate(rows):
        out.append(
            Choice(
                action_name(rules, s, p, kind, a, b),
                ACTION_KINDS[kind],
                v,
                _points_now(s, rules, p, kind, a, b),
                i == best,
                (kind, a, b),
            )
        )
    return out


def bid_choices(s, rules: Rules, p: int, g: int) -> list[Choice]:
    """My secret bids against disaster ``g`` (0 to my supply), each valued by
    tuned ``balanced``'s evaluation with the others bidding as tuned
    ``balanced`` from what they show: spared, the bid's resources are lost
    (``w_resource`` each); suffering, the disaster's cost (``w_points`` per
    point); everyone tied, everyone suffers."""
    from analyzer.kernels.kernel_view import make_view
    from analyzer.uruk.strategies import (
        P_POINTS,
        P_RESOURCE,
        bid_bonus,
        disaster_loss,
        secret_bid,
    )

    t = rules.tables
    sv = make_view(s, "UrukState")
    tv = make_view(t, "UrukTables")
    n = int(s.sc[0])
    others = [secret_bid(sv, tv, q, g) + bid_bonus(sv, tv, q) for q in range(n) if q != p]
    mine = int(secret_bid(sv, tv, p, g))
    bonus = int(bid_bonus(sv, tv, p))
    loss = float(disaster_loss(sv, tv, p, g))
    prm = s.prm[p]
    have = int(s.supply[p].sum())
    out = []
    for b in range(have + 1):
        v = b + bonus
        top = max(others)
        spared = v > top or (v == top and any(o < top for o in others))
        value = -prm[P_RESOURCE] * b if spared else -prm[P_POINTS] * loss
        outcome = "spared" if spared else "suffers"
        out.append(Choice(f"bid {b}", "bid", float(value), None, b == mine, (b, 0, 0), outcome))
    return out


def one_step(state: TableState, rules: Rules | None = None) -> Advice:
    """The choices of the table state's decision ranked by tuned ``balanced``'s
    evaluation (module docstring), best first; ties with the best are within noise."""
    rules = rules or default_rules()
    s, assumed = build(state, rules)
    if state.decision == "action":
        rows = action_choices(s, rules, state.me)
        assumed.append(
            "value: tuned balanced's evaluation of the action (points now and later, "
            "in points); points now: my score change at once"
        )
    else:
        rows = bid_choices(s, rules, state.me, state.god)
        assumed.append(
            "value: tuned balanced's evaluation of the bid's outcome, the others bidding as "
            "tuned balanced would from what they show (a rough model: --deep plays it out)"
        )
    if not rows:
        raise InputError(
            "table state: no legal choice for the decision (allowed: a state where "
            f"{state.names[state.me]} can act)"
        )
    order = sorted(range(len(rows)), key=lambda i: (-rows[i].value, not rows[i].default, i))
    ranked = tuple(rows[i] for i in order)
    tied = tuple(i for i in range(1, len(ranked)) if abs(ranked[i].value - ranked[0].value) < 1e-9)
    return Advice(state.names[state.me], state.decision, ranked, tied, tuple(assumed))


# --------------------------------------------------------------------------- output


#: the unit of a one-step value, in words
VALUE_UNIT = "points: tuned balanced's estimate of what the choice brings, now and later"
#: what the one-step ranking ranks by, in words (the deep advice names it so)
RANKED_BY = "tuned balanced's one-step value"
#: why the one-step ranking sees less than the rollouts
HORIZON = "the one-step value is balanced's estimate of this decision alone"


def choice_words(c: Choice) -> str:
    """A choice's value with its unit, and what it means: ``worth +2.85 points``;
    a bid ``spared, costs 1.40 points`` (no ``null``: a point change that depends
    on a draw is left out)."""
    if c.kind == "bid":
        if c.outcome == "spared":
            return f"spared the disaster, costs {-c.value:.2f} points in resources"
        return f"suffers the disaster, costs {-c.value:.2f} points"
    out = f"worth {c.value:+.2f} points"
    if c.points_now is not None:
        out += f", {c.points_now:+.0f} points at once"
    return out


def advice_json(advice: Advice) -> str:
    """``advise --json``: ``choices`` best first (``value`` in points, ``points_now``
    null when it depends on a draw, ``default`` tuned balanced's own choice), with
    ``rank`` (1 best; the ★), ``words`` (the value with its unit), a bid's
    ``outcome``; ``tied_with_best`` the choices of exactly the best value
    (``within_noise_of_best`` is empty: a one-step value carries no noise)."""
    rows = [
        {
            "choice": c.choice,
            "kind": c.kind,
            "value": round(c.value, 6),
            "points_now": c.points_now,
            "default": c.default,
            "rank": i,
            "words": choice_words(c),
            **({"outcome": c.outcome} if c.outcome else {}),
        }
        for i, c in enumerate(advice.choices, start=1)
    ]
    own = next((c.choice for c in advice.choices if c.default), None)
    return json.dumps(
        {
            "me": advice.me,
            "decision": advice.decision,
            "ranking": "tuned balanced's evaluation (one step)",
            "assumed": list(advice.assumed),
            "within_noise_of_best": [],
            "tied_with_best": [advice.choices[i].choice for i in advice.within_noise],
            "value_unit": VALUE_UNIT,
            "balanced_choice": own,
            "verdict": verdict(advice),
            "choices": rows,
        },
        indent=2,
    )


def render(advice: Advice, top: int):
    tab = columns_table(
        f"{advice.decision.replace('_', ' ')} choices for {advice.me}, by tuned "
        "balanced's evaluation (one step; --deep for win chances)",
        (
            ("#", "right"),
            ("choice", "left"),
            ("value (points)", "right"),
            ("points at once" if advice.decision == "action" else "outcome", "right"),
            ("", "left"),
        ),
    )
    for i, c in enumerate(advice.choices[:top], start=1):
        if c.kind == "bid":
            now = "spared" if c.outcome == "spared" else "suffers"
        else:
            now = "after a draw" if c.points_now is None else f"{c.points_now:+.0f}"
        tab.add_row(
            str(i), c.choice, f"{c.value:+.2f}", now, "balanced's own choice" if c.default else ""
        )
    return tab


def verdict(advice: Advice) -> str:
    """The ranking's answer in words: the best with its value's unit, its exact ties,
    tuned balanced's own choice where it is not the best, and what to follow."""
    best = advice.choices[0]
    tied = [advice.choices[i].choice for i in advice.within_noise]
    out = f"Best by one step: {best.choice} ({choice_words(best)})"
    out += f"; tied exactly with: {', '.join(tied)}." if tied else "."
    own = next((c for c in advice.choices if c.default), None)
    if own is not None and own is not best and own.choice not in tied:
        out += f" Tuned balanced itself would choose {own.choice} ({choice_words(own)})."
    return out + (
        " This values this decision alone; the deep advice (--deep) plays the whole game "
        "out, and where the two differ, follow the deep one."
    )
