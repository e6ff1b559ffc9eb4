"""Worker processes that never run the user's main module again.

Game-agnostic. The local pool of :mod:`analyzer.runs.runner` starts its workers like
multiprocessing's ``spawn`` (a fresh interpreter, so no fork of a process that
holds threads: numba's, the progress display's). Plain ``spawn`` also makes
each worker import the parent's ``__main__`` again, which breaks ordinary
scripts: a script read from stdin (``python - <<EOF``; the worker looks for a
file ``<stdin>``), a script or ``python -m`` module without an
``if __name__ == "__main__":`` guard (every worker runs the whole script
again and starts pools of its own).

:func:`context` gives a spawn context whose workers skip that step when the
job they are sent does not name anything in ``__main__`` (analyzer's jobs
never do: they live in analyzer's importable modules). A job that does (a
batch function defined in the user's own script) keeps plain ``spawn``, the
only way its worker can find that function.

How: CPython's spawn launchers (POSIX and Windows alike, 3.4 to 3.13) send the
child the dict :func:`multiprocessing.spawn.get_preparation_data` returns, and
the child imports the main module only if the dict has the key
``init_main_from_name`` or ``init_main_from_path``. This module wraps that
function once (on first use, not at import) to drop the two keys, only in the
thread that is launching one of *our* workers (a thread-local flag), so
every other user of multiprocessing in the process sees the stdlib's
behaviour. ``tests/runs/test_workers_main.py`` runs a pool from every way of
starting Python and fails if a CPython release changes those details.

Chosen over joblib's loky (whose default context also skips the main module):
no new dependency, and the pool stays the stdlib's
``concurrent.futures.ProcessPoolExecutor`` with the runner's shutdown,
interrupt and worker start-up unchanged.

Every worker of either context ends with its parent however the parent ends
(SIGKILL included), from its first moment: the first thing a child unpickles
is a call of :func:`die_with_parent` (:meth:`TiedProcess.__reduce__`), before
the job whose modules (numba, pandas, a game) take seconds to import. A parent
killed while its workers are still starting leaves none behind.
"""

from __future__ import annotations

import functools
import multiprocessing
import multiprocessing.context
import os
import pickle
import pickletools
import threading
import time

#: set while this thread launches a worker that must not import ``__main__``
_LAUNCHING = threading.local()
#: the keys of the preparation data that make a spawned child import ``__main__``
MAIN_KEYS = ("init_main_from_name", "init_main_from_path")


def _install() -> None:
    """Wrap :func:`multiprocessing.spawn.get_preparation_data` (once per process)."""
    from multiprocessing import spawn

    original = spawn.get_preparation_data
    if getattr(original, "_analyzer_main_free", False):
        return

    @functools.wraps(original)
    def get_preparation_data(name):
        data = original(name)
        if getattr(_LAUNCHING, "main_free", False):
            for key in MAIN_KEYS:
                data.pop(key, None)
        return data

    get_preparation_data._analyzer_main_free = True
    spawn.get_preparation_data = get_preparation_data


#: ``(this process, its parent)`` once tied (:func:`die_with_parent`; a forked
#: child inherits the record, and is not tied by it)
_TIED: list[tuple[int, int]] = []


def die_with_parent(parent: int) -> None:
    """Make this (worker) process end when process ``parent`` ends, however it ends.

    Ctrl-C reaches every process of the terminal's group: a worker ignores it
    and lets the parent stop the pool (no traceback from every worker). On Linux
    the kernel kills the worker when the parent dies (``PR_SET_PDEATHSIG``, even
    for SIGKILL); elsewhere a watchdog thread notices the parent is gone (within
    a second). Once per process (a second call does nothing).
    """
    import signal

    if (os.getpid(), parent) in _TIED:
        return
    _TIED.append((os.getpid(), parent))
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
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _tied(parent: int, cls: type):
    """Unpickled first in a worker: tie it to ``parent``, then a bare ``cls``
    (its state, the job, is unpickled into it next)."""
    die_with_parent(parent)
    return cls.__new__(cls)


class TiedProcess(multiprocessing.context.SpawnProcess):
    """A spawned process tied to its parent (:func:`die_with_parent`) before it
    unpickles anything else: the parent's id travels with it."""

    def __reduce__(self):
        return _tied, (os.getpid(), type(self)), self.__dict__


class TiedContext(multiprocessing.context.SpawnContext):
    """The ``spawn`` context with :class:`TiedProcess` workers."""

    Process = TiedProcess


class MainFreeProcess(TiedProcess):
    """A spawned, tied process whose child does not import the parent's ``__main__``."""

    @staticmethod
    def _Popen(process_obj):
        _install()
        _LAUNCHING.main_free = True
        try:
            return multiprocessing.context.SpawnProcess._Popen(process_obj)
        finally:
            _LAUNCHING.main_free = False


class MainFreeContext(multiprocessing.context.SpawnContext):
    """The ``spawn`` context with :class:`MainFreeProcess` workers."""

    Process = MainFreeProcess


def names_main(*objects) -> bool:
    """True if pickling ``objects`` refers to something defined in ``__main__``
    (a function or class of the user's script), which only a worker that
    imported the main module could unpickle."""
    try:
        data = pickle.dumps(objects, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # the pool will report what cannot be pickled
        return False
    for op, arg, _ in pickletools.genops(data):
        if op.name in ("GLOBAL", "INST") and isinstance(arg, str):
            if arg.split(" ", 1)[0] == "__main__":
                return True
        elif arg == "__main__":  # protocol 4+: the module name as a string before STACK_GLOBAL
            return True
    return False


def context(*job) -> multiprocessing.context.BaseContext:
    """The context to start workers for ``job`` (the pool initializer's
    arguments): :class:`MainFreeContext`, or ``spawn``'s (:class:`TiedContext`)
    if the job names something in ``__main__`` (see :func:`names_main`)."""
    if names_main(*job):
        return TiedContext()
    return MainFreeContext()


__all__ = [
    "MAIN_KEYS",
    "MainFreeContext",
    "MainFreeProcess",
    "TiedContext",
    "TiedProcess",
    "context",
    "die_with_parent",
    "names_main",
]
