"""One place for numba JIT options.

Every kernel in the project is decorated with :data:`njit` from here, so caching
and other flags are decided once. ``NUMBA_DISABLE_JIT=1`` turns every kernel into
plain Python (used for coverage and for the benchmark ratios).

The on-disk cache lives in a directory named after a hash of the *kernel
sources*: every module of the package that uses :data:`njit`, plus every module
of the package those import, directly or not (found by reading their import
statements, see :func:`kernel_sources`). numba checks only the timestamp of the
file that defines a cached function, but the machine code it stores also
contains every jitted function it calls from other files; keying the directory
on all kernel sources means a change to any of them compiles afresh instead of
loading stale code, while an edit to a module no kernel can reach (a chart
caption, the CLI, aggregation) keeps the cache. The base directory is
``$NUMBA_CACHE_DIR`` if set, else ``~/.cache/analyzer/numba``; old hash
directories can be deleted at any time.
"""

import ast
import hashlib
import os
import platform
import tempfile
from pathlib import Path

import numba
from numba.core import types

_ROOT = Path(__file__).resolve().parent
_PACKAGE = _ROOT.name


def _module_file(name: str) -> Path | None:
    """The source file of package module ``name`` (``analyzer.x.y``), or None."""
    parts = name.split(".")
    if parts[0] != _PACKAGE:
        return None
    base = _ROOT.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imports(path: Path) -> set[Path]:
    """Package source files that ``path`` imports (absolute imports, as used here)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from a.b import c``: c may be a submodule or a name in a.b
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        # only the modules named: a parent package's __init__ runs on import but
        # supplies no name that a kernel uses
        found.update(hit for hit in map(_module_file, names) if hit is not None)
    return found


def kernel_sources() -> list[Path]:
    """Every package module that defines kernels (mentions ``njit``) and every
    package module those import, transitively, sorted."""
    todo = [p for p in _ROOT.rglob("*.py") if b"njit" in p.read_bytes()]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(_imports(path) - seen)
    return sorted(seen)


def _source_hash() -> str:
    h = hashlib.sha256()
    h.update(f"{numba.__version__} {platform.python_version()} {platform.machine()}".encode())
    for path in kernel_sources():
        h.update(path.relative_to(_ROOT).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _cache_dir() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        try:
            base = str(Path.home() / ".cache" / "analyzer" / "numba")
        except RuntimeError:  # no home directory
            base = str(Path(tempfile.gettempdir()) / "analyzer-numba")
    path = Path(base) / _source_hash()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:  # not writable: fall back to the temporary directory
        path = Path(tempfile.gettempdir()) / "analyzer-numba" / _source_hash()
        path.mkdir(parents=True, exist_ok=True)
    return str(path)


#: where compiled kernels are cached (see the module docstring)
CACHE_DIR = _cache_dir()
numba.config.CACHE_DIR = CACHE_DIR

#: Compile in nopython mode, cache to disk (the second run of a command loads
#: machine code instead of compiling), release the GIL. ``error_model="numpy"``:
#: a division does not test its divisor for zero to raise ZeroDivisionError
#: (no kernel divides by zero: claim values, face counts and pile sizes are
#: positive), which takes a branch and an exception path out of the hot loops.
OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


def _one_version_per_type(dispatcher):
    """Let kernel-to-kernel calls ask for the argument *types*, never their
    constant values.

    numba types a constant argument (``trace(s, EV_ROLL, ...)``) as a literal
    and compiles the callee again for every distinct constant, then the callee's
    callees for the constants it passes on: that made the first compile several
    times longer. Here a call from another kernel asks for the plain type, so
    each kernel is compiled once per signature of types.
    """
    resolve = dispatcher.get_call_template

    def get_call_template(args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return resolve(args, kws)

    dispatcher.get_call_template = get_call_template
    return dispatcher


def njit(fn=None, **options):
    """``numba.njit`` with :data:`OPTIONS` (``options`` add to them), compiling
    one version per argument types (see :func:`_one_version_per_type`)."""

    def wrap(f):
        return _one_version_per_type(numba.njit(**{**OPTIONS, **options})(f))

    return wrap(fn) if fn is not None else wrap
