"""Workers end with their parent however it ends (issue #41): a run killed with
SIGKILL while its workers are still starting (importing, unpickling the job)
or while they play leaves no worker behind. Real process trees: the parent is a
Python process running the runner's own pool, killed with ``kill -9``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # starts processes

ROOT = Path(__file__).resolve().parents[2]


def sleeping_batch(start: int, count: int) -> dict:
    """A batch that plays for two minutes (a worker busy with its batch), saying
    so with a file named after its process in ``$PLAYING_DIR``."""
    (Path(os.environ["PLAYING_DIR"]) / str(os.getpid())).touch()
    time.sleep(120)
    return {}


class StillStarting:
    """A job a worker unpickles as a call of ``time.sleep(120)``: the worker is
    still starting (its job not yet loaded) for two minutes."""

    def __reduce__(self):
        return time.sleep, (120,)


#: a parent that starts two workers of the runner's pool on the job named by its
#: argument and prints their process ids
PARENT = textwrap.dedent(
    """
    import sys, time
    from analyzer.runs.backend import _Backend
    from analyzer.runs.options import RunOptions
    from tests.runs.test_worker_lifetime import StillStarting, sleeping_batch

    job = StillStarting() if sys.argv[1] == "starting" else sleeping_batch
    options = RunOptions(games=4, seed=1, batch_size=1, workers=2, progress=False)
    backend = _Backend(job, len, options, 4)
    backend.submit(0, 1, False)
    backend.submit(1, 1, False)
    print(" ".join(str(p) for p in backend.executor._processes), flush=True)
    time.sleep(300)
    """
)


def alive(pid: int) -> bool:
    """True if process ``pid`` exists and is not a zombie (a dead child that an
    init without reaping keeps in the table)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc (macOS): ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _gone_after_parent_killed(mode: str, playing: Path) -> list[int]:
    """The workers of a parent in ``mode`` still alive a few seconds after the
    parent was killed with SIGKILL (the list must be empty). ``playing``: the
    folder where the workers of a ``playing`` parent say they play."""
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, mode],
        env={**os.environ, "PLAYING_DIR": str(playing)},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # its resource tracker's word on the semaphores it left
        text=True,
        cwd=ROOT,
    )
    workers: list[int] = []
    try:
        workers = [int(p) for p in parent.stdout.readline().split()]
        assert len(workers) == 2, workers
        deadline = time.monotonic() + 120
        if mode == "playing":  # both in their batch
            while len(list(playing.iterdir())) < 2:
                assert time.monotonic() < deadline, "the workers never played"
                time.sleep(0.05)
        else:
            time.sleep(1.0)  # the workers are past their interpreter's start, in the job
        assert all(alive(p) for p in workers), "the workers did not start"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=60)
        deadline = time.monotonic() + 5.0  # not a speed check: the old workers lived 120 s
        while time.monotonic() < deadline and any(alive(p) for p in workers):
            time.sleep(0.1)
        return [p for p in workers if alive(p)]
    finally:
        parent.kill()
        parent.wait(timeout=60)
        for p in workers:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_workers_still_starting_end_with_a_killed_parent(tmp_path):
    assert _gone_after_parent_killed("starting", tmp_path) == []


def test_playing_workers_end_with_a_killed_parent(tmp_path):
    assert _gone_after_parent_killed("playing", tmp_path) == []
    assert len(list(tmp_path.iterdir())) == 2
