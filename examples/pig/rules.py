"""Pig's rules as data: ``data/rules.toml`` read and checked, the ruling switch
``end``, and the table the kernels read (README.md, "Components", "The end").

A kernel never holds a rule's number as a constant: numba freezes module
globals when it compiles, so every value a scenario may change reaches the
kernels as a field of :class:`Tables`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from analyzer.core.errors import InputError, bad_value
from analyzer.games.rulings import Ruling, check_rulings

#: changes only when the games played change (written into every manifest)
RULES_VERSION = "pig-1"
DATA = Path(__file__).with_name("data") / "rules.toml"
#: the ruling switches, each reading described (``analyzer games --rules pig``)
RULINGS = (
    Ruling(
        "end",
        ("at_once", "round"),
        "at_once",
        (
            "the first score to reach the target wins at once",
            "the round is played to its end; the highest score wins, ties share",
        ),
        "folk rules differ on whether the last round is finished (README.md, 'The end')",
    ),
)


class Tables(NamedTuple):
    """What the kernels read of the rules (a kernel view: scalars only here)."""

    faces: int  #: faces of the die
    bust: int  #: the face that ends a turn with nothing banked
    target: int  #: banked points that end the game
    max_turns: int  #: safety stop
    end_round: int  #: 1: ruling end = "round" (play the round out)


@dataclass(frozen=True)
class Rules:
    """One reading of the rules: the data's values (with overrides) and the ruling."""

    values: tuple[tuple[str, int], ...]  #: (name, value) of every data value
    end: str = "at_once"

    @property
    def tables(self) -> Tables:
        v = dict(self.values)
        end_round = int(self.end == "round")
        return Tables(v["faces"], v["bust"], v["target"], v["max_turns"], end_round)

    def settings(self) -> tuple[dict, dict]:
        """``(rulings, overrides)`` that :func:`load_rules` turns back into these rules."""
        shipped = read_data()
        overrides = {k: v for k, v in self.values if shipped[k] != v}
        return {"end": self.end}, overrides


def read_data(path: Path = DATA) -> dict[str, int]:
    return tomllib.loads(path.read_text("utf-8"))


def load_rules(rulings: dict | None = None, overrides: dict | None = None, where="rules") -> Rules:
    """The rules with ``rulings`` (``{"end": ...}``) and ``overrides`` (data values by
    name) applied; :class:`InputError` naming the bad key or value."""
    end = check_rulings(RULINGS, rulings, where)["end"]
    values = read_data()
    for key, value in (overrides or {}).items():
        if key not in values:
            raise InputError(f"{where}: unknown override {key!r} (allowed: {', '.join(values)})")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise bad_value(f"{where}.{key}", value, "a positive integer")
        values[key] = value
    if not 1 <= values["bust"] <= values["faces"] or values["faces"] < 2:
        raise bad_value(f"{where}.bust", values["bust"], f"a face of the d{values['faces']}")
    return Rules(tuple(sorted(values.items())), end)
