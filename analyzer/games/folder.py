"""A game in its own folder, with the skeleton every shipped game has.

A game folder ``analyzer/<game>/`` holds the same files with the same roles in
every game (``docs/CONTRACTS.md``, "A game's folder"): ``plugin.py`` (its :class:`GameFolder`),
``rules.py`` (``RULES_VERSION``, the rules loader; its rules objects have
``describe()``), ``game.py`` (the batch job, :mod:`analyzer.games.jobs`),
``replay.py`` (``replay_game``, ``replay_events``), ``tables.py`` (``reduce``,
``report_tables``), ``charts.py``, ``questions.py``, ``data/*.toml``. A
:class:`GameFolder` names its package and gets the members those modules answer
from here, imported when first used (listing games imports no engine).
:func:`strategies_from_rows` makes a game's strategies from its tuned rows
(:class:`analyzer.games.strategy_rows.RowsFile`).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType

from analyzer.games import Game, Strategy
from analyzer.games.strategy_rows import RowsFile


@dataclass
class GameFolder(Game):
    """A :class:`~analyzer.games.Game` whose members come from the skeleton of its
    folder, :attr:`package`: ``rules_version`` (``rules.RULES_VERSION`` when left
    empty), :meth:`override_example` (``rules.DATA``, the data files),
    :meth:`describe_rules` and :meth:`rules_settings` (``describe()`` of the
    game's rules objects), :meth:`make_job`
    (``game.make_job``), :meth:`replay` and :meth:`replay_events`
    (``replay.replay_game``, ``replay.replay_events``), :meth:`reduce` and
    :meth:`report_tables` (``tables.reduce``, ``tables.report_tables``). A game
    overrides any of them as any :class:`~analyzer.games.Game` would."""

    #: left empty: the rules module's ``RULES_VERSION``
    rules_version: str = field(default="", kw_only=True)
    #: the game's package (``"analyzer.uruk"``), whose modules are the skeleton's;
    #: empty: the package of the module that defines the game's class
    package: str = ""
    #: the keyword of its ``game.make_job`` that turns on the game's own table
    #: (:attr:`tables`), which :meth:`make_job`'s ``claims`` sets; None: its job has none
    table_switch: str | None = None

    def __post_init__(self) -> None:
        if not self.package:
            self.package = type(self).__module__.rpartition(".")[0]
        if not self.rules_version:
            self.rules_version = self.module("rules").RULES_VERSION

    def module(self, name: str) -> ModuleType:
        """The game's module ``name`` of its skeleton (``"rules"``, ``"replay"``, ...)."""
        return importlib.import_module(f"{self.package}.{name}")

    def override_example(self, path: str):
        """The shipped value ``path`` replaces, from the rules module's data files
        ``DATA`` (a :class:`~analyzer.games.rules_data.Decks`; without one: None)."""
        decks = getattr(self.module("rules"), "DATA", None)
        return None if decks is None else decks.example(path)

    def describe_rules(self, rules) -> dict:
        return rules.describe()

    def rules_settings(self, rules) -> tuple[dict, dict]:
        """``(rulings, overrides)`` as ``rules.describe()`` gives them."""
        described = rules.describe()
        return dict(described["rulings"]), dict(described["overrides"])

    def make_job(
        self, players, strategies, seed, rules, *, claims=False, strategy_params=None, luck=None
    ):
        """``game.make_job`` of the game's folder, its own table on with ``claims``
        (:attr:`table_switch`); ``luck`` None: the game's default."""
        from analyzer.games.jobs import job_options

        options = job_options(luck)
        if self.table_switch:
            options[self.table_switch] = claims
        make = self.module("game").make_job
        return make(
            players, tuple(strategies), seed, rules, strategy_params=strategy_params, **options
        )

    def replay(self, job, game: int) -> str:
        return self.module("replay").replay_game(job, game)

    def replay_events(self, job, game: int) -> dict:
        return self.module("replay").replay_events(job, game)

    def score_track(self, job, trace: dict) -> dict | None:
        """``replay.score_track`` of the game's folder, if it has one (else None)."""
        track = getattr(self.module("replay"), "score_track", None)
        return None if track is None else track(job, trace)

    def reduce(self, tables):
        return self.module("tables").reduce(tables)

    def report_tables(self, agg, info):
        return self.module("tables").report_tables(agg, info)


def strategies_from_rows(
    rows: RowsFile,
    names: Sequence[str],
    texts: dict[str, str],
    *,
    search_params: Sequence[tuple] = (),
    bounds: dict[str, tuple] | None = None,
    floors: dict[str, tuple] | None = None,
) -> tuple[Strategy, ...]:
    """A game's strategies (``names``, each described by ``texts``) with their
    parameter rows by player count from ``rows``: ``params`` the first count's
    row, ``by_players`` every count's. ``baseline`` is frozen and ``search``
    slow, its own settings (``search_params``: ``(name, default, meaning)``)
    after its row; ``bounds`` and ``floors`` by strategy name: what ``analyzer
    tune`` searches (none if not named) and the share floor it keeps."""
    extra = tuple((p, v) for p, v, _ in search_params)
    out = []
    for name in names:
        own = extra if name == "search" else ()
        by_players = tuple(
            (n, tuple(zip(rows.params, row, strict=True)) + own)
            for n, row in rows.rows_by_players(name)
        )
        out.append(
            Strategy(
                name,
                texts[name],
                by_players[0][1],
                bounds=(bounds or {}).get(name, ()),
                frozen=name == "baseline",
                slow=name == "search",
                by_players=by_players,
                share_floor=(floors or {}).get(name),
            )
        )
    return tuple(out)
