"""Exact odds of one turn of Colorful Treasure, from what the seat knows
(``analyzer odds --game colorful_treasure STATE.toml``; ``docs/games/colorful_treasure.md``).

A table state (TOML, :data:`EXAMPLE`) says what a player at the table knows at
the start of its turn: the cards it holds, the rewards already given, and for
each wonder still in the grid how many places hold a card, which cards of the
wonder are gone (taken by anyone: public) and which face-down cards it
remembers. Everything else follows from the rules
(``docs/games/colorful_treasure.md``, "Players and memory"): each face-down
place of a wonder the seat does not remember holds one of that wonder's cards
it does not know, every arrangement equally likely. So the answers are counts,
exact fractions, not samples:

- **each face-down place**: the chance of each card kind (a gem colour,
  diamond, key or chest);
- **each reveal choice** (the places turned first): the expected points the
  turn brings, the seat then revealing one more card when that raises its
  expected points (the best place, chosen after seeing the first ones) and
  taking the kind worth most.

*Points this turn* are the change of the seat's score by the scoring table: gem
cards by colour count, diamond cards and their plastic diamonds, and the "first
to" gem and explorer rewards reached this turn. Key and chest cards are taken
when face up (the rules force it) but count 0 here: the treasure reward is
decided at the end, and what a steal brings depends on the other players.
Action tiles are not modelled. Plain Python (no numba): a one-shot answer
starts at once.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path

from analyzer.colorful_treasure.codes import Kind
from analyzer.colorful_treasure.rules import Rules, load_rules
from analyzer.core.errors import InputError, bad_value
from analyzer.games.table import columns_table, parse_toml, read_state

#: the documented example table state (``examples/table.toml``; ``--example`` prints it)
EXAMPLE = (
    resources.files("analyzer.colorful_treasure")
    .joinpath("examples", "table.toml")
    .read_text("utf-8")
)


# --------------------------------------------------------------------------- the state


@dataclass(frozen=True)
class Column:
    """A wonder still in the grid, as the seat knows it."""

    wonder: int
    remembered: tuple[int, ...]  #: card ids, one per remembered place
    unknown: tuple[int, ...]  #: the cards the other places hold, in some order


@dataclass(frozen=True)
class TurnState:
    players: int
    scoring: str
    mine: tuple[int, ...]
    rewards_given: frozenset[str]
    columns: tuple[Column, ...]


def _card_of(rules: Rules, w: int, name: str, where: str) -> int:
    """The card id of ``name`` (a colour, diamond, key, chest) in wonder ``w``."""
    t = rules.tables
    allowed = []
    for c in range(w * t.rows, (w + 1) * t.rows):
        kind = int(t.card_kind[c])
        label = (
            rules.colours[int(t.card_colour[c])] if kind == Kind.GEM else Kind(kind).name.lower()
        )
        allowed.append(label)
        if label == name:
            return c
    raise bad_value(where, name, f"a card of {rules.wonder_ids[w]}: {', '.join(allowed)}")


#: the command that prints the example state (named by errors in a state's TOML)
HINT = "analyzer odds --game colorful_treasure --example"


def parse_state(text: str, where: str = "state", rules: Rules | None = None) -> TurnState:
    """Read and check a table state (TOML text); :class:`InputError` names the key."""
    return state_from_dict(parse_toml(text, where, HINT), where, rules)


#: the keys of a table state, and of one ``[grid.<wonder>]`` table
TOP_KEYS = ("grid", "mine", "players", "rewards_given", "scoring")
COLUMN_KEYS = ("face_down", "gone", "remembered")


def _list(raw: dict, key: str, where: str, allowed: str) -> list:
    """``raw[key]`` (default: empty) if a list, else :class:`InputError` naming ``where``."""
    value = raw.get(key, [])
    if not isinstance(value, list):
        raise bad_value(where, value, allowed)
    return value


@cache
def shipped_rules() -> Rules:
    """The shipped rules (what a table state is read and answered under), loaded
    once: a table page's every tap reads them twice and searches with their
    tables, which were built again each time. Read only, never changed here."""
    return load_rules()


def state_from_dict(raw: dict, where: str = "state", rules: Rules | None = None) -> TurnState:
    """Check a table state (the dict of its TOML); :class:`InputError` names the key."""
    for key in raw:
        if key not in TOP_KEYS:
            raise bad_value(f"{where}: key", key, ", ".join(TOP_KEYS))
    rules = rules or shipped_rules()
    t = rules.tables
    players = raw.get("players", 2)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise bad_value(f"{where}: players", players, "2, 3 or 4")
    scoring = raw.get("scoring", "basic")
    if scoring not in ("basic", "advanced"):
        raise bad_value(f"{where}: scoring", scoring, "basic, advanced")
    ids = rules.wonder_ids

    def wonder(name, key):
        if name not in ids:
            raise bad_value(key, name, ", ".join(ids))
        return ids.index(name)

    mine = []
    for i, item in enumerate(
        _list(raw, "mine", f"{where}: mine", 'a list of "<wonder id> <card>"')
    ):
        key = f"{where}: mine[{i}]"
        if not isinstance(item, str) or len(item.split()) != 2:
            raise bad_value(key, item, '"<wonder id> <card>", e.g. "pyramids red"')
        w_name, card = item.split()
        mine.append(_card_of(rules, wonder(w_name, key), card, key))
    if len(set(mine)) != len(mine):
        raise bad_value(f"{where}: mine", raw["mine"], "each card once")
    given = raw.get("rewards_given", [])
    if not isinstance(given, list) or any(g not in ("gem", "explorer") for g in given):
        raise bad_value(f"{where}: rewards_given", given, "a list of gem, explorer")
    grid = raw.get("grid", {})
    if not isinstance(grid, dict):
        raise bad_value(f"{where}: grid", grid, "tables [grid.<wonder id>]")
    columns = []
    for w_name, col in grid.items():
        key = f"{where}: grid.{w_name}"
        w = wonder(w_name, f"{where}: grid")
        if not isinstance(col, dict) or set(col) - set(COLUMN_KEYS):
            raise bad_value(key, col, "keys " + ", ".join(COLUMN_KEYS))
        cards = {
            part: [
                _card_of(rules, w, c, f"{key}.{part}[{i}]")
                for i, c in enumerate(_list(col, part, f"{key}.{part}", "a list of cards"))
            ]
            for part in ("gone", "remembered")
        }
        n = col.get("face_down")
        n_left = t.rows - len(set(cards["gone"]))
        if isinstance(n, bool) or not isinstance(n, int) or n != n_left:
            raise bad_value(
                f"{key}.face_down", n, f"{n_left} ({t.rows} cards less the {t.rows - n_left} gone)"
            )
        both = cards["gone"] + cards["remembered"]
        if len(set(both)) != len(both):
            raise bad_value(key, col, "each card once among gone and remembered")
        held = [c for c in mine if c // t.rows == w and c not in cards["gone"]]
        if held:
            raise bad_value(
                f"{key}.gone",
                col.get("gone", []),
                f"every card I hold ({rules.card_name(held[0])})",
            )
        unknown = [
            c
            for c in range(w * t.rows, (w + 1) * t.rows)
            if c not in cards["gone"] and c not in cards["remembered"]
        ]
        if n > 0:
            columns.append(Column(w, tuple(cards["remembered"]), tuple(unknown)))
    if not columns:
        raise InputError(
            f"{where}: grid: no face-down card (allowed: at least one [grid.<wonder>])"
        )
    return TurnState(players, scoring, tuple(sorted(mine)), frozenset(given), tuple(columns))


def load_state(path: str | Path, rules: Rules | None = None) -> TurnState:
    """Read and check a table-state file; :class:`InputError` names the file and key."""
    raw, src = read_state(Path(path), HINT)
    return state_from_dict(raw, src, rules)


# --------------------------------------------------------------------------- points


class Scorer:
    """The seat's points this turn from the cards it takes (module docstring)."""

    def __init__(self, rules: Rules, state: TurnState):
        t = rules.tables
        data = rules.data
        table = data["scoring"][state.scoring]
        self.gems = list(table["gems"])
        self.diamond = int(table["diamond_card"]) + int(table["plastic_diamond"])
        gem = data["rewards"]["gem"]["by_players"][str(state.players)]
        self.gem_colours, self.gem_points = int(gem["colours"]), int(gem["points"])
        ex = data["rewards"]["explorer"]
        self.ex_wonders, self.ex_points = int(ex["wonders"]), int(ex["points"])
        self.given = state.rewards_given
        self.kind = [int(k) for k in t.card_kind]
        self.colour = [int(c) for c in t.card_colour]
        self.rows = t.rows
        self.n_colours = len(rules.colours)
        self.mine = state.mine
        self.base = self._points(state.mine)
        self._gains: dict[tuple, int] = {}
        self._key_of = list(zip(self.kind, self.colour, strict=True))  # a card's group
        self._is_treasure = [k == Kind.KEY or k == Kind.CHEST for k in self.kind]
        self._ones: list[int] | None = None

    def _points(self, cards) -> int:
        counts = [0] * self.n_colours
        pts = 0
        for c in cards:
            if self.kind[c] == Kind.GEM:
                counts[self.colour[c]] += 1
            elif self.kind[c] == Kind.DIAMOND:
                pts += self.diamond
        for k in counts:
            pts += self.gems[min(k, len(self.gems) - 1)]
        if "gem" not in self.given and sum(k > 0 for k in counts) >= self.gem_colours:
            pts += self.gem_points
        if "explorer" not in self.given and len({c // self.rows for c in cards}) >= self.ex_wonders:
            pts += self.ex_points
        return pts

    def take(self, face_up) -> int:
        """Points of the best take from the face-up cards ``face_up``: the keys and
        chests if any (the rules force them), else the kind worth most."""
        kind = self.kind
        treasure = tuple(c for c in face_up if kind[c] == Kind.KEY or kind[c] == Kind.CHEST)
        if treasure:
            return self.gain(treasure)
        groups: dict[tuple[int, int], tuple] = {}
        for c in face_up:  # sorted in, so each group sorted
            key = (kind[c], self.colour[c])
            groups[key] = groups.get(key, ()) + (c,)
        return max((self.gain(g) for g in groups.values()), default=0)

    def gain(self, took: tuple) -> int:
        """Points the seat gains by taking the cards ``took`` (sorted)."""
        v = self._gains.get(took)
        if v is None:
            v = self._gains[took] = self._points(self.mine + took) - self.base
        return v

    def adder(self, face_up: tuple) -> Callable[[int], int]:
        """``c -> self.take(sorted(face_up + (c,)))`` for a card ``c`` not in
        ``face_up`` (sorted): what ``face_up`` holds grouped once, so that a further
        card changes the best take only through its own group (the exact search asks
        this for every card of every place after each pair; twin-tested against
        :meth:`take`)."""
        gain, key_of, is_treasure = self.gain, self._key_of, self._is_treasure
        one = self._one()
        treasure = tuple(c for c in face_up if is_treasure[c])
        if treasure:  # the rules force the keys and chests: only another one counts
            fixed = gain(treasure)

            def with_treasure(c: int) -> int:
                return gain(tuple(sorted((*treasure, c)))) if is_treasure[c] else fixed

            return with_treasure
        groups: dict[tuple[int, int], tuple] = {}
        for c in face_up:
            groups[key_of[c]] = groups.get(key_of[c], ()) + (c,)
        gains = {key: gain(g) for key, g in groups.items()}
        ranked = sorted(gains.values(), reverse=True)
        best = ranked[0] if ranked else None
        # with c in group ``key``: the best gain of the other groups (None: none)
        others = {
            key: ranked[0] if v < ranked[0] else (ranked[1] if len(ranked) > 1 else None)
            for key, v in gains.items()
        }

        def plain(c: int) -> int:
            if is_treasure[c]:
                return one[c]
            g = groups.get(key_of[c])
            if g is None:  # a group of its own beside those of face_up
                v = one[c]
                return v if best is None or v > best else best
            key = key_of[c]
            v = gain(tuple(sorted((*g, c))))
            o = others[key]
            return v if o is None or v > o else o

        return plain

    def _one(self) -> list[int]:
        """Each card's gain taken alone (made once)."""
        if self._ones is None:
            self._ones = [self.gain((c,)) for c in range(len(self.kind))]
        return self._ones


# --------------------------------------------------------------------------- the answer


@dataclass(frozen=True)
class Place:
    """A face-down place: ``wonder`` and its number in the column (remembered
    places first, in the file's order), and what the seat knows of it."""

    name: str
    remembered: str | None
    chances: dict[str, Fraction]  #: card kind -> chance


@dataclass(frozen=True)
class Choice:
    """A reveal choice (the places turned first, as classes: a remembered place,
    or any unknown place of a wonder) and its exact expected points this turn."""

    name: str
    points: Fraction
    stop_points: Fraction  #: expected points if no further card were revealed
    p_treasure: Fraction  #: chance that a key or chest is face up among the first ones


@dataclass(frozen=True)
class TurnOdds:
    places: tuple[Place, ...]
    choices: tuple[Choice, ...]  #: best first
    first_reveals: int
    extra_reveals: int
    assumed: tuple[str, ...]


def _cards(mask: int) -> tuple[int, ...]:
    """The cards of a bit mask (card c: bit c), smallest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _label(rules: Rules, card: int) -> str:
    t = rules.tables
    kind = int(t.card_kind[card])
    return rules.colours[int(t.card_colour[card])] if kind == Kind.GEM else Kind(kind).name.lower()


def turn_odds(state: TurnState, rules: Rules | None = None) -> TurnOdds:
    """Every place's chances and every reveal choice's expected points (exact)."""
    rules = rules or shipped_rules()
    t = rules.tables
    ids = rules.wonder_ids
    places = []
    # classes: ("r", card) a remembered place; ("u", column index) an unknown one
    classes = []
    for i, col in enumerate(state.columns):
        for k, card in enumerate(col.remembered, start=1):
            places.append(
                Place(
                    f"{ids[col.wonder]} {k}",
                    _label(rules, card),
                    {_label(rules, card): Fraction(1)},
                )
            )
            classes.append(("r", card))
        u = len(col.unknown)
        if u:
            chances: dict[str, Fraction] = {}
            for card in col.unknown:
                lab = _label(rules, card)
                chances[lab] = chances.get(lab, Fraction(0)) + Fraction(1, u)
            for k in range(len(col.remembered) + 1, len(col.remembered) + u + 1):
                places.append(Place(f"{ids[col.wonder]} {k}", None, dict(chances)))
            classes.append(("u", i))
    scorer = Scorer(rules, state)
    # A set of face-up cards is a bit mask (card c: bit c): no sorting, and whole
    # numbers as the memos' keys, for the thousands of sets a state's search meets.
    taken: dict[int, int] = {}

    def take(up: int) -> int:
        """``scorer.take`` of the cards of the mask ``up``, asked once per set."""
        v = taken.get(up)
        if v is None:
            v = taken[up] = scorer.take(_cards(up))
        return v

    total = sum(len(c.remembered) + len(c.unknown) for c in state.columns)
    first = min(int(t.first_reveals), total)
    extra = int(t.extra_reveals)
    unknown = [tuple(col.unknown) for col in state.columns]

    def draws(cls, up: int) -> list[int]:
        """The cards a place of class ``cls`` may show with the mask ``up`` face up,
        each equally likely."""
        kind, x = cls
        if kind == "r":
            return [] if up >> x & 1 else [x]
        return [c for c in unknown[x] if not up >> c & 1]

    # each class's cards and their mask, for the search's inner loop
    pools = [((x,) if k == "r" else unknown[x]) for k, x in classes]
    pools = [(cards, sum(1 << c for c in cards)) for cards in pools]

    # Exact in integers: with ``e`` optional reveals left a value is a mean over at
    # most ``rows`` equally likely cards of values with ``e - 1`` left, so ``value * K``
    # is a whole number for ``K = lcm(1..rows) ** e`` (Fractions only at the end).
    step = math.lcm(*range(1, int(t.rows) + 1))

    @cache
    def value(up: int, extras: int) -> int:
        """Expected points times ``step ** extras`` with the cards of the mask ``up``
        face up and ``extras`` optional reveals left (the best further place, or none)."""
        scale = step**extras
        best_n, best_d = take(up) * scale, 1
        if extras and up.bit_count() < total:
            lower = step ** (extras - 1)
            add = None  # the takes after one more card (the last reveal), made once
            for cards, mask in pools:
                d = [c for c in cards if not up >> c & 1] if up & mask else cards
                if d:
                    if extras == 1:  # the last reveal: the take itself
                        if add is None:
                            add = scorer.adder(_cards(up))
                        s = sum(map(add, d))
                    else:
                        s = sum(value(up | 1 << c, extras - 1) for c in d)
                    # s / (len(d) * lower) points, against best_n / (best_d * scale)
                    if s * scale * best_d > best_n * len(d) * lower:
                        best_n, best_d = s * scale, len(d) * lower
        return best_n // best_d

    def outcomes(combo):
        """``(weight, up)``: the cards face up (a mask) after revealing ``combo``, each
        with the inverse of its chance (a whole number)."""
        out = [(1, 0)]
        for cls in combo:
            nxt = []
            for w, up in out:
                d = draws(cls, up)
                nxt += [(w * len(d), up | 1 << c) for c in d]
            out = nxt
        return out

    def mean(outs, f) -> Fraction:
        """The exact mean of ``f(up)`` over the outcomes ``outs`` (by their chances)."""
        by_weight: dict[int, int] = {}
        for w, up in outs:
            by_weight[w] = by_weight.get(w, 0) + f(up)
        return sum((Fraction(v, w) for w, v in by_weight.items()), Fraction(0))

    treasure_kinds = (Kind.KEY, Kind.CHEST)
    treasure = sum(1 << c for c, k in enumerate(t.card_kind) if int(k) in treasure_kinds)
    choices = []
    for combo in itertools.combinations_with_replacement(classes, first):
        outs = outcomes(combo)
        if not outs:
            continue  # more places of a class than it has
        name = " + ".join(
            f"{ids[state.columns[x].wonder]} unknown"
            if k == "u"
            else rules.card_name(x).replace(rules.wonder_names[x // t.rows], ids[x // t.rows])
            + " (remembered)"
            for k, x in combo
        )
        pts = mean(outs, lambda up: value(up, extra)) / step**extra
        stop = mean(outs, take)
        treas = mean(outs, lambda up: up & treasure != 0)
        choices.append(Choice(name, pts, stop, treas))
    choices.sort(key=lambda c: -c.points)  # stable: ties keep the grid's order
    assumed = (
        f"{state.players} players, {state.scoring} scoring, standard rules (no action tiles)",
        "every face-down place I do not remember holds one of its wonder's cards I do not "
        "know, each equally likely",
        f"points this turn: gem table, diamond cards with their plastic diamonds, the gem and "
        f"explorer rewards; keys and chests count 0 (treasure reward at the end, steals not "
        f"valued); after the first {first} cards I reveal "
        f"{'up to ' + str(extra) + ' more' if extra else 'no more'} when that raises the "
        f"expected points, and take the kind worth most",
    )
    return TurnOdds(tuple(places), tuple(choices), first, extra, assumed)


# --------------------------------------------------------------------------- output


def _frac(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def to_json(odds: TurnOdds) -> str:
    return json.dumps(
        {
            "assumed": list(odds.assumed),
            "first_reveals": odds.first_reveals,
            "extra_reveals": odds.extra_reveals,
            "places": [
                {
                    "place": p.name,
                    "remembered": p.remembered,
                    "chances": {k: _frac(v) for k, v in p.chances.items()},
                }
                for p in odds.places
            ],
            "choices": [
                {
                    "choice": c.name,
                    "points": _frac(c.points),
                    "points_float": float(c.points),
                    "points_without_more": _frac(c.stop_points),
                    "p_key_or_chest": _frac(c.p_treasure),
                }
                for c in odds.choices
            ],
        },
        indent=2,
    )


def render(odds: TurnOdds, top: int = 10) -> list:
    """Rich tables: the places, then the best reveal choices."""
    from rich.table import Table

    kinds: list[str] = []
    for p in odds.places:
        for k in p.chances:
            if k not in kinds:
                kinds.append(k)
    tp = Table(title="Face-down places: chance of each card (exact)", title_justify="left")
    tp.add_column("place")
    for k in kinds:
        tp.add_column(k, justify="right")
    for p in odds.places:
        name = p.name + (" (remembered)" if p.remembered else "")
        tp.add_row(name, *(_frac(p.chances[k]) if k in p.chances else "-" for k in kinds))
    tc = columns_table(
        f"Reveal choices by expected points this turn (exact; best "
        f"{min(top, len(odds.choices))} of {len(odds.choices)})",
        (
            ("#", "right"),
            ("reveal first", "left"),
            ("expected points", "right"),
            ("without more", "right"),
            ("key or chest", "right"),
        ),
    )
    for i, c in enumerate(odds.choices[:top], start=1):
        tc.add_row(
            str(i),
            c.name,
            f"{_frac(c.points)} = {float(c.points):.3f}",
            f"{float(c.stop_points):.3f}",
            f"{100 * float(c.p_treasure):.1f}%",
        )
    return [tp, tc]


def within_noise(odds: TurnOdds) -> tuple[int, ...]:
    """Ranks (best first) whose expected points equal the best's exactly (a tie:
    exact values carry no noise)."""
    best = odds.choices[0].points
    return tuple(i for i, c in enumerate(odds.choices) if i > 0 and c.points == best)


#: what the exact ranking ranks by, in words (the deep advice names it so)
RANKED_BY = "the exact points this turn"


def advice_json(odds: TurnOdds) -> str:
    """``advise --json``: Unearth's shape (``choices`` best first, each with its
    ``choice`` name); exact values as fractions. ``tied_with_best``: the choices
    exactly as good as the best; ``within_noise_of_best`` is empty (exact values
    carry no noise; kept for scripts that read it)."""
    return json.dumps(
        {
            "goal": "expected points this turn (exact)",
            "assumed": list(odds.assumed),
            "within_noise_of_best": [],
            "tied_with_best": [odds.choices[i].name for i in within_noise(odds)],
            "ranking": "exact expected points this turn (one step; --deep plays the game out)",
            "units": {"points": "points this turn, expected", "p_key_or_chest": "chance"},
            "verdict": advice_verdict(odds),
            "choices": [
                {
                    "choice": c.name,
                    "points": float(c.points),
                    "points_without_more": float(c.stop_points),
                    "p_key_or_chest": float(c.p_treasure),
                    "exact": {
                        "points": _frac(c.points),
                        "points_without_more": _frac(c.stop_points),
                        "p_key_or_chest": _frac(c.p_treasure),
                    },
                }
                for c in odds.choices
            ],
        },
        indent=2,
    )


def advice_verdict(odds: TurnOdds) -> str:
    """The ranking's answer in words: the best, its ties, and what it does not see."""
    best = odds.choices[0]
    tied = [odds.choices[i].name for i in within_noise(odds)]
    what = f"Best: reveal {best.name} first ({float(best.points):.3f} points expected this turn)"
    if tied:
        what += f"; tied exactly with: {', '.join(tied)}."
    else:
        what += "; every other choice expects fewer points."
    return what + (
        " This counts this turn's points only; the deep advice (--deep) plays the whole game "
        "out, and where the two differ, follow the deep one."
    )
