"""Is a game's engine already compiled on this machine, and how long does compiling take?

A run announces its first compile before it starts ("compiling the Unearth engine,
once per machine and version: about a minute"), so a wait of a minute is not a
silent ``0/500``. Whether the engine is compiled is read from the on-disk cache
:mod:`analyzer.kernels.jit` keeps (the folder of the engine module's source key,
with numba's index file of its ``play_batch``), without compiling anything. How
long it takes is the last compile measured on this machine (a small JSON file
beside the cache), else a minute (the Unearth engine's first compile costs about
43 CPU-s, Colorful Treasure's and Uruk's about 22: ``benchmarks/README.md``).
Nothing here changes what a kernel computes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

#: the seconds a first compile is said to take when this machine has not timed one
DEFAULT_COMPILE_S = 60.0
#: the file of compile times measured here, in the cache's base folder
TIMES_FILE = "compile_seconds.json"


def engine_cached(package: str, kernel: str = "play_batch") -> bool | None:
    """Whether the on-disk cache holds ``package``'s ``engine.<kernel>`` compiled
    from the sources as they are now: True or False; None when it cannot be known
    (``NUMBA_DISABLE_JIT``, an engine outside this package, whose kernels numba
    caches by its own rules)."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return None
    from analyzer.kernels import jit

    path = jit._module_file(f"{package}.engine")
    if path is None:
        return None
    sub = jit.KernelCacheLocator.get_suitable_cache_subpath(str(path))
    folder = Path(jit.CACHE_DIR) / jit.source_key(path.resolve()) / sub
    try:
        return any(folder.glob(f"{path.stem}.{kernel}-*.nbi"))
    except OSError:
        return None


def _times_path() -> Path:
    from analyzer.kernels.jit import CACHE_DIR

    return Path(CACHE_DIR) / TIMES_FILE


def expected_seconds(game: str) -> float:
    """The seconds ``game``'s last first compile took here, else :data:`DEFAULT_COMPILE_S`."""
    try:
        value = json.loads(_times_path().read_text("utf-8")).get(game)
    except (OSError, ValueError, AttributeError):
        return DEFAULT_COMPILE_S
    ok = isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value < 1e5
    return float(value) if ok else DEFAULT_COMPILE_S


def record_seconds(game: str, seconds: float) -> None:
    """Remember that compiling ``game``'s engine took ``seconds`` here (best effort:
    an unwritable cache folder only loses the estimate)."""
    path = _times_path()
    try:
        try:
            times = json.loads(path.read_text("utf-8"))
            times = times if isinstance(times, dict) else {}
        except (OSError, ValueError):
            times = {}
        times[game] = round(float(seconds), 1)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(times, sort_keys=True), "utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def about(seconds: float) -> str:
    """``seconds`` in round words: "about 20 s", "about a minute", "about 3 minutes"."""
    if seconds < 45:
        return f"about {max(5, round(seconds / 5) * 5):.0f} s"
    if seconds < 90:
        return "about a minute"
    return f"about {round(seconds / 60):.0f} minutes"


def compile_note(game: str, title: str, package: str) -> str | None:
    """The line that announces ``game``'s first compile, or None if its engine is
    compiled already (or that cannot be known)."""
    if engine_cached(package) is not False:
        return None
    return (
        f"compiling the {title} engine, once per machine and version: "
        f"{about(expected_seconds(game))}"
    )
