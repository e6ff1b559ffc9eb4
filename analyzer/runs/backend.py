"""Where batches run: this process, local worker processes, or a Dask cluster.

Game-agnostic. :class:`_Backend` is an executor plus how many batches to keep
in flight: inline for one worker, a process pool whose workers unpickle the job
once and die with their parent (:func:`analyzer.runs.pool.die_with_parent`), or a running Dask
scheduler reached within a few seconds (:func:`check_scheduler_address`). Each
batch is played and reduced where it runs (:func:`_run_batch`).
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import os

from analyzer.core.errors import AnalyzerError, EnvironmentFailure, bad_value
from analyzer.runs.options import BatchFn, Reducer, RunOptions
from analyzer.runs.pool import die_with_parent

#: seconds to wait for a Dask scheduler before giving up
CONNECT_TIMEOUT_S = 3.0


def _run_batch(batch_fn: BatchFn, reducer: Reducer, start: int, count: int, keep_tables: bool):
    """Play one batch and reduce it: ``(partial, tables or None)``."""
    tables = batch_fn(start, count)
    if not isinstance(tables, dict):
        raise AnalyzerError(
            f"batch function: returned {type(tables).__name__} (allowed: dict of DataFrames)"
        )
    partial = reducer(tables)
    return partial, (tables if keep_tables else None)


_WORKER_JOB: tuple | None = None


def _init_worker(
    batch_fn: BatchFn, reducer: Reducer, keep_tables: bool, parent: int | None = None
) -> None:
    """Pool initializer: unpickle the job once per worker process, and tie the
    worker's life to its parent's (:func:`analyzer.runs.pool.die_with_parent`)."""
    global _WORKER_JOB
    _WORKER_JOB = (batch_fn, reducer, keep_tables)
    if parent is not None:  # done already if the worker is a TiedProcess
        die_with_parent(parent)


def _pool_batch(start: int, count: int):
    batch_fn, reducer, keep_tables = _WORKER_JOB
    return _run_batch(batch_fn, reducer, start, count, keep_tables)


class _InlineExecutor(cf.Executor):
    """Runs each submitted call at once in this process (``workers=1``)."""

    def submit(self, fn, /, *args, **kwargs):
        future = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as err:  # delivered through the future, like a pool
            future.set_exception(err)
        return future


#: transports a scheduler address may name (Dask's own)
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


def scheduler_address(options: RunOptions) -> tuple[str, str] | None:
    """``(address, where it came from)`` of the Dask scheduler to use, or None."""
    if options.scheduler:
        return options.scheduler, "--scheduler"
    env = os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    return (env, "$DASK_SCHEDULER_ADDRESS") if env else None


def check_scheduler_address(address: str, where: str = "--scheduler") -> tuple[str, int]:
    """``(host, port)`` of a scheduler address ``[scheme://]host:port``; an
    :class:`InputError` naming ``where`` for anything else (checked before any work)."""
    allowed = "SCHEME://HOST:PORT, e.g. tcp://10.0.0.5:8786 (schemes: " + ", ".join(
        SCHEDULER_SCHEMES
    )
    allowed += ")"
    if not isinstance(address, str) or not address.strip() or len(address) > 1000:
        raise bad_value(where, address, allowed)
    scheme, sep, rest = address.strip().partition("://")
    if not sep:
        scheme, rest = "tcp", address.strip()
    if scheme not in SCHEDULER_SCHEMES:
        raise bad_value(where, address, allowed)
    if rest.startswith("["):  # [ipv6]:port
        host, sep, port = rest[1:].partition("]:")
    else:
        host, sep, port = rest.rpartition(":")
    if not sep or not host or ":" in host and not rest.startswith("[") or "/" in host:
        raise bad_value(where, address, allowed)
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise bad_value(where, address, allowed)
    return host, int(port)


def _dask_client(address: str, where: str = "--scheduler"):
    """Connect to a running Dask scheduler, or raise within a few seconds:
    :class:`EnvironmentFailure` if nothing answers at the address."""
    import socket

    host, port = check_scheduler_address(address, where)
    hint = f"start one with 'dask scheduler' and 'dask worker {address}'"
    try:  # a plain TCP probe first: fails fast and leaves no half-made client behind
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as err:
        detail = err.strerror or type(err).__name__
        raise EnvironmentFailure(
            f"scheduler: cannot connect to {address!r} within {CONNECT_TIMEOUT_S:g} s "
            f"({detail}); {hint}"
        ) from None

    import dask
    from distributed import Client

    with dask.config.set({"distributed.comm.timeouts.connect": f"{CONNECT_TIMEOUT_S}s"}):
        try:
            return Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as err:
            detail = " ".join(str(err).split())[:160] or type(err).__name__
            raise EnvironmentFailure(
                f"scheduler: cannot connect to {address!r} within {CONNECT_TIMEOUT_S:g} s "
                f"({detail}); {hint}"
            ) from None


class _Backend:
    """An executor plus how many batches to keep in flight, and how to close it."""

    def __init__(
        self, batch_fn, reducer, options: RunOptions, n_batches: int, warmed: bool = False
    ) -> None:
        self.client = None
        self.where = "this process"
        found = scheduler_address(options)
        if found:
            address = found[0]
            self.client = _dask_client(*found)
            threads = sum(self.client.nthreads().values()) or 1
            self.executor = self.client.get_executor(pure=False)
            self.window = max(2, 2 * threads)
            self.where = f"Dask {address} ({threads} threads)"
            self.submit = functools.partial(self.executor.submit, _run_batch, batch_fn, reducer)
            return
        workers = options.workers or os.cpu_count() or 1
        workers = max(1, min(workers, n_batches))
        if workers == 1:
            self.executor = _InlineExecutor()
            self.window = 1
            self.submit = functools.partial(self.executor.submit, _run_batch, batch_fn, reducer)
            return
        if not warmed:  # (the runner compiled them already when it announced a compile)
            _warm_up(batch_fn, reducer)  # each kernel compiled once, here, not in every worker
        # spawn-like: no fork of a process holding threads (progress display,
        # numba), and workers that do not run the caller's main module again
        # (a script from stdin, a script without a __main__ guard: analyzer.runs.pool)
        from analyzer.runs.pool import context

        initargs = (batch_fn, reducer, options.keep_tables, os.getpid())
        self.executor = cf.ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context(*initargs[:2]),
            initializer=_init_worker,
            initargs=initargs,
        )
        self.window = 2 * workers
        self.where = f"{workers} local processes"
        self.submit = lambda start, count, keep: self.executor.submit(_pool_batch, start, count)

    def close(self, failed: bool) -> None:
        """Cancel batches not started; on success wait for running ones (clean exit)."""
        try:
            if self.client is not None:
                self.executor.shutdown(wait=False)  # cancels what is left on the cluster
            elif isinstance(self.executor, cf.ProcessPoolExecutor):
                if failed:  # interrupted or an error: running batches are not waited for
                    for proc in list((getattr(self.executor, "_processes", None) or {}).values()):
                        proc.terminate()
                self.executor.shutdown(wait=not failed, cancel_futures=True)
        finally:
            if self.client is not None:
                self.client.close()


def _warm_up(batch_fn, reducer) -> None:
    """Compile here, once, every kernel a batch needs, before any worker starts,
    if the batch function offers ``warm_up()`` (analyzer's jobs do): one game
    (of every cell) through the batch function and the reducer, its tables
    dropped. The workers then load the on-disk cache: on an empty cache each
    worker compiled the reducer's kernels itself, and every kernel the job's
    own ``warm_up`` left out. Nothing a run returns depends on it."""
    if callable(getattr(batch_fn, "warm_up", None)):
        _run_batch(batch_fn, reducer, 0, 1, False)
