"""Exact "what are my odds" for one ruin (``docs/games/unearth.md``: "A turn",
"Claims and tiebreaks", the delver cards and named wonders that change a roll).

A question is one ruin: its claim value, the dice already on it (owner, faces,
value) and the dice still to be rolled onto it, in order. After each roll the
ruin is checked; once it is claimed or tied, later dice are not rolled there.
The answer is exact: the probability that each player claims, of an
unbreakable tie and of no claim, and the expected stones and consolation
delver cards of each player, as :class:`fractions.Fraction`.

Engines: :func:`analyzer.unearth.odds_kernel._odds_kernel` (numba) walks the
roll tree depth first. Every node carries an integer weight over the common
denominator ``prod(faces ** rolls)`` (the most rolls each die can take, rerolls
included), so sums are exact in int64. Choices made after seeing a roll
(modifier signs and order, rerolls) are maximised subtree by subtree for the
player who makes them. :func:`analyzer.unearth.odds_tree.solve` walks the same
tree in plain Python, each state once, with the same integers: small questions
go there (:data:`TREE_MAX_WEIGHT`), so this module and a one-shot
``analyzer odds`` import no numba. This module validates, precomputes which
final values each choice can reach, and converts the integer result to fractions.

Every modifier's parameters come from the rules data through
:mod:`.modifiers` (shared with the engine and the strategies), which also
holds the any-order search of final values. Rulings are listed in
``docs/games/unearth.md``; the main ones:

- Modifiers are clamped to ``1 .. faces`` after each one; the asking player
  orders them (the best order for the asking player's goal).
- Stones come from the natural face of the final roll; the stone limit is the
  ruin's stones plus the bag's, and only applies when both are given.
- Ancient Map (the asking player's first rolled die) and The Shattered Edifice
  (the owner's natural rolls the data gives) reroll; the reroll is
  final for the ruin check, Reading the Stones and Ancestral Claim apply to the
  first roll only (rulebook FAQ), event and wonder modifiers apply to every roll.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from analyzer.core.errors import InputError, Param, ParamError, at, bad_value, input_error
from analyzer.unearth.codes import CardKind, ClaimResult, EventEffect
from analyzer.unearth.roll_rules import ROLL_WONDERS, reachable, roll_parameters
from analyzer.unearth.rules import Rules, default_rules

if TYPE_CHECKING:  # numpy where the question is prepared: bad input is answered without it
    import numpy as np

NO_CLAIM = int(ClaimResult.NO_CLAIM)
TIE = int(ClaimResult.TIE)

GOALS = ("claim", "stone")

#: a die token; faces and value of at most 9 digits (a longer number is no die)
_TOKEN = re.compile(r"^([A-Za-z0-9_\-]+):[dD](\d{1,9})(?:=(-?\d{1,9}))?$")
#: the largest claim value, stones on a ruin or in the bag a question takes (any
#: game's are far smaller; the kernel counts in 64-bit integers)
MAX_COUNT = 1_000_000
#: int64 headroom for the integer weights (a vector entry is at most weight * dice)
_WEIGHT_LIMIT = 2**62


# --------------------------------------------------------------------------- questions


@dataclass(frozen=True)
class Die:
    """One die of a question: ``value`` None means it is still to be rolled."""

    owner: str
    faces: int
    value: int | None = None

    def token(self) -> str:
        """The ``PLAYER:dFACES[=VALUE]`` spelling of this die."""
        tail = "" if self.value is None else f"={self.value}"
        return f"{self.owner}:d{self.faces}{tail}"


@dataclass(frozen=True)
class OddsQuestion:
    """One ruin and the dice to roll onto it, with the asking player's options.

    - ``dice``: known dice (with a value) are on the ruin; unknown ones are
      rolled in the order given, the ruin checked after each roll.
    - ``me``: the asking player (default: owner of the first unknown die).
    - ``ruin_stones`` / ``bag``: stones on the ruin and in the bag; the stone
      limit applies only when both are given (their sum), else unlimited.
    - ``reading_the_stones``, ``ancestral_claim``, ``ancient_map``: the asking
      player played that delver card this turn.
    - ``event``: id or short name of a roll-modifier end-of-age event, or None.
    - ``wonders``: ``(effect or wonder id, owner)`` pairs of roll-changing wonders.
    - ``goal``: what the asking player's choices maximise, ``claim`` or ``stone``.
    - ``force_first``: test/advise hook: the first unknown die's first natural
      roll is this value (the result is then that branch's share only).
    """

    claim_value: int
    dice: tuple[Die, ...]
    me: str | None = None
    ruin_stones: int | None = None
    bag: int | None = None
    reading_the_stones: bool = False
    ancestral_claim: bool = False
    ancient_map: bool = False
    event: str | None = None
    wonders: tuple[tuple[str, str], ...] = ()
    goal: str = "claim"
    force_first: int = 0

    def describe(self) -> str:
        """Short one-line statement of the inputs (for chart titles and reports)."""
        parts = [f"claim {self.claim_value}", ", ".join(d.token() for d in self.dice)]
        for flag, name in (
            (self.reading_the_stones, "Reading the Stones"),
            (self.ancestral_claim, "Ancestral Claim"),
            (self.ancient_map, "Ancient Map"),
        ):
            if flag:
                parts.append(name)
        if self.event:
            parts.append(f"event {self.event}")
        for eff, owner in self.wonders:
            parts.append(f"{eff}={owner}")
        if self.ruin_stones is not None:
            parts.append(f"ruin stones {self.ruin_stones}")
        if self.bag is not None:
            parts.append(f"bag {self.bag}")
        return "; ".join(parts)


@dataclass(frozen=True)
class OddsResult:
    """Exact answer to an :class:`OddsQuestion` (all values are Fractions).

    ``players`` lists the seats in the order used by the dicts.
    ``p_win[player]`` is the probability that the player claims the ruin.
    """

    question: OddsQuestion
    players: tuple[str, ...]
    me: str
    p_win: dict[str, Fraction]
    p_tie: Fraction
    p_no_claim: Fraction
    expected_stones: dict[str, Fraction]
    expected_cards: dict[str, Fraction]
    denominator: int = field(default=1, compare=False)

    @property
    def p_claim(self) -> Fraction:
        """Probability that somebody claims the ruin."""
        return sum(self.p_win.values(), Fraction(0))

    def as_dict(self) -> dict:
        """JSON-able dict: floats, and the same values as ``"a/b"`` strings under ``exact``."""

        def f(x: Fraction) -> float:
            return float(x)

        def s(x: Fraction) -> str:
            return f"{x.numerator}/{x.denominator}"

        out = {
            "claim_value": self.question.claim_value,
            "dice": [d.token() for d in self.question.dice],
            "me": self.me,
            "goal": self.question.goal,
            "players": list(self.players),
            "p_claim": f(self.p_claim),
            "p_tie": f(self.p_tie),
            "p_no_claim": f(self.p_no_claim),
            "p_win": {p: f(v) for p, v in self.p_win.items()},
            "expected_stones": {p: f(v) for p, v in self.expected_stones.items()},
            "expected_cards": {p: f(v) for p, v in self.expected_cards.items()},
        }
        out["exact"] = {
            "p_claim": s(self.p_claim),
            "p_tie": s(self.p_tie),
            "p_no_claim": s(self.p_no_claim),
            "p_win": {p: s(v) for p, v in self.p_win.items()},
            "expected_stones": {p: s(v) for p, v in self.expected_stones.items()},
            "expected_cards": {p: s(v) for p, v in self.expected_cards.items()},
        }
        return out

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2)


# --------------------------------------------------------------------------- parsing


def allowed_faces(rules: Rules) -> list[int]:
    """Die sizes allowed in questions: those in the rules' ``components.dice``."""
    return sorted(set(int(f) for f in rules.data["components"]["dice"]))


def parse_die(token: str, rules: Rules, where: str, *, need_value: bool = False) -> Die:
    """Parse one ``PLAYER:dFACES[=VALUE]`` token; raises :class:`InputError`."""
    faces_ok = allowed_faces(rules)
    faces_txt = ", ".join(f"d{f}" for f in faces_ok)
    tok = token.strip()
    m = _TOKEN.match(tok)
    if not m:
        form = "PLAYER:dFACES=VALUE" if need_value else "PLAYER:dFACES or PLAYER:dFACES=VALUE"
        raise bad_value(where, tok, f"{form}, faces {faces_txt}")
    owner, faces, value = m.group(1), int(m.group(2)), m.group(3)
    if faces not in faces_ok:
        raise bad_value(at(where, f": {tok!r}"), f"d{faces}", faces_txt)
    if value is None:
        if need_value:
            raise bad_value(
                where, tok, f"a die with its value, PLAYER:dFACES=VALUE, faces {faces_txt}"
            )
        return Die(owner, faces, None)
    v = int(value)
    if not 1 <= v <= faces:
        raise bad_value(at(where, f": {tok!r}"), v, f"1 to {faces} on a d{faces}")
    return Die(owner, faces, v)


def int_allowed(minimum: int, maximum: int = MAX_COUNT) -> str:
    """The words for an integer from ``minimum`` to ``maximum`` (error messages)."""
    return f"an integer from {minimum} to {maximum:,}"


def parse_int(
    where,
    text: str | None,
    *,
    minimum: int = 0,
    required: bool = False,
    maximum: int = MAX_COUNT,
):
    """Parse an integer option given as text; None stays None unless ``required``.
    A value outside ``minimum .. maximum`` (or not an integer) raises
    :class:`InputError` naming ``where`` (a :class:`~analyzer.core.errors.Param`: the
    parameter)."""
    allowed = int_allowed(minimum, maximum)
    if text is None:
        if required:
            raise input_error(where, f": missing (allowed: {allowed})")
        return None
    try:
        value = int(str(text).strip())
    except ValueError:  # not an integer, or more digits than Python converts
        raise bad_value(where, text, allowed) from None
    if not minimum <= value <= maximum:
        raise bad_value(where, value, allowed)
    return value


def parse_dice(
    text: str | None, rules: Rules | None = None, where=Param("dice")
) -> tuple[Die, ...]:
    """Parse a comma-separated list of die tokens (``blue:d6=5,red:d8``)."""
    rules = rules or default_rules()
    if text is None:
        raise input_error(where, ": missing (allowed: comma-separated PLAYER:dFACES[=VALUE])")
    tokens = [t for t in text.split(",")]
    if not text.strip() or any(not t.strip() for t in tokens):
        raise bad_value(where, text, "comma-separated PLAYER:dFACES[=VALUE] tokens")
    return tuple(parse_die(t, rules, where) for t in tokens)


def _roll_events(rules: Rules) -> dict[str, int]:
    """Roll-modifier events by accepted name (id and short name) -> amount."""
    out = {}
    for c in rules.data["end_of_age"]["card"]:
        if c["kind"] == "event" and EventEffect[c["effect"].upper()] == EventEffect.ROLL_MODIFIER:
            out[c["id"]] = int(c.get("amount", 0))
            out[_short(c["id"])] = int(c.get("amount", 0))
    return out


def _short(card_id: str) -> str:
    words = [w for w in card_id.split("_") if w not in ("the", "of")]
    return words[0] if words else card_id


def event_names(rules: Rules) -> list[str]:
    """Short names of the roll-modifier events (``gathering``, ``festival``)."""
    return [
        _short(c["id"])
        for c in rules.data["end_of_age"]["card"]
        if c["kind"] == "event" and c["effect"] == "roll_modifier"
    ]


def _wonder_entries(rules: Rules) -> dict[str, dict]:
    """Roll-changing wonders by accepted name (effect and id) -> their parameters
    (:func:`analyzer.unearth.modifiers.roll_parameters`), effect and name."""
    params = roll_parameters(rules)
    out = {}
    for w in rules.data["named_wonders"]["wonder"]:
        eff = w["effect"]
        if eff in ROLL_WONDERS:
            entry = {**params[eff], "effect": eff, "name": w["name"]}
            out[eff] = entry
            out[w["id"]] = entry
    return out


def parse_wonder(text: str, rules: Rules | None = None, where=Param("wonder")) -> tuple[str, str]:
    """Parse ``NAME=PLAYER`` (name: ``college``, ``columns``, ``edifice``, ``sanctuary``)."""
    rules = rules or default_rules()
    entries = _wonder_entries(rules)
    name, sep, owner = text.partition("=")
    allowed = ", ".join(f"{e}=PLAYER" for e in ROLL_WONDERS)
    if not sep or not owner.strip() or not re.fullmatch(r"[A-Za-z0-9_\-]+", owner.strip()):
        raise bad_value(where, text, allowed)
    if name.strip() not in entries:
        raise bad_value(where, text, allowed)
    return entries[name.strip()]["effect"], owner.strip()


def _delver_amount(rules: Rules, effect: str) -> int:
    """The ``amount`` of the delver card with ``effect`` in the rules data."""
    for d in rules.data["delvers"]["delver"]:
        if d["effect"] == effect:
            return int(d["amount"])
    raise InputError(f"rules: no delver card with effect {effect!r} in the data")


# --------------------------------------------------------------------------- kernel


class _Problem(NamedTuple):
    """Kernel view of a question. Dice arrays hold the known dice, then the unknown.

    ``masks[i, r, s, n, c]`` (int64 bitmask, bit ``v`` = final value ``v``):
    the final values unknown die ``i`` can reach from natural ``n`` under owner
    choice ``c`` (``r`` = 0 first roll, 1 a reroll; ``s`` = 1 when the
    Sanctuary condition holds). For the asking player's own dice there is one
    choice (the union); for others, one per combination of their optional
    abilities, the asking player then picking the value (the order).
    """

    claim_value: int
    n_players: int
    n_known: int
    n_unknown: int
    me: int
    goal: int  #: 0 claim, 1 stone
    stone_max: int  #: natural faces 1..stone_max give a stone
    edifice_rolls: int  #: bitmask of naturals the Edifice may reroll
    owner: np.ndarray  #: int64[n_known + n_unknown] seat
    faces: np.ndarray  #: int64[n_known + n_unknown]
    masks: np.ndarray  #: int64[n_unknown, 2, 2, max_faces + 1, max_choices]
    n_choice: np.ndarray  #: int64[n_unknown]
    has_map: np.ndarray  #: bool[n_unknown] Ancient Map on this die's first roll
    has_edifice: np.ndarray  #: bool[n_unknown]
    has_sanctuary: np.ndarray  #: bool[n_unknown]
    force: np.ndarray  #: int64[n_unknown] forced first natural, 0 = free
    max_rest: np.ndarray  #: int64[n_unknown + 1] sum of faces of unknown dice i..
    no_reroll_from: np.ndarray  #: bool[n_unknown + 1] no die i.. can be rerolled


# --------------------------------------------------------------------------- wrapper


@dataclass
class _Prepared:
    """A validated question as both engines take it: ``problem`` (the kernel's
    view), ``values`` (the dice's values, 0 for the unknown ones), the stones
    left to give (-1: unlimited), the common denominator ``weight``, the length
    of the outcome vector and the depth of the kernel's stack."""

    players: tuple[str, ...]
    me: str
    problem: _Problem
    values: tuple[int, ...]
    stones_left: int
    weight: int
    length: int
    depth: int


def _resolve_players(q: OddsQuestion) -> tuple[tuple[str, ...], str]:
    players: list[str] = []
    for d in q.dice:
        if d.owner not in players:
            players.append(d.owner)
    unknown = [d for d in q.dice if d.value is None]
    me = q.me or (unknown[0].owner if unknown else (q.dice[0].owner if q.dice else None))
    if me is None:
        raise ParamError(
            Param("dice"), ": no dice given (allowed: one or more PLAYER:dFACES[=VALUE])"
        )
    if me not in players:
        players.append(me)
    for _, owner in q.wonders:
        if owner not in players:
            players.append(owner)
    return tuple(players), me


def table_players(q: OddsQuestion) -> tuple[str, ...]:
    """The players at the table of ``q``: the owners of its dice and wonders, in
    the order they are first named."""
    return tuple(dict.fromkeys([*(d.owner for d in q.dice), *(o for _, o in q.wonders)]))


def check_me(q: OddsQuestion, where=Param("me")) -> None:
    """Refuse an asking player who is not at the table (no die, no wonder: a typo,
    which would otherwise be answered with zeros)."""
    players = table_players(q)
    if q.me is not None and q.me not in players:
        raise bad_value(where, q.me, "a player at the table: " + ", ".join(players))


def highest_total(q: OddsQuestion, rules: Rules | None = None) -> int:
    """The highest total the dice of ``q`` can reach, whoever chooses what: the
    dice on the ruin as they are, each rolled die at the highest final value any
    natural roll and any choice of its modifiers give (clamped to its faces: the
    event's -1 caps a d8 at 7)."""
    problem = _prepare(q, rules or default_rules()).problem
    total = sum(d.value for d in q.dice if d.value is not None)
    for i in range(problem.n_unknown):
        reach = 0
        for m in problem.masks[i].ravel():
            reach |= int(m)
        total += reach.bit_length() - 1
    return total


def check_reachable(q: OddsQuestion, where=Param("claim"), rules: Rules | None = None) -> None:
    """Refuse a question for the chance to claim (``goal`` claim) a ruin whose
    claim value no roll of the dice can reach (a typo, or other dice meant: it
    would be answered "no claim 100%"), naming the highest claim they reach.
    With ``goal`` stone the question is the stones, and such a ruin has them
    (:func:`exact_odds` answers any claim value, as ``advise`` weighs a ruin it
    cannot claim yet)."""
    top = highest_total(q, rules)
    if q.goal == "claim" and _int_in(q.claim_value, 1) and q.claim_value > top:
        dice = " + ".join(d.token() for d in q.dice)
        place = at(where, f": bad value {q.claim_value} (allowed: 1 to {top}, the highest ")
        raise ParamError(
            *(place if isinstance(place, tuple) else (place,)),
            f"total the dice reach: {dice}; with ",
            Param("goal"),
            " stone: the stones of a ruin they cannot claim)",
        )


def _validate(q: OddsQuestion, rules: Rules) -> None:
    if not _int_in(q.claim_value, 1):
        raise bad_value(Param("claim"), q.claim_value, int_allowed(1))
    faces_ok = allowed_faces(rules)
    for d in q.dice:
        if d.faces not in faces_ok:
            raise bad_value(
                at(Param("dice"), f": {d.token()!r}"),
                f"d{d.faces}",
                ", ".join(f"d{f}" for f in faces_ok),
            )
        if d.value is not None and not 1 <= d.value <= d.faces:
            raise bad_value(
                at(Param("dice"), f": {d.token()!r}"), d.value, f"1 to {d.faces} on a d{d.faces}"
            )
    for name, val in ((Param("ruin_stones"), q.ruin_stones), (Param("bag"), q.bag)):
        if val is not None and not _int_in(val, 0):
            raise bad_value(name, val, int_allowed(0))
    if q.goal not in GOALS:
        raise bad_value(Param("goal"), q.goal, ", ".join(GOALS))
    if q.event is not None and q.event not in _roll_events(rules):
        raise bad_value(Param("event"), q.event, ", ".join(event_names(rules)))
    entries = _wonder_entries(rules)
    for eff, owner in q.wonders:
        if eff not in entries:
            raise bad_value(
                Param("wonder"), f"{eff}={owner}", ", ".join(f"{e}=PLAYER" for e in ROLL_WONDERS)
            )


def _int_in(value, minimum: int, maximum: int = MAX_COUNT) -> bool:
    """Is ``value`` an integer (not a bool) from ``minimum`` to ``maximum``?"""
    return not isinstance(value, bool) and isinstance(value, int) and minimum <= value <= maximum


def _prepare(q: OddsQuestion, rules: Rules) -> _Prepared:
    import numpy as np

    _validate(q, rules)
    players, me = _resolve_players(q)
    seat = {p: k for k, p in enumerate(players)}
    known = [d for d in q.dice if d.value is not None]
    unknown = [d for d in q.dice if d.value is None]
    dice = known + unknown
    n_k, n_u = len(known), len(unknown)
    tables = rules.tables
    entries = _wonder_entries(rules)
    owned: dict[str, set[str]] = {}
    for eff, owner in q.wonders:
        owned.setdefault(owner, set()).add(entries[eff]["effect"])
    params = roll_parameters(rules)  # only the wonders in the data can be owned
    college = params.get("college", {})
    columns = params.get("columns", {})
    sanctuary = params.get("sanctuary", {})
    edifice = params.get("edifice", {"rolls": []})
    event_amount = _roll_events(rules)[q.event] if q.event else 0
    rts_amount = params.get("reading_the_stones", {"amount": 0})["amount"]
    ac_amount = params.get("ancestral_claim", {"amount": 0})["amount"]
    ac_faces = params.get("ancestral_claim", {"faces": 0})["faces"]

    # which of my unknown dice the cards act on: the next die / next d6 I roll
    mine_idx = [i for i, d in enumerate(unknown) if d.owner == me]
    rts_die = mine_idx[0] if (q.reading_the_stones and mine_idx) else -1
    map_die = mine_idx[0] if (q.ancient_map and mine_idx) else -1
    ac_die = -1
    if q.ancestral_claim:
        for i in mine_idx:
            if ac_faces in (0, unknown[i].faces):
                ac_die = i
                break

    max_f = max([d.faces for d in dice], default=1)
    choice_sets = []
    for i, d in enumerate(unknown):
        own = owned.get(d.owner, set())
        per = {}
        for r in (0, 1):
            for s in (0, 1):
                fixed: list[int] = []
                groups: list[list[int]] = []
                if event_amount:
                    fixed.append(event_amount)
                if r == 0 and i == ac_die:
                    fixed.append(ac_amount)
                if r == 0 and i == rts_die:
                    groups.append([rts_amount, -rts_amount])
                if "college" in own and int(college["faces"]) in (0, d.faces):
                    groups.append([0, int(college["amount"])])
                if "columns" in own:
                    groups.append([0, int(columns["amount"])])
                if "sanctuary" in own:
                    a = int(sanctuary["amount"])
                    groups.append([0, a, -a] if s else [0, 0, 0])
                combos = list(itertools.product(*groups)) if groups else [()]
                rows = []
                for n in range(1, d.faces + 1):
                    row = []
                    for combo in combos:
                        amounts = tuple(sorted(fixed + [a for a in combo if a]))
                        m = 0
                        for v in reachable(n, amounts, d.faces):
                            m |= 1 << v
                        row.append(m)
                    if d.owner == me:  # every choice is mine: one union
                        u_m = 0
                        for m in row:
                            u_m |= m
                        row = [u_m]
                    rows.append(row)
                per[(r, s)] = rows
        choice_sets.append(per)
    n_choice = np.ones(max(n_u, 1), np.int64)
    for i in range(n_u):
        n_choice[i] = len(choice_sets[i][(0, 0)][0])
    k_max = int(n_choice.max()) if n_u else 1
    masks = np.zeros((max(n_u, 1), 2, 2, max_f + 1, k_max), np.int64)
    for i in range(n_u):
        for (r, s), rows in choice_sets[i].items():
            for n, row in enumerate(rows, start=1):
                masks[i, r, s, n, : len(row)] = row

    has_map = np.zeros(max(n_u, 1), np.bool_)
    has_edifice = np.zeros(max(n_u, 1), np.bool_)
    has_sanct = np.zeros(max(n_u, 1), np.bool_)
    force = np.zeros(max(n_u, 1), np.int64)
    rolls = []
    for i, d in enumerate(unknown):
        own = owned.get(d.owner, set())
        has_map[i] = i == map_die
        has_edifice[i] = "edifice" in own
        has_sanct[i] = "sanctuary" in own
        r_max = 1 + (1 if has_edifice[i] else 0)
        if has_map[i]:
            r_max *= 2
        rolls.append(r_max)
    if q.force_first:
        if not unknown or not 1 <= q.force_first <= unknown[0].faces:
            raise bad_value("force_first", q.force_first, "a face of the first unknown die")
        force[0] = q.force_first
    ed_mask = 0
    for v in edifice["rolls"]:
        ed_mask |= 1 << int(v)

    weight = 1
    for d, r_max in zip(unknown, rolls, strict=True):
        weight *= d.faces**r_max
    if weight * (len(dice) + 1) >= _WEIGHT_LIMIT:
        raise ParamError(
            Param("dice"),
            f": too many unknown dice to enumerate exactly ({n_u} dice, "
            f"{sum(rolls)} possible rolls; allowed: a product of faces ** rolls below "
            f"2**62 / {len(dice) + 1})",
        )
    stones_left = -1
    if q.ruin_stones is not None and q.bag is not None:
        stones_left = q.ruin_stones + q.bag

    max_rest = np.zeros(n_u + 1, np.int64)
    no_reroll = np.ones(n_u + 1, np.bool_)
    for i in range(n_u - 1, -1, -1):
        max_rest[i] = max_rest[i + 1] + unknown[i].faces
        no_reroll[i] = no_reroll[i + 1] and not (has_map[i] or has_edifice[i])
    p_n = len(players)
    length = 3 * p_n + 2
    depth = sum(rolls) + 3
    owner = np.array([seat[d.owner] for d in dice], np.int64)
    faces = np.array([d.faces for d in dice], np.int64)
    problem = _Problem(
        claim_value=int(q.claim_value),
        n_players=p_n,
        n_known=n_k,
        n_unknown=n_u,
        me=seat[me],
        goal=GOALS.index(q.goal),
        stone_max=int(tables.stone_faces_max),
        edifice_rolls=ed_mask,
        owner=owner,
        faces=faces,
        masks=masks,
        n_choice=n_choice,
        has_map=has_map,
        has_edifice=has_edifice,
        has_sanctuary=has_sanct,
        force=force,
        max_rest=max_rest,
        no_reroll_from=no_reroll,
    )
    values = tuple(d.value or 0 for d in dice)
    return _Prepared(players, me, problem, values, stones_left, weight, length, depth)


#: the engines of :func:`exact_odds`: ``auto`` picks by the question's size
ENGINES = ("auto", "tree", "kernel")
#: ``auto`` answers a question whose enumeration (``prod(faces ** rolls)``) is at
#: most this in plain Python (:mod:`.odds_tree`, no numba to import or load),
#: a bigger one with the compiled kernel (:mod:`.odds_kernel`)
TREE_MAX_WEIGHT = 1 << 21


def exact_odds(
    question: OddsQuestion, rules: Rules | None = None, *, engine: str = "auto"
) -> OddsResult:
    """Exact probabilities and expectations for ``question`` (see module docstring).

    ``engine``: ``tree`` (plain Python, :mod:`.odds_tree`), ``kernel`` (numba,
    :mod:`.odds_kernel`) or ``auto`` (the tree up to :data:`TREE_MAX_WEIGHT`
    roll sequences, else the kernel); every engine gives the same answer.
    Raises :class:`InputError` for bad input. Draws no random numbers.
    """
    if engine not in ENGINES:
        raise bad_value("engine", engine, ", ".join(ENGINES))
    rules = rules or default_rules()
    prep = _prepare(question, rules)
    if engine == "tree" or (engine == "auto" and prep.weight <= TREE_MAX_WEIGHT):
        from analyzer.unearth.odds_tree import solve
    else:
        from analyzer.unearth.odds_kernel import run as solve
    out = solve(prep)
    p_n = len(prep.players)
    w = prep.weight

    def fr(k: int) -> Fraction:
        return Fraction(out[k], w)

    return OddsResult(
        question=question,
        players=prep.players,
        me=prep.me,
        p_win={p: fr(k) for k, p in enumerate(prep.players)},
        p_tie=fr(p_n),
        p_no_claim=fr(p_n + 1),
        expected_stones={p: fr(p_n + 2 + k) for k, p in enumerate(prep.players)},
        expected_cards={p: fr(2 * p_n + 2 + k) for k, p in enumerate(prep.players)},
        denominator=w,
    )


# --------------------------------------------------------------------------- Monte Carlo


def has_choices(question: OddsQuestion) -> bool:
    """True when some roll of the question involves a choice (a sign, an order, a reroll)."""
    q = question
    if q.reading_the_stones or q.ancient_map or q.wonders:
        return True
    return bool(q.ancestral_claim and q.event)


def estimate_odds(
    question: OddsQuestion, trials: int = 20_000, seed: int = 0, rules: Rules | None = None
) -> dict[str, tuple[float, float]]:
    """Seeded Monte Carlo estimate of the same quantities as :func:`exact_odds`.

    Returns ``{key: (mean, standard error)}`` for keys ``p_tie``,
    ``p_no_claim``, ``p_win:<player>``, ``stones:<player>``, ``cards:<player>``.
    Only for questions without choices (:func:`has_choices` is False): event
    modifiers and Ancestral Claim alone are fine. Draws random numbers from a
    :class:`numpy.random.Generator` seeded with ``seed``.
    """
    import numpy as np

    from analyzer.core.seeding import resolve_seed
    from analyzer.unearth.claims import ruin_outcome

    rules = rules or default_rules()
    if has_choices(question):
        raise InputError(
            "estimate_odds: the question has choices (allowed: no Reading the Stones, "
            "Ancient Map or wonders, and not Ancestral Claim with an event)"
        )
    prep = _prepare(question, rules)
    pb = prep.problem
    rng = np.random.default_rng(resolve_seed(seed))
    n_k, n_u, p_n = pb.n_known, pb.n_unknown, pb.n_players
    faces = pb.faces
    nat = np.empty((trials, n_u), np.int64)
    fin = np.empty((trials, n_u), np.int64)
    for i in range(n_u):
        f = int(faces[n_k + i])
        nat[:, i] = rng.integers(1, f + 1, size=trials)
        # no choices: the single reachable value of each natural (first roll)
        lut = np.zeros(f + 1, np.int64)
        for n in range(1, f + 1):
            lut[n] = int(pb.masks[i, 0, 0, n, 0]).bit_length() - 1
        fin[:, i] = lut[nat[:, i]]
    samples = np.zeros((trials, prep.length), np.float64)
    value = np.array(prep.values, np.int64)
    cards = np.zeros(p_n, np.int64)
    left0 = prep.stones_left
    for t in range(trials):
        stones = np.zeros(p_n, np.int64)
        left = left0
        res = ruin_outcome(pb.owner, faces, value, n_k, pb.claim_value, p_n, cards)
        got_cards = res != NO_CLAIM
        for i in range(n_u):
            if res != NO_CLAIM:
                break
            value[n_k + i] = fin[t, i]
            if nat[t, i] <= pb.stone_max and left != 0:
                stones[pb.owner[n_k + i]] += 1
                left = left - 1 if left > 0 else left
            res = ruin_outcome(pb.owner, faces, value, n_k + i + 1, pb.claim_value, p_n, cards)
            got_cards = res != NO_CLAIM
        value[n_k:] = 0
        row = samples[t]
        if res == NO_CLAIM:
            row[p_n + 1] = 1
        elif res == TIE:
            row[p_n] = 1
        else:
            row[res] = 1
        row[p_n + 2 : 2 * p_n + 2] = stones
        if got_cards:
            row[2 * p_n + 2 :] = cards
    mean = samples.mean(axis=0)
    se = samples.std(axis=0, ddof=1) / math.sqrt(trials)
    keys = (
        [f"p_win:{p}" for p in prep.players]
        + ["p_tie", "p_no_claim"]
        + [f"stones:{p}" for p in prep.players]
        + [f"cards:{p}" for p in prep.players]
    )
    return {k: (float(mean[j]), float(se[j])) for j, k in enumerate(keys)}


# --------------------------------------------------------------------------- tables


def dice_to_claim_table(rules: Rules | None = None):
    """Exact chance that a ruin is claimed within ``dice`` dice of one player.

    For every distinct claim value of the rules' ruins and cities, and
    ``dice`` = 1 .. number of dice a player has: one player rolls their dice
    onto the empty ruin biggest first (``components.dice`` sorted by faces,
    descending), no modifiers. Returns a pandas DataFrame with columns
    ``claim_value`` (int), ``dice`` (int), ``p_claimed`` (float), ``exact``
    (``"a/b"``). Draws no random numbers.
    """
    import pandas as pd

    rules = rules or default_rules()
    t = rules.tables
    kinds = (int(CardKind.RUIN), int(CardKind.CITY))
    claims = sorted({int(c) for k, c in zip(t.card_kind, t.card_claim, strict=True) if k in kinds})
    faces = sorted((int(f) for f in rules.data["components"]["dice"]), reverse=True)
    rows = []
    for cv in claims:
        for k in range(1, len(faces) + 1):
            q = OddsQuestion(cv, tuple(Die("p", f) for f in faces[:k]), me="p")
            p = exact_odds(q, rules).p_claim
            rows.append((cv, k, float(p), f"{p.numerator}/{p.denominator}"))
    return pd.DataFrame(rows, columns=["claim_value", "dice", "p_claimed", "exact"]).astype(
        {"claim_value": "int64", "dice": "int64"}
    )


# --------------------------------------------------------------------------- output


def fmt_fraction(x: Fraction) -> str:
    """``a/b`` (or ``a`` when whole)."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def fmt_percent(x: Fraction) -> str:
    return f"{float(x) * 100:.2f}%"


def render_odds(result: OddsResult):
    """Rich renderables (outcome table, per-player table) for the terminal."""
    from rich.table import Table

    q = result.question
    t1 = Table(title=f"Exact odds: {q.describe()}", title_justify="left")
    t1.add_column("outcome")
    t1.add_column("probability", justify="right")
    t1.add_column("%", justify="right")
    for p, v in result.p_win.items():
        label = f"{p} claims" + (" (me)" if p == result.me else "")
        t1.add_row(label, fmt_fraction(v), fmt_percent(v))
    t1.add_row("unbreakable tie", fmt_fraction(result.p_tie), fmt_percent(result.p_tie))
    t1.add_row("no claim", fmt_fraction(result.p_no_claim), fmt_percent(result.p_no_claim))
    t1.add_row("claimed (anyone)", fmt_fraction(result.p_claim), fmt_percent(result.p_claim))
    t2 = Table(title=f"Per player (choices made for goal: {q.goal})", title_justify="left")
    t2.add_column("player")
    t2.add_column("P(claim)", justify="right")
    t2.add_column("expected stones", justify="right")
    t2.add_column("expected delver cards", justify="right")
    for p in result.players:
        es, ec = result.expected_stones[p], result.expected_cards[p]
        t2.add_row(
            p,
            fmt_percent(result.p_win[p]),
            f"{fmt_fraction(es)} ({float(es):.4f})",
            f"{fmt_fraction(ec)} ({float(ec):.4f})",
        )
    return t1, t2


def write_chart(result: OddsResult, path: str | os.PathLike) -> Path:
    """Bar chart of the outcome distribution, written atomically to ``path`` (PNG)
    with the permissions the umask gives (:func:`analyzer.core.outputs.atomic_write`)."""
    import matplotlib

    from analyzer.core.outputs import atomic_write

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    if not path.parent.exists():
        raise bad_value(Param("chart"), str(path), "a file in an existing directory")
    labels = [f"{p} claims" for p in result.players] + ["tie", "no claim"]
    values = [float(result.p_win[p]) for p in result.players] + [
        float(result.p_tie),
        float(result.p_no_claim),
    ]
    fig, ax = plt.subplots(figsize=(7, 4))
    bars = ax.bar(labels, values, color="#4c72b0")
    for b, v in zip(bars, values, strict=True):
        ax.annotate(f"{v:.1%}", (b.get_x() + b.get_width() / 2, v), ha="center", va="bottom")
    ax.set_ylabel("probability (exact)")
    ax.set_ylim(0, max(values + [0.01]) * 1.15)
    ax.set_title(f"Unearth ruin outcome, exact values\n{result.question.describe()}", fontsize=9)
    fig.tight_layout()
    try:  # the umask's permissions, like every file analyzer writes
        atomic_write(path, lambda tmp: fig.savefig(tmp, format="png"), "writing chart")
    finally:
        plt.close(fig)
    return path


#: the kernel and its helpers moved to :mod:`.odds_kernel`; importable from here as before
_MOVED = ("_better", "_copy_row", "_terminal", "_no_claim_rest", "_odds_kernel", "_Work")


def __getattr__(name: str):
    """The kernel's names, imported on first use (importing this module needs no numba)."""
    if name in _MOVED:
        from analyzer.unearth import odds_kernel

        return getattr(odds_kernel, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
