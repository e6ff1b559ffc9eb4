"""Python entry point for whole games: :class:`GameJob`, :func:`make_job`, :func:`simulate`.

The wrapper validates, allocates, owns the seed and turns the kernel's integer
rows into tables. Game ``g`` of seed ``s`` draws only from its own stream, so
any split into batches gives the same tables. After every batch the scores are
recomputed here from the final holdings (a slow twin of the kernel's scoring)
and every invariant the kernel checked is read back; a failure raises
``RuntimeError`` (a bug in the engine, never a user error).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyzer.colorful_treasure import engine
from analyzer.colorful_treasure.codes import (
    BAR_TILES,
    BASELINE_PARAMS,
    PARAM_NAMES,
    SCALE,
    SEARCH,
    SEARCH_BASE,
    STRATEGY_NAMES,
    STRATEGY_PLANS,
    check_param,
    search_settings,
)
from analyzer.colorful_treasure.columns import (
    F_BAD,
    F_BAD_MAX,
    F_CAPPED,
    F_COUNTED,
    F_SCORE,
    split_rows,
)
from analyzer.colorful_treasure.interventions import (  # noqa: F401  (importable from here)
    ACTIONS,
    FORCED,
    REWARDS,
    freeze_forbid,
    intervention_ids,
)
from analyzer.colorful_treasure.luck import load_value_params
from analyzer.colorful_treasure.rules import Rules, default_rules
from analyzer.colorful_treasure.state import N_STEAL_COLS, S_STEAL_N, State, new_state
from analyzer.core.errors import bad_value
from analyzer.core.frames import scratch
from analyzer.core.seeding import resolve_seed, root_key
from analyzer.games import jobs
from analyzer.kernels.kernel_view import make_view, results_view
from analyzer.kernels.rng import queue_outcomes

#: score parts, in the order of the kernel's parts (``pts_<name>`` columns)
PART_NAMES = ("gems", "diamond_cards", "plastic", "gem_reward", "explorer", "treasure")
#: rulings newer than the checkpoint format, with their defaults (left out of a
#: job's fingerprint while they hold them)
NEWER_RULINGS = {
    "stolen_cards": "count",
    "last_cards": "reveal",
    "tiles": "none",
    "tile_timing": "before_rewards",
    "tile_offers": "per_colour",
    "steal_pairs": "markers",
}
#: steals a game can hold at most (a pair needs two treasure cards: 5 pairs; and
#: the action tiles' wild markers)
MAX_STEALS_PER_GAME = 8


def strategy_arrays(rules: Rules, strategies: Sequence[str], params: dict | None = None):
    """``(plan int64[P], prm float64[P, len(PARAM_NAMES)])`` for the kernel.

    Rows come from the rules' ``players`` data and the tuned rows of the player
    count (``data/strategies.toml``); ``params`` overrides them by
    strategy name: ``{"greedy": {"recall": 0.5}}``. ``baseline``'s row is its own
    frozen :data:`~analyzer.colorful_treasure.codes.BASELINE_PARAMS` (never the
    data's, never ``params``)."""
    rows = rules.player_params(len(strategies))  # the tuned rows of the player count
    rows["baseline"] = dict(zip(PARAM_NAMES, BASELINE_PARAMS, strict=True))
    for name, key, val in jobs.param_overrides(params, STRATEGY_NAMES, PARAM_NAMES, settings=None):
        if isinstance(val, bool) or not isinstance(val, int | float):
            raise bad_value(f"strategy_params.{name}.{key}", val, "a number")
        check_param(name, key, val)
        rows[name][key] = float(val)
    rows[SEARCH] = rows[SEARCH_BASE]
    plan = np.array([STRATEGY_PLANS[STRATEGY_NAMES.index(s)] for s in strategies], np.int64)
    prm = np.array([[rows[s][p] for p in PARAM_NAMES] for s in strategies], np.float64)
    return plan, prm.reshape(len(strategies), len(PARAM_NAMES))


@dataclass(frozen=True)
class GameJob(jobs.Job):
    """Plays games of one configuration; picklable; deterministic in (start, count)."""

    rules: Rules = field(default_factory=default_rules)
    steals: bool = True  #: also return the per-steal table
    strategy_params: tuple = ()  #: analyzer.games.jobs.freeze_params
    #: luck terms (columns ``luck_win``, ``luck_score``; ``docs/statistics.md``):
    #: they only observe, the games are the same either way. Off by default: they
    #: cost about 1.8x a game and narrow an interval by only 10% so far
    luck: bool = False
    #: restricted play: ``((seat, kind, ids), ...)`` what a seat is barred from
    #: (:func:`barred_tables`); () plays the game as printed, game for game
    forbid: tuple = ()

    STRATEGIES = STRATEGY_NAMES
    default_rules = staticmethod(default_rules)

    @classmethod
    def check(
        cls, rules, players, strategies, params, *, steals=True, luck=False, forbid=None
    ) -> dict:
        """The parameters' names and values, the search's settings (with a search
        seat or not) and what is barred (``forbid``: :func:`freeze_forbid`)."""
        strategy_arrays(rules, strategies, params)
        search_settings(params)
        out = {"steals": steals, "luck": bool(luck)}
        if forbid:
            out["forbid"] = freeze_forbid(forbid, rules, players)
        return out

    def __call__(self, start: int, count: int) -> dict[str, pd.DataFrame]:
        return play_tables(self, start, count)

    def warm_up(self) -> None:
        """Compile (or load from the cache) the kernels: play one game."""
        play_raw(self, 0, 1)

    def __repr__(self) -> str:  # a stable fingerprint for checkpoints
        rules = self.rules.describe()
        # rulings added later are left out while they hold their defaults: a
        # checkpoint written before they existed still resumes
        rules["rulings"] = {
            k: v
            for k, v in rules["rulings"].items()
            if k not in NEWER_RULINGS or v != NEWER_RULINGS[k]
        }
        return (
            f"ColorfulTreasureJob(players={self.players}, strategies={self.strategies}, "
            f"seed={self.seed}, rules={rules}, steals={self.steals}, "
            f"strategy_params={self.strategy_params}"
            + (", luck=v1" if self.luck else "")
            + (f", forbid={self.forbid})" if self.forbid else ")")
        )


def treasure_barred(forbid: tuple) -> int:
    """The seats ``forbid`` (:func:`freeze_forbid`) bars from the treasure reward, as
    a bit mask (bit ``q``: seat ``q``); 0 without bars. The score's recomputing
    twins (:func:`recompute_scores`, ``columns.split_rows``) read it: a barred seat
    neither takes nor blocks the treasure majority."""
    mask = 0
    for seat, kind, things in forbid:
        if kind == "rewards" and "treasure_reward" in things:
            mask |= 1 << seat
    return mask


def barred_tables(rules: Rules, forbid: tuple):
    """The kernel tables of ``rules`` with the bars of ``forbid`` (:func:`freeze_forbid`)
    set in ``seat_bar`` for their seats; the rules' own tables are not touched."""
    t = rules.tables
    bar = t.seat_bar.copy()
    sides = [side for _, side in rules.tile_sides()]
    for seat, kind, things in forbid:
        for x in things:
            if kind == "tiles":
                bar[seat, BAR_TILES] |= 1 << sides.index(x)
            else:
                bar[seat, {**ACTIONS, **REWARDS, **FORCED}[x]] = 1
    return t._replace(seat_bar=bar)


def rollout_state(rules: Rules, players: int, params: dict | None = None) -> State:
    """The game the search's rollouts play on: every seat ``greedy`` with the
    tuned row of the player count (and ``strategy_params.greedy``)."""
    s = new_state(rules.tables, players)
    plan, prm = strategy_arrays(rules, (SEARCH_BASE,) * players, params)
    s.plan[:] = plan
    s.prm[:] = prm
    return s


def play_raw(
    job: GameJob,
    start: int,
    count: int,
    *,
    deal=None,
    forced=(),
    plans=None,
    trace_rows: int = 0,
    search_out=None,
    luck_par=None,
):
    """Run the kernel; return ``(results int64, wins float32, steals int64 rows, state)``.

    ``deal`` (int64[n_cards], optional): a fixed layout for every game instead of
    the shuffle (tests plant cards with it). ``forced``: outcomes of the first
    game's next random choices (:func:`analyzer.kernels.rng.queue_outcomes`), so a test
    says "seat 0 reveals these two places" instead of searching for a seed.
    ``plans`` (int64[players], optional): each seat's Plan instead of its strategy's
    (``studies/2026-11-25-rules-colorful-treasure/ct_rulings_players.py`` seats
    ``Plan.EXPECT_PLAIN`` with it).
    With a ``search`` seat, ``search_out`` (a list) receives the search's work
    space (its counters: ``analyzer.colorful_treasure.search.K_*``).
    With ``job.luck`` the state's ``luck_out`` holds each row's luck by kind of
    reveal, valued with ``luck_par`` (``None``: the shipped value estimate)."""
    t = barred_tables(job.rules, job.forbid) if job.forbid else job.rules.tables
    n = job.players
    params = job.params_dict()
    plan, prm = strategy_arrays(job.rules, job.strategies, params)
    per_game = MAX_STEALS_PER_GAME + t.n_tiles  # a wild marker tile: one more steal
    luck = None
    if job.luck:
        luck = load_value_params() if luck_par is None else luck_par
    s = new_state(
        t, n, trace_rows, count * per_game if job.steals else 1, luck, count * n if job.luck else 0
    )
    if deal is not None:
        s.deal[:] = np.asarray(deal, np.int64)
    if len(forced):
        queue_outcomes(s.rng, forced)
    s.plan[:] = plan if plans is None else np.asarray(plans, np.int64)
    s.prm[:] = prm
    results = np.zeros((count * n, engine.n_result_cols(t)), np.int64)
    wins = np.zeros(count * n, np.float32)
    views = (make_view(s, "CTState"), make_view(t, "CTTables"), results_view(results, wins))
    if SEARCH in job.strategies:
        from analyzer.colorful_treasure import search

        w = search.new_search(t, n, **search_settings(params))
        w.seats[:] = [name == SEARCH for name in job.strategies]
        views += (make_view(rollout_state(job.rules, n, params), "CTState"), search.pack_search(w))
        jobs.play_batch(search.play_batch_search, views, job, start, count)
        if search_out is not None:
            search_out.append(w)
    else:
        jobs.play_batch(engine.play_batch, views, job, start, count)
    n_steals = int(s.sc[S_STEAL_N])
    steals = s.steals[: min(n_steals, s.steals.shape[0])] if job.steals else None
    return results, wins, steals, s


def deal_layouts(rules: Rules, seed: int, start: int, count: int) -> np.ndarray:
    """The set-up layouts (int64[count, n_cards], card at each position) that games
    ``start ..`` of ``seed`` are dealt, exactly as the engine deals them."""
    t = rules.tables
    s: State = new_state(t, 1)
    grids = np.zeros((count, t.n_cards), np.int64)
    key0, key1 = root_key(resolve_seed(seed))
    engine.deal_batch(
        make_view(s, "CTState"),
        make_view(t, "CTTables"),
        results_view(grids, np.zeros(0, np.float32)),
        key0,
        key1,
        start,
        count,
    )
    return grids


def recompute_scores(
    rules: Rules, players: int, results: np.ndarray, columns=None, treasure_bar: int = 0
) -> np.ndarray:
    """Scores in 60ths recomputed with numpy from the final holdings in ``results``
    (a twin of ``turn.final_scores`` written independently): gem table, diamond
    cards, plastic diamonds, the action tiles held, the shared treasure reward
    (among the seats not barred from it: ``treasure_bar``, a seat mask,
    :func:`treasure_barred`).
    The two "first to"
    rewards depend on the order of play, not the final state: their points are
    taken from ``results`` after checking that each went to at most one seat of a
    game, at its value (else the game's first score is set to -1). ``columns``:
    ``results`` transposed, one row per result column (:func:`result_columns`)."""
    t = rules.tables
    R = engine
    c = result_columns(results) if columns is None else columns
    table = np.asarray(t.gem_points, np.int64)
    gems = np.minimum(c[R.R_GEMS : R.R_GEMS + t.n_colours], len(table) - 1)
    pts = table[gems].sum(axis=0)
    pts += c[R.R_DIAMOND] * t.diamond_card + c[R.R_PLASTIC] * t.plastic_diamond
    for i in range(t.n_tiles):  # the action tiles held at the end
        pts += ((c[R.R_TILES_HELD] >> i) & 1) * int(t.tile_points[i])
    out = pts * SCALE
    # the seats' head starts (seat_compensation, 0 as printed): rows are seat-games in seat order
    head = np.asarray(t.head_start[players, :players], np.int64)
    out += np.tile(head, len(out) // players)  # 60ths, as the scores
    if t.rewards:
        games = results.shape[0] // players
        treasure = c[R.R_TREASURE].reshape(games, players)
        if t.stolen_ignore:  # only the cards never taken by a steal count
            treasure = c[R.R_TREASURE_COUNTED].reshape(games, players)
        eligible = np.array([(treasure_bar >> q) & 1 == 0 for q in range(players)])
        treasure = np.where(eligible, treasure, -1)  # a barred seat competes for nothing
        best = treasure.max(axis=1, keepdims=True)
        top = (treasure == best) & (best >= t.treasure_min)
        tied = np.maximum(top.sum(axis=1, keepdims=True), 1)
        out += (top * (t.treasure_points * SCALE // tied)).reshape(-1)
        for j, value in ((3, t.gem_reward[players]), (4, t.explorer_points)):
            got = c[R.R_PARTS + j].reshape(games, players)
            ok = ((got == 0) | (got == value * SCALE)).all(axis=1) & ((got > 0).sum(axis=1) <= 1)
            out += got.reshape(-1)
            out.reshape(games, players)[~ok, 0] = -1
    return out


def play_tables(job: GameJob, start: int, count: int) -> dict[str, pd.DataFrame]:
    """Play games ``start .. start+count-1`` and build the tables."""
    results, wins, steals, s = play_raw(job, start, count)
    games = games_frame(job, start, count, results, wins)
    steals = steals_frame(job, steals) if job.steals else None
    return jobs.batch_tables(job, games, s.luck_out, steals=steals)


def result_columns(results: np.ndarray) -> np.ndarray:
    """``results`` (one row per seat-game) as one row per result column, contiguous:
    a column is then read in one sweep, not one value every row's width. Written
    into a scratch array (:func:`analyzer.core.frames.scratch`): the previous batch's
    once nothing refers to it, so a batch maps no new memory for it."""
    out = scratch(results.shape[::-1], results.dtype)
    np.copyto(out, results.T)
    return out


def check_results(job: GameJob, start: int, results: np.ndarray, columns=None) -> None:
    """Raise ``RuntimeError`` if a game broke an invariant or its score does not
    recompute. ``columns``: :func:`result_columns` of ``results`` (made if not given).
    Column by column with numpy: the twin of the checks :func:`games_frame` makes
    in its one sweep (``columns.split_rows``)."""
    c = result_columns(results) if columns is None else columns
    bad = c[engine.R_BAD]
    flags = np.full(5, -1, np.int64)

    def first(rows):
        found = np.flatnonzero(rows)
        return int(found[0]) if len(found) else -1

    flags[F_CAPPED] = first(bad & engine.BAD_ABORTED)
    flags[F_BAD] = first(bad)
    flags[F_BAD_MAX] = int(bad.max()) if len(bad) else 0
    # the key and chest cards counted for the treasure reward (the recomputed score
    # reads them): all of a seat's under stolen_cards = count, never more than it holds
    held = c[engine.R_TREASURE]
    counted = c[engine.R_TREASURE_COUNTED]
    wrong = (counted < 0) | (counted > held)
    if not job.rules.tables.stolen_ignore:
        wrong |= counted != held
    flags[F_COUNTED] = first(wrong)
    if flags[F_CAPPED] < 0 and flags[F_BAD] < 0 and flags[F_COUNTED] < 0:
        bar = treasure_barred(job.forbid)
        again = recompute_scores(job.rules, job.players, results, c, bar)
        flags[F_SCORE] = first(again != c[engine.R_SCORE])
    raise_broken(job, start, flags)


def raise_broken(job: GameJob, start: int, flags: np.ndarray) -> None:
    """Raise for the first broken check of a batch starting at game ``start``, in
    the checks' order (``flags``: ``columns.F_*``, the first row of each, -1 if
    none): a game that hit the turn cap (``InputError``: the rules make no game),
    an invariant, the treasure cards counted, the recomputed score."""
    players = job.players
    if flags[F_CAPPED] >= 0:  # the rules as given never end: the run fails loudly
        from analyzer.core.errors import InputError

        raise InputError(
            f"game {start + int(flags[F_CAPPED]) // players} of this run hit the engine's turn "
            "cap without ending: the rules as given make no playable game (check the overrides)"
        )
    if flags[F_BAD] >= 0:
        i = int(flags[F_BAD]) // players
        raise RuntimeError(
            f"colorful_treasure engine invariant failed (mask {int(flags[F_BAD_MAX])}) "
            f"in game {start + i}"
        )
    if flags[F_COUNTED] >= 0:
        i = int(flags[F_COUNTED]) // players
        raise RuntimeError(
            "colorful_treasure engine invariant failed (treasure cards counted) "
            f"in game {start + i}"
        )
    if flags[F_SCORE] >= 0:
        i = int(flags[F_SCORE]) // players
        raise RuntimeError(f"colorful_treasure score does not recompute in game {start + i}")


def column_plan(rules: Rules) -> list[tuple[str, str, int]]:
    """The columns of the ``games`` table that are one result column each, in the
    table's order (after ``game, seat, n_players, strategy``; ``win`` after
    ``score``; the ``tile_<side>`` columns after the last), as ``(name, kind,
    result column)``: read as they are (``"int16"``, ``"int8"``), divided by
    :data:`SCALE` (``"points"``), or 1 where positive (``"got"``)."""
    R = engine
    plan = [("score", "points", R.R_SCORE), ("game_turns", "int16", R.R_GAME_TURNS)]
    plan.append(("turns", "int16", R.R_TURNS))
    plan += [(f"pts_{name}", "points", R.R_PARTS + i) for i, name in enumerate(PART_NAMES)]
    plan += [(f"gems_{c}", "int8", R.R_GEMS + g) for g, c in enumerate(rules.colours)]
    simple = (
        ("colours_held", R.R_COLOURS),
        ("wonders_held", R.R_WONDERS),
        ("cards_held", R.R_CARDS),
        ("diamond_cards", R.R_DIAMOND),
        ("plastic_diamonds", R.R_PLASTIC),
        ("treasure_cards", R.R_TREASURE),
        ("markers_left", R.R_MARKERS),
        ("steals", R.R_STEALS),
        ("robbed", R.R_ROBBED),
        ("stole_plastic", R.R_STOLE_PLASTIC),
        ("extra_reveals", R.R_THIRD),
        ("treasure_turns", R.R_TREASURE_TURNS),
        ("took_nothing", R.R_NOTHING),
    )
    plan += [(name, "int16", col) for name, col in simple]
    plan.append(("gem_reward", "got", R.R_PARTS + 3))
    plan.append(("explorer_reward", "got", R.R_PARTS + 4))
    plan.append(("treasure_reward", "got", R.R_PARTS + 5))
    plan.append(("cards_left", "int8", R.R_LEFT))
    if rules.tables.n_tiles:
        plan.append(("pts_tiles", "points", R.R_PTS_TILES))
        plan.append(("tiles_taken", "int8", R.R_TILES_TAKEN))
        plan.append(("tiles_used", "int8", R.R_TILES_USED))
    return plan


def games_frame(job: GameJob, start: int, count: int, results, wins) -> pd.DataFrame:
    """The ``games`` table: core columns, then those of ``plugin.games_columns``
    (:func:`games_frame_numpy`, its twin, column by column with numpy): the
    table's typed columns written and the checks of :func:`check_results` made
    in one sweep over the result rows (``columns.split_rows``), no transposed
    copy."""
    rules = job.rules
    n = job.players
    plan = column_plan(rules)
    kinds = {
        kind: [(name, col) for name, k, col in plan if k == kind] for kind in ("points", "int16")
    }
    small = [(name, col, kind == "got") for name, kind, col in plan if kind in ("int8", "got")]
    rows = results.shape[0]
    # scratch arrays (frames.scratch): the table's columns are views of them,
    # handed out again only once no table holds them (the runner's join copies a
    # batch's table and lets it go)
    points = scratch((len(kinds["points"]), rows), np.float64)
    int16 = scratch((len(kinds["int16"]), rows), np.int16)
    int8 = scratch((len(small), rows), np.int8)
    took = np.empty(rows, np.int64)
    flags = split_rows(
        results,
        n,
        _result_at(rules),
        _rule_ints(rules, n, treasure_barred(job.forbid)),
        np.asarray(rules.tables.gem_points, np.int64),
        np.asarray(rules.tables.tile_points, np.int64)[: rules.tables.n_tiles],
        np.asarray(rules.tables.head_start[n, :n], np.int64),
        np.array([col for _, col in kinds["points"]], np.int64),
        points,
        np.array([col for _, col in kinds["int16"]], np.int64),
        int16,
        np.array([col for _, col, _ in small], np.int64),
        np.array([g for _, _, g in small], np.bool_),
        int8,
        took,
    )
    raise_broken(job, start, flags)
    typed = dict(zip([name for name, _ in kinds["points"]], points, strict=True))
    typed.update(zip([name for name, _ in kinds["int16"]], int16, strict=True))
    typed.update(zip([name for name, _, _ in small], int8, strict=True))
    cols: dict[str, np.ndarray] = jobs.core_columns(job, start, count, _categories(job))
    for name, _, _ in plan:
        cols[name] = typed[name]
        if name == "score":
            cols["win"] = wins.astype(np.float32)
    if rules.tables.n_tiles:
        _tile_columns(rules, took, cols)
    return pd.DataFrame(cols, copy=False)  # the arrays are this frame's own: no copy


def _categories(job: GameJob) -> tuple[str, ...]:
    """Categories of the ``strategy`` column (:func:`analyzer.games.jobs.strategy_categories`)."""
    return jobs.strategy_categories(job.strategies, STRATEGY_NAMES)


def _result_at(rules: Rules) -> np.ndarray:
    """The result columns ``columns.split_rows`` reads (``AT_*`` order)."""
    R = engine
    return np.array(
        [
            R.R_BAD,
            R.R_TREASURE,
            R.R_TREASURE_COUNTED,
            R.R_SCORE,
            R.R_DIAMOND,
            R.R_PLASTIC,
            R.R_TILES_HELD,
            R.R_TILES_TOOK,
            R.R_PARTS,
            R.R_GEMS,
            rules.tables.n_colours,
        ],
        np.int64,
    )


def _rule_ints(rules: Rules, players: int, treasure_bar: int = 0) -> np.ndarray:
    """The rules' integers ``columns.split_rows`` reads (``RU_*`` order); the last,
    the seats barred from the treasure reward (:func:`treasure_barred`)."""
    t = rules.tables
    return np.array(
        [
            SCALE,
            engine.BAD_ABORTED,
            t.rewards,
            t.stolen_ignore,
            t.diamond_card,
            t.plastic_diamond,
            t.treasure_min,
            t.treasure_points,
            t.gem_reward[players],
            t.explorer_points,
            treasure_bar,
        ],
        np.int64,
    )


def _tile_columns(rules: Rules, took: np.ndarray, cols: dict) -> None:
    """The ``tile_<side>`` columns (1: the seat took a tile showing that side) into
    ``cols``, from the mask of the tiles each seat took (result column
    ``R_TILES_TOOK``)."""
    mask: dict[str, int] = {}  # the tiles showing each side (a designer may repeat one)
    for i, (_, side) in enumerate(rules.tile_sides()):
        mask[side] = mask.get(side, 0) | 1 << i
    for side, m in mask.items():
        cols[f"tile_{side}"] = ((took & m) != 0).astype(np.int8)


def games_frame_numpy(job: GameJob, start: int, count: int, results, wins) -> pd.DataFrame:
    """:func:`games_frame` column by column with numpy (the code as first written):
    the twin the tests compare it with."""
    c = result_columns(results)  # each column read in one sweep
    check_results(job, start, results, c)
    rules = job.rules
    R = engine
    cols: dict[str, np.ndarray] = jobs.core_columns(job, start, count, _categories(job))
    cols |= {
        "score": c[R.R_SCORE] / SCALE,
        "win": wins.astype(np.float32),
        "game_turns": c[R.R_GAME_TURNS].astype(np.int16),
        "turns": c[R.R_TURNS].astype(np.int16),
    }
    for i, name in enumerate(PART_NAMES):
        cols[f"pts_{name}"] = c[R.R_PARTS + i] / SCALE
    for g, colour in enumerate(rules.colours):
        cols[f"gems_{colour}"] = c[R.R_GEMS + g].astype(np.int8)
    simple = {
        "colours_held": R.R_COLOURS,
        "wonders_held": R.R_WONDERS,
        "cards_held": R.R_CARDS,
        "diamond_cards": R.R_DIAMOND,
        "plastic_diamonds": R.R_PLASTIC,
        "treasure_cards": R.R_TREASURE,
        "markers_left": R.R_MARKERS,
        "steals": R.R_STEALS,
        "robbed": R.R_ROBBED,
        "stole_plastic": R.R_STOLE_PLASTIC,
        "extra_reveals": R.R_THIRD,
        "treasure_turns": R.R_TREASURE_TURNS,
        "took_nothing": R.R_NOTHING,
    }
    for name, col in simple.items():
        cols[name] = c[col].astype(np.int16)
    cols["gem_reward"] = (c[R.R_PARTS + 3] > 0).astype(np.int8)
    cols["explorer_reward"] = (c[R.R_PARTS + 4] > 0).astype(np.int8)
    cols["treasure_reward"] = (c[R.R_PARTS + 5] > 0).astype(np.int8)
    cols["cards_left"] = c[R.R_LEFT].astype(np.int8)
    if rules.tables.n_tiles:
        cols["pts_tiles"] = c[R.R_PTS_TILES] / SCALE
        cols["tiles_taken"] = c[R.R_TILES_TAKEN].astype(np.int8)
        cols["tiles_used"] = c[R.R_TILES_USED].astype(np.int8)
        mask: dict[str, int] = {}  # the tiles showing each side (a designer may repeat one)
        for i, (_, side) in enumerate(rules.tile_sides()):
            mask[side] = mask.get(side, 0) | 1 << i
        for side, m in mask.items():
            cols[f"tile_{side}"] = ((c[R.R_TILES_TOOK] & m) != 0).astype(np.int8)
    return pd.DataFrame(cols, copy=False)  # the arrays are this frame's own: no copy


def steals_frame(job: GameJob, steals: np.ndarray) -> pd.DataFrame:
    """One row per steal: game, turn, thief, victim, item (card id, -1 a plastic diamond)
    and what was taken (``plastic``, ``gem``, ``diamond_card``, ``treasure_card``)."""
    t = job.rules.tables
    steals = steals.reshape(-1, N_STEAL_COLS)
    card = steals[:, 4]
    kind = np.where(card < 0, 0, t.card_kind[np.maximum(card, 0)] + 1)
    names = np.array(["plastic", "gem", "diamond_card", "treasure_card", "treasure_card"])
    return pd.DataFrame(
        {
            "game": steals[:, 0].astype(np.int64),
            "turn": steals[:, 1].astype(np.int16),
            "thief": steals[:, 2].astype(np.int8),
            "victim": steals[:, 3].astype(np.int8),
            "n_players": np.full(len(steals), job.players, np.int8),
            "card": card.astype(np.int16),
            "item": pd.Categorical(
                names[kind], categories=["plastic", "gem", "diamond_card", "treasure_card"]
            ),
        }
    )


def make_job(players, strategies, seed=None, rules=None, **options) -> GameJob:
    """Validate the arguments and build a :class:`GameJob` (:meth:`analyzer.games.jobs.Job.make`).
    ``options``: ``strategy_params``; ``steals`` (the per-steal table, True);
    ``luck=True``: the luck terms (columns ``luck_win``/``luck_score``; off by
    default, docs/statistics.md)."""
    return GameJob.make(players, strategies, seed, rules, **options)


def simulate(players, strategies, games, seed=None, rules=None, **options) -> pd.DataFrame:
    """Simulate ``games`` whole games in this process; the ``games`` table.
    ``options``: ``first_game`` (0) and those of :func:`make_job` (``luck=True``:
    with the luck terms' columns)."""
    return jobs.simulate(make_job, players, strategies, games, seed, rules, **options)["games"]
