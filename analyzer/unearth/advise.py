"""Which die on which ruin? Exact advice for the excavation roll (``docs/games/unearth.md``,
"A turn", "Claims and tiebreaks", delver cards).

A table state (a TOML file, documented in ``examples/table.toml`` and
``docs/games/unearth.md``) lists the ruins in play with their dice and stones, my free
dice, my delver cards, the wonders each player owns, the event and the bag.
Every legal excavation choice (one row per die type per ruin; if all my dice
are on ruins: take one back and roll it, rulebook FAQ) is scored with
:func:`analyzer.unearth.odds.exact_odds`, and beside it the single card from
my hand that most improves it. Draws no random numbers.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from analyzer.core.errors import InputError, Param, bad_value
from analyzer.games.table import columns_table, example_file, read_state, unknown_keys
from analyzer.unearth.odds import (
    GOALS,
    MAX_COUNT,
    Die,
    OddsQuestion,
    _delver_amount,
    _wonder_entries,
    allowed_faces,
    event_names,
    fmt_percent,
    int_allowed,
    parse_die,
)
from analyzer.unearth.odds_cost import exact_odds  # priced first, stoppable
from analyzer.unearth.rules import Rules, default_rules

TOP_KEYS = ("me", "event", "bag", "free_dice", "hand", "wonders", "ruins")
RUIN_KEYS = ("name", "claim", "stones", "dice")
#: cards whose effect on this roll advise models (others in hand are ignored)
CARDS = (
    "reading_the_stones",
    "ancestral_claim",
    "ancient_map",
    "a_new_discovery",
    "forlorn",
    "expedition",
)


@dataclass(frozen=True)
class Ruin:
    name: str
    claim_value: int
    stones: int
    dice: tuple[Die, ...]


@dataclass(frozen=True)
class TableState:
    """A validated table state (see :func:`load_state`)."""

    me: str
    ruins: tuple[Ruin, ...]
    free_dice: tuple[int, ...]
    hand: tuple[str, ...]
    wonders: tuple[tuple[str, str], ...]  #: (roll effect, owner)
    event: str | None
    bag: int | None


@dataclass(frozen=True)
class Choice:
    """One excavation choice and its exact outcome for me.

    ``p_other``: the chance the roll hands the ruin to someone else or ties it.
    ``card``: the card from my hand that most improves my goal (None if none does).
    """

    die: str
    from_ruin: str | None
    ruin: str
    p_claim: Fraction
    p_stone: Fraction
    p_other: Fraction
    card: str | None = None
    card_detail: str = ""
    card_p_claim: Fraction | None = None
    card_p_stone: Fraction | None = None


def example_text() -> str:
    """The shipped, commented example state file."""
    return example_file("analyzer.unearth")


# --------------------------------------------------------------------------- loading


def load_state(path: str | Path, rules: Rules | None = None) -> TableState:
    """Read and validate a table-state TOML file.

    Every problem raises :class:`InputError` with one line
    ``FILE: key: bad value ... (allowed: ...)``.
    """
    data, src = read_state(Path(path), "analyzer advise --example")
    return parse_state(data, src, rules or default_rules())


def _int(value, where: str, lo: int, allowed: str = "") -> int:
    """``value`` if an integer from ``lo`` to :data:`analyzer.unearth.odds.MAX_COUNT`,
    else :class:`InputError` naming ``where`` (``allowed``: words after the range)."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= MAX_COUNT:
        raise bad_value(where, value, int_allowed(lo) + allowed)
    return value


def parse_state(data: dict, src: str, rules: Rules) -> TableState:
    """Validate the dict of a table-state file (``src`` names it in errors)."""
    unknown_keys(data, TOP_KEYS, src)
    me = data.get("me")
    if not isinstance(me, str) or not re.fullmatch(r"[A-Za-z0-9_\-]+", me):
        raise bad_value(f"{src}: me", me, "a player name (letters, digits, _ or -)")
    events = event_names(rules)
    event = data.get("event", "none")
    if event not in ["none", *events]:
        raise bad_value(f"{src}: event", event, ", ".join(["none", *events]))
    bag = data.get("bag")
    if bag is not None:
        bag = _int(bag, f"{src}: bag", 0, "; omit it: unlimited")
    faces_ok = allowed_faces(rules)
    faces_txt = ", ".join(f"d{f}" for f in faces_ok)
    free = data.get("free_dice", [])
    if not isinstance(free, list):
        raise bad_value(f"{src}: free_dice", free, f'a list like ["d6", "d8"] of {faces_txt}')
    free_faces = []
    for k, tok in enumerate(free):
        m = re.fullmatch(r"[dD](\d{1,9})", tok) if isinstance(tok, str) else None
        if not m or int(m.group(1)) not in faces_ok:
            raise bad_value(f"{src}: free_dice[{k}]", tok, faces_txt)
        free_faces.append(int(m.group(1)))
    hand = data.get("hand", [])
    ids = rules.delver_ids
    if not isinstance(hand, list):
        raise bad_value(f"{src}: hand", hand, "a list of delver card ids")
    for k, card in enumerate(hand):
        if card not in ids:
            raise bad_value(f"{src}: hand[{k}]", card, ", ".join(ids))
    wonders_in = data.get("wonders", {})
    if not isinstance(wonders_in, dict):
        raise bad_value(f"{src}: wonders", wonders_in, 'a table: PLAYER = ["wonder id", ...]')
    entries = _wonder_entries(rules)
    all_ids = set(rules.wonder_ids)
    wonders = []
    for owner, names in wonders_in.items():
        if not isinstance(names, list):
            raise bad_value(f"{src}: wonders.{owner}", names, "a list of named wonder ids")
        for k, name in enumerate(names):
            if not isinstance(name, str):
                raise bad_value(f"{src}: wonders.{owner}[{k}]", name, "a wonder id (text)")
            if name in entries:
                wonders.append((entries[name]["effect"], owner))
            elif name not in all_ids:
                raise bad_value(f"{src}: wonders.{owner}[{k}]", name, ", ".join(rules.wonder_ids))
    ruins_in = data.get("ruins", [])
    if not isinstance(ruins_in, list) or not ruins_in:
        raise bad_value(f"{src}: ruins", ruins_in, "one or more [[ruins]] tables")
    ruins = []
    for k, r in enumerate(ruins_in):
        where = f"{src}: ruins[{k}]"
        if not isinstance(r, dict):
            raise bad_value(where, r, "a [[ruins]] table")
        unknown_keys(r, RUIN_KEYS, where)
        name = r.get("name", f"ruin{k + 1}")
        if not isinstance(name, str) or not name:
            raise bad_value(f"{where}.name", name, "a non-empty string")
        if "claim" not in r:
            raise InputError(f"{where}: missing key 'claim' (allowed: a positive integer)")
        claim = _int(r["claim"], f"{where}.claim", 1)
        stones = _int(r.get("stones", 0), f"{where}.stones", 0)
        dice_in = r.get("dice", [])
        if not isinstance(dice_in, list):
            raise bad_value(f"{where}.dice", dice_in, 'a list like ["red:d6=5"]')
        dice = []
        for j, tok in enumerate(dice_in):
            if not isinstance(tok, str):
                raise bad_value(f"{where}.dice[{j}]", tok, "PLAYER:dFACES=VALUE")
            dice.append(parse_die(tok, rules, f"{where}.dice[{j}]", need_value=True))
        ruins.append(Ruin(name, claim, stones, tuple(dice)))
    if len({r.name for r in ruins}) != len(ruins):
        raise bad_value(f"{src}: ruins.name", [r.name for r in ruins], "distinct names")
    # each player's dice must fit one set of dice (components.dice)
    kit = Counter(int(f) for f in rules.data["components"]["dice"])
    per_player: dict[str, Counter] = {me: Counter(free_faces)}
    for r in ruins:
        for d in r.dice:
            per_player.setdefault(d.owner, Counter())[d.faces] += 1
    kit_txt = ", ".join(f"{n} d{f}" for f, n in sorted(kit.items()))
    for owner, have in per_player.items():
        if any(n > kit[f] for f, n in have.items()):
            shown = sorted(have.elements())
            raise bad_value(
                f"{src}: dice of {owner}", [f"d{f}" for f in shown], f"at most {kit_txt}"
            )
    if not free_faces and not any(d.owner == me for r in ruins for d in r.dice):
        raise InputError(f"{src}: free_dice: player {me!r} has no dice (allowed: at least one die)")
    return TableState(
        me=me,
        ruins=tuple(ruins),
        free_dice=tuple(free_faces),
        hand=tuple(hand),
        wonders=tuple(wonders),
        event=None if event == "none" else event,
        bag=bag,
    )


# --------------------------------------------------------------------------- advice


def _measure(res, me: str, goal: str) -> tuple[Fraction, Fraction]:
    claim, stone = res.p_win[me], res.expected_stones[me]
    return (claim, stone) if goal == "claim" else (stone, claim)


#: exact odds of the default rules' recent questions (a table page's taps change one
#: ruin or one die at a time: the other ruins' questions are asked again), by question
_RECENT: dict = {}
_RECENT_SIZE = 4096
_DEFAULT: list[Rules] = []


def _default_rules() -> Rules:
    if not _DEFAULT:
        _DEFAULT.append(default_rules())
    return _DEFAULT[0]


def _exact(q: OddsQuestion, rules: Rules):
    """:func:`exact_odds` (priced first, stoppable), remembered for the default rules:
    the same question has the same exact answer."""
    if not _DEFAULT or rules is not _DEFAULT[0]:
        return exact_odds(q, rules)
    got = _RECENT.get(q)
    if got is None:
        got = exact_odds(q, rules)
        while len(_RECENT) >= _RECENT_SIZE:
            _RECENT.pop(next(iter(_RECENT)), None)
        _RECENT[q] = got
    return got


def advise(state: TableState, rules: Rules | None = None, goal: str = "claim") -> list[Choice]:
    """Every legal excavation choice, ranked by my chance to claim (then stone chance).

    Each :class:`Choice` carries the card from my hand that most improves my
    ``goal`` for it. Draws no random numbers.
    """
    rules = rules or _default_rules()
    if goal not in GOALS:
        raise bad_value(Param("goal"), goal, ", ".join(GOALS))
    me = state.me
    moves: list[tuple[str, str | None, int, dict[str, tuple[Die, ...]]]] = []
    base_known = {r.name: r.dice for r in state.ruins}
    if state.free_dice:
        for f in sorted(set(state.free_dice), reverse=True):
            moves.append((f"d{f}", None, f, base_known))
    else:
        # all my dice are on ruins: take one back (any ruin) and roll it (FAQ)
        for r in state.ruins:
            seen = set()
            for k, d in enumerate(r.dice):
                if d.owner != me or (d.faces, d.value) in seen:
                    continue
                seen.add((d.faces, d.value))
                known = dict(base_known)
                known[r.name] = r.dice[:k] + r.dice[k + 1 :]
                moves.append((f"d{d.faces} (showing {d.value})", r.name, d.faces, known))
    choices = []
    for label, from_ruin, faces, known in moves:
        for r in state.ruins:
            q = _question(state, r, known[r.name], faces, goal)
            res = _exact(q, rules)
            p_me = res.p_win[me]
            choice = Choice(
                die=label,
                from_ruin=from_ruin,
                ruin=r.name,
                p_claim=p_me,
                p_stone=res.expected_stones[me],
                p_other=1 - p_me - res.p_no_claim,
            )
            choices.append(_best_card(state, choice, res, q, known, faces, goal, rules))
    choices.sort(key=lambda c: (-c.p_claim, -c.p_stone, c.p_other, c.die, c.ruin))
    return choices


def _question(state: TableState, ruin: Ruin, known, faces: int, goal: str, **kw) -> OddsQuestion:
    return OddsQuestion(
        claim_value=ruin.claim_value,
        dice=tuple(known) + (Die(state.me, faces),),
        me=state.me,
        ruin_stones=ruin.stones,
        bag=state.bag,
        event=state.event,
        wonders=state.wonders,
        goal=goal,
        **kw,
    )


def _best_card(state, choice, base, q, known, faces, goal, rules) -> Choice:
    me = state.me
    hand = set(state.hand)
    ruin = next(r for r in state.ruins if r.name == choice.ruin)
    options: list[tuple[str, str, Fraction, Fraction, tuple]] = []

    def consider(card, detail, res):
        m = _measure(res, me, goal)
        options.append((card, detail, res.p_win[me], res.expected_stones[me], m))

    for card, flag in (
        ("reading_the_stones", "reading_the_stones"),
        ("ancestral_claim", "ancestral_claim"),
        ("ancient_map", "ancient_map"),
    ):
        if card in hand:
            consider(card, "", _exact(replace(q, **{flag: True}), rules))
    here = known[ruin.name]
    for card, sign in (("a_new_discovery", 1), ("forlorn", -1)):
        if card not in hand:
            continue
        amount = sign * abs(_delver_amount(rules, card))
        for k, d in enumerate(here):
            v = min(max(d.value + amount, 1), d.faces)
            if v == d.value:
                continue
            moved = here[:k] + (Die(d.owner, d.faces, v),) + here[k + 1 :]
            res = _exact(_question(state, ruin, moved, faces, goal), rules)
            consider(card, f"on {d.token()}", res)
    if "expedition" in hand and len(state.ruins) > 1:
        # choose the ruin after seeing the natural roll: best ruin per natural
        claim = stone = Fraction(0)
        for n in range(1, faces + 1):
            best = None
            for r in state.ruins:
                res = _exact(_question(state, r, known[r.name], faces, goal, force_first=n), rules)
                m = _measure(res, me, goal)
                if best is None or m > best[0]:
                    best = (m, res.p_win[me], res.expected_stones[me])
            claim += best[1]
            stone += best[2]
        m = (claim, stone) if goal == "claim" else (stone, claim)
        options.append(("expedition", "", claim, stone, m))
    base_m = _measure(base, me, goal)
    improving = [o for o in options if o[4] > base_m]
    if not improving:
        return choice
    card, detail, p_claim, p_stone, _ = max(improving, key=lambda o: o[4])
    return replace(
        choice, card=card, card_detail=detail, card_p_claim=p_claim, card_p_stone=p_stone
    )


# --------------------------------------------------------------------------- output


def render_advice(state: TableState, choices: list[Choice], rules: Rules | None = None):
    """A rich table of the ranked choices."""
    rules = rules or default_rules()
    names = dict(zip(rules.delver_ids, rules.delver_names, strict=True))
    t = columns_table(
        f"Excavation choices for {state.me} (exact; --json for fractions)",
        (
            ("#", "right"),
            ("die", "left"),
            ("ruin", "left"),
            ("I claim", "right"),
            ("stone", "right"),
            ("other/tie", "right"),
            ("best card", "left"),
            ("I claim with card", "right"),
        ),
    )
    for k, c in enumerate(choices, start=1):
        die = c.die if c.from_ruin is None else f"{c.die} from {c.from_ruin}"
        card = "-"
        with_card = "-"
        if c.card:
            card = names.get(c.card, c.card) + (f" {c.card_detail}" if c.card_detail else "")
            with_card = fmt_percent(c.card_p_claim)
        t.add_row(
            str(k),
            die,
            c.ruin,
            fmt_percent(c.p_claim),
            fmt_percent(c.p_stone),
            fmt_percent(c.p_other),
            card,
            with_card,
        )
    return t


def advice_json(state: TableState, choices: list[Choice], goal: str = "claim") -> str:
    """Machine output: one JSON object with the ranked choices (floats and ``"a/b"``)."""

    def s(x):
        return None if x is None else f"{x.numerator}/{x.denominator}"

    def f(x):
        return None if x is None else float(x)

    rows = []
    for c in choices:
        rows.append(
            {
                "choice": f"{c.die} on {c.ruin}",
                "die": c.die,
                "from_ruin": c.from_ruin,
                "ruin": c.ruin,
                "p_claim": f(c.p_claim),
                "p_stone": f(c.p_stone),
                "p_other": f(c.p_other),
                "card": c.card,
                "card_detail": c.card_detail or None,
                "card_p_claim": f(c.card_p_claim),
                "card_p_stone": f(c.card_p_stone),
                "exact": {
                    "p_claim": s(c.p_claim),
                    "p_stone": s(c.p_stone),
                    "p_other": s(c.p_other),
                    "card_p_claim": s(c.card_p_claim),
                    "card_p_stone": s(c.card_p_stone),
                },
            }
        )
    tied = [f"{c.die} on {c.ruin}" for c in tied_with_best(choices)]
    return json.dumps(
        {
            "me": state.me,
            "goal": goal,
            "ranking": RANKED_BY + " (one step; --deep plays the whole game out)",
            "within_noise_of_best": [],  # exact odds carry no noise: a tie is tied_with_best
            "tied_with_best": tied,
            "verdict": verdict(choices),
            "choices": rows,
        },
        indent=2,
    )


#: what the exact ranking ranks by, in words (the deep advice names it so)
RANKED_BY = "my exact chance to claim this roll"
#: why it sees less than the rollouts
HORIZON = "the exact odds count this roll only"


def tied_with_best(choices: list[Choice]) -> list[Choice]:
    """The choices after the first exactly as good (the same chance to claim and stones)."""
    if not choices:
        return []
    best = choices[0]
    return [c for c in choices[1:] if (c.p_claim, c.p_stone) == (best.p_claim, best.p_stone)]


def verdict(choices: list[Choice]) -> str:
    """The ranking's answer in words: the best with its chance, its exact ties, and
    what it does not see."""
    if not choices:
        return "No choice: no die to place."
    best = choices[0]
    from_ruin = f" from {best.from_ruin}" if best.from_ruin else ""
    out = (
        f"Best this roll: {best.die}{from_ruin} on {best.ruin} (I claim it "
        f"{fmt_percent(best.p_claim)}, {float(best.p_stone):.2f} stones expected)"
    )
    tied = tied_with_best(choices)
    out += (
        f"; tied exactly with: {', '.join(f'{c.die} on {c.ruin}' for c in tied)}." if tied else "."
    )
    return out + (
        " This counts this roll only; the deep advice (--deep) plays the whole game out, and "
        "where the two differ, follow the deep one."
    )
