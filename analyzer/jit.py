"""One place for numba JIT options.

Every kernel in the project is decorated with :data:`njit` from here, so caching
and other flags are decided once. ``NUMBA_DISABLE_JIT=1`` turns every kernel into
plain Python (used for coverage and for the benchmark ratios).

The on-disk cache lives in a directory named after a hash of the package's
source files. numba checks only the timestamp of the file that defines a cached
function, but the machine code it stores also contains every jitted function it
calls from other files; keying the directory on all sources means a change
anywhere compiles afresh instead of loading stale code. The base directory is
``$NUMBA_CACHE_DIR`` if set, else ``~/.cache/analyzer/numba``; old hash
directories can be deleted at any time.
"""

import functools
import hashlib
import os
import platform
import tempfile
from pathlib import Path

import numba


def _source_hash() -> str:
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    h.update(f"{numba.__version__} {platform.python_version()} {platform.machine()}".encode())
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
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
njit = functools.partial(numba.njit, cache=True, nogil=True, error_model="numpy")
