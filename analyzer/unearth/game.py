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

from analyzer.core.errors import StalledGameError, bad_value, input_error
from analyzer.games import jobs
from analyzer.kernels.kernel_view import results_view
from analyzer.unearth import engine
from analyzer.unearth.defaults import (
    PARAM_NAMES,
    SEARCH_SETTINGS,
    default_row,
    search_settings,
)
from analyzer.unearth.luck import load_value_params, value_tables
from analyzer.unearth.memo import new_memo
from analyzer.unearth.rules import Rules, default_rules
from analyzer.unearth.scoring import N_PARTS, PART_NAMES
from analyzer.unearth.state import new_state
from analyzer.unearth.strategies import STRATEGY_NAMES
from analyzer.unearth.structs import pack_memo, pack_state, pack_tables

STRATEGIES = STRATEGY_NAMES


def strategy_arrays(strategies: Sequence[str], params: dict | None = None):
    """``(codes int64[P], params float64[P, N_PARAMS])`` for the kernel.

    ``params`` may override parameters by name for every seat using a strategy:
    ``{"balanced": {"w_stone": 1.5}}``. A frozen strategy (``baseline``) takes none.
    """
    codes = np.array([STRATEGIES.index(s) for s in strategies], np.int64)
    rows = [default_row(s, len(strategies)) for s in strategies]
    return codes, jobs.seat_rows(rows, strategies, params, STRATEGIES, PARAM_NAMES, SEARCH_SETTINGS)


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
    return new_memo(t, n, codes, rows, *_masks(job))


def _masks(job) -> tuple:
    """The memo's ``forbid`` and ``bar_delvers`` masks of ``job``."""
    n = job.players
    return (
        forbid_masks(n, job.rules, job.forbid),
        forbid_masks(n, job.rules, job.bar_delvers, kind="delvers") if job.bar_delvers else None,
    )


def forbid_masks(
    players: int, rules: Rules, forbid=None, where: str = "forbid", kind: str = "wonders"
) -> np.ndarray:
    """``int64[players]``: bit ``w`` of seat ``p`` set when ``forbid`` forbids seat ``p``
    named wonder ``w``. ``forbid`` maps seats to named-wonder ids (``{0: ["eternal_flame"]}``,
    or ``((0, ("eternal_flame",)),)``); a seat or an id not in the game is an
    :class:`InputError` naming ``where``."""
    masks = np.zeros(players, np.int64)
    items = forbid.items() if isinstance(forbid, dict) else (forbid or ())
    ids = list(rules.wonder_ids if kind == "wonders" else rules.delver_ids)
    for seat, wonders in items:
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
            raise bad_value(f"{where}: seat", seat, f"a seat from 0 to {players - 1}")
        if not 0 <= seat < players:
            raise bad_value(f"{where}: seat", seat, f"a seat from 0 to {players - 1}")
        if isinstance(wonders, str):
            wonders = (wonders,)
        for wid in wonders:
            if wid not in ids:
                raise bad_value(f"{where}: {kind[:-1]}", wid, ", ".join(ids))
            masks[int(seat)] |= np.int64(1) << ids.index(wid)
    return masks


@dataclass(frozen=True)
class GameJob(jobs.Job):
    """Plays games of one configuration; picklable; deterministic in (start, count)."""

    rules: Rules = field(default_factory=default_rules)
    claims: bool = True
    strategy_params: tuple = ()  #: analyzer.games.jobs.freeze_params
    #: ((seat, (named wonder id, ...)), ...): what each seat may not build (an
    #: intervention; empty: the game as printed, games identical to a job without it)
    forbid: tuple = ()
    #: ((seat, (delver id, ...)), ...): the delver cards restricted play bars each
    #: seat from playing (it keeps them in hand); empty: the game as printed
    bar_delvers: tuple = ()
    #: luck terms (columns ``luck_win``, ``luck_score``; ``docs/statistics.md``):
    #: they only observe, the games are the same without them; off by default
    #: (they cost more CPU than their narrower intervals save)
    luck: bool = False

    STRATEGIES = STRATEGIES
    default_rules = staticmethod(default_rules)

    @classmethod
    def check(
        cls,
        rules,
        players,
        strategies,
        params,
        *,
        claims=True,
        forbid=None,
        luck=False,
        bar_delvers=None,
    ):
        """The parameters' names and the search's settings (with a search seat or
        not), the search's rules, the forbidden wonders' and barred delvers' seats and ids."""
        strategy_arrays(strategies, params)
        search_settings(params)
        if "search" in strategies:
            check_search_rules(rules, "strategy")
        out = {"claims": claims, "forbid": forbidden(players, rules, forbid), "luck": bool(luck)}
        if bar_delvers:
            out["bar_delvers"] = forbidden(players, rules, bar_delvers, "delvers")
        return out

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
            + (f", bar_delvers={self.bar_delvers}" if self.bar_delvers else "")
            # the value estimate's version (data/luck_value.toml): a checkpoint's luck
            # columns all come from one V (v2: refitted per player count)
            + (", luck=v2)" if self.luck else ")")
        )


def _params_dict(job: GameJob) -> dict:
    return job.params_dict()


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
    m = new_memo(t, n, codes, prm, *_masks(job))
    o = engine.new_batch(t, n, count)
    views = (pack_state(s), pack_memo(m), pack_tables(t), results_view(o.results, o.wins))
    if "search" in job.strategies:
        from analyzer.unearth import search

        w = search.new_search(t, n, **search_settings(_params_dict(job)))
        rollouts = (pack_state(new_state(t, n)), pack_memo(_rollout_memo(t, job, prm)))
        views += (*rollouts, search.pack_search(w))
        jobs.play_batch(search.play_batch_search, views, job, start, count)
        if search_out is not None:
            search_out.append(w)
    else:
        jobs.play_batch(engine.play_batch, views, job, start, count)
    claims = s.claims[: s.n_claims[0]] if job.claims else None
    return o.results, o.wins, claims, s


def play_tables(job: GameJob, start: int, count: int) -> dict[str, pd.DataFrame]:
    """Play games ``start .. start+count-1`` and build the contract tables."""
    results, wins, claims, s = play_raw(job, start, count)
    games = games_frame(job, start, count, results, wins)
    claims = claims_frame(job.rules, claims) if job.claims else None
    return jobs.batch_tables(job, games, s.luck_out, claims=claims)


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
    cols: dict[str, np.ndarray] = jobs.core_columns(
        job, start, count, jobs.strategy_categories(job.strategies, STRATEGIES)
    )
    cols |= {
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


def forbidden(players: int, rules: Rules, forbid=None, kind: str = "wonders") -> tuple:
    """``forbid`` (checked, :func:`forbid_masks`) as a job holds it: ``((seat, (named
    wonder id, ...)), ...)`` (``kind="delvers"``: delver ids), sorted, each seat once,
    seats with nothing left out."""
    forbid_masks(players, rules, forbid, kind=kind)  # validates seats and ids
    items = forbid.items() if isinstance(forbid, dict) else (forbid or ())
    seats = {}
    for seat, wonders in items:
        wonders = (wonders,) if isinstance(wonders, str) else tuple(wonders)
        seats[int(seat)] = tuple(sorted({*seats.get(int(seat), ()), *wonders}))
    return tuple((seat, ids) for seat, ids in sorted(seats.items()) if ids)


def make_job(players, strategies, seed=None, rules=None, **options) -> GameJob:
    """Validate the arguments and build a :class:`GameJob` (:meth:`analyzer.games.jobs.Job.make`).
    ``options``: ``strategy_params``; ``claims`` (the per-claim table, True);
    ``forbid``, the named wonders (ids) seats may not build: ``{0: ["eternal_flame"]}``;
    ``luck=True``: the luck terms (columns ``luck_win``/``luck_score``; off by
    default, docs/statistics.md)."""
    return GameJob.make(players, strategies, seed, rules, **options)


def simulate(players, strategies, games, seed=None, rules=None, *, claims=False, **options):
    """Simulate ``games`` whole games of Unearth in this process.

    Returns the per-(game, seat) table (columns in ``docs/CONTRACTS.md``), or
    ``(games_table, claims_table)`` with ``claims=True``. ``strategies``: one
    name for every seat or one per seat (seat 0 plays first). ``options``:
    ``first_game`` (0), ``strategy_params``; ``forbid``: named wonders some
    seats may not build, ``{seat: [wonder id, ...]}`` (an intervention: they
    take the token instead); ``luck``: the columns ``luck_win`` and
    ``luck_score`` (the luck terms, ``docs/statistics.md``; the games are the
    same without them). The same seed gives the same table, however the games
    are split (see :func:`analyzer.runs.runner.run` for many workers).
    """
    tables = jobs.simulate(
        make_job, players, strategies, games, seed, rules, claims=claims, **options
    )
    return (tables["games"], tables["claims"]) if claims else tables["games"]
