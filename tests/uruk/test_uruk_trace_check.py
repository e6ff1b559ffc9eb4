"""An independent checker of Uruk's trace (``analyzer replay --game uruk --json``).

:class:`Checker` is a plain Python twin of the rules of ``docs/games/uruk.md``: it
imports nothing of the engine or of ``analyzer.uruk``; it reads the game's data
files (``analyzer/uruk/data/*.toml``) with ``tomllib`` and is given only the JSON
trace. From it, it re-derives every state (hands, supplies, the pool, the display,
the deck as far as it is known, the discard pile, displayed inventions and their
settlements, epoch cards, the gods lying out, half-price rights) and checks that

- every chance outcome was possible: each card drawn lies in the unseen part of
  the deck, and in its right layer (the undealt level-2 cards lie on top of the
  level-3/4 cards, gods and disasters; after a reshuffle the deck is what the
  discard pile held minus the cards removed the first time);
- every choice was legal: an action the seat could take (holds the cards, can
  pay, the level rule, the epoch card a stone must come from, the colour pairs
  are pairs of cards in hand, a robbed seat holds the most, bids beat the
  standing bid with cards from hand, secret bids within the supply, discards
  from hand, the invention lost to an earthquake carries no settlement, ...);
- every effect (a consequence the rules fix: discounts, costs, the stone an
  activation removes, the auction's winner, who gets the full bonus, who is
  spared, the end of the game, the turn order, the final scores and winners, the
  final state) equals its own;
- every choice lists the options it was made among (``options``): an action's are
  the candidate actions the seat weighed, each legal, the chosen one among them;
  every other choice's are exactly the rules' (the hand cards a colour pair or a
  discard may take, the colours a payment, a gain or a take-any resource may be,
  the seats that may be robbed, the bid values a raise can reach, ...); a trade
  names the cards it traded (``traded``) and only cards that could not be traded
  besides; ``function`` is true only where a take_resources function was used; a
  rebuilt deck lists its order (``order``) and every later draw follows it.

In the suite it checks a few hundred games, each ruling switched one at a time
(:data:`RULING_VALUES`); ``tools/check_uruk_traces.py`` runs it over every
combination of rulings. The planted-bug tests change one thing in a true trace
and expect the checker to fail, so each kind of check is seen to bite.
"""

from __future__ import annotations

import copy
import itertools
import json
import tomllib
from collections import Counter
from pathlib import Path

import pytest

#: the trace checker replays seeded games and checks them event by event: every test (make test
#: runs them; make test-fast not)
pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parents[2] / "analyzer" / "uruk" / "data"
EPOCHS = ("I", "II", "III", "IV")

#: every ruling and its readings (the first is the default)
RULING_VALUES = {
    "settlement_on_replace": ("moves", "to_pool"),
    "half_price_card": ("discarded", "kept"),
    "replaced_discount": ("counts", "lost"),
    "half_price_rounding": ("per_colour", "total"),
    "trade_empty_pool": ("refused", "from_players"),
    "empty_bid": ("refused", "allowed"),
}


class TraceError(AssertionError):
    """The trace breaks a rule (the message names the event)."""


def _read(name: str) -> dict:
    with open(DATA / f"{name}.toml", "rb") as f:
        return tomllib.load(f)


class Data:
    """The game's cards and numbers, read from the data files."""

    def __init__(self) -> None:
        self.comp = _read("components")
        self.seat_compensation = _read("seat_compensation")
        self.scoring = _read("scoring")
        self.epochs = _read("epochs")["epoch"]
        rows = _read("inventions")["invention"]
        self.inv = {r["name"]: r for r in rows}
        self.inv_order = {r["name"]: i for i, r in enumerate(rows)}
        self.gods = {g["name"]: g for g in _read("gods")["card"]}
        self.forbid = {r["id"]: r["name"] for r in rows}.get(self.comp["forbid"])

    def colour(self, x: str) -> str:
        return self.inv[x]["colour"]

    def level(self, x: str) -> int:
        return self.inv[x]["level"]

    def is_god(self, x: str) -> bool:
        return x in self.gods


DATA_CACHE: list[Data] = []


def data() -> Data:
    if not DATA_CACHE:
        DATA_CACHE.append(Data())
    return DATA_CACHE[0]


CHANCE = {"first_invention", "dealt", "display", "setup_discard", "draw", "god_drawn"}
CHOICE = {"action", "pair", "make_free", "robbed_takes", "pay", "discard", "bid", "bid_cards"}
CHOICE |= {"gain", "secret_bid"}


#: fields of an action event that are not the action itself
_NOT_ACTION = {"kind", "type", "turn", "seat", "options", "traded"}


def kind_of(e: dict) -> str:
    """What an event is: a chance outcome, a seat's choice or an effect the rules fix."""
    typ = e["type"]
    if typ in CHANCE or (typ == "take_card" and e["slot"] is None):
        return "chance"
    if typ in CHOICE:
        return "choice"
    if (typ == "take_resource" and e["from_seat"] is not None) or (
        typ == "suffer" and e.get("lost") is not None
    ):
        return "choice"
    return "effect"


class Checker:
    """Replays one JSON trace against the rules; :meth:`run` raises TraceError."""

    def __init__(self, trace: dict) -> None:
        self.d = data()
        self.t = trace
        # the shipped data only, but for the seat-compensation knobs (balancing knobs)
        # it applies itself
        knobs = {}
        for path, value in trace.get("overrides", {}).items():
            if not path.startswith("seat_compensation."):
                raise TraceError("the checker reads the shipped data only (overrides given)")
            knobs[path.partition(".")[2]] = value
        self.seat_compensation = {**self.d.seat_compensation, **knobs}
        self.rule = {k: v[0] for k, v in RULING_VALUES.items()}
        self.rule.update(trace.get("rulings", {}))
        n = self.n = trace["players"]
        self.colours = list(self.d.comp["colours"])
        self.hand = [Counter() for _ in range(n)]
        self.inv = [{} for _ in range(n)]  # invention -> stones (0, 1 village, 2 city)
        self.supply = [dict.fromkeys(self.colours, 0) for _ in range(n)]
        self.pool = dict.fromkeys(self.colours, self.d.comp["resources_per_colour"])
        self.epoch = [e["stones"][n - 2] for e in self.d.epochs]
        self.pool_stones = 0
        self.display = [None] * self.d.comp["display_size"]
        self.discard: list[str] = []
        self.removed = 0  # cards out of the game at reshuffles
        self.reshuffles = 0
        self.order: list[str] | None = None  # the deck's order, once rebuilt (top first)
        self.inv_names = list(self.d.inv)  # inventions in the data's order
        level2 = Counter()
        rest = Counter()
        for x, r in self.d.inv.items():
            if r["level"] == 2:
                level2[x] = r["copies"]
            elif r["level"] >= 3:
                rest[x] = r["copies"]
        for g, r in self.d.gods.items():
            rest[g] = r["copies"]
        self.level1 = Counter({x: r["copies"] for x, r in self.d.inv.items() if r["level"] == 1})
        self.deck = [level2, rest]  # layers, top first: the hands are dealt from the first
        self.pending = None
        self.trigger = None
        self.trigger_seat = None
        self.activating = False
        self.final = False
        self.final_left = 0
        self.end = False
        self.turn = 0
        self.seat = None  # seat whose turn it is (None during set-up)
        self.turns_played = 0
        self.actions_next = [self.d.comp["actions_per_turn"]] * n
        self.actions_left = 0
        self.fn_used: set[str] = set()
        self.half_price = [0] * n
        self.reminders = [Counter() for _ in range(n)]
        self.city_points = [0] * n
        self.gods_held = 0
        self.expect: list[tuple] = []  # effect events the checker derived and awaits
        self.act = None  # the running action, or the running activation step
        self.act_info: dict = {}
        self.setup_discards = 0
        self.dealt = [0] * n
        self.started = False
        self.activation: dict | None = None
        self.bid_pending = None
        self.scores: list[dict] = []
        self.i = -1
        self.ev: dict = {}

    # ------------------------------------------------------------------ helpers

    def fail(self, why: str) -> None:
        ev = {k: v for k, v in self.ev.items() if k != "kind"}
        raise TraceError(f"event {self.i} {ev}: {why}")

    def need(self, ok: bool, why: str) -> None:
        if not ok:
            self.fail(why)

    def deck_size(self) -> int:
        return sum(sum(layer.values()) for layer in self.deck)

    def draw(self, card: str) -> None:
        """A chance draw from the deck: ``card`` must lie in its top layer (and be the
        top card of a rebuilt deck, whose order the reshuffle listed)."""
        if self.order is not None:
            top = self.order[0] if self.order else None
            self.need(card == top, f"{card} drawn, the rebuilt deck's top card is {top}")
            self.order.pop(0)
        for layer in self.deck:
            if sum(layer.values()):
                self.need(layer[card] > 0, f"{card} cannot be drawn: not among the unseen cards")
                layer[card] -= 1
                return
        self.fail("a card drawn from an empty deck")

    def take_hand(self, p: int, x: str, k: int = 1) -> None:
        self.need(self.hand[p][x] >= k, f"seat {p} holds {self.hand[p][x]} x {x}, not {k}")
        self.hand[p][x] -= k

    def max_level(self, p: int) -> int:
        return max((self.d.level(x) for x in self.inv[p]), default=0)

    def stones_of(self, p: int) -> int:
        return sum(self.inv[p].values())

    def shown(self) -> set:
        return {x for q in range(self.n) for x in self.inv[q]}

    def forbidden(self, p: int, x: str) -> bool:
        if self.d.inv[x]["forbidden"]:
            return True
        fs = self.d.comp["forbid_seat"]
        return x == self.d.forbid and (fs < 0 or fs == p)

    def bid_bonus(self, p: int) -> int:
        best = 0
        for x, st in self.inv[p].items():
            r = self.d.inv[x]
            if r["effect"] == "bid_bonus":
                best = max(best, (r["none"], r["village"], r["city"])[st])
        return best

    def stones_changed(self) -> None:
        """The end is triggered when card IV first empties; from then on pool
        stones go back onto card IV whenever it is empty."""
        if self.epoch[3] == 0 and not self.end:
            self.end = True
            self.expect.append(("end_triggered", None))
        if self.end and self.epoch[3] == 0 and self.pool_stones > 0:
            self.expect.append(("refill_epoch_iv", self.pool_stones))
            self.epoch[3] += self.pool_stones
            self.pool_stones = 0

    def gain(self, p: int, c: str) -> bool:
        if self.pool[c] > 0:
            self.pool[c] -= 1
            self.supply[p][c] += 1
            return True
        return False

    def options(self, e: dict, want) -> None:
        """The choice ``e`` lists exactly the options the rules give (``want``)."""
        self.need(e["options"] == want, f"options {e['options']}, the rules give {want}")

    def by_data(self, names) -> list[str]:
        """Inventions in the data's order."""
        names = set(names)
        return [x for x in self.inv_names if x in names]

    def pool_colours(self, avoid=None) -> list[str]:
        return [c for c in self.colours if c != avoid and self.pool[c] > 0]

    def obtainable(self, p: int, c: str) -> bool:
        """The pool holds ``c``, or another seat holds more of it than ``p``."""
        if self.pool[c] > 0:
            return True
        return any(self.supply[q][c] > self.supply[p][c] for q in range(self.n) if q != p)

    def stone_epoch(self, p: int, x: str):
        """The epoch card a stone on ``x`` comes from (None: none left for it)."""
        city = self.inv[p][x] == 1
        ok = [k for k in range(4) if self.epoch[k] > 0]
        return next((k for k in ok if not (city and self.d.epochs[k]["villages_only"])), None)

    def make_discount(self, p: int, x: str, y) -> int:
        """Cards the best unused make discount saves seat ``p`` making ``x`` (replacing ``y``)."""
        best = 0
        for d in self.inv[p]:
            r = self.d.inv[d]
            if d == y and self.rule["replaced_discount"] == "lost":
                continue
            if r["effect"] == "make_discount" and d not in self.fn_used:
                at = r["applies_to"]
                if at in ("any", self.d.colour(x)) or (
                    at == "own" and r["colour"] == self.d.colour(x)
                ):
                    if self.d.level(x) >= r["min_level"]:
                        best = max(best, r["saved"])
        return best

    def settle_amounts(self, p: int, x: str) -> tuple[str | None, list[int]]:
        """What a stone on ``x`` costs seat ``p`` now: ``(colour, [amount])`` for a
        level cost, ``(None, [amounts])`` for one of different colours."""
        half = self.half_price[p] >= 1
        saved = 0
        if not half:
            for d in self.inv[p]:
                r = self.d.inv[d]
                if r["effect"] == "settlement_discount" and d not in self.fn_used:
                    saved = max(saved, r["saved"])
        epc = self.d.epochs[self.stone_epoch(p, x)]
        if epc["cost"] == "level":
            need = self.d.level(x)
            return self.d.colour(x), [(need + 1) // 2 if half else max(0, need - saved)]
        per, k = epc["per_colour"], epc["colours"]
        if half and self.rule["half_price_rounding"] == "total":
            tot = (per * k + 1) // 2
            return None, [tot // k + (1 if j < tot % k else 0) for j in range(k)]
        if half:
            return None, [(per + 1) // 2] * k
        return None, [per] * (k - 1) + [max(0, per - saved)]

    def illegal_action(self, p: int, o: dict) -> str | None:
        """Why option ``o`` (an action in the trace's form) is not legal for seat ``p``
        now, or None."""
        a = o.get("action")
        if a == "take_card":
            slot = o.get("slot")
            if slot is None:
                return None if self.deck_size() + len(self.discard) else "no card to take"
            ok = slot in range(len(self.display)) and self.display[slot] is not None
            return None if ok else "an empty display slot"
        if a == "make":
            x, y = o.get("invention"), o.get("replaces")
            if x not in self.d.inv or self.forbidden(p, x) or self.hand[p][x] < 1:
                return f"{x} cannot be made"
            if x in self.inv[p] or self.d.level(x) > self.max_level(p) + 1:
                return f"{x} is displayed or above the level rule"
            if y is None and len(self.inv[p]) >= self.d.comp["max_inventions"]:
                return "no free display place"
            if y is not None and y not in self.inv[p]:
                return f"{y} is not displayed"
            need = max(1, self.d.level(x) - self.make_discount(p, x, y))
            shown = min(self.hand[p][x], need)
            tally = Counter()
            for z, k in self.hand[p].items():
                tally[self.d.colour(z)] += k
            tally[self.d.colour(x)] -= shown
            if y is not None:
                tally[self.d.colour(y)] += 1
            spare = sum(k // 2 for k in tally.values())
            return None if spare >= need - shown else "too few colour pairs"
        if a == "take_resources":
            x = o.get("invention")
            if x not in self.inv[p]:
                return f"{x} is not displayed"
            r = self.d.inv[x]
            usable = r["effect"] == "take_resources" and x not in self.fn_used and r["extra"] > 0
            return None if usable or not o.get("function") else f"{x} has no function to use"
        if a == "trade":
            xs = o.get("inventions") or []
            ok = xs and all(self.hand[p][x] > 0 and x in self.shown() for x in xs)
            return None if ok else "cards not in hand or displayed by no one"
        if a == "settle":
            x = o.get("invention")
            if x not in self.inv[p] or self.inv[p][x] >= 2 or self.stone_epoch(p, x) is None:
                return f"no stone can go on {x}"
            colour, amounts = self.settle_amounts(p, x)
            if colour is not None:
                return None if self.supply[p][colour] >= amounts[0] else "cannot pay"
            held = sorted(self.supply[p].values(), reverse=True)
            ok = all(h >= k for h, k in zip(held, sorted(amounts, reverse=True), strict=False))
            return None if ok else "cannot pay"
        if a == "card_action":
            x = o.get("invention")
            r = self.d.inv.get(x, {})
            ok = x in self.inv[p] and r.get("effect") == "card_action" and x not in self.fn_used
            return None if ok else f"{x} has no card action to use"
        return f"no action {a!r}"

    # ------------------------------------------------------------------ run

    def run(self) -> None:
        for i, e in enumerate(self.t["events"]):
            self.i, self.ev = i, e
            typ = e["type"]
            if self.bid_pending is not None and typ != "bid_cards":
                self.finish_bid()
            if self.expect and typ not in ("end_triggered", "refill_epoch_iv"):
                self.fail(f"missing {self.expect[0][0]} (the rules fix it here)")
            want = kind_of(e)
            if typ == "take_resource" and self.act == "card_action":
                want = "choice"  # each resource of a take-any action: the seat's colour
            self.need(e["kind"] == want, f"a {typ} event is a {want}")
            if want == "choice":
                self.need("options" in e, f"a {typ} choice without the options it was made among")
            handler = getattr(self, "on_" + typ, None)
            self.need(handler is not None, f"unknown event type {typ!r}")
            if typ not in ("turn", "score"):
                self.need(e["turn"] == self.turn, f"turn {e['turn']}, expected {self.turn}")
            handler(e, e["seat"])
        self.i = len(self.t["events"])
        self.ev = {"type": "(end of trace)"}
        self.need(len(self.scores) == self.n, "the trace ends without every seat's score")
        self.check_final()

    # ------------------------------------------------------------------ set-up

    def on_first_invention(self, e, p):
        x = e["card"]
        self.need(not self.started, "set-up event during play")
        self.need(self.level1[x] > 0, f"{x} is not an undealt level-1 invention")
        self.level1[x] -= 1
        self.need(not self.inv[p], f"seat {p} gets a second first invention")
        self.inv[p][x] = 1

    def on_dealt(self, e, p):
        self.need(self.d.level(e["card"]) == 2, "a dealt card is not level 2")
        self.draw(e["card"])
        self.hand[p][e["card"]] += 1
        self.dealt[p] += 1

    def on_deal_done(self, e, p):
        self.need(e["cards"] == self.d.comp["hand_size"] == self.dealt[p], "hand size dealt")

    def on_setup_discard(self, e, p):
        self.need(not self.started, "a set-up discard during play")
        self.draw(e["card"])
        self.discard.append(e["card"])
        self.setup_discards += 1

    def start_play(self):
        n = self.n
        self.need(all(self.inv[p] for p in range(n)), "a seat has no first invention")
        self.need(all(self.dealt[p] == self.d.comp["hand_size"] for p in range(n)), "hands dealt")
        want = self.d.comp["setup_discard"][n - 2]
        self.need(self.setup_discards == want, f"{self.setup_discards} set-up discards, not {want}")
        self.need(None not in self.display, "the display is not full at the start")
        self.removed += sum(self.level1.values())
        for p in range(n):
            c = self.d.colour(next(iter(self.inv[p])))
            sc = self.seat_compensation  # balancing knobs: 0 in the printed game
            by_seat = sc["resources_by_seat"]
            extra = p * sc["resources_per_seat"] + (sc["resources_later_seats"] if p else 0)
            extra += sc["resources_last_seat"] if p == n - 1 else 0
            extra += by_seat[p] if p < len(by_seat) else 0
            k = min(self.d.comp["start_resources"] + extra, self.pool[c])
            self.pool[c] -= k
            self.supply[p][c] += k
        self.started = True

    # ------------------------------------------------------------------ turns

    def after_turn(self):
        """The engine's turn loop after a turn of ``self.seat``."""
        self.turns_played += 1
        self.turn += 1
        if self.final:
            self.final_left -= 1
        elif self.end and self.seat == self.n - 1:
            self.final = True
            self.final_left = self.n

    def close_turn(self):
        self.close_action()
        if self.seat is not None and self.actions_left > 0:
            # a card can be taken while any is left: a turn is short only without cards
            gone = self.deck_size() + len(self.discard) == 0 and all(
                x is None for x in self.display
            )
            self.need(
                gone, f"seat {self.seat}'s turn ended with {self.actions_left} action(s) left"
            )
        self.close_activation()
        if self.seat is not None:
            self.after_turn()

    def on_turn(self, e, p):
        if not self.started:
            self.start_play()
        self.close_turn()
        full = None not in self.display or self.deck_size() + len(self.discard) == 0
        self.need(full, "the display was not refilled")
        self.need(e["turn"] == self.turn, f"turn number {e['turn']}, expected {self.turn}")
        self.need(not (self.final and self.final_left == 0), "a turn after the last round")
        self.need(self.turns_played < self.d.comp["max_turns"], "a turn after the turn cap")
        want = 0 if self.seat is None else (self.seat + 1) % self.n
        self.need(p == want, f"seat {p} plays, seat {want} is next")
        self.need(e["actions"] == self.actions_next[p], f"{self.actions_next[p]} actions due")
        self.actions_next[p] = self.d.comp["actions_per_turn"]
        self.seat = p
        self.actions_left = e["actions"]
        self.fn_used = set()

    def on_action(self, e, p):
        self.close_action()
        self.need(p == self.seat and self.activation is None, "an action out of turn")
        self.need(self.actions_left > 0, "more actions than the turn allows")
        self.actions_left -= 1
        a = e["action"]
        chosen = {k: v for k, v in e.items() if k not in _NOT_ACTION}
        self.need(chosen in e["options"], "the action is not among the options listed")
        for o in e["options"]:
            why = self.illegal_action(p, o)
            self.need(why is None, f"option {o} is not legal: {why}")
        self.act = a
        self.act_info = {"e": e, "rows": 0}
        getattr(self, "start_" + a)(e, p)

    def close_action(self):
        if self.act is None:
            return
        getattr(self, "close_" + self.act)(self.act_info, self.seat)
        self.act = None
        self.act_info = {}

    # ------------------------------------------------------------------ take a card

    def start_take_card(self, e, p):
        slot = e["slot"]
        if slot is not None:
            self.need(0 <= slot < len(self.display), "no such display slot")
            self.need(self.display[slot] is not None, "takes from an empty display slot")
        else:
            self.need(self.deck_size() + len(self.discard) > 0, "takes from no deck")

    def close_take_card(self, info, p):
        self.need(info.get("took") or info["e"]["slot"] is None, "the card taken is missing")

    def on_take_card(self, e, p):
        self.need(self.act == "take_card" and not self.act_info.get("took"), "no take action")
        self.need(e["slot"] == self.act_info["e"]["slot"], "another slot than chosen")
        x = e["card"]
        self.need(not self.d.is_god(x), "a god card taken to the hand")
        if e["slot"] is None:
            self.draw(x)
        else:
            self.need(self.display[e["slot"]] == x, f"display slot holds {self.display[e['slot']]}")
            self.display[e["slot"]] = None
        self.hand[p][x] += 1
        self.act_info["took"] = True

    def on_draw(self, e, p):
        """A card drawn to the hand (Nannar's lesser bonus, Ischtar, a card action)."""
        x = e["card"]
        self.need(not self.d.is_god(x), "a god card drawn to the hand")
        if self.act == "card_action":
            self.act_info["rows"] += 1
            self.need(self.act_info["kind"] == "draw", "a draw by a take-any card action")
        else:
            self.need(self.activation is not None, "a card drawn outside an activation")
            a = self.effect_phase()
            eff = a["effect"]
            if eff == "nannar":
                self.need(p != self.fewest(), "the full Nannar bonus draws no card")
            else:
                self.need(eff == "card_or_resource", f"{a['card']} draws no card")
                self.need(p not in a["gained"], "Ischtar: a card and a resource")
            a["drew"][p] += 1
            self.need(a["drew"][p] <= self.d.gods[a["card"]]["amount"], "too many cards drawn")
        self.draw(x)
        self.hand[p][x] += 1

    def on_god_drawn(self, e, p):
        g = e["card"]
        self.need(self.d.is_god(g), "not a god or disaster card")
        self.draw(g)
        self.need(p == (self.seat if self.seat is not None else 0), "drawn by another seat")
        if self.final or self.activation is not None or self.trigger is not None:
            want = "discarded"
        elif self.pending is None:
            want = "beside_display"
        else:
            want = "trigger"
        self.need(e["placed"] == want, f"the card must be {want}")
        if want == "discarded":
            self.discard.append(g)
        elif want == "beside_display":
            self.pending = g
        else:
            self.trigger = g
            self.trigger_seat = p

    def on_reshuffle(self, e, p):
        self.need(self.deck_size() == 0, "the deck is rebuilt before it is empty")
        removed = min(self.d.comp["first_reshuffle_removed"], len(self.discard))
        if self.reshuffles:
            removed = 0
        self.need(e["removed"] == removed, f"{removed} cards leave the game")
        self.removed += removed
        rest = self.discard[removed:]
        self.need(e["deck"] == len(rest), f"the new deck holds {len(rest)}")
        order = e.get("order")
        self.need(order is not None, "a reshuffle without the new deck's order")
        self.need(Counter(order) == Counter(rest), "the new deck's order is not the cards shuffled")
        self.order = list(order)
        self.deck = [Counter(rest)]
        self.discard = []
        self.reshuffles += 1

    def on_display(self, e, p):
        if self.started:
            self.close_action()
        slot = e["slot"]
        self.need(self.display[slot] is None, "refills a full display slot")
        self.need(all(x is not None for x in self.display[:slot]), "gaps are filled in order")
        self.need(not self.d.is_god(e["card"]), "a god card on the display")
        self.draw(e["card"])
        self.display[slot] = e["card"]

    # ------------------------------------------------------------------ make

    def start_make(self, e, p):
        x, y = e["invention"], e["replaces"]
        self.check_placeable(p, x, y)
        self.act_info["pairs"] = []

    def check_placeable(self, p, x, y):
        self.need(x in self.d.inv, f"{x} is no invention")
        self.need(not self.forbidden(p, x), f"{x} is forbidden to seat {p}")
        self.need(self.hand[p][x] >= 1, f"seat {p} holds no {x}")
        self.need(x not in self.inv[p], f"seat {p} displays {x} already")
        self.need(self.d.level(x) <= self.max_level(p) + 1, "the level rule")
        if y is None:
            self.need(len(self.inv[p]) < self.d.comp["max_inventions"], "no free display place")
        else:
            self.need(y in self.inv[p], f"seat {p} does not display {y}")

    def on_stones_back(self, e, p):
        y = e["invention"]
        self.need(self.rule["settlement_on_replace"] == "to_pool", "stones back under 'moves'")
        self.need(self.inv[p].get(y, 0) == e["stones"] > 0, "stones back that are not there")
        self.inv[p][y] = 0
        self.pool_stones += e["stones"]
        self.stones_changed()
        self.act_info["stones_back"] = y

    def replace(self, p, x, y):
        """``x`` takes ``y``'s place (or a free one); ``y`` back to the hand."""
        st = 0
        if y is not None:
            st = self.inv[p].pop(y)
            self.hand[p][y] += 1
            if self.rule["settlement_on_replace"] == "to_pool":
                self.need(st == 0, "the replaced invention's stones did not go to the pool")
        self.inv[p][x] = st

    def on_make(self, e, p):
        info = self.act_info
        self.need(self.act == "make" and "make" not in info, "a make without a make action")
        a = info["e"]
        self.need((e["invention"], e["replaced"]) == (a["invention"], a["replaces"]), "not chosen")
        info["make"] = e

    def on_make_cards(self, e, p):
        info = self.act_info
        self.need("make" in info and "cards" not in info, "make_cards out of place")
        info["cards"] = e
        x, y = info["e"]["invention"], info["e"]["replaces"]
        lvl = self.d.level(x)
        best = 0
        for d in self.inv[p]:
            r = self.d.inv[d]
            if d == y and self.rule["replaced_discount"] == "lost":
                continue
            if r["effect"] == "make_discount" and d not in self.fn_used:
                at = r["applies_to"]
                if at in ("any", self.d.colour(x)) or (
                    at == "own" and r["colour"] == self.d.colour(x)
                ):
                    if lvl >= r["min_level"]:
                        best = max(best, r["saved"])
        cut = lvl - max(1, lvl - best)
        self.need(e["saved"] == cut, f"the make discount saves {cut}")
        if cut:
            dx = e["discount"]
            self.need(dx in self.inv[p] and dx not in self.fn_used, "discount not available")
            self.need(self.d.inv[dx]["effect"] == "make_discount", "not a make discount")
            self.need(dx != y or self.rule["replaced_discount"] == "counts", "replaced's discount")
            self.fn_used.add(dx)
        else:
            self.need(e["discount"] is None, "a discount that saves nothing")
        need = lvl - cut
        shown = min(self.hand[p][x], need)
        self.need(e["shown"] == shown >= 1, f"{shown} cards of {x} are shown")
        pairs = info["make"]["pairs"]
        self.need(pairs == need - shown, f"{need - shown} colour pairs are needed")
        self.replace(p, x, y)
        self.take_hand(p, x, shown)
        self.discard.extend([x] * (shown - 1))
        if info.get("stones_back"):
            self.need(info["stones_back"] == y, "stones back from another invention")

    def on_pair(self, e, p):
        info = self.act_info
        self.need("cards" in info, "a colour pair outside a make")
        a, b = e["cards"]
        self.need(self.d.colour(a) == self.d.colour(b) == e["colour"], "not a colour pair")
        tally = Counter()
        for x, k in self.hand[p].items():
            tally[self.d.colour(x)] += k
        held = [x for x, k in self.hand[p].items() if k > 0 and tally[self.d.colour(x)] >= 2]
        self.options(e, self.by_data(held))
        self.take_hand(p, a)
        self.take_hand(p, b)
        self.discard += [a, b]
        info["pairs"].append(e)

    def close_make(self, info, p):
        self.need("cards" in info, "a make action without its cards")
        self.need(len(info["pairs"]) == info["make"]["pairs"], "colour pairs missing")

    def on_make_free(self, e, p):
        a = self.activation
        self.need(a is not None and a["effect"] == "place_invention", "a free invention")
        self.need(p == a["winner"] and not a.get("placed"), "only Enlil's winner, once")
        x, y = e["invention"], e["replaced"]
        xs = [
            z
            for z, k in self.hand[p].items()
            if k > 0 and not self.forbidden(p, z) and z not in self.inv[p]
            if self.d.level(z) <= self.max_level(p) + 1
        ]
        free = [None] if len(self.inv[p]) < self.d.comp["max_inventions"] else []
        self.options(
            e, {"invention": self.by_data(xs), "replaced": free + self.by_data(self.inv[p])}
        )
        self.check_placeable(p, x, y)
        self.replace(p, x, y)
        self.take_hand(p, x)
        a["placed"] = True

    # ------------------------------------------------------------------ resources

    def start_take_resources(self, e, p):
        x = e["invention"]
        self.need(x in self.inv[p], f"seat {p} does not display {x}")
        r = self.d.inv[x]
        usable = r["effect"] == "take_resources" and x not in self.fn_used and r["extra"] > 0
        self.need(usable or not e["function"], f"{x}'s function is marked used: none to use")
        c = r["colour"]
        extra = 0
        allowed = {c}
        if e["function"] and r["effect"] == "take_resources" and x not in self.fn_used:
            extra = r["extra"]
            at = r["applies_to"]
            allowed = {c} if at == "own" else set(self.colours) if at == "any" else {at}
        if extra:
            self.fn_used.add(x)
        self.act_info.update(colour=c, extra=extra, allowed=allowed, takes=0)

    def close_take_resources(self, info, p):
        self.need(info["takes"] == 1 + info["extra"], f"{1 + info['extra']} takes are due")

    def take_attempt(self, e, p):
        """The next take of a take-resources action: its colour and function flag."""
        info = self.act_info
        first = info["takes"] == 0
        info["takes"] += 1
        self.need(info["takes"] <= 1 + info["extra"], "more takes than the action gives")
        if first:
            self.need(e["colour"] == info["colour"], "the first take is the invention's colour")
        else:
            self.need(e["colour"] in info["allowed"], "the function gives another colour")

    def on_take_resource(self, e, p):
        c, v = e["colour"], e["from_seat"]
        if v is not None:  # robbing: any seat holding the most may be robbed
            most = max(self.supply[q][c] for q in range(self.n) if q != p)
            self.options(e, [q for q in range(self.n) if q != p and self.supply[q][c] == most])
        elif self.act == "card_action":
            self.options(e, self.pool_colours())
        if self.act == "take_resources":
            self.take_attempt(e, p)
            self.need(e["function"] == (self.act_info["extra"] > 0), "the function flag")
        elif self.act == "card_action":
            self.need(self.act_info["kind"] == "take_any" and v is None, "not a take-any")
            self.act_info["rows"] += 1
        else:
            self.need(self.act == "trade" and v is not None, "a resource taken out of place")
            self.need(self.rule["trade_empty_pool"] == "from_players", "trade robs a player")
            x = self.act_info.get("trading")
            self.need(x is not None and self.d.colour(x) == c, "robbing for no traded card")
            self.take_hand(p, x)
            self.discard.append(x)
            self.act_info["robbed"] += 1
        if v is None:
            self.need(self.gain(p, c), f"the pool has no {c}")
            return
        self.need(v in range(self.n), f"no seat {v}")
        self.need(self.pool[c] == 0, f"robs seat {v} while the pool holds {c}")
        most = max(self.supply[q][c] for q in range(self.n) if q != p)
        self.need(
            v != p and self.supply[v][c] == most > self.supply[p][c],
            "robs a seat that does not hold the most, or the taker holds as many",
        )
        self.supply[v][c] -= 1
        self.supply[p][c] += 1
        self.robbed = (v, c)

    def on_robbed_takes(self, e, p):
        v, c = getattr(self, "robbed", (None, None))
        self.need(p == v, "only the robbed seat takes a replacement")
        self.options(e, self.pool_colours(avoid=c))
        self.need(e["colour"] != c, "the replacement is another colour")
        self.need(self.gain(p, e["colour"]), f"the pool has no {e['colour']}")
        self.robbed = (None, None)

    def on_no_resource(self, e, p):
        c = e["colour"]
        self.need(self.act == "take_resources", "no_resource outside a take")
        self.take_attempt(e, p)
        self.need(self.pool[c] == 0, f"the pool holds {c}")
        self.need(
            all(self.supply[q][c] <= self.supply[p][c] for q in range(self.n)),
            "another seat holds more: it must be robbed",
        )

    # ------------------------------------------------------------------ trade

    def start_trade(self, e, p):
        self.need(e["inventions"], "a trade of nothing")
        self.act_info.update(traded=0, done=set(), trading=None, robbed=0, names=[])

    def check_tradeable(self, p, x):
        info = self.act_info
        self.need(x in info["e"]["inventions"] and x not in info["done"], f"{x} not chosen")
        self.need(x in self.shown(), f"no one displays {x}")

    def on_trade_pool(self, e, p):
        self.need(self.act == "trade", "trade_pool outside a trade")
        self.need(self.rule["trade_empty_pool"] == "from_players", "trade_pool row")
        x, k = e["invention"], e["cards"]
        self.check_tradeable(p, x)
        self.trade_from_pool(p, x, k)
        self.act_info.update(trading=x, pool_part=k, robbed=0)

    def trade_from_pool(self, p, x, k):
        c = self.d.colour(x)
        self.need(k <= self.pool[c], f"the pool holds {self.pool[c]} {c}")
        self.take_hand(p, x, k)
        self.pool[c] -= k
        self.supply[p][c] += k
        self.discard += [x] * k

    def on_trade(self, e, p):
        self.need(self.act == "trade", "a trade outside a trade action")
        x, k = e["invention"], e["cards"]
        info = self.act_info
        if self.rule["trade_empty_pool"] == "from_players":
            self.need(info["trading"] == x, "trade without its pool part")
            self.need(k == info["pool_part"] + info["robbed"], "cards traded do not add up")
        else:
            self.check_tradeable(p, x)
            self.trade_from_pool(p, x, k)
        self.need(k >= 1, "a trade of no card")
        info["done"].add(x)
        info["trading"] = None
        info["traded"] += k
        info["names"].append(x)

    def close_trade(self, info, p):
        self.need(info["traded"] >= 1, "a trade action that traded nothing")
        e = info["e"]
        self.need(e.get("traded") == info["names"], f"the cards traded are {info['names']}")
        rob = self.rule["trade_empty_pool"] == "from_players"
        for x in e["inventions"]:
            if x not in info["names"]:
                c = self.d.colour(x)
                could = self.pool[c] > 0 or (rob and self.obtainable(p, c))
                self.need(not could, f"{x} could have been traded, but was not")

    # ------------------------------------------------------------------ settle

    def start_settle(self, e, p):
        x = e["invention"]
        self.need(x in self.inv[p] and self.inv[p][x] < 2, "no place for a stone")
        self.act_info.update(pays=[], cost=None, reminder=None)

    def on_pay(self, e, p):
        c, k = e["colour"], e["amount"]
        self.need(k >= 1 and self.supply[p][c] >= k, f"seat {p} cannot pay {k} {c}")
        if self.act == "settle" and self.activation is None:
            x = self.act_info["e"]["invention"]
            self.need(self.stone_epoch(p, x) is not None, f"no stone can go on {x}")
            colour, _ = self.settle_amounts(p, x)
            if colour is not None:  # a level cost: the invention's colour only
                self.options(e, [colour])
            else:  # each colour not paid yet that covers the amount
                paid = {d for d, _ in self.act_info["pays"]}
                want = [d for d in self.colours if d not in paid and self.supply[p][d] >= k]
                self.options(e, want)
        else:  # a spared seat: any colour it holds
            self.options(e, [d for d in self.colours if self.supply[p][d] > 0])
        if self.act == "settle":
            self.act_info["pays"].append((c, k))
        else:
            a = self.activation
            self.need(a is not None and a["kind"] == "disaster", "a payment out of place")
            a["paid"][p] += k
        self.supply[p][c] -= k
        self.pool[c] += k

    def on_reminder_used(self, e, p):
        g = e["card"]
        self.need(self.act == "settle" and self.rule["half_price_card"] == "kept", "reminder")
        self.need(self.reminders[p][g] > 0, f"seat {p} holds no {g}")
        self.reminders[p][g] -= 1
        self.gods_held -= 1
        self.discard.append(g)
        self.act_info["reminder"] = g

    def on_settle_cost(self, e, p):
        self.need(self.act == "settle" and self.act_info["cost"] is None, "settle_cost")
        self.act_info["cost"] = e

    def on_settle(self, e, p):
        info = self.act_info
        self.need(self.act == "settle" and "done" not in info, "a stone without its action")
        x = info["e"]["invention"]
        self.need(e["invention"] == x, "the stone goes elsewhere than chosen")
        city = self.inv[p][x] == 1
        ep = next(
            (
                k
                for k in range(4)
                if self.epoch[k] > 0 and not (city and self.d.epochs[k]["villages_only"])
            ),
            None,
        )
        self.need(ep is not None and e["epoch"] == EPOCHS[ep], f"the stone comes from {ep}")
        self.need(e["stones"] == self.inv[p][x] + 1, "village or city")
        cost = info["cost"] or {"discount": None, "saved": 0, "half_price": False}
        half = self.half_price[p] >= 1
        self.need(cost["half_price"] == half, f"half price is {'due' if half else 'not due'}")
        saved = 0
        if cost["discount"] is not None:
            dx = cost["discount"]
            r = self.d.inv.get(dx, {})
            self.need(not half and dx in self.inv[p] and dx not in self.fn_used, "discount")
            self.need(r.get("effect") == "settlement_discount", "not a settlement discount")
            self.need(cost["saved"] == r["saved"], "the discount's amount")
            saved = r["saved"]
            self.fn_used.add(dx)
        epc = self.d.epochs[ep]
        pays = info["pays"]
        if epc["cost"] == "level":
            c, need = self.d.colour(x), self.d.level(x)
            need = (need + 1) // 2 if half else max(0, need - saved)
            self.need(pays == ([(c, need)] if need else []), f"costs {need} {c}")
        else:
            per, k = epc["per_colour"], epc["colours"]
            if half and self.rule["half_price_rounding"] == "total":
                tot = (per * k + 1) // 2
                amounts = [tot // k + (1 if j < tot % k else 0) for j in range(k)]
            elif half:
                amounts = [(per + 1) // 2] * k
            else:
                amounts = [per] * (k - 1) + [max(0, per - saved)]
            got = sorted(a for _, a in pays)
            self.need(got == sorted(a for a in amounts if a), f"costs {amounts} of {k} colours")
            self.need(len({c for c, _ in pays}) == len(pays), "colours not different")
        if half:
            if self.rule["half_price_card"] == "kept":
                self.need(info["reminder"] is not None, "the reminder card is not discarded")
                self.half_price[p] -= 1
            else:
                self.half_price[p] = 0
        else:
            self.need(info["reminder"] is None, "a reminder discarded without half price")
        self.epoch[ep] -= 1
        self.inv[p][x] += 1
        info["done"] = True
        self.stones_changed()

    def close_settle(self, info, p):
        self.need("done" in info, "a settle action without its stone")

    # ------------------------------------------------------------------ card action

    def start_card_action(self, e, p):
        x = e["invention"]
        r = self.d.inv.get(x, {})
        self.need(x in self.inv[p] and r.get("effect") == "card_action", "no card action")
        self.need(x not in self.fn_used, f"{x} was used this turn")
        self.fn_used.add(x)
        self.act_info.update(kind=r["action"], amount=r["amount"], rows=0, seen=False)

    def on_card_action(self, e, p):
        info = self.act_info
        self.need(self.act == "card_action" and not info["seen"], "card_action row")
        self.need(e["invention"] == info["e"]["invention"] and e["amount"] == info["amount"], "")
        info["seen"] = True

    def close_card_action(self, info, p):
        self.need(info["seen"], "the card action's row is missing")
        self.need(info["rows"] <= info["amount"], "more than the card action gives")
        if info["rows"] < info["amount"]:
            if info["kind"] == "take_any":
                self.need(sum(self.pool.values()) == 0, "fewer resources than the action gives")
            else:
                self.need(self.deck_size() + len(self.discard) == 0, "fewer cards than due")

    # ------------------------------------------------------------------ gods

    def on_activate(self, e, p):
        self.close_action()
        self.need(self.trigger is not None and e["card"] == self.pending, "nothing to activate")
        self.need(e["trigger_seat"] == self.trigger_seat == p, "the trigger seat")
        g = self.d.gods[e["card"]]
        self.activation = {
            "card": e["card"],
            "kind": g["kind"],
            "effect": g["effect"],
            "first": p,
            "stone": False,
            "limits": set(),
            "phase": "limits",
            "winner": None,
            "drew": Counter(),
            "gained": Counter(),
            "bonus": Counter(),
            "secret": {},
            "paid": Counter(),
            "spared": set(),
            "suffered": set(),
            "bids": {},
            "passed": set(),
            "standing": 0,
            "leader": None,
            "won": False,
            "kept": False,
            "pos": 0,
            "moved": False,
        }

    def in_order(self, a, p, strict=True):
        """Seats act from the trigger clockwise: seat ``p`` comes after the last one."""
        k = (p - a["first"]) % self.n
        last = a.get("order", -1)
        self.need(k > last or (not strict and k == last), "out of the clockwise order")
        a["order"] = k

    def effect_phase(self):
        """The activation's effect begins: stone removed, every hand within the limit."""
        a = self.activation
        self.need(a is not None, "a god effect without an activation")
        if a["phase"] == "limits":
            self.need(a["stone"] or sum(self.epoch) == 0, "no stone left an epoch card")
            lim = self.d.comp["hand_limit"]
            for q in range(self.n):
                k = sum(self.hand[q].values())
                self.need(k <= lim, f"seat {q} holds more than the hand limit")
                self.need(q not in a["limits"] or k == lim, f"seat {q} discarded too many")
            a["phase"] = "effect"
            a["order"] = -1
        return a

    def on_stone_out(self, e, p):
        a = self.activation
        self.need(a is not None and not a["stone"], "a stone leaves at no activation")
        ep = next((k for k in range(4) if self.epoch[k] > 0), None)
        self.need(ep is not None and e["epoch"] == EPOCHS[ep], "the lowest card gives the stone")
        self.epoch[ep] -= 1
        self.pool_stones += 1
        a["stone"] = True
        self.stones_changed()

    def on_hand_limit(self, e, p):
        a = self.activation
        self.need(a is not None and a["phase"] == "limits" and p not in a["limits"], "limit")
        have = sum(self.hand[p].values())
        lim = self.d.comp["hand_limit"]
        self.need(have > lim and e["cards"] == have - lim, f"discards {have - lim} to the limit")
        self.in_order(a, p)
        a["limits"].add(p)

    def on_discard(self, e, p):
        x = e["card"]
        a = self.activation
        self.need(a is not None, "a discard outside an activation")
        if e["why"] == "earthquake":
            self.need(p in a["suffered"] and a["effect"] == "earthquake", "an earthquake discard")
            a["quake"][p] -= 1
            self.need(a["quake"][p] >= 0, "more earthquake discards than lost")
        else:
            self.need(a["phase"] == "limits" and p in a["limits"], "a hand-limit discard")
        self.options(e, self.by_data(z for z, k in self.hand[p].items() if k > 0))
        self.take_hand(p, x)
        self.discard.append(x)

    def on_bid(self, e, p):
        a = self.effect_phase()
        self.need(a["kind"] == "auction" and not a["won"], "a bid outside an auction")
        want = self.next_bidder(a)
        self.need(p == want, f"seat {want} bids or passes now")
        self.options(e, [None, *self.bid_values(a, p)])
        if e["value"] is None:
            a["passed"].add(p)
            return
        self.need(e["value"] > a["standing"], "a bid that does not beat the standing one")
        self.bid_pending = (p, e["value"], Counter())
        a["moved"] = True

    def bid_values(self, a, p) -> list[int]:
        """The values seat ``p`` could raise its bid to: its bid so far (the bid bonus
        before its first) plus the levels of any hand cards added (at least one card
        unless ruling ``empty_bid = "allowed"``), above the standing bid."""
        old = a["bids"].get(p, Counter())
        own = self.bid_bonus(p) + sum(self.d.level(x) * k for x, k in old.items())
        sums = {0}
        for x, k in self.hand[p].items():
            for _ in range(k):
                sums |= {v + self.d.level(x) for v in sums}
        empty = self.rule["empty_bid"] == "allowed"
        return sorted(own + v for v in sums if (v or empty) and own + v > a["standing"])

    def next_bidder(self, a):
        """The seat whose turn it is in the open auction: rounds from the trigger
        clockwise, skipping seats that passed and the standing leader; None once a
        whole round went by without a raise."""
        while True:
            if a["pos"] == self.n:
                if not a["moved"]:
                    return None
                a["pos"], a["moved"] = 0, False
            p = (a["first"] + a["pos"]) % self.n
            a["pos"] += 1
            if p not in a["passed"] and p != a["leader"]:
                return p

    def on_bid_cards(self, e, p):
        self.need(self.bid_pending is not None and self.bid_pending[0] == p, "bid_cards")
        old = self.activation["bids"].get(p, Counter())
        self.options(e, self.by_data(x for x in self.inv_names if self.hand[p][x] + old[x] > 0))
        self.bid_pending[2][e["invention"]] = e["cards"]

    def finish_bid(self):
        p, value, cards = self.bid_pending
        self.bid_pending = None
        a = self.activation
        old = a["bids"].get(p, Counter())
        for x, k in old.items():
            self.need(cards[x] >= k, "cards once bid went back to the hand")
        added = cards - old
        for x, k in added.items():
            self.take_hand(p, x, k)
        if self.rule["empty_bid"] == "refused":
            self.need(sum(added.values()) >= 1, "a raise without a card")
        v = self.bid_bonus(p) + sum(self.d.level(x) * k for x, k in cards.items())
        self.need(value == v, f"the bid is worth {v}")
        a["bids"][p] = cards
        a["standing"] = value
        a["leader"] = p

    def on_auction_won(self, e, p):
        a = self.effect_phase()
        self.need(a["kind"] == "auction" and not a["won"], "auction_won")
        self.need(p == a["leader"], f"seat {a['leader']} holds the highest bid")
        self.need(e["value"] == (a["standing"] if p is not None else None), "the winning value")
        others = {q for q in range(self.n) if q != p}
        self.need(others <= a["passed"], "the auction ended while a seat could still bid")
        self.need(self.next_bidder(a) is None, "the auction ended before a round without a raise")
        for q, cards in a["bids"].items():
            if q == p:
                for x in sorted(cards, key=self.d.inv_order.get):
                    self.discard += [x] * cards[x]
            else:
                self.hand[q].update(cards)
        a["won"] = True
        a["winner"] = p
        if p is not None and a["effect"] == "city_points":
            self.city_points[p] += self.d.gods[a["card"]]["amount"]
            a["kept"] = True

    def fewest(self):
        k = [self.stones_of(q) for q in range(self.n)]
        low = min(k)
        return k.index(low) if k.count(low) == 1 else None

    def on_gain(self, e, p):
        a = self.effect_phase()
        amount = self.d.gods[a["card"]]["amount"]
        eff = a["effect"]
        if eff == "resources":
            self.need(p == a["winner"] and a["won"], "Nergal's resources to its winner only")
            want = amount
        elif eff == "gibil":
            want = amount if p == self.fewest() else 1
        elif eff == "marduk":
            self.need(p != self.fewest(), "the full Marduk bonus is no resource")
            want = 1
        else:
            self.need(eff == "card_or_resource" and not a["drew"][p], "a gain out of place")
            want = 1
        c = e["colour"]
        self.options(e, self.pool_colours())
        got = 0
        for _ in range(want if c is not None else 0):
            got += self.gain(p, c)
        self.need(e["got"] == got, f"{got} resources are got")
        a["gained"][p] += 1
        self.last_gain = (p, c)
        if eff == "card_or_resource":
            self.need(a["gained"][p] <= amount, "Ischtar: too many resources")
        elif eff != "card_or_resource":
            self.need(a["gained"][p] == 1, "a second gain")

    def on_bonus(self, e, p):
        a = self.effect_phase()
        self.need(a["kind"] == "fewest" and e["card"] == a["card"], "a bonus of another card")
        w = self.fewest()
        a["fewest"] = w
        self.need(e["full"] == (p == w), f"the full bonus is seat {w}'s")
        a["bonus"][p] += 1
        self.in_order(a, p, strict=False)
        eff = a["effect"]
        if eff == "nannar" and not e["full"]:
            if e.get("drawn") is not None:
                self.need(a["drew"][p] == a["bonus"][p], "Nannar's lesser bonus is a card")
            return
        if eff == "gibil" or not e["full"]:
            self.need(getattr(self, "last_gain", None) == (p, e.get("colour")), "bonus colour")
            return
        if self.rule["half_price_card"] == "kept":
            self.half_price[p] += 1
            self.reminders[p][a["card"]] += 1
            a["kept"] = True
        else:
            self.half_price[p] = 1

    def on_secret_bid(self, e, p):
        a = self.effect_phase()
        self.need(a["kind"] == "disaster" and p not in a["secret"], "a secret bid")
        self.options(e, list(range(sum(self.supply[p].values()) + 1)))
        self.need(0 <= e["resources"] <= sum(self.supply[p].values()), "bids what it lacks")
        self.need(e["value"] == e["resources"] + self.bid_bonus(p), "the bid's value")
        a["secret"][p] = e

    def disaster_best(self, a):
        self.need(len(a["secret"]) == self.n, "not every seat bid in secret")
        values = [a["secret"][q]["value"] for q in range(self.n)]
        best = max(values)
        everyone = values.count(best) == self.n
        return {q for q in range(self.n) if values[q] == best and not everyone}

    def on_spared(self, e, p):
        a = self.effect_phase()
        self.need(p in self.disaster_best(a) and e["card"] == a["card"], "not spared")
        self.in_order(a, p)
        r = a["secret"][p]["resources"]
        self.need(e["paid"] == r == a["paid"][p], f"the spared seat pays its bid of {r}")
        a["spared"].add(p)

    def on_suffer(self, e, p):
        a = self.effect_phase()
        self.need(p not in self.disaster_best(a) and p not in a["suffered"], "does not suffer")
        self.need(e["card"] == a["card"], "suffers another card")
        a["suffered"].add(p)
        self.in_order(a, p)
        eff = a["effect"]
        amount = self.d.gods[a["card"]]["amount"]
        if eff == "drought":
            x = e.get("lost")
            self.options(e, self.by_data(y for y, st in self.inv[p].items() if st > 0))
            self.need(self.inv[p].get(x, 0) > 0, "the drought takes a stone that is not there")
            self.inv[p][x] -= 1
            self.pool_stones += 1
            self.stones_changed()
        elif eff == "earthquake":
            x = e.get("lost")
            bare = [y for y, st in self.inv[p].items() if st == 0]
            if x is not None:
                self.options(e, self.by_data(bare))
                self.need(x in bare, "the earthquake takes an invention with a settlement")
                del self.inv[p][x]
                self.discard.append(x)
            else:
                self.need(not bare, "the earthquake must take a bare invention")
                k = min(amount, sum(self.hand[p].values()))
                self.need(e["amount"] == k, f"the earthquake takes {k} hand cards")
                a.setdefault("quake", Counter())[p] = k
        else:
            self.need(e["amount"] == amount, "the eruption's actions")
            self.actions_next[p] = amount

    def close_activation(self):
        a = self.activation
        if a is None:
            return
        self.effect_phase()
        n = self.n
        if a["kind"] == "auction":
            self.need(a["won"], "the auction has no result")
        elif a["kind"] == "fewest":
            self.need(all(a["bonus"][q] >= 1 for q in range(n)), "a seat got no bonus")
        elif a["kind"] == "everyone":
            for q in range(n):
                self.need(
                    a["drew"][q] or a["gained"][q] or self.deck_size() + len(self.discard) == 0,
                    f"seat {q} got neither card nor resource from Ischtar",
                )
        else:
            best = self.disaster_best(a)
            self.need(a["spared"] == best, "the highest bidders are the spared seats")
            for q in range(n):
                if q not in best and q not in a["suffered"]:
                    self.need(
                        a["effect"] == "drought" and self.stones_of(q) == 0,
                        f"seat {q} does not suffer",
                    )
            for q, k in a.get("quake", {}).items():
                self.need(k == 0, f"seat {q} discarded too few cards to the earthquake")
        if a["kept"]:
            self.gods_held += 1
        else:
            self.discard.append(self.pending)
        self.discard.append(self.trigger)
        self.pending = self.trigger = self.trigger_seat = None
        self.activation = None

    # ------------------------------------------------------------------ end

    def on_end_triggered(self, e, p):
        self.need(self.expect and self.expect[0][0] == "end_triggered", "an end out of place")
        self.expect.pop(0)

    def on_refill_epoch_iv(self, e, p):
        self.need(self.expect and self.expect[0][0] == "refill_epoch_iv", "refill out of place")
        self.need(e["stones"] == self.expect.pop(0)[1], "stones back on epoch IV")

    def score_of(self, p) -> tuple[int, int]:
        sc = self.d.scoring
        pts = 0
        for x, st in self.inv[p].items():
            pts += (
                sc["bare_points"],
                self.d.level(x) * sc["village_factor"],
                self.d.level(x) * sc["city_factor"],
            )[st]
            r = self.d.inv[x]
            if r["effect"] == "end_points":
                what = r["counts"]
                if what == "inventions":
                    k = len(self.inv[p])
                elif what == "villages":
                    k = sum(1 for s in self.inv[p].values() if s == 1)
                elif what == "cities":
                    k = sum(1 for s in self.inv[p].values() if s == 2)
                elif what == "resources":
                    k = sum(self.supply[p].values())
                else:
                    k = sum(1 for y in self.inv[p] if self.d.colour(y) == r["colour"])
                pts += r["points"] * (k // r["per"])
        pts += sum(self.supply[p].values()) // sc["resources_per_point"]
        cities = sum(1 for s in self.inv[p].values() if s == 2)
        return pts + self.city_points[p] * cities, cities

    def on_score(self, e, p):
        if not self.scores:
            self.close_turn()
            capped = self.turns_played >= self.d.comp["max_turns"]
            self.need((self.final and self.final_left == 0) or capped, "the game ended early")
            done = self.final and self.final_left == 0
            self.need(self.t["final"]["capped"] == (capped and not done), "capped flag")
            self.need(e["turn"] == self.turn, f"scored at turn {e['turn']}, not {self.turn}")
        self.need(p == len(self.scores), "scores out of seat order")
        pts, cities = self.score_of(p)
        self.need((e["score"], e["cities"]) == (pts, cities), f"scores {pts}, {cities} cities")
        self.scores.append({"score": pts, "cities": cities})
        if len(self.scores) == self.n:
            best = max(s["score"] for s in self.scores)
            most = max(s["cities"] for s in self.scores if s["score"] == best)
            top = [
                q for q, s in enumerate(self.scores) if (s["score"], s["cities"]) == (best, most)
            ]
            self.shares = [1 / len(top) if q in top else 0.0 for q in range(self.n)]
            for q, ev in enumerate(self.t["events"][self.i - self.n + 1 : self.i + 1]):
                self.need(ev["win_share_x1000"] == int(self.shares[q] * 1000 + 0.5), "win share")

    def check_final(self):
        f = self.t["final"]
        for p, s in enumerate(f["seats"]):
            self.need(s["score"] == self.scores[p]["score"] == sum(s["parts"].values()), "score")
            self.need(abs(s["win"] - self.shares[p]) < 1e-6, f"seat {p}'s win share")
            self.need(s["inventions"] == self.inv[p], f"seat {p}'s inventions")
            self.need(s["hand"] == {x: k for x, k in self.hand[p].items() if k}, f"seat {p}'s hand")
            self.need(s["supply"] == self.supply[p], f"seat {p}'s supply")
        best = max(self.shares)
        self.need(f["winners"] == [q for q in range(self.n) if self.shares[q] == best], "winners")
        self.need(f["pool"] == self.pool, "the pool")
        self.need(list(f["epochs"].values()) == self.epoch, "the epoch cards")
        self.need(f["pool_stones"] == self.pool_stones, "stones in the pool")
        self.need(f["deck"] == self.deck_size() and f["discard"] == len(self.discard), "piles")
        # conservation: every card somewhere, every resource, every stone
        cards = self.deck_size() + len(self.discard) + self.removed + self.gods_held
        cards += sum(x is not None for x in self.display)
        cards += sum(sum(h.values()) + len(i) for h, i in zip(self.hand, self.inv, strict=True))
        cards += (self.pending is not None) + (self.trigger is not None)
        total = sum(r["copies"] for r in self.d.inv.values())
        total += sum(g["copies"] for g in self.d.gods.values())
        self.need(cards == total, f"{cards} cards accounted for, {total} in the game")


def check_trace(trace: dict) -> None:
    """Raise :class:`TraceError` naming the first event that breaks a rule."""
    Checker(trace).run()


# ---------------------------------------------------------------------- the suite


def trace_of(players, strategies, seed, index, rulings=None) -> dict:
    """A trace as ``analyzer replay --game uruk --json`` writes it."""
    from tests.replays import trace_of as replay_json

    return replay_json("uruk", players, strategies, seed, index, rulings)


LINEUPS = {
    2: ["random"],
    3: ["balanced", "hoarder", "builder"],
    4: ["random", "builder", "hoarder", "balanced"],
}


def games(rulings: dict, count: int, seed: int):
    """``count`` traces over 2 to 4 players and mixed line-ups."""
    for g in range(count):
        n = 2 + g % 3
        strategies = LINEUPS[n] if g % 2 else ["random"]
        yield trace_of(n, strategies, seed, g, rulings)


SETTINGS = [{}] + [{k: v[1]} for k, v in RULING_VALUES.items()]


@pytest.mark.parametrize(
    "rulings", SETTINGS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default"
)
def test_traces_check(rulings):
    """Forty games per setting (default and each ruling switched alone): 280 games."""
    seen = Counter()
    for tr in games(rulings, 40, 20260127):
        check_trace(tr)
        seen.update(e["type"] for e in tr["events"])
    # the switched reading is played, so its own checks ran
    for rule, typ in RULING_EVENTS.items():
        if rule in rulings:
            assert seen[typ] > 0, f"{rule}: no {typ} event in 40 games"
    for typ in ("pair", "make_free", "bid_cards", "secret_bid", "suffer", "reshuffle"):
        assert seen[typ] > 0, typ


#: an event only the other reading of a ruling writes
RULING_EVENTS = {
    "settlement_on_replace": "stones_back",
    "half_price_card": "reminder_used",
    "trade_empty_pool": "trade_pool",
}


def test_a_drought_that_refills_epoch_iv():
    """Game 61 of seed 3, four frozen baseline seats (their games never move when the
    players change): after the end, a drought's stone goes back onto card IV (the
    trace names the loss before the refill it causes)."""
    tr = trace_of(4, ["baseline"] * 4, 3, 61)
    types = [e["type"] for e in tr["events"]]
    i = types.index("refill_epoch_iv", types.index("end_triggered") + 2)
    assert tr["events"][i - 1]["type"] == "suffer"
    check_trace(tr)


@pytest.fixture(scope="module")
def sample():
    """A 4-player game with an activation, a make with colour pairs and a stone."""
    for g in range(40):
        tr = trace_of(4, ["random", "builder", "hoarder", "balanced"], 7, g)
        types = {e["type"] for e in tr["events"]}
        wanted = {"pair", "settle", "activate", "discard", "bid_cards", "secret_bid", "reshuffle"}
        if wanted <= types:
            return tr
    raise AssertionError("no sample game with every event kind")


def test_the_sample_checks(sample):
    check_trace(sample)


def _plant(tr, typ, change, nth=0):
    """A copy of ``tr`` with ``change(event)`` applied to its ``nth`` event of ``typ``."""
    tr = copy.deepcopy(tr)
    hits = [e for e in tr["events"] if e["type"] == typ]
    if not hits:
        raise AssertionError(f"the sample game has no {typ} event to plant a bug in")
    change(hits[min(nth, len(hits) - 1)])
    return tr


def _other_card(card):
    names = [x for x in data().inv if x != card and data().level(x) >= 3]
    return names[0]


PLANTS = {
    "a dealt card changed": ("dealt", lambda e: e.update(card="Lehmhaus")),
    # the undealt level-2 cards lie on top: the first display card cannot be level 4
    "a display card from below the level-2 cards": ("display", lambda e: e.update(card="Zahnrad")),
    "a reshuffle keeping the removed cards": ("reshuffle", lambda e: e.update(removed=0)),
    "a colour pair of two colours": ("pair", lambda e: e.update(cards=[e["cards"][0], "Axt"])),
    "a payment lowered": ("pay", lambda e: e.update(amount=e["amount"] - 1)),
    "a stone from the wrong epoch": ("settle", lambda e: e.update(epoch="IV")),
    "a bid cheaper than its cards": ("bid", lambda e: e.update(value=(e["value"] or 0) + 1)),
    "a secret bid's value": ("secret_bid", lambda e: e.update(value=e["value"] + 1)),
    "a hand-limit discard of a card not held": ("discard", lambda e: e.update(card="Lehmhaus")),
    "a score one too high": ("score", lambda e: e.update(score=e["score"] + 1)),
    "a take from the wrong colour": (
        "take_resource",
        lambda e: e.update(colour="blue" if e["colour"] != "blue" else "red"),
    ),
    "a turn's actions": ("turn", lambda e: e.update(actions=e["actions"] + 1)),
    "a make shows more cards": ("make_cards", lambda e: e.update(shown=e["shown"] + 1)),
    "the stone left by an activation": ("stone_out", lambda e: e.update(epoch="IV")),
    "a god placed wrongly": (
        "god_drawn",
        lambda e: e.update(placed="discarded" if e["placed"] != "discarded" else "trigger"),
    ),
}


@pytest.mark.parametrize("name", list(PLANTS))
def test_a_planted_bug_is_caught(sample, name):
    typ, change = PLANTS[name]
    with pytest.raises(TraceError):
        check_trace(_plant(sample, typ, change))


@pytest.fixture(scope="module")
def pool():
    """Sixty games to find rarer events in (default rulings, 2 to 4 players)."""
    return list(games({}, 60, 99))


def _find_and_plant(traces, typ, when, change):
    """A copy of the first trace with an event of ``typ`` meeting ``when(event,
    events, index)``, ``change`` applied to that event."""
    for tr in traces:
        for i, e in enumerate(tr["events"]):
            if e["type"] == typ and when(e, tr["events"], i):
                bad = copy.deepcopy(tr)
                change(bad["events"][i], bad["events"], i)
                return bad
    raise AssertionError(f"no {typ} event to plant a bug in")


def _swap_next(e, events, i):
    """Swap this event with the next one (both keep their places' turn and seat)."""
    events[i], events[i + 1] = events[i + 1], events[i]


def _another_seat(events, *not_these):
    n = sum(e["type"] == "first_invention" for e in events)
    return next(q for q in range(n) if q not in not_these)


RARE_PLANTS = {
    # every level-1 card is dealt or out of the game: never in the deck or the display
    "a deck card that is not in the deck": (
        "take_card",
        lambda e, ev, i: e["slot"] is None,
        lambda e, ev, i: e.update(card="Lehmhaus"),
    ),
    "a display card that is not on the display": (
        "take_card",
        lambda e, ev, i: e["slot"] is not None,
        lambda e, ev, i: e.update(card="Lehmhaus"),
    ),
    "robbing a seat while the pool holds the colour": (
        "take_resource",
        lambda e, ev, i: e["from_seat"] is None and not e["function"],
        lambda e, ev, i: e.update(from_seat=_another_seat(ev, e["seat"])),
    ),
    "a robbed seat takes the same colour": (
        "robbed_takes",
        lambda e, ev, i: True,
        lambda e, ev, i: e.update(colour=ev[i - 1]["colour"]),
    ),
    "a drought takes an invention without a stone": (
        "suffer",
        lambda e, ev, i: e["card"] == "Dürre",
        lambda e, ev, i: e.update(lost="Lehmhaus"),
    ),
    "an earthquake takes a settled invention": (
        "suffer",
        lambda e, ev, i: e["card"] == "Erdbeben" and e.get("lost"),
        lambda e, ev, i: e.update(lost=None, amount=3),
    ),
    "a settlement discount that is not displayed": (
        "settle_cost",
        lambda e, ev, i: e["discount"] is not None,
        lambda e, ev, i: e.update(discount="Lehmhaus"),
    ),
    "a half-price stone paid in full": (
        "settle_cost",
        lambda e, ev, i: e["half_price"],
        lambda e, ev, i: e.update(half_price=False),
    ),
    "an auction bid out of turn": (
        "bid",
        lambda e, ev, i: ev[i + 1]["type"] == "bid" and ev[i + 1]["seat"] != e["seat"],
        _swap_next,
    ),
    "two deck draws in the wrong layer order": (
        "dealt",
        lambda e, ev, i: ev[i - 1]["type"] == "first_invention",
        lambda e, ev, i: e.update(card="Zahnrad"),
    ),
    "a free invention above the level rule": (
        "make_free",
        lambda e, ev, i: True,
        lambda e, ev, i: e.update(invention="Astronomie"),
    ),
    "a secret bid beyond the supply": (
        "secret_bid",
        lambda e, ev, i: True,
        lambda e, ev, i: e.update(resources=99, value=e["value"] + 99 - e["resources"]),
    ),
    "a spared seat pays less": (
        "spared",
        lambda e, ev, i: e["paid"] > 0,
        lambda e, ev, i: e.update(paid=e["paid"] - 1),
    ),
    "a bonus to the wrong seat": (
        "bonus",
        lambda e, ev, i: e["full"],
        lambda e, ev, i: e.update(full=False),
    ),
    "sufferers out of the clockwise order": (
        "suffer",
        lambda e, ev, i: ev[i + 1]["type"] == "suffer" and "lost" not in e,
        _swap_next,
    ),
    "a final hand that differs": (
        "score",
        lambda e, ev, i: e["seat"] == 0,
        lambda e, ev, i: None,
    ),
}


@pytest.mark.parametrize("name", list(RARE_PLANTS))
def test_a_rarer_planted_bug_is_caught(pool, name):
    typ, when, change = RARE_PLANTS[name]
    bad = _find_and_plant(pool, typ, when, change)
    if name == "a final hand that differs":
        bad["final"]["seats"][0]["hand"]["Lehmhaus"] = 1
    with pytest.raises(TraceError):
        check_trace(bad)


def test_a_missing_event_is_caught(sample):
    """Dropping any one chance or choice event breaks the check."""
    events = sample["events"]
    picks = [
        i
        for i, e in enumerate(events)
        if e["type"] in ("pair", "draw", "discard", "pay", "display")
    ]
    for i in picks[:: max(1, len(picks) // 12)]:
        tr = copy.deepcopy(sample)
        del tr["events"][i]
        with pytest.raises(TraceError):
            check_trace(tr)


def test_a_wrong_ruling_is_caught():
    """A trace played under one reading fails the check under the other."""
    caught = 0
    for rule, values in RULING_VALUES.items():
        for tr in games({rule: values[1]}, 30, 11):
            bad = copy.deepcopy(tr)
            bad["rulings"][rule] = values[0]
            try:
                check_trace(bad)
            except TraceError:
                caught += 1
                break
    assert caught >= 5, caught


def test_replay_json_on_the_command_line(capsys, tmp_path):
    """``analyzer replay --game uruk --json --rule ...`` prints the contract's object,
    the checker accepts it, and its scores are those ``simulate`` has for that game."""
    import pandas as pd

    from analyzer.cli import run_cli

    args = ["--players", "3", "--strategy", "random,builder,hoarder", "--seed", "5"]
    args += ["--rule", "settlement_on_replace=to_pool", "--rule", "empty_bid=allowed"]
    table = tmp_path / "run.parquet"
    sim = ["simulate", "--game", "uruk", *args, "--games", "3", "--workers", "1", "--quiet"]
    assert run_cli([*sim, "--out", str(table)]) == 0
    capsys.readouterr()
    assert run_cli(["replay", "--game", "uruk", *args, "--index", "2", "--json"]) == 0
    tr = json.loads(capsys.readouterr().out)
    for key in ("game", "rulings", "setup", "events", "final"):
        assert key in tr
    assert tr["rulings"]["settlement_on_replace"] == "to_pool"
    assert all({"kind", "type", "turn", "seat"} <= set(e) for e in tr["events"])
    check_trace(tr)
    rows = pd.read_parquet(table)
    rows = rows[rows["game"] == 2].sort_values("seat")
    assert rows["score"].astype(int).tolist() == [s["score"] for s in tr["final"]["seats"]]


def test_a_mislabelled_event_is_caught(sample):
    bad = _plant(sample, "pair", lambda e: e.update(kind="effect"))
    with pytest.raises(TraceError, match="is a choice"):
        check_trace(bad)


def test_combinations_are_listed():
    combos = list(itertools.product(*RULING_VALUES.values()))
    assert len(combos) == 64


# ---------------------------------------------------------------------- the options of a choice

#: every kind of choice the trace holds (the take_resource ones: robbing, take-any)
CHOICE_TYPES = (
    "action",
    "pair",
    "make_free",
    "robbed_takes",
    "pay",
    "discard",
    "bid",
    "bid_cards",
    "gain",
    "secret_bid",
    "take_resource",
    "suffer",
)


def _fewer(options):
    """``options`` with its last one left out (an offer the rules make, missing)."""
    if isinstance(options, dict):
        return {**options, "invention": options["invention"][:-1]}
    return options[:-1]


def _is_choice(e, ev, i):
    return e["kind"] == "choice"


@pytest.mark.parametrize("typ", CHOICE_TYPES)
def test_every_choice_lists_its_options(pool, typ):
    """A choice without its options, or with one option left out, is caught (an
    action's options are the seat's candidates: leaving out the one chosen)."""
    bad = _find_and_plant(pool, typ, _is_choice, lambda e, ev, i: e.pop("options"))
    with pytest.raises(TraceError, match="without the options"):
        check_trace(bad)
    if typ == "action":

        def change(e, ev, i):
            e["options"] = [o for o in e["options"] if o.get("action") != e["action"]]

    else:

        def change(e, ev, i):
            e["options"] = _fewer(e["options"])

    def some(e, ev, i):  # a choice that had options (a god's gain from an empty pool has none)
        return _is_choice(e, ev, i) and bool(e["options"])

    with pytest.raises(TraceError, match="options|not among"):
        check_trace(_find_and_plant(pool, typ, some, change))


def test_an_illegal_action_among_the_options_is_caught(sample):
    bad = _plant(
        sample, "action", lambda e: e["options"].append({"action": "take_card", "slot": 7})
    )
    with pytest.raises(TraceError, match="not legal"):
        check_trace(bad)


def test_a_function_marked_used_without_one_is_caught(pool):
    """The old trace's fault: ``function: true`` on every take_resources action."""
    no_fn = {x for x, r in data().inv.items() if r["effect"] != "take_resources"}

    def when(e, ev, i):
        return e.get("action") == "take_resources" and e["invention"] in no_fn

    def change(e, ev, i):
        e["function"] = True
        for o in e["options"]:
            if o == {**o, "action": "take_resources", "invention": e["invention"]}:
                o["function"] = True

    with pytest.raises(TraceError, match="function"):
        check_trace(_find_and_plant(pool, "action", when, change))


def test_a_trade_names_the_cards_it_traded(pool):
    """The old trace's fault: a trade naming cards the empty pool could not take, with
    nothing saying which were traded. ``traded`` must be the cards of its trade rows."""
    dropped = [
        e
        for tr in pool
        for e in tr["events"]
        if e.get("action") == "trade" and e["type"] == "action" and e["traded"] != e["inventions"]
    ]
    assert dropped, "no trade naming a card it could not trade in 60 games"
    bad = _find_and_plant(
        pool,
        "action",
        lambda e, ev, i: e.get("action") == "trade" and e["traded"] != e["inventions"],
        lambda e, ev, i: e.update(traded=list(e["inventions"])),
    )
    with pytest.raises(TraceError, match="cards traded"):
        check_trace(bad)


def test_a_reshuffle_lists_the_new_deck_s_order(sample):
    def change(e):
        order = e["order"]
        j = next(j for j, x in enumerate(order) if x != order[0])
        order[0], order[j] = order[j], order[0]

    with pytest.raises(TraceError, match="top card"):
        check_trace(_plant(sample, "reshuffle", change))
    with pytest.raises(TraceError, match="order"):
        check_trace(_plant(sample, "reshuffle", lambda e: e.pop("order")))


def test_a_take_any_resource_is_a_choice(pool):
    """Aquädukt's resources (a take-any card action): each colour is the seat's
    choice, marked so, with the colours the pool held."""
    bad = _find_and_plant(
        pool,
        "take_resource",
        lambda e, ev, i: e["from_seat"] is None and e["kind"] == "choice",
        lambda e, ev, i: e.update(kind="effect"),
    )
    with pytest.raises(TraceError, match="is a choice"):
        check_trace(bad)
