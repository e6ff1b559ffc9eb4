"""Compile the engines' big kernels into the numba cache beside the test suite.

On a cold cache (a fresh clone of a new commit, as CI has it) about half of the
suite's time is numba compiling nine kernels: each game's ``play_batch``, its
``search`` player's ``play_batch_search`` and its deep advice's ``rank_all``,
10 to 60 s each, one after the other in pytest's one process while the
machine's second core waits. ``tests/conftest.py`` starts this module in a
second process when a session collects most of the suite: it plays one tiny
game of each kind the suite needs late (:data:`STEPS`), the way the tests do
(the same public calls, so the same type signatures), and numba saves what it
compiles to the on-disk cache. The test that later needs a kernel loads it
instead of compiling it, if this process got there first; otherwise the test
compiles it as before. Nothing a test checks depends on it: a kernel loaded
from the cache is the machine code compiled for it (``analyzer.kernels.jit``).

The kernels are taken in the reverse of the order the suite first needs them,
so the two processes meet in the middle instead of compiling the same kernel
side by side; those the suite needs in its first minutes are left to it.
``python -m tests.warm_kernels`` runs it by hand.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path


def _simulate(game: str, players: int, strategies: str, search: dict | None = None) -> None:
    import analyzer

    params = {"search": search} if search else None
    analyzer.simulate(players, strategies.split(","), 1, 1, game=game, strategy_params=params)


def _deep(game: str, budget: int) -> None:
    """``advise --deep`` on the game's example, as tests/games/test_search_pinned.py asks it."""
    from analyzer.cli import run_cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = run_cli(["advise", "--game", game, "--example"])
    if code:
        raise RuntimeError(f"advise --example exited {code}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{game}.toml"
        path.write_text(out.getvalue())
        args = ["advise", "--game", game, str(path), "--deep", "--budget", str(budget)]
        with contextlib.redirect_stdout(io.StringIO()):
            code = run_cli([*args, "--seed", "7", "--json"])
    if code:
        raise RuntimeError(f"advise --deep exited {code}")


#: the suite's big kernels that it needs last, last needed first (tests run in
#: file-name order). The others (Colorful Treasure's three, Unearth's games) are
#: needed in its first minutes: the suite compiles them before this process could.
STEPS = (
    ("uruk search", lambda: _simulate("uruk", 2, "balanced,search", {"budget": 4, "width": 2})),
    ("uruk deep", lambda: _deep("uruk", 8)),
    ("unearth search", lambda: _simulate("unearth", 2, "search,balanced", {"budget": 4})),
    ("unearth deep", lambda: _deep("unearth", 8)),
    ("uruk games", lambda: _simulate("uruk", 2, "balanced,random")),
)


def main() -> int:
    failed = 0
    for name, step in STEPS:
        try:
            step()
        except Exception as exc:  # a warm-up only: the tests compile what is missing
            print(f"warm_kernels: {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
