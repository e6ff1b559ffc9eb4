"""A scenario's cells: one fully resolved configuration per sweep point or variant.

:func:`expand` turns a scenario into *cells* (:class:`~analyzer.runs.scenario_types.Cell`):
the rules, seat orders, strategy parameters and intervention of each sweep point,
comparison variant and field of players. Every cell plays the same game indices
with the same seed, so cells share their random streams game by game (common
random numbers, see ``docs/CONTRACTS.md``); within a cell, seat order ``k`` of a
rotation plays its own block of game indices (:func:`plan_games`), so the games
of different orders are independent.
"""

from __future__ import annotations

import itertools
import math

from analyzer.core.errors import InputError, bad_value
from analyzer.runs.scenario_checks import _param_kind
from analyzer.runs.scenario_types import MAX_CELLS, Cell, FieldSpec, Scenario


def _orders(strategies, lineup, rotation: str) -> list[tuple[str, ...]]:
    """Strategies per seat for every seat order of one field of players."""
    if lineup is None:
        return [tuple(strategies)]
    lineup = tuple(lineup)
    if rotation == "cyclic":
        cand = [lineup[i:] + lineup[:i] for i in range(len(lineup))]
    else:
        cand = list(itertools.permutations(lineup))
    return list(dict.fromkeys(cand))


def seat_orders(sc: Scenario, strategies: tuple[str, ...] | None = None) -> list[tuple[str, ...]]:
    """Strategies per seat for every seat order the scenario plays.

    Per-seat strategies give one order. A line-up gives every distinct
    permutation (``rotation = "all"``) or its cyclic rotations (``"cyclic"``),
    in a fixed order, duplicates removed. With ``[fields]``: the first field's
    (each field's are in its cells, :func:`expand`).
    """
    if strategies is not None:
        return [tuple(strategies)]
    if sc.fields:
        f = sc.fields[0]
        return _orders(f.strategies, f.lineup, f.rotation)
    return _orders(sc.strategies, sc.lineup, sc.rotation)


def games_per_order(sc: Scenario) -> int:
    """Games each seat order plays: ``games`` split equally, rounded up (a scenario
    without ``[fields]`` or an intervention on each seat in turn; otherwise
    :func:`plan_games`)."""
    return math.ceil(sc.games / len(seat_orders(sc)))


def plan_games(sc: Scenario, cells: list[Cell]) -> tuple[int, tuple[int, ...]]:
    """``(games per configuration, games per seat order of each cell)``: ``games``
    rounded up so that every seat order of every cell plays the same number of
    game indices and every cell plays the same indices (common random numbers)."""
    counts = [len(c.orders) for c in cells] or [1]
    step = math.lcm(*counts)
    total = math.ceil(sc.games / step) * step
    own = {f.key: f.games for f in sc.fields if f.games}
    per = []
    for c, n in zip(cells, counts, strict=False):
        if own.get(c.field_key):
            # a field of fewer games (a confirmatory run): the first of the same
            # indices, every seat order its share
            per.append(min(total // n, math.ceil(own[c.field_key] / n)))
        else:
            per.append(total // n)
    return total, tuple(per) if cells else (total,)


def cell_limits(sc: Scenario, cells: list[Cell]) -> tuple[int, ...]:
    """Per cell, the game indices it plays (``[0, limit)``): every cell the whole
    run's, a cell of a field with ``games`` of its own fewer (:func:`plan_games`);
    () when every cell plays them all."""
    total, per = plan_games(sc, cells)
    limits = tuple(p * len(c.orders) for p, c in zip(per, cells, strict=True))
    return () if all(x >= total for x in limits) else limits


def fields_of(sc: Scenario) -> tuple[FieldSpec, ...]:
    """The scenario's fields of players: its ``[fields]``, else the one field of its
    ``strategies`` or ``lineup`` (key "")."""
    if sc.fields:
        return sc.fields
    return (FieldSpec("", sc.name, sc.strategies, sc.lineup, sc.rotation, {}),)


def _merge_params(base: dict, more: dict) -> dict:
    out = {k: dict(v) for k, v in base.items()}
    for name, vals in more.items():
        out[name] = {**out.get(name, {}), **vals}
    return out


def expand(sc: Scenario) -> list[Cell]:
    """All cells of a scenario: for each field of players (``[fields]``, else the one),
    the sweep grid in row-major order, or the variants (``a`` first).

    Builds and validates the rules of every cell. A scenario with no games of its
    own (only ``[ladder]``/``[tune]``) has none. With an intervention
    (``forbid``), each cell marks the seats it applies to in every seat order
    (``"each"``: every seat order is played once per seat, that seat treated).
    """
    if not sc.plays_games:
        return []
    where = sc.path
    game = sc.game_def
    points: list[tuple[str, dict, dict, dict, int, tuple | None]] = []
    if sc.compare:
        for v in sc.compare:
            rulings = {**sc.rulings, **v.rulings}
            overrides = {**sc.overrides, **v.overrides}
            points.append(
                (v.label, {"variant": v.key}, rulings, overrides, sc.players, v.strategies)
            )
    elif sc.sweep:
        grids = itertools.product(*[a.values for a in sc.sweep])
        for combo in grids:
            rulings, overrides, players = dict(sc.rulings), dict(sc.overrides), sc.players
            params = {}
            for axis, value in zip(sc.sweep, combo, strict=True):
                params[axis.param] = value
                kind, name = _param_kind(axis.param)
                if kind == "players":
                    players = value
                elif kind == "ruling":
                    rulings[name] = value
                else:
                    overrides[name] = value
            label = ", ".join(f"{_short(k)}={_fmt(v)}" for k, v in params.items())
            points.append((label, params, rulings, overrides, players, None))
    else:
        points.append((sc.name, {}, dict(sc.rulings), dict(sc.overrides), sc.players, None))
    fields = fields_of(sc)
    if len(points) * len(fields) > MAX_CELLS:
        key = "fields" if len(fields) > 1 else "sweep"
        raise InputError(
            f"{where}: {key}: {len(points) * len(fields)} configurations "
            f"(allowed: at most {MAX_CELLS})"
        )
    iv = sc.intervention
    built = []
    for _label, _params, rulings, overrides, players, _st in points:
        key = "sweep.values" if sc.sweep else ("compare" if sc.compare else "rules")
        rules = game.load_rules(rulings, overrides, f"{where}: {key}")
        lo, hi = game.player_range(rules)
        if not lo <= players <= hi:
            k = "sweep.values" if any(a.param == "players" for a in sc.sweep) else "players"
            raise bad_value(f"{where}: {k}", players, f"an integer from {lo} to {hi}")
        built.append(rules)
    cells = []
    for f in fields:
        for (label, params, rulings, overrides, players, strategies), rules in zip(
            points, built, strict=True
        ):
            if strategies is None and f.strategies is not None and len(f.strategies) == 1:
                strategies = f.strategies * players
            if strategies is not None:
                orders = [tuple(strategies)]
            else:
                orders = _orders(f.strategies, f.lineup, f.rotation)
            treated: list[tuple[int, ...]] = []
            forbid: dict = {}
            if iv is not None:
                target, vkey = iv
                ikey = f"compare.{vkey}.forbid" if vkey else "forbid"
                if target.seats == "each":
                    orders = [o for o in orders for _ in range(players)]
                    treated = [(k % players,) for k in range(len(orders))]
                else:
                    treated = [target.treated(o) for o in orders]
                    if target.strategy is None and max(target.seats or (0,)) >= players:
                        raise bad_value(
                            f"{where}: {ikey}.seats",
                            list(target.seats),
                            f"seats from 0 to {players - 1} (every configuration has "
                            f"{players} players)",
                        )
                    if not any(treated):
                        raise bad_value(
                            f"{where}: {ikey}.strategy",
                            target.strategy,
                            "a strategy that plays a seat"
                            + (f" in field {f.key!r}" if sc.fields else ""),
                        )
                own = _variant_forbid(sc, params.get("variant"))
                if vkey is None:
                    forbid = target.kinds()
                elif own is not None:  # restricted play: each variant bars its own thing
                    forbid = own.kinds()
            if sc.fields:
                cell_label = f.label if not params else f"{f.label}: {label}"
                cell_params = {"field": f.key, **params}
            else:
                cell_label, cell_params = label, params
            cells.append(
                Cell(
                    index=len(cells),
                    label=cell_label,
                    params=cell_params,
                    players=players,
                    orders=tuple(orders),
                    rulings=rulings,
                    overrides=overrides,
                    rules=rules,
                    game=sc.game,
                    strategy_params=_merge_params(sc.strategy_params, f.strategy_params),
                    field_key=f.key,
                    treated=tuple(treated),
                    forbid=forbid,
                )
            )
    return cells


def _variant_forbid(sc: Scenario, key):
    """The ``forbid`` of comparison variant ``key`` (None: it has none). A scenario
    file gives at most one variant an intervention; restricted play
    (:mod:`analyzer.studies.restricted`) builds a comparison whose every variant
    after ``a`` bars its own thing from each seat in turn (the same seats)."""
    for v in sc.compare or ():
        if v.key == key:
            return v.forbid
    return None


def comparison_pairs(sc: Scenario, cells: list[Cell]) -> tuple[tuple[int, int], ...]:
    """``(a, v)`` cell pairs of a comparison: in each field of players, the cell of
    every variant after the first paired with the first's (variant ``a``)."""
    if not sc.compare:
        return ()
    k = len(sc.compare)
    return tuple((i, i + j) for i in range(0, len(cells), k) for j in range(1, k))


def sweep_pairs(sc: Scenario, cells: list[Cell]) -> tuple[tuple[int, int], ...]:
    """``(first, v)`` cell pairs of a sweep, as :func:`comparison_pairs` pairs a
    comparison's variants with ``a``: in each field of players, every swept value's
    cell paired with the first swept value's (the reference, as variant ``a`` is).
    None when ``players`` is swept: cells of other player counts play other games,
    seat by seat nothing is shared, and their effects keep independent intervals."""
    if not sc.sweep or sc.compare or any(a.param == "players" for a in sc.sweep):
        return ()
    k = math.prod(len(a.values) for a in sc.sweep)
    return tuple((i, i + j) for i in range(0, len(cells), k) for j in range(1, k))


def _fmt(v) -> str:
    if isinstance(v, list | tuple):
        return "[" + ",".join(str(x) for x in v) + "]"
    return str(v)


def _short(param: str) -> str:
    return param.split(".")[-1] if param.startswith("rules.") else param
