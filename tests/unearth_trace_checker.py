"""An independent checker of Unearth's checkable trace (``analyzer replay --json``).

A plain Python twin of the rules (``docs/games/unearth.md`` and the engine's
rulings, ``docs/games/unearth.md``) that imports nothing of the engine or the rules
modules: it reads the game's data files with :mod:`tomllib` and reuses the
independent twins of :mod:`tests.naive` (tiebreak, reachable values, formulas,
scoring, win shares). Given only the JSON object of one game it plays the game
again from its events: it walks the turn structure itself, and at every point
where the rules call for a chance outcome or a choice it takes the next event
and checks that its type, turn and seat are the ones due, that a chance outcome
was possible (a die face in range, a drawn card still in the deck, a stone
still in the bag, a token still in its pile ...), that a choice was legal and
that the options the trace lists are the rules' options; every effect (a die's
placement, a claim, a wonder built) must equal its own, and so must the final
scores, their parts and the winners. The first disagreement raises
:class:`TraceError` naming the event.

Checked: the set-up (deal, hidden ruins, ruins set aside, end-of-age card,
first ruins and their stones, named wonders in play), the delver deck (draws,
reshuffles and the new pile's order, which later draws follow, hands), every
card played and its effect (a die Forlorn or A New Discovery changed is an
event), excavations (declared
die and ruin, take-backs), every roll as rolled (first rolls, Ancient Map and
Shattered Edifice rerolls), reroll decisions, Expedition, the final value
among the values the modifiers reach (event, Ancestral Claim, Reading the
Stones, College, Columns, Sanctuary, in any order), stones (offer, source,
bag draws with the Underground Library), stone placement, rings and the
wonders they hold (named options, tokens, empty piles under
``token_fallback``), the Cenotaph and Memorial, claims and tiebreaks,
consolation and Eternal Flame draws, end-of-age events, the end of the game,
scores and win shares. Not checked: whether a choice was a *good* one.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

from tests.naive import (
    TIE,
    naive_formula_ok,
    naive_reachable,
    naive_ruin_outcome,
    naive_score,
    naive_share_wins,
)

DATA = Path(__file__).resolve().parents[1] / "analyzer" / "unearth" / "data"
MAX_TURNS = 2000  #: the engine's safety cap (docs/games/unearth.md)
#: the six neighbours of an axial cell, in the order the engine examines them
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


class TraceError(AssertionError):
    """The trace disagrees with the rules (the message names the event)."""


def load_data(path: Path = DATA) -> dict:
    """Every data file of the game, by its stem."""
    return {f.stem: tomllib.loads(f.read_text()) for f in sorted(path.glob("*.toml"))}


def with_knobs(data: dict, trace: dict) -> dict:
    """``data`` with the trace's seat-compensation knobs (balancing knobs, the only
    overrides this checker applies itself: ``seat_compensation.<key>``) set."""
    knobs = {}
    for path, value in trace.get("overrides", {}).items():
        deck, _, key = path.partition(".")
        if deck != "seat_compensation" or key not in data["seat_compensation"]:
            raise TraceError("data overrides are not supported by this checker")
        knobs[key] = value
    return {**data, "seat_compensation": {**data["seat_compensation"], **knobs}}


class Game:
    """One game replayed from its trace; :meth:`run` checks it all."""

    def __init__(self, trace: dict, data: dict | None = None):
        if trace.get("game") != "unearth":
            raise TraceError(f"not an Unearth trace: {trace.get('game')!r}")
        self.tr = trace
        self.d = with_knobs(data or load_data(), trace)
        self.rulings = SimpleNamespace(**trace["rulings"])
        self.events = trace["events"]
        self.i = 0
        d = self.d
        comp = d["components"]
        self.n = trace["players"]
        by = comp["by_players"][str(self.n)]
        self.n_slots = by["revealed"]
        self.n_removed = by["removed"]
        self.faces = list(comp["dice"])
        self.colours = list(comp["stone_colours"])
        self.stone_max = comp["stone_faces_max"]
        self.ruins = {r["id"]: r for r in d["ruins"]["ruin"]}
        self.eoa = {c["id"]: c for c in d["end_of_age"]["card"]}
        self.delver = {k["id"]: k for k in d["delvers"]["delver"]}
        self.delver_order = [k["id"] for k in d["delvers"]["delver"]]
        self.wonder = {w["id"]: w for w in d["named_wonders"]["wonder"]}
        self.wonder_order = [w["id"] for w in d["named_wonders"]["wonder"]]
        # the state
        self.bag = Counter({c: comp["stones_per_colour"] for c in self.colours})
        self.deck = Counter({k: v["copies"] for k, v in self.delver.items()})
        self.disc = Counter()
        self.pile: list[str] | None = None  # the draw pile's order once reshuffled
        self.hand = [Counter() for _ in range(self.n)]
        self.unseen = Counter(list(self.ruins))  # ruins whose place is not yet known
        self.ruins_left = 0  # ruins still in the ruins deck above the end-of-age card
        self.eoa_card = None
        self.eoa_done = False
        self.set_aside: list[str] = []
        self.slot_card: list[str | None] = [None] * self.n_slots
        self.slot_stones = [Counter() for _ in range(self.n_slots)]
        n_dice = len(self.faces)
        self.die_slot = [[None] * n_dice for _ in range(self.n)]
        self.die_value = [[0] * n_dice for _ in range(self.n)]
        self.stones = [{} for _ in range(self.n)]  # {(q, r): colour}
        self.centres = [set() for _ in range(self.n)]
        self.tokens = [[] for _ in range(self.n)]
        self.named_in_play: set[str] = set()
        self.owner: dict[str, int] = {}
        self.held = [[] for _ in range(self.n)]
        self.lesser = Counter(d["wonder_tokens"]["lesser"])
        self.greater = Counter(d["wonder_tokens"]["greater"])
        self.roll_mod = 0
        self.turn = 0
        self.cur = 0
        self.over = False
        self.anc = self.read = self.map = self.expedition = self.band = 0

    # ------------------------------------------------------------------ events

    def fail(self, why: str, ev: dict | None = None):
        at = self.i - 1 if ev is not None else self.i
        raise TraceError(f"event {at} ({ev or 'end of trace'}): {why}")

    def peek(self) -> dict | None:
        return self.events[self.i] if self.i < len(self.events) else None

    def take(self, typ: str, seat, kind: str) -> dict:
        """The next event, which must be of ``typ`` for ``seat`` (None: the table)
        in the current turn, marked ``kind``."""
        ev = self.peek()
        if ev is None:
            self.fail(f"the trace ended where a {typ!r} was due")
        self.i += 1
        if ev.get("type") != typ:
            self.fail(f"expected a {typ!r} event", ev)
        if ev.get("kind") != kind:
            self.fail(f"a {typ!r} is a {kind}, marked {ev.get('kind')!r}", ev)
        if ev.get("seat") != seat:
            self.fail(f"expected seat {seat}", ev)
        if ev.get("turn") != self.turn:
            self.fail(f"expected turn {self.turn}", ev)
        return ev

    def want(self, ok: bool, why: str, ev: dict):
        if not ok:
            self.fail(why, ev)

    # ------------------------------------------------------------------ chance

    def draw(self, seat: int, typ: str = "draw"):
        """``seat`` draws a delver card; the discards are reshuffled when the pile is out."""
        if sum(self.deck.values()) == 0:
            n = sum(self.disc.values())
            if n == 0:
                return
            ev = self.take("shuffle", None, "chance")
            self.want(ev["cards"] == n, f"the discards hold {n} cards", ev)
            order = ev.get("order")
            self.want(order is not None, "a shuffle without the new pile's order", ev)
            self.want(Counter(order) == self.disc, "the new pile is not the discards", ev)
            self.pile = list(order)
            self.deck, self.disc = self.disc, Counter()
        ev = self.take(typ, seat, "chance")
        card = ev["card"]
        self.want(self.deck[card] > 0, f"{card} is not in the draw pile", ev)
        if self.pile is not None:
            top = self.pile.pop(0)
            self.want(card == top, f"the pile's top card is {top}", ev)
        self.deck[card] -= 1
        self.hand[seat][card] += 1

    def bag_draw(self, typ: str, seat, **where) -> str | None:
        if sum(self.bag.values()) == 0:
            return None
        ev = self.take(typ, seat, "chance")
        for k, v in where.items():
            self.want(ev.get(k) == v, f"{k} should be {v}", ev)
        c = ev["colour"]
        self.want(self.bag[c] > 0, f"no {c} stone left in the bag", ev)
        self.bag[c] -= 1
        return c

    def reveal(self, slot: int):
        """Fill ``slot`` from the ruins deck (the end-of-age card last)."""
        self.slot_card[slot] = None
        if self.ruins_left > 0:
            ev = self.take("reveal", None, "chance")
            card = ev["card"]
            self.want(ev["slot"] == slot, f"the slot to fill is {slot}", ev)
            self.want(self.unseen[card] > 0, f"{card} is not in the ruins deck", ev)
            self.unseen[card] -= 1
            self.ruins_left -= 1
            stones = self.ruins[card]["stones"]
        elif not self.eoa_done:
            self.eoa_done = True
            card = self.eoa_card
            info = self.eoa[card]
            if info["kind"] == "event":
                ev = self.take("end_of_age_event", None, "effect")
                self.want(ev["card"] == card, f"the end-of-age card is {card}", ev)
                if info["effect"] == "day_of_rest":
                    for i in range(self.n):
                        for _ in range(info["amount"]):
                            self.draw((self.cur + i) % self.n)
                elif info["effect"] == "roll_modifier":
                    self.roll_mod += info["amount"]
                return
            ev = self.take("reveal", None, "chance")
            self.want(ev["card"] == card and ev["slot"] == slot, f"{card} into slot {slot}", ev)
            stones = info["stones"]
        else:
            return
        self.slot_card[slot] = card
        for _ in range(stones):
            c = self.bag_draw("ruin_stone", None, slot=slot)
            if c is None:
                break
            self.slot_stones[slot][c] += 1

    def claim_value(self, card: str) -> int:
        return (self.ruins.get(card) or self.eoa[card])["claim"]

    # ------------------------------------------------------------------ set-up

    def setup(self):
        comp = self.d["components"]
        for _ in range(comp["delver_cards_dealt"]):
            for p in range(self.n):
                self.draw(p, "deal")
        extra = self.d["seat_compensation"]  # balancing knobs: 0 in the printed game
        for p in range(self.n):
            count = p * extra["delver_cards_per_seat"]
            count += extra["delver_cards_last_seat"] if p == self.n - 1 else 0
            by_seat = extra["delver_cards_by_seat"]
            count += by_seat[p] if p < len(by_seat) else 0
            for _ in range(count):
                self.draw(p, "deal")
        for _ in range(comp["hidden_ruins_per_player"]):
            for p in range(self.n):
                ev = self.take("hidden_ruin", p, "chance")
                self.want(self.unseen[ev["card"]] > 0, "not a ruin still in the deck", ev)
                self.unseen[ev["card"]] -= 1
                self.held[p].append(ev["card"])
        for _ in range(self.n_removed):
            ev = self.take("set_aside", None, "chance")
            self.want(self.unseen[ev["card"]] > 0, "not a ruin still in the deck", ev)
            self.unseen[ev["card"]] -= 1
            self.set_aside.append(ev["card"])
        self.ruins_left = sum(self.unseen.values())
        ev = self.take("end_of_age_card", None, "chance")
        self.want(ev["card"] in self.eoa, "not an end-of-age card", ev)
        self.eoa_card = ev["card"]
        for slot in range(self.n_slots):
            self.reveal(slot)
        for _ in range(min(self.n + 2, len(self.wonder))):
            ev = self.take("named_in_play", None, "chance")
            w = ev["wonder"]
            self.want(w in self.wonder and w not in self.named_in_play, "not a wonder left", ev)
            self.named_in_play.add(w)

    # ------------------------------------------------------------------ turns

    def run(self):
        self.setup()
        if self.tr["setup"]["players"] != self.n or self.tr["setup"]["slots"] != self.n_slots:
            self.fail("set-up counts")
        p = 0
        while not self.over:
            if self.turn >= MAX_TURNS:
                break
            self.take_turn(p)
            self.turn += 1
            p = (p + 1) % self.n
        if self.i != len(self.events):
            self.fail("events left after the game ended", self.events[self.i])
        self.score()

    def owns(self, seat: int, effect: str) -> str | None:
        for w, q in self.owner.items():
            if q == seat and self.wonder[w]["effect"] == effect:
                return w
        return None

    def dice_on(self):
        return [
            (q, d)
            for q in range(self.n)
            for d in range(len(self.faces))
            if self.die_slot[q][d] is not None
        ]

    def legal_kinds(self, p: int) -> list[str]:
        """The delver cards ``p`` holds that can act now (docs/games/unearth.md)."""
        out = []
        for k in self.delver_order:
            if self.hand[p][k] == 0:
                continue
            eff = self.delver[k]["effect"]
            if eff in ("forlorn", "lost_in_the_ruins", "a_new_discovery", "forgotten_song"):
                ok = bool(self.dice_on())
            elif eff == "restoration":
                ok = any(s is not None for s in self.die_slot[p])
            elif eff == "band_of_delvers":
                ok = not self.band
            else:
                ok = True
            if ok:
                out.append(k)
        return out

    def take_turn(self, p: int):
        self.cur = p
        self.anc = self.read = self.map = self.expedition = self.band = 0
        while True:
            ev = self.peek()
            if not (ev and ev.get("type") == "play" and ev.get("seat") == p):
                break
            if ev.get("turn") != self.turn:
                break
            self.play(p)
            if self.over:
                return
        self.excavate(p)
        if self.band and not self.over:
            self.excavate(p)

    def play(self, p: int):
        legal = self.legal_kinds(p)
        ev = self.take("play", p, "choice")
        card = ev["card"]
        self.want(card in legal, f"{card} cannot be played (legal: {legal})", ev)
        self.want(ev.get("options") == legal, f"options should be {legal}", ev)
        self.hand[p][card] -= 1
        self.disc[card] += 1
        info = self.delver[card]
        eff = info["effect"]
        if eff == "ancient_map":
            self.map += 1
        elif eff == "band_of_delvers":
            self.band = 1
        elif eff == "ancestral_claim":
            self.anc += 1
        elif eff == "reading_the_stones":
            self.read += 1
        elif eff == "expedition":
            self.expedition += 1
        elif eff == "restoration":
            for d in range(len(self.faces)):
                slot = self.die_slot[p][d]
                if slot is not None:
                    self.roll_die(p, d, slot, False)
        elif eff == "forgotten_song":
            number = ev["number"]
            self.want(1 <= number <= max(self.faces), "no die shows that number", ev)
            marked = [
                ((p + i) % self.n, d)
                for i in range(self.n)
                for d in range(len(self.faces))
                if self.die_slot[(p + i) % self.n][d] is not None
                and self.die_value[(p + i) % self.n][d] == number
            ]
            for q, d in marked:
                if self.die_slot[q][d] is not None:
                    self.roll_die(q, d, self.die_slot[q][d], False)
        else:
            tg = ev["target"]
            q, d = tg["seat"], tg["die"]
            self.want(
                0 <= q < self.n and 0 <= d < len(self.faces) and self.die_slot[q][d] is not None,
                "the target is not a die on a ruin",
                ev,
            )
            if eff == "lost_in_the_ruins":
                self.roll_die(q, d, self.die_slot[q][d], False)
            else:
                was = self.die_value[q][d]
                v = min(max(was + info["amount"], 1), self.faces[d])
                self.die_value[q][d] = v
                ev = self.take("die_changed", q, "effect")
                mine = {"die": d, "slot": self.die_slot[q][d], "was": was, "value": v}
                self.want({k: ev.get(k) for k in mine} == mine, f"expected {mine}", ev)
        self.check_claims()

    def open_slots(self) -> list[int]:
        return [s for s in range(self.n_slots) if self.slot_card[s] is not None]

    def excavate(self, p: int):
        pool = [d for d in range(len(self.faces)) if self.die_slot[p][d] is None]
        dice = pool or list(range(len(self.faces)))
        slots = self.open_slots()
        ev = self.take("declare", p, "choice")
        d, slot = ev["die"], ev["slot"]
        self.want(ev["die_options"] == dice and ev["slot_options"] == slots, "options", ev)
        self.want(d in dice and slot in slots, "not a die and ruin it may declare", ev)
        if self.die_slot[p][d] is not None:
            ev = self.take("take_back", p, "effect")
            self.want((ev["die"], ev["slot"]) == (d, self.die_slot[p][d]), "take-back", ev)
            self.die_slot[p][d] = None
        self.roll_die(p, d, slot, True)

    # ------------------------------------------------------------------ a roll

    def reach(self, owner, slot, faces, natural, n_anc, n_read) -> list[int]:
        """The final values a roll can take (docs/games/unearth.md, "Order of modifiers")."""
        mods = []
        if self.roll_mod:
            mods.append((self.roll_mod, False, False))
        for info in self.delver.values():
            if info["effect"] == "ancestral_claim" and info.get("faces", 0) in (0, faces):
                mods += [(info["amount"], False, False)] * n_anc
            if info["effect"] == "reading_the_stones":
                mods += [(info["amount"], False, True)] * n_read
        w = self.owns(owner, "college")
        if w and self.wonder[w].get("faces", 0) in (0, faces):
            mods.append((self.wonder[w]["amount"], True, False))
        w = self.owns(owner, "columns")
        if w:
            mods.append((self.wonder[w]["amount"], True, False))
        w = self.owns(owner, "sanctuary")
        if w and any(
            self.die_slot[q][e] == slot and self.die_value[q][e] == natural
            for q in range(self.n)
            for e in range(len(self.faces))
        ):
            mods.append((self.wonder[w]["amount"], True, True))
        return sorted(naive_reachable(natural, faces, mods))

    def consume(self, faces):
        """The current player's pending Reading the Stones is used, and its
        Ancestral Claims if the die has the card's faces."""
        self.read = 0
        for info in self.delver.values():
            if info["effect"] == "ancestral_claim" and info.get("faces", 0) in (0, faces):
                self.anc = 0

    def rolled(self, q, d, slot, why) -> int:
        ev = self.take("roll", q, "chance")
        f = self.faces[d]
        self.want(ev["die"] == d and ev["faces"] == f and ev["why"] == why, "which roll", ev)
        self.want(ev["slot"] == slot, f"the die is rolled for slot {slot}", ev)
        self.want(1 <= ev["face"] <= f, f"a d{f} has no face {ev['face']}", ev)
        return ev["face"]

    def reroll_choice(self, q, d, natural, by) -> bool:
        ev = self.take("reroll", q, "choice")
        self.want(ev["by"] == by and ev["die"] == d and ev["natural"] == natural, "reroll", ev)
        self.want(ev["reroll"] in (True, False), "reroll or keep", ev)
        return ev["reroll"]

    def roll_die(self, q, d, slot, excavation):
        faces = self.faces[d]
        mine = q == self.cur
        cards = mine or self.rulings.card_mods_on_forced_rerolls
        self.die_slot[q][d] = None  # in the air
        natural = self.rolled(q, d, slot, "roll")
        n_anc = self.anc if cards else 0
        n_read = self.read if cards else 0
        if excavation and mine and self.map > 0:
            if self.reroll_choice(q, d, natural, "ancient_map"):
                self.map -= 1
                natural = self.rolled(q, d, slot, "ancient_map")
                n_anc = n_read = 0
                self.consume(faces)
        if excavation and mine and self.expedition > 0:
            self.expedition -= 1
            opts = self.open_slots()
            ev = self.take("expedition", q, "choice")
            self.want(ev["options"] == opts and ev["slot"] in opts, "Expedition's slot", ev)
            slot = ev["slot"]
        values = self.reach(q, slot, faces, natural, n_anc, n_read)
        edi = self.owns(q, "edifice")
        if edi and self.wonder[edi]["reroll_low"] <= natural <= self.wonder[edi]["reroll_high"]:
            if self.reroll_choice(q, d, natural, "edifice"):
                natural = self.rolled(q, d, slot, "edifice")
                if cards:
                    self.consume(faces)
                n_anc = n_read = 0
                values = self.reach(q, slot, faces, natural, 0, 0)
        chooser = self.cur if (not mine and (n_anc or n_read)) else q
        if len(values) > 1:
            ev = self.take("value", chooser, "choice")
            self.want(ev["owner"] == q and ev["die"] == d and ev["slot"] == slot, "whose", ev)
            self.want(ev["options"] == values, f"reachable values are {values}", ev)
            self.want(ev["value"] in values, "not a reachable value", ev)
            value = ev["value"]
        else:
            value = values[0]
        if cards and (n_anc or n_read):
            self.consume(faces)
        self.die_slot[q][d] = slot
        self.die_value[q][d] = value
        ev = self.take("die_placed", q, "effect")
        mine_ev = {"die": d, "slot": slot, "natural": natural, "value": value}
        got = {k: ev.get(k) for k in mine_ev}
        self.want(got == mine_ev and ev.get("excavation") == excavation, f"expected {mine_ev}", ev)
        if natural <= self.stone_max:
            self.gain_stone(q, slot)
        self.check_claims()

    # ------------------------------------------------------------------ stones

    def gain_stone(self, p, slot):
        on = self.slot_stones[slot]
        if sum(on.values()) > 0:
            offer, source = [c for c in self.colours if on[c] > 0], "ruin"
        else:
            lib = self.owns(p, "library")
            n_draw = self.wonder[lib]["amount"] if lib else 1
            drawn = []
            for _ in range(max(n_draw, 1)):
                c = self.bag_draw("bag_stone", p)
                if c is not None:
                    drawn.append(c)
            if not drawn:
                return
            offer, source = [c for c in self.colours if c in drawn], "bag"
        ev = self.take("stone", p, "choice")
        colour = ev["colour"]
        self.want(ev["source"] == source, f"the stone comes from the {source}", ev)
        self.want(ev["colour_options"] == offer and colour in offer, f"offer {offer}", ev)
        if source == "ruin":
            on[colour] -= 1
        else:
            drawn.remove(colour)
            for c in drawn:
                self.bag[c] += 1
        self.place(p, colour, ev)

    def free_cells(self, p) -> list[tuple[int, int]]:
        st, ce = self.stones[p], self.centres[p]
        if not st:
            return [tuple(self.tr["setup"]["grid"]["middle"])]
        half = self.tr["setup"]["grid"]["size"] // 2
        out = set()
        for q, r in st:
            for dq, dr in STEPS:
                c = (q + dq, r + dr)
                if c not in st and c not in ce and abs(c[0]) <= half and abs(c[1]) <= half:
                    out.add(c)
        return sorted(out, key=lambda c: (c[1], c[0]))

    def place(self, p, colour, ev):
        opts = self.free_cells(p)
        cell = tuple(ev["cell"])
        self.want(cell in opts, f"{cell} is not free or touches no stone", ev)
        self.want([tuple(c) for c in ev["cell_options"]] == opts, "cell options", ev)
        st = self.stones[p]
        st[cell] = colour
        closed = []
        for dq, dr in STEPS:
            c = (cell[0] + dq, cell[1] + dr)
            if c in st or c in self.centres[p]:
                continue
            if all((c[0] + a, c[1] + b) in st for a, b in STEPS):
                closed.append(c)
        for c in closed:
            self.build(p, c)

    def build(self, p, centre):
        ring = [self.stones[p][(centre[0] + a, centre[1] + b)] for a, b in STEPS]
        alike = len(set(ring)) == 1
        fits = [
            w
            for w in self.wonder_order
            if w in self.named_in_play
            and w not in self.owner
            and naive_formula_ok(self.wonder[w]["formula"], ring, self.colours)
        ]
        self.centres[p].add(centre)
        if fits:
            ev = self.take("named_wonder", p, "choice")
            self.want(tuple(ev["cell"]) == centre, f"the ring's centre is {centre}", ev)
            self.want(ev["options"] == fits + [None], f"options {fits} or a token", ev)
            self.want(ev["wonder"] in fits + [None], "not an option", ev)
            w = ev["wonder"]
            if w is not None:
                ev = self.take("build_named", p, "effect")
                self.want(ev["wonder"] == w and tuple(ev["cell"]) == centre, "build", ev)
                self.owner[w] = p
                eff = self.wonder[w]["effect"]
                if eff in ("cenotaph", "memorial") and self.set_aside:
                    kind = "chance" if eff == "cenotaph" else "choice"
                    ev = self.take("take_set_aside", p, kind)
                    card = ev["card"]
                    self.want(card in self.set_aside, "not a ruin set aside", ev)
                    self.want(sorted(ev["options"]) == sorted(self.set_aside), "options", ev)
                    self.set_aside.remove(card)
                    self.held[p].append(card)
                return
        less, great = sum(self.lesser.values()) > 0, sum(self.greater.values()) > 0
        fallback = self.rulings.token_fallback
        use_greater = alike
        if alike and not great:
            use_greater = not (fallback and less)
        if not alike and not less:
            use_greater = bool(fallback and great)
        if (use_greater and great) or (not use_greater and less):
            pile = "greater" if use_greater else "lesser"
            ev = self.take("token", p, "chance")
            stock = self.greater if use_greater else self.lesser
            self.want(ev["pile"] == pile and tuple(ev["cell"]) == centre, f"a {pile} token", ev)
            self.want(stock[ev["value"]] > 0, f"no {pile} token of {ev['value']} left", ev)
            stock[ev["value"]] -= 1
            self.tokens[p].append(ev["value"])
        else:
            ev = self.take("no_wonder", p, "effect")
            self.want(tuple(ev["cell"]) == centre, "the ring's centre", ev)

    # ------------------------------------------------------------------ claims

    def check_claims(self):
        for slot in range(self.n_slots):
            card = self.slot_card[slot]
            if card is None:
                continue
            dice = [
                (q, self.faces[d], self.die_value[q][d])
                for q in range(self.n)
                for d in range(len(self.faces))
                if self.die_slot[q][d] == slot
            ]
            total = sum(v for _, _, v in dice)
            if total < self.claim_value(card):
                continue
            winner, _ = naive_ruin_outcome(dice, self.claim_value(card), self.n)
            winner = None if winner == TIE else winner
            ev = self.take("claim", None, "effect")
            mine = {"slot": slot, "card": card, "winner": winner, "total": total}
            self.want({k: ev.get(k) for k in mine} == mine, f"expected {mine}", ev)
            if winner is not None:
                self.held[winner].append(card)
            for i in range(self.n):
                q = (self.cur + i) % self.n
                if q == winner:
                    continue
                had = sum(1 for o, _, _ in dice if o == q)
                for _ in range(had):
                    self.draw(q)
                if had == 0 and winner is not None and self.owns(q, "flame"):
                    self.draw(q)
            for q in range(self.n):
                for d in range(len(self.faces)):
                    if self.die_slot[q][d] == slot:
                        self.die_slot[q][d] = None
            self.bag.update(self.slot_stones[slot])
            self.slot_stones[slot] = Counter()
            self.reveal(slot)
        if all(c is None for c in self.slot_card):
            self.over = True

    # ------------------------------------------------------------------ scoring

    def score(self):
        fin = self.tr["final"]
        if fin.get("aborted"):
            self.fail("the game hit the turn cap")
        if fin["turns"] != self.turn:
            self.fail(f"the game lasted {self.turn} turns, not {fin['turns']}")
        rules = SimpleNamespace(data=self.d, rulings=self.rulings)
        scores = []
        for p in range(self.n):
            stones = Counter(self.stones[p].values())
            named = [w for w, q in self.owner.items() if q == p]
            parts = naive_score(rules, self.held[p], stones, self.tokens[p], named)
            total = parts.pop("total")
            if parts != fin["parts"][p] or total != fin["scores"][p]:
                self.fail(f"seat {p} scores {total} {parts}, the trace says {fin['scores'][p]}")
            scores.append(total)
        wins = naive_share_wins(rules, scores, self.held)
        if [float(w) for w in wins] != [float(w) for w in fin["win"]]:
            self.fail(f"win shares {[float(w) for w in wins]}, the trace says {fin['win']}")


def check_trace(trace: dict, data: dict | None = None) -> Game:
    """Check one game's JSON trace; raise :class:`TraceError` at the first fault."""
    g = Game(trace, data)
    g.run()
    return g
