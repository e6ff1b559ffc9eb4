"""A scenario file's ``[balance]`` table: the balance question, validated into a spec.

Part of the scenario file format (:mod:`analyzer.runs.scenario_file` calls
:func:`parse_balance`), checked as fast as the rest of the file: every knob's
every value is built into the game's rules (no engine loads), and anything
wrong is one line naming the file, the key, the value and what is allowed.
Playing the question is :mod:`analyzer.studies.balance`.

The keys (``scenarios/README.md``, "Balancing"):

- ``knobs``: a table of override paths (the ``[overrides]`` grammar), each a
  table with ``low``/``high`` (and ``step``, default 1) or ``values`` (a list);
  integers unless the bounds are floats and the value replaced is a float;
- ``frozen``: override paths held at their printed values (none may be a knob);
- ``objectives``: a list of measures (names or tables, below);
- ``combine``: ``"weights"`` (default), ``"order"`` or ``"front"``;
- ``players``: the field (a strategy for every seat, or a list, one per seat);
- ``counts``: the player counts asked (default: the scenario's ``players``);
- ``retune``, ``games`` or ``minutes`` (the budget), ``delta`` (win points).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from analyzer.core.errors import InputError, bad_value

BALANCE_KEYS = (
    "knobs",
    "frozen",
    "objectives",
    "combine",
    "players",
    "counts",
    "retune",
    "games",
    "minutes",
    "delta",
    "rounds",
    "retune_trials",
    "retune_games",
    "rotate",
)
KNOB_KEYS = ("low", "high", "step", "values", "label")
OBJECTIVE_KEYS = ("measure", "players", "band", "column", "weight", "strategy")
MEASURES = (
    "seat_fairness",
    "strategy_viability",
    "length",
    "column",
    "edits",
    "restricted",
    "entropy",
)
#: measures validated but not computed yet (refused with a one-line "not yet")
NOT_YET = ("restricted", "entropy")
COMBINES = ("weights", "order", "front")
MAX_KNOBS = 6
MAX_VALUES = 201  #: allowed values of one knob
MAX_BUDGET = 100_000_000
MIN_BUDGET = 200
MAX_MINUTES = 24 * 60
MAX_ROUNDS = 5
DEFAULT_BUDGET = 20_000
DEFAULT_DELTA = 1.5  #: win points


@dataclass(frozen=True)
class KnobSpec:
    """One knob: an override path and the values it may take."""

    path: str
    kind: str  #: "int" | "float" | "choice"
    values: tuple  #: every allowed value, in order
    printed: object  #: the value played without the knob (the file's [overrides], else shipped)
    low: float | None = None
    high: float | None = None
    step: float | None = None
    label: str = ""

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "label": self.label or self.path,
            "printed": self.printed,
            "kind": self.kind,
            "low": self.low,
            "high": self.high,
            "step": self.step,
            "values": list(self.values) if self.kind == "choice" else None,
        }


@dataclass(frozen=True)
class ObjectiveSpec:
    """One objective (lower is better once measured, see :mod:`analyzer.studies.balance`)."""

    id: str
    measure: str
    players: int | None = None
    band: tuple[float, float] | None = None
    column: str | None = None
    weight: float = 1.0

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "measure": self.measure,
            "players": self.players,
            "band": list(self.band) if self.band is not None else None,
            "column": self.column,
            "weight": self.weight,
        }


@dataclass(frozen=True)
class BalanceSpec:
    """A validated ``[balance]`` table."""

    knobs: tuple[KnobSpec, ...]
    objectives: tuple[ObjectiveSpec, ...]
    field: tuple[
        str, ...
    ]  #: one strategy per seat at the largest count (a single name: every seat)
    counts: tuple[int, ...]
    frozen: tuple[str, ...] = ()
    combine: str = "weights"
    retune: bool = False
    games: int = DEFAULT_BUDGET  #: the budget in games (all counts, search and fresh)
    minutes: float | None = None
    delta: float = DEFAULT_DELTA  #: win points
    rounds: int = 2  #: most re-tuning rounds
    retune_trials: int = 8
    retune_games: int = 200
    #: a field of several strategies played in every cyclic seat order (seat rates
    #: then average over the strategies; a strategy's over the seats)
    rotate: bool = False
    extra: dict = field(default_factory=dict)

    def field_at(self, players: int) -> tuple[str, ...]:
        """The strategies of every seat at ``players`` seats."""
        if len(self.field) == 1:
            return self.field * players
        return self.field[:players]

    def as_dict(self) -> dict:
        return {
            "knobs": [k.as_dict() for k in self.knobs],
            "frozen": list(self.frozen),
            "objectives": [o.as_dict() for o in self.objectives],
            "combine": self.combine,
            "players": list(self.field),
            "counts": list(self.counts),
            "retune": self.retune,
            "games": self.games,
            "minutes": self.minutes,
            "delta": self.delta,
            "rounds": self.rounds,
            "retune_trials": self.retune_trials,
            "retune_games": self.retune_games,
            "rotate": self.rotate,
        }


# --------------------------------------------------------------------------- parsing


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v) -> bool:
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)


def _check(cond: bool, where: str, key: str, value, allowed: str) -> None:
    if not cond:
        raise bad_value(f"{where}: {key}", value, allowed)


def _unknown(table: dict, allowed: tuple[str, ...], where: str, prefix: str) -> None:
    for key in table:
        if key not in allowed:
            raise InputError(
                f"{where}: unknown key '{prefix}.{key}' (allowed: {', '.join(allowed)})"
            )


def _knob_tables(value: dict) -> dict[str, dict]:
    """Path -> knob table; TOML reads an unquoted dotted path as nested tables."""
    flat: dict[str, dict] = {}

    def walk(prefix: str, t) -> None:
        for k, v in t.items():
            path = f"{prefix}.{k}" if prefix else k
            if isinstance(v, dict) and not any(x in v for x in KNOB_KEYS):
                walk(path, v)
            else:
                flat[path] = v

    walk("", value)
    return flat


def parse_balance(game, value, where: str, players, rulings: dict, overrides: dict) -> BalanceSpec:
    """Validate a ``[balance]`` table. ``players`` is the scenario's (the default count),
    ``rulings``/``overrides`` its base rules (the knobs' printed values come from them)."""
    _check(
        isinstance(value, dict), where, "balance", value, f"a table of {', '.join(BALANCE_KEYS)}"
    )
    _unknown(value, BALANCE_KEYS, where, "balance")
    base_rules = game.load_rules(rulings, overrides, f"{where}: rules")
    lo, hi = game.player_range(base_rules)

    # counts
    counts = value.get("counts", players)
    if counts is None:
        raise InputError(
            f"{where}: missing key 'balance.counts' (the scenario has no 'players' to take)"
        )
    if _is_int(counts):
        counts = [counts]
    allowed = f"a player count from {max(lo, 2)} to {hi}, or a list of them"
    _check(
        isinstance(counts, list) and 1 <= len(counts) <= hi,
        where,
        "balance.counts",
        value.get("counts", players),
        allowed,
    )
    for c in counts:
        _check(_is_int(c) and max(lo, 2) <= c <= hi, where, "balance.counts", c, allowed)
    _check(
        len(set(counts)) == len(counts),
        where,
        "balance.counts",
        counts,
        "a list naming each player count once",
    )
    counts = tuple(sorted(counts))

    # the field
    names = game.strategy_names()
    fld = value.get("players", game.default_strategy)
    if isinstance(fld, str):
        fld = [fld]
    top = max(counts)
    allowed = f"a strategy for every seat, or a list of {top} (one per seat), from " + ", ".join(
        names
    )
    _check(
        isinstance(fld, list) and len(fld) in (1, top),
        where,
        "balance.players",
        value.get("players"),
        allowed,
    )
    if len(fld) > 1 and len(counts) > 1:
        raise bad_value(
            f"{where}: balance.players",
            fld,
            "one strategy for every seat when several counts are asked",
        )
    for s in fld:
        _check(s in names, where, "balance.players", s, ", ".join(names))
    slow = {s.name for s in game.strategies if s.slow}
    for s in fld:
        _check(
            s not in slow,
            where,
            "balance.players",
            s,
            "a strategy that is not a search ("
            + ", ".join(n for n in names if n not in slow)
            + ")",
        )

    # knobs
    knobs_raw = value.get("knobs")
    if knobs_raw is None:
        raise InputError(
            f"{where}: missing key 'balance.knobs' (allowed: a table of override paths, "
            'e.g. [balance.knobs."wonder_tokens.lesser"] low = 1, high = 4)'
        )
    _check(
        isinstance(knobs_raw, dict) and knobs_raw,
        where,
        "balance.knobs",
        knobs_raw,
        "a table of override paths, each with low/high/step or values",
    )
    tables = _knob_tables(knobs_raw)
    _check(
        len(tables) <= MAX_KNOBS, where, "balance.knobs", list(tables), f"at most {MAX_KNOBS} knobs"
    )
    knobs = tuple(
        _knob(game, path, t, where, rulings, overrides, counts) for path, t in tables.items()
    )

    # frozen
    frozen = value.get("frozen", [])
    if isinstance(frozen, str):
        frozen = [frozen]
    _check(
        isinstance(frozen, list) and all(isinstance(f, str) for f in frozen),
        where,
        "balance.frozen",
        frozen,
        "a list of override paths",
    )
    for f in frozen:
        shipped = overrides.get(f, game.override_example(f))
        if shipped is None:
            _check(
                False,
                where,
                "balance.frozen",
                f,
                "an override path of the game (as in [overrides])",
            )
        game.load_rules(rulings, {**overrides, f: shipped}, f"{where}: balance.frozen")
        for k in knobs:
            clash = k.path == f or k.path.startswith(f + ".") or f.startswith(k.path + ".")
            _check(
                not clash,
                where,
                "balance.frozen",
                f,
                f"a path that is not a knob (knob {k.path!r} is also frozen)",
            )

    # the rest
    combine = value.get("combine", "weights")
    _check(combine in COMBINES, where, "balance.combine", combine, ", ".join(COMBINES))
    retune = value.get("retune", False)
    _check(isinstance(retune, bool), where, "balance.retune", retune, "true or false")
    if "games" in value and "minutes" in value:
        raise InputError(f"{where}: balance: give 'games' or 'minutes', not both")
    games = value.get("games", DEFAULT_BUDGET)
    _check(
        _is_int(games) and MIN_BUDGET <= games <= MAX_BUDGET,
        where,
        "balance.games",
        games,
        f"an integer from {MIN_BUDGET} to {MAX_BUDGET:,}",
    )
    minutes = value.get("minutes")
    _check(
        minutes is None or (_is_num(minutes) and 0 < minutes <= MAX_MINUTES),
        where,
        "balance.minutes",
        minutes,
        f"a number of minutes above 0, at most {MAX_MINUTES}",
    )
    delta = value.get("delta", DEFAULT_DELTA)
    _check(
        _is_num(delta) and 0 < delta < 50,
        where,
        "balance.delta",
        delta,
        "win points above 0 and below 50 (e.g. 1.5)",
    )
    rounds = value.get("rounds", 2)
    _check(
        _is_int(rounds) and 0 <= rounds <= MAX_ROUNDS,
        where,
        "balance.rounds",
        rounds,
        f"an integer from 0 to {MAX_ROUNDS}",
    )
    rt = value.get("retune_trials", 8)
    _check(
        _is_int(rt) and 1 <= rt <= 200,
        where,
        "balance.retune_trials",
        rt,
        "an integer from 1 to 200",
    )
    rg = value.get("retune_games", 200)
    _check(
        _is_int(rg) and 10 <= rg <= 1_000_000,
        where,
        "balance.retune_games",
        rg,
        "an integer from 10 to 1,000,000",
    )
    if retune:
        tunable = {s.name for s in game.strategies if not s.frozen and not s.slow and s.params}
        _check(
            any(s in tunable for s in fld),
            where,
            "balance.retune",
            retune,
            "false: no strategy of the field has parameters to re-tune (tunable: "
            + (", ".join(sorted(tunable)) or "none")
            + ")",
        )

    rotate = value.get("rotate", len(set(fld)) > 1)
    _check(isinstance(rotate, bool), where, "balance.rotate", rotate, "true or false")
    objectives = _objectives(game, value.get("objectives"), where, counts, fld, base_rules)
    return BalanceSpec(
        knobs=knobs,
        objectives=objectives,
        field=tuple(fld),
        counts=counts,
        frozen=tuple(frozen),
        combine=combine,
        retune=retune,
        games=games,
        minutes=float(minutes) if minutes is not None else None,
        delta=float(delta),
        rounds=rounds,
        retune_trials=rt,
        retune_games=rg,
        rotate=bool(rotate and len(set(fld)) > 1),
    )


def _knob(game, path: str, t, where: str, rulings: dict, overrides: dict, counts) -> KnobSpec:
    key = f"balance.knobs.{path}"
    _check(isinstance(t, dict), where, key, t, "a table with low and high (and step), or values")
    _unknown(t, KNOB_KEYS, where, key)
    shipped = overrides.get(path, game.override_example(path))
    if shipped is None:
        raise InputError(
            f"{where}: {key}: unknown override path {path!r} (allowed: a path of the game's "
            "data, as in [overrides]; 'analyzer games' lists them)"
        )
    if isinstance(shipped, dict):
        raise bad_value(f"{where}: {key}", path, "a path naming one value, not a table")
    label = t.get("label", "")
    _check(isinstance(label, str), where, f"{key}.label", label, "a string")
    if "values" in t:
        if any(k in t for k in ("low", "high", "step")):
            raise InputError(f"{where}: {key}: give 'values' or 'low'/'high'/'step', not both")
        values = t["values"]
        _check(
            isinstance(values, list) and 2 <= len(values) <= MAX_VALUES,
            where,
            f"{key}.values",
            values,
            f"a list of 2 to {MAX_VALUES} values",
        )
        _check(
            len({repr(v) for v in values}) == len(values),
            where,
            f"{key}.values",
            values,
            "a list naming each value once",
        )
        numeric = all(_is_num(v) for v in values)
        kind = "choice"
        if numeric and all(_is_int(v) for v in values) and isinstance(shipped, int):
            kind = "int" if values == sorted(values) else "choice"
        low = high = step = None
    else:
        for k in ("low", "high"):
            if k not in t:
                raise InputError(
                    f"{where}: {key}: missing key '{k}' (allowed: low and high, with an "
                    "optional step; or values)"
                )
        low, high = t["low"], t["high"]
        step = t.get("step", 1)
        for k, v in (("low", low), ("high", high), ("step", step)):
            _check(_is_num(v), where, f"{key}.{k}", v, "a number")
        _check(low < high, where, f"{key}.high", high, f"a number above low ({low})")
        _check(step > 0, where, f"{key}.step", step, "a number above 0")
        floats = any(isinstance(v, float) for v in (low, high, step))
        if floats and not isinstance(shipped, float):
            raise bad_value(
                f"{where}: {key}",
                [low, high, step],
                f"integers: the value it replaces is {shipped!r} (a printed number)",
            )
        if isinstance(shipped, bool) or not isinstance(shipped, int | float):
            raise bad_value(
                f"{where}: {key}",
                [low, high, step],
                f"values = [...] (the value it replaces, {shipped!r}, is not a number)",
            )
        n = int(math.floor((high - low) / step + 1e-9)) + 1
        _check(
            2 <= n <= MAX_VALUES,
            where,
            key,
            [low, high, step],
            f"bounds and step giving 2 to {MAX_VALUES} values",
        )
        if floats:
            kind = "float"
            values = [round(low + i * step, 10) for i in range(n)]
        else:
            kind = "int"
            values = [low + i * step for i in range(n)]
    for v in values:  # each value builds the rules, at every count asked
        try:
            rules = game.load_rules(rulings, {**overrides, path: v}, f"{where}: {key}")
        except InputError as err:
            msg = str(err)
            raise InputError(msg if key in msg else f"{where}: {key}: {msg}") from None
        lo, hi = game.player_range(rules)
        for c in counts:
            _check(
                lo <= c <= hi,
                where,
                key,
                v,
                f"values that allow {c} players (this one: {lo} to {hi})",
            )
    if isinstance(shipped, float) and kind == "int":
        kind = "float"
        values = [float(v) for v in values]
    return KnobSpec(path, kind, tuple(values), shipped, low, high, step, label)


def _objectives(game, value, where: str, counts, fld, rules) -> tuple[ObjectiveSpec, ...]:
    if value is None:
        value = ["seat_fairness"]
    if isinstance(value, str | dict):
        value = [value]
    _check(
        isinstance(value, list) and value,
        where,
        "balance.objectives",
        value,
        "a list of measures: " + ", ".join(MEASURES),
    )
    out: list[ObjectiveSpec] = []
    for i, o in enumerate(value):
        key = f"balance.objectives[{i}]"
        if isinstance(o, str):
            o = {"measure": o}
        _check(isinstance(o, dict), where, key, o, "a measure name or a table with 'measure'")
        _unknown(o, OBJECTIVE_KEYS, where, key)
        m = o.get("measure")
        _check(m in MEASURES, where, f"{key}.measure", m, ", ".join(MEASURES))
        if m in NOT_YET:
            raise InputError(
                f"{where}: {key}.measure: {m!r} is not computed by the balance search yet "
                f"(allowed now: {', '.join(x for x in MEASURES if x not in NOT_YET)})"
            )
        weight = o.get("weight", 1.0)
        _check(
            _is_num(weight) and weight >= 0, where, f"{key}.weight", weight, "a number, 0 or more"
        )
        band = o.get("band")
        if band is not None:
            _check(
                isinstance(band, list)
                and len(band) == 2
                and all(map(_is_num, band))
                and band[0] <= band[1],
                where,
                f"{key}.band",
                band,
                "[low, high]: two numbers, low <= high",
            )
            band = (float(band[0]), float(band[1]))
        asked = o.get("players")
        if asked is not None:
            _check(
                asked in counts,
                where,
                f"{key}.players",
                asked,
                "a player count asked in balance.counts: " + ", ".join(map(str, counts)),
            )
        at = [asked] if asked is not None else list(counts)
        column = o.get("column")
        if m == "column":
            cols = [c.name for c in game.columns(rules) if c.kind not in ("label",)]
            cols = ["score", "game_turns", *cols]
            _check(
                isinstance(column, str) and column in cols,
                where,
                f"{key}.column",
                column,
                ", ".join(cols),
            )
            _check(
                band is not None,
                where,
                f"{key}.band",
                band,
                "[low, high]: the band the column's mean should keep to",
            )
        elif column is not None:
            raise InputError(f'{where}: {key}.column: only with measure = "column"')
        if m == "length":
            _check(
                band is not None,
                where,
                f"{key}.band",
                band,
                "[low, high]: the band of turns a game should take",
            )
        if m == "strategy_viability":
            for n in at:
                seats = fld * n if len(fld) == 1 else fld[:n]
                _check(
                    len(set(seats)) >= 2,
                    where,
                    f"{key}.measure",
                    m,
                    "a field of at least two strategies (balance.players, one per seat) "
                    f"at {n} players",
                )
        if m == "seat_fairness" and band is not None:
            raise InputError(f"{where}: {key}.band: seat fairness aims at 0 (no band)")
        if m in ("edits",):
            out.append(ObjectiveSpec("edits", m, None, band, None, float(weight)))
            continue
        for n in at:
            oid = {
                "seat_fairness": f"fairness_{n}p",
                "strategy_viability": f"viability_{n}p",
                "length": f"length_{n}p",
                "column": f"{column}_{n}p",
            }[m]
            out.append(ObjectiveSpec(oid, m, n, band, column, float(weight)))
    ids = [o.id for o in out]
    dup = [x for x in ids if ids.count(x) > 1]
    if dup:
        raise InputError(f"{where}: balance.objectives: {dup[0]!r} is asked twice")
    if not any(o.measure == "seat_fairness" for o in out):
        pass  # other objectives alone are allowed (the certificate is still on the seats)
    return tuple(out)
