"""What every game's batch job does the same way: its seats checked, its
parameters frozen, its core columns, its luck columns, a quick simulation.

A game's ``game.py`` keeps what only it knows: its ``GameJob`` (a :class:`Job`
with the fields its checkpoint fingerprint names), how a batch is played
(``play_raw``) and the columns it adds to the ``games`` table. The rest is
here, once:

- :class:`Job`: a job built from checked arguments (:meth:`Job.make`, behind
  every game's ``make_job``);
- :func:`resolve_strategies`, :func:`check_players`, :func:`check_games`: the
  arguments of ``make_job`` and ``simulate``, with the one-line errors naming
  ``strategy``, ``players`` and ``games``;
- :func:`param_overrides`: ``strategy_params`` checked against the strategies
  and their parameter names (the ``search`` player's own settings left to
  :func:`analyzer.kernels.search_settings.search_settings`), :func:`seat_rows`: applied
  to each seat's parameter row, :func:`freeze_params` and
  :func:`thaw_params`: the job's hashable copy of them and back;
- :func:`strategy_categories`, :func:`core_columns`, :func:`luck_columns`: the
  ``games`` table's core columns and the luck terms' two; :func:`batch_tables`:
  what a batch returns;
- :func:`play_batch`: a batch kernel called with the job's random streams;
- :func:`simulate`: ``make_job`` then one batch, in this process.

Every game lists its strategies in the same order: those it first shipped, then
``baseline`` (frozen, the yardstick), then ``search`` (slow).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from analyzer.core.errors import InputError, bad_value
from analyzer.core.seeding import resolve_seed, root_key
from analyzer.games import strategy_column

#: the strategy whose ``strategy_params`` hold its own settings (budget, width, ...)
SEARCH = "search"


def resolve_strategies(
    players: int, strategies: str | Sequence[str], names: Sequence[str], where: str = "strategy"
) -> tuple[str, ...]:
    """One strategy name per seat from a name, a comma list, or a sequence; every
    name among ``names``."""
    if isinstance(strategies, str):
        strategies = [x.strip() for x in strategies.split(",") if x.strip()]
    strategies = list(strategies)
    if len(strategies) == 1:
        strategies = strategies * players
    if len(strategies) != players:
        raise InputError(
            f"{where}: {len(strategies)} strategies for {players} players "
            "(allowed: one for every seat, or one for all)"
        )
    for name in strategies:
        if name not in names:
            raise bad_value(where, name, ", ".join(names))
    return tuple(strategies)


def check_players(players, tables, where: str = "players") -> int:
    """``players`` as an int, if a whole number from ``tables.min_players`` to
    ``tables.max_players`` (a game's rules tables)."""
    low, high = tables.min_players, tables.max_players
    if isinstance(players, bool) or not isinstance(players, int | np.integer):
        raise bad_value(where, players, f"an integer from {low} to {high}")
    if not low <= players <= high:
        raise bad_value(where, players, f"{low} to {high}")
    return int(players)


def check_games(games, where: str = "games") -> int:
    """``games`` as an int, if a positive whole number."""
    if isinstance(games, bool) or not isinstance(games, int | np.integer) or games < 1:
        raise bad_value(where, games, "a positive integer")
    return int(games)


def param_overrides(
    params: dict | None,
    names: Sequence[str],
    param_names: Sequence[str],
    *,
    frozen: Sequence[str] = ("baseline",),
    settings: Sequence[str] | None = (),
) -> Iterator[tuple[str, str, object]]:
    """``(strategy, param, value)`` of each override of ``params`` (``{strategy:
    {param: value}}``), checked: a strategy among ``names`` and not ``frozen``
    (``strategy_params: bad value ...``), a parameter among ``param_names``
    (``strategy_params.<strategy>: bad value ...``).

    ``settings``: the search player's own settings, left out here (its
    :func:`~analyzer.kernels.search_settings.search_settings` checks them); None: the
    search's whole table is (its row is another strategy's)."""
    tunable = ", ".join(s for s in names if s not in frozen)
    for name, values in (params or {}).items():
        if name == SEARCH and settings is None:
            continue
        if name in frozen:
            raise bad_value("strategy_params", name, f"{tunable} ({name} is frozen: no parameters)")
        if name not in names:
            raise bad_value("strategy_params", name, tunable)
        own = tuple(settings or ()) if name == SEARCH else ()
        for key, value in dict(values).items():
            if key in own:
                continue
            if key not in param_names:
                allowed = ", ".join((*param_names, *own))
                raise bad_value(f"strategy_params.{name}", key, allowed)
            yield name, key, value


def seat_rows(
    rows, strategies: Sequence[str], params: dict | None, names, param_names, settings=()
) -> np.ndarray:
    """float64[seats, len(param_names)]: each seat's row (``rows``, one per seat)
    with the overrides of ``params`` (:func:`param_overrides`) applied to every
    seat that plays their strategy."""
    prm = np.array(rows, np.float64).reshape(len(strategies), len(param_names))
    for name, key, value in param_overrides(params, names, param_names, settings=settings):
        for seat, s in enumerate(strategies):
            if s == name:
                prm[seat, param_names.index(key)] = float(value)
    return prm


def freeze_params(params: dict | None) -> tuple:
    """``params`` as a job holds them: ``((strategy, ((param, value), ...)), ...)``,
    sorted (hashable, and the same in a checkpoint's fingerprint whatever the
    order given)."""
    return tuple(
        (name, tuple(sorted(dict(values).items())))
        for name, values in sorted((params or {}).items())
    )


def thaw_params(frozen: tuple) -> dict:
    """:func:`freeze_params`'s ``params`` back: ``{strategy: {param: value}}``."""
    return {name: dict(values) for name, values in frozen}


def strategy_categories(
    strategies: Sequence[str], names: Sequence[str], first: int = 4
) -> tuple[str, ...]:
    """Categories of the ``strategy`` column: the strategies up to the last one a
    seat plays, and at least the ``first`` a game shipped before ``baseline`` and
    ``search`` (so the tables of earlier runs, and their pinned hashes, stay as
    they were)."""
    last = max(names.index(s) for s in strategies)
    return tuple(names[: max(last + 1, first)])


def core_columns(job, start: int, count: int, categories: Sequence[str]) -> dict:
    """The first core columns of games ``start .. start+count-1`` of ``job`` (its
    ``players`` and ``strategies``), one row per game and seat: ``game``, ``seat``,
    ``n_players``, ``strategy``. A game adds ``score``, ``win``, ``game_turns``
    and its own columns in the order it declares them."""
    n = job.players
    return {
        "game": np.repeat(np.arange(start, start + count, dtype=np.int64), n),
        "seat": np.tile(np.arange(n, dtype=np.int8), count),
        "n_players": np.full(count * n, n, np.int8),
        "strategy": strategy_column(job.strategies, count, categories),
    }


def batch_tables(job, games, luck_out: np.ndarray, **tables) -> dict:
    """What a batch returns: ``{"games": games, **tables}`` (the game's other
    tables, those that are not None), with the luck terms' columns when
    ``job.luck`` (:func:`luck_columns`)."""
    if job.luck:
        luck_columns(games, luck_out)
    return {"games": games} | {name: t for name, t in tables.items() if t is not None}


def luck_columns(games, luck_out: np.ndarray) -> None:
    """Add the luck terms to the ``games`` table: ``luck_win`` and ``luck_score``,
    each row's luck summed over its kinds of event (``luck_out``: float64[rows,
    kinds, 2], one row per row of ``games``; ``docs/statistics.md``)."""
    luck = luck_out[: len(games)].sum(axis=1)
    games["luck_win"] = luck[:, 0]
    games["luck_score"] = luck[:, 1]


def play_batch(kernel: Callable, views: Sequence, job, start: int, count: int) -> None:
    """Call a game's batch kernel: ``kernel(*views, players, key0, key1, start,
    count)``, the keys of the job's seed (game ``g`` draws from its own stream)."""
    key0, key1 = root_key(job.seed)
    kernel(*views, job.players, key0, key1, start, count)


@dataclass(frozen=True)
class Job:
    """What every game's batch job shares: picklable, deterministic in ``(start,
    count)``, its ``repr`` the fingerprint of a checkpoint. A game's ``GameJob`` is
    a frozen dataclass that subclasses this, adds the fields ``rules`` (a default
    of the game's) and ``strategy_params`` (:func:`freeze_params`) among its own
    (``luck``, a table's switch, ...) and declares:

    - :attr:`STRATEGIES`: its strategy names, in the order of their codes;
    - :meth:`default_rules`: the rules of a job given none;
    - :meth:`check`: its own checks of a job's arguments (parameter names and
      values, the search's settings), returning its fields as the job holds them.
    """

    players: int
    strategies: tuple[str, ...]  #: one per seat; seat 0 plays first
    seed: int

    STRATEGIES: ClassVar[tuple[str, ...]] = ()

    @staticmethod
    def default_rules():
        """The rules a job plays when given none."""
        raise NotImplementedError

    @classmethod
    def check(cls, rules, players: int, strategies: tuple[str, ...], params, **fields) -> dict:
        """The game's own checks of ``params`` (``strategy_params``) and ``fields``
        (the job's other fields, as given): ``fields`` as the job holds them."""
        return fields

    @classmethod
    def make(cls, players, strategies, seed=None, rules=None, *, strategy_params=None, **fields):
        """A job from checked arguments, in this order: ``players`` (the rules'
        range), ``strategies`` (a name, a comma list, or one per seat),
        ``strategy_params`` and ``fields`` (:meth:`check`); ``seed`` (None: a
        fresh one) resolved, ``strategy_params`` frozen."""
        rules = rules or cls.default_rules()
        players = check_players(players, rules.tables)
        strategies = resolve_strategies(players, strategies, cls.STRATEGIES)
        fields = cls.check(rules, players, strategies, strategy_params, **fields)
        return cls(
            players=players,
            strategies=strategies,
            seed=resolve_seed(seed),
            rules=rules,
            strategy_params=freeze_params(strategy_params),
            **fields,
        )

    def params_dict(self) -> dict:
        """``strategy_params`` as given: ``{strategy: {param: value}}``."""
        return thaw_params(self.strategy_params)


def simulate(
    make_job: Callable, players, strategies, games, seed=None, rules=None, **options
) -> dict:
    """The tables of ``games`` games played in this process by ``make_job(players,
    strategies, seed, rules, **options)``, from game ``first_game`` (an option, 0
    if not given). ``games`` is checked first."""
    games = check_games(games)
    first_game = options.pop("first_game", 0)
    return make_job(players, strategies, seed, rules, **options)(first_game, games)


def freeze_forbid(forbid: dict, players: int, ids_of, kinds: str) -> tuple:
    """A game's ``forbid`` (``{seat: {kind: [id, ...]}}``) checked and frozen:
    ``((seat, kind, ids), ...)`` sorted. ``ids_of(kind)``: the ids a seat may be barred
    from (empty: no such kind); ``kinds``: the kinds allowed, in words. Raises
    InputError naming a bad seat, kind or id."""
    from analyzer.core.errors import bad_value

    out = []
    for seat, by_kind in sorted(forbid.items()):
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise bad_value("forbid: seat", seat, f"a seat from 0 to {players - 1}")
        for kind, ids in sorted(by_kind.items()):
            allowed = ids_of(kind)
            if not allowed:
                raise bad_value("forbid: kind", kind, kinds)
            for x in ids:
                if x not in allowed:
                    raise bad_value(f"forbid: {kind}", x, ", ".join(allowed))
            if ids:
                out.append((seat, kind, tuple(sorted(ids))))
    return tuple(out)


def job_options(luck: bool | None = None, forbid: dict | None = None) -> dict:
    """A game's ``make_job`` keyword options from a plugin's: ``luck`` only when
    given (None: the game's default) and ``forbid`` only when set (a job without
    it is today's, fingerprint included)."""
    options = {} if luck is None else {"luck": luck}
    if forbid:
        options["forbid"] = forbid
    return options
