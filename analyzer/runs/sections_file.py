"""A scenario file's ``[ladder]`` and ``[tune]`` tables: validated into specs.

Part of the scenario file format (:mod:`analyzer.runs.scenario_file` calls
:func:`parse_ladder` and :func:`parse_tune`): one-line errors naming the file,
key, value and what is allowed. Playing the sections, their files and words are
the studies' (:mod:`analyzer.studies.sections`), which re-exports these names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from analyzer.core.errors import InputError, bad_value

LADDER_KEYS = ("players", "strategies", "games", "anchor", "bootstrap")
TUNE_KEYS = (
    "strategy",
    "players",
    "field",
    "params",
    "bounds",
    "trials",
    "games",
    "confirm_games",
)
#: most games per line-up of a ladder (every game's win shares are kept for the bootstrap)
MAX_LADDER_GAMES = 1_000_000
MAX_BOOTSTRAP = 100_000
MAX_TRIALS = 10_000
MAX_TUNE_GAMES = 10_000_000


@dataclass(frozen=True)
class LadderSpec:
    """A validated ``[ladder]`` table."""

    players: int
    strategies: tuple[str, ...]
    games: int  #: per line-up
    anchor: str
    bootstrap: int

    def as_dict(self) -> dict:
        return {
            "players": self.players,
            "strategies": list(self.strategies),
            "games": self.games,
            "anchor": self.anchor,
            "bootstrap": self.bootstrap,
        }


@dataclass(frozen=True)
class TuneSpec:
    """A validated ``[tune]`` table."""

    strategy: str
    players: int
    field: tuple[str, ...]  #: one strategy per other seat
    params: tuple[str, ...]
    bounds: dict = field(default_factory=dict)  #: param -> (low, high) given in the file
    trials: int = 40
    games: int = 400  #: per trial
    confirm_games: int = 2000

    def as_dict(self) -> dict:
        return {
            "strategy": self.strategy,
            "players": self.players,
            "field": list(self.field),
            "params": list(self.params),
            "bounds": {k: list(v) for k, v in self.bounds.items()},
            "trials": self.trials,
            "games": self.games,
            "confirm_games": self.confirm_games,
        }


# --------------------------------------------------------------------------- parsing


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check(cond: bool, where: str, key: str, value, allowed: str) -> None:
    if not cond:
        raise bad_value(f"{where}: {key}", value, allowed)


def _unknown(table: dict, allowed: tuple[str, ...], where: str, prefix: str) -> None:
    for key in table:
        if key not in allowed:
            raise InputError(
                f"{where}: unknown key '{prefix}.{key}' (allowed: {', '.join(allowed)})"
            )


def _players(table: dict, default, where: str, key: str, lo: int, hi: int) -> int:
    players = table.get("players", default)
    if players is None:
        raise InputError(
            f"{where}: missing key '{key}.players' (the scenario has no 'players' to take)"
        )
    what = f"{key}.players" if "players" in table else "players"
    _check(_is_int(players) and lo <= players <= hi, where, what, players,
           f"an integer from {lo} to {hi}")  # fmt: skip
    return players


def _count(table: dict, key: str, default: int, lo: int, hi: int, where: str, section: str) -> int:
    v = table.get(key, default)
    _check(_is_int(v) and lo <= v <= hi, where, f"{section}.{key}", v,
           f"an integer from {lo} to {hi:,}")  # fmt: skip
    return v


def parse_ladder(game, value, where: str, players, rules) -> LadderSpec:
    """Validate a ``[ladder]`` table; ``players`` is the scenario's (the default),
    ``rules`` its base rules (for the player range)."""
    _check(isinstance(value, dict), where, "ladder", value, f"a table of {', '.join(LADDER_KEYS)}")
    _unknown(value, LADDER_KEYS, where, "ladder")
    lo, hi = game.player_range(rules)
    players = _players(value, players, where, "ladder", max(lo, 2), hi)
    names = game.strategy_names()
    strategies = value.get("strategies", list(names))
    allowed = "a list of at least two strategy names from " + ", ".join(names)
    _check(isinstance(strategies, list), where, "ladder.strategies", strategies, allowed)
    for s in strategies:
        _check(s in names, where, "ladder.strategies", s, ", ".join(names))
    _check(len(set(strategies)) == len(strategies), where, "ladder.strategies", strategies,
           "a list naming each strategy once")  # fmt: skip
    _check(len(strategies) >= 2, where, "ladder.strategies", strategies, allowed)
    games = _count(value, "games", 500, 2, MAX_LADDER_GAMES, where, "ladder")
    yardstick = game.yardstick_name()
    default_anchor = yardstick if yardstick in strategies else strategies[0]
    anchor = value.get("anchor", default_anchor)
    _check(anchor in strategies, where, "ladder.anchor", anchor,
           "one of the ladder's strategies: " + ", ".join(strategies))  # fmt: skip
    bootstrap = _count(value, "bootstrap", 1000, 0, MAX_BOOTSTRAP, where, "ladder")
    return LadderSpec(players, tuple(strategies), games, anchor, bootstrap)


def parse_tune(game, value, where: str, players, rules) -> TuneSpec:
    """Validate a ``[tune]`` table (see :func:`parse_ladder`)."""
    _check(isinstance(value, dict), where, "tune", value, f"a table of {', '.join(TUNE_KEYS)}")
    _unknown(value, TUNE_KEYS, where, "tune")
    by_name = {s.name: s for s in game.strategies}
    tunable = [s.name for s in game.strategies if not s.frozen and not s.slow and s.params]
    strategy = value.get("strategy", game.tune_strategy_name())
    _check(strategy in tunable, where, "tune.strategy", strategy,
           ", ".join(tunable) + (f" ({strategy} is frozen)" if strategy in by_name and
                                 by_name[strategy].frozen else ""))  # fmt: skip
    lo, hi = game.player_range(rules)
    players = _players(value, players, where, "tune", max(lo, 2), hi)
    names = game.strategy_names()
    others = [n for n in names if n != strategy]
    if "field" in value:
        fld = value["field"]
        allowed = f"a strategy, or a list of {players - 1} (one per other seat), from " + (
            ", ".join(others)
        )
        if isinstance(fld, str):
            fld = [fld]
        _check(isinstance(fld, list) and len(fld) in (1, players - 1), where, "tune.field",
               value["field"], allowed)  # fmt: skip
        mates = [s for s in game.row_strategies if s != strategy]
        can_self = strategy in game.row_strategies and bool(mates)
        if can_self:  # self-play: the tuned strategy's shipped row (analyzer.studies.tuning)
            fld = [strategy if s == "self" else s for s in fld]
        for s in fld:
            _check(s in others or (can_self and s == strategy), where, "tune.field", s,
                   ", ".join(others) + (", self (its shipped row)" if can_self else "")
                   + (f" (not the tuned {strategy}: it would change too)" if s == strategy
                      else ""))  # fmt: skip
    else:
        default = game.yardstick_name()
        if default == strategy:
            raise InputError(
                f"{where}: tune.field: the default opponent {default!r} is the tuned strategy "
                f"(allowed: name another strategy: {', '.join(others)})"
            )
        fld = [default]
    if len(fld) == 1:
        fld = fld * (players - 1)
    declared = [p for p, _ in by_name[strategy].params]
    ranged = {p for p, _, _ in by_name[strategy].bounds}
    params = value.get("params", [p for p in declared if p in ranged] or declared)
    if isinstance(params, str):
        params = [params]
    _check(isinstance(params, list) and len(params) >= 1, where, "tune.params", params,
           "a list of parameter names from " + ", ".join(declared))  # fmt: skip
    for p in params:
        _check(p in declared, where, "tune.params", p, ", ".join(declared))
    _check(len(set(params)) == len(params), where, "tune.params", params,
           "a list naming each parameter once")  # fmt: skip
    bounds_raw = value.get("bounds", {})
    _check(isinstance(bounds_raw, dict), where, "tune.bounds", bounds_raw,
           "a table: parameter = [low, high]")  # fmt: skip
    bounds = {}
    for p, b in bounds_raw.items():
        _check(p in params, where, "tune.bounds", p,
               "a searched parameter: " + ", ".join(params))  # fmt: skip
        ok = (
            isinstance(b, list)
            and len(b) == 2
            and all((_is_int(x) or isinstance(x, float)) and math.isfinite(x) for x in b)
            and b[0] < b[1]
        )
        _check(ok, where, f"tune.bounds.{p}", b, "[low, high]: two finite numbers, low < high")
        bounds[p] = (float(b[0]), float(b[1]))
    for p in params:  # a parameter without a declared range (recall) needs one named
        _check(not ranged or p in ranged or p in bounds, where, "tune.params", p,
               f"{', '.join(sorted(ranged))} ({p} has no declared range: give one in "
               f"tune.bounds)")  # fmt: skip
    trials = _count(value, "trials", 40, 1, MAX_TRIALS, where, "tune")
    games = _count(value, "games", 400, 1, MAX_TUNE_GAMES, where, "tune")
    confirm = _count(value, "confirm_games", 2000, 0, MAX_TUNE_GAMES, where, "tune")
    return TuneSpec(strategy, players, tuple(fld), tuple(params), bounds, trials, games, confirm)
