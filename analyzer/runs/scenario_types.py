"""What a scenario says, once read: :class:`Scenario` and its parts, and :class:`Cell`.

The dataclasses a scenario file is validated into (:mod:`analyzer.runs.scenario_file`)
and the cells it expands into (:mod:`analyzer.runs.scenario_cells`), with the keys a
file may hold and the bounds it is checked against. ``scenarios/README.md``
documents every key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from analyzer.games import DEFAULT_GAME, Game, load_game

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
    "balance",
)
#: keys that give a scenario games of its own (without them it holds only [ladder]/[tune])
GAME_KEYS = ("games", "strategies", "lineup", "fields")
VARIANT_KEYS = ("label", "rules", "overrides", "strategies", "forbid")
#: a comparison variant's name (``[compare.<name>]``)
VARIANT_KEY = re.compile(r"[A-Za-z0-9_]{1,40}")
FIELD_KEYS = ("label", "strategies", "lineup", "rotation", "strategy_params", "games")
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
    #: games of this field, fewer than the scenario's (a small confirmatory run,
    #: e.g. of search players); 0: the scenario's games
    games: int = 0

    def as_dict(self) -> dict:
        return {
            "key": self.key,
            "label": self.label,
            "strategies": list(self.strategies) if self.strategies else None,
            "lineup": list(self.lineup) if self.lineup else None,
            "rotation": self.rotation if self.lineup else None,
            "strategy_params": {k: dict(v) for k, v in self.strategy_params.items()},
            **({"games": self.games} if self.games else {}),
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
    #: game's default (off in every game)
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
    #: ``[balance]`` (:class:`analyzer.runs.balance_file.BalanceSpec`): the balance
    #: question, played by ``analyzer run`` and ``analyzer balance``
    balance: Any = None

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
            **({"balance": self.balance.as_dict()} if self.balance is not None else {}),
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


def _jsonable(v):
    return list(v) if isinstance(v, tuple) else v
