"""The game seam: what a game declares, and the registry that finds games by name.

Everything outside a game's own folder (``analyzer/<game>/``) knows a game only
through this module: the runner, scenarios, aggregation, charts, reports and the
CLI ask :func:`load_game` for a :class:`Game` and use its methods. A game
registers itself from its package's ``__init__`` with :func:`register_game`,
giving a factory that builds its :class:`Game` on first use (so that listing the
games imports no engine), much as pgx's ``make(env_id)`` and OpenSpiel's
``register_game`` do. Games shipped inside the package are found by importing
every subpackage of :mod:`analyzer`; a game shipped in another distribution
registers through the ``analyzer.games`` entry-point group.

**The core table contract.** A game's ``games`` table has one row per game and
seat and always the :data:`CORE_COLUMNS`; every other column is declared by the
game as a :class:`Column` with a description and the role it plays in the
generic tables (never recognised by a name prefix). See ``docs/CONTRACTS.md``.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported where a table is made, not to list games
    import pandas as pd

from analyzer.core.errors import AnalyzerError, InputError, bad_value

#: the game of a scenario file or API call that names none
DEFAULT_GAME = "unearth"

#: columns every game's ``games`` table has, in this order, before its own columns
CORE_COLUMNS = ("game", "seat", "n_players", "strategy", "score", "win", "game_turns")

#: what each core column holds
CORE_DESCRIPTIONS = {
    "game": "game index within the run (int64); game g draws only from its own stream",
    "seat": "seat, 0 = first player (int8)",
    "n_players": "players in the game (int8)",
    "strategy": "strategy of the seat (categorical)",
    "score": "final score of the seat (integer, or float64 for exact fractional scores)",
    "win": "share of the win: 1 alone, 1/k for a k-way tie, else 0 (float32)",
    "game_turns": "turns played in the whole game (integer)",
}

#: columns added in front by a scenario run: configuration and seat order
RUN_COLUMNS = ("cell", "order")
#: added by a scenario run with an intervention (``forbid``): 1 for the seats it
#: applies to (in every configuration, so the paired arms mark the same seats)
#: and by a game with luck terms (``analyzer.kernels.luck``, ``docs/statistics.md``): each
#: row's summed luck, ``luck_win`` and ``luck_score`` (float64)
OPTIONAL_RUN_COLUMNS = ("treated", "luck_win", "luck_score")

#: roles a declared column can play (see :class:`Column`)
KINDS = ("metric", "label")


@dataclass(frozen=True)
class Column:
    """A column a game adds to its ``games`` table.

    ``kind`` is ``"metric"`` (numeric, per seat: its mean is reported over all
    seats and by seat) or ``"label"`` (a category: only the game's own reducers
    use it). Flags for metrics: ``part`` marks a part of the score (reported by
    strategy, in the score-parts table, sweeps and paired comparisons);
    ``by_strategy`` reports the mean by strategy too; ``sweep`` adds the mean
    to sweep tables; ``game_mean`` names a per-game mean over seats that is
    reported with the game-level figures (length, shared wins).
    """

    name: str
    description: str
    kind: str = "metric"
    part: bool = False
    by_strategy: bool = False
    sweep: bool = False
    game_mean: str | None = None

    def as_dict(self) -> dict:
        """JSON-able form (for manifests, so a saved run can be reduced again)."""
        return {
            "name": self.name,
            "description": self.description,
            "kind": self.kind,
            "part": self.part,
            "by_strategy": self.by_strategy,
            "sweep": self.sweep,
            "game_mean": self.game_mean,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Column:
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass(frozen=True)
class Strategy:
    """A strategy: its name, what it does, and its parameters with default values.

    ``bounds`` gives the range ``analyzer tune`` searches for a parameter
    (``(name, low, high)``). A strategy that declares bounds is tuned in those
    parameters only (the others, such as a player's memory, are properties of the
    player, not skills: searched only when named with a bound); one that declares
    none has each parameter searched from 0 to twice its default, at least 1. A
    ``frozen`` strategy takes no parameter changes (a yardstick such as each game's
    ``baseline``: :attr:`Game.yardstick`). A ``slow`` strategy plays many
    games for each decision (a search player): ``analyzer tune`` does not tune it
    and a ladder rates it only when it is named.

    ``by_players`` holds default rows that differ by player count
    (``(players, params)`` pairs, each a full row like ``params``): a count
    without its own row takes the row of the nearest smaller count listed, and
    ``params`` below them all (:meth:`params_for`). ``share_floor``, when set,
    is a constraint ``analyzer tune`` keeps: ``(score columns, share)``, the
    strategy takes at least that share of its points from those columns.
    """

    name: str
    description: str
    params: tuple[tuple[str, float], ...] = ()
    bounds: tuple[tuple[str, float, float], ...] = ()
    frozen: bool = False
    slow: bool = False
    by_players: tuple[tuple[int, tuple[tuple[str, float], ...]], ...] = ()
    share_floor: tuple[tuple[str, ...], float] | None = None

    def params_for(self, players: int) -> dict[str, float]:
        """The default parameters at ``players`` seats (see ``by_players``)."""
        row = dict(self.params)
        for n, params in sorted(self.by_players):
            if n <= players:
                row = dict(params)
        return row


@dataclass(frozen=True)
class Barrable:
    """One thing restricted play bars a seat from (or forces on it): ``thing`` its
    id (unique among the game's), ``label`` its name in words, ``forbid`` what
    the seat's ``make_job(forbid=...)`` gets (kind -> ids), ``group`` the kind of
    thing it is (``"wonders"``, ``"inventions"``, ``"actions"``), ``forced``
    True when the seat is made to do it rather than barred from it."""

    thing: str
    label: str
    forbid: dict
    group: str
    forced: bool = False


@dataclass
class Game:
    """What a game offers the machinery. A game subclasses this and fills it in.

    The attributes say what the game is; the methods build its rules and jobs.
    Methods with a default here are optional (a game with nothing to add leaves
    them). ``rules`` objects are the game's own; the machinery passes them back
    to the game and never looks inside.
    """

    name: str  #: registry name, also the ``game`` key of scenario files
    title: str  #: display name, e.g. "Unearth"
    rules_version: str
    min_players: int
    max_players: int
    strategies: tuple[Strategy, ...]
    default_strategy: str
    #: the strategy that ratings and tuning measure against (a frozen one, such as
    #: ``baseline``): the default field of ``analyzer tune`` and the zero of
    #: ``analyzer ladder`` when it is rated; None: the default strategy
    yardstick: str | None = None
    #: version of the strategies' behaviour, written beside ``rules_version`` in every
    #: manifest and report; a game bumps it whenever a strategy plays differently
    strategies_version: str = "1"
    #: tables a batch may return besides ``games`` (name -> description)
    tables: dict[str, str] = field(default_factory=dict)
    #: the questions its reports answer when a scenario names none
    #: (:class:`analyzer.tables.findings.Question`, in page order); empty: the generic ones
    #: (:data:`analyzer.tables.findings.GENERIC`)
    questions: tuple = ()
    #: what a scenario's ``forbid`` may forbid a seat (interventions): the key
    #: naming the things (``"wonders"``) -> what forbidding one means; empty: none
    interventions: dict[str, str] = field(default_factory=dict)
    #: strategies that run the same code and differ only by their parameter row:
    #: any of them plays another's row when given it in full, so ``analyzer tune``
    #: can seat a strategy's shipped row against its candidate rows (self-play,
    #: ``--field self``); empty: the game offers no self-play tuning
    row_strategies: tuple[str, ...] = ()
    #: the strategy ``analyzer tune`` (and a scenario's ``[tune]``) tunes when none
    #: is named: the one whose row the default plays; None: the default strategy
    tune_strategy: str | None = None
    #: games per batch when a run does not say (``--batch-size``, a scenario's
    #: ``[output] batch_size``): enough that a batch of the fastest player takes
    #: a tenth of a second or more, so the fixed cost of a batch (its tables,
    #: checks and partial aggregate, a few ms) stays small beside its games
    batch_size: int = 5000

    # ----------------------------------------------------------------- rules

    def ruling_names(self) -> tuple[str, ...]:
        """Keys allowed in a scenario's ``[rules]`` table."""
        return ()

    def ruling_specs(self) -> tuple:
        """Each ruling switch described (:class:`analyzer.games.rulings.Ruling`:
        values, default, one line of meaning per value), for ``analyzer games
        --rules``; empty: the game describes none."""
        return ()

    def load_rules(self, rulings: dict, overrides: dict, where: str) -> Any:
        """The game's rules object from ruling switches and value overrides.

        Raises :class:`InputError` (prefixed with ``where``) for a bad value."""
        raise NotImplementedError

    def rules_settings(self, rules) -> tuple[dict, dict]:
        """``(rulings, overrides)`` that :meth:`load_rules` turns back into ``rules``."""
        raise AnalyzerError(f"game {self.name!r}: pass rulings and overrides, not a rules object")

    def override_example(self, path: str) -> Any:
        """The shipped value an override path replaces, or None if unknown."""
        return None

    def player_range(self, rules) -> tuple[int, int]:
        """Smallest and largest player count ``rules`` allow."""
        return self.min_players, self.max_players

    def describe_rules(self, rules) -> dict:
        """JSON-able description of ``rules`` for manifests."""
        return {}

    def assumed_values(self, rules) -> list[dict]:
        """Values ``rules`` run with that no rulebook gives (``{"key", "value", "note"}``)."""
        return []

    def labels(self, rules) -> dict[str, str]:
        """Display names of ids that appear in table columns and keys."""
        return {}

    def columns(self, rules) -> tuple[Column, ...]:
        """The columns this game adds to the ``games`` table under ``rules``."""
        return ()

    # ----------------------------------------------------------------- playing

    def strategy_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.strategies)

    def tune_strategy_name(self) -> str:
        """:attr:`tune_strategy`, or the default strategy when the game names none."""
        return self.tune_strategy or self.default_strategy

    def yardstick_name(self) -> str:
        """:attr:`yardstick`, or the default strategy when the game names none."""
        return self.yardstick or self.default_strategy

    def check_strategy_params(self, params: dict) -> None:
        """Check the values of ``strategy_params`` (``{strategy: {param: value}}``,
        names already checked) beyond "a number": raise :class:`InputError` naming
        ``strategy_params.<strategy>.<param>`` (a search's budget, say). Default: none."""

    def make_job(
        self,
        players: int,
        strategies: Sequence[str],
        seed: int,
        rules,
        *,
        claims: bool = False,
        strategy_params: dict | None = None,
        forbid: dict | None = None,
    ) -> Callable[[int, int], dict[str, pd.DataFrame]]:
        """A picklable batch function ``(start, count) -> {name: DataFrame}``
        playing one seat order; deterministic in its arguments and ``seed``.
        ``forbid`` (only for a game with :attr:`interventions`; never passed
        otherwise) maps seats to what they may not do: ``{seat: {kind: [id, ...]}}``;
        an empty or missing one plays the game as printed."""
        raise NotImplementedError

    def intervention_ids(self, rules, kind: str) -> tuple[str, ...]:
        """The ids a scenario's ``forbid.<kind>`` may name under ``rules``."""
        return ()

    def intervention_words(self, kind: str) -> tuple[str, str, str]:
        """``(verb, past, instead)`` for what a seat does with a thing of ``kind`` and what
        it gets when forbidden (``("build", "built", "the wonder token it takes
        instead")``), used in the findings' sentences."""
        return ("use", "used", "what it does instead")

    def uptake_columns(self, kind: str, ids: Sequence[str]) -> tuple[str, ...]:
        """Columns of the ``games`` table (0/1 per seat-game) saying a seat used what
        ``forbid.<kind>`` forbids (built the wonder): the *uptake* of an intervention."""
        return ()

    def barrable(self, rules) -> tuple[Barrable, ...]:
        """The things restricted play bars a seat from, one at a time
        (:mod:`analyzer.studies.restricted`): by default every id of every kind
        of :attr:`interventions`, named by :meth:`labels`; a game adds groups (all
        its named wonders: the wonder path) and things forced rather than barred."""
        names = self.labels(rules)
        return tuple(
            Barrable(x, names.get(x, x), {kind: (x,)}, kind)
            for kind in self.interventions
            for x in self.intervention_ids(rules, kind)
        )

    def replay(self, job, game: int) -> str:
        """Game ``game`` of ``job`` as readable text, move by move."""
        raise AnalyzerError(f"game {self.name!r} has no replay")

    def replay_events(self, job, game: int) -> dict:
        """Game ``game`` of ``job`` as a checkable trace (``analyzer replay --json``):
        ``{"setup": {...}, "events": [...], "final": {...}}``, every chance outcome and
        every choice in play order, each event a dict with ``"kind"`` (``"chance"``,
        ``"choice"`` or ``"effect"``, a consequence the rules fix), ``"type"`` (the
        game's event name), ``"turn"`` and ``"seat"`` (None for the table); the
        contract is in docs/CONTRACTS.md ("The checkable trace")."""
        raise AnalyzerError(f"game {self.name!r} has no checkable trace (replay --json)")

    def score_track(self, job, trace: dict) -> dict | None:
        """Each seat's score if the game ended after each turn, from the checkable
        trace of a game of ``job`` (:meth:`replay_events`): ``{"turns": [...],
        "scores": [[per seat], ...]}`` and, where the game breaks a tied score,
        ``"keys"`` (per turn, per seat, a list compared after the score; the
        drama study's leader, :mod:`analyzer.studies.drama`), or None: the game
        cannot say (the default)."""
        return None

    def trainer(self):
        """What ``analyzer train`` (:mod:`analyzer.studies.training`) asks of the
        game: an object with its candidates' feature names, its identity and
        shipped weights and a ``label`` method (self-play positions valued by its
        search), or None: the game has no training features (the default).
        Cheap: no engine is loaded until ``label`` runs."""
        return None

    def luck_fit(self):
        """How the game's luck terms' value estimate is fitted, as the shared
        fitting (:mod:`analyzer.games.luck_fit`) runs it: a
        :class:`~analyzer.games.luck_fit.LuckFit` (V's parameters and shipped
        row, a training run's games, the command's defaults), or None: the game
        has no luck terms to fit (the default)."""
        return None

    # ----------------------------------------------------------------- reports

    def derive(self, games: pd.DataFrame) -> pd.DataFrame:
        """The ``games`` table with the game's derived columns added (declared too)."""
        return games

    def reduce(self, tables: dict[str, pd.DataFrame]) -> list[pd.DataFrame]:
        """Extra partial rows (see :mod:`analyzer.tables.aggregate`) from one batch."""
        return []

    def report_tables(self, agg: pd.DataFrame, info: dict) -> dict[str, pd.DataFrame]:
        """The game's own report tables from the summed partials."""
        return {}

    def exact_tables(self, cells) -> dict[str, pd.DataFrame]:
        """Tables computed without simulation (exact odds), by cell."""
        return {}

    def charts(self, tables: dict[str, pd.DataFrame], info: dict, stamp: str) -> list:
        """``[(name, Figure)]``; a name already drawn by the generic charts replaces it."""
        return []

    def table_pages(self) -> tuple[tuple[str, str, str], ...]:
        """``(table, title, note)`` of the game's tables shown as report pages."""
        return ()

    def title_notes(self, tables: dict[str, pd.DataFrame]) -> list[str]:
        """Extra lines for the first page of a report."""
        return []

    def info(self, rules) -> dict:
        """Extra JSON-able facts for the manifest, read back by the game's tables."""
        return {}

    def web_page(self) -> str | None:
        """The HTML of the game's page in ``analyzer serve`` (a fragment the page shell
        wraps: the table state set by taps, the odds and advice shown), or None: the
        generic page (the example state as text, edited and sent to ``advise``)."""
        return None

    def web_warm_up(self) -> tuple[tuple[str, dict], ...]:
        """Questions ``analyzer serve`` answers once at start-up to load this game's
        engines: ``(command, fields)``, the fields as the API takes them; a ``state``
        of ``"example"`` stands for the game's ``advise --example``."""
        return ()

    def register_commands(self, app) -> None:
        """Add the game's own CLI commands to the typer ``app``: by default the
        modules it declared to :func:`register_game` (``commands``), if any."""
        for module in command_modules(self.name) or ():
            importlib.import_module(module).register(app)

    def table_spec(self):
        """The game's table questions (``analyzer odds``/``advise``, :func:`analyzer.odds`,
        the web API): a :class:`analyzer.games.table.TableSpec`, or None (none). By
        default the ``TABLE`` of the module it declared to :func:`register_game`
        (``table``), if any."""
        module = table_module(self.name)
        return None if module is None else importlib.import_module(module).TABLE


# --------------------------------------------------------------------------- registry

_FACTORIES: dict[str, Callable[[], Game]] = {}
_GAMES: dict[str, Game] = {}
#: games that failed to import or build: name -> the error, one line
BROKEN: dict[str, str] = {}
_DISCOVERED = False
#: True while this process discovers the games (in the thread holding the lock)
_DISCOVERING = False
_DISCOVER_LOCK = threading.RLock()
#: the machinery's folders below analyzer/, lowest layer first (docs/architecture.md:
#: a folder's modules import only from its own folder and the folders before it);
#: every other package there is a game
LAYERS = ("core", "kernels", "games", "tables", "runs", "studies", "report", "web", "cli")
_NOT_GAMES = {*LAYERS, "commands"}


#: the modules of each game's own CLI commands, if the game declared them
_COMMANDS: dict[str, tuple[str, ...]] = {}
#: the module of each game's table questions (its ``TABLE``), if the game declared it
_TABLES: dict[str, str] = {}


def register_game(
    name: str,
    factory: Callable[[], Game],
    *,
    commands: Sequence[str] | None = None,
    table: str | None = None,
) -> None:
    """Make game ``name`` loadable; ``factory()`` builds its :class:`Game` on first use.

    ``commands``: the modules of the game's own CLI commands (each with a
    ``register(app)``; ``()``: none), so that the CLI adds them without building
    the game (which may import pandas, rules data, questions), and a one-shot
    command starts fast. None (the default): the CLI builds the game and calls
    its :meth:`Game.register_commands`.

    ``table``: the module whose ``TABLE`` (a :class:`analyzer.games.table.TableSpec`)
    declares the game's table questions (``analyzer odds``/``advise``); read
    without building the game, as ``commands``. None: the game's
    :meth:`Game.table_spec`, if it has one.
    """
    if name in _FACTORIES and _FACTORIES[name] is not factory:
        raise AnalyzerError(f"game {name!r} is registered twice")
    _FACTORIES[name] = factory
    if commands is not None:
        _COMMANDS[name] = tuple(commands)
    if table is not None:
        _TABLES[name] = table


def command_modules(name: str) -> tuple[str, ...] | None:
    """The modules of game ``name``'s own commands as it declared them
    (:func:`register_game`), or None if it did not: build it and ask."""
    _discover()
    return _COMMANDS.get(name)


def table_module(name: str) -> str | None:
    """The module of game ``name``'s table questions as it declared it
    (:func:`register_game`), or None if it did not."""
    _discover()
    return _TABLES.get(name)


def _discover() -> None:
    """Import every game folder and entry point once (each registers itself). Until
    that is done, another thread asking waits for it (it would see a half-filled
    registry: "no such game"); the discovering thread's own questions (a game's
    import may list the games) return at once."""
    global _DISCOVERED, _DISCOVERING
    if _DISCOVERED:
        return
    with _DISCOVER_LOCK:
        if _DISCOVERED or _DISCOVERING:  # done meanwhile, or asked from inside
            return
        _DISCOVERING = True
        try:
            _import_games()
        finally:
            _DISCOVERING = False
            _DISCOVERED = True


def _import_games() -> None:
    # the package's folder, found without importing the package (which imports this)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # one broken game folder must not take the others (or the CLI) down with it
    for info in pkgutil.iter_modules([here]):
        if info.ispkg and info.name not in _NOT_GAMES:
            try:
                importlib.import_module(f"analyzer.{info.name}")  # registers itself
            except Exception as err:  # noqa: BLE001 - reported by available/load_game
                BROKEN[info.name] = _one_line(err)
    if not _entry_points_declared():
        return
    from importlib.metadata import entry_points

    for ep in entry_points(group="analyzer.games"):
        try:
            register_game(ep.name, ep.load())
        except Exception as err:  # noqa: BLE001
            BROKEN[ep.name] = _one_line(err)


_GROUP_LINE = re.compile(r"^\s*\[\s*analyzer\.games\s*\]", re.MULTILINE)


def _entry_points_declared() -> bool:
    """Whether an installed distribution may declare an ``analyzer.games`` entry
    point: the ``entry_points.txt`` of every ``*.dist-info``/``*.egg-info`` folder
    on ``sys.path`` read as text (a few milliseconds), so that importlib.metadata
    (its import and its scan: a noticeable part of the command line's start) runs
    only when one does; True (ask importlib.metadata) for a path entry that is not
    a folder (a zip) or a folder that cannot be read."""
    for entry in sys.path:
        folder = entry or "."
        if not os.path.isdir(folder):
            if os.path.exists(folder):
                return True  # a zip or an egg file: importlib.metadata reads those
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            return True
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            path = os.path.join(folder, name, "entry_points.txt")
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    if _GROUP_LINE.search(f.read()):
                        return True
            except FileNotFoundError:
                continue
            except OSError:
                return True
    return False


def _one_line(err: BaseException) -> str:
    return f"{type(err).__name__}: {' '.join(str(err).split())}"[:300]


def available_games() -> tuple[str, ...]:
    """Names of the registered games, sorted."""
    _discover()
    return tuple(sorted(_FACTORIES))


def load_game(name: str = "unearth", where: str = "game") -> Game:
    """The registered game ``name``; :class:`InputError` naming the allowed ones if unknown."""
    _discover()
    if isinstance(name, str) and name in BROKEN:
        raise AnalyzerError(f"{where}: game {name!r} could not be loaded ({BROKEN[name]})")
    if not isinstance(name, str) or name not in _FACTORIES:
        raise bad_value(where, name, ", ".join(available_games()))
    game = _GAMES.get(name)
    if game is None:
        try:
            game = _GAMES[name] = _FACTORIES[name]()
        except Exception as err:  # noqa: BLE001
            BROKEN[name] = _one_line(err)
            raise AnalyzerError(
                f"{where}: game {name!r} could not be loaded ({BROKEN[name]})"
            ) from None
    return game


# --------------------------------------------------------------------------- the core table


def check_games_table(games: pd.DataFrame, columns: Sequence[Column], where: str) -> None:
    """Raise :class:`AnalyzerError` unless ``games`` has the core columns and
    nothing that is not declared (``cell``/``order`` of a scenario run allowed)."""
    missing = [c for c in CORE_COLUMNS if c not in games.columns]
    if missing:
        raise AnalyzerError(f"{where}: the games table lacks core column {missing[0]!r}")
    known = set(CORE_COLUMNS) | set(RUN_COLUMNS) | set(OPTIONAL_RUN_COLUMNS)
    known |= {c.name for c in columns}
    extra = [c for c in games.columns if c not in known]
    if extra:
        raise AnalyzerError(
            f"{where}: the games table has undeclared column {extra[0]!r} "
            "(a game declares every column beyond the core ones)"
        )


def strategy_column(strategies: Sequence[str], games: int, categories: Sequence[str]):
    """The core ``strategy`` column of ``games`` games whose seats play ``strategies``
    (one name per seat, every name among ``categories``): a categorical built from
    its codes, the same as ``pd.Categorical`` of the names but without a string
    per row to look up."""
    import numpy as np
    import pandas as pd

    categories = list(categories)
    codes = np.array([categories.index(s) for s in strategies], np.int64)
    dtype = _CATEGORIES.get(tuple(categories))
    if dtype is None:  # made once: pandas checks the categories each time it makes one
        if len(_CATEGORIES) > 64:  # a bound on what it keeps
            _CATEGORIES.clear()
        dtype = _CATEGORIES[tuple(categories)] = pd.CategoricalDtype(categories)
    return pd.Categorical.from_codes(np.tile(codes, games), dtype=dtype)


#: the ``strategy`` column's dtype by its categories (a dtype is immutable: shared)
_CATEGORIES: dict[tuple, object] = {}


def describe_columns(columns: Sequence[Column]) -> list[dict]:
    """Core and declared columns as ``{"name", "description", ...}`` rows."""
    core = [{"name": n, "description": d, "kind": "core"} for n, d in CORE_DESCRIPTIONS.items()]
    return core + [c.as_dict() for c in columns]


def merge_columns(groups: Sequence[Sequence[Column]]) -> tuple[Column, ...]:
    """The union of several declarations (first one wins for a repeated name)."""
    seen: dict[str, Column] = {}
    for cols in groups:
        for c in cols:
            seen.setdefault(c.name, c)
    return tuple(seen.values())


def check_kind(column: Column) -> None:
    if column.kind not in KINDS:
        raise AnalyzerError(
            f"column {column.name!r}: kind {column.kind!r} (allowed: metric, label)"
        )


__all__ = [
    "CORE_COLUMNS",
    "DEFAULT_GAME",
    "Barrable",
    "Column",
    "Game",
    "InputError",
    "Strategy",
    "available_games",
    "check_games_table",
    "describe_columns",
    "load_game",
    "merge_columns",
    "register_game",
    "strategy_column",
]
