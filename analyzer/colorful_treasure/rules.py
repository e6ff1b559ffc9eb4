"""Colorful Treasure rules as data: load the data files, apply overrides, validate, build arrays.

Implements "Components", "Scoring", "Variant for young players" and the rulings
of ``docs/games/colorful_treasure.md``. Every value lives in ``data/*.toml``
(wonders, scoring, rewards, components, and the simulated players' parameters);
nothing here or in a kernel hard-codes a value. A designer changes any value
with an override path (see :func:`load_rules`) and flips any ruling with a
:class:`Rulings` switch. Values no rulebook gives carry an ``[[assumed]]`` row
(``assumed = true`` and a note) in their data file; :func:`assumed_values`
lists them with the values a run uses.

The result is a :class:`Rules`: the resolved data (plain dicts, for manifests)
plus :attr:`Rules.tables`, a NamedTuple of numpy arrays and ints that is the
only thing kernels see.
"""

from __future__ import annotations

import fnmatch
import functools
import tomllib
from dataclasses import asdict, dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any, NamedTuple

from analyzer.colorful_treasure.codes import (
    BASELINE_TILE_WORTH,
    EFFECT_NAMES,
    MAX_REVEALS,
    MAX_TILES,
    N_BARS,
    PARAM_NAMES,
    PASSIVE_EFFECTS,
    PLAYED_NAMES,
    SCALE,
    Kind,
    Slot,
)
from analyzer.core.errors import InputError, bad_value
from analyzer.games.data import check as _check
from analyzer.games.data import coerce_override
from analyzer.games.rules_data import Decks, GameRules, cards, listed

if TYPE_CHECKING:  # numpy where the kernels' tables are built: rules are checked without it
    import numpy as np

#: Names the engine's behaviour. Changes only when simulated behaviour changes;
#: written into every report and manifest.
RULES_VERSION = "colorful-treasure-rules-1"

FILES = ("wonders", "scoring", "rewards", "components", "players", "tiles", "seat_compensation")
#: the data files, read once (overrides walk their keys: :func:`load_rules`)
DATA = Decks("analyzer.colorful_treasure", dict.fromkeys(FILES))
MAX_PLAYERS = 6
MAX_COLOURS = 8
#: the kernels keep sets of cards as bits of an int64: at most 12 wonders of 5 cards
MAX_WONDERS = 12


@dataclass(frozen=True)
class Rulings:
    """The configurable rulings of ``docs/games/colorful_treasure.md``.

    - ``variant``: ``"standard"`` or ``"young"`` (no rewards, no keys or chests,
      two reveals a turn, the game ends when the grid is empty).
    - ``scoring``: ``"basic"`` or ``"advanced"`` values (the action tiles are the
      ruling ``tiles``).
    - ``take``: ``"always"`` (one kind is always taken when no key or chest is
      revealed) or ``"optional"`` (a player may take nothing).
    - ``tied_game``: ``"share"`` (tied players share the win) or ``"no_winner"``.
    - ``stolen_cards``: ``"count"`` (a card taken by a steal counts for its new
      owner's rewards from then on) or ``"ignore"`` (a card that was ever taken by
      a steal counts for nobody's rewards: not for the gem or explorer reward nor
      the treasure majority; it still scores its own points).
    - ``last_cards``: ``"reveal"`` (a turn with fewer face-down cards than it
      reveals reveals what is left) or ``"end"`` (the game ends at once instead).
    - ``tiles``: ``"none"``, ``"a"`` or ``"b"``: the action tiles, by the side face up.
    - ``tile_timing``: ``"before_rewards"`` (the tiles of a turn are taken before the
      "first to" rewards are checked, so a sixth colour tile counts that turn) or
      ``"after_rewards"`` (after the check: it counts from the next check on).
    - ``tile_offers``: ``"per_colour"`` (one offer for each colour that reaches 3 gem
      cards) or ``"per_turn"`` (at most one offer a turn, whatever the colours).
    - ``steal_pairs``: ``"markers"`` (a key marker and a chest marker make a pair;
      markers come only with cards taken from the grid) or ``"cards"`` (the key and
      chest cards a seat holds make the pairs, stolen ones included).
    """

    variant: str = "standard"
    scoring: str = "basic"
    take: str = "always"
    tied_game: str = "share"
    stolen_cards: str = "count"
    last_cards: str = "reveal"
    tiles: str = "none"
    tile_timing: str = "before_rewards"
    tile_offers: str = "per_colour"
    steal_pairs: str = "markers"

    _ALLOWED = {
        "variant": ("standard", "young"),
        "scoring": ("basic", "advanced"),
        "take": ("always", "optional"),
        "tied_game": ("share", "no_winner"),
        "stolen_cards": ("count", "ignore"),
        "last_cards": ("reveal", "end"),
        "tiles": ("none", "a", "b"),
        "tile_timing": ("before_rewards", "after_rewards"),
        "tile_offers": ("per_colour", "per_turn"),
        "steal_pairs": ("markers", "cards"),
    }

    def check(self, where: str) -> Rulings:
        for key, allowed in self._ALLOWED.items():
            val = getattr(self, key)
            if val not in allowed:
                raise bad_value(f"{where}: rules.{key}", val, ", ".join(allowed))
        if self.variant == "young" and self.tiles != "none":
            raise bad_value(
                f"{where}: rules.tiles", self.tiles, "none (the young-player variant has no tiles)"
            )
        return self

    def as_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if not k.startswith("_")}


RULING_NAMES = tuple(k for k in Rulings.__dataclass_fields__ if not k.startswith("_"))


class Tables(NamedTuple):
    """Everything a kernel needs to know about the rules, as arrays and ints.

    Card ``c`` belongs to wonder ``c // rows`` and is its slot ``c % rows``
    (:class:`~analyzer.colorful_treasure.codes.Slot`). ``-1`` means "none".
    """

    card_kind: np.ndarray  #: int64[n_cards] Kind
    card_colour: np.ndarray  #: int64[n_cards] gem colour, -1 for other cards
    card_wonder: np.ndarray  #: int64[n_cards]
    gem_points: np.ndarray  #: int64[max cards of a colour + 1] points by count
    gem_goal: np.ndarray  #: int64[max_players + 1] colours for the gem reward
    gem_reward: np.ndarray  #: int64[max_players + 1] points of the gem reward
    n_wonders: int
    rows: int  #: cards per wonder (column length)
    n_cards: int
    n_colours: int
    diamond_card: int
    plastic_diamond: int
    explorer_goal: int
    explorer_points: int
    treasure_points: int
    treasure_min: int
    rewards: int  #: 1 if the reward cards are in play
    first_reveals: int
    extra_reveals: int
    end_cards: int
    finish_round: int  #: 1: the round is finished once the end is reached
    take_optional: int
    tie_share: int
    stolen_ignore: int  #: 1: cards taken by a steal count for no reward (ruling stolen_cards)
    last_end: int  #: 1: the game ends when fewer face-down cards are left than a turn reveals
    tiles_after: int  #: 1: tiles are taken after the reward check (ruling tile_timing)
    tile_per_turn: int  #: 1: at most one tile offer a turn (ruling tile_offers)
    pair_cards: int  #: 1: key and chest cards make the pairs (ruling steal_pairs)
    n_tiles: int  #: action tiles in play (0: ruling tiles = "none")
    tile_effect: np.ndarray  #: int64[max(n_tiles, 1)] Effect of the side face up
    tile_once: np.ndarray  #: int64[...] 1: x1, discarded after use
    tile_points: np.ndarray  #: int64[...] points while held at the end
    tile_amount: np.ndarray  #: int64[...] cards or wonders a peek looks at
    tile_worth: np.ndarray  #: float64[...] the EXPECT players' worth (players.tile_worth)
    #: float64[...] ``baseline``'s worth: its frozen codes.BASELINE_TILE_WORTH, not the data
    tile_worth_base: np.ndarray
    #: int64[max_players, N_BARS] restricted play: what each seat is barred from
    #: (codes.BAR_*); all 0 as printed
    seat_bar: np.ndarray
    max_turns: int
    min_players: int
    #: int64[max_players + 1, max_players] points (60ths) seat p starts an n-player game
    #: with (``seat_compensation``, a balancing knob; all 0 as printed)
    head_start: np.ndarray
    max_players: int
    # derived, for the kernels' bit masks (bit c = card c)
    card_key: np.ndarray  #: int64[n_cards] gem colour; n_colours + 0/1/2 diamond, key, chest
    key_mask: np.ndarray  #: int64[n_colours + 3] cards of each ``card_key``
    treasure_mask: int  #: the key and chest cards


# --------------------------------------------------------------------------- loading


@functools.cache
def _tuned() -> dict:
    pkg = resources.files("analyzer.colorful_treasure")
    return tomllib.loads(pkg.joinpath("data", "strategies.toml").read_text("utf-8"))


def tuned_rows() -> dict[str, dict[int, dict[str, float]]]:
    """The tuned rows of ``data/strategies.toml``: ``{strategy: {players: {param:
    value}}}`` (the parameters ``analyzer tune`` searched; the others, such as
    ``recall``, stay those of ``data/players.toml``)."""
    where = "colorful_treasure/data/strategies.toml"
    out: dict[str, dict[int, dict[str, float]]] = {}
    for s, by_count in _tuned().get("strategies", {}).items():
        _check(s in PLAYED_NAMES[1:], f"{where}: strategies", s, ", ".join(PLAYED_NAMES[1:]))
        for n, table in by_count.items():
            _check(n in ("2", "3", "4"), f"{where}: strategies.{s}", n, "2, 3 or 4")
            row = {}
            for p, v in table["params"].items():
                _check(
                    p in PARAM_NAMES and p != "recall",
                    f"{where}: strategies.{s}.{n}.params",
                    p,
                    ", ".join(PARAM_NAMES[1:]),
                )
                row[p] = float(v)
            out.setdefault(s, {})[int(n)] = row
    return out


def base_data() -> dict:
    """The shipped data files as one dict ``{file: contents}`` (a fresh copy)."""
    return DATA.copy()


def load_rules(
    rulings: Rulings | dict | None = None,
    overrides: dict[str, Any] | None = None,
    *,
    where: str = "rules",
) -> Rules:
    """Load, override, validate.

    ``overrides`` maps a dotted path to a new value of the same type:
    ``"<file>.<key>[.<key>...]"`` into the data files, where a wonder is named
    by its id (a glob is allowed): ``"wonders.petra.colours"``,
    ``"wonders.*.treasure"``, ``"scoring.basic.plastic_diamond"``,
    ``"rewards.gem.by_players.4.points"``, ``"players.greedy.recall"``,
    ``"tiles.side.truce.points"``, ``"tiles.tile.t1.b"``.
    ``rulings`` holds the :class:`Rulings` switches (an object or a dict).
    ``where`` prefixes error messages. Raises :class:`InputError` naming the
    path, the value and what is allowed.
    """
    if isinstance(rulings, dict):
        unknown = sorted(set(rulings) - set(RULING_NAMES))
        if unknown:
            raise InputError(
                f"{where}: unknown ruling {unknown[0]!r} (allowed: {', '.join(RULING_NAMES)})"
            )
        rulings = Rulings(**rulings)
    rulings = (rulings or Rulings()).check(where)
    data = DATA.load(overrides, where, _validate, _apply_override)
    return Rules(data=data, rulings=rulings, overrides=dict(overrides or {}))


def default_rules() -> Rules:
    """The standard game, basic scoring, shipped data."""
    return load_rules()


def _keys(d: dict) -> list[str]:
    return [k for k in d if k != "assumed"]


def _apply_override(data: dict, path: str, value: Any, where: str) -> None:
    w = f"{where}: override {path!r}"
    if not isinstance(path, str):
        raise bad_value(f"{where}: override", path, "a dotted path")
    parts = path.split(".")
    if parts[0] not in data:
        raise bad_value(w, parts[0], "a path starting with " + ", ".join(FILES))
    nodes = [data[parts[0]]]
    for i, key in enumerate(parts[1:], start=1):
        last = i == len(parts) - 1
        nxt = []
        for node in nodes:
            if parts[0] == "wonders" and i == 1 and key != "colours":
                cards = [c for c in node["wonder"] if fnmatch.fnmatchcase(c["id"], key)]
                if not cards:
                    ids = ", ".join(c["id"] for c in node["wonder"])
                    raise bad_value(w, key, f"a wonder id (or glob) among {ids}, or 'colours'")
                nxt += cards
                continue
            if not isinstance(node, dict) or key not in node or key in ("assumed", "id"):
                allowed = _keys(node) if isinstance(node, dict) else []
                allowed = [a for a in allowed if a != "id"]
                raise bad_value(w, key, ", ".join(allowed) or "nothing below this key")
            if last:
                node[key] = coerce_override(node[key], value, w, tables=False)
            else:
                nxt.append(node[key])
        nodes = nxt
    if len(parts) < 2 or (parts[0] == "wonders" and len(parts) == 2 and parts[1] != "colours"):
        raise InputError(f"{w}: the path must name a value, e.g. 'wonders.petra.colours'")


def _validate(data: dict, where: str) -> None:
    won = data["wonders"]
    colours = won["colours"]
    _check(
        1 <= len(colours) <= MAX_COLOURS and len(set(colours)) == len(colours),
        f"{where}: wonders.colours",
        colours,
        f"1 to {MAX_COLOURS} different colour names",
    )
    wonders = won["wonder"]
    _check(
        2 <= len(wonders) <= MAX_WONDERS,
        f"{where}: wonders",
        len(wonders),
        f"2 to {MAX_WONDERS} wonders",
    )
    for wd in wonders:
        wid = wd["id"]
        c = wd["colours"]
        _check(
            len(c) == 3 and len(set(c)) == 3 and all(x in colours for x in c),
            f"{where}: wonders.{wid}.colours",
            c,
            "3 different colours among " + ", ".join(colours),
        )
        _check(
            wd["treasure"] in ("key", "chest"),
            f"{where}: wonders.{wid}.treasure",
            wd["treasure"],
            "key, chest",
        )
    per_colour = max(sum(c in wd["colours"] for wd in wonders) for c in colours)
    for name in ("basic", "advanced"):
        sc = data["scoring"][name]
        _check(
            len(sc["gems"]) >= per_colour + 1 and all(v >= 0 for v in sc["gems"]),
            f"{where}: scoring.{name}.gems",
            sc["gems"],
            f"a list of at least {per_colour + 1} points >= 0 (0 to {per_colour} cards)",
        )
        for key in ("diamond_card", "plastic_diamond"):
            _check(sc[key] >= 0, f"{where}: scoring.{name}.{key}", sc[key], ">= 0")
    comp = data["components"]
    lo, hi = comp["min_players"], comp["max_players"]
    _check(
        2 <= lo <= hi <= MAX_PLAYERS,
        f"{where}: components.max_players",
        hi,
        f"min_players ({lo}) to {MAX_PLAYERS}, min_players >= 2",
    )
    _check(
        1 <= comp["first_reveals"] <= MAX_REVEALS,
        f"{where}: components.first_reveals",
        comp["first_reveals"],
        f"1 to {MAX_REVEALS}",
    )
    _check(
        0 <= comp["extra_reveals"] <= MAX_REVEALS - comp["first_reveals"],
        f"{where}: components.extra_reveals",
        comp["extra_reveals"],
        f"0 to {MAX_REVEALS - comp['first_reveals']} (at most {MAX_REVEALS} reveals a turn)",
    )
    _check(comp["end_cards"] >= 0, f"{where}: components.end_cards", comp["end_cards"], ">= 0")
    _check(comp["max_turns"] >= 1, f"{where}: components.max_turns", comp["max_turns"], ">= 1")
    rew = data["rewards"]
    for n in range(lo, hi + 1):
        g = rew["gem"]["by_players"].get(str(n))
        _check(g is not None, f"{where}: rewards.gem.by_players", n, "an entry per player count")
        _check(
            1 <= g["colours"] <= len(colours),
            f"{where}: rewards.gem.by_players.{n}.colours",
            g["colours"],
            f"1 to {len(colours)}",
        )
        _check(g["points"] >= 0, f"{where}: rewards.gem.by_players.{n}.points", g["points"], ">= 0")
    ex = rew["explorer"]
    _check(
        1 <= ex["wonders"] <= len(wonders),
        f"{where}: rewards.explorer.wonders",
        ex["wonders"],
        f"1 to {len(wonders)}",
    )
    _check(ex["points"] >= 0, f"{where}: rewards.explorer.points", ex["points"], ">= 0")
    tr = rew["treasure"]
    _check(tr["points"] >= 0, f"{where}: rewards.treasure.points", tr["points"], ">= 0")
    _check(tr["min_cards"] >= 1, f"{where}: rewards.treasure.min_cards", tr["min_cards"], ">= 1")
    _validate_tiles(data, where)
    _validate_compensation(data["seat_compensation"], hi, where)
    for s in PLAYED_NAMES:
        row = data["players"][s]
        _check(
            0.0 <= row["recall"] <= 1.0,
            f"{where}: players.{s}.recall",
            row["recall"],
            "0.0 to 1.0",
        )


#: most points a seat-compensation knob may give one seat
MAX_HEAD_START = 100.0


def head_start(comp: dict, n_players: int) -> list[float]:
    """The points each seat of an ``n_players`` game starts with under the
    ``seat_compensation`` knobs ``comp`` (seat 0 = the first player)."""
    by_seat = list(comp["points_by_seat"])
    return [
        (n_players - 1 - seat) * comp["points_per_earlier_seat"]
        + (comp["points_first_seat"] if seat == 0 else 0.0)
        + (by_seat[seat] if seat < len(by_seat) else 0.0)
        for seat in range(n_players)
    ]


def _head_start(comp: dict, max_players: int) -> np.ndarray:
    """The head starts in 60ths of a point (as every score), by player count and seat."""
    import numpy as np  # where the kernels' tables are built (see the imports above)

    out = np.zeros((max_players + 1, max_players), np.int64)
    for n in range(2, max_players + 1):
        out[n, :n] = [round(v * SCALE) for v in head_start(comp, n)]
    return out


def _validate_compensation(sc: dict, hi: int, where: str) -> None:
    """The seat-compensation knobs: points from 0 to :data:`MAX_HEAD_START` a seat
    (fractions allowed: scores are kept in 60ths of a point), a list no longer
    than the seats (the sum a seat gets is not bounded: a game of more players adds
    up more)."""
    w = f"{where}: seat_compensation"
    for key in ("points_per_earlier_seat", "points_first_seat"):
        v = sc[key]
        _check(0 <= v <= MAX_HEAD_START, f"{w}.{key}", v, f"0 to {MAX_HEAD_START:g} points")
    by_seat = sc["points_by_seat"]
    _check(
        len(by_seat) <= hi and all(0 <= v <= MAX_HEAD_START for v in by_seat),
        f"{w}.points_by_seat",
        by_seat,
        f"a list of at most {hi} points (one per seat, the first player's first), "
        f"each 0 to {MAX_HEAD_START:g}",
    )


def _validate_tiles(data: dict, where: str) -> None:
    tiles = data["tiles"]
    sides = tiles["side"]
    for sid, side in sides.items():
        w = f"{where}: tiles.side.{sid}"
        _check(
            side["effect"] in EFFECT_NAMES, f"{w}.effect", side["effect"], ", ".join(EFFECT_NAMES)
        )
        _check(side["use"] in ("once", "permanent"), f"{w}.use", side["use"], "once, permanent")
        passive = EFFECT_NAMES.index(side["effect"]) in PASSIVE_EFFECTS
        _check(
            not (passive and side["use"] == "once"),
            f"{w}.use",
            side["use"],
            "permanent (the effect is always on while held)",
        )
        _check(side["points"] >= 0, f"{w}.points", side["points"], ">= 0")
        if side["effect"] in ("peek_two", "peek_three"):
            _check(side["amount"] >= 1, f"{w}.amount", side["amount"], ">= 1")
    _check(
        1 <= len(tiles["tile"]) <= MAX_TILES,
        f"{where}: tiles.tile",
        len(tiles["tile"]),
        f"1 to {MAX_TILES} tiles",
    )
    names = ", ".join(sorted(sides)) + ", unknown"
    for tid, tile in tiles["tile"].items():
        for face in ("a", "b"):
            _check(
                tile[face] in sides or tile[face] == "unknown",
                f"{where}: tiles.tile.{tid}.{face}",
                tile[face],
                names,
            )
        _check(
            tile["a"] != "unknown" or tile["b"] != "unknown",
            f"{where}: tiles.tile.{tid}.a",
            tile["a"],
            "a known side (one side of a tile at most is unknown)",
        )
    worth = data["players"]["tile_worth"]
    for name in EFFECT_NAMES:
        _check(
            name in worth and isinstance(worth[name], int | float),
            f"{where}: players.tile_worth.{name}",
            worth.get(name),
            "a number",
        )


def tile_sides(data: dict, rulings: Rulings) -> list[tuple[str, str]]:
    """``(tile id, side id)`` of each tile in play: the side the ruling ``tiles``
    picks, or the other side where that one is "unknown"."""
    if rulings.tiles == "none":
        return []
    out = []
    other = "b" if rulings.tiles == "a" else "a"
    for tid, tile in data["tiles"]["tile"].items():
        side = tile[rulings.tiles]
        out.append((tid, tile[other] if side == "unknown" else side))
    return out


def _tile_tables(data: dict, rulings: Rulings) -> dict:
    import numpy as np

    sides = tile_sides(data, rulings)
    m = max(len(sides), 1)
    eff = np.zeros(m, np.int64)
    once = np.zeros(m, np.int64)
    pts = np.zeros(m, np.int64)
    amount = np.zeros(m, np.int64)
    worth = np.zeros(m, np.float64)
    base = np.zeros(m, np.float64)
    for i, (_, sid) in enumerate(sides):
        side = data["tiles"]["side"][sid]
        eff[i] = EFFECT_NAMES.index(side["effect"])
        once[i] = int(side["use"] == "once")
        pts[i] = int(side["points"])
        amount[i] = int(side["amount"])
        worth[i] = float(data["players"]["tile_worth"][side["effect"]])
        base[i] = BASELINE_TILE_WORTH[eff[i]]
    return {
        "n_tiles": len(sides),
        "tile_effect": eff,
        "tile_once": once,
        "tile_points": pts,
        "tile_amount": amount,
        "tile_worth": worth,
        "tile_worth_base": base,
    }


# --------------------------------------------------------------------------- arrays


def _build_tables(data: dict, rulings: Rulings) -> Tables:
    import numpy as np

    won = data["wonders"]
    colours = won["colours"]
    wonders = won["wonder"]
    young = rulings.variant == "young"
    rows = Slot.DIAMOND + 1 if young else Slot.TREASURE + 1
    n = len(wonders) * rows
    kind = np.zeros(n, np.int64)
    colour = np.full(n, -1, np.int64)
    wonder = np.zeros(n, np.int64)
    for w, wd in enumerate(wonders):
        for slot in range(rows):
            c = w * rows + slot
            wonder[c] = w
            if slot <= Slot.GEM_C:
                kind[c] = Kind.GEM
                colour[c] = colours.index(wd["colours"][slot])
            elif slot == Slot.DIAMOND:
                kind[c] = Kind.DIAMOND
            else:
                kind[c] = Kind.KEY if wd["treasure"] == "key" else Kind.CHEST
    comp = data["components"]
    sc = data["scoring"][rulings.scoring]
    rew = data["rewards"]
    hi = int(comp["max_players"])
    goal = np.zeros(hi + 1, np.int64)
    gpts = np.zeros(hi + 1, np.int64)
    for k, v in rew["gem"]["by_players"].items():
        if int(k) <= hi:
            goal[int(k)] = v["colours"]
            gpts[int(k)] = v["points"]
    n_colours = len(colours)
    key = np.where(kind == Kind.GEM, colour, n_colours + kind - Kind.DIAMOND)
    key_mask = np.zeros(n_colours + 3, np.int64)
    for c in range(n):
        key_mask[key[c]] |= 1 << c
    return Tables(
        card_kind=kind,
        card_colour=colour,
        card_wonder=wonder,
        gem_points=np.array(sc["gems"], np.int64),
        gem_goal=goal,
        gem_reward=gpts,
        n_wonders=len(wonders),
        rows=int(rows),
        n_cards=int(n),
        n_colours=len(colours),
        diamond_card=int(sc["diamond_card"]),
        plastic_diamond=int(sc["plastic_diamond"]),
        explorer_goal=int(rew["explorer"]["wonders"]),
        explorer_points=int(rew["explorer"]["points"]),
        treasure_points=int(rew["treasure"]["points"]),
        treasure_min=int(rew["treasure"]["min_cards"]),
        rewards=0 if young else 1,
        first_reveals=int(comp["first_reveals"]),
        extra_reveals=0 if young else int(comp["extra_reveals"]),
        end_cards=0 if young else int(comp["end_cards"]),
        finish_round=0 if young else 1,
        take_optional=int(rulings.take == "optional"),
        tie_share=int(rulings.tied_game == "share"),
        stolen_ignore=int(rulings.stolen_cards == "ignore"),
        last_end=int(rulings.last_cards == "end"),
        tiles_after=int(rulings.tile_timing == "after_rewards"),
        tile_per_turn=int(rulings.tile_offers == "per_turn"),
        pair_cards=int(rulings.steal_pairs == "cards"),
        **_tile_tables(data, rulings),
        seat_bar=np.zeros((hi, N_BARS), np.int64),
        max_turns=int(comp["max_turns"]),
        min_players=int(comp["min_players"]),
        head_start=_head_start(data["seat_compensation"], hi),
        max_players=hi,
        card_key=key.astype(np.int64),
        key_mask=key_mask,
        treasure_mask=int(key_mask[n_colours + 1] | key_mask[n_colours + 2]),
    )


# --------------------------------------------------------------------------- the rules


@dataclass(frozen=True)
class Rules(GameRules, version=RULES_VERSION, build=_build_tables):
    """Colorful Treasure's rules once resolved: what a person reads (the data, the
    :class:`Rulings`, the players' rows) and what a kernel reads (:attr:`tables`)."""

    rulings: Rulings = field(default_factory=Rulings)

    @property
    def young(self) -> bool:
        return self.rulings.variant == "young"

    colours = listed("wonders", "colours")
    wonder_ids, wonder_names = cards("wonders", "wonder", "id", "name")

    def card_name(self, card: int) -> str:
        """``"Petra red"``, ``"Petra diamond"``, ``"Petra key"``."""
        t = self.tables
        if not 0 <= card < t.n_cards:
            return f"card {card}"
        w = int(t.card_wonder[card])
        kind = int(t.card_kind[card])
        if kind == Kind.GEM:
            what = self.colours[int(t.card_colour[card])]
        else:
            what = Kind(kind).name.lower()
        return f"{self.wonder_names[w]} {what}"

    def tile_sides(self) -> list[tuple[str, str]]:
        """``(tile id, side id)`` of each tile in play, in tile order (empty with
        ``tiles = "none"``)."""
        return tile_sides(self.data, self.rulings)

    def player_params(self, players: int | None = None) -> dict[str, dict[str, float]]:
        """Parameter row of every strategy of ``data/players.toml`` (after
        overrides); not ``baseline``'s, which is frozen (codes.BASELINE_PARAMS).

        With ``players``, each strategy's tuned row for that player count
        (``data/strategies.toml``, the nearest smaller count that has one; see
        :func:`tuned_rows`) replaces the values of ``players.toml``, except those a
        ``players.<strategy>.<param>`` override names: an override wins at every
        player count."""
        rows = {
            s: {p: float(self.data["players"][s][p]) for p in PARAM_NAMES} for s in PLAYED_NAMES
        }
        if players is None:
            return rows
        paths = [k for k in self.overrides if k.startswith("players.")]
        for s, by_count in tuned_rows().items():
            best = None
            for n, row in sorted(by_count.items()):
                if n <= players:
                    best = row
            for p, v in (best or {}).items():
                if not any(fnmatch.fnmatchcase(f"players.{s}.{p}", k) for k in paths):
                    rows[s][p] = v
        return rows

    def describe(self) -> dict:
        """JSON-able description for manifests: version, rulings, overrides, players
        (``players.toml``'s rows and the tuned rows by player count, ``tuned``: part of
        a checkpoint's fingerprint, so a run never resumes with other players)."""
        return super().describe() | {
            "players": self.player_params(),
            "tuned": {
                s: {str(n): row for n, row in sorted(by.items())} for s, by in tuned_rows().items()
            },
        }


# --------------------------------------------------------------------------- assumed values


def _value_at(data: dict, file: str, key: str) -> Any:
    if file == "wonders" and key.startswith("*."):
        fld = key[2:]
        vals = [(w["id"], w[fld]) for w in data["wonders"]["wonder"]]
        if fld == "colours":
            return "; ".join(f"{i}: {'/'.join(v)}" for i, v in vals)
        if fld == "treasure":
            return "; ".join(
                f"{k}: " + ", ".join(i for i, v in vals if v == k) for k in ("key", "chest")
            )
        return ", ".join(str(v) for _, v in vals)
    if file == "tiles" and key == "tile.*":
        return "; ".join(f"{i}: {v['a']} / {v['b']}" for i, v in data["tiles"]["tile"].items())
    node: Any = data[file]
    for part in key.split("."):
        node = node[part]
    return node


def assumed_values(rules: Rules) -> list[dict]:
    """Every ``[[assumed]]`` row of the data files with the value ``rules`` runs with:
    ``{"key": "<file>.<path>", "value", "note"}``, with the plausible range a row
    declares for the sensitivity study (``path``, ``current``, then ``low`` and
    ``high`` or ``alternatives``; ``range_note`` says how it was chosen, or why
    the value is not varied). Rows of the young-player
    variant's absent parts (keys and chests, rewards) are left out when it is played,
    and those of the action tiles when none are played."""
    out = []
    for file in FILES:
        for row in rules.data[file].get("assumed", []):
            if not row.get("assumed", False):
                continue
            key = row["key"]
            if rules.young and (file == "rewards" or key == "*.treasure"):
                continue
            if file == "scoring" and not key.startswith(rules.rulings.scoring + "."):
                continue
            if file == "tiles" and rules.rulings.tiles == "none":
                continue
            value = _value_at(rules.data, file, key)
            item = {"key": f"{file}.{key}", "value": value, "note": row.get("note", "")}
            # the plausible range the row declares for the sensitivity study: the
            # override path (the key itself), the value played and the ends
            if "low" in row or "alternatives" in row:
                item.update({"path": f"{file}.{key}", "current": value})
                if "low" in row:
                    item.update({"low": row["low"], "high": row["high"]})
                else:
                    item["alternatives"] = list(row["alternatives"])
            item["range_note"] = row.get("range_note", "no range declared")
            out.append(item)
    return out
