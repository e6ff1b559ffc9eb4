"""Scenario files: what to simulate, read from TOML and validated key by key.

A scenario names the players, the strategy of every seat (or a line-up played
in every seat order), the number of games and the seed, the edition and rulings,
any card-value overrides, and optionally one or two *sweeps* (a parameter over a
list of values) or one *comparison* (variant ``a`` against each other variant).
``scenarios/README.md`` documents every key.

:func:`load_scenario` reads and validates a file; anything wrong raises
:class:`~analyzer.core.errors.InputError` naming the file, the key, the bad value and
what is allowed. :func:`expand` turns a scenario into *cells*: one fully
resolved configuration per sweep point or comparison variant. Every cell plays
the same game indices with the same seed, so cells share their random streams
game by game (common random numbers, see ``docs/CONTRACTS.md``); within a cell,
seat order ``k`` of a rotation plays its own block of game indices, so the games
of different orders are independent.

A scenario names its game (``game = "unearth"``, the default); everything
game-specific (strategy names, ruling switches, override paths, building the
rules, the batch job) is asked of that game through :mod:`analyzer.games`.

This module is the file format only: it parses and validates a scenario into
dataclasses (:mod:`analyzer.runs.scenario_types`, each key checked by
:mod:`analyzer.runs.scenario_checks`) and expands it into cells
(:mod:`analyzer.runs.scenario_cells`); it plays nothing. It keeps every name those
modules had here before they had modules of their own. The driver that plays
a scenario is :mod:`analyzer.runs.driver`; the studies played on top of it
(``[ladder]``, ``[tune]``) are :mod:`analyzer.studies.sections`, :mod:`analyzer.studies.ratings`
and :mod:`analyzer.studies.tuning`. Their tables' validation is :mod:`analyzer.runs.sections_file`.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

from analyzer.core.errors import InputError
from analyzer.core.seeding import SEED_ALLOWED
from analyzer.core.seeding import seed_ok as _seed_ok
from analyzer.games import DEFAULT_GAME, Game, load_game
from analyzer.runs.options import GAMES_ALLOWED, MAX_GAMES
from analyzer.runs.scenario_cells import (
    cell_limits,
    comparison_pairs,
    expand,
    fields_of,
    games_per_order,
    plan_games,
    seat_orders,
    sweep_pairs,
)
from analyzer.runs.scenario_checks import (
    _check,
    _check_interventions,
    _compare,
    _fields,
    _forbid,
    _is_int,
    _lineup,
    _overrides,
    _require,
    _rulings,
    _strategies,
    _strategy_params,
    _sweep,
    _unknown,
)
from analyzer.runs.scenario_types import (
    DEFAULT_BATCH,
    FIELD_KEYS,
    FORBID_SEATS,
    GAME_KEYS,
    MAX_CELLS,
    MAX_FIELDS,
    MAX_SWEEP_AXES,
    OUTPUT_KEYS,
    ROTATIONS,
    SLOW_BATCH,
    TOP_KEYS,
    VARIANT_KEY,
    VARIANT_KEYS,
    Cell,
    FieldSpec,
    Forbid,
    Scenario,
    SweepAxis,
    Variant,
)
from analyzer.runs.sections_file import parse_ladder, parse_tune

#: sections that may stand without games of the scenario's own
SECTION_KEYS = ("ladder", "tune", "balance")

# --------------------------------------------------------------------------- loading


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file.

    Raises :class:`InputError` (file, key, bad value, what is allowed) on any
    problem, including unknown keys, and checks every sweep point and variant
    by building its rules.
    """
    p = Path(path)
    where = str(path)
    raw = read_toml(p, where, "scenario file")
    return parse_scenario(raw, where, default_name=p.stem)


#: largest scenario file read (a scenario is a page of text; anything bigger is a mistake)
MAX_FILE_BYTES = 1_000_000


#: deepest nesting of tables and lists in a scenario (the deepest real key is 3)
MAX_DEPTH = 16


def read_toml(path: Path, where: str, what: str = "file") -> dict:
    """Read a small TOML text file; anything else is one :class:`InputError`:
    missing, unreadable, too big, binary, not UTF-8, not TOML, nested too deep."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{where}: no such {what}") from None
    except OSError as err:
        raise InputError(f"{where}: cannot read ({err.strerror})") from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(
            f"{where}: more than {MAX_FILE_BYTES:,} bytes (allowed: a small TOML text file)"
        )
    if b"\0" in data:
        raise InputError(f"{where}: a binary file, not TOML text (allowed: a UTF-8 TOML file)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(
            f"{where}: not UTF-8 text (byte {data[err.start]:#04x} at offset {err.start}; "
            "allowed: a TOML file saved as UTF-8)"
        ) from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"{where}: not valid TOML ({err})") from None
    except RecursionError:
        raise InputError(
            f"{where}: nested too deeply to read (allowed: at most {MAX_DEPTH} levels)"
        ) from None
    depth = _depth(raw)
    if depth > MAX_DEPTH:
        raise InputError(
            f"{where}: tables or lists nested {depth} deep (allowed: at most {MAX_DEPTH})"
        )
    return raw


def _depth(value) -> int:
    """Nesting depth of tables and lists (a plain value is 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, d + 1)
            if d + 1 <= MAX_DEPTH:
                stack.extend((x, d + 1) for x in v)
    return deepest


def parse_scenario(raw: dict, where: str, default_name: str = "scenario") -> Scenario:
    """Validate an already-parsed scenario mapping; ``where`` names it in errors."""
    _check(isinstance(raw, dict), where, None, raw, "a table of scenario keys")
    _unknown(raw, TOP_KEYS, where, "")
    game_name = raw.get("game", DEFAULT_GAME)
    _check(isinstance(game_name, str), where, "game", game_name, "a game name (analyzer games)")
    game = load_game(game_name, where=f"{where}: game")
    name = raw.get("name", default_name)
    _check(
        isinstance(name, str) and name.strip() != "" and "/" not in name,
        where,
        "name",
        name,
        "a non-empty string without '/'",
    )
    description = raw.get("description", "")
    _check(isinstance(description, str), where, "description", description, "a string")
    if any(k in raw for k in SECTION_KEYS) and not any(k in raw for k in GAME_KEYS):
        return _sections_only(raw, where, game, name, description)
    _require(raw, "players", where)
    players = raw["players"]
    _check(_is_int(players) and players >= 1, where, "players", players, "a positive integer")
    _require(raw, "games", where)
    games = raw["games"]
    _check(_is_int(games) and 1 <= games <= MAX_GAMES, where, "games", games, GAMES_ALLOWED)
    seed = raw.get("seed")
    _check(seed is None or _seed_ok(seed), where, "seed", seed, SEED_ALLOWED)

    if sum(k in raw for k in ("strategies", "lineup", "fields")) != 1:
        raise InputError(
            f"{where}: give exactly one of 'strategies' (one per seat, or one for every seat), "
            "'lineup' (played in every seat order) and 'fields' (several fields of players, "
            "[fields.<name>])"
        )
    strategies = lineup = None
    fields: tuple[FieldSpec, ...] = ()
    if "strategies" in raw:
        strategies = _strategies(game, raw["strategies"], players, where, "strategies")
        if "rotation" in raw:
            raise InputError(f"{where}: rotation: only allowed with 'lineup'")
    elif "lineup" in raw:
        lineup = _lineup(game, raw["lineup"], players, where, "lineup")
    else:
        if "rotation" in raw:
            raise InputError(
                f"{where}: rotation: only allowed with 'lineup' (with [fields], give each "
                "field's own 'rotation')"
            )
        fields = _fields(game, raw["fields"], players, where)
        for f in fields:
            _check(
                f.games <= games,
                where,
                f"fields.{f.key}.games",
                f.games,
                f"a positive integer, at most the scenario's games ({games:,})",
            )
    rotation = raw.get("rotation", "all")
    _check(rotation in ROTATIONS, where, "rotation", rotation, ", ".join(ROTATIONS))

    rulings = _rulings(game, raw.get("rules", {}), where, "rules")
    overrides = _overrides(raw.get("overrides", {}), where, "overrides")
    strategy_params = _strategy_params(game, raw.get("strategy_params", {}), where)
    forbid = _forbid(game, raw["forbid"], where, "forbid", players) if "forbid" in raw else None

    sweep = _sweep(game, raw.get("sweep"), where) if "sweep" in raw else ()
    compare = _compare(game, raw["compare"], where, players) if "compare" in raw else None
    if sweep and compare:
        raise InputError(f"{where}: give 'sweep' or 'compare', not both")
    own = [v for v in compare or () if v.strategies]
    if own and (lineup is not None or fields):
        raise InputError(
            f"{where}: compare.{own[0].key}.strategies: not allowed with "
            + (
                "'lineup' (every variant plays the line-up in every seat order)"
                if lineup is not None
                else "[fields] (every variant plays every field)"
            )
        )
    lineups = [(strategies, lineup)] if not fields else [(f.strategies, f.lineup) for f in fields]
    if any(a.param == "players" for a in sweep) and any(
        lu is not None or (st is not None and len(set(st)) > 1) for st, lu in lineups
    ):
        raise InputError(
            f"{where}: sweep.param: sweeping 'players' needs one strategy for every seat "
            '(strategies = "name"' + (", in every field)" if fields else ")")
        )
    _check_interventions(forbid, compare, where)

    claims, save_tables, batch_size = _output(raw, where)

    questions = ()
    if "questions" in raw:
        from analyzer.tables.findings import parse_questions

        questions = tuple(
            parse_questions(
                raw["questions"], game, where, compare=compare is not None, sweep=bool(sweep)
            )
        )

    sc = Scenario(
        path=where,
        name=name,
        description=description,
        players=players,
        games=games,
        seed=seed,
        strategies=strategies if strategies is None else tuple(strategies),
        lineup=lineup,
        rotation=rotation,
        rulings=rulings,
        overrides=overrides,
        sweep=sweep,
        compare=compare,
        claims=claims,
        luck=_output_luck(raw, where),
        save_tables=save_tables,
        batch_size=batch_size,
        game=game_name,
        strategy_params=strategy_params,
        questions=questions,
        fields=fields,
        forbid=forbid,
    )
    cells = expand(sc)  # builds every cell's rules: validates sweep values and variants
    _check_variant_metrics(sc, cells, where)
    if questions:
        from analyzer.tables.restricted import check_dominance

        check_dominance(sc, where)  # restricted play: its things, one configuration
    if "ladder" in raw or "tune" in raw:
        rules = game.load_rules(rulings, overrides, f"{where}: rules")
        sc = replace(sc, **_sections(raw, where, game, players, rules))
    if "sensitivity" in raw:
        from analyzer.runs.sensitivity_file import parse_sensitivity

        sc = replace(sc, sensitivity=parse_sensitivity(raw["sensitivity"], where))
        _check_sensitivity(sc, where)
    if "balance" in raw:
        sc = replace(sc, balance=_balance(raw, where, game, players, rulings, overrides))
    return sc


def _balance(raw: dict, where: str, game: Game, players, rulings: dict, overrides: dict):
    """``[balance]`` validated (:mod:`analyzer.runs.balance_file`)."""
    from analyzer.runs.balance_file import parse_balance

    return parse_balance(game, raw["balance"], where, players, rulings, overrides)


def _check_variant_metrics(sc: Scenario, cells: list[Cell], where: str) -> None:
    """A ``variant_effect`` question's ``metric`` is one the comparison reports: win,
    score, a per-game figure or a column the game declares (with ``seat``: a
    per-seat one)."""
    asked = [
        (i, q["params"])
        for i, q in enumerate(sc.questions)
        if q["id"] == "variant_effect" and q["params"].get("metric") is not None
    ]
    if not asked:
        return
    from analyzer.games import merge_columns
    from analyzer.tables.aggregate import metric_scopes

    game = sc.game_def
    scopes = metric_scopes(merge_columns([game.columns(c.rules) for c in cells]))
    for i, params in asked:
        metric, seat = params["metric"], params.get("seat")
        key = f"questions[{i}].metric"
        if seat is None:
            _check(metric in scopes, where, key, metric, ", ".join(scopes))
        else:
            per_seat = [m for m, scope in scopes.items() if scope == "seat"]
            _check(metric in per_seat, where, key, metric, "with 'seat': " + ", ".join(per_seat))


def _check_sensitivity(sc: Scenario, where: str) -> None:
    """The study moves assumed values around one base configuration: refused with a
    sweep, a comparison, fields of players or an intervention, and checked by
    building every configuration it will play (so a bad range stops the run
    before anything is played)."""
    if sc.sensitivity is None:
        return
    for present, what in (
        (bool(sc.sweep), "[sweep]"),
        (bool(sc.compare), "[compare]"),
        (bool(sc.fields), "[fields]"),
        (sc.forbid is not None, "forbid"),
    ):
        if present:
            raise InputError(
                f"{where}: sensitivity: not with {what} (allowed: a scenario of one "
                "configuration, strategies or a line-up; the study compares it with "
                "itself under each assumed value)"
            )
    from analyzer.runs.sensitivity_file import plan

    plan(sc, where, MAX_CELLS)
    expand(sensitivity_scenario(sc, where))


def sensitivity_scenario(sc: Scenario, where: str = "") -> Scenario:
    """The scenario the study plays: the base configuration (variant ``a``) and one
    variant per move, ``[sensitivity] games`` games each, aggregate only, its
    questions and seed the scenario's."""
    from analyzer.runs.sensitivity_file import move_label, plan

    moves = plan(sc, where, MAX_CELLS)["moves"]
    variants = [Variant(key="a", label="assumed values as played")]
    variants += [
        Variant(key=f"s{i + 1}", label=move_label(m), overrides={m["path"]: m["value"]})
        for i, m in enumerate(moves)
    ]
    return replace(
        sc,
        name=f"{sc.name} (sensitivity)",
        games=sc.sensitivity.games,
        compare=tuple(variants) if moves else None,
        save_tables=False,
        claims=False,
        ladder=None,
        tune=None,
        sensitivity=None,
    )


def _output(raw: dict, where: str) -> tuple[bool, bool, int | None]:
    """``[output]``: claims, save_tables, batch_size (``luck``: :func:`_output_luck`)."""
    output = raw.get("output", {})
    _check(isinstance(output, dict), where, "output", output, "a table")
    _unknown(output, OUTPUT_KEYS, where, "output.")
    claims = output.get("claims", True)
    _check(isinstance(claims, bool), where, "output.claims", claims, "true or false")
    save_tables = output.get("save_tables", True)
    _check(isinstance(save_tables, bool), where, "output.save_tables", save_tables, "true or false")
    batch_size = output.get("batch_size")  # None: the game's
    _check(
        batch_size is None or _is_int(batch_size) and 1 <= batch_size <= 1_000_000,
        where,
        "output.batch_size",
        batch_size,
        "an integer from 1 to 1000000",
    )
    return claims, save_tables, batch_size


def _output_luck(raw: dict, where: str) -> bool | None:
    """``[output] luck``: play the game's luck terms (absent: None, the game's default)."""
    luck = (raw.get("output") or {}).get("luck")
    _check(luck is None or isinstance(luck, bool), where, "output.luck", luck, "true or false")
    return luck


def _sections(raw: dict, where: str, game: Game, players, rules) -> dict:
    """``{"ladder": LadderSpec | None, "tune": TuneSpec | None}`` from the raw scenario."""
    return {
        "ladder": parse_ladder(game, raw["ladder"], where, players, rules)
        if "ladder" in raw
        else None,
        "tune": parse_tune(game, raw["tune"], where, players, rules) if "tune" in raw else None,
    }


def _sections_only(raw: dict, where: str, game: Game, name: str, description: str) -> Scenario:
    """A scenario of only ``[ladder]`` and/or ``[tune]``: no games of its own."""
    players = raw.get("players")
    _check(
        players is None or (_is_int(players) and players >= 1),
        where,
        "players",
        players,
        "a positive integer",
    )
    for key in ("sweep", "compare", "questions", "rotation", "forbid", "sensitivity"):
        if key in raw:
            raise InputError(
                f"{where}: {key}: needs games of the scenario's own (allowed with 'games' and "
                "'strategies' or 'lineup'; this scenario has only [ladder]/[tune]/[balance])"
            )
    seed = raw.get("seed")
    _check(seed is None or _seed_ok(seed), where, "seed", seed, SEED_ALLOWED)
    rulings = _rulings(game, raw.get("rules", {}), where, "rules")
    overrides = _overrides(raw.get("overrides", {}), where, "overrides")
    strategy_params = _strategy_params(game, raw.get("strategy_params", {}), where)
    claims, save_tables, batch_size = _output(raw, where)
    rules = game.load_rules(rulings, overrides, f"{where}: rules")
    sections = _sections(raw, where, game, players, rules)
    if "balance" in raw:
        sections["balance"] = _balance(raw, where, game, players, rulings, overrides)
    if players is None:
        first = sections["ladder"] or sections["tune"]
        players = first.players if first is not None else max(sections["balance"].counts)
    return Scenario(
        path=where,
        name=name,
        description=description,
        players=players,
        games=0,
        seed=seed,
        strategies=None,
        lineup=None,
        rotation="all",
        rulings=rulings,
        overrides=overrides,
        claims=claims,
        luck=_output_luck(raw, where),
        save_tables=save_tables,
        batch_size=batch_size,
        game=game.name,
        strategy_params=strategy_params,
        **sections,
    )


def check_overrides(games: int | None = None, seed: int | None = None) -> None:
    """The values of ``--games`` and ``--seed`` checked, before any scenario is read."""
    if games is not None:
        _check(_is_int(games) and 1 <= games <= MAX_GAMES, "--games", None, games, GAMES_ALLOWED)
    if seed is not None:
        _check(_seed_ok(seed), "--seed", None, seed, SEED_ALLOWED)


def with_overrides(sc: Scenario, games: int | None = None, seed: int | None = None) -> Scenario:
    """The scenario with ``games`` and/or ``seed`` replaced (command-line options)."""
    check_overrides(games, seed)
    if games is not None:
        if not sc.plays_games:
            raise InputError(
                f"--games: {sc.path} has no games of its own, only [ladder]/[tune]"
                + ("/[balance]" if sc.balance is not None else "")
                + " (allowed: set their 'games' keys in the file"
                + (
                    "; 'analyzer balance --games' sets [balance]'s"
                    if sc.balance is not None
                    else ""
                )
                + ")"
            )
        sc = replace(sc, games=int(games))
    if seed is not None:
        sc = replace(sc, seed=int(seed))
    return sc


__all__ = [
    "DEFAULT_BATCH",
    "FIELD_KEYS",
    "FORBID_SEATS",
    "GAME_KEYS",
    "MAX_CELLS",
    "MAX_DEPTH",
    "MAX_FIELDS",
    "MAX_FILE_BYTES",
    "MAX_SWEEP_AXES",
    "OUTPUT_KEYS",
    "ROTATIONS",
    "SLOW_BATCH",
    "TOP_KEYS",
    "VARIANT_KEY",
    "VARIANT_KEYS",
    "Cell",
    "FieldSpec",
    "Forbid",
    "Scenario",
    "SweepAxis",
    "Variant",
    "check_overrides",
    "comparison_pairs",
    "expand",
    "fields_of",
    "games_per_order",
    "load_scenario",
    "parse_scenario",
    "plan_games",
    "cell_limits",
    "read_toml",
    "seat_orders",
    "sensitivity_scenario",
    "sweep_pairs",
    "with_overrides",
]
