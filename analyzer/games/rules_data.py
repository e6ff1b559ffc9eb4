"""Reading a game's rules data, the same way in every game.

A game keeps its rules as data files, ``<package>/data/<deck>.toml`` (one per
deck of cards, or per part of the rules), read once and copied for each
:class:`GameRules` (``docs/CONTRACTS.md``). A designer replaces any value by a
dotted path (an *override*); in a deck with a list of cards the card is named
by its id, a glob allowed: ``"<deck>.<card id>.<field>"``, else
``"<deck>.<key>"``. :class:`Decks` reads the files and applies such overrides
with the one-line :class:`~analyzer.core.errors.InputError` naming the path;
a game whose paths walk deeper (Colorful Treasure's) applies its own.
:func:`listed` and :func:`cards` declare rules properties: a list of the data,
one field of every card of a deck.
"""

from __future__ import annotations

import copy
import fnmatch
import functools
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, ClassVar

from analyzer.core.errors import InputError, bad_value
from analyzer.games.data import coerce_override


class Decks:
    """The data files of ``package``: ``lists`` maps each deck (its file
    ``data/<deck>.toml``, in this order) to the key of its list of cards, or None
    for a deck of plain keys.

    ``fixed``: the fields of a card an override may not change; ``unlisted``:
    fields it may change that an error does not offer; ``tables``: whether a
    plain key holding a table may be overridden (and is offered) as a whole."""

    def __init__(
        self,
        package: str,
        lists: Mapping[str, str | None],
        *,
        fixed: Sequence[str] = ("id",),
        unlisted: Sequence[str] = (),
        tables: bool = True,
    ):
        self.package = package
        self.lists = dict(lists)
        self.fixed = tuple(fixed)
        self.unlisted = tuple(unlisted)
        self.tables = tables

    @functools.cached_property
    def shipped(self) -> dict:
        """The shipped files as one dict ``{deck: contents}``, read once (never
        changed: :meth:`copy` gives one to change)."""
        folder = resources.files(self.package).joinpath("data")
        return {
            name: tomllib.loads(folder.joinpath(f"{name}.toml").read_text("utf-8"))
            for name in self.lists
        }

    def copy(self) -> dict:
        """The shipped files as one dict ``{deck: contents}`` (a fresh copy)."""
        return copy.deepcopy(self.shipped)

    def load(
        self, overrides: dict | None, where: str, validate: Callable, apply: Callable | None = None
    ) -> dict:
        """A fresh copy of the shipped data with ``overrides`` (``{path: value}``)
        applied in order (by ``apply(data, path, value, where)``, else
        :meth:`override`), then ``validate(data, where)``."""
        data = self.copy()
        for path, value in (overrides or {}).items():
            (apply or self.override)(data, path, value, where)
        validate(data, where)
        return data

    def override(self, data: dict, path: str, value: Any, where: str) -> None:
        """Set the value ``path`` names in ``data`` to ``value`` (checked: the type
        of the value it replaces, :func:`~analyzer.games.data.coerce_override`);
        an :class:`InputError` naming ``where`` and the path, and what is allowed,
        if the path names nothing that may change."""
        parts = path.split(".")
        deck = parts[0]
        w = f"{where}: override {path!r}"
        if deck not in data:
            raise bad_value(w, deck, "a deck: " + ", ".join(self.lists))
        key = self.lists[deck]
        if key is None:
            table = data[deck]
            keys = [k for k, v in table.items() if self.tables or not isinstance(v, dict)]
            if len(parts) != 2 or parts[1] not in keys:
                allowed = ", ".join(f"{deck}.{k}" for k in keys)
                raise InputError(f"{where}: unknown override {path!r} (allowed: {allowed})")
            table[parts[1]] = coerce_override(table[parts[1]], value, w)
            return
        ids = ", ".join(c["id"] for c in data[deck][key])
        if len(parts) != 3:
            raise InputError(f"{w} must be '{deck}.<card id>.<field>' (card ids: {ids})")
        _, pattern, fld = parts
        matched = [c for c in data[deck][key] if fnmatch.fnmatchcase(c["id"], pattern)]
        if not matched:
            raise InputError(f"{w} matches no card (card ids: {ids})")
        for card in matched:
            if fld not in card or fld in self.fixed:
                allowed = ", ".join(k for k in card if k not in (*self.fixed, *self.unlisted))
                raise InputError(
                    f"{w}: card {card['id']!r} has no changeable field {fld!r} (allowed: {allowed})"
                )
            card[fld] = coerce_override(card[fld], value, w)

    def example(self, path: str) -> Any:
        """The shipped value an override path replaces (the first card a glob
        matches), or None if the path names nothing."""
        data = self.shipped
        parts = path.split(".")
        if parts[0] not in data:
            return None
        key = self.lists[parts[0]]
        if key is None:
            return copy.deepcopy(data[parts[0]].get(parts[1])) if len(parts) == 2 else None
        if len(parts) != 3:
            return None
        for card in data[parts[0]][key]:
            if fnmatch.fnmatchcase(card["id"], parts[1]) and parts[2] in card:
                return copy.deepcopy(card[parts[2]])
        return None


class _Column:
    """A rules property: the list ``data[deck][key]``, or with ``field`` that
    field of each of its cards, in the data's order."""

    def __init__(self, deck: str, key: str, field: str | None = None):
        self.deck, self.key, self.field = deck, key, field

    def __get__(self, rules, owner=None):
        if rules is None:
            return self
        values = rules.data[self.deck][self.key]
        return list(values) if self.field is None else [card[self.field] for card in values]


def listed(deck: str, key: str) -> _Column:
    """A rules property: the list ``data[deck][key]`` (a copy): ``stone_colours =
    listed("components", "stone_colours")``."""
    return _Column(deck, key)


def cards(deck: str, key: str, *fields: str) -> tuple[_Column, ...]:
    """Rules properties, one per field: that field of every card of a deck
    (``data[deck][key]``), in the data's order: ``wonder_ids, wonder_names =
    cards("named_wonders", "wonder", "id", "name")``."""
    return tuple(_Column(deck, key, f) for f in fields)


@dataclass(frozen=True)
class GameRules:
    """What a game's resolved rules share: ``data`` (plain dicts, for people and
    manifests), ``rulings`` (the game's switches), ``overrides`` (the paths
    given, ``{path: value}``) and :attr:`tables` (for the kernels), built once by
    the game's function. A game's ``Rules`` subclasses this as a frozen dataclass
    and names its rules version and that function: ``class Rules(GameRules,
    version=RULES_VERSION, build=_build_tables)``, ``build(data, rulings)``."""

    data: dict
    rulings: Any
    overrides: dict = field(default_factory=dict)

    #: names the engine's behaviour; changes only when simulated behaviour changes
    RULES_VERSION: ClassVar[str] = ""

    def __init_subclass__(cls, *, version: str = "", build: Callable | None = None, **kw):
        super().__init_subclass__(**kw)
        cls.RULES_VERSION = version or cls.RULES_VERSION
        if build is not None:
            cls._build = staticmethod(build)

    @functools.cached_property
    def tables(self):
        """The rules as the kernels see them (a NamedTuple of arrays and ints)."""
        return self._build(self.data, self.rulings)

    def ruling_values(self) -> dict:
        """Every ruling's value, by name."""
        as_dict = getattr(self.rulings, "as_dict", None)
        return as_dict() if as_dict else dict(self.rulings)

    def describe(self) -> dict:
        """JSON-able description for manifests: version, rulings, overrides (part
        of a checkpoint's fingerprint: a run never resumes under other rules)."""
        return {
            "rules_version": self.RULES_VERSION,
            "rulings": self.ruling_values(),
            "overrides": dict(self.overrides),
        }


def seat_table(per_seat: Callable[[int], Sequence[float]], max_players: int):
    """``int64[max_players + 1, max_players]``: row ``n`` holds ``per_seat(n)`` (one
    value a seat of an ``n``-player game, seat 0 first); rows 0 and 1 are zeros. How
    the games hand their seat-compensation knobs to the kernels."""
    import numpy as np

    out = np.zeros((max_players + 1, max_players), np.int64)
    for n in range(2, max_players + 1):
        out[n, :n] = per_seat(n)
    return out
