"""Python entry point for whole games: :class:`GameJob` and :func:`simulate`.

The wrapper validates, allocates, owns the seed and turns the kernel's integer
rows into the pandas tables documented in ``docs/CONTRACTS.md``. Game ``g`` of
seed ``s`` draws only from its own stream, so any split into batches gives the
same tables, and two jobs with the same seed share random streams game by game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyzer.core.errors import InputError, StalledGameError, bad_value, input_error
from analyzer.core.seeding import resolve_seed, root_key
from analyzer.games import strategy_column
from analyzer.kernels.kernel_view import results_view
from analyzer.unearth import engine
from analyzer.unearth.defaults import PARAM_NAMES, default_row
from analyzer.unearth.luck import load_value_params, value_tables
from analyzer.unearth.memo import new_memo
from analyzer.unearth.rules import Rules, default_rules
from analyzer.unearth.scoring import N_PARTS, PART_NAMES
from analyzer.unearth.state import new_state
from analyzer.unearth.strategies import (
    FROZEN_STRATEGIES,
    N_PARAMS,
    STRATEGY_NAMES,
)
from analyzer.unearth.structs import pack_memo, pack_state, pack_tables

STRATEGIES = STRATEGY_NAMES
#: categories of the ``strategy`` column when no seat plays ``baseline``: the
#: strategies before it existed, so tables (and their pinned hashes) stay as they were
_CLASSIC = STRATEGIES[:4]
#: the search player's own settings (``strategy_params = {search = {budget = 64}}``)
SEARCH_SETTINGS = {
    "budget": (1, 1_000_000, "an integer from 1 to 1,000,000"),
    "width": (1, 64, "an integer from 1 to 64"),
    "margin": (0.0, 1.0, "a number from 0 to 1"),
    "z": (0.0, 10.0, "a number from 0 to 10"),
}


def resolve_strategies(players: int, strategies: str | Sequence[str], where="strategy"):
    """One strategy name per seat from a name, a comma list, or a sequence."""
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
        if name not in STRATEGIES:
            raise bad_value(where, name, ", ".join(STRATEGIES))
    return tuple(strategies)


def check_players(players, rules: Rules, where="players") -> int:
    t = rules.tables
    if isinstance(players, bool) or not isinstance(players, int | np.integer):
        raise bad_value(where, players, f"an integer from {t.min_players} to {t.max_players}")
    if not t.min_players <= players <= t.max_players:
        raise bad_value(where, players, f"{t.min_players} to {t.max_players}")
    return int(players)


def strategy_arrays(strategies: Sequence[str], params: dict | None = None):
    """``(codes int64[P], params float64[P, N_PARAMS])`` for the kernel.

    ``params`` may override parameters by name for every seat using a strategy:
    ``{"balanced": {"w_stone": 1.5}}``. A frozen strategy (``baseline``) takes none.
    """
    codes = np.array([STRATEGIES.index(s) for s in strategies], np.int64)
    rows = [default_row(s, len(strategies)) for s in strategies]
    prm = np.array(rows, np.float64).reshape(len(codes), N_PARAMS)
    tunable = [s for s in STRATEGIES if s not in FROZEN_STRATEGIES]
    for name, values in (params or {}).items():
        if name in FROZEN_STRATEGIES:
            raise bad_value(
                "strategy_params", name, f"{', '.join(tunable)} ({name} is frozen: no parameters)"
            )
        if name not in STRATEGIES:
            raise bad_value("strategy_params", name, ", ".join(tunable))
        for key, val in values.items():
            if name == "search" and key in SEARCH_SETTINGS:
                continue  # the search's own settings (search_settings)
            if key not in PARAM_NAMES:
                allowed = PARAM_NAMES + (tuple(SEARCH_SETTINGS) if name == "search" else ())
                raise bad_value(f"strategy_params.{name}", key, ", ".join(allowed))
            for seat, s in enumerate(strategies):
                if s == name:
                    prm[seat, PARAM_NAMES.index(key)] = float(val)
    return codes, prm


def search_settings(params: dict | None) -> dict[str, float]:
    """The ``search`` player's settings: its defaults with ``params["search"]``
    applied (checked: ``strategy_params.search.<key>: bad value ...``;
    :func:`analyzer.kernels.search.search_settings`)."""
    from analyzer.kernels.search import search_settings as checked
    from analyzer.unearth.defaults import SEARCH_PARAMS

    return checked(params, SEARCH_PARAMS, SEARCH_SETTINGS)


def check_search_rules(rules: Rules, where: str) -> None:
    """The search deals one face-down ruin per seat again in its rollouts; with
    more (an override), the engine keeps only the last in ``State.hidden`` and the
    others would reach the rollouts as they are: refused."""
    n = int(rules.tables.hidden_per_player)
    if n != 1:
        raise input_error(
            where,
            f": search needs components.hidden_ruins_per_player = 1 "
            f"(the rules give {n}; allowed: the other strategies)",
        )


def _rollout_memo(t, job: GameJob, prm):
    """The memo the search's rollouts play with: every seat ``balanced``, a
    ``search`` seat with its own row, the others with ``balanced``'s row, and
    the job's forbidden wonders."""
    from analyzer.unearth.strategies import Strategy

    n = job.players
    codes = np.full(n, int(Strategy.BALANCED), np.int64)
    rows = np.array([default_row("balanced", n)] * n, np.float64)
    for seat, name in enumerate(job.strategies):
        if name == "search":
            rows[seat] = prm[seat]
    return new_memo(t, n, codes, rows, forbid_masks(n, job.rules, job.forbid))


def forbid_masks(players: int, rules: Rules, forbid=None, where: str = "forbid") -> np.ndarray:
    """``int64[players]``: bit ``w`` of seat ``p`` set when ``forbid`` forbids seat ``p``
    named wonder ``w``. ``forbid`` maps seats to named-wonder ids (``{0: ["eternal_flame"]}``,
    or ``((0, ("eternal_flame",)),)``); a seat or an id not in the game is an
    :class:`InputError` naming ``where``."""
    masks = np.zeros(players, np.int64)
    items = forbid.items() if isinstance(forbid, dict) else (forbid or ())
    ids = list(rules.wonder_ids)
    for seat, wonders in items:
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
            raise bad_value(f"{where}: seat", seat, f"a seat from 0 to {players - 1}")
        if not 0 <= seat < players:
            raise bad_value(f"{where}: seat", seat, f"a seat from 0 to {players - 1}")
        if isinstance(wonders, str):
            wonders = (wonders,)
        for wid in wonders:
            if wid not in ids:
                raise bad_value(f"{where}: wonder", wid, ", ".join(ids))
            masks[int(seat)] |= np.int64(1) << ids.index(wid)
    return masks


@dataclass(frozen=True)
class GameJob:
    """Plays games of one configuration; picklable; deterministic in (start, count)."""

    players: int
    strategies: tuple[str, ...]
    seed: int
    rules: Rules = field(default_factory=default_rules)
    claims: bool = True
    strategy_params: tuple = ()  #: ((strategy, ((param, value), ...)), ...)
    #: ((seat, (named wonder id, ...)), ...): what each seat may not build (an
    #: intervention; empty: the game as printed, games identical to a job without it)
    forbid: tuple = ()
    #: luck terms (columns ``luck_win``, ``luck_score``; ``docs/statistics.md``):
    #: they only observe, the games are the same without them
    luck: bool = True

    def __call__(self, start: int, count: int) -> dict[str, pd.DataFrame]:
        return play_tables(self, start, count)

    def warm_up(self) -> None:
        """Compile (or load from the cache) the engine's kernels: play one game."""
        play_raw(self, 0, 1)

    def __repr__(self) -> str:  # a stable fingerprint for checkpoints
        return (
            f"GameJob(players={self.players}, strategies={self.strategies}, seed={self.seed}, "
            f"rules={self.rules.describe()}, claims={self.claims}, "
            f"strategy_params={self.strategy_params}"
            + (f", forbid={self.forbid}" if self.forbid else "")
            # the value estimate's version (data/luck_value.toml): a checkpoint's luck
            # columns all come from one V (v2: refitted per player count)
            + (", luck=v2)" if self.luck else ")")
        )


def _params_dict(job: GameJob) -> dict:
    return {name: dict(values) for name, values in job.strategy_params}


def play_raw(
    job: GameJob, start: int, count: int, *, trace_rows: int = 0, search_out=None, luck_par=None
):
    """Run the kernel; return (results int32, wins float32, claims int32 rows, state).
    With a ``search`` seat, ``search_out`` (a list) receives the search's work
    space (its counters: ``analyzer.unearth.search.K_*``). With ``job.luck`` the
    state's ``luck_out`` holds each row's luck by kind of event, valued with
    ``luck_par`` (float64[N_LUCK_PAR]; ``None``: the shipped value estimate for
    the job's player count)."""
    t = job.rules.tables
    n = job.players
    codes, prm = strategy_arrays(job.strategies, _params_dict(job))
    claim_rows = count * engine.MAX_CLAIMS_PER_GAME if job.claims else 0
    luck = None
    if job.luck:
        luck = value_tables(t, load_value_params(n) if luck_par is None else luck_par)
    s = new_state(t, n, trace_rows, claim_rows, luck, count * n if job.luck else 0)
    m = new_memo(t, n, codes, prm, forbid_masks(n, job.rules, job.forbid))
    o = engine.new_batch(t, n, count)
    key0, key1 = root_key(job.seed)
    views = (pack_state(s), pack_memo(m), pack_tables(t), results_view(o.results, o.wins))
    if "search" in job.strategies:
        from analyzer.unearth import search

        w = search.new_search(t, n, **search_settings(_params_dict(job)))
        rollouts = (pack_state(new_state(t, n)), pack_memo(_rollout_memo(t, job, prm)))
        search.play_batch_search(
            *views, *rollouts, search.pack_search(w), n, key0, key1, start, count
        )
        if search_out is not None:
            search_out.append(w)
    else:
        engine.play_batch(*views, n, key0, key1, start, count)
    claims = s.claims[: s.n_claims[0]] if job.claims else None
    return o.results, o.wins, claims, s


def play_tables(job: GameJob, start: int, count: int) -> dict[str, pd.DataFrame]:
    """Play games ``start .. start+count-1`` and build the contract tables."""
    results, wins, claims, s = play_raw(job, start, count)
    rules = job.rules
    out = {"games": games_frame(job, start, count, results, wins)}
    if job.luck:
        luck = s.luck_out.sum(axis=1)
        out["games"]["luck_win"] = luck[:, 0]
        out["games"]["luck_score"] = luck[:, 1]
    if job.claims:
        out["claims"] = claims_frame(rules, claims)
    return out


def _categories(job: GameJob) -> tuple[str, ...]:
    """Categories of the ``strategy`` column: the strategies up to the last one
    played, and at least the four there were before ``baseline`` (so the tables
    of earlier runs, and their pinned hashes, stay as they were)."""
    last = max(STRATEGIES.index(s) for s in job.strategies)
    return STRATEGIES[: max(last + 1, len(_CLASSIC))]


def games_frame(job: GameJob, start, count, results, wins) -> pd.DataFrame:
    rules = job.rules
    t = rules.tables
    n = job.players
    capped = np.flatnonzero(results[:, engine.R_ABORTED])
    if len(capped):  # the rules as given never end: the run fails, never a normal row
        raise StalledGameError(
            f"game {start + int(capped[0]) // n} of this run hit the engine's turn cap "
            f"({engine.MAX_TURNS} turns) without ending: the rules or strategy parameters "
            "as given make no playable game (check the overrides: claim values, counts, "
            "dice; and strategy_params)"
        )
    bad = results[:, engine.R_INVARIANTS]
    if bad.any():  # a broken invariant is a bug in the engine, never a user error
        raise RuntimeError(f"engine invariant failed (mask {int(bad.max())}) in games {start}+")
    cols: dict[str, np.ndarray] = {
        "game": np.repeat(np.arange(start, start + count, dtype=np.int64), n),
        "seat": np.tile(np.arange(n, dtype=np.int8), count),
        "n_players": np.full(count * n, n, np.int8),
        "strategy": strategy_column(job.strategies, count, _categories(job)),
        "end_of_age": pd.Categorical.from_codes(
            results[:, engine.R_EOA] - t.n_ruins, categories=rules.card_ids[t.n_ruins :]
        ),
        "score": results[:, engine.R_SCORE].astype(np.int16),
        "win": wins.astype(np.float32),
        "turns": results[:, engine.R_TURNS].astype(np.int16),
        "game_turns": results[:, engine.R_GAME_TURNS].astype(np.int16),
    }
    for i, name in enumerate(PART_NAMES[:N_PARTS]):
        cols[f"pts_{name}"] = results[:, engine.R_PARTS + i].astype(np.int16)
    col = engine.R_BASE
    for colour in rules.ruin_colours:
        cols[f"ruins_{colour}"] = results[:, col].astype(np.int8)
        col += 1
    cols["ruins_city"] = results[:, col].astype(np.int8)
    col += 1
    for colour in rules.stone_colours:
        cols[f"stones_{colour}"] = results[:, col].astype(np.int8)
        col += 1
    cols["wonders_lesser"] = results[:, engine.R_LESSER].astype(np.int8)
    cols["wonders_greater"] = results[:, engine.R_GREATER].astype(np.int8)
    cols["wonders_named"] = results[:, engine.R_NAMED].astype(np.int8)
    for wid in rules.wonder_ids:
        cols[f"named_{wid}"] = results[:, col].astype(np.int8)
        col += 1
    cols["delvers_drawn"] = results[:, engine.R_DRAWN].astype(np.int16)
    cols["delvers_played"] = results[:, engine.R_PLAYED].astype(np.int16)
    for did in rules.delver_ids:
        cols[f"played_{did}"] = results[:, col].astype(np.int16)
        col += 1
    cols["claims_won"] = results[:, engine.R_CLAIMS].astype(np.int16)
    return pd.DataFrame(cols)


def claims_frame(rules: Rules, claims: np.ndarray) -> pd.DataFrame:
    ids = rules.card_ids
    return pd.DataFrame(
        {
            "game": claims[:, engine.C_GAME].astype(np.int64),
            "turn": claims[:, engine.C_TURN].astype(np.int16),
            "card": pd.Categorical.from_codes(claims[:, engine.C_CARD], categories=ids),
            "claim_value": claims[:, engine.C_CLAIM].astype(np.int16),
            "n_dice": claims[:, engine.C_NDICE].astype(np.int8),
            "n_seats": claims[:, engine.C_NSEATS].astype(np.int8),
            "total": claims[:, engine.C_TOTAL].astype(np.int16),
            "winner": claims[:, engine.C_WINNER].astype(np.int8),
            "winner_faces": claims[:, engine.C_FACES].astype(np.int8),
            "decided_by": claims[:, engine.C_DECIDED].astype(np.int8),
        }
    )


def make_job(
    players: int,
    strategies: str | Sequence[str],
    seed=None,
    rules: Rules | None = None,
    *,
    claims: bool = True,
    strategy_params: dict | None = None,
    forbid: dict | None = None,
    luck: bool = True,
) -> GameJob:
    """Validate the arguments and build a :class:`GameJob`. ``forbid`` maps seats to
    the named wonders (ids) they may not build: ``{0: ["eternal_flame"]}``.
    ``luck=False``: no luck terms (no ``luck_win``/``luck_score`` columns)."""
    rules = rules or default_rules()
    players = check_players(players, rules)
    strategies = resolve_strategies(players, strategies)
    strategy_arrays(strategies, strategy_params)  # validates the names
    search_settings(strategy_params)  # and the search's settings, with a search seat or not
    if "search" in strategies:
        check_search_rules(rules, "strategy")
    frozen = tuple(
        (name, tuple(sorted(vals.items())))
        for name, vals in sorted((strategy_params or {}).items())
    )
    forbid_masks(players, rules, forbid)  # validates seats and ids
    items = forbid.items() if isinstance(forbid, dict) else (forbid or ())
    seats = {}
    for seat, wonders in items:
        wonders = (wonders,) if isinstance(wonders, str) else tuple(wonders)
        seats[int(seat)] = tuple(sorted({*seats.get(int(seat), ()), *wonders}))
    forbidden = tuple((seat, ids) for seat, ids in sorted(seats.items()) if ids)
    return GameJob(
        players, strategies, resolve_seed(seed), rules, claims, frozen, forbidden, bool(luck)
    )


def simulate(
    players: int,
    strategies: str | Sequence[str],
    games: int,
    seed=None,
    rules: Rules | None = None,
    *,
    first_game: int = 0,
    claims: bool = False,
    strategy_params: dict | None = None,
    forbid: dict | None = None,
    luck: bool = True,
):
    """Simulate ``games`` whole games of Unearth in this process.

    Returns the per-(game, seat) table (columns in ``docs/CONTRACTS.md``), or
    ``(games_table, claims_table)`` with ``claims=True``. ``strategies``: one
    name for every seat or one per seat (seat 0 plays first). ``forbid``: named
    wonders some seats may not build, ``{seat: [wonder id, ...]}`` (an
    intervention: they take the token instead). ``luck``: the columns
    ``luck_win`` and ``luck_score`` (the luck terms, ``docs/statistics.md``;
    the games are the same without them). The same seed gives the same
    table, however the games are split (see :func:`analyzer.runs.runner.run` for many
    workers).
    """
    if isinstance(games, bool) or not isinstance(games, int | np.integer) or games < 1:
        raise bad_value("games", games, "a positive integer")
    job = make_job(
        players,
        strategies,
        seed,
        rules,
        claims=claims,
        strategy_params=strategy_params,
        forbid=forbid,
        luck=luck,
    )
    tables = job(first_game, int(games))
    return (tables["games"], tables["claims"]) if claims else tables["games"]
