"""Unearth rules as data: load the deck files, apply overrides, validate, build arrays.

Implements the "Components", "Editions" and data tables of
``docs/games/unearth.md``. Every card value lives in ``data/*.toml`` (one file
per deck); nothing here or in a kernel hard-codes a card value. A designer
changes any value with an override path (see :func:`load_rules`), and flips any
ruling with a :class:`Rulings` switch.

The result is a :class:`Rules`: the resolved data (plain dicts, for manifests
and reports) plus :attr:`Rules.tables`, a NamedTuple of numpy arrays and ints
that is the only thing kernels see.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from analyzer.core.errors import InputError, bad_value
from analyzer.games.data import check as _check
from analyzer.games.data import check_count
from analyzer.games.rules_data import Decks, GameRules, cards, listed
from analyzer.unearth.codes import (
    CardKind,
    Delver,
    EventEffect,
    Formula,
    TombMode,
    WonderBonus,
    WonderEffect,
)

if TYPE_CHECKING:  # numpy where the kernels' tables are built: rules are checked without it
    import numpy as np

#: Names the engine's behaviour. Changes only when simulated behaviour changes;
#: written into every report and manifest.
RULES_VERSION = "unearth-rules-1"

DECKS = (
    "ruins",
    "delvers",
    "named_wonders",
    "wonder_tokens",
    "end_of_age",
    "scoring",
    "components",
    "seat_compensation",
)
#: the list key inside each deck file that holds its cards (None: no card list)
_CARD_LIST = {
    "ruins": "ruin",
    "delvers": "delver",
    "named_wonders": "wonder",
    "end_of_age": "card",
    "wonder_tokens": None,
    "scoring": None,
    "components": None,
    "seat_compensation": None,
}
#: the deck files, read once; an override may change any field of a card but its
#: id, effect and kind (the cards' names too, not offered), and no table of a deck
DATA = Decks(
    "analyzer.unearth",
    {deck: _CARD_LIST[deck] for deck in DECKS},
    fixed=("id", "effect", "kind"),
    unlisted=("name",),
    tables=False,
)

EDITIONS = ("english", "german")

MAX_DICE_PER_PLAYER = 6  #: tiebreak ranks pack up to 6 dice per player into an int64
MAX_FACES = 20


@dataclass(frozen=True)
class Rulings:
    """Every configurable ruling of ``docs/games/unearth.md``, each overridable on its own.

    ``None`` means "as the edition says". Resolve with :meth:`resolved`.

    - ``wonder_bonus``: ``"once"`` (English: +5 once for 3+ wonders) or
      ``"per_threshold"`` (German: +5 for every 3 wonders).
    - ``tomb``: ``"stone_colours"`` (English) or ``"ruin_colours"`` (German).
    - ``first_player``: ``"die_roll"`` (English) or ``"highest_sum"`` (German).
      Both pick the first player uniformly at random; seat 0 is always the
      first player in output, so this switch is recorded but changes nothing.
    - ``card_mods_on_forced_rerolls``: the Ancestral Claims and Reading the
      Stones the current player played also apply to another player's die that
      the current player's card makes them reroll (Lost in the Ruins, Forgotten
      Song), and the current player picks that die's final value among the
      reachable ones (True, as the English FAQ reads), or they apply only to the
      current player's own dice (False, the default so far).
    - ``token_fallback``: if the needed wonder-token pile is empty, take from the
      other pile (True, the documented ruling) or build no wonder (False).
    """

    edition: str = "english"
    wonder_bonus: str | None = None
    tomb: str | None = None
    first_player: str | None = None
    token_fallback: bool = True
    card_mods_on_forced_rerolls: bool = False

    _EDITION_DEFAULTS = {
        "english": {"wonder_bonus": "once", "tomb": "stone_colours", "first_player": "die_roll"},
        "german": {
            "wonder_bonus": "per_threshold",
            "tomb": "ruin_colours",
            "first_player": "highest_sum",
        },
    }
    _ALLOWED = {
        "wonder_bonus": ("once", "per_threshold"),
        "tomb": ("stone_colours", "ruin_colours"),
        "first_player": ("die_roll", "highest_sum"),
    }

    def resolved(self) -> Rulings:
        """A copy with every ``None`` filled from the edition; validates values."""
        if self.edition not in EDITIONS:
            raise bad_value("rules.edition", self.edition, ", ".join(EDITIONS))
        base = self._EDITION_DEFAULTS[self.edition]
        out = {}
        for key, allowed in self._ALLOWED.items():
            val = getattr(self, key)
            val = base[key] if val is None else val
            if val not in allowed:
                raise bad_value(f"rules.{key}", val, ", ".join(allowed))
            out[key] = val
        if not isinstance(self.token_fallback, bool):
            raise bad_value("rules.token_fallback", self.token_fallback, "true or false")
        forced = self.card_mods_on_forced_rerolls
        if not isinstance(forced, bool):
            raise bad_value("rules.card_mods_on_forced_rerolls", forced, "true or false")
        return replace(self, **out)

    def as_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if not k.startswith("_")}


def _neighbours() -> np.ndarray:
    """The tableau geometry (imported here, when tables are built: listing games
    and reading rules need no kernel module; :mod:`.hexgrid` is plain Python)."""

    from analyzer.unearth.hexgrid import NEIGHBOURS

    return NEIGHBOURS


class Tables(NamedTuple):
    """Everything a kernel needs to know about the rules, as arrays and ints.

    Cards of the ruins deck are indexed ``0 .. n_ruins-1`` (ruins), then
    ``n_ruins .. n_cards-1`` (end-of-age cards). ``-1`` means "none".
    """

    card_kind: np.ndarray  #: int64[n_cards] CardKind
    card_colour: np.ndarray  #: int64[n_cards] ruin colour 0..n_colours-1, -1 for none
    card_claim: np.ndarray  #: int64[n_cards] claim value (0 for events)
    card_stones: np.ndarray  #: int64[n_cards] stones placed on reveal
    card_points: np.ndarray  #: int64[n_cards] points of a city (0 otherwise)
    card_event: np.ndarray  #: int64[n_cards] EventEffect
    card_amount: np.ndarray  #: int64[n_cards] event amount
    n_ruins: int
    n_ruin_colours: int
    delver_effect: np.ndarray  #: int64[n_delver_kinds] Delver code of each kind
    delver_copies: np.ndarray  #: int64[n_delver_kinds]
    delver_amount: np.ndarray  #: int64[n_delver_kinds] modifier amount (0 if none)
    delver_faces: np.ndarray  #: int64[n_delver_kinds] faces of the die it applies to (0: any)
    wonder_formula: np.ndarray  #: int64[n_named] Formula
    wonder_colour: np.ndarray  #: int64[n_named] stone colour of AT_LEAST, -1 otherwise
    wonder_count: np.ndarray  #: int64[n_named] count of AT_LEAST, 0 otherwise
    wonder_points: np.ndarray  #: int64[n_named]
    wonder_effect: np.ndarray  #: int64[n_named] WonderEffect
    wonder_amount: np.ndarray  #: int64[n_named] modifier size (Library: stones drawn)
    wonder_faces: np.ndarray  #: int64[n_named] faces of the dice it applies to (0: any)
    wonder_low: np.ndarray  #: int64[n_named] Edifice: lowest natural roll it may reroll
    wonder_high: np.ndarray  #: int64[n_named] Edifice: highest natural roll it may reroll
    lesser_values: np.ndarray  #: int64[n_lesser]
    greater_values: np.ndarray  #: int64[n_greater]
    set_points: np.ndarray  #: int64[n_ruins_of_a_colour + 1]
    five_colour_set: int
    bonus_threshold: int
    bonus_points: int
    bonus_mode: int  #: WonderBonus
    tomb_mode: int  #: TombMode
    token_fallback: bool
    dice_faces: np.ndarray  #: int64[dice per player]
    n_stone_colours: int
    stones_per_colour: int
    stone_faces_max: int
    delver_dealt: int
    hidden_per_player: int
    removed_by_players: np.ndarray  #: int64[max_players+1] ruins removed at set-up
    revealed_by_players: np.ndarray  #: int64[max_players+1] ruins face up at a time
    min_players: int
    max_players: int
    card_mods_on_forced_rerolls: bool  #: Rulings.card_mods_on_forced_rerolls
    neigh: np.ndarray  #: int64[N_CELLS, 6] the tableau's hex neighbours (tableau.NEIGHBOURS)
    #: int64[max_players+1, max_players] extra delver cards dealt at set-up with n
    #: players to seat p (``seat_compensation``; all 0 in the printed game)
    extra_delvers: np.ndarray


# --------------------------------------------------------------------------- loading


def base_data() -> dict:
    """The shipped deck files as one dict ``{deck: contents}`` (a fresh copy)."""
    return DATA.copy()


def load_rules(
    edition: str = "english",
    overrides: dict[str, Any] | None = None,
    *,
    rulings: Rulings | dict | None = None,
    where: str = "rules",
) -> Rules:
    """Load, override, validate.

    ``overrides`` maps a dotted path to a new value:

    - ``"<deck>.<card id>.<field>"`` for decks with cards; the card id may be a
      glob (``"ruins.*17.claim": 18`` sets the claim value of every 17-ruin);
    - ``"<deck>.<key>"`` for the others (``"wonder_tokens.lesser"``,
      ``"scoring.set_points"``, ``"components.dice"``).

    ``rulings`` holds the ruling switches (a :class:`Rulings` or a dict of its
    fields); ``edition`` sets the defaults they start from. ``where`` prefixes
    error messages (e.g. the scenario file). Raises :class:`InputError` naming
    the path, the value and what is allowed.
    """
    if isinstance(rulings, dict):
        unknown = set(rulings) - set(Rulings.__dataclass_fields__) - {"edition"}
        unknown = {k for k in unknown if not k.startswith("_")}
        if unknown:
            allowed = ", ".join(k for k in Rulings.__dataclass_fields__ if not k.startswith("_"))
            raise InputError(f"{where}: unknown ruling {sorted(unknown)[0]!r} (allowed: {allowed})")
        rulings = Rulings(**{"edition": edition, **rulings})
    elif rulings is None:
        rulings = Rulings(edition=edition)
    try:
        rulings = rulings.resolved()
    except InputError as err:
        raise InputError(f"{where}: {err}") from None
    data = DATA.load(overrides, where, _validate)
    return Rules(data=data, rulings=rulings, overrides=dict(overrides or {}))


def _validate(data: dict, where: str) -> None:
    comp = data["components"]
    stone_colours = comp["stone_colours"]
    dice = comp["dice"]
    _check(
        1 <= len(dice) <= MAX_DICE_PER_PLAYER and all(2 <= f <= MAX_FACES for f in dice),
        f"{where}: components.dice",
        dice,
        f"1 to {MAX_DICE_PER_PLAYER} dice, each with 2 to {MAX_FACES} faces",
    )
    for key, low, high in (
        ("stones_per_colour", 0, 1000),
        ("delver_cards_dealt", 0, 100),
        ("hidden_ruins_per_player", 0, 10),
        ("stone_faces_max", 1, 100),
        ("min_players", 2, 100),
        ("max_players", 2, 100),
    ):
        check_count(comp, key, f"{where}: components", low, high)
    _check(
        2 <= comp["min_players"] <= comp["max_players"],
        f"{where}: components.max_players",
        comp["max_players"],
        f">= min_players ({comp['min_players']})",
    )
    for n in range(comp["min_players"], comp["max_players"] + 1):
        bp = comp["by_players"].get(str(n))
        _check(bp is not None, f"{where}: components.by_players", n, "an entry per player count")
        check_count(bp, "revealed", f"{where}: components.by_players.{n}", 1, 1000)
        check_count(bp, "removed", f"{where}: components.by_players.{n}", 0, 1000)

    ruins = data["ruins"]
    colours = ruins["colours"]
    for r in ruins["ruin"]:
        rid = r["id"]
        _check(
            r["colour"] in colours, f"{where}: ruins.{rid}.colour", r["colour"], ", ".join(colours)
        )
        _check(r["claim"] >= 1, f"{where}: ruins.{rid}.claim", r["claim"], "a positive integer")
        _check_reachable(r["claim"], comp, f"{where}: ruins.{rid}.claim")
        check_count(r, "stones", f"{where}: ruins.{rid}", 0, 1000)
    n_ruins = len(ruins["ruin"])
    for n in range(comp["min_players"], comp["max_players"] + 1):
        bp = comp["by_players"][str(n)]
        need = n * comp["hidden_ruins_per_player"] + bp["removed"] + bp["revealed"]
        _check(
            need <= n_ruins,
            f"{where}: components.by_players.{n}",
            bp,
            f"hidden + removed + revealed <= {n_ruins} ruins",
        )
    for c in data["end_of_age"]["card"]:
        cid = c["id"]
        _check(
            c["kind"] in ("event", "ruin"),
            f"{where}: end_of_age.{cid}.kind",
            c["kind"],
            "event, ruin",
        )
        if c["kind"] == "ruin":
            _check(
                c["claim"] >= 1,
                f"{where}: end_of_age.{cid}.claim",
                c["claim"],
                "a positive integer",
            )
            _check_reachable(c["claim"], comp, f"{where}: end_of_age.{cid}.claim")
            check_count(c, "stones", f"{where}: end_of_age.{cid}", 0, 1000)
        else:
            _check(
                c["effect"] in ("day_of_rest", "roll_modifier"),
                f"{where}: end_of_age.{cid}.effect",
                c["effect"],
                "day_of_rest, roll_modifier",
            )
    _check(len(data["end_of_age"]["card"]) >= 1, f"{where}: end_of_age", "no cards", ">= 1 card")
    for d in data["delvers"]["delver"]:
        did = d["id"]
        check_count(d, "copies", f"{where}: delvers.{did}", 0, 1000)
        _check(
            d["effect"].upper() in Delver.__members__,
            f"{where}: delvers.{did}.effect",
            d["effect"],
            ", ".join(m.lower() for m in Delver.__members__),
        )
    deck = sum(d["copies"] for d in data["delvers"]["delver"])
    _check(deck >= 1, f"{where}: delvers", 0, "at least one delver card in the deck")
    dealt = comp["delver_cards_dealt"] * comp["max_players"]
    _check(
        deck >= dealt,
        f"{where}: delvers",
        f"{deck} cards",
        f"at least delver_cards_dealt x max_players = {dealt} cards to deal at set-up",
    )
    _validate_compensation(data["seat_compensation"], comp, deck, where)
    for c in data["end_of_age"]["card"]:
        if c.get("effect") == "day_of_rest":
            check_count(c, "amount", f"{where}: end_of_age.{c['id']}", 0, 100)
    effects = {m.lower() for m in WonderEffect.__members__}
    for w in data["named_wonders"]["wonder"]:
        wid = w["id"]
        f = w["formula"]
        kinds = ", ".join(m.lower() for m in Formula.__members__)
        _check(
            f.get("kind", "").upper() in Formula.__members__,
            f"{where}: named_wonders.{wid}.formula.kind",
            f.get("kind"),
            kinds,
        )
        if f["kind"] == "at_least":
            _check(
                f.get("colour") in stone_colours,
                f"{where}: named_wonders.{wid}.formula.colour",
                f.get("colour"),
                ", ".join(stone_colours),
            )
            _check(
                1 <= f.get("count", 0) <= 6,
                f"{where}: named_wonders.{wid}.formula.count",
                f.get("count"),
                "1 to 6",
            )
        _check(
            w["effect"] in effects,
            f"{where}: named_wonders.{wid}.effect",
            w["effect"],
            ", ".join(sorted(effects)),
        )
    tok = data["wonder_tokens"]
    for pile in ("lesser", "greater"):
        _check(
            isinstance(tok[pile], list),
            f"{where}: wonder_tokens.{pile}",
            tok[pile],
            "a list of integers",
        )
    sc = data["scoring"]
    per_colour = max(
        (sum(1 for r in ruins["ruin"] if r["colour"] == c) for c in colours), default=0
    )
    _check(
        len(sc["set_points"]) >= per_colour + 1,
        f"{where}: scoring.set_points",
        sc["set_points"],
        f"a list of at least {per_colour + 1} values (0 to {per_colour} ruins of a colour)",
    )
    _check(
        sc["wonder_bonus_threshold"] >= 1,
        f"{where}: scoring.wonder_bonus_threshold",
        sc["wonder_bonus_threshold"],
        ">= 1",
    )


#: most extra delver cards a seat-compensation knob may give one seat
MAX_EXTRA_DELVERS = 20


def _validate_compensation(sc: dict, comp: dict, deck: int, where: str) -> None:
    """The seat-compensation knobs: counts from 0 to :data:`MAX_EXTRA_DELVERS`, a
    list no longer than the seats, and a delver deck that deals them all in the
    smallest game (with more players, the deal stops when the deck is empty, as
    every draw does: values a balance search tries at 2 players stay legal)."""
    w = f"{where}: seat_compensation"
    for key in ("delver_cards_per_seat", "delver_cards_last_seat"):
        check_count(sc, key, w, 0, MAX_EXTRA_DELVERS)
    by_seat = sc["delver_cards_by_seat"]
    _check(
        len(by_seat) <= comp["max_players"] and all(0 <= v <= MAX_EXTRA_DELVERS for v in by_seat),
        f"{w}.delver_cards_by_seat",
        by_seat,
        f"a list of at most {comp['max_players']} counts (one per seat, the first player's "
        f"first), each 0 to {MAX_EXTRA_DELVERS}",
    )
    n = comp["min_players"]
    extra = extra_delvers(sc, n)
    need = comp["delver_cards_dealt"] * n + sum(extra)
    _check(
        need <= deck,
        f"{w}",
        f"{sum(extra)} extra cards with {n} players ({extra})",
        f"at most {deck - comp['delver_cards_dealt'] * n}: the delver deck holds {deck} "
        f"cards and deals {comp['delver_cards_dealt']} to each player first",
    )


def _check_reachable(claim: int, comp: dict, where: str) -> None:
    """A claim value some dice can reach: at most every player's dice on the ruin,
    each showing its highest face (a modifier never takes a die past its faces)."""
    most = comp["max_players"] * sum(comp["dice"])
    _check(
        claim <= most,
        where,
        claim,
        f"1 to {most}: {comp['max_players']} players x dice {comp['dice']} showing "
        "their highest faces; a higher claim is never reached and no game ends",
    )


# --------------------------------------------------------------------------- arrays


def _build_tables(data: dict, rulings: Rulings) -> Tables:
    import numpy as np

    ruins = data["ruins"]
    colours = ruins["colours"]
    stone_colours = data["components"]["stone_colours"]
    eoa = data["end_of_age"]["card"]
    cards = ruins["ruin"]
    n = len(cards) + len(eoa)
    kind = np.zeros(n, np.int64)
    colour = np.full(n, -1, np.int64)
    claim = np.zeros(n, np.int64)
    stones = np.zeros(n, np.int64)
    points = np.zeros(n, np.int64)
    event = np.zeros(n, np.int64)
    amount = np.zeros(n, np.int64)
    for i, r in enumerate(cards):
        kind[i] = CardKind.RUIN
        colour[i] = colours.index(r["colour"])
        claim[i] = r["claim"]
        stones[i] = r["stones"]
    for j, c in enumerate(eoa):
        i = len(cards) + j
        if c["kind"] == "ruin":
            kind[i] = CardKind.CITY
            claim[i] = c["claim"]
            stones[i] = c["stones"]
            points[i] = c.get("points", 0)
        else:
            kind[i] = CardKind.EVENT
            event[i] = EventEffect[c["effect"].upper()]
            amount[i] = c.get("amount", 0)
    dv = data["delvers"]["delver"]
    nw = data["named_wonders"]["wonder"]
    comp = data["components"]
    maxp = comp["max_players"]
    removed = np.zeros(maxp + 1, np.int64)
    revealed = np.zeros(maxp + 1, np.int64)
    for k, v in comp["by_players"].items():
        if int(k) <= maxp:
            removed[int(k)] = v["removed"]
            revealed[int(k)] = v["revealed"]
    sc = data["scoring"]
    return Tables(
        card_kind=kind,
        card_colour=colour,
        card_claim=claim,
        card_stones=stones,
        card_points=points,
        card_event=event,
        card_amount=amount,
        n_ruins=len(cards),
        n_ruin_colours=len(colours),
        delver_effect=np.array([Delver[d["effect"].upper()] for d in dv], np.int64),
        delver_copies=np.array([d["copies"] for d in dv], np.int64),
        delver_amount=np.array([d.get("amount", 0) for d in dv], np.int64),
        delver_faces=np.array([d.get("faces", 0) for d in dv], np.int64),
        wonder_formula=np.array([Formula[w["formula"]["kind"].upper()] for w in nw], np.int64),
        wonder_colour=np.array(
            [
                stone_colours.index(w["formula"]["colour"])
                if w["formula"]["kind"] == "at_least"
                else -1
                for w in nw
            ],
            np.int64,
        ),
        wonder_count=np.array([w["formula"].get("count", 0) for w in nw], np.int64),
        wonder_points=np.array([w["points"] for w in nw], np.int64),
        wonder_effect=np.array([WonderEffect[w["effect"].upper()] for w in nw], np.int64),
        wonder_amount=np.array([w.get("amount", 0) for w in nw], np.int64),
        wonder_faces=np.array([w.get("faces", 0) for w in nw], np.int64),
        wonder_low=np.array([w.get("reroll_low", 0) for w in nw], np.int64),
        wonder_high=np.array([w.get("reroll_high", 0) for w in nw], np.int64),
        lesser_values=np.array(data["wonder_tokens"]["lesser"], np.int64),
        greater_values=np.array(data["wonder_tokens"]["greater"], np.int64),
        set_points=np.array(sc["set_points"], np.int64),
        five_colour_set=int(sc["five_colour_set"]),
        bonus_threshold=int(sc["wonder_bonus_threshold"]),
        bonus_points=int(sc["wonder_bonus_points"]),
        bonus_mode=int(WonderBonus[rulings.wonder_bonus.upper()]),
        tomb_mode=int(TombMode[rulings.tomb.upper()]),
        token_fallback=bool(rulings.token_fallback),
        dice_faces=np.array(comp["dice"], np.int64),
        n_stone_colours=len(stone_colours),
        stones_per_colour=int(comp["stones_per_colour"]),
        stone_faces_max=int(comp["stone_faces_max"]),
        delver_dealt=int(comp["delver_cards_dealt"]),
        hidden_per_player=int(comp["hidden_ruins_per_player"]),
        removed_by_players=removed,
        revealed_by_players=revealed,
        min_players=int(comp["min_players"]),
        max_players=int(maxp),
        card_mods_on_forced_rerolls=bool(rulings.card_mods_on_forced_rerolls),
        neigh=_neighbours(),
        extra_delvers=_extra_delvers(data["seat_compensation"], maxp),
    )


def extra_delvers(comp: dict, n_players: int) -> list[int]:
    """The extra delver cards each seat of an ``n_players`` game is dealt at set-up
    under the ``seat_compensation`` knobs ``comp`` (seat 0 = the first player)."""
    by_seat = list(comp["delver_cards_by_seat"])
    return [
        seat * comp["delver_cards_per_seat"]
        + (comp["delver_cards_last_seat"] if seat == n_players - 1 else 0)
        + (by_seat[seat] if seat < len(by_seat) else 0)
        for seat in range(n_players)
    ]


def _extra_delvers(comp: dict, max_players: int) -> np.ndarray:
    import numpy as np  # where the kernels' tables are built (see the imports above)

    out = np.zeros((max_players + 1, max_players), np.int64)
    for n in range(2, max_players + 1):
        out[n, :n] = extra_delvers(comp, n)
    return out


# --------------------------------------------------------------------------- the rules


@dataclass(frozen=True)
class Rules(GameRules, version=RULES_VERSION, build=_build_tables):
    """Resolved Unearth rules: data (for people), :class:`Rulings` and :attr:`tables`
    (for kernels)."""

    # Name lookups for reports and the CLI ---------------------------------
    ruin_colours = listed("ruins", "colours")
    stone_colours = listed("components", "stone_colours")
    delver_ids, delver_names = cards("delvers", "delver", "id", "name")
    wonder_ids, wonder_names = cards("named_wonders", "wonder", "id", "name")

    @property
    def card_ids(self) -> list[str]:
        return [r["id"] for r in self.data["ruins"]["ruin"]] + [
            c["id"] for c in self.data["end_of_age"]["card"]
        ]


def default_rules() -> Rules:
    """The English edition with the shipped data."""
    return load_rules()
