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
and partials are summed exactly (integer columns as integers, float columns as
exact rationals, rounded once at the end), so the result is bit-identical
whatever the number of workers, the completion order or the batch size (as long
as the reducer's own per-batch sums are exact, e.g. integers).

Also here: precision stopping (judged after each batch in index order),
checkpoint/resume (one atomic file per finished batch plus a run manifest), and
a rich progress display on stderr. See ``docs/scale.md``.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import hashlib
import json
import math
import os
import re
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer._compat import OLD_NAME
from analyzer.core.errors import AnalyzerError, EnvironmentFailure, InputError, bad_value
from analyzer.core.stats import Headline  # noqa: F401 - its old home

BatchFn = Callable[[int, int], dict[str, pd.DataFrame]]
Reducer = Callable[[dict[str, pd.DataFrame]], pd.DataFrame]

#: default cap on games when a precision target is set: this many times ``games``
DEFAULT_CAP_FACTOR = 10
#: seconds to wait for a Dask scheduler before giving up
CONNECT_TIMEOUT_S = 3.0
#: version of the checkpoint layout; a checkpoint of another format is refused
CHECKPOINT_FORMAT = 1
MANIFEST_NAME = "run.json"
#: most games one run may ask for: a trillion (years of CPU time; a larger number
#: is a typo, and the game index must stay a 64-bit integer)
MAX_GAMES = 10**12
GAMES_ALLOWED = f"an integer from 1 to {MAX_GAMES:,}"
#: most local worker processes (one per core is the useful most; more is a typo
#: that would start a process per batch)
MAX_WORKERS = 1024


@dataclass(frozen=True)
class RunOptions:
    """How to run: sizes, where, resume, precision, memory, progress.

    With ``precision`` set, the run stops after the first batch (in index order)
    whose prefix aggregate has a headline half-width below ``precision``, or at
    ``max_games`` (default ``10 * games``); ``games`` then only sets the default
    cap. ``seed`` is recorded in the checkpoint manifest; the batch function owns
    the seed that drives the games.
    """

    games: int
    seed: int
    batch_size: int = 5000
    workers: int | None = None
    scheduler: str | None = None
    checkpoint_dir: Path | None = None
    resume: bool = False
    precision: float | None = None
    max_games: int | None = None
    keep_tables: bool = True
    progress: bool = True


@dataclass
class RunResult:
    """What :func:`run` returns.

    ``games_per_second`` counts the games simulated in this call (not those
    loaded from a checkpoint) over the wall time ``seconds``.
    """

    tables: dict[str, pd.DataFrame]
    aggregate: pd.DataFrame
    games: int
    batches: int
    seconds: float
    games_per_second: float
    stopped_by: str
    headline: Headline | None


# --------------------------------------------------------------------------- validation


def _is_int(value) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _validate(options: RunOptions, headline) -> None:
    if not _is_int(options.games) or not 1 <= options.games <= MAX_GAMES:
        raise bad_value("games", options.games, GAMES_ALLOWED)
    if not _is_int(options.batch_size) or not 1 <= options.batch_size <= MAX_GAMES:
        raise bad_value("batch_size", options.batch_size, GAMES_ALLOWED)
    if options.workers is not None and (
        not _is_int(options.workers) or not 1 <= options.workers <= MAX_WORKERS
    ):
        allowed = f"an integer from 1 to {MAX_WORKERS:,}, or None for all cores"
        raise bad_value("workers", options.workers, allowed)
    if options.precision is not None:
        p = options.precision
        if (
            isinstance(p, bool)
            or not isinstance(p, int | float)
            or not (p > 0 and math.isfinite(p))
        ):
            raise bad_value("precision", p, "a positive number")
        if headline is None:
            raise InputError("precision: needs a headline function to judge the target")
    if options.max_games is not None:
        if not _is_int(options.max_games) or not 1 <= options.max_games <= MAX_GAMES:
            raise bad_value("max_games", options.max_games, GAMES_ALLOWED)
        if options.precision is None:
            raise InputError("max_games: only used with a precision target (set precision too)")
    if options.resume and options.checkpoint_dir is None:
        raise InputError("resume: needs a checkpoint directory to resume from")
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


# --------------------------------------------------------------------------- exact sums


#: exact residues are kept as integers in units of the smallest subnormal double
_ULP_SCALE = 1074


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(s, e)`` with ``s = fl(a + b)`` and ``a + b = s + e`` exactly (Knuth's TwoSum)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def _scaled(x: float) -> int:
    """``x`` as an exact integer multiple of ``2**-1074``."""
    num, den = float(x).as_integer_ratio()
    return num << (_ULP_SCALE - (den.bit_length() - 1))


def _keys(index: pd.Index) -> list:
    """``index.tolist()`` (a MultiIndex's keys as tuples), for a MultiIndex without
    missing values built from its levels and codes: pandas would first build every
    key of the index as an object array (about 0.15 ms for a batch's partial)."""
    if not isinstance(index, pd.MultiIndex) or not all(len(lev) for lev in index.levels):
        return index.tolist()
    cols = [
        np.asarray(level.tolist(), dtype=object).take(codes)
        for level, codes in zip(index.levels, index.codes, strict=True)
    ]
    return list(zip(*cols, strict=True))


def _has_missing(index: pd.Index) -> bool:
    """Does any key of ``index`` hold a missing value?"""
    if isinstance(index, pd.MultiIndex):
        return any(bool((c < 0).any()) for c in index.codes)
    return bool(index.hasnans)


class _ExactSum:
    """Sum of partial aggregates, independent of how the games were split.

    Integer (and bool) columns are summed as int64. Float columns are summed in
    float64 with TwoSum: the rounding error of every addition is exact and is
    kept as an integer residue (only for the cells where it is not zero), and
    :meth:`value` rounds ``sum + residue`` once. So ``(a + b) + c`` and
    ``a + (b + c)`` give the same bits, whatever the order of the partials.
    Rows are the union of the group keys seen, sorted when read.
    """

    def __init__(self) -> None:
        #: the keys' index in pieces (the first partial's, then each partial's new
        #: keys): appended once when read, not per batch (an append costs ms)
        self._pieces: list[pd.Index] = []
        self._size = 0  #: rows so far
        self._where: dict = {}  #: each key's row in ``_index``
        self._acc: dict[str, np.ndarray] = {}
        self._resid: dict[str, dict[int, int]] = {}

    @property
    def _index(self) -> pd.Index | None:
        """Every key seen, in the order first seen (None before the first partial)."""
        if not self._pieces:
            return None
        if len(self._pieces) > 1:
            self._pieces = [self._pieces[0].append(self._pieces[1:])]
        return self._pieces[0]

    def _extend(self, new: pd.Index) -> None:
        """Rows for the keys ``new`` (not seen before), after the others."""
        self._pieces.append(new)
        self._size += len(new)
        for col, acc in self._acc.items():
            self._acc[col] = np.concatenate([acc, np.zeros(len(new), acc.dtype)])

    def _grow(self, index: pd.Index) -> np.ndarray:
        """Add unseen keys of ``index``; return the positions of its rows."""
        if self._where is None or _has_missing(index):  # keys a dict cannot match (NaN)
            return self._grow_pandas(index)
        keys = _keys(index)
        if len(set(keys)) != len(keys):
            raise AnalyzerError("reducer: the partial aggregate has duplicate group keys")
        if not self._pieces:
            self._extend(index)
            self._where = {k: i for i, k in enumerate(keys)}
            return np.arange(len(keys), dtype=np.intp)
        where = self._where
        unseen = np.array([k not in where for k in keys], bool)
        if unseen.any():  # the new keys, in their order (``index.difference(sort=False)``)
            for k, fresh in zip(keys, unseen.tolist(), strict=True):
                if fresh:  # (the keys at hand: not new.tolist(), which builds them again)
                    where[k] = len(where)
            self._extend(index[unseen])
        return np.array([where[k] for k in keys], np.intp)

    def _grow_pandas(self, index: pd.Index) -> np.ndarray:
        """:meth:`_grow` by pandas' own index operations (keys with missing values)."""
        self._where = None
        if not index.is_unique:
            raise AnalyzerError("reducer: the partial aggregate has duplicate group keys")
        if self._index is None:
            self._extend(index)
        else:
            new = index.difference(self._index, sort=False)
            if len(new):
                self._extend(new)
        return self._index.get_indexer(index)

    def add(self, partial: pd.DataFrame) -> None:
        from analyzer.core.frames import column_arrays

        pos = self._grow(partial.index)
        n = self._size
        for col, array in column_arrays(partial).items():
            dtype = array.dtype
            if isinstance(dtype, np.dtype) and dtype.kind in "biuf":  # numpy's own: no Series
                kind = np.float64 if dtype.kind == "f" else np.int64
                values = array.astype(kind, copy=False)
            elif pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_integer_dtype(dtype):
                values = partial[col].to_numpy(dtype=np.int64)
                kind = np.int64
            elif pd.api.types.is_float_dtype(dtype):
                values = partial[col].to_numpy(dtype=np.float64)
                kind = np.float64
            else:
                raise AnalyzerError(
                    f"reducer: column {col!r} has dtype {dtype} (allowed: integer or float)"
                )
            acc = self._acc.get(col)
            if acc is None:
                acc = self._acc[col] = np.zeros(n, dtype=kind)
                self._resid[col] = {}
            if acc.dtype.kind == "i":
                if kind is np.float64:
                    raise AnalyzerError(f"reducer: column {col!r} changed from integer to float")
                acc[pos] += values
                continue
            s, e = _two_sum(acc[pos], values)
            acc[pos] = s
            resid = self._resid[col]
            for k in np.flatnonzero((e != 0) & np.isfinite(e)):
                p = int(pos[k])
                resid[p] = resid.get(p, 0) + _scaled(e[k])

    def value(self) -> pd.DataFrame:
        """The sum so far as a numeric DataFrame sorted by index (empty if nothing added)."""
        if not self._pieces:
            return pd.DataFrame()
        out = {}
        for col, acc in self._acc.items():
            values = acc.copy()
            for p, r in self._resid[col].items():
                if r and math.isfinite(values[p]):
                    values[p] = float(Fraction(values[p]) + Fraction(r, 1 << _ULP_SCALE))
            out[col] = values
        return pd.DataFrame(out, index=self._keys_index()).sort_index()

    def _keys_index(self) -> pd.Index:
        """Every key seen, in the order first seen: with the dict of keys, a
        MultiIndex made once from them (appending a batch's index of new keys to
        the others costs ~0.15 ms a batch), else :attr:`_index`."""
        first = self._pieces[0]
        if self._where is None or len(self._pieces) == 1 or not isinstance(first, pd.MultiIndex):
            return self._index
        keys = list(self._where)  # (in the order of their rows)
        return pd.MultiIndex.from_arrays(
            [list(level) for level in zip(*keys, strict=True)], names=first.names
        )


# --------------------------------------------------------------------------- checkpoints


def fingerprint(obj) -> str:
    """A stable text identity of a batch function or reducer, for the run manifest.

    Plain functions are named by module and qualified name; ``functools.partial``
    by its function and arguments; anything else (e.g. a frozen dataclass job)
    by its ``repr`` with memory addresses removed.
    """
    if isinstance(obj, functools.partial):
        args = ", ".join(fingerprint(a) for a in obj.args)
        kwargs = ", ".join(f"{k}={fingerprint(v)}" for k, v in sorted(obj.keywords.items()))
        return f"partial({fingerprint(obj.func)}; {args}; {kwargs})"
    if isinstance(obj, types.FunctionType | types.BuiltinFunctionType):
        # a function of a module that moved keeps its old name, so a checkpoint
        # written before the move still resumes
        module = OLD_NAME.get(obj.__module__, obj.__module__)
        return f"{module}.{obj.__qualname__}"
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(obj))


def _manifest(batch_fn, reducer, options: RunOptions) -> dict:
    fn_text = fingerprint(batch_fn)
    return {
        "format": CHECKPOINT_FORMAT,
        "batch_fn": fn_text[:200],
        "batch_fn_sha256": hashlib.sha256(fn_text.encode()).hexdigest(),
        "reducer": fingerprint(reducer),
        "seed": int(options.seed),
        "games": int(options.games),
        "batch_size": int(options.batch_size),
        "precision": options.precision,
        "max_games": options.max_games,
        "keep_tables": bool(options.keep_tables),
    }


def concat_tables(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """``pd.concat`` of same-shaped tables in order, keeping a column categorical
    when every part has it categorical with different categories (the union, in
    order of first appearance; pandas would fall back to object)."""
    fast = _concat_same(frames)
    if fast is not None:
        return fast
    out = pd.concat(frames, ignore_index=True)
    each = [f.dtypes for f in frames]
    categorical = {c for d in each for c, t in d.items() if isinstance(t, pd.CategoricalDtype)}
    for col in out.columns:
        if col not in categorical or isinstance(out[col].dtype, pd.CategoricalDtype):
            continue  # (a column categorical in no part stays as pandas made it)
        dtypes = [d[col] for d in each if col in d.index]
        if dtypes and all(isinstance(d, pd.CategoricalDtype) for d in dtypes):
            cats = list(dict.fromkeys(c for d in dtypes for c in d.categories))
            out[col] = pd.Categorical(out[col], categories=cats)
    return out


def _concat_same(frames: list[pd.DataFrame]) -> pd.DataFrame | None:
    """``pd.concat(frames, ignore_index=True)`` of frames with the same columns and
    dtypes (numpy's, or categoricals of the same categories), no attributes: each
    column's arrays joined once, without pandas' per-block planning. None for
    anything else (then pandas joins them)."""
    from analyzer.core.frames import column_arrays

    first = frames[0] if frames else None
    if len(frames) < 2 or first.attrs or not first.columns.is_unique:
        return None
    dtypes = first.dtypes
    for f in frames[1:]:
        if f.attrs or not f.columns.equals(first.columns) or not f.dtypes.equals(dtypes):
            return None
    each = [column_arrays(f) for f in frames]
    out = {}
    for name, dtype in dtypes.items():
        parts = [e[name] for e in each]
        if isinstance(dtype, np.dtype):
            out[name] = np.concatenate(parts)
        elif isinstance(dtype, pd.CategoricalDtype):
            # the same categories in the same order (== holds for any order)
            if not all(p.categories.equals(dtype.categories) for p in parts):
                return None
            codes = np.concatenate([p.codes for p in parts])
            out[name] = pd.Categorical.from_codes(codes, dtype=dtype)
        else:
            return None
    result = pd.DataFrame(out, copy=False)
    result.columns = first.columns
    return result


def _joinable(frame: pd.DataFrame) -> dict | None:
    """``frame``'s columns by name (:func:`analyzer.core.frames.column_arrays`) if it can
    be joined column by column as :func:`_concat_same` joins (unique names, numpy
    dtypes or categoricals, no attributes), else None."""
    from analyzer.core.frames import column_arrays

    if frame.attrs:
        return None
    arrays = column_arrays(frame)
    if len(arrays) != len(frame.columns) or not arrays:
        return None
    if not all(isinstance(a, np.ndarray | pd.Categorical) for a in arrays.values()):
        return None
    return arrays


def _shape(arrays: dict) -> list:
    """What two batches must share to be joined: each column's name and dtype (a
    categorical's categories in their order too, as :func:`_concat_same` asks)."""
    return [
        (name, a.dtype, tuple(a.categories) if isinstance(a, pd.Categorical) else None)
        for name, a in arrays.items()
    ]


class _Joined:
    """One kept table of a run (``keep_tables``), joined as the batches come: from
    the second batch on, each batch's columns are copied into arrays sized for the
    whole run, and the batch's own frame is let go (its memory serves the next
    batch). The table at the end is :func:`concat_tables` of the batches, to the
    bit (the same columns, dtypes, categories and index), without keeping every
    batch and then a second copy of them all: a run maps half the memory, and
    copies each batch while it is fresh in the cache. ``games_left``: the run's
    games still to come (None: not known, a precision run; its batches are kept
    and joined at the end). Anything :func:`_concat_same` would not join (a dtype
    or categories that change, an extension dtype) keeps the batches and joins
    them with :func:`concat_tables`."""

    def __init__(self, games_left: int | None) -> None:
        self.games_left = games_left
        self.frames: list[pd.DataFrame] = []  #: batches kept as they are
        self.games = 0  #: games of the batches in ``frames``
        self.first: pd.DataFrame | None = None  #: no rows: the table's columns
        self.shape: list | None = None  #: :func:`_shape` of every batch joined
        self.arrays: dict[str, np.ndarray] = {}  #: each column's values (codes for categoricals)
        self.rows = 0  #: rows written into ``arrays``

    def add(self, frame: pd.DataFrame, games: int) -> None:
        if self.games_left is not None:
            self.games_left -= games
        if self.first is not None:
            arrays = _joinable(frame)
            if arrays is not None and _shape(arrays) == self.shape:
                self._write(arrays, len(frame))
                return
            self.frames = [self._joined()]  # back to keeping the batches as they are
            self.first, self.shape, self.arrays = None, None, {}
            self.games_left = None
        self.frames.append(frame)
        self.games += games
        if len(self.frames) != 2 or self.games_left is None:
            return
        each = [_joinable(f) for f in self.frames]
        if any(a is None for a in each) or _shape(each[0]) != _shape(each[1]):
            return
        rows = sum(len(f) for f in self.frames)
        ahead = math.ceil(rows / max(1, self.games) * max(0, self.games_left))
        self.first, self.shape = frame.iloc[:0].copy(), _shape(each[1])
        for name, col in each[1].items():
            dtype = col.codes.dtype if isinstance(col, pd.Categorical) else col.dtype
            self.arrays[name] = np.empty(rows + ahead, dtype)
        for f, arrays in zip(self.frames, each, strict=True):
            self._write(arrays, len(f))
        self.frames = []

    def _write(self, arrays: dict, n: int) -> None:
        need = self.rows + n
        if need > len(next(iter(self.arrays.values()))):  # more rows than foreseen
            grown = int(need * 1.5)
            for name, arr in self.arrays.items():
                bigger = np.empty(grown, arr.dtype)
                bigger[: self.rows] = arr[: self.rows]
                self.arrays[name] = bigger
        for name, col in arrays.items():
            values = col.codes if isinstance(col, pd.Categorical) else col
            self.arrays[name][self.rows : need] = values
        self.rows = need

    def _joined(self) -> pd.DataFrame:
        """The rows written so far as one frame (the columns trimmed to them)."""
        out = {}
        for name, dtype in self.first.dtypes.items():
            arr = self.arrays[name]
            # a column sized past its rows (a table whose rows per game vary) is
            # copied to its length, so the frame does not hold the spare rows
            arr = arr if len(arr) == self.rows else arr[: self.rows].copy()
            if isinstance(dtype, pd.CategoricalDtype):
                arr = pd.Categorical.from_codes(arr, dtype=dtype)
            out[name] = arr
        result = pd.DataFrame(out, copy=False)
        result.columns = self.first.columns
        return result

    def table(self) -> pd.DataFrame:
        """The whole table: the batches joined in order."""
        if self.first is not None:
            return self._joined()
        return concat_tables(self.frames) if self.frames else pd.DataFrame()


def _atomic_write(path: Path, write: Callable[[str], None]) -> None:
    """Call ``write(tmp_path)`` on a temp file next to ``path``, then rename it into
    place (:func:`analyzer.core.outputs.atomic_write`: the umask's mode, one-line errors)."""
    from analyzer.core.outputs import atomic_write

    atomic_write(Path(path), write)


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: temp file + ``os.replace``."""
    path = Path(path)

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)

    _atomic_write(path, write)


def write_parquet_atomic(frame: pd.DataFrame, path: Path, *, index: bool = False) -> None:
    """Write ``frame`` to ``path`` as Parquet (pyarrow) atomically: temp file + ``os.replace``."""
    _atomic_write(Path(path), lambda tmp: frame.to_parquet(tmp, engine="pyarrow", index=index))


class _Checkpoint:
    """One directory per run: ``run.json`` plus, per finished batch ``i``,
    ``batch-<i>.<table>.parquet`` (if tables are kept) and ``batch-<i>.partial.parquet``.

    Every file is written atomically and the partial last, so a batch is finished
    exactly when its partial file exists; temp files (``.name.*.tmp``) from a
    killed run are never read and are removed on resume.
    """

    def __init__(self, directory: Path, manifest: dict, resume: bool) -> None:
        self.dir = Path(directory)
        #: the folders this run creates (deepest first) and whether it wrote run.json:
        #: what :meth:`discard` takes away if the run fails before finishing a batch
        self.created = [p for p in (self.dir, *self.dir.parents) if not p.exists()]
        self.wrote_manifest = False
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise InputError(
                f"checkpoint: cannot create directory {str(self.dir)!r}: {err.strerror}"
            ) from None
        path = self.dir / MANIFEST_NAME
        if path.exists():
            if not resume:
                raise InputError(
                    f"checkpoint: {str(self.dir)!r} already holds a run "
                    "(allowed: resume it, or use an empty directory)"
                )
            try:
                old = json.loads(path.read_text("utf-8"))
            except (OSError, ValueError, RecursionError) as err:
                detail = " ".join(str(err).split())[:160]
                raise InputError(f"checkpoint: cannot read {str(path)!r}: {detail}") from None
            if not isinstance(old, dict):
                raise InputError(
                    f"checkpoint: {str(path)!r} is not a run manifest (a JSON object "
                    "written by analyzer; allowed: resume a checkpoint analyzer wrote)"
                )
            for key, value in manifest.items():
                if old.get(key) != value:
                    raise InputError(
                        f"checkpoint: {str(path)!r} is a different run: {key} is {old.get(key)!r} "
                        f"there, {value!r} now (allowed: resume with the same options and job)"
                    )
            for stale in self.dir.glob(".batch-*.tmp"):
                stale.unlink(missing_ok=True)
        else:
            if any(self.dir.glob("batch-*.parquet")):
                raise InputError(
                    f"checkpoint: {str(self.dir)!r} holds batch files but no {MANIFEST_NAME} "
                    "(allowed: an empty directory or a checkpoint written by analyzer)"
                )
            text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
            try:
                _atomic_write(path, lambda tmp: Path(tmp).write_text(text, "utf-8"))
            except BaseException:
                self.discard()
                raise
            self.wrote_manifest = True
        self.keep_tables = bool(manifest["keep_tables"])

    def discard(self) -> None:
        """Leave nothing behind of a run that failed before finishing any batch
        (an unreachable scheduler, an interrupt at start-up): the ``run.json`` it
        wrote and the folders it created, as long as nothing else is in them."""
        if self.wrote_manifest and not any(self.dir.glob("batch-*")):
            (self.dir / MANIFEST_NAME).unlink(missing_ok=True)
            self.wrote_manifest = False
        for folder in self.created:
            try:
                folder.rmdir()
            except OSError:  # not empty (or gone): it holds something else
                break

    @staticmethod
    def saved(directory: Path, key: str) -> int | None:
        """The integer ``key`` (``seed``, ``batch_size``) recorded in a checkpoint's
        ``run.json``, or None if there is none."""
        try:
            old = json.loads((Path(directory) / MANIFEST_NAME).read_text("utf-8"))
        except (OSError, ValueError, RecursionError):
            return None
        value = old.get(key) if isinstance(old, dict) else None
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @staticmethod
    def saved_seed(directory: Path) -> int | None:
        """The seed recorded in a checkpoint's ``run.json``, or None if there is none."""
        return _Checkpoint.saved(directory, "seed")

    def _partial_path(self, i: int) -> Path:
        return self.dir / f"batch-{i:06d}.partial.parquet"

    def _table_path(self, i: int, name: str) -> Path:
        return self.dir / f"batch-{i:06d}.{name}.parquet"

    def finished(self, n_batches: int) -> set[int]:
        """Indices below ``n_batches`` of the batches finished on disk (one directory listing)."""
        out = set()
        for path in self.dir.glob("batch-*.partial.parquet"):
            digits = path.name[len("batch-") : -len(".partial.parquet")]
            if digits.isdigit() and int(digits) < n_batches:
                out.add(int(digits))
        return out

    def done(self, i: int) -> bool:
        """True if batch ``i`` was finished (its partial file exists)."""
        return self._partial_path(i).exists()

    def save(self, i: int, partial: pd.DataFrame, tables: dict[str, pd.DataFrame] | None) -> None:
        if tables is not None:
            names = sorted(tables)
            for name in names:
                if not re.fullmatch(r"[A-Za-z0-9_]+", name) or name == "partial":
                    raise AnalyzerError(
                        f"batch function: table name {name!r} cannot be checkpointed "
                        "(allowed: letters, digits, '_', not 'partial')"
                    )
                write_parquet_atomic(tables[name], self._table_path(i, name))
            frame = partial.copy()
            frame.attrs = {"tables": names}
        else:
            frame = partial
        _atomic_write(
            self._partial_path(i),
            lambda tmp: frame.to_parquet(tmp, engine="pyarrow", index=True),
        )

    def load(self, i: int) -> tuple[pd.DataFrame, dict[str, pd.DataFrame] | None]:
        path = self._partial_path(i)
        try:
            partial = pd.read_parquet(path, engine="pyarrow")
            tables = None
            if self.keep_tables:
                names = partial.attrs.get("tables", [])
                tables = {
                    n: pd.read_parquet(self._table_path(i, n), engine="pyarrow") for n in names
                }
        except (OSError, ValueError) as err:
            raise AnalyzerError(
                f"checkpoint: cannot read batch {i} in {str(self.dir)!r}: {err}"
            ) from None
        partial.attrs = {}
        return partial, tables


# --------------------------------------------------------------------------- executing batches


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
    worker's life to its parent's (:func:`die_with_parent`)."""
    global _WORKER_JOB
    _WORKER_JOB = (batch_fn, reducer, keep_tables)
    if parent is not None:
        die_with_parent(parent)


def die_with_parent(parent: int) -> None:
    """Make this (worker) process end when process ``parent`` ends, however it ends.

    Ctrl-C reaches every process of the terminal's group: a worker ignores it
    and lets the parent stop the pool (no traceback from every worker). On Linux
    the kernel kills the worker when the parent dies (``PR_SET_PDEATHSIG``, even
    for SIGKILL); elsewhere a watchdog thread notices the parent is gone.
    """
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    except (AttributeError, OSError):
        pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


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

    def __init__(self, batch_fn, reducer, options: RunOptions, n_batches: int) -> None:
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


# --------------------------------------------------------------------------- progress


#: seconds between two plain progress lines (stderr not a terminal, e.g. a CI log)
PLAIN_EVERY_S = 5.0


class _Progress:
    """Games done, games/s, ETA and the running headline on stderr.

    On a terminal: a rich progress bar. Otherwise (a CI log, a pipe, a file):
    one plain, whole line every :data:`PLAIN_EVERY_S` seconds and one at the
    end, never cut to a terminal width.
    """

    def __init__(self, enabled: bool, total: int, target: str) -> None:
        import sys

        self.enabled = enabled
        if not enabled:
            return
        self.total, self.target = total, target
        self.plain = not sys.stderr.isatty()
        self.t0 = self.last = time.monotonic()
        self.line = ""
        if self.plain:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=20),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[estimate]}"),
            console=Console(stderr=True),
            transient=False,
        )
        self.task = self.progress.add_task(target, total=total, rate="", estimate="")
        self.progress.start()

    def update(self, done: int, rate: float, head: Headline | None) -> None:
        if not self.enabled:
            return
        estimate = ""
        if head is not None and math.isfinite(head.value):
            estimate = f"{head.label} {head.value:.4f} [{head.low:.4f}, {head.high:.4f}]"
        rate_text = f"{rate:,.0f} games/s"
        if not self.plain:
            self.progress.update(self.task, completed=done, rate=rate_text, estimate=estimate)
            return
        eta = f"ETA {(self.total - done) / rate:,.0f} s" if rate > 0 else "ETA ?"
        share = f"{100 * done / self.total:.0f}%" if self.total else ""
        self.line = f"{self.target}: {done:,}/{self.total:,} ({share}), {rate_text}, {eta}" + (
            f", {estimate}" if estimate else ""
        )
        self.tick()

    def tick(self) -> None:
        """Write the plain line if one is due (also while a long batch runs)."""
        if not self.enabled or not self.plain:
            return
        now = time.monotonic()
        if now - self.last >= PLAIN_EVERY_S:
            self._emit()
            self.last = now

    def _emit(self) -> None:
        import sys

        line = self.line or f"{self.target}: 0/{self.total:,} (0%), starting"
        try:
            sys.stderr.write(f"progress: {time.monotonic() - self.t0:,.0f} s: {line}\n")
            sys.stderr.flush()
        except (OSError, ValueError):  # stderr closed: progress is not worth failing for
            self.enabled = False

    def close(self) -> None:
        if not self.enabled:
            return
        if self.plain:
            if self.line:
                self._emit()
            return
        self.progress.stop()


# --------------------------------------------------------------------------- run


def _warm_up(batch_fn, reducer) -> None:
    """Compile here, once, every kernel a batch needs, before any worker starts,
    if the batch function offers ``warm_up()`` (analyzer's jobs do): one game
    (of every cell) through the batch function and the reducer, its tables
    dropped. The workers then load the on-disk cache: on an empty cache each
    worker compiled the reducer's kernels itself, and every kernel the job's
    own ``warm_up`` left out. Nothing a run returns depends on it."""
    if callable(getattr(batch_fn, "warm_up", None)):
        _run_batch(batch_fn, reducer, 0, 1, False)


def run(
    batch_fn: BatchFn,
    options: RunOptions,
    reducer: Reducer,
    headline: Callable[[pd.DataFrame], Headline] | None = None,
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
    progress = _Progress(bool(options.progress), total, label)
    backend = None
    finished_ok = False
    try:
        if n_todo:
            backend = _Backend(batch_fn, reducer, options, n_todo)
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
            elapsed = time.perf_counter() - t0
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
        if ckpt is not None and not finished_ok and not computed:
            ckpt.discard()
    seconds = time.perf_counter() - t0
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
        games_per_second=computed / seconds if seconds > 0 else 0.0,
        stopped_by=stopped_by,
        headline=head,
    )


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
]

checkpoint_seed = _Checkpoint.saved_seed


def checkpoint_batch_size(directory: Path) -> int | None:
    """The games per batch recorded in a checkpoint's ``run.json``, or None."""
    return _Checkpoint.saved(directory, "batch_size")
