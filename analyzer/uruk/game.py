"""Python entry point for whole Uruk games: :class:`GameJob`, :func:`make_job`, :func:`simulate`.

The wrapper validates, allocates, owns the seed and turns the kernel's integer
rows into the ``games`` table (columns: :func:`analyzer.uruk.plugin.games_columns`).
Game ``g`` of seed ``s`` draws only from its own stream, so any split into
batches gives the same tables, and two jobs with the same seed share their
random streams game by game (common random numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyzer.games import jobs
from analyzer.games.trained_rows import TrainedFile
from analyzer.kernels.kernel_view import make_view, results_view
from analyzer.uruk import engine
from analyzer.uruk.defaults import SEARCH_SETTINGS, default_row, search_settings
from analyzer.uruk.features import FEATURE_NAMES, W0, identity_weights
from analyzer.uruk.interventions import (  # noqa: F401  (importable from here)
    ACTIONS,
    freeze_forbid,
    intervention_ids,
)
from analyzer.uruk.luck import load_deal_params, load_value_params
from analyzer.uruk.rules import Rules, default_rules
from analyzer.uruk.scoring import N_PARTS, PART_NAMES
from analyzer.uruk.state import STAT_NAMES, new_state
from analyzer.uruk.strategies import (
    BASELINE_PARAMS,
    FROZEN_STRATEGIES,
    P_STRATEGY,
    PARAM_NAMES,
    STRATEGY_NAMES,
)


def param_rows(strategies: Sequence[str], params: dict | None = None) -> np.ndarray:
    """float64[seats, N_PARAMS]: each seat's parameter row, the default row of
    its strategy at this many seats (``data/strategies.toml``, by player count);
    ``params`` overrides by strategy and name, e.g. ``{"balanced": {"w_level":
    0.6}}``; a frozen strategy (``baseline``: strategies.BASELINE_PARAMS) takes none."""
    n = len(strategies)
    rows = [BASELINE_PARAMS if s in FROZEN_STRATEGIES else default_row(s, n) for s in strategies]
    return jobs.seat_rows(rows, strategies, params, STRATEGY_NAMES, PARAM_NAMES, SEARCH_SETTINGS)


@dataclass(frozen=True)
class GameJob(jobs.Job):
    """Plays Uruk games of one configuration; picklable; deterministic in (start, count)."""

    rules: Rules = field(default_factory=default_rules)
    strategy_params: tuple = ()  #: analyzer.games.jobs.freeze_params
    #: luck terms (columns ``luck_win``, ``luck_score``; ``docs/statistics.md``):
    #: they only observe, the games are the same either way. Off by default: the
    #: card draws they value explain almost none of a game's variance so far
    luck: bool = False
    #: restricted play: ``((seat, kind, ids), ...)`` what a seat is barred from
    #: (:func:`barred_tables`); () plays the game as printed, game for game
    forbid: tuple = ()

    STRATEGIES = STRATEGY_NAMES
    default_rules = staticmethod(default_rules)

    @classmethod
    def check(cls, rules, players, strategies, params, *, luck=False, forbid=None) -> dict:
        """The parameters' names, the search's settings and what is barred (``forbid``,
        ``{seat: {kind: [id, ...]}}``: :func:`freeze_forbid`)."""
        param_rows(strategies, params)
        search_settings(params)
        out = {"luck": bool(luck)}
        if forbid:
            out["forbid"] = freeze_forbid(forbid, rules, players)
        return out

    def __call__(self, start: int, count: int) -> dict[str, pd.DataFrame]:
        results, wins, s = play_raw(self, start, count)
        return jobs.batch_tables(self, games_frame(self, start, count, results, wins), s.luck_out)

    def warm_up(self) -> None:
        """Compile (or load from the cache) the kernels: play one game."""
        play_raw(self, 0, 1)

    def params(self) -> np.ndarray:
        return param_rows(self.strategies, self.params_dict())

    def __repr__(self) -> str:  # a stable fingerprint for checkpoints
        return (
            f"UrukGameJob(players={self.players}, strategies={self.strategies}, "
            f"seed={self.seed}, rules={self.rules.describe()}, "
            f"strategy_params={self.strategy_params}"
            + (", luck=v1" if self.luck else "")
            + (f", forbid={self.forbid})" if self.forbid else ")")
        )


def barred_tables(rules: Rules, forbid: tuple):
    """The kernel tables of ``rules`` with the bars of ``forbid`` (:func:`freeze_forbid`)
    set for their seats: an invention it may not make (``inv_forbidden``, as
    ``components.forbid`` does for one seat), trading or god auctions
    (``seat_bar``). The rules' own tables are not touched."""
    t = rules.tables
    inv = t.inv_forbidden.copy()
    bar = t.seat_bar.copy()
    ids = list(rules.invention_ids)
    for seat, kind, things in forbid:
        for x in things:
            if kind == "inventions":
                inv[seat, ids.index(x)] = 1
            else:
                bar[seat, ACTIONS[x]] = 1
    return t._replace(inv_forbidden=inv, seat_bar=bar)


#: the ``trained`` player's shipped weights (``data/trained.toml``)
TRAINED_ROWS = TrainedFile("analyzer.uruk", FEATURE_NAMES)


def trained_weights(n: int) -> np.ndarray:
    """The ``trained`` player's weights at ``n`` seats (``data/trained.toml``; none
    shipped: the identity weights, ``balanced``'s evaluation)."""
    return np.array(TRAINED_ROWS.weights(n, tuple(identity_weights())), np.float64)


def set_trained(prm: np.ndarray, strategies, weights: np.ndarray) -> None:
    """Write ``weights`` into the rows ``prm`` of the seats playing ``trained``."""
    for q, name in enumerate(strategies):
        if name == "trained":
            prm[q, W0 : W0 + len(weights)] = weights


#: seats playing ``trained`` with the identity weights play ``balanced``'s code
#: (the same games, tests/uruk/test_uruk_trained.py, without the features' work:
#: the default at 3 and 4 players, where no weights are shipped, at balanced's speed)
IDENTITY_AS_BALANCED = True


def play_trained(prm: np.ndarray, strategies, weights: np.ndarray) -> None:
    """Set up the rows ``prm`` of the seats playing ``trained`` with ``weights``:
    written into the rows, or with the identity weights (and
    :data:`IDENTITY_AS_BALANCED`) ``balanced``'s strategy code, the same games."""
    if IDENTITY_AS_BALANCED and np.array_equal(weights, identity_weights()):
        from analyzer.uruk.strategies import BALANCED

        for q, name in enumerate(strategies):
            if name == "trained":
                prm[q, P_STRATEGY] = BALANCED
        return
    set_trained(prm, strategies, weights)


def rollout_rows(t, n: int) -> np.ndarray:
    """The rows the search's rollouts play: every seat tuned ``balanced``."""
    from analyzer.uruk.state import MAX_PARAMS
    from analyzer.uruk.strategies import BALANCED

    rows = np.zeros((t.max_players, MAX_PARAMS), np.float64)
    row = default_row("balanced", n)
    rows[:n, : len(row)] = row
    rows[:n, P_STRATEGY] = BALANCED
    return rows


def play_raw(
    job: GameJob,
    start: int,
    count: int,
    *,
    trace_rows: int = 0,
    state=None,
    search_out=None,
    luck_par=None,
    luck_deal=None,
):
    """Run the kernel: ``(results int32[count*n, W], wins float32[count*n], state)``.
    With ``job.luck`` (and no ``state`` given) the state's ``luck_out`` holds each
    row's luck by kind of draw, valued with ``luck_par`` (``None``: the shipped
    value estimate; ``luck_deal``: the set-up deal's weights, ``None``: the shipped ones)."""
    t = barred_tables(job.rules, job.forbid) if job.forbid else job.rules.tables
    n = job.players
    if state is None:
        luck = deal = None
        if job.luck:
            luck = load_value_params() if luck_par is None else luck_par
            deal = load_deal_params(n) if luck_deal is None else luck_deal
        rows = count * n if job.luck else 0
        state = new_state(t, trace_rows, luck=luck, luck_rows=rows, luck_deal=deal)
    s = state
    prm = job.params()
    s.prm[:] = 0.0
    s.prm[: prm.shape[0], : prm.shape[1]] = prm
    # each seat's strategy code, for choice rules that must tell baseline apart
    s.prm[:n, P_STRATEGY] = [STRATEGY_NAMES.index(x) for x in job.strategies]
    if "trained" in job.strategies:
        play_trained(s.prm, job.strategies, trained_weights(n))
    results = np.zeros((count * n, engine.n_result_cols(t.n_inv)), np.int32)
    wins = np.zeros(count * n, np.float32)
    views = (make_view(s, "UrukState"), make_view(t, "UrukTables"), results_view(results, wins))
    if "search" in job.strategies:
        from analyzer.uruk import search

        w = search.new_search(t, rollout_rows(t, n), **search_settings(job.params_dict()))
        views += (make_view(new_state(t), "UrukState"), search.pack_search(w))
        jobs.play_batch(search.play_batch_search, views, job, start, count)
        if search_out is not None:
            search_out.append(w)
    else:
        jobs.play_batch(engine.play_batch, views, job, start, count)
    return results, wins, s


def check_results(results: np.ndarray, start: int) -> None:
    """Raise RuntimeError naming the first game whose invariants failed (an engine bug)."""
    bad = results[:, engine.R_INVARIANTS]
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        mask = int(bad[row])
        what = "; ".join(v for k, v in engine.INVARIANT_TEXT.items() if mask & k)
        raise RuntimeError(f"uruk engine invariant failed in a game from {start}: {what}")
    parts = results[:, engine.R_PARTS : engine.R_PARTS + N_PARTS].sum(axis=1)
    if not np.array_equal(parts, results[:, engine.R_SCORE]):
        raise RuntimeError(f"uruk engine: score is not the sum of its parts (games {start}+)")


def games_frame(job: GameJob, start, count, results, wins) -> pd.DataFrame:
    """The ``games`` table of one batch (invariants checked first)."""
    check_results(results, start)
    rules = job.rules
    cols: dict[str, np.ndarray] = jobs.core_columns(
        job, start, count, jobs.strategy_categories(job.strategies, STRATEGY_NAMES)
    )
    cols |= {
        "score": results[:, engine.R_SCORE].astype(np.int16),
        "win": wins.astype(np.float32),
        "game_turns": results[:, engine.R_GAME_TURNS].astype(np.int16),
    }
    for i, name in enumerate(PART_NAMES):
        cols[f"pts_{name}"] = results[:, engine.R_PARTS + i].astype(np.int16)
    cols["cities"] = results[:, engine.R_CITIES].astype(np.int8)
    cols["villages"] = results[:, engine.R_VILLAGES].astype(np.int8)
    cols["inventions"] = results[:, engine.R_INVENTIONS].astype(np.int8)
    cols["resources_left"] = results[:, engine.R_RESOURCES].astype(np.int16)
    cols["hand_left"] = results[:, engine.R_HAND].astype(np.int16)
    cols["capped"] = results[:, engine.R_CAPPED].astype(np.int8)
    cols["activations"] = results[:, engine.R_ACTIVATIONS].astype(np.int16)
    cols["reshuffles"] = results[:, engine.R_RESHUFFLES].astype(np.int8)
    for i, name in enumerate(STAT_NAMES):
        cols[name] = results[:, engine.R_STATS + i].astype(np.int16)
    for i, iid in enumerate(rules.invention_ids):
        cols[f"has_{iid}"] = results[:, engine.R_HAS + i].astype(np.int8)
    return pd.DataFrame(cols)


def make_job(players, strategies, seed=None, rules=None, **options) -> GameJob:
    """Validate the arguments and build a :class:`GameJob` (:meth:`analyzer.games.jobs.Job.make`).
    ``options``: ``strategy_params``; ``luck=True``: the luck terms (columns
    ``luck_win``/``luck_score``; off by default, docs/statistics.md)."""
    return GameJob.make(players, strategies, seed, rules, **options)


def simulate(players, strategies, games, seed=None, rules=None, **options) -> pd.DataFrame:
    """Simulate ``games`` whole games of Uruk in this process; the ``games`` table.
    ``options``: ``first_game`` (0) and those of :func:`make_job` (``luck=True``:
    with the luck terms' columns)."""
    return jobs.simulate(make_job, players, strategies, games, seed, rules, **options)["games"]
