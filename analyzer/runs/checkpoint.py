"""Checkpoints: a run that resumes where it stopped.

Game-agnostic. One directory per run: ``run.json`` (the run's manifest: its
batch function's and reducer's fingerprints, seed, sizes) and one atomic file
per finished batch (:class:`_Checkpoint`). A checkpoint is resumed only by the
same job and options (:func:`fingerprint`); a different one is refused naming
the option that differs (:func:`difference`). The folder is held by the run
that writes it (:func:`analyzer.core.outputs.folder_lock`). See ``docs/scale.md``.
"""

from __future__ import annotations

import contextlib
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
        "job": fn_text,  # whole, to name what differs (the hash decides)
        "reducer": fingerprint(reducer),
        "seed": int(options.seed),
        "games": int(options.games),
        "batch_size": int(options.batch_size),
        "precision": options.precision,
        "max_games": options.max_games,
        "keep_tables": bool(options.keep_tables),
    }


#: the manifest's options in the order a resume compares them, as the user gives them
OPTION_NAMES = {
    "seed": "--seed",
    "games": "--games",
    "batch_size": "--batch-size",
    "precision": "--precision",
    "max_games": "--max-games",
}


def _shown(value) -> str:
    if value is None:
        return "none"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else repr(value)


def difference(old: dict, new: dict) -> str | None:
    """What makes the run of manifest ``new`` another than the checkpoint's ``old``,
    in the user's words (``--games: 2,000 in the checkpoint, 4,000 now``); None if
    it is the same run. The options come first (a job built for other options
    differs too), then the game job (players, strategies, rules: the first field of
    its fingerprint that differs), then the reducer."""
    if old.get("format") != new["format"]:
        return (
            f"checkpoint format {_shown(old.get('format'))} in the checkpoint, "
            f"{new['format']} now (written by another version of analyzer)"
        )
    for key, name in OPTION_NAMES.items():
        if old.get(key) != new[key]:
            return f"{name}: {_shown(old.get(key))} in the checkpoint, {_shown(new[key])} now"
    if old.get("keep_tables") != new["keep_tables"]:
        there, now = ("kept", "not kept") if old.get("keep_tables") else ("not kept", "kept")
        return f"--out: per-game tables {there} in the checkpoint, {now} now"
    if old.get("batch_fn_sha256") != new["batch_fn_sha256"]:
        if isinstance(old.get("job"), str):
            return "the game job's " + _first_difference(old["job"], new["job"])
        return (
            "the game job (players, strategies, rules or the scenario's cells) "
            "differs from the checkpoint's"
        )
    if old.get("reducer") != new["reducer"]:
        return "the aggregate's " + _first_difference(str(old.get("reducer")), new["reducer"])
    return None


_NAME = re.compile(r"(?<![\w'])(\w+)=(?!=)|'(\w+)': ")


def _first_difference(old: str, new: str) -> str:
    """The innermost named field of two fingerprints (reprs: ``name=value``,
    ``'key': value``) where they first differ, with its value in each:
    ``players: 2 in the checkpoint, 3 now``."""
    i = len(_common_prefix(old, new))
    stack: list[tuple[int, str, int]] = []  # (depth, name, where its value starts)
    depth, j, quote = 0, 0, ""
    while j < i:
        c = new[j]
        if quote:
            j += 2 if c == "\\" else 1
            quote = "" if c == quote else quote
            continue
        m = _NAME.match(new, j)
        if m is not None and m.end() <= i:
            stack.append((depth, m.group(1) or m.group(2), m.end()))
            j = m.end()
            continue
        if c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            while stack and stack[-1][0] > depth:
                stack.pop()
        elif c == ",":
            while stack and stack[-1][0] >= depth:
                stack.pop()
        j += 1
    if not stack:
        return f"fingerprint: {_value(old, 0)} in the checkpoint, {_value(new, 0)} now"
    _, name, start = stack[-1]
    return f"{name}: {_value(old, start)} in the checkpoint, {_value(new, start)} now"


def _common_prefix(a: str, b: str) -> str:
    import os.path

    return os.path.commonprefix([a, b])


def _value(text: str, start: int, limit: int = 60) -> str:
    """The value that starts at ``start`` of a repr: up to the comma or bracket that
    ends it, shortened to ``limit`` characters."""
    depth, j, quote = 0, start, ""
    while j < len(text):
        c = text[j]
        if quote:
            j += 2 if c == "\\" else 1
            quote = "" if c == quote else quote
            continue
        if c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        j += 1
    out = text[start:j]
    return out if len(out) <= limit else out[: limit - 1] + "…"


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

    The run holds the folder from before it reads ``run.json`` until :meth:`close`
    (:func:`analyzer.core.outputs.folder_lock`: ``.<name>.lock`` beside it): a
    second run to the same folder stops at once, saying which process holds it
    (:class:`~analyzer.core.errors.EnvironmentFailure`, exit 1).
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
        self._lock = contextlib.ExitStack()
        self._write_failed = False
        try:
            self._hold()
            self._open(manifest, resume)
        except BaseException:
            self._lock.close()
            if self._write_failed:
                self._remove_created()
            raise

    def _hold(self) -> None:
        from analyzer.core.outputs import folder_lock

        self._lock.enter_context(folder_lock(self.dir.resolve(), "--checkpoint"))

    def close(self, discard: bool = False) -> None:
        """Let the folder go; first :meth:`discard` what the run wrote if ``discard``
        (it failed before finishing a batch). Folders it created and left empty
        go after the lock (its file lies beside the folder)."""
        try:
            if discard:
                self._discard_manifest()
        finally:
            self._lock.close()
        if discard:
            self._remove_created()

    def _open(self, manifest: dict, resume: bool) -> None:
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
            differs = difference(old, manifest)
            if differs is not None:
                raise InputError(
                    f"checkpoint: {str(self.dir)!r} is a different run: {differs} "
                    "(allowed: resume with the same options and job, or use another folder)"
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
                self._write_failed = True
                raise
            self.wrote_manifest = True
        self.keep_tables = bool(manifest["keep_tables"])

    def discard(self) -> None:
        """Leave nothing behind of a run that failed before finishing any batch
        (an unreachable scheduler, an interrupt at start-up): the ``run.json`` it
        wrote and the folders it created, as long as nothing else is in them."""
        self._discard_manifest()
        self._remove_created()

    def _discard_manifest(self) -> None:
        if self.wrote_manifest and not any(self.dir.glob("batch-*")):
            (self.dir / MANIFEST_NAME).unlink(missing_ok=True)
            self.wrote_manifest = False

    def _remove_created(self) -> None:
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


def checkpoint_reducer(directory: Path) -> str | None:
    """The reducer's fingerprint recorded in a checkpoint's ``run.json``, or None."""
    try:
        old = json.loads((Path(directory) / MANIFEST_NAME).read_text("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    value = old.get("reducer") if isinstance(old, dict) else None
    return value if isinstance(value, str) else None
