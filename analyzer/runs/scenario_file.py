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
dataclasses and expands it into cells; it plays nothing. The driver that plays
a scenario is :mod:`analyzer.runs.driver`; the studies played on top of it
(``[ladder]``, ``[tune]``) are :mod:`analyzer.studies.sections`, :mod:`analyzer.studies.ratings`
and :mod:`analyzer.studies.tuning`. Their tables' validation is :mod:`analyzer.runs.sections_file`.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from analyzer.core.errors import InputError, bad_value
from analyzer.core.seeding import SEED_ALLOWED
from analyzer.core.seeding import seed_ok as _seed_ok
from analyzer.games import DEFAULT_GAME, Game, load_game
from analyzer.runs.runner import GAMES_ALLOWED, MAX_GAMES
from analyzer.runs.sections_file import parse_ladder, parse_tune

TOP_KEYS = (
    "game",
    "name",
    "description",
    "players",
    "games",
    "seed",
    "strategies",
    "lineup",
    "rotation",
    "rules",
    "overrides",
    "strategy_params",
    "sweep",
    "compare",
    "output",
    "questions",
    "ladder",
    "tune",
    "fields",
    "forbid",
    "sensitivity",
)
#: keys that give a scenario games of its own (without them it holds only [ladder]/[tune])
GAME_KEYS = ("games", "strategies", "lineup", "fields")
VARIANT_KEYS = ("label", "rules", "overrides", "strategies", "forbid")
#: a comparison variant's name (``[compare.<name>]``)
VARIANT_KEY = re.compile(r"[A-Za-z0-9_]{1,40}")
FIELD_KEYS = ("label", "strategies", "lineup", "rotation", "strategy_params")
#: values of ``forbid.seats`` besides seat numbers
FORBID_SEATS = ("each", "all")
MAX_FIELDS = 16
OUTPUT_KEYS = ("claims", "save_tables", "batch_size", "luck")
#: games per batch of a game that sets none (:attr:`analyzer.games.Game.batch_size`),
#: unless ``[output] batch_size`` says otherwise ...
DEFAULT_BATCH = Game.batch_size
#: ... or a slow strategy (a search) plays: then batches this small keep the
#: progress display and checkpoints coming
SLOW_BATCH = 20
ROTATIONS = ("all", "cyclic")
MAX_SWEEP_AXES = 2
MAX_CELLS = 64


@dataclass(frozen=True)
class SweepAxis:
    """One swept parameter: ``players``, ``edition``, ``rules.<ruling>`` or an override path."""

    param: str
    values: tuple


@dataclass(frozen=True)
class Forbid:
    """An intervention (``forbid``): what the seats it applies to may not do.

    ``things`` pairs a kind the game offers (:attr:`analyzer.games.Game.interventions`,
    Unearth: ``"wonders"``) with the ids forbidden. The seats: ``seats`` is
    ``"each"`` (every seat in turn: each seat order is played once per seat, the
    games split equally, the intervention on that seat), ``"all"``, or a tuple of
    seats; or ``strategy`` names a strategy and every seat playing it is meant
    (with a line-up rotated, the seat moves through every position).
    """

    things: tuple[tuple[str, tuple[str, ...]], ...]
    seats: str | tuple[int, ...] | None = "each"
    strategy: str | None = None

    def as_dict(self) -> dict:
        out: dict[str, Any] = {kind: list(ids) for kind, ids in self.things}
        if self.strategy is not None:
            out["strategy"] = self.strategy
        else:
            out["seats"] = self.seats if isinstance(self.seats, str) else list(self.seats)
        return out

    def kinds(self) -> dict[str, tuple[str, ...]]:
        return dict(self.things)

    def target_text(self) -> str:
        """Whom it applies to, in words."""
        if self.strategy is not None:
            return f"every seat playing {self.strategy}"
        if self.seats == "each":
            return "each seat in turn"
        if self.seats == "all":
            return "every seat"
        seats = list(self.seats)
        return ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))

    def treated(self, order: tuple[str, ...]) -> tuple[int, ...]:
        """The seats it applies to in seat order ``order`` (``"each"``: see :func:`expand`)."""
        if self.strategy is not None:
            return tuple(i for i, s in enumerate(order) if s == self.strategy)
        if self.seats == "all":
            return tuple(range(len(order)))
        return tuple(self.seats)


@dataclass(frozen=True)
class Variant:
    """One side of a comparison: changes applied on top of the scenario's base."""

    key: str  #: its name in ``[compare.<key>]``; ``"a"`` is the reference
    label: str
    rulings: dict = field(default_factory=dict)
    overrides: dict = field(default_factory=dict)
    strategies: tuple[str, ...] | None = None
    forbid: Forbid | None = None  #: an intervention only this variant plays


@dataclass(frozen=True)
class FieldSpec:
    """One field of players (``[fields.<key>]``): the strategies of every seat, or a
    line-up played in every seat order, and the strategy parameters it changes."""

    key: str
    label: str
    strategies: tuple[str, ...] | None = None
    lineup: tuple[str, ...] | None = None
    rotation: str = "all"
    strategy_params: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "key": self.key,
            "label": self.label,
            "strategies": list(self.strategies) if self.strategies else None,
            "lineup": list(self.lineup) if self.lineup else None,
            "rotation": self.rotation if self.lineup else None,
            "strategy_params": {k: dict(v) for k, v in self.strategy_params.items()},
        }


@dataclass(frozen=True)
class Scenario:
    """A validated scenario file (see ``scenarios/README.md``)."""

    path: str
    name: str
    description: str
    #: players; a scenario of only [ladder]/[tune] without its own: the ladder's (else the tune's)
    players: int
    games: int  #: 0: no games of its own (only [ladder]/[tune])
    seed: int | None
    strategies: tuple[str, ...] | None  #: one per seat (None when a line-up is rotated)
    lineup: tuple[str, ...] | None  #: played in every seat order
    rotation: str  #: "all" distinct seat orders or "cyclic" rotations (line-up only)
    rulings: dict  #: edition and ruling switches (``Rulings`` fields)
    overrides: dict  #: override path -> value (``load_rules(overrides=...)``)
    sweep: tuple[SweepAxis, ...] = ()
    #: ``[compare.<key>]``: variant ``a`` (the reference) first, then the others, each
    #: paired with ``a``; None without a comparison
    compare: tuple[Variant, ...] | None = None
    claims: bool = True  #: also record the per-claim table
    #: the luck terms of a game that has them (columns ``luck_win``, ``luck_score``;
    #: docs/statistics.md); False: played without them (ladders and tuning, which do
    #: not use them, and a run that wants the plain engine's speed); None: the
    #: game's default (on for Unearth and Uruk, off for Colorful Treasure)
    luck: bool | None = None
    save_tables: bool = True  #: False: aggregate only (bounded memory, no Parquet tables)
    #: games per batch; None: the game's (:attr:`analyzer.games.Game.batch_size`,
    #: or SLOW_BATCH when a slow strategy plays), which the run records here
    batch_size: int | None = None
    game: str = DEFAULT_GAME  #: registered game name (``analyzer.games``)
    strategy_params: dict = field(default_factory=dict)  #: strategy -> {param: value}
    #: questions the report answers (``[{"id", "params"}]``); () = the game's standard ones
    questions: tuple = ()
    #: the ``[ladder]`` section (:class:`analyzer.runs.sections_file.LadderSpec`), played by
    #: ``analyzer run``
    ladder: Any = None
    #: the ``[tune]`` section (:class:`analyzer.runs.sections_file.TuneSpec`), played by
    #: ``analyzer run``
    tune: Any = None
    #: ``[fields]``: the same question against several fields of players (then
    #: ``strategies`` and ``lineup`` are None); () = the one field of ``strategies``/``lineup``
    fields: tuple[FieldSpec, ...] = ()
    #: a top-level ``forbid``: an intervention every configuration plays
    forbid: Forbid | None = None
    #: ``[sensitivity]`` (:class:`analyzer.studies.sensitivity.SensitivitySpec`): the study of
    #: the assumed values, played by ``analyzer run``
    sensitivity: Any = None

    @property
    def intervention(self) -> tuple[Forbid, str | None] | None:
        """``(forbid, variant key)`` of the scenario's intervention (variant key None:
        every configuration plays it), or None."""
        if self.forbid is not None:
            return self.forbid, None
        for v in self.compare or ():
            if v.forbid is not None:
                return v.forbid, v.key
        return None

    @property
    def plays_games(self) -> bool:
        """True when the scenario has games of its own (not only [ladder]/[tune])."""
        return self.games > 0

    @property
    def game_def(self) -> Game:
        """The registered :class:`~analyzer.games.Game` this scenario plays."""
        return load_game(self.game)

    def as_dict(self) -> dict:
        """JSON-able form for manifests (the scenario as resolved)."""
        return {
            "game": self.game,
            "path": self.path,
            "name": self.name,
            "description": self.description,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "strategies": list(self.strategies) if self.strategies else None,
            "lineup": list(self.lineup) if self.lineup else None,
            "rotation": self.rotation if self.lineup else None,
            "rules": dict(self.rulings),
            "overrides": dict(self.overrides),
            "strategy_params": {k: dict(v) for k, v in self.strategy_params.items()},
            "sweep": [{"param": a.param, "values": list(a.values)} for a in self.sweep],
            "compare": (
                {
                    v.key: {
                        "label": v.label,
                        "rules": dict(v.rulings),
                        "overrides": dict(v.overrides),
                        "strategies": list(v.strategies) if v.strategies else None,
                        **({"forbid": v.forbid.as_dict()} if v.forbid is not None else {}),
                    }
                    for v in self.compare
                }
                if self.compare
                else None
            ),
            "questions": [dict(q) for q in self.questions],
            "ladder": self.ladder.as_dict() if self.ladder is not None else None,
            "tune": self.tune.as_dict() if self.tune is not None else None,
            **({"fields": [f.as_dict() for f in self.fields]} if self.fields else {}),
            **({"forbid": self.forbid.as_dict()} if self.forbid is not None else {}),
            **({"sensitivity": self.sensitivity.as_dict()} if self.sensitivity is not None else {}),
            "output": {
                "claims": self.claims,
                "save_tables": self.save_tables,
                "batch_size": self.batch_size,
            },
        }


@dataclass(frozen=True)
class Cell:
    """One resolved configuration: a sweep point, a comparison variant, or the whole scenario."""

    index: int
    label: str
    params: dict  #: swept parameter -> value, or {"variant": "a"}; {} for a plain scenario
    players: int
    orders: tuple[tuple[str, ...], ...]  #: strategies per seat, one tuple per seat order
    rulings: dict
    overrides: dict
    rules: Any  #: the game's rules object (``Game.load_rules``)
    game: str = DEFAULT_GAME
    #: the strategy parameters its seats play (the scenario's, its field's on top)
    strategy_params: dict = field(default_factory=dict)
    field_key: str = ""  #: key of its field of players (``[fields]``), "" without fields
    #: with an intervention: the seats it applies to in each seat order (``orders``);
    #: marked in every configuration, also where nothing is forbidden, so paired
    #: arms compare the same seats. () without an intervention
    treated: tuple[tuple[int, ...], ...] = ()
    #: what the treated seats may not do here (kind -> ids); {} = nothing forbidden
    forbid: dict = field(default_factory=dict)

    def describe(self) -> dict:
        """JSON-able description for the manifest."""
        out = {
            "index": self.index,
            "label": self.label,
            "params": {k: _jsonable(v) for k, v in self.params.items()},
            "players": self.players,
            "orders": [list(o) for o in self.orders],
            "rules": load_game(self.game).describe_rules(self.rules),
        }
        if self.field_key:
            out["field"] = self.field_key
            out["strategy_params"] = {k: dict(v) for k, v in self.strategy_params.items()}
        if self.treated:
            out["treated"] = [list(t) for t in self.treated]
            out["forbid"] = {k: list(v) for k, v in self.forbid.items()}
        return out


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
    if ("ladder" in raw or "tune" in raw) and not any(k in raw for k in GAME_KEYS):
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
    if "ladder" in raw or "tune" in raw:
        rules = game.load_rules(rulings, overrides, f"{where}: rules")
        sc = replace(sc, **_sections(raw, where, game, players, rules))
    if "sensitivity" in raw:
        from analyzer.runs.sensitivity_file import parse_sensitivity

        sc = replace(sc, sensitivity=parse_sensitivity(raw["sensitivity"], where))
        _check_sensitivity(sc, where)
    return sc


def _check_variant_metrics(sc: Scenario, cells: list[Cell], where: str) -> None:
    """A ``variant_effect`` question's ``metric`` is one the comparison reports: win,
    score, a per-game figure or a column the game declares (with ``seat``: a
    per-seat one)."""
    from analyzer.games import merge_columns
    from analyzer.tables.aggregate import metric_scopes

    asked = [
        (i, q["params"])
        for i, q in enumerate(sc.questions)
        if q["id"] == "variant_effect" and q["params"].get("metric") is not None
    ]
    if not asked:
        return
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
                "'strategies' or 'lineup'; this scenario has only [ladder]/[tune])"
            )
    seed = raw.get("seed")
    _check(seed is None or _seed_ok(seed), where, "seed", seed, SEED_ALLOWED)
    rulings = _rulings(game, raw.get("rules", {}), where, "rules")
    overrides = _overrides(raw.get("overrides", {}), where, "overrides")
    strategy_params = _strategy_params(game, raw.get("strategy_params", {}), where)
    claims, save_tables, batch_size = _output(raw, where)
    rules = game.load_rules(rulings, overrides, f"{where}: rules")
    sections = _sections(raw, where, game, players, rules)
    if players is None:
        players = (sections["ladder"] or sections["tune"]).players
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


def with_overrides(sc: Scenario, games: int | None = None, seed: int | None = None) -> Scenario:
    """The scenario with ``games`` and/or ``seed`` replaced (command-line options)."""
    if games is not None:
        _check(_is_int(games) and 1 <= games <= MAX_GAMES, "--games", None, games, GAMES_ALLOWED)
        if not sc.plays_games:
            raise InputError(
                f"--games: {sc.path} has no games of its own, only [ladder]/[tune] "
                "(allowed: set their 'games' keys in the file)"
            )
        sc = replace(sc, games=int(games))
    if seed is not None:
        _check(_seed_ok(seed), "--seed", None, seed, SEED_ALLOWED)
        sc = replace(sc, seed=int(seed))
    return sc


# --------------------------------------------------------------------------- expansion


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
    return total, tuple(total // n for n in counts)


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
                if vkey is None or params.get("variant") == vkey:
                    forbid = target.kinds()
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


def comparison_pairs(sc: Scenario, cells: list[Cell]) -> tuple[tuple[int, int], ...]:
    """``(a, v)`` cell pairs of a comparison: in each field of players, the cell of
    every variant after the first paired with the first's (variant ``a``)."""
    if not sc.compare:
        return ()
    k = len(sc.compare)
    return tuple((i, i + j) for i in range(0, len(cells), k) for j in range(1, k))


# --------------------------------------------------------------------------- validation helpers


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
        out.append(FieldSpec(name, label, strategies, lineup, rotation, params))
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


def _fmt(v) -> str:
    if isinstance(v, list | tuple):
        return "[" + ",".join(str(x) for x in v) + "]"
    return str(v)


def _short(param: str) -> str:
    return param.split(".")[-1] if param.startswith("rules.") else param


def _jsonable(v):
    return list(v) if isinstance(v, tuple) else v
