"""Checkpoints: a run that resumes where it stopped.

Game-agnostic. One directory per run: ``run.json`` (the run's manifest: its
batch function's and reducer's fingerprints, seed, sizes) and one atomic file
per finished batch (:class:`_Checkpoint`). A checkpoint is resumed only by the
same job and options (:func:`fingerprint`). See ``docs/scale.md``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import types
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from analyzer._compat import OLD_NAME
from analyzer.core.errors import AnalyzerError, InputError
from analyzer.core.outputs import write_parquet_atomic
from analyzer.runs.options import RunOptions

#: version of the checkpoint layout; a checkpoint of another format is refused
CHECKPOINT_FORMAT = 1
MANIFEST_NAME = "run.json"


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


def _atomic_write(path: Path, write: Callable[[str], None]) -> None:
    """Call ``write(tmp_path)`` on a temp file next to ``path``, then rename it into
    place (:func:`analyzer.core.outputs.atomic_write`: the umask's mode, one-line errors)."""
    from analyzer.core.outputs import atomic_write

    atomic_write(Path(path), write)


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


checkpoint_seed = _Checkpoint.saved_seed


def checkpoint_batch_size(directory: Path) -> int | None:
    """The games per batch recorded in a checkpoint's ``run.json``, or None."""
    return _Checkpoint.saved(directory, "batch_size")
