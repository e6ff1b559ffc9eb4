"""Session set-up shared by the whole suite.

On a session that runs most of the suite, the engines' big kernels are compiled
into numba's on-disk cache by a second process (:mod:`tests.warm_kernels`) while
the tests run: on a cold cache that is half of the suite's time, otherwise spent
one kernel after the other in pytest's one process. It only fills the cache;
every test still runs and checks what it checked (a test that needs a kernel
not yet there compiles it, as before). ``ANALYZER_TEST_WARMUP=0`` turns it off.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: fewer tests than this (a file or a few): the warm-up would compile more than they need
WARMUP_FROM = 500


def _wanted(items: int) -> bool:
    off = os.environ.get("ANALYZER_TEST_WARMUP", "") == "0"
    no_jit = os.environ.get("NUMBA_DISABLE_JIT", "") not in ("", "0")
    return items >= WARMUP_FROM and not off and not no_jit


@pytest.fixture(scope="session", autouse=True)
def _warm_kernels(request):
    """The warm-up process for this session (see the module docstring), ended
    with the session if it is still compiling (a run stopped early by ``-x``)."""
    if not _wanted(len(request.session.items)):
        yield
        return
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.warm_kernels"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
