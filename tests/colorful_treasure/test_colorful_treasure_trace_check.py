"""An independent checker of Colorful Treasure's checkable trace (``analyzer replay --json``).

A plain Python twin of the rules of ``docs/games/colorful_treasure.md``: it
imports nothing of ``analyzer`` and reads only the game's data files (with
``tomllib``) and one trace (the JSON object, parsed). It plays the game again
from the trace's events alone, event by event, and fails (:class:`TraceError`,
naming the event) unless

- every chance outcome is possible: a card seen at a place (revealed, or
  peeked) belongs to that place's wonder, is the card seen there before if any,
  and otherwise one of that wonder's cards not yet seen anywhere (the hidden
  layout is never given: each column is a uniform shuffle, so this is all the
  set-up allows);
- every choice is legal, and lists the options it was made among, exactly the
  ones the rules offer: the places to reveal or peek, to stop revealing, the kind
  to take (or nothing, ruling ``take``), a steal's victim and item (truce,
  guarded), the tile of an offer, using a tile (``[true, false]``);
- every effect the rules fix is there, exactly, in order, and nothing else: the
  cards taken (all face-up cards of the kind, or every key and chest), the
  plastic diamonds, the cards turned back, the pairs (and the cards they spend
  under ``steal_pairs = "cards"``), the steals a pair brings, the rewards when
  due (and only then), the tile offers when due (rulings ``tile_offers``,
  ``tile_timing``), the end of the game, the treasure majority;
- the final scores, their parts and the wins equal its own.

The order of a turn it expects is the engine's documented one (module docstring
of the engine's tiles: peeks at the start of a turn, then reveals, a fourth card,
the take, cards turned back, pairs and steals, then the tile offers and the wild
markers, and the rewards, in the order of the ruling ``tile_timing``). Every
decision a seat faces is an event, so a trace that skips one fails too.

What it does not check: how a strategy chose (players' memory and values are
theirs, not the rules'), and data overrides (``analyzer replay`` has none).
"""

from __future__ import annotations

import copy
import json
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

#: the trace checker replays seeded games and checks them event by event: every test (make test
#: runs them; make test-fast not)
pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parents[2] / "analyzer" / "colorful_treasure" / "data"
SCALE = 60  #: scores compared in 60ths of a point (a shared reward splits evenly)
MAX_REVEALS = 4  #: cards face up in a turn at most (the fourth card tile's room)
DEFAULT_RULINGS = {
    "variant": "standard",
    "scoring": "basic",
    "take": "always",
    "tied_game": "share",
    "stolen_cards": "count",
    "last_cards": "reveal",
    "tiles": "none",
    "tile_timing": "before_rewards",
    "tile_offers": "per_colour",
    "steal_pairs": "markers",
}


class TraceError(AssertionError):
    """The trace breaks the rules (or disagrees with itself) at the named event."""


def read_data() -> dict:
    return {
        name: tomllib.loads((DATA / f"{name}.toml").read_text("utf-8"))
        for name in ("wonders", "scoring", "rewards", "components", "tiles", "seat_compensation")
    }


class Twin:
    """The rules for one game: cards, values and rulings, from the data files."""

    def __init__(self, rulings: dict, players: int, data: dict | None = None):
        data = data or read_data()
        self.r = {**DEFAULT_RULINGS, **rulings}
        self.n = players
        self.young = self.r["variant"] == "young"
        won = data["wonders"]
        self.colours = list(won["colours"])
        self.wonders = [w["id"] for w in won["wonder"]]
        self.rows = 4 if self.young else 5
        # cards in the order of the data: each wonder's three gems, its diamond, its
        # key or chest (the young-player variant has none)
        self.cards: list[str] = []
        self.kind: list[str] = []  #: gem colour, "diamond", "key" or "chest"
        self.wonder_of: list[int] = []
        for w, wd in enumerate(won["wonder"]):
            whats = list(wd["colours"]) + ["diamond"] + ([] if self.young else [wd["treasure"]])
            for what in whats:
                self.cards.append(f"{wd['id']}/{what}")
                self.kind.append(what)
                self.wonder_of.append(w)
        self.card_id = {c: i for i, c in enumerate(self.cards)}
        self.places = [f"{w}/{r}" for w in self.wonders for r in range(self.rows)]
        self.place_id = {p: i for i, p in enumerate(self.places)}
        sc = data["scoring"][self.r["scoring"]]
        self.gem_points = list(sc["gems"])
        self.diamond_card = sc["diamond_card"]
        self.plastic_diamond = sc["plastic_diamond"]
        rew = data["rewards"]
        self.rewards = not self.young
        g = rew["gem"]["by_players"][str(players)]
        self.gem_goal, self.gem_reward = g["colours"], g["points"]
        self.explorer_goal = rew["explorer"]["wonders"]
        self.explorer_points = rew["explorer"]["points"]
        self.treasure_points = rew["treasure"]["points"]
        self.treasure_min = rew["treasure"]["min_cards"]
        # the seats' head starts (a balancing knob, 0 as printed), counted by hand
        sc = data["seat_compensation"]
        self.head_start = [  # in 60ths of a point, as every score
            round(
                SCALE
                * (
                    (players - 1 - q) * sc["points_per_earlier_seat"]
                    + (sc["points_first_seat"] if q == 0 else 0)
                    + (sc["points_by_seat"][q] if q < len(sc["points_by_seat"]) else 0)
                )
            )
            for q in range(players)
        ]
        comp = data["components"]
        self.first_reveals = comp["first_reveals"]
        self.extra_reveals = 0 if self.young else comp["extra_reveals"]
        self.end_cards = 0 if self.young else comp["end_cards"]
        self.finish_round = not self.young
        self.max_turns = comp["max_turns"]
        # the action tiles in play: the side the ruling names, the other where unknown
        self.tiles: list[dict] = []
        if self.r["tiles"] != "none":
            face = self.r["tiles"]
            other = "b" if face == "a" else "a"
            for tid, tile in data["tiles"]["tile"].items():
                side = tile[face] if tile[face] != "unknown" else tile[other]
                sd = data["tiles"]["side"][side]
                self.tiles.append(
                    {
                        "tile": tid,
                        "side": side,
                        "effect": sd["effect"],
                        "use": sd["use"],
                        "points": sd["points"],
                        "amount": sd["amount"],
                    }
                )

    def is_treasure(self, card: int) -> bool:
        return self.kind[card] in ("key", "chest")

    def points_of_gems(self, count: int) -> int:
        return self.gem_points[min(count, len(self.gem_points) - 1)]


class Checker:
    """Plays one trace again (:meth:`run`); raises :class:`TraceError` at the first fault."""

    def __init__(self, trace: dict, data: dict | None = None):
        if trace.get("game") != "colorful_treasure":
            raise TraceError(f"not a Colorful Treasure trace: game {trace.get('game')!r}")
        # the only overrides it applies itself: the seat-compensation knobs
        data = data or read_data()
        knobs = {}
        for path, value in trace.get("overrides", {}).items():
            file, _, key = path.partition(".")
            if file != "seat_compensation" or key not in data["seat_compensation"]:
                raise TraceError("data overrides are not supported by this checker")
            knobs[key] = value
        data = {**data, "seat_compensation": {**data["seat_compensation"], **knobs}}
        self.trace = trace
        self.n = int(trace["players"])
        self.tw = Twin(trace["rulings"], self.n, data)
        self.events = trace["events"]
        self.i = 0
        tw = self.tw
        self.in_grid = set(range(len(tw.places)))  #: places that hold a card
        self.at: dict[int, int] = {}  #: place -> card, once seen
        self.where: dict[int, int] = {}  #: card -> place, once seen
        self.up: list[int] = []  #: places face up now, in the order revealed
        self.owner: dict[int, int] = {}  #: card -> seat holding it
        self.board_plastic = set(range(len(tw.wonders)))
        self.plastic = [0] * self.n
        self.key_markers = [0] * self.n
        self.chest_markers = [0] * self.n
        self.spent: set[int] = set()  #: key and chest cards spent in a pair (ruling cards)
        self.stolen: set[int] = set()  #: cards ever taken by a steal
        self.gem_owner: int | None = None
        self.explorer_owner: int | None = None
        self.tile_owner = [-1] * len(tw.tiles)  #: -1 beside the rewards, -2 used (x1)
        self.tile_turn = [-1] * len(tw.tiles)  #: turn a permanent tile was last used
        self.tclaim = [set() for _ in range(self.n)]  #: colours whose offer was made
        self.turn = 0
        self.seat = 0

    # ------------------------------------------------------------------ the cursor

    def fail(self, why: str):
        at = self.events[self.i] if self.i < len(self.events) else "the end of the events"
        raise TraceError(f"event {self.i} ({at}): {why}")

    def peek(self) -> dict | None:
        return self.events[self.i] if self.i < len(self.events) else None

    def is_next(self, kind: str, type_: str) -> bool:
        ev = self.peek()
        return ev is not None and ev.get("kind") == kind and ev.get("type") == type_

    def expect(self, kind: str, type_: str, seat: int | None = None) -> dict:
        ev = self.peek()
        if ev is None:
            self.fail(f"expected a {kind} {type_!r}, the trace ends")
        if ev.get("kind") != kind or ev.get("type") != type_:
            self.fail(f"expected a {kind} {type_!r}")
        want_seat = self.seat if seat is None else seat
        if ev.get("turn") != self.turn or ev.get("seat") != want_seat:
            self.fail(f"expected turn {self.turn}, seat {want_seat}")
        if kind == "choice" and "options" not in ev:
            self.fail(f"a {type_!r} choice without the options it was made among")
        self.i += 1
        return ev

    def same(self, got, want, what: str):
        if got != want:
            self.i -= 1  # name the event just read
            self.fail(f"{what}: the trace says {got!r}, the rules give {want!r}")

    # ------------------------------------------------------------------ state

    def cards_of(self, seat: int) -> list[int]:
        return sorted(c for c, q in self.owner.items() if q == seat)

    def gems(self, seat: int, colour: str) -> int:
        return sum(1 for c in self.cards_of(seat) if self.tw.kind[c] == colour)

    def counted(self, seat: int) -> tuple[int, int, int]:
        """Colours, wonders and key and chest cards of ``seat`` that count for the
        rewards (ruling stolen_cards = ignore: never a card ever stolen)."""
        tw = self.tw
        cards = [
            c
            for c in self.cards_of(seat)
            if not (tw.r["stolen_cards"] == "ignore" and c in self.stolen)
        ]
        colours = {tw.kind[c] for c in cards if tw.kind[c] in tw.colours}
        wonders = {tw.wonder_of[c] for c in cards}
        treasure = sum(1 for c in cards if tw.is_treasure(c))
        return len(colours), len(wonders), treasure

    def face_down(self) -> list[int]:
        return sorted(self.in_grid - set(self.up))

    def holds(self, seat: int, effect: str) -> int:
        return sum(
            1
            for i, t in enumerate(self.tw.tiles)
            if self.tile_owner[i] == seat and t["effect"] == effect
        )

    def usable(self, seat: int, effect: str) -> int:
        """The first tile of ``effect`` the seat may use now, or -1."""
        for i, t in enumerate(self.tw.tiles):
            if self.tile_owner[i] == seat and t["effect"] == effect:
                if t["use"] == "once" or self.tile_turn[i] != self.turn:
                    return i
        return -1

    def use(self, i: int):
        if self.tw.tiles[i]["use"] == "once":
            self.tile_owner[i] = -2
        else:
            self.tile_turn[i] = self.turn

    def unspent(self, seat: int, kind: str) -> list[int]:
        return [c for c in self.cards_of(seat) if self.tw.kind[c] == kind and c not in self.spent]

    def markers(self, seat: int) -> tuple[int, int]:
        """Key and chest markers of ``seat`` that may pair (ruling steal_pairs = cards:
        its unspent key and chest cards)."""
        if self.tw.r["steal_pairs"] == "cards":
            return len(self.unspent(seat, "key")), len(self.unspent(seat, "chest"))
        return self.key_markers[seat], self.chest_markers[seat]

    def pair_ready(self, seat: int) -> bool:
        k, c = self.markers(seat)
        return k > 0 and c > 0

    # ------------------------------------------------------------------ chance

    def card_event(self, place: int, seen_by):
        ev = self.expect("chance", "card")
        tw = self.tw
        self.same(ev["place"], tw.places[place], "the place of the card seen")
        self.same(ev["seen_by"], seen_by, "who sees the card")
        card = tw.card_id.get(ev["card"])
        if card is None:
            self.fail(f"no such card {ev['card']!r}")
        if tw.wonder_of[card] != place // tw.rows:
            self.fail("the card is not of the wonder on the back of this place")
        if place in self.at:
            if self.at[place] != card:
                self.fail(f"this place showed {tw.cards[self.at[place]]} before")
        elif card in self.where:
            self.fail(f"that card was seen before at {tw.places[self.where[card]]}")
        self.at[place] = card
        self.where[card] = place
        return card

    # ------------------------------------------------------------------ a turn

    def reveal(self):
        ev = self.expect("choice", "reveal")
        tw = self.tw
        options = [tw.places[p] for p in self.face_down()]
        self.same(ev["options"], options, "the places it could reveal")
        place = tw.place_id.get(ev["place"], -1)
        if place not in self.in_grid or place in self.up:
            self.fail("reveals a place that holds no face-down card")
        self.same(ev["number"], len(self.up) + 1, "the card's number in the turn")
        self.card_event(place, "all")
        self.up.append(place)

    def peeks(self, i: int):
        """The places a used peek tile looks at (at most its ``amount``)."""
        tw = self.tw
        tile = tw.tiles[i]
        done_wonders: set[int] = set()
        seen: list[int] = []
        while self.is_next("choice", "peek"):
            if len(seen) == tile["amount"]:
                self.fail("more peeks than the tile allows")
            fd = self.face_down()
            if tile["effect"] == "peek_two":  # one card of each of different wonders
                opts = [p for p in fd if p // tw.rows not in done_wonders]
            elif seen:  # peek three: more cards of the same wonder
                w = seen[0] // tw.rows
                opts = [p for p in fd if p // tw.rows == w and p not in seen]
            else:
                opts = fd
            ev = self.expect("choice", "peek")
            self.same(ev["options"], [tw.places[p] for p in opts], "the places it could peek")
            place = tw.place_id.get(ev["place"], -1)
            if place not in opts:
                self.fail("peeks at a place the tile does not allow")
            self.card_event(place, self.seat)
            done_wonders.add(place // tw.rows)
            seen.append(place)

    def tile_choice(self, i: int) -> bool:
        """The seat's choice to use tile ``i`` now or not (an event either way)."""
        ev = self.expect("choice", "use_tile")
        self.same(ev["tile"], self.tw.tiles[i]["tile"], "the tile it may use")
        self.same(ev["effect"], self.tw.tiles[i]["effect"], "the tile's effect")
        self.same(ev["options"], [True, False], "use the tile now or not")
        if ev["used"]:
            self.use(i)
        return bool(ev["used"])

    def take(self, card: int):
        tw = self.tw
        ev = self.expect("effect", "take")
        self.same(ev["card"], tw.cards[card], "the card taken")
        self.in_grid.discard(self.where[card])
        self.owner[card] = self.seat
        w = tw.wonder_of[card]
        if tw.kind[card] == "diamond" and w in self.board_plastic:
            ev = self.expect("effect", "plastic")
            self.same(ev["wonder"], tw.wonders[w], "the plastic diamond taken")
            self.board_plastic.discard(w)
            self.plastic[self.seat] += 1
        elif tw.kind[card] == "key":
            self.key_markers[self.seat] += 1
        elif tw.kind[card] == "chest":
            self.chest_markers[self.seat] += 1

    def take_kind(self, how: str, allow_nothing: bool) -> str | None:
        ev = self.expect("choice", "take_kind")
        options = self.up_kinds_plain()  # (a first kind taken has left the grid)
        self.same(ev["as"], how, "what the take is")
        self.same(ev["options"], options, "the kinds it could take")
        what = ev["what"]
        if what is None:
            if not allow_nothing:
                self.fail("takes nothing (ruling take = always)")
            return None
        if what not in options:
            self.fail(f"takes {what}, not a kind face up it may take")
        for p in list(self.up):
            c = self.at[p]
            if p in self.in_grid and self.tw.kind[c] == what:
                self.take(c)
        return what

    def up_kinds_plain(self) -> list[str]:
        """The gem and diamond kinds face up (a take's options), colours first."""
        tw = self.tw
        kinds = {tw.kind[self.at[p]] for p in self.up if p in self.in_grid}
        return [k for k in tw.colours + ["diamond"] if k in kinds]

    def steal(self):
        """The steal a pair (or a wild marker) brings."""
        tw = self.tw
        seat = self.seat
        if tw.tiles and self.holds(seat, "truce"):
            ev = self.expect("effect", "no_steal")
            self.same(ev["why"], "truce", "why nothing is stolen")
            return
        cards: list[int] = []
        plastic: list[int] = []
        for v in range(self.n):
            if v == seat or self.holds(v, "truce"):
                continue
            if self.plastic[v] > 0:
                plastic.append(v)
            if not self.holds(v, "guarded"):
                cards += self.cards_of(v)
        if not cards and not plastic:
            ev = self.expect("effect", "no_steal")
            self.same(ev["why"], "nothing to take", "why nothing is stolen")
            return
        ev = self.expect("choice", "steal")
        opts = {"cards": [tw.cards[c] for c in sorted(cards)], "plastic": plastic}
        self.same(ev["options"], opts, "what it could steal")
        v = ev["victim"]
        if ev["item"] == "plastic":
            if v not in plastic:
                self.fail(f"steals a plastic diamond seat {v} may not lose")
            self.plastic[v] -= 1
            self.plastic[seat] += 1
            return
        c = tw.card_id.get(ev["item"], -1)
        if c not in cards or self.owner.get(c) != v:
            self.fail(f"steals {ev['item']}, not a card seat {v} holds and may lose")
        self.owner[c] = seat
        self.stolen.add(c)
        if tw.tiles and tw.kind[c] in tw.colours and self.gems(v, tw.kind[c]) < 3:
            self.tclaim[v].discard(tw.kind[c])  # below 3 by theft: another offer later

    def pair(self):
        ev = self.expect("effect", "pair")
        seat = self.seat
        if self.tw.r["steal_pairs"] == "cards":  # the lowest unspent card of each kind
            key, chest = self.unspent(seat, "key")[0], self.unspent(seat, "chest")[0]
            self.same(ev["spent"], [self.tw.cards[key], self.tw.cards[chest]], "cards spent")
            self.spent |= {key, chest}
        else:
            self.same(ev["spent"], [], "cards spent")
            self.key_markers[seat] -= 1
            self.chest_markers[seat] -= 1
        self.steal()

    def offers(self, offered: bool) -> bool:
        """The tile offers due now (one per colour reaching 3; ruling tile_offers)."""
        tw = self.tw
        seat = self.seat
        for colour in tw.colours:
            if self.gems(seat, colour) < 3:
                self.tclaim[seat].discard(colour)
                continue
            if colour in self.tclaim[seat]:
                continue
            self.tclaim[seat].add(colour)
            if offered and tw.r["tile_offers"] == "per_turn":
                continue
            offered = True
            left = [i for i in range(len(tw.tiles)) if self.tile_owner[i] == -1]
            if not left:
                continue
            ev = self.expect("choice", "take_tile")
            self.same(ev["colour"], colour, "the colour of the offer")
            self.same(ev["options"], [tw.tiles[i]["tile"] for i in left], "the tiles left")
            if ev["tile"] is not None:
                i = next((i for i in left if tw.tiles[i]["tile"] == ev["tile"]), -1)
                if i < 0:
                    self.fail(f"takes tile {ev['tile']!r}, not one left")
                self.tile_owner[i] = seat
        return offered

    def tiles_step(self):
        tw = self.tw
        seat = self.seat
        offered = self.offers(False)
        while True:
            i = self.usable(seat, "wild_marker")
            if i < 0:
                break
            k, c = self.markers(seat)
            if k + c == 0:
                break
            if not self.tile_choice(i):
                break
            marker = "key" if k > 0 else "chest"
            ev = self.expect("effect", "wild_pair")
            self.same(ev["marker"], marker, "the marker the wild one pairs with")
            if tw.r["steal_pairs"] == "cards":
                card = self.unspent(seat, marker)[0]
                self.same(ev["spent"], tw.cards[card], "the card spent")
                self.spent.add(card)
            else:
                self.same(ev["spent"], None, "the card spent")
                if marker == "key":
                    self.key_markers[seat] -= 1
                else:
                    self.chest_markers[seat] -= 1
            self.steal()
            while self.pair_ready(seat):
                self.pair()
            offered = self.offers(offered)

    def rewards(self):
        tw = self.tw
        if not tw.rewards:
            return
        colours, wonders, _ = self.counted(self.seat)
        colours += self.holds(self.seat, "sixth_colour")
        if self.gem_owner is None and colours >= tw.gem_goal:
            ev = self.expect("effect", "reward")
            self.same((ev["reward"], ev["points"]), ("gem", tw.gem_reward), "the reward")
            self.gem_owner = self.seat
        if self.explorer_owner is None and wonders >= tw.explorer_goal:
            ev = self.expect("effect", "reward")
            self.same((ev["reward"], ev["points"]), ("explorer", tw.explorer_points), "the reward")
            self.explorer_owner = self.seat

    def play_turn(self):
        tw = self.tw
        seat = self.seat
        if tw.tiles:  # the peeks at the start of the turn
            for i, tile in enumerate(tw.tiles):
                if tile["effect"] in ("peek_two", "peek_three"):
                    if self.usable(seat, tile["effect"]) == i and self.tile_choice(i):
                        self.peeks(i)
        for _ in range(min(tw.first_reveals, len(self.face_down()))):
            self.reveal()
        extra = 0
        for _ in range(tw.extra_reveals):
            if self.is_next("choice", "stop"):
                ev = self.expect("choice", "stop")
                self.same(ev["face_up"], len(self.up), "cards face up")
                self.same(ev["options"], [tw.places[p] for p in self.face_down()], "options")
                break
            self.reveal()
            extra += 1
        if tw.tiles and extra == tw.extra_reveals and len(self.up) < MAX_REVEALS:
            i = self.usable(seat, "fourth_card")
            if i >= 0 and self.tile_choice(i):
                self.reveal()
        if any(tw.is_treasure(self.at[p]) for p in self.up):
            i = self.usable(seat, "ignore_treasure") if tw.tiles else -1
            if i >= 0 and self.tile_choice(i):
                if not self.up_kinds_plain():
                    self.fail("ignores the keys and chests with no other kind face up")
                self.take_kind("instead_of_treasure", False)
            else:
                for p in list(self.up):
                    if tw.is_treasure(self.at[p]):
                        self.take(self.at[p])
        else:
            what = self.take_kind("take", tw.r["take"] == "optional")
            i = self.usable(seat, "two_kinds") if tw.tiles and what is not None else -1
            if i >= 0 and self.tile_choice(i):
                self.take_kind("second_kind", False)
        for p in self.up:  # the rest goes back face down in place
            if p in self.in_grid:
                ev = self.expect("effect", "turn_back")
                self.same((ev["place"], ev["card"]), (tw.places[p], tw.cards[self.at[p]]), "back")
        self.up = []
        while self.pair_ready(seat):
            self.pair()
        if tw.tiles and tw.r["tile_timing"] == "after_rewards":
            self.rewards()
            self.tiles_step()
        elif tw.tiles:
            self.tiles_step()
            self.rewards()
        else:
            self.rewards()

    # ------------------------------------------------------------------ the game

    def check_setup(self):
        tw = self.tw
        st = self.trace["setup"]
        self.same_setup(st["colours"], tw.colours, "colours")
        self.same_setup([w["id"] for w in st["wonders"]], tw.wonders, "wonders")
        self.same_setup(st["rows"], tw.rows, "rows")
        self.same_setup(st["cards"], tw.cards, "cards")
        self.same_setup(st["first_player"], 0, "first player")
        self.same_setup(st["scoring"]["gems"], tw.gem_points, "gem points")
        self.same_setup(
            (st["scoring"]["diamond_card"], st["scoring"]["plastic_diamond"]),
            (tw.diamond_card, tw.plastic_diamond),
            "diamond points",
        )
        self.same_setup(
            (st["first_reveals"], st["extra_reveals"], st["end_cards"]),
            (tw.first_reveals, tw.extra_reveals, tw.end_cards),
            "reveals and end",
        )
        rewards = None
        if tw.rewards:
            rewards = {
                "gem": {"colours": tw.gem_goal, "points": tw.gem_reward},
                "explorer": {"wonders": tw.explorer_goal, "points": tw.explorer_points},
                "treasure": {"points": tw.treasure_points, "min_cards": tw.treasure_min},
            }
        self.same_setup(st["rewards"], rewards, "rewards")
        self.same_setup(
            [
                {k: t[k] for k in ("tile", "side", "effect", "use", "points", "amount")}
                for t in st["tiles"]
            ],
            tw.tiles,
            "tiles",
        )

    def same_setup(self, got, want, what):
        if got != want:
            raise TraceError(f"setup: {what}: the trace says {got!r}, the data give {want!r}")

    def run(self) -> dict:
        """Check the whole trace; return the checker's own final scores (60ths)."""
        tw = self.tw
        self.check_setup()
        while True:
            self.play_turn()
            self.turn += 1
            left = len(self.in_grid)
            if left == 0:
                break
            if left <= tw.end_cards and (not tw.finish_round or self.seat == self.n - 1):
                break
            if tw.r["last_cards"] == "end" and left < tw.first_reveals:
                break
            if self.turn >= tw.max_turns:
                raise TraceError(f"the game does not end within {tw.max_turns} turns")
            self.seat = (self.seat + 1) % self.n
        scores = self.final_scores()
        if self.i != len(self.events):
            self.fail("the game is over: no event may follow")
        return scores

    def final_scores(self) -> dict:
        tw = self.tw
        n = self.n
        counted = [self.counted(q)[2] for q in range(n)]
        best = max(counted)
        tied = sum(1 for x in counted if x == best) if tw.rewards and best >= tw.treasure_min else 0
        parts = []
        for q in range(n):
            cards = self.cards_of(q)
            p = {
                "gems": sum(
                    tw.points_of_gems(sum(1 for c in cards if tw.kind[c] == g)) for g in tw.colours
                )
                * SCALE,
                "diamond_cards": sum(1 for c in cards if tw.kind[c] == "diamond")
                * tw.diamond_card
                * SCALE,
                "plastic": self.plastic[q] * tw.plastic_diamond * SCALE,
                "gem_reward": tw.gem_reward * SCALE if self.gem_owner == q else 0,
                "explorer": tw.explorer_points * SCALE if self.explorer_owner == q else 0,
                "treasure": tw.treasure_points * SCALE // tied
                if tied and counted[q] == best
                else 0,
                "tiles": sum(
                    t["points"] * SCALE for i, t in enumerate(tw.tiles) if self.tile_owner[i] == q
                ),
            }
            parts.append(p)
            if tw.rewards:  # the treasure majority, as the trace scores it
                ev = self.expect("effect", "treasure", seat=q)
                self.same(
                    (ev["cards"], ev["points_60ths"]), (counted[q], p["treasure"]), "treasure"
                )
        # the score: the parts and the seat's head start (no part of its own)
        scores = [sum(p.values()) + tw.head_start[q] for q, p in enumerate(parts)]
        top = max(scores)
        n_top = scores.count(top)
        wins = [
            Fraction(0)
            if s != top
            else Fraction(1, n_top)
            if n_top == 1 or tw.r["tied_game"] == "share"
            else Fraction(0)
            for s in scores
        ]
        final = self.trace["final"]
        if final["turns"] != self.turn:
            raise TraceError(f"final: turns {final['turns']}, the game had {self.turn}")
        if final["cards_left"] != len(self.in_grid):
            raise TraceError(f"final: cards_left {final['cards_left']}, {len(self.in_grid)} left")
        for q, row in enumerate(final["seats"]):
            if row["score_60ths"] != scores[q] or round(row["score"] * SCALE) != scores[q]:
                raise TraceError(
                    f"final: seat {q} scores {row['score']}, "
                    f"the rules give {Fraction(scores[q], SCALE)}"
                )
            for name, v in parts[q].items():
                if round(row["parts"][name] * SCALE) != v:
                    raise TraceError(
                        f"final: seat {q} part {name} {row['parts'][name]}, "
                        f"the rules give {Fraction(v, SCALE)}"
                    )
            if abs(row["win"] - float(wins[q])) > 1e-6:
                raise TraceError(f"final: seat {q} win {row['win']}, the rules give {wins[q]}")
        winners = [q for q in range(n) if wins[q] > 0]
        if final["winners"] != winners:
            raise TraceError(f"final: winners {final['winners']}, the rules give {winners}")
        return {"scores": scores, "parts": parts, "wins": wins}


def check_trace(trace: dict, data: dict | None = None) -> dict:
    """Check one parsed trace (:class:`Checker`); returns the checker's own scores."""
    return Checker(trace, data).run()


# ====================================================================== the tests
# Below: the traces come from ``analyzer replay --json`` (the command's library
# function); the checker above never imports analyzer.

#: each ruling switched from its default, one at a time (the tile rulings with
#: tiles "b", the side that has the sixth colour and the wild marker they touch)
ONE_AT_A_TIME = (
    {},
    {"variant": "young"},
    {"scoring": "advanced"},
    {"take": "optional"},
    {"tied_game": "no_winner"},
    {"stolen_cards": "ignore"},
    {"last_cards": "end"},
    {"steal_pairs": "cards"},
    {"tiles": "a"},
    {"tiles": "b"},
    {"tiles": "b", "tile_timing": "after_rewards"},
    {"tiles": "b", "tile_offers": "per_turn"},
)
#: line-ups played under each: (players, strategies)
LINE_UPS = (
    (2, "random"),
    (3, "greedy,random,hunter"),
    (4, "random,greedy,perfect,hunter"),
    (4, "random"),
    (2, "hunter,baseline"),
)


def make_trace(players: int, strategies: str, seed: int, index: int, rulings: dict) -> dict:
    """Game ``index`` of seed ``seed`` as ``analyzer replay --json`` prints it, parsed."""
    from tests.replays import trace_of

    return trace_of("colorful_treasure", players, strategies, seed, index, rulings)


@pytest.fixture(scope="module")
def data():
    return read_data()


@pytest.mark.parametrize(
    "rulings", ONE_AT_A_TIME, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default"
)
def test_every_trace_checks(rulings, data):
    """25 games for each ruling switched alone (300 games in all), five line-ups."""
    checked = 0
    for k in range(25):
        players, strategies = LINE_UPS[k % len(LINE_UPS)]
        trace = make_trace(players, strategies, 20261127 + k, k, rulings)
        check_trace(trace, data)
        checked += 1
    assert checked == 25


@pytest.fixture(scope="module")
def traces():
    """Traces that hold the events the planted bugs below change: steals, rewards,
    a treasure majority, tiles."""
    return {
        "plain": make_trace(4, "random", 7, 0, {}),
        "tiles": make_trace(4, "random", 7, 0, {"tiles": "b"}),
    }


def _find(trace, pred, nth=0):
    hits = [i for i, ev in enumerate(trace["events"]) if pred(ev)]
    assert len(hits) > nth, "the trace has no such event to plant a bug in"
    return hits[nth]


def _fails(trace, data, match):
    with pytest.raises(TraceError, match=match):
        check_trace(trace, data)


def test_the_untouched_traces_check(traces, data):
    for tr in traces.values():
        check_trace(tr, data)


def test_a_wrong_card_revealed_is_caught(traces, data):
    tr = copy.deepcopy(traces["plain"])
    i = _find(tr, lambda e: e["type"] == "card")
    place = tr["events"][i]["place"]
    wonder = place.split("/")[0]
    # another wonder's card: impossible at this place
    other = next(c for c in tr["setup"]["cards"] if not c.startswith(wonder + "/"))
    tr["events"][i]["card"] = other
    _fails(tr, data, "not of the wonder")


def test_a_card_seen_elsewhere_revealed_again_is_caught(traces, data):
    tr = copy.deepcopy(traces["plain"])
    ev = tr["events"]
    # a card seen at one place, then claimed by a later first reveal of another place
    # of the same wonder
    seen: dict[str, str] = {}
    for e in ev:
        if e["type"] != "card":
            continue
        w = e["place"].split("/")[0]
        first = next(
            (c for p, c in seen.items() if p.startswith(w + "/") and p != e["place"]), None
        )
        if e["place"] not in seen and first is not None:
            e["card"] = first
            break
        seen.setdefault(e["place"], e["card"])
    else:
        pytest.fail("no reveal to plant the bug in")
    _fails(tr, data, "seen before")


def test_an_illegal_steal_is_caught(traces, data):
    tr = copy.deepcopy(traces["plain"])
    i = _find(tr, lambda e: e["type"] == "steal")
    e = tr["events"][i]
    e["victim"] = e["seat"]  # from itself: nothing of its own may be stolen
    _fails(tr, data, "steals")
    tr = copy.deepcopy(traces["plain"])
    e = tr["events"][i]
    e["item"] = next(c for c in tr["setup"]["cards"] if c not in e["options"]["cards"])
    _fails(tr, data, "steals")


def test_a_steal_with_no_pair_is_caught(traces, data):
    tr = copy.deepcopy(traces["plain"])
    i = _find(tr, lambda e: e["type"] == "pair")
    del tr["events"][i]  # a steal without the pair that brings it
    _fails(tr, data, "expected a effect 'pair'")


def test_a_wrong_score_is_caught(traces, data):
    tr = copy.deepcopy(traces["plain"])
    tr["final"]["seats"][1]["score"] += 1
    tr["final"]["seats"][1]["score_60ths"] += 60
    _fails(tr, data, "seat 1 scores")
    tr = copy.deepcopy(traces["plain"])
    tr["final"]["seats"][0]["win"] = 1.0 - tr["final"]["seats"][0]["win"]
    _fails(tr, data, "seat 0 win")


def test_a_reward_given_wrongly_is_caught(traces, data):
    tr = copy.deepcopy(traces["plain"])
    i = _find(tr, lambda e: e["type"] == "reward")
    moved = tr["events"].pop(i)  # the reward a turn late: not given when due
    j = _find(tr, lambda e: e["turn"] == moved["turn"] + 1 and e["kind"] == "effect")
    tr["events"].insert(
        j + 1, {**moved, "turn": moved["turn"] + 1, "seat": tr["events"][j]["seat"]}
    )
    _fails(tr, data, "reward")
    tr = copy.deepcopy(traces["plain"])
    i = _find(tr, lambda e: e["type"] == "reward")
    tr["events"][i]["points"] += 1
    _fails(tr, data, "the reward")


def test_a_wrong_treasure_majority_is_caught(traces, data):
    tr = copy.deepcopy(traces["plain"])
    i = _find(tr, lambda e: e["type"] == "treasure")
    tr["events"][i]["cards"] += 1
    _fails(tr, data, "treasure")


def test_a_wrong_take_is_caught(traces, data):
    tr = copy.deepcopy(traces["plain"])
    i = _find(tr, lambda e: e["type"] == "take_kind" and e["what"] is not None)
    e = tr["events"][i]
    e["what"] = next(k for k in tr["setup"]["colours"] + ["diamond"] if k not in e["options"])
    _fails(tr, data, "not a kind face up")
    tr = copy.deepcopy(traces["plain"])
    i = _find(tr, lambda e: e["type"] == "take_kind" and e["what"] is not None)
    tr["events"][i]["what"] = None  # nothing, under take = always
    _fails(tr, data, "takes nothing")


def test_a_tile_not_left_is_caught(traces, data):
    tr = copy.deepcopy(traces["tiles"])
    i = _find(tr, lambda e: e["type"] == "take_tile" and e["tile"] is not None, nth=1)
    first = tr["events"][_find(tr, lambda e: e["type"] == "take_tile" and e["tile"] is not None)]
    tr["events"][i]["tile"] = first["tile"]  # a tile another seat already holds
    _fails(tr, data, "not one left")


def test_a_missing_choice_is_caught(traces, data):
    tr = copy.deepcopy(traces["plain"])
    i = _find(tr, lambda e: e["type"] == "stop")
    del tr["events"][i]  # the seat's decision to stop is not recorded
    _fails(tr, data, "expected")


def test_the_replay_command_prints_a_trace_that_checks(capsys, data):
    from analyzer.cli import run_cli

    args = ["replay", "--game", "colorful_treasure", "--players", "3", "--seed", "5"]
    args += ["--index", "2", "--rule", "tiles=b", "--rule", "steal_pairs=cards", "--json"]
    assert run_cli(args) == 0
    trace = json.loads(capsys.readouterr().out)
    assert trace["rulings"]["tiles"] == "b" and trace["rulings"]["steal_pairs"] == "cards"
    assert {e["kind"] for e in trace["events"]} == {"chance", "choice", "effect"}
    mine = check_trace(trace, data)
    assert [s["score_60ths"] for s in trace["final"]["seats"]] == mine["scores"]


def test_the_checker_imports_nothing_of_analyzer():
    """The checker (this file above the tests) is a twin, not a call into the engine."""
    text = Path(__file__).read_text("utf-8")
    checker = text.split("# " + "=" * 70 + " the tests")[0]
    assert "class Checker" in checker
    assert "import analyzer" not in checker and "from analyzer" not in checker


#: (rulings played, the reading checked instead, line-up, games to search): a trace
#: played under one reading of a ruling fails under the other, so the checker
#: really follows each ruling (last_cards matters only where the grid can run
#: short of a turn's reveals: the young-player variant). A line-up is an index
#: of LINE_UPS or (players, strategies): two colours reaching 3 cards in one turn
#: (where tile_offers matters) is rare; four greedy seats (strategies version 2)
#: have one in the first games
FLIPS = (
    ({"stolen_cards": "ignore"}, {"stolen_cards": "count"}, 0, 10),
    ({"steal_pairs": "cards"}, {"steal_pairs": "markers"}, 0, 10),
    ({"take": "optional"}, {"take": "always"}, 0, 10),
    ({"tied_game": "share"}, {"tied_game": "no_winner"}, 3, 40),
    ({"tied_game": "no_winner"}, {"tied_game": "share"}, 3, 40),
    ({"scoring": "advanced"}, {"scoring": "basic"}, 0, 10),
    ({"variant": "young", "last_cards": "end"}, {"last_cards": "reveal"}, 0, 10),
    ({"tiles": "b"}, {"tile_timing": "after_rewards"}, 1, 20),
    ({"tiles": "b", "tile_timing": "after_rewards"}, {"tile_timing": "before_rewards"}, 1, 20),
    ({"tiles": "b"}, {"tile_offers": "per_turn"}, (4, "greedy"), 20),
    ({"tiles": "b", "tile_offers": "per_turn"}, {"tile_offers": "per_colour"}, (4, "greedy"), 20),
)


@pytest.mark.parametrize(
    "played,checked_as,line_up,games",
    FLIPS,
    ids=[",".join(f"{k}={v}" for k, v in f[1].items()) + "-" + str(i) for i, f in enumerate(FLIPS)],
)
def test_a_trace_checked_under_the_other_reading_fails(played, checked_as, line_up, games, data):
    players, strategies = LINE_UPS[line_up] if isinstance(line_up, int) else line_up
    for g in range(games):
        trace = make_trace(players, strategies, 1, g, played)
        check_trace(trace, data)  # under the reading it was played with: it checks
        other = {**trace, "rulings": {**trace["rulings"], **checked_as}}
        try:
            check_trace(other, data)
        except TraceError:
            return
    pytest.fail(f"no game of {games} differs under {checked_as}")


def test_a_reward_given_to_a_seat_that_has_not_earned_it_is_caught(traces, data):
    tr = copy.deepcopy(traces["plain"])
    i = _find(tr, lambda e: e["type"] == "turn_back")  # the end of the first take
    ev = tr["events"][i]
    bogus = {"kind": "effect", "type": "reward", "turn": ev["turn"], "seat": ev["seat"]}
    tr["events"].insert(i + 1, {**bogus, "reward": "gem", "points": 6})
    _fails(tr, data, "reward")


def test_a_peek_the_tile_does_not_allow_is_caught(data):
    # a game with peeks (tiles a: peek two, peek three)
    for g in range(20):
        tr = make_trace(4, "random", 3, g, {"tiles": "a"})
        peeks = [i for i, e in enumerate(tr["events"]) if e["type"] == "peek"]
        if peeks:
            break
    else:
        pytest.fail("no peek in 20 games")
    check_trace(tr, data)
    e = tr["events"][peeks[0]]
    st = tr["setup"]
    places = [f"{w['id']}/{r}" for w in st["wonders"] for r in range(st["rows"])]
    e["place"] = next(p for p in places if p not in e["options"])  # emptied, or not allowed
    _fails(tr, data, "peeks at a place")


def test_every_choice_lists_its_options(data):
    """A choice without ``options`` is caught: the tile choice (``use_tile``, whose
    options were missing from the trace before) and the others."""
    tr = next(
        t
        for t in (make_trace(4, "random", 7, g, {"tiles": "a"}) for g in range(20))
        if any(e["type"] == "use_tile" for e in t["events"])
    )
    for typ in ("use_tile", "reveal", "take_kind"):
        bad = copy.deepcopy(tr)
        del bad["events"][_find(bad, lambda e, t=typ: e["type"] == t)]["options"]
        _fails(bad, data, "without the options")
    bad = copy.deepcopy(tr)
    bad["events"][_find(bad, lambda e: e["type"] == "use_tile")]["options"] = [True]
    _fails(bad, data, "use the tile now or not")
