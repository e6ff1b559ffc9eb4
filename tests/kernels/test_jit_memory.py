"""A compiled kernel keeps no more than a kernel loaded from the cache
(analyzer/jit.py, "The memory of a cold compile")."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

# rng_die calls _forced and rng_float, rng_float calls rng_next: a caller with
# callees linked into it, compiled in a child with the cache of the test
_CHILD = """
import json
import numpy as np
from analyzer.kernels.rng import _forced, rng_die, rng_float, rng_next

s = np.array([1, 2, 3, 4], np.uint64)
rolls = [int(rng_die(s, 6)) for _ in range(20)]
out = {"rolls": rolls}
# the callees' own versions: compiled for rng_die's call (cold), loaded (warm)
_forced(s), rng_float(s), rng_next(s)
for d in (rng_die, _forced, rng_float, rng_next):
    (cres,) = d.overloads.values()
    out[d.py_func.__name__] = {
        "annotation_text": isinstance(cres.type_annotation, str),
        "metadata": cres.metadata is not None,
        "copy_for_linking_kept": cres.library._shared_module is not None,
    }
import io

buf = io.StringIO()
rng_die.inspect_types(file=buf)
out["inspect_types"] = "rng_die" in buf.getvalue() and "faces" in buf.getvalue()
print(json.dumps(out))
"""


def _run(cache) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run(
        [sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.slow
def test_compiled_and_cached_kernels_keep_only_what_a_cache_load_keeps(tmp_path):
    cold = _run(tmp_path)  # compiles every kernel
    warm = _run(tmp_path)  # loads them from the cache
    # the same rolls whether compiled or loaded, in range
    assert cold["rolls"] == warm["rolls"]
    assert all(1 <= r <= 6 for r in cold["rolls"]) and len(set(cold["rolls"])) > 1
    for name in ("rng_die", "_forced", "rng_float", "rng_next"):
        # compiled here: annotation as text, no metadata, no copy for linking kept
        # (the callees were linked into their callers all the same)
        assert cold[name]["annotation_text"] and not cold[name]["metadata"], name
        assert not cold[name]["copy_for_linking_kept"], name
        # loaded from the cache: numba's own way (the copy for linking is all it has)
        assert warm[name]["annotation_text"] and not warm[name]["metadata"], name
        assert warm[name]["copy_for_linking_kept"], name
    assert cold["inspect_types"] and warm["inspect_types"]
