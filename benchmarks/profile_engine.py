"""Profile whole games with Linux ``perf``, with names for the numba-compiled code.

``perf`` shows jitted code as bare addresses. This script plays games in-process
and, before the timed batch, writes ``/tmp/perf-<pid>.map`` naming every
function of the analyzer's compiled kernels, which ``perf report`` reads:

    perf record -o engine.data .venv/bin/python benchmarks/profile_engine.py \\
        --strategy balanced --players 4 --games 2000
    perf report -i engine.data --no-children --sort sym

The kernels must come from the numba cache (run a game once first, e.g. with
``make bench`` or this script); the symbols are read from the cached object code,
which numba discards after loading, so the script keeps a copy by wrapping
numba's (internal) loader. Samples at the two ``NRT_incref``/``NRT_decref``
addresses it prints are numba's reference counting. A developer tool: nothing
here is used by the package.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from numba.core import codegen

_load = codegen.CPUCodeLibrary._unserialize.__func__


@classmethod
def _unserialize_keeping_object(cls, cg, state):
    lib = _load(cls, cg, state)
    if state[1] == "object":
        lib._analyzer_object = state[2][0]
    return lib


codegen.CPUCodeLibrary._unserialize = _unserialize_keeping_object


def short_name(mangled: str) -> str:
    """``analyzer.unearth.engine.play_batch`` from numba's mangled symbol."""
    m = re.match(r"(cfunc\.)?_ZN(.*)", mangled)
    if not m:
        return mangled[:80]
    rest, parts = m.group(2), []
    while rest and rest[0].isdigit():
        n = int(re.match(r"\d+", rest).group())
        digits = len(str(n))
        parts.append(rest[digits : digits + n])
        rest = rest[digits + n :]
    keep = [p for p in parts if not (p.startswith("B") and len(p) <= 3)]
    return (m.group(1) or "") + ".".join(keep)


def write_perf_map() -> int:
    """Write /tmp/perf-<pid>.map for every loaded analyzer kernel; return the count."""
    from numba.core.registry import CPUDispatcher

    libs = []
    for name, mod in list(sys.modules.items()):
        if not name.startswith("analyzer"):
            continue
        for obj in vars(mod).values():
            if isinstance(obj, CPUDispatcher):
                for cres in obj.overloads.values():
                    if cres.library not in libs:
                        libs.append(cres.library)
    lines = []
    for lib in libs:
        obj = getattr(lib, "_analyzer_object", None)
        if obj is None:
            continue
        with tempfile.NamedTemporaryFile(suffix=".o") as f:
            f.write(obj)
            f.flush()
            out = subprocess.run(
                ["nm", "-S", "--defined-only", f.name], capture_output=True, text=True
            ).stdout
        syms = [p for p in (line.split() for line in out.splitlines()) if len(p) == 4]
        syms = [p for p in syms if p[2] in "tTW"]
        base = None
        for off, _size, kind, sym in syms:
            if kind == "T":
                try:
                    addr = lib.get_pointer_to_function(sym)
                except Exception:  # noqa: BLE001 - not every symbol is a function
                    continue
                if addr:
                    base = addr - int(off, 16)
                    break
        if base is None:
            continue
        for off, size, _kind, sym in syms:
            lines.append(f"{base + int(off, 16):x} {int(size, 16):x} {short_name(sym)}")
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="balanced")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=2000)
    args = ap.parse_args(argv)

    from numba.core.runtime import nrt

    from analyzer.unearth.game import make_job, play_raw

    job = make_job(args.players, args.strategy, seed=1, claims=False)
    play_raw(job, 0, 1)  # load (or compile) the kernels
    n = write_perf_map()
    for fn in ("NRT_incref", "NRT_decref"):
        print(f"{fn} at {nrt.rtsys.library.get_pointer_to_function(fn):#x}", file=sys.stderr)
    t0 = time.perf_counter()
    play_raw(job, 0, args.games)
    dt = time.perf_counter() - t0
    print(
        f"{n} symbols mapped; {args.games} games in {dt:.2f} s ({args.games / dt:,.0f} games/s)",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
