"""Writing outputs without losing anything: atomic files and report folders.

Game-agnostic. Three promises (``docs/CONTRACTS.md``, "Outputs"):

- **Atomic**: a file is written to a temporary name beside it and renamed into
  place (:func:`atomic_write`); a report folder is built whole in a temporary
  folder beside the target and swapped in with one rename
  (:func:`replace_dir`), so a reader (or a kill at any moment) sees either the
  old folder intact or the new one complete.
- **Only the tool's own files are replaced or removed**: a report folder lists
  the files analyzer wrote in its ``manifest.json`` (``files``); anything else
  in the folder (notes, a subfolder) is carried into the new folder (hard
  links, so nothing is copied or lost even if the run dies half-way). A user
  file at a path the new report writes is kept as ``<path>.user``.
- **Usual permissions**: files and folders get the mode the user's umask gives
  (``0o666``/``0o777`` minus the umask), never ``0o600`` from a temp file.

A run killed before its swap leaves ``.<name>.tmp-*`` (and, after a fallback
two-step swap, ``.<name>.old-*``) beside the target; the next run to that
target (:func:`clean_stale`) restores a missing target from them, moves back
any file of the user's that only they hold, and removes them.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from analyzer.core.errors import EnvironmentFailure, InputError, environment_error

MANIFEST = "manifest.json"


def umask() -> int:
    """The process's umask (read without changing it for long)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """Mode of a new file under the current umask (``0o644`` for the usual ``022``)."""
    return 0o666 & ~umask()


def dir_mode() -> int:
    """Mode of a new folder under the current umask (``0o755`` for the usual ``022``)."""
    return 0o777 & ~umask()


def atomic_write(path: Path, write: Callable[[str], None], doing: str = "writing") -> None:
    """Call ``write(tmp_path)`` on a temp file next to ``path``, give it the umask's
    mode, then rename it into place. An ``OSError`` (full disk, no permission, a
    folder at ``path``) becomes an :class:`EnvironmentFailure` naming ``path``;
    the temp file is removed whatever happens."""
    path = Path(path)
    if path.is_dir():
        raise EnvironmentFailure(f"{doing} {path}: is a directory (allowed: a file name)")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise environment_error(err, doing) from None
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, file_mode())
        os.replace(tmp, path)
    except OSError as err:
        _unlink(tmp)
        raise environment_error(err, f"{doing} {path}") from None
    except BaseException:
        _unlink(tmp)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: temp file + ``os.replace``."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)

    atomic_write(Path(path), write)


def write_parquet_atomic(frame, path: Path, *, index: bool = False) -> None:
    """Write ``frame`` (a DataFrame) to ``path`` as Parquet (pyarrow) atomically:
    temp file + ``os.replace``."""
    atomic_write(Path(path), lambda tmp: frame.to_parquet(tmp, engine="pyarrow", index=index))


def _unlink(path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def luck_value_lines(names, par) -> list[str]:
    """A parameter row as TOML lines ``name = value`` (4 significant digits)."""
    return [f"{name} = {float(v):.4g}" for name, v in zip(names, par, strict=True)]


def write_luck_values(path, names, par, command: str, *, module: str, score=None, tables=()):
    """Write a game's fitted ``V`` as its data file (``data/luck_value.toml``):
    a header naming the game's luck ``module`` and the ``command`` that fitted it,
    ``score`` (the fit's :func:`analyzer.kernels.luck.residual`) if given, table ``[value]`` from
    ``par`` (parameters ``names``), then each of ``tables`` (a game's further
    tables, each a list of lines) after a blank line. Atomic, with the umask's
    mode (:func:`atomic_write`)."""
    lines = [
        f"# The value estimate V of the luck terms ({module}),",
        "# fitted on games of seeds the analyses never use, never on the games it adjusts:",
        f"#     {command}",
        "# (a coordinate search starting from the values this file held before)",
    ]
    if score is not None:
        lines.append(f"# residual (mean sd ratio, score and win, on those games): {score:.4f}")
    lines += ["[value]", *luck_value_lines(names, par)]
    for table in tables:
        lines += ["", *table]
    text = "\n".join(lines) + "\n"
    atomic_write(path, lambda tmp: Path(tmp).write_text(text), "writing the luck value file")


# --------------------------------------------------------------------------- report folders


def own_files(directory: Path) -> set[str] | None:
    """Relative paths of the files analyzer wrote in ``directory`` (its
    manifest's ``files`` and the manifest itself), or None if the folder has no
    readable manifest (then every file in it is treated as the user's)."""
    try:
        info = json.loads((Path(directory) / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    files = info.get("files") if isinstance(info, dict) else None
    if not isinstance(files, list):
        return None
    own = {MANIFEST}
    for f in files:
        if isinstance(f, str) and f and not f.startswith("/") and ".." not in f.split("/"):
            own.add(f)
    # reports written before the manifest listed its data files
    if isinstance(info, dict) and not any(f.startswith("data/") for f in own):
        data = Path(directory) / "data"
        if data.is_dir():
            own |= {f"data/{p.name}" for p in data.glob("*.parquet")}
    return own


def _walk(directory: Path) -> Iterable[tuple[str, bool]]:
    """``(relative path, is a folder)`` of everything under ``directory``, parents first;
    symbolic links are entries, never followed."""
    for root, dirs, files in os.walk(directory):
        rel_root = os.path.relpath(root, directory)
        for d in sorted(dirs):
            rel = d if rel_root == "." else f"{rel_root}/{d}"
            if os.path.islink(os.path.join(root, d)):
                yield rel, False
            else:
                yield rel, True
        for f in sorted(files):
            yield (f if rel_root == "." else f"{rel_root}/{f}"), False


def _carry(src: Path, dst: Path, own: set[str] | None, *, move: bool) -> None:
    """Bring every entry of ``src`` that is not one of analyzer's own files into
    ``dst`` (hard link, or a copy across file systems; ``move``: rename). An
    entry already in ``dst`` at that path is left alone when it is the same
    file, else the user's copy is kept beside it as ``<path>.user``."""
    own = own or set()
    for rel, is_dir in _walk(src):
        if rel in own:
            continue
        s, d = src / rel, dst / rel
        if is_dir:
            if not d.is_dir():
                if d.exists() or d.is_symlink():
                    d = dst / f"{rel}.user"
                d.mkdir(parents=True, exist_ok=True)
            continue
        if d.exists() or d.is_symlink():
            try:
                if os.path.samefile(s, d):
                    continue
            except OSError:
                pass
            if not move and not (dst / f"{rel}.user").exists():
                d = dst / f"{rel}.user"
            else:
                continue  # moving back: the target already has its own version
        d.parent.mkdir(parents=True, exist_ok=True)
        if move:
            os.replace(s, d)
        elif s.is_symlink():
            os.symlink(os.readlink(s), d)
        else:
            try:
                os.link(s, d, follow_symlinks=False)
            except OSError:
                shutil.copy2(s, d)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux ``renameat2(RENAME_EXCHANGE)``);
    False where that is not available (the caller falls back to two renames)."""
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(a), None, str(b))


def _prefixes(name: str) -> tuple[str, str]:
    return f".{name}.tmp-", f".{name}.old-"


def clean_stale(target: Path) -> None:
    """Remove what a killed run to ``target`` left beside it, losing nothing.

    A missing target is first restored from a left-over old folder (a kill
    between the two renames of the fallback swap). Every left-over folder with
    a manifest may hold the old report, so files of the user's that the target
    lacks are moved back into the target before the folder is removed; one
    without a manifest is a half-built report (only analyzer's files).
    """
    target = Path(target)
    parent = target.parent
    tmp_prefix, old_prefix = _prefixes(target.name)
    try:
        stale = sorted(
            p
            for p in parent.iterdir()
            if p.is_dir()
            and not p.is_symlink()
            and (p.name.startswith(tmp_prefix) or p.name.startswith(old_prefix))
        )
    except OSError:
        return
    if not target.exists():
        olds = [p for p in stale if p.name.startswith(old_prefix) and (p / MANIFEST).is_file()]
        if olds:
            os.replace(olds[-1], target)
            stale.remove(olds[-1])
    for p in stale:
        if (p / MANIFEST).is_file() and target.is_dir():
            _carry(p, target, own_files(p), move=True)
        shutil.rmtree(p, ignore_errors=True)


# --------------------------------------------------------------------------- one run per folder

#: lock files this process holds: path -> open descriptor (a nested hold is free)
_HELD: dict[str, int] = {}


def _lock_path(target: Path) -> Path:
    return Path(target).parent / f".{Path(target).name}.lock"


def _holder(fd: int) -> str:
    """`` (pid N)`` of the run that holds a lock file, from what it wrote there."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (pid {text})" if text.isdigit() else ""


@contextlib.contextmanager
def folder_lock(target: Path, where: str = "--out") -> Iterator[None]:
    """Hold the report folder ``target`` for this run, or refuse at once.

    An exclusive ``flock`` on ``.<name>.lock`` beside the target, holding this
    process's id: a second run to the same folder stops with one line saying
    which run holds it (:class:`EnvironmentFailure`, exit 1: its input is fine,
    it can run once the other has finished) instead of clearing the first
    run's half-built folder (:func:`clean_stale`). The kernel drops the lock
    when its process dies, however it dies, so a killed run never blocks the
    next one. Nested holds in one process are free. Where ``flock`` does not
    exist (Windows), or the parent folder does not exist yet, nothing is locked
    here (:func:`replace_dir` holds it again when it writes).
    """
    path = _lock_path(target)
    key = os.path.abspath(path)
    try:
        import fcntl
    except ImportError:
        fcntl = None
    if key in _HELD or fcntl is None or not path.parent.is_dir():
        yield
        return
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as err:
            raise environment_error(err, f"{where}: locking {target}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            who = _holder(fd)
            os.close(fd)
            if err.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise environment_error(err, f"{where}: locking {target}") from None
            raise EnvironmentFailure(
                f"{where}: {target} is being written by another analyzer run{who}; "
                "wait for it or choose another folder"
            ) from None
        try:  # the holder before us may have removed the file: lock the one at the path
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except OSError:
            same = False
        if same:
            break
        os.close(fd)
    _HELD[key] = fd
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        del _HELD[key]
        _unlink(path)  # still held: a waiting run finds the path gone and tries again
        os.close(fd)


def _parent_dir(target: Path, where: str) -> Path:
    """The folder ``target`` goes in, created if missing. A plain file at the target
    or on the way to it is bad input (:class:`InputError`: choose another path)."""
    parent = target.parent
    if target.exists() and not target.is_dir():
        raise InputError(f"{where}: {target} is a file (allowed: a folder, new or a report)")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        pass  # a file on the way: said below
    except OSError as err:
        raise environment_error(err, f"{where}: creating {parent}") from None
    if not parent.is_dir():
        raise InputError(f"{where}: {parent} is not a folder (allowed: a path of folders)")
    return parent


def replace_dir(target: Path, fill: Callable[[Path], list[str]], where: str = "--out") -> list[str]:
    """Build a folder with ``fill(tmp)`` beside ``target`` and swap it into place.

    ``fill`` writes analyzer's files into the fresh folder ``tmp`` and returns
    their relative paths (``tmp/manifest.json`` lists them). The user's files in
    an existing ``target`` are carried over (hard links) before the swap;
    analyzer's old files that the new report does not write again go away with
    the old folder. An ``OSError`` becomes an :class:`EnvironmentFailure`
    naming the path; on any failure the old folder stays as it was. The folder
    is held (:func:`folder_lock`) from the clean-up of a killed run's leftovers
    to the swap.
    """
    target = Path(target)
    parent = _parent_dir(target, where)
    with folder_lock(target, where):
        return _swap_in(target, parent, fill, where)


def _swap_in(target: Path, parent: Path, fill, where: str) -> list[str]:
    """:func:`replace_dir` once the folder is held."""
    clean_stale(target)
    tmp_prefix, old_prefix = _prefixes(target.name)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=tmp_prefix, dir=parent))
    except OSError as err:
        raise environment_error(err, f"{where}: writing in {parent}") from None
    swapped = False
    try:
        try:
            files = fill(tmp)
            os.chmod(tmp, dir_mode())
            if target.exists():
                _carry(target, tmp, own_files(target), move=False)
                swapped = _exchange(tmp, target)
                if not swapped:
                    old = Path(tempfile.mkdtemp(prefix=old_prefix, dir=parent))
                    os.rmdir(old)
                    os.replace(target, old)
                    os.replace(tmp, target)
                    tmp, swapped = old, True
            else:
                os.replace(tmp, target)
                return files
        except OSError as err:
            raise environment_error(err, f"{where}: writing {target}") from None
        # ``tmp`` now holds the old folder: rescue a user file made during the
        # run, then remove analyzer's old files
        try:
            _carry(tmp, target, own_files(tmp), move=True)
        except OSError:
            pass
        shutil.rmtree(tmp, ignore_errors=True)
        return files
    except BaseException:
        if not swapped:
            shutil.rmtree(tmp, ignore_errors=True)  # analyzer's files and links only
            if not target.exists():  # a failed second rename: the old folder goes back
                clean_stale(target)
        raise


__all__ = [
    "atomic_write",
    "clean_stale",
    "dir_mode",
    "file_mode",
    "folder_lock",
    "own_files",
    "replace_dir",
    "umask",
]
