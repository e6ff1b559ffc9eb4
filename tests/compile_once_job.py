"""A job for the runner's compile-once test (``tests/runs/test_compile_once.py``).

Its batches and its reducer each call a kernel of their own, and the reducer
writes how many kernels its process has compiled so far (numba's documented
compile events, ``numba.core.event``). Worker processes import this module by
name, so the job and the reducer pickle.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba.core import event

from analyzer.kernels.jit import njit

#: kernels compiled in this process so far
COMPILED = [0]


class _Count(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        COMPILED[0] += 1


event.register("numba:compile", _Count())


@njit
def _game_kernel(games):
    """int64[N] -> int64[N]: a stand-in for a game engine."""
    return games * 2 + 1


@njit
def _reduce_kernel(values):
    """int64[N] -> int64: a stand-in for a reducer's group sums."""
    return values.sum()


class Job:
    """A batch function with ``warm_up`` (as analyzer's jobs have)."""

    def __call__(self, start: int, count: int) -> dict[str, pd.DataFrame]:
        games = np.arange(start, start + count, dtype=np.int64)
        return {"games": pd.DataFrame({"v": _game_kernel(games)})}

    def warm_up(self) -> None:
        self(0, 1)


class JobWithoutWarmUp:
    """The same batches, without ``warm_up``: each worker compiles for itself."""

    def __call__(self, start: int, count: int) -> dict[str, pd.DataFrame]:
        return Job()(start, count)


def reduce(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """``v`` summed, one batch, and the kernels compiled by then in the process
    that reduced it."""
    total = _reduce_kernel(tables["games"]["v"].to_numpy())
    return pd.DataFrame(
        {"v": [int(total)], "batches": [1], "compiled": [COMPILED[0]]},
        index=pd.Index(["all"], name="key"),
    )
