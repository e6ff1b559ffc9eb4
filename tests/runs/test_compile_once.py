"""A run compiles each kernel once, in the parent, before its workers start
(``analyzer.runs.backend._warm_up``): on an empty numba cache the workers load
every kernel the batches and the reducer need instead of compiling it again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numba
import pytest

ROOT = Path(__file__).resolve().parents[2]

_CHILD = """
import json, sys
from analyzer.runs.runner import RunOptions, run
from tests import compile_once_job as m

job = m.Job() if sys.argv[1] == "warm" else m.JobWithoutWarmUp()
opts = RunOptions(games=8, batch_size=1, workers=2, seed=1, progress=False)
res = run(job, opts, m.reduce)
row = res.aggregate.loc["all"]
print(json.dumps({k: int(row[k]) for k in ("v", "batches", "compiled")}))
"""


def _run(kind: str, cache: Path) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, kind],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.slow
@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="counts compiled kernels")
def test_workers_load_what_the_parent_compiled(tmp_path):
    warm = _run("warm", tmp_path / "warm")
    cold = _run("cold", tmp_path / "cold")
    # the same results either way: 8 one-game batches, v = 2g + 1 summed
    assert warm["v"] == cold["v"] == sum(2 * g + 1 for g in range(8))
    assert warm["batches"] == cold["batches"] == 8
    # every batch was reduced in a worker that had compiled nothing: the parent had
    assert warm["compiled"] == 0
    # a job without warm_up: its workers compiled both kernels themselves
    assert cold["compiled"] >= 2
