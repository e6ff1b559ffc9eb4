"""Ruling switches described as data: each open reading of a rulebook, its values,
its default and what each value means.

A game lists its rulings as :class:`Ruling` rows. :func:`check_rulings` turns a
scenario's ``[rules]`` table (or ``--rule NAME=VALUE``) into a complete dict of
checked values, with the canonical one-line errors; :func:`ruling_lines` is the
text of ``analyzer games --rules GAME``. A game whose rulings are older code
(Unearth, Colorful Treasure) still describes them here, so that every game's
rulings are listed the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.core.errors import InputError, bad_value


@dataclass(frozen=True)
class Ruling:
    """One ruling switch: ``values`` (the first is not necessarily the default),
    ``default``, and ``meanings``: one line per value, in the order of ``values``."""

    name: str
    values: tuple
    default: object
    meanings: tuple[str, ...]
    note: str = ""  #: one line on why the reading is open, or what it changes

    def __post_init__(self) -> None:
        if self.default not in self.values or len(self.meanings) != len(self.values):
            raise ValueError(f"ruling {self.name}: default or meanings do not fit its values")

    def allowed(self) -> str:
        return ", ".join(_word(v) for v in self.values)


def _word(value) -> str:
    """A value as a scenario file writes it (``true``, not ``True``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def check_rulings(rulings: tuple[Ruling, ...], given: dict | None, where: str) -> dict:
    """Every ruling's value: ``given`` (name -> value) over the defaults.

    Raises :class:`InputError` for an unknown name (``where: unknown ruling 'x'
    (allowed: ...)``) or a value not allowed (``where: rules.NAME: bad value 'x'
    (allowed: a, b)``)."""
    by_name = {r.name: r for r in rulings}
    given = dict(given or {})
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise InputError(f"{where}: unknown ruling {unknown[0]!r} (allowed: {', '.join(by_name)})")
    out = {}
    for r in rulings:
        value = given.get(r.name, r.default)
        # bool is a subclass of int: compare type and value, so 1 is not true
        if not any(type(value) is type(v) and value == v for v in r.values):
            raise bad_value(f"{where}: rules.{r.name}", value, r.allowed())
        out[r.name] = value
    return out


def ruling_lines(rulings: tuple[Ruling, ...]) -> list[str]:
    """Human-readable lines: each ruling, its values (default marked ``*``) and
    one line of meaning per value."""
    if not rulings:
        return ["  (no ruling switches)"]
    lines = []
    for r in rulings:
        values = ", ".join(_word(v) + ("*" if v == r.default else "") for v in r.values)
        lines.append(f"  {r.name} = {values}")
        if r.note:
            lines.append(f"      {r.note}")
        for v, text in zip(r.values, r.meanings, strict=True):
            lines.append(f"      {_word(v)}: {text}")
    return lines
