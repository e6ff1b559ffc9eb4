"""Uruk rules as data: load the deck files, apply overrides, validate, build arrays.

Implements "Components", "Inventions", the epoch costs and "Scoring" of
``docs/games/uruk.md``. Every card value lives in ``data/*.toml`` (one file per
deck); no kernel holds a card value. A designer changes any value with an
override path (see :func:`load_rules`). Values the rulebook does not give are
flagged ``assumed = true`` in the data and listed by :func:`assumed_values`.

The result is a :class:`Rules`: the resolved data (plain dicts, for manifests
and reports) and :attr:`Rules.tables`, a NamedTuple of arrays and ints that is
the only thing kernels see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from analyzer.core.errors import InputError
from analyzer.games.data import check as _check
from analyzer.games.data import check_count
from analyzer.games.rules_data import Decks, GameRules, cards, listed
from analyzer.games.rulings import Ruling, check_rulings
from analyzer.uruk.codes import (
    ANY,
    N_BARS,
    OWN,
    CardAction,
    Counts,
    Effect,
    EpochCost,
    GodEffect,
    GodKind,
)

if TYPE_CHECKING:  # numpy where the kernels' tables are built: rules are checked without it
    import numpy as np

#: Names the engine's behaviour; changes only when simulated behaviour changes.
RULES_VERSION = "uruk-rules-2"

DECKS = ("inventions", "gods", "epochs", "components", "scoring", "seat_compensation")
#: the list key of each deck file that holds its cards (None: plain keys)
CARD_LIST = {
    "inventions": "invention",
    "gods": "card",
    "epochs": "epoch",
    "components": None,
    "scoring": None,
    "seat_compensation": None,
}
#: the deck files, read once; an override may change any field of a card but
#: those that identify it
DATA = Decks("analyzer.uruk", CARD_LIST, fixed=("id", "name", "note"))

#: fields each effect of the vocabulary needs
EFFECT_FIELDS = {
    "none": (),
    "take_resources": ("extra", "applies_to"),
    "make_discount": ("saved", "applies_to", "min_level"),
    "settlement_discount": ("saved",),
    "card_action": ("action", "amount"),
    "end_points": ("points", "per", "counts"),
    "bid_bonus": ("none", "village", "city"),
}
N_EPOCHS = 4

#: The readings the rulebook leaves open (``docs/games/uruk.md``, "Rulings"): each
#: a switch of a scenario's ``[rules]`` or ``--rule NAME=VALUE``. The defaults are
#: what the engine played before the switches existed.
RULINGS = (
    Ruling(
        "settlement_on_replace",
        ("moves", "to_pool"),
        "moves",
        (
            "the village or city moves onto the new invention",
            "the replaced invention's stones go back to the pool",
        ),
        "replacing an invention that carries a settlement: the rulebook allows it "
        "but does not say where the stones go",
    ),
    Ruling(
        "half_price_card",
        ("discarded", "kept"),
        "discarded",
        (
            "Marduk/Nannar are discarded at once; the winner keeps one half-price "
            "right (a second one before it is used adds nothing)",
            "the card lies before the winner until its half-price stone is placed, "
            "then is discarded; each card held is one half-price stone",
        ),
        "the rulebook has the winner lay the card before them as a reminder",
    ),
    Ruling(
        "replaced_discount",
        ("counts", "lost"),
        "counts",
        (
            "a make discount of the invention being replaced applies to the new one",
            "the invention being replaced gives no make discount",
        ),
    ),
    Ruling(
        "half_price_rounding",
        ("per_colour", "total"),
        "per_colour",
        (
            "each colour's amount is halved, rounded up (3 x 2 different: 2 + 2)",
            "the whole cost is halved, rounded up, spread over the same colours "
            "(3 x 2 different: 2 + 1)",
        ),
    ),
    Ruling(
        "trade_empty_pool",
        ("refused", "from_players"),
        "refused",
        (
            "a hand card is traded only while the pool holds its colour",
            "a colour the pool lacks is taken as when taking resources: from the "
            "player holding most of it",
        ),
    ),
    Ruling(
        "empty_bid",
        ("refused", "allowed"),
        "refused",
        (
            "every bid and raise in a god auction adds at least one hand card",
            "a bid of no cards is allowed (a bid bonus alone can bid)",
        ),
    ),
)
RULING_NAMES = tuple(r.name for r in RULINGS)


class Tables(NamedTuple):
    """Everything a kernel knows about the rules. Inventions are indexed as the
    rows of ``data/inventions.toml``, god cards as the rows of ``data/gods.toml``;
    colours as ``components.colours``. All arrays int64."""

    inv_colour: np.ndarray  #: [n_inv] colour index
    inv_level: np.ndarray  #: [n_inv] level 1..4 (a card's value in bids)
    inv_copies: np.ndarray  #: [n_inv] cards in the game
    inv_forbidden: np.ndarray  #: [max_players, n_inv] 1: that seat may not make it
    inv_effect: np.ndarray  #: [n_inv] Effect
    inv_amount: np.ndarray  #: [n_inv] extra / saved / card-action amount / points
    inv_colour_param: np.ndarray  #: [n_inv] applies_to: colour index, OWN or ANY
    inv_level_param: np.ndarray  #: [n_inv] make_discount min_level; end_points per
    inv_kind_param: np.ndarray  #: [n_inv] CardAction or Counts
    inv_bid: np.ndarray  #: [n_inv, 3] bid bonus with no settlement / village / city
    god_kind: np.ndarray  #: [n_gods] GodKind
    god_effect: np.ndarray  #: [n_gods] GodEffect
    god_amount: np.ndarray  #: [n_gods]
    god_copies: np.ndarray  #: [n_gods]
    epoch_stones: np.ndarray  #: [4, max_players + 1] stones at set-up by player count
    epoch_villages_only: np.ndarray  #: [4]
    epoch_cost: np.ndarray  #: [4] EpochCost
    epoch_per_colour: np.ndarray  #: [4]
    epoch_colours: np.ndarray  #: [4]
    setup_discard: np.ndarray  #: [max_players + 1] deck cards discarded at set-up
    #: [max_players, N_BARS] 1: restricted play bars that seat from trading (BAR_TRADE)
    #: or from bidding in god auctions (BAR_GODS); all 0 as printed
    seat_bar: np.ndarray
    n_inv: int
    n_gods: int
    n_colours: int
    resources_per_colour: int
    settlement_stones: int
    hand_size: int
    start_resources: int
    #: [max_players + 1, max_players] extra resources taken at set-up with n players
    #: by seat p (``seat_compensation``, a balancing knob; all 0 as printed)
    extra_resources: np.ndarray
    display_size: int
    max_inventions: int
    actions_per_turn: int
    hand_limit: int
    first_reshuffle_removed: int
    max_turns: int
    bare_points: int
    village_factor: int
    city_factor: int
    resources_per_point: int
    min_players: int
    max_players: int
    # ruling switches (RULINGS), 0 = the default reading
    stones_to_pool: int  #: settlement_on_replace = "to_pool"
    card_kept: int  #: half_price_card = "kept"
    replaced_no_discount: int  #: replaced_discount = "lost"
    half_of_total: int  #: half_price_rounding = "total"
    trade_from_players: int  #: trade_empty_pool = "from_players"
    empty_bid: int  #: empty_bid = "allowed"


def default_rulings() -> dict:
    """Every ruling at its default."""
    return {r.name: r.default for r in RULINGS}


# --------------------------------------------------------------------------- loading


def base_data() -> dict:
    """The shipped deck files as one dict ``{deck: contents}`` (a fresh copy)."""
    return DATA.copy()


def default_rules() -> Rules:
    """The rules as shipped, no overrides."""
    return load_rules()


def load_rules(
    overrides: dict[str, Any] | None = None,
    *,
    rulings: dict[str, Any] | None = None,
    where: str = "rules",
) -> Rules:
    """Load the shipped data, apply ``overrides``, validate; ``rulings`` sets the
    :data:`RULINGS` switches (the others keep their defaults).

    ``overrides`` maps a dotted path to a new value: ``"<deck>.<card id>.<field>"``
    for decks with cards (``inventions``, ``gods``, ``epochs``; the id may be a
    glob: ``"gods.*.copies" = 0``), ``"<deck>.<key>"`` for ``components`` and
    ``scoring``. A new value has the type of the value it replaces. Raises
    :class:`InputError` naming ``where``, the path, the value and what is allowed.
    """
    checked = check_rulings(RULINGS, rulings, where)
    data = DATA.load(overrides, where, _validate)
    return Rules(data=data, overrides=dict(overrides or {}), rulings=checked)


def extra_resources(comp: dict, n_players: int) -> list[int]:
    """The extra resources each seat of an ``n_players`` game takes at set-up under
    the ``seat_compensation`` knobs ``comp`` (seat 0 = the first player)."""
    by_seat = list(comp["resources_by_seat"])
    return [
        seat * comp["resources_per_seat"]
        + (comp["resources_later_seats"] if seat > 0 else 0)
        + (comp["resources_last_seat"] if seat == n_players - 1 else 0)
        + (by_seat[seat] if seat < len(by_seat) else 0)
        for seat in range(n_players)
    ]


def _extra_resources(comp: dict, max_players: int) -> np.ndarray:
    import numpy as np  # where the kernels' tables are built (see the imports above)

    out = np.zeros((max_players + 1, max_players), np.int64)
    for n in range(2, max_players + 1):
        out[n, :n] = extra_resources(comp, n)
    return out


def _validate_compensation(data: dict, where: str) -> None:
    """The seat-compensation knobs: counts from 0, a list no longer than the seats,
    and no seat taking more than the pool holds of a colour in the smallest game
    (with more players a seat takes what is left of its colour, as at set-up)."""
    sc, comp = data["seat_compensation"], data["components"]
    w = f"{where}: seat_compensation"
    most = comp["resources_per_colour"] - comp["start_resources"]
    for key in ("resources_per_seat", "resources_later_seats", "resources_last_seat"):
        check_count(sc, key, w, 0, max(most, 0))
    by_seat = sc["resources_by_seat"]
    _check(
        len(by_seat) <= comp["max_players"] and all(0 <= v <= most for v in by_seat),
        f"{w}.resources_by_seat",
        by_seat,
        f"a list of at most {comp['max_players']} counts (one per seat, the first player's "
        f"first), each 0 to {most}",
    )
    n = comp["min_players"]
    extra = max(extra_resources(sc, n))
    _check(
        extra <= most,
        w,
        f"{extra} extra resources for one seat with {n} players",
        f"at most {most}: a colour has {comp['resources_per_colour']} resources and each "
        f"seat takes {comp['start_resources']} first",
    )


def _names(enum) -> list[str]:
    return [m.lower() for m in enum.__members__]


def _validate(data: dict, where: str) -> None:
    comp = data["components"]
    colours = comp["colours"]
    lo, hi = comp["min_players"], comp["max_players"]
    _check(2 <= lo <= hi <= 4, f"{where}: components.max_players", hi, "2 <= min_players <= 4")
    for key in (
        "resources_per_colour",
        "hand_size",
        "start_resources",
        "display_size",
        "max_inventions",
        "actions_per_turn",
        "hand_limit",
        "max_turns",
    ):
        _check(comp[key] >= 1, f"{where}: components.{key}", comp[key], ">= 1")
    _check(
        comp["display_size"] <= 3,
        f"{where}: components.display_size",
        comp["display_size"],
        "1 to 3",
    )
    _check(
        comp["max_inventions"] <= 8,
        f"{where}: components.max_inventions",
        comp["max_inventions"],
        "1 to 8",
    )
    _check(
        len(comp["setup_discard"]) == 3 and min(comp["setup_discard"]) >= 0,
        f"{where}: components.setup_discard",
        comp["setup_discard"],
        "three counts >= 0 (2, 3, 4 players)",
    )
    _check(
        comp["first_reshuffle_removed"] >= 0,
        f"{where}: components.first_reshuffle_removed",
        comp["first_reshuffle_removed"],
        ">= 0",
    )
    invs = data["inventions"]["invention"]
    levels = {1, 2, 3, 4}
    for r in invs:
        rid = r["id"]
        _check(
            r["colour"] in colours,
            f"{where}: inventions.{rid}.colour",
            r["colour"],
            ", ".join(colours),
        )
        _check(r["level"] in levels, f"{where}: inventions.{rid}.level", r["level"], "1 to 4")
        _check(
            0 <= r["copies"] <= 1000, f"{where}: inventions.{rid}.copies", r["copies"], "0 to 1000"
        )
        _check(
            r["effect"] in EFFECT_FIELDS,
            f"{where}: inventions.{rid}.effect",
            r["effect"],
            ", ".join(EFFECT_FIELDS),
        )
        for f in EFFECT_FIELDS[r["effect"]]:
            if f not in r:
                raise InputError(f"{where}: inventions.{rid}: effect {r['effect']!r} needs {f!r}")
        if "applies_to" in EFFECT_FIELDS[r["effect"]]:
            ok = ["own", "any", *colours]
            _check(
                r["applies_to"] in ok,
                f"{where}: inventions.{rid}.applies_to",
                r["applies_to"],
                ", ".join(ok),
            )
        if r["effect"] == "card_action":
            _check(
                r["action"] in _names(CardAction),
                f"{where}: inventions.{rid}.action",
                r["action"],
                ", ".join(_names(CardAction)),
            )
        if r["effect"] == "end_points":
            _check(
                r["counts"] in _names(Counts),
                f"{where}: inventions.{rid}.counts",
                r["counts"],
                ", ".join(_names(Counts)),
            )
            _check(r["per"] >= 1, f"{where}: inventions.{rid}.per", r["per"], ">= 1")
        for f in ("extra", "saved", "amount", "points", "none", "village", "city", "min_level"):
            if f in EFFECT_FIELDS[r["effect"]]:
                _check(r[f] >= 0, f"{where}: inventions.{rid}.{f}", r[f], ">= 0")
    _check(len(invs) <= 62, f"{where}: inventions", len(invs), "at most 62 inventions")
    ids = [r["id"] for r in invs]
    _check(
        comp["forbid"] in ["", *ids],
        f"{where}: components.forbid",
        comp["forbid"],
        'an invention id, or "" for none',
    )
    _check(
        -1 <= comp["forbid_seat"] < hi,
        f"{where}: components.forbid_seat",
        comp["forbid_seat"],
        f"-1 (every seat) or a seat 0 to {hi - 1}",
    )
    for lvl in (1, 2):
        _check(
            any(r["level"] == lvl and r["copies"] > 0 for r in invs),
            f"{where}: inventions",
            f"no level-{lvl} cards",
            f"level-{lvl} cards (set-up deals them)",
        )
    n_l1 = sum(r["copies"] for r in invs if r["level"] == 1)
    n_l2 = sum(r["copies"] for r in invs if r["level"] == 2)
    _check(n_l1 >= hi, f"{where}: inventions", f"{n_l1} level-1 cards", f">= {hi} (one per player)")
    _check(
        n_l2 >= hi * comp["hand_size"],
        f"{where}: inventions",
        f"{n_l2} level-2 cards",
        f">= {hi * comp['hand_size']} (the hands dealt at set-up)",
    )
    gods = data["gods"]["card"]
    for g in gods:
        gid = g["id"]
        _check(
            g["kind"] in _names(GodKind),
            f"{where}: gods.{gid}.kind",
            g["kind"],
            ", ".join(_names(GodKind)),
        )
        _check(
            g["effect"] in _names(GodEffect),
            f"{where}: gods.{gid}.effect",
            g["effect"],
            ", ".join(_names(GodEffect)),
        )
        _check(0 <= g["copies"] <= 1000, f"{where}: gods.{gid}.copies", g["copies"], "0 to 1000")
        _check(g["amount"] >= 0, f"{where}: gods.{gid}.amount", g["amount"], ">= 0")
    eps = data["epochs"]["epoch"]
    _check(len(eps) == N_EPOCHS, f"{where}: epochs", len(eps), "four epoch cards")
    for e in eps:
        eid = e["id"]
        _check(
            e["cost"] in _names(EpochCost),
            f"{where}: epochs.{eid}.cost",
            e["cost"],
            ", ".join(_names(EpochCost)),
        )
        _check(
            len(e["stones"]) == 3 and min(e["stones"]) >= 0,
            f"{where}: epochs.{eid}.stones",
            e["stones"],
            "three counts >= 0 (2, 3, 4 players)",
        )
        if e["cost"] == "different":
            _check(
                1 <= e["colours"] <= len(colours),
                f"{where}: epochs.{eid}.colours",
                e["colours"],
                f"1 to {len(colours)}",
            )
            _check(
                e["per_colour"] >= 1, f"{where}: epochs.{eid}.per_colour", e["per_colour"], ">= 1"
            )
    for i, n in enumerate((2, 3, 4)):
        on_cards = sum(e["stones"][i] for e in eps)
        _check(
            on_cards + n <= comp["settlement_stones"],
            f"{where}: epochs",
            on_cards,
            f"at most {comp['settlement_stones'] - n} stones on the cards for {n} players",
        )
    sc = data["scoring"]
    _check(
        sc["resources_per_point"] >= 1,
        f"{where}: scoring.resources_per_point",
        sc["resources_per_point"],
        ">= 1",
    )
    _validate_compensation(data, where)


# --------------------------------------------------------------------------- arrays


def _colour_param(value: str, own_colours: list[str]) -> int:
    if value == "own":
        return OWN
    if value == "any":
        return ANY
    return own_colours.index(value)


def _build_tables(data: dict, rulings: dict) -> Tables:
    import numpy as np

    comp = data["components"]
    colours = comp["colours"]
    invs = data["inventions"]["invention"]
    n = len(invs)
    i64 = np.int64
    colour = np.array([colours.index(r["colour"]) for r in invs], i64)
    effect = np.array([Effect[r["effect"].upper()] for r in invs], i64)
    amount = np.zeros(n, i64)
    cparam = np.full(n, OWN, i64)
    lparam = np.zeros(n, i64)
    kparam = np.zeros(n, i64)
    bid = np.zeros((n, 3), i64)
    for i, r in enumerate(invs):
        e = r["effect"]
        if e == "take_resources":
            amount[i] = r["extra"]
            cparam[i] = _colour_param(r["applies_to"], colours)
        elif e == "make_discount":
            amount[i] = r["saved"]
            cparam[i] = _colour_param(r["applies_to"], colours)
            lparam[i] = r["min_level"]
        elif e == "settlement_discount":
            amount[i] = r["saved"]
        elif e == "card_action":
            amount[i] = r["amount"]
            kparam[i] = CardAction[r["action"].upper()]
        elif e == "end_points":
            amount[i] = r["points"]
            lparam[i] = r["per"]
            kparam[i] = Counts[r["counts"].upper()]
        elif e == "bid_bonus":
            bid[i] = (r["none"], r["village"], r["city"])
    gods = data["gods"]["card"]
    eps = data["epochs"]["epoch"]
    hi = comp["max_players"]
    stones = np.zeros((N_EPOCHS, hi + 1), i64)
    discard = np.zeros(hi + 1, i64)
    for k, e in enumerate(eps):
        for i, players in enumerate((2, 3, 4)):
            if players <= hi:
                stones[k, players] = e["stones"][i]
    for i, players in enumerate((2, 3, 4)):
        if players <= hi:
            discard[players] = comp["setup_discard"][i]
    sc = data["scoring"]
    return Tables(
        inv_colour=colour,
        inv_level=np.array([r["level"] for r in invs], i64),
        inv_copies=np.array([r["copies"] for r in invs], i64),
        inv_forbidden=_forbidden(data),
        inv_effect=effect,
        inv_amount=amount,
        inv_colour_param=cparam,
        inv_level_param=lparam,
        inv_kind_param=kparam,
        inv_bid=bid,
        god_kind=np.array([GodKind[g["kind"].upper()] for g in gods], i64),
        god_effect=np.array([GodEffect[g["effect"].upper()] for g in gods], i64),
        god_amount=np.array([g["amount"] for g in gods], i64),
        god_copies=np.array([g["copies"] for g in gods], i64),
        epoch_stones=stones,
        epoch_villages_only=np.array([int(e["villages_only"]) for e in eps], i64),
        epoch_cost=np.array([EpochCost[e["cost"].upper()] for e in eps], i64),
        epoch_per_colour=np.array([e["per_colour"] for e in eps], i64),
        epoch_colours=np.array([e["colours"] for e in eps], i64),
        setup_discard=discard,
        seat_bar=np.zeros((comp["max_players"], N_BARS), i64),
        n_inv=n,
        n_gods=len(gods),
        n_colours=len(colours),
        resources_per_colour=comp["resources_per_colour"],
        settlement_stones=comp["settlement_stones"],
        hand_size=comp["hand_size"],
        start_resources=comp["start_resources"],
        extra_resources=_extra_resources(data["seat_compensation"], comp["max_players"]),
        display_size=comp["display_size"],
        max_inventions=comp["max_inventions"],
        actions_per_turn=comp["actions_per_turn"],
        hand_limit=comp["hand_limit"],
        first_reshuffle_removed=comp["first_reshuffle_removed"],
        max_turns=comp["max_turns"],
        bare_points=sc["bare_points"],
        village_factor=sc["village_factor"],
        city_factor=sc["city_factor"],
        resources_per_point=sc["resources_per_point"],
        min_players=comp["min_players"],
        max_players=hi,
        stones_to_pool=int(rulings["settlement_on_replace"] == "to_pool"),
        card_kept=int(rulings["half_price_card"] == "kept"),
        replaced_no_discount=int(rulings["replaced_discount"] == "lost"),
        half_of_total=int(rulings["half_price_rounding"] == "total"),
        trade_from_players=int(rulings["trade_empty_pool"] == "from_players"),
        empty_bid=int(rulings["empty_bid"] == "allowed"),
    )


def _forbidden(data: dict) -> np.ndarray:
    """[max_players, n_inv]: 1 where a seat may not make an invention: every seat
    for rows with ``forbidden = true``; ``components.forbid`` (an invention id)
    for seat ``components.forbid_seat`` only, or every seat if that is -1."""
    import numpy as np

    comp = data["components"]
    invs = data["inventions"]["invention"]
    out = np.zeros((comp["max_players"], len(invs)), np.int64)
    for x, r in enumerate(invs):
        if r["forbidden"]:
            out[:, x] = 1
        if r["id"] == comp["forbid"]:
            seat = comp["forbid_seat"]
            if seat < 0:
                out[:, x] = 1
            else:
                out[seat, x] = 1
    return out


# --------------------------------------------------------------------------- the rules


@dataclass(frozen=True)
class Rules(GameRules, version=RULES_VERSION, build=_build_tables):
    """Resolved Uruk rules: the data (for people), every ruling's value by name
    (:data:`RULINGS`) and :attr:`tables` (for kernels)."""

    rulings: dict = field(default_factory=default_rulings)

    colours = listed("components", "colours")
    invention_ids, invention_names = cards("inventions", "invention", "id", "name")
    god_ids, god_names = cards("gods", "card", "id", "name")

    @property
    def card_names(self) -> list[str]:
        """Names by card code: inventions, then god and disaster cards."""
        return self.invention_names + self.god_names


# --------------------------------------------------------------------------- assumed values


def _effect_text(r: dict) -> str:
    fields = ", ".join(f"{f}={r[f]}" for f in EFFECT_FIELDS[r["effect"]])
    return f"{r['colour']} level {r['level']} x{r['copies']}, {r['effect']}({fields})"


def _range(row: dict, path: str) -> dict:
    """The plausible range a data row declares for its assumed number (``vary``,
    ``low``, ``high``, ``range_note``): ``{"path", "current", "low", "high",
    "range_note"}`` (``path`` the override path it moves), or the note alone."""
    if "vary" not in row:
        return {"range_note": row.get("range_note", "no range declared")}
    return {
        "path": f"{path}.{row['vary']}",
        "current": row[row["vary"]],
        "low": row["low"],
        "high": row["high"],
        "range_note": row.get("range_note", ""),
    }


def assumed_values(rules: Rules) -> list[dict]:
    """Every value ``rules`` run with that the rulebook does not give:
    ``{"key", "value", "note"}`` rows (inventions, epoch costs, the card split),
    with the plausible range the data declares for the sensitivity study
    (``path``, ``current``, ``low``, ``high``, ``range_note``; see :func:`_range`)."""
    out = [
        {
            "key": "inventions.split",
            "value": "per colour: 1 level-1 x1, 3 level-2 x3, 2 level-3 x4, 1 level-4 x5",
            "note": "one split consistent with the rulebook's counts; copies are data",
            "range_note": "not varied: another split moves colours and levels together "
            "(a structure, not a number)",
        }
    ]
    for r in rules.data["inventions"]["invention"]:
        if r.get("assumed"):
            out.append(
                {
                    "key": f"inventions.{r['id']}",
                    "value": _effect_text(r),
                    "note": r["note"],
                    **_range(r, f"inventions.{r['id']}"),
                }
            )
    for e in rules.data["epochs"]["epoch"]:
        if e.get("assumed"):
            value = f"{e['per_colour']} x {e['colours']} different"
            out.append(
                {
                    "key": f"epochs.{e['id']}.cost",
                    "value": value,
                    "note": e["note"],
                    **_range(e, f"epochs.{e['id']}"),
                }
            )
    return out
