"""Checking a scenario file's values, key by key.

Each helper reads one key of a scenario file (a strategy list, a line-up, the
fields of players, an intervention, rulings, overrides, strategy parameters, a
sweep, a comparison) and returns it validated, or raises
:class:`~analyzer.core.errors.InputError` naming the file, the key, the bad value and
what is allowed. :mod:`analyzer.runs.scenario_file` puts them together.
"""

from __future__ import annotations

import json
import math
from typing import Any

from analyzer.core.errors import InputError, bad_value
from analyzer.games import Game
from analyzer.runs.scenario_types import (
    FIELD_KEYS,
    FORBID_SEATS,
    MAX_CELLS,
    MAX_FIELDS,
    MAX_SWEEP_AXES,
    ROTATIONS,
    VARIANT_KEY,
    VARIANT_KEYS,
    FieldSpec,
    Forbid,
    SweepAxis,
    Variant,
)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check(cond: bool, where: str, key: str | None, value, allowed: str) -> None:
    if not cond:
        raise bad_value(f"{where}: {key}" if key else where, value, allowed)


def _require(raw: dict, key: str, where: str) -> None:
    if key not in raw:
        raise InputError(f"{where}: missing key '{key}'")


def _unknown(raw: dict, allowed: tuple[str, ...], where: str, prefix: str) -> None:
    for key in raw:
        if key not in allowed:
            raise InputError(
                f"{where}: unknown key '{prefix}{key}' (allowed: {', '.join(allowed)})"
            )


def _strategy_list(game: Game, value, where: str, key: str) -> tuple[str, ...]:
    names = game.strategy_names()
    allowed = "a list of strategy names from " + ", ".join(names)
    _check(isinstance(value, list) and len(value) >= 1, where, key, value, allowed)
    for v in value:
        _check(v in names, where, key, v, ", ".join(names))
    return tuple(value)


def _lineup(game: Game, value, players: int, where: str, key: str) -> tuple[str, ...]:
    """A line-up: one strategy name per seat, played in every seat order."""
    lineup = _strategy_list(game, value, where, key)
    _check(
        len(lineup) == players,
        where,
        key,
        list(lineup),
        f"a list of {players} strategy names (one per seat)",
    )
    return lineup


def _fields(game: Game, value, players: int, where: str) -> tuple[FieldSpec, ...]:
    """``[fields]``: named fields of players, each a table with ``strategies`` or
    ``lineup`` (and ``rotation``), an optional ``label`` and ``strategy_params``;
    a string or a list is short for ``strategies``."""
    allowed = (
        'a table of named fields, e.g. [fields.tuned] strategies = "balanced" '
        f"(1 to {MAX_FIELDS} fields)"
    )
    ok = isinstance(value, dict) and 1 <= len(value) <= MAX_FIELDS
    _check(ok, where, "fields", value, allowed)
    out = []
    for name, spec in value.items():
        key = f"fields.{name}"
        _check(
            name.strip() != "" and "/" not in name and "|" not in name,
            where,
            "fields",
            name,
            "field names that are non-empty and hold no '/' or '|'",
        )
        if isinstance(spec, str | list):
            spec = {"strategies": spec}
        _check(
            isinstance(spec, dict),
            where,
            key,
            spec,
            "a table with 'strategies' or 'lineup' (or a strategy name, or a list of them)",
        )
        _unknown(spec, FIELD_KEYS, where, f"{key}.")
        if ("strategies" in spec) == ("lineup" in spec):
            raise InputError(
                f"{where}: {key}: give exactly one of 'strategies' (one per seat, or one for "
                "every seat) and 'lineup' (played in every seat order)"
            )
        strategies = lineup = None
        if "strategies" in spec:
            strategies = _strategies(game, spec["strategies"], players, where, f"{key}.strategies")
            if "rotation" in spec:
                raise InputError(f"{where}: {key}.rotation: only allowed with 'lineup'")
        else:
            lineup = _lineup(game, spec["lineup"], players, where, f"{key}.lineup")
        rotation = spec.get("rotation", "all")
        _check(rotation in ROTATIONS, where, f"{key}.rotation", rotation, ", ".join(ROTATIONS))
        label = spec.get("label", name)
        _check(
            isinstance(label, str) and label.strip() != "",
            where,
            f"{key}.label",
            label,
            "a non-empty string",
        )
        params = _strategy_params(
            game, spec.get("strategy_params", {}), where, f"{key}.strategy_params"
        )
        games = spec.get("games", 0)
        _check(
            "games" not in spec
            or (isinstance(games, int) and not isinstance(games, bool) and games >= 1),
            where,
            f"{key}.games",
            games,
            "a positive integer, at most the scenario's games (this field plays only these)",
        )
        out.append(FieldSpec(name, label, strategies, lineup, rotation, params, games))
    seen: set[str] = set()
    for f in out:
        if f.label in seen:
            raise bad_value(f"{where}: fields.{f.key}.label", f.label, "a label no other field has")
        seen.add(f.label)
    return tuple(out)


def _forbid(game: Game, value, where: str, key: str, players: int) -> Forbid:
    """``forbid``: ``{ <kind> = [ids], seats = "each" | "all" | seat | [seats] }`` or
    ``strategy = "name"`` instead of ``seats``; kinds and ids are the game's."""
    kinds = dict(getattr(game, "interventions", {}) or {})
    if not kinds:
        raise InputError(
            f"{where}: {key}: game {game.name!r} offers no interventions "
            "(allowed: a game that can forbid a seat something, e.g. unearth)"
        )
    example = next(iter(kinds))
    allowed_keys = (*kinds, "seats", "strategy")
    _check(
        isinstance(value, dict),
        where,
        key,
        value,
        f'a table such as {{ {example} = ["..."], seats = "each" }}',
    )
    _unknown(value, allowed_keys, where, f"{key}.")
    rules = game.load_rules({}, {}, f"{where}: {key}")
    things = []
    for kind in kinds:
        if kind not in value:
            continue
        ids = game.intervention_ids(rules, kind)
        v = value[kind]
        ok = isinstance(v, list) and len(v) >= 1 and all(isinstance(x, str) for x in v)
        _check(ok, where, f"{key}.{kind}", v, f"a non-empty list of ids from {', '.join(ids)}")
        for x in v:
            _check(x in ids, where, f"{key}.{kind}", x, ", ".join(ids))
        if len(set(v)) != len(v):
            raise bad_value(f"{where}: {key}.{kind}", v, "a list without repeated ids")
        things.append((kind, tuple(v)))
    if not things:
        raise InputError(
            f"{where}: {key}: names nothing to forbid (allowed: one of {', '.join(kinds)})"
        )
    if ("seats" in value) == ("strategy" in value):
        raise InputError(
            f'{where}: {key}: give exactly one of \'seats\' ("each" in turn, "all", a seat '
            "or a list of seats) and 'strategy' (every seat playing it)"
        )
    if "strategy" in value:
        names = game.strategy_names()
        st = value["strategy"]
        _check(st in names, where, f"{key}.strategy", st, ", ".join(names))
        return Forbid(tuple(things), None, st)
    seats = value["seats"]
    allowed = f'"each", "all", a seat from 0 to {players - 1} or a list of them'
    if isinstance(seats, str):
        _check(seats in FORBID_SEATS, where, f"{key}.seats", seats, allowed)
        return Forbid(tuple(things), seats)
    seq = [seats] if _is_int(seats) else seats
    ok = (
        isinstance(seq, list)
        and len(seq) >= 1
        and all(_is_int(x) and 0 <= x < players for x in seq)
        and len(set(seq)) == len(seq)
    )
    _check(ok, where, f"{key}.seats", seats, allowed + " (each once)")
    return Forbid(tuple(things), tuple(sorted(seq)))


def _check_interventions(forbid: Forbid | None, compare, where: str) -> None:
    """One intervention a scenario: a top-level ``forbid`` or one variant's."""
    given = [v for v in compare or () if v.forbid is not None]
    if forbid is not None and given:
        raise InputError(
            f"{where}: compare.{given[0].key}.forbid: not with a top-level 'forbid' "
            "(allowed: one intervention, in every configuration or in one variant)"
        )
    if given and len(compare) != 2:
        raise InputError(
            f"{where}: compare.{given[0].key}.forbid: only in a comparison of two variants "
            f"(this one has {len(compare)}; allowed: [compare.a] and one other)"
        )
    if len(given) > 1:
        raise InputError(
            f"{where}: compare.{given[1].key}.forbid: both variants forbid something (allowed: "
            "'forbid' in one variant; the other is the same games without it)"
        )
    if given and given[0].forbid.strategy is not None and any(v.strategies for v in compare):
        raise InputError(
            f"{where}: compare.{given[0].key}.forbid.strategy: not with compare.a/b.strategies "
            "(the seats it applies to must be the same in both variants; give 'seats')"
        )


def _strategies(game: Game, value, players: int, where: str, key: str) -> tuple[str, ...]:
    """Per-seat strategies: one name for every seat, or a list with one name per seat."""
    names = game.strategy_names()
    if isinstance(value, str):
        _check(value in names, where, key, value, ", ".join(names))
        return (value,)
    seq = _strategy_list(game, value, where, key)
    _check(
        len(seq) == players,
        where,
        key,
        list(seq),
        f"one strategy name for every seat, or a list of {players} (one per seat)",
    )
    return seq


def _table(value, where: str, key: str) -> dict:
    _check(isinstance(value, dict), where, key, value, "a table")
    return dict(value)


def _rulings(game: Game, value, where: str, key: str) -> dict:
    table = _table(value, where, key)
    allowed = game.ruling_names()
    _unknown(table, allowed, where, f"{key}.")
    return table


def _strategy_params(game: Game, value, where: str, key: str = "strategy_params") -> dict:
    """``[strategy_params]``: ``strategy = { param = number, ... }``, checked against
    the game's strategies and each one's parameters."""
    table = _table(value, where, key)
    out = {}
    for name, params in table.items():
        strat = next((s for s in game.strategies if s.name == name), None)
        tunable = ", ".join(s.name for s in game.strategies if not s.frozen)
        _check(strat is not None, where, key, name, tunable)
        _check(not strat.frozen, where, key, name, f"{tunable} ({name} is frozen)")
        known = [p for p, _ in strat.params]
        params = _table(params, where, f"{key}.{name}")
        _unknown(params, tuple(known), where, f"{key}.{name}.")
        for param, v in params.items():
            ok = _is_int(v) and abs(v) < 2**53 or isinstance(v, float) and math.isfinite(v)
            _check(ok, where, f"{key}.{name}.{param}", v, "a number")
        out[name] = {k: float(v) for k, v in params.items()}
    try:
        game.check_strategy_params(table)  # values as written, in errors too
    except InputError as err:
        raise InputError(f"{where}: {err}") from None
    return out


def _overrides(value, where: str, key: str) -> dict:
    table = _table(value, where, key)
    # TOML reads an unquoted dotted key as nested tables; flatten back to paths.
    flat: dict[str, Any] = {}

    def walk(prefix: str, t: dict) -> None:
        for k, v in t.items():
            path = f"{prefix}.{k}" if prefix else k
            if isinstance(v, dict):
                walk(path, v)
            else:
                flat[path] = v

    walk("", table)
    return flat


def _param_kind(param: str) -> tuple[str, str]:
    if param == "players":
        return "players", "players"
    if param == "edition":
        return "ruling", "edition"
    if param.startswith("rules."):
        return "ruling", param.split(".", 1)[1]
    return "override", param


def _sweep(game: Game, value, where: str) -> tuple[SweepAxis, ...]:
    if isinstance(value, dict):
        tables, keys = [value], ["sweep"]
    elif isinstance(value, list) and 1 <= len(value) <= MAX_SWEEP_AXES:
        tables, keys = value, [f"sweep[{i}]" for i in range(len(value))]
    else:
        raise bad_value(
            f"{where}: sweep", value, f"a table, or a list of 1 to {MAX_SWEEP_AXES} tables"
        )
    axes = []
    for t, key in zip(tables, keys, strict=True):
        _check(isinstance(t, dict), where, key, t, "a table with 'param' and 'values'")
        _unknown(t, ("param", "values"), where, f"{key}.")
        _require(t, "param", f"{where}: {key}")
        _require(t, "values", f"{where}: {key}")
        param = t["param"]
        _check(
            isinstance(param, str) and param != "",
            where,
            f"{key}.param",
            param,
            "players, edition, rules.<ruling> or an override path like 'ruins.*17.claim'",
        )
        kind, name = _param_kind(param)
        values = t["values"]
        _check(
            isinstance(values, list) and len(values) >= 1,
            where,
            f"{key}.values",
            values,
            "a non-empty list",
        )
        if kind == "players":
            for v in values:
                _check(_is_int(v), where, f"{key}.values", v, "a list of integers")
        elif kind == "ruling":
            allowed = game.ruling_names()
            _check(
                name in allowed,
                where,
                f"{key}.param",
                param,
                ", ".join(["edition"] + [f"rules.{r}" for r in allowed if r != "edition"]),
            )
        else:
            old = game.override_example(name)
            if old is not None:
                for v in values:
                    _check(_same_type(old, v), where, f"{key}.values", v, _type_name(old))
        seen = [json.dumps(v, sort_keys=True) for v in values]
        if len(set(seen)) != len(seen):
            raise bad_value(f"{where}: {key}.values", values, "a list without repeated values")
        axes.append(SweepAxis(param=param, values=tuple(values)))
    if len({a.param for a in axes}) != len(axes):
        raise InputError(f"{where}: sweep: the same param is swept twice")
    return tuple(axes)


def _compare(game: Game, value, where: str, players: int) -> tuple[Variant, ...]:
    """``[compare.<key>]``: variant ``a`` (the reference) and 1 to
    ``MAX_CELLS - 1`` others, each paired game by game with ``a``; ``a`` first,
    then the others in the file's order."""
    allowed = (
        "a table with variant 'a' (the reference) and 1 to "
        f"{MAX_CELLS - 1} other variants, e.g. [compare.a] and [compare.b]"
    )
    _check(isinstance(value, dict), where, "compare", value, allowed)
    if "a" not in value:
        raise InputError(f"{where}: missing key 'compare.a' (the reference variant)")
    for key in value:
        _check(
            isinstance(key, str) and VARIANT_KEY.fullmatch(key) is not None,
            where,
            "compare",
            key,
            "variant names of letters, digits and '_' (at most 40 characters)",
        )
    if len(value) < 2:
        raise InputError(f"{where}: missing key 'compare.b' (allowed: {allowed})")
    if len(value) > MAX_CELLS:
        raise bad_value(f"{where}: compare", f"{len(value)} variants", allowed)
    variants = []
    for key in ["a", *(k for k in value if k != "a")]:
        t = _table(value[key], where, f"compare.{key}")
        _unknown(t, VARIANT_KEYS, where, f"compare.{key}.")
        label = t.get("label", key.upper() if len(key) == 1 else key)
        _check(
            isinstance(label, str) and label != "", where, f"compare.{key}.label", label, "a string"
        )
        strategies = None
        if "strategies" in t:
            strategies = _strategies(
                game, t["strategies"], players, where, f"compare.{key}.strategies"
            )
            if len(strategies) == 1:
                strategies = strategies * players
        variants.append(
            Variant(
                key=key,
                label=label,
                rulings=_rulings(game, t.get("rules", {}), where, f"compare.{key}.rules"),
                overrides=_overrides(t.get("overrides", {}), where, f"compare.{key}.overrides"),
                strategies=strategies,
                forbid=(
                    _forbid(game, t["forbid"], where, f"compare.{key}.forbid", players)
                    if "forbid" in t
                    else None
                ),
            )
        )
    seen: dict[str, str] = {}
    for v in variants:
        if v.label in seen:
            raise bad_value(
                f"{where}: compare.{v.key}.label",
                v.label,
                f"a label no other variant has ({seen[v.label]} has it)",
            )
        seen[v.label] = v.key
    return tuple(variants)


def _same_type(old, v) -> bool:
    if isinstance(old, bool):
        return isinstance(v, bool)
    if isinstance(old, int):
        return _is_int(v)
    if isinstance(old, list):
        return isinstance(v, list) and all(_is_int(x) for x in v)
    return isinstance(v, type(old))


def _type_name(old) -> str:
    if isinstance(old, bool):
        return "a list of true/false values"
    if isinstance(old, int):
        return "a list of integers"
    if isinstance(old, list):
        return "a list of lists of integers"
    if isinstance(old, str):
        return "a list of strings"
    return f"a list of values like {old!r}"
