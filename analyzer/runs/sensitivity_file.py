"""A scenario's ``[sensitivity]``: its table validated, and what the study plays.

``sensitivity = true`` or ``[sensitivity]`` with ``games`` (per configuration)
and ``values`` (``"all"`` or a list of assumed keys); :func:`plan` lists, from
the game's :meth:`~analyzer.games.Game.assumed_values`, every end of every
declared range to play (``low``/``high`` or ``alternatives``). The scenario the
study plays is built by :func:`analyzer.runs.scenario_file.sensitivity_scenario`; the
study itself is :mod:`analyzer.studies.sensitivity`. Part of the file format: imports no
study and not the scenario file (which imports this module).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from analyzer.core.errors import InputError, bad_value

#: games per configuration of the study unless ``[sensitivity] games`` says otherwise
DEFAULT_GAMES = 2000
SENSITIVITY_KEYS = ("games", "values")


@dataclass(frozen=True)
class SensitivitySpec:
    """A scenario's ``[sensitivity]``: ``games`` per configuration and the assumed
    values to move (``"all"``: every one with a declared range)."""

    games: int = DEFAULT_GAMES
    values: str | tuple[str, ...] = "all"

    def as_dict(self) -> dict:
        return {
            "games": self.games,
            "values": self.values if isinstance(self.values, str) else list(self.values),
        }


def parse_sensitivity(value, where: str) -> SensitivitySpec | None:
    """``sensitivity = true | false`` or ``[sensitivity]`` with ``games`` and ``values``."""
    from analyzer.runs.runner import MAX_GAMES

    if isinstance(value, bool):
        return SensitivitySpec() if value else None
    if not isinstance(value, dict):
        raise bad_value(
            f"{where}: sensitivity",
            value,
            'true, false or a table with games and values ("all" or a list of assumed keys)',
        )
    for key in value:
        if key not in SENSITIVITY_KEYS:
            raise InputError(
                f"{where}: unknown key 'sensitivity.{key}' (allowed: {', '.join(SENSITIVITY_KEYS)})"
            )
    games = value.get("games", DEFAULT_GAMES)
    if isinstance(games, bool) or not isinstance(games, int) or not 2 <= games <= MAX_GAMES:
        raise bad_value(f"{where}: sensitivity.games", games, f"an integer from 2 to {MAX_GAMES:,}")
    values = value.get("values", "all")
    if values != "all":
        ok = (
            isinstance(values, list)
            and len(values) >= 1
            and all(isinstance(v, str) for v in values)
            and len(set(values)) == len(values)
        )
        if not ok:
            raise bad_value(
                f"{where}: sensitivity.values",
                values,
                '"all" or a list of assumed keys, each once',
            )
        values = tuple(values)
    return SensitivitySpec(games=games, values=values)


def plan(sc, where: str = "", max_cells: int = 64) -> dict:
    """What the study plays: ``{"moves": [...], "not_varied": [...]}``. A move is
    ``{"key", "path", "end", "value", "current", "range_note"}``, one per end of a
    declared range (an end equal to the value played is left out); values not
    varied say why (no range declared, or the scenario sets them itself)."""
    game = sc.game_def
    rules = game.load_rules(sc.rulings, sc.overrides, f"{where}: rules")
    rows = list(game.assumed_values(rules))
    ranged = {r["key"]: r for r in rows if "path" in r}
    spec = sc.sensitivity
    if spec.values != "all":
        for key in spec.values:
            if key not in ranged:
                raise bad_value(
                    f"{where}: sensitivity.values",
                    key,
                    ", ".join(ranged) or "none: this game declares no assumed range",
                )
    chosen = list(ranged) if spec.values == "all" else list(spec.values)
    moves, not_varied = [], []
    for r in rows:
        if r["key"] not in chosen:
            why = r.get("range_note") or "no range declared"
            if r["key"] in ranged:
                why = "not asked for (sensitivity.values)"
            not_varied.append({"key": r["key"], "why": why})
            continue
        if r["path"] in sc.overrides:
            not_varied.append({"key": r["key"], "why": "set by the scenario's [overrides]"})
            continue
        if "alternatives" in r:
            ends = [(f"alternative {i + 1}", v) for i, v in enumerate(r["alternatives"])]
        else:
            ends = [("low", r["low"]), ("high", r["high"])]
        for end, v in ends:
            if _same(v, r["current"]):
                continue
            moves.append(
                {
                    "key": r["key"],
                    "path": r["path"],
                    "end": end,
                    "value": v,
                    "current": r["current"],
                    "range_note": r.get("range_note", ""),
                }
            )
    if len(moves) + 1 > max_cells:
        raise bad_value(
            f"{where}: sensitivity.values",
            f"{len(moves) + 1} configurations",
            f"at most {max_cells}: name fewer assumed values",
        )
    return {"moves": moves, "not_varied": not_varied}


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def move_label(m: dict) -> str:
    """``epochs.III.per_colour = 2 (low)``."""
    v = m["value"]
    text = "[" + ",".join(map(str, v)) + "]" if isinstance(v, list) else str(v)
    return f"{m['path']} = {text} ({m['end']})"
