"""Batch runner: spread a deterministic batch function over cores or a Dask cluster.

Game-agnostic (never imports :mod:`analyzer.unearth`). A *batch function*
``batch_fn(start, count)`` plays games ``start .. start+count-1`` and returns
``{name: DataFrame}``; it must depend only on its arguments (the game job owns
its seed and derives one random stream per game index). A *reducer* turns one
batch's tables into a *partial aggregate*: a DataFrame of additive statistics
(counts, sums, sums of squares) indexed by group keys.

:func:`run` cuts the games into batches (batch ``i`` covers
``[i*batch_size, (i+1)*batch_size)``, the last cut at the total), runs them
in this process, on local worker processes or on a Dask cluster, and consumes
the results **in batch order**: per-game tables are concatenated in game order
(:mod:`analyzer.runs.joined`) and partials are summed exactly (integer columns as
integers, float columns as exact rationals, rounded once at the end;
:mod:`analyzer.runs.exact_sum`), so the result is bit-identical whatever the
number of workers, the completion order or the batch size (as long as the
reducer's own per-batch sums are exact, e.g. integers).

Here: checking the options (:mod:`analyzer.runs.options`), the plan of batches,
precision stopping (judged after each batch in index order) and the loop that
feeds the workers (:mod:`analyzer.runs.backend`) and consumes their results. Its
parts: checkpoint/resume (one atomic file per finished batch plus a run
manifest, :mod:`analyzer.runs.checkpoint`) and a progress display on stderr
(:mod:`analyzer.runs.progress`). See ``docs/scale.md``. This module keeps the
names of those parts it had before they had modules of their own.
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Callable

import pandas as pd

from analyzer.core.outputs import write_parquet_atomic, write_text_atomic
from analyzer.core.stats import Headline
from analyzer.runs.backend import (
    CONNECT_TIMEOUT_S,
    SCHEDULER_SCHEMES,
    _Backend,
    _pool_batch,
    _run_batch,
    _warm_up,
    check_scheduler_address,
    die_with_parent,
    scheduler_address,
)
from analyzer.runs.checkpoint import (
    CHECKPOINT_FORMAT,
    MANIFEST_NAME,
    _atomic_write,
    _Checkpoint,
    _manifest,
    checkpoint_batch_size,
    checkpoint_seed,
    fingerprint,
)
from analyzer.runs.exact_sum import _ExactSum, _keys
from analyzer.runs.joined import _concat_same, _Joined, concat_tables
from analyzer.runs.options import (
    DEFAULT_CAP_FACTOR,
    GAMES_ALLOWED,
    MAX_GAMES,
    MAX_WORKERS,
    BatchFn,
    Reducer,
    RunOptions,
    RunResult,
    check_options,
)
from analyzer.runs.progress import PLAIN_EVERY_S, _Progress, say

# --------------------------------------------------------------------------- validation


def _validate(options: RunOptions, headline) -> None:
    check_options(options, headline is not None)
    found = scheduler_address(options)
    if found:
        check_scheduler_address(*found)


def _plan(options: RunOptions) -> tuple[int, int]:
    """``(total games to plan for, number of batches)``."""
    if options.precision is None:
        total = int(options.games)
    elif options.max_games is not None:
        total = int(options.max_games)
    else:
        total = DEFAULT_CAP_FACTOR * int(options.games)
    return total, -(-total // int(options.batch_size))


def _batch_span(i: int, batch_size: int, total: int) -> tuple[int, int]:
    start = i * batch_size
    return start, min(batch_size, total - start)


# --------------------------------------------------------------------------- run


def run(
    batch_fn: BatchFn,
    options: RunOptions,
    reducer: Reducer,
    headline: Callable[[pd.DataFrame], Headline] | None = None,
    *,
    compile_note: str | None = None,
) -> RunResult:
    """Run ``batch_fn`` over ``options.games`` games in batches and reduce the results.

    ``batch_fn(start, count) -> {name: DataFrame}`` must be picklable and
    deterministic in its arguments (it draws its own random numbers from per-game
    streams); ``reducer(tables) -> partial aggregate`` (additive columns, exact
    sums within a batch). Batches go to ``options.scheduler`` (or
    ``$DASK_SCHEDULER_ADDRESS``) if set, else to ``options.workers`` local
    processes (all cores if None; 1 runs here). Results are consumed in batch
    order, so the returned tables, aggregate and stopping point do not depend on
    workers, completion order or (for exact reducers) batch size.

    Progress counts every game: ``batch_fn.games_per_index`` games (if it says;
    a scenario's configurations) per game index. ``compile_note``: the line that
    announces a first compile (None: the kernels are compiled); the compile then
    runs first, once (``batch_fn.warm_up``), and is left out of the rate
    (``RunResult.compile_seconds``).

    Raises :class:`InputError` for bad options or a checkpoint of another run,
    :class:`AnalyzerError` for an unreachable scheduler; errors raised by the
    batch function propagate.
    """
    _validate(options, headline)
    t0 = time.perf_counter()
    total, n_batches = _plan(options)
    size = int(options.batch_size)
    keep = bool(options.keep_tables)
    ckpt = None
    if options.checkpoint_dir is not None:
        ckpt = _Checkpoint(
            options.checkpoint_dir, _manifest(batch_fn, reducer, options), options.resume
        )
    # lazily: a huge run must not build a list of every batch before playing one
    on_disk = ckpt.finished(n_batches) if ckpt is not None else set()
    n_todo = n_batches - len(on_disk)
    todo = (i for i in range(n_batches) if i not in on_disk)
    next_i = next(todo, None)

    aggregate = _ExactSum()
    tables: dict[str, _Joined] = {}
    ready: dict[int, tuple] = {}
    pending: dict[cf.Future, int] = {}
    games = computed = consumed = 0
    head: Headline | None = None
    stopped_by = "cap" if options.precision is not None else "games"
    label = "games" if options.precision is None else f"games (to ±{options.precision:g})"
    per_index = getattr(batch_fn, "games_per_index", 1)
    if isinstance(per_index, int) and per_index > 1:
        label = f"{label}, {per_index} configurations"
    progress = _Progress(
        bool(options.progress), total, label, per_index, getattr(batch_fn, "games_at", None)
    )
    backend = None
    finished_ok = False
    compile_seconds = 0.0
    try:
        warmed = False
        if n_todo and compile_note and _can_warm(batch_fn, options):
            progress.compiling(compile_note)
            t_compile = time.perf_counter()
            _warm_up(batch_fn, reducer)  # the first compile, once, before any game counts
            compile_seconds = time.perf_counter() - t_compile
            progress.compiled(compile_seconds)
            warmed = True
        t_play = time.perf_counter()  # games/s: from here (no compile; workers' start in)
        progress.start()
        if n_todo:
            _say_if_few(options, n_todo, progress)
            backend = _Backend(batch_fn, reducer, options, n_todo, warmed=warmed)
        while consumed < n_batches:
            # keep the workers busy, but never too far ahead of the consumer
            while (
                backend is not None
                and next_i is not None
                and len(pending) + len(ready) < (backend.window)
            ):
                i, next_i = next_i, next(todo, None)
                start, count = _batch_span(i, size, total)
                pending[backend.submit(start, count, keep)] = i
            if consumed in on_disk:
                partial, batch_tables = ckpt.load(consumed)
            elif consumed in ready:
                partial, batch_tables = ready.pop(consumed)
            else:
                done, _ = cf.wait(list(pending), timeout=1.0, return_when=cf.FIRST_COMPLETED)
                if not done:  # a long batch: the plain progress line still comes on time
                    progress.tick()
                for future in done:
                    i = pending.pop(future)
                    result = future.result()
                    if ckpt is not None:
                        ckpt.save(i, *result)
                    computed += _batch_span(i, size, total)[1]
                    ready[i] = result
                continue
            aggregate.add(partial)
            batch_games = _batch_span(consumed, size, total)[1]
            if keep:
                # a precision run's games are not known: its batches are kept as they come
                left = total - games if options.precision is None else None
                for name, frame in (batch_tables or {}).items():
                    tables.setdefault(name, _Joined(left)).add(frame, batch_games)
            batch_tables = partial = None  # (the joined copy is kept, not the batch)
            games += batch_games
            consumed += 1
            if headline is not None and (options.precision is not None or progress.enabled):
                head = headline(aggregate.value())  # else only once, at the end
            elapsed = time.perf_counter() - t_play
            progress.update(games, computed / elapsed if elapsed > 0 else 0.0, head)
            if options.precision is not None and head is not None:
                if head.half_width < options.precision:
                    stopped_by = "precision"
                    break
        finished_ok = True
    finally:
        progress.close()
        if backend is not None:
            backend.close(failed=not finished_ok)
        if ckpt is not None:  # the folder let go; nothing left of a run that finished no batch
            ckpt.close(discard=not finished_ok and not computed)
    seconds = time.perf_counter() - t0
    play_seconds = seconds - compile_seconds
    out_tables = {}
    if keep:
        for name, joined in tables.items():
            out_tables[name] = joined.table()
    total_aggregate = aggregate.value()
    if headline is not None and consumed and stopped_by != "precision":
        head = headline(total_aggregate)  # the same as after the last batch
    return RunResult(
        tables=out_tables,
        aggregate=total_aggregate,
        games=games,
        batches=consumed,
        seconds=seconds,
        games_per_second=computed / play_seconds if play_seconds > 0 else 0.0,
        stopped_by=stopped_by,
        headline=head,
        compile_seconds=compile_seconds,
    )


def _say_if_few(options: RunOptions, n_batches: int, progress: _Progress) -> None:
    """Say (a line with progress on, else a ``RuntimeWarning``) when the local
    processes asked for would be slower than this one: fewer than two batches
    each, for which each starts Python and loads the engine first."""
    asked = options.workers
    if asked is None or asked <= 1 or scheduler_address(options) is not None:
        return
    used = min(asked, n_batches)
    if used <= 1 or n_batches >= 2 * used:
        return
    line = (
        f"workers={asked}: {n_batches} batches are too few for {used} processes to be "
        "faster than one (each starts Python and loads the engine before its first "
        "game); workers=1 plays them in this process"
    )
    if progress.enabled:
        say(line)
    else:
        import warnings

        warnings.warn(line, RuntimeWarning, stacklevel=3)


def _can_warm(batch_fn, options: RunOptions) -> bool:
    """A compile can run here first: the batch function offers ``warm_up`` and the
    games are played on this machine (a Dask cluster's workers compile their own)."""
    return callable(getattr(batch_fn, "warm_up", None)) and scheduler_address(options) is None


__all__ = [
    "BatchFn",
    "Headline",
    "Reducer",
    "RunOptions",
    "RunResult",
    "fingerprint",
    "run",
    "checkpoint_seed",
    "checkpoint_batch_size",
    "write_parquet_atomic",
    # the runner's parts, by their names here before they had modules of their own
    "CHECKPOINT_FORMAT",
    "CONNECT_TIMEOUT_S",
    "DEFAULT_CAP_FACTOR",
    "GAMES_ALLOWED",
    "MANIFEST_NAME",
    "MAX_GAMES",
    "MAX_WORKERS",
    "PLAIN_EVERY_S",
    "SCHEDULER_SCHEMES",
    "check_scheduler_address",
    "concat_tables",
    "die_with_parent",
    "scheduler_address",
    "write_text_atomic",
    "_ExactSum",
    "_Joined",
    "_atomic_write",
    "_concat_same",
    "_keys",
    "_pool_batch",
    "_run_batch",
]
