"""``workers=2`` from every way of running Python (issue #25, item 1).

Each test starts a fresh Python the way a user would (a script with and
without a ``__main__`` guard, ``python -`` from a heredoc, ``python -c``,
``python -i`` fed from stdin, ``python -m`` of an unguarded module, the CLI)
and plays the same games with one and with two workers: the tables must be
identical and the user's main module must run once (in the parent), never in
a worker. Small Uruk games in batches of 50, so a run needs several batches
and each worker only loads cached kernels.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from analyzer.runs.pool import MAIN_KEYS, MainFreeContext, context, names_main

#: the user's script: a marker line per process that runs it, then both runs compared
SCRIPT = textwrap.dedent(
    """
    import os
    open("ran.txt", "a").write(f"{os.getpid()}\\n")
    import analyzer
    kw = dict(game="uruk", players=2, strategies=["random"] * 2, seed=9, batch_size=50)
    a = analyzer.simulate(games=200, workers=1, **kw)
    b = analyzer.simulate(games=200, workers=2, **kw)
    same = a.equals(b) and list(a.dtypes) == list(b.dtypes) and len(a) == 400
    print("SAME" if same else "DIFFERENT", flush=True)
    """
)


def _run(args, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    return subprocess.run(
        args, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=600, env=env
    )


def _check(proc: subprocess.CompletedProcess, cwd: Path) -> None:
    """Both runs gave the same table, and the script ran in one process only."""
    detail = f"rc {proc.returncode}\nstdout: {proc.stdout[-2000:]}\nstderr: {proc.stderr[-3000:]}"
    assert "SAME" in proc.stdout.split(), detail
    assert proc.returncode == 0, detail
    ran = (cwd / "ran.txt").read_text().split()
    assert len(ran) == 1, f"the main module ran in {len(ran)} processes\n{detail}"


@pytest.mark.slow
def test_guarded_script(tmp_path):
    body = "\n".join("    " + line for line in SCRIPT.splitlines())
    (tmp_path / "job.py").write_text(f'if __name__ == "__main__":\n{body}\n')
    _check(_run([sys.executable, "job.py"], tmp_path), tmp_path)


@pytest.mark.slow
def test_unguarded_script(tmp_path):
    (tmp_path / "job.py").write_text(SCRIPT)
    _check(_run([sys.executable, "job.py"], tmp_path), tmp_path)


@pytest.mark.slow
def test_stdin_heredoc(tmp_path):
    _check(_run([sys.executable, "-"], tmp_path, stdin=SCRIPT), tmp_path)


@pytest.mark.slow
def test_dash_c(tmp_path):
    _check(_run([sys.executable, "-c", SCRIPT], tmp_path), tmp_path)


@pytest.mark.slow
def test_interactive_session(tmp_path):
    """``python -i`` reading from stdin: an interactive ``__main__`` without ``__file__``
    (what a notebook kernel has); an error there does not change the exit code."""
    _check(_run([sys.executable, "-i", "-q"], tmp_path, stdin=SCRIPT + "\n"), tmp_path)


@pytest.mark.slow
def test_unguarded_module(tmp_path):
    (tmp_path / "jobmod.py").write_text(SCRIPT)
    _check(_run([sys.executable, "-m", "jobmod"], tmp_path), tmp_path)


@pytest.mark.slow
def test_cli(tmp_path):
    exe = Path(sys.executable).with_name("analyzer")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "analyzer"]
    args = ["simulate", "--game", "uruk", "--players", "2", "--strategy", "random"]
    args += ["--games", "200", "--batch-size", "50", "--seed", "9", "--quiet"]
    for workers in (1, 2):
        proc = _run(
            [*cmd, *args, "--workers", str(workers), "--out", f"w{workers}.parquet"], tmp_path
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
    a, b = (pd.read_parquet(tmp_path / f"w{w}.parquet") for w in (1, 2))
    assert len(a) == 400 and a.equals(b) and list(a.dtypes) == list(b.dtypes)


def _main_fn(start, count):  # stands for a batch function of the user's script
    return {}


def test_job_from_main_keeps_plain_spawn(monkeypatch):
    """A batch function defined in ``__main__`` can only be found by a worker that
    imports the main module: such a job keeps the stdlib's spawn."""
    import analyzer.runs.runner as runner

    assert not names_main(runner._pool_batch, "__main__x")
    assert isinstance(context(runner._pool_batch, None), MainFreeContext)
    main = sys.modules["__main__"]
    monkeypatch.setattr(_main_fn, "__module__", "__main__")
    monkeypatch.setattr(main, "_main_fn", _main_fn, raising=False)
    assert names_main(_main_fn, None)
    ctx = context(_main_fn, None)
    assert not isinstance(ctx, MainFreeContext) and ctx.get_start_method() == "spawn"


@pytest.mark.parametrize("main_free", [True, False])
def test_preparation_data(main_free):
    """The stdlib's preparation data loses the main-module keys only while one
    of our workers is launched, in the launching thread."""
    from multiprocessing import spawn

    from analyzer.runs import pool

    pool._install()
    pool._LAUNCHING.main_free = main_free
    try:
        data = spawn.get_preparation_data("x")
    finally:
        pool._LAUNCHING.main_free = False
    main = sys.modules["__main__"]
    named = getattr(main.__spec__, "name", None) or getattr(main, "__file__", None)
    if main_free or not named:
        assert not any(k in data for k in MAIN_KEYS)
    else:
        assert any(k in data for k in MAIN_KEYS)
