"""The progress of a run on stderr: games done, games/s, ETA and the running headline.

Game-agnostic; drawn by the runner after each batch (:class:`_Progress`). The
count is every game the run plays: a scenario of several configurations plays
each game index in every one of them, so one bar counts ``index games ×
configurations``. A first compile is announced before it starts, with its
expected time, and left out of the rate. :func:`phase` shows a step that is not
games (writing a report) while it runs.
"""

from __future__ import annotations

import contextlib
import math
import sys
import threading
import time

from analyzer.core.stats import Headline

#: seconds between two plain progress lines (stderr not a terminal, e.g. a CI log)
PLAIN_EVERY_S = 5.0


def say(line: str) -> None:
    """One whole line on stderr (a closed stderr is not worth failing for)."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


class _Progress:
    """Games done, games/s, ETA and the running headline on stderr.

    On a terminal: a rich progress bar. Otherwise (a CI log, a pipe, a file):
    one plain, whole line every :data:`PLAIN_EVERY_S` seconds and one at the
    end, never cut to a terminal width. ``per_index``: games played per game
    index (the configurations of a scenario); ``done``, ``total`` and the rate
    given to :meth:`update` count game indices and are shown as games
    (``games_at(indices)``, else times ``per_index``).
    """

    def __init__(
        self, enabled: bool, total: int, target: str, per_index: int = 1, games_at=None
    ) -> None:
        self.enabled = enabled
        if not enabled:
            return
        self.per = max(1, int(per_index))
        #: games played by the first ``n`` game indices (a field of its own, fewer
        #: games, plays only the first of them); default ``n * per_index``
        self.games_at = games_at or (lambda n: n * self.per)
        self.total, self.target = self.games_at(total), target
        self.plain = not sys.stderr.isatty()
        self.t0 = self.last = time.monotonic()
        self.line = self.said = ""
        self.progress = None

    def _start_bar(self) -> None:
        if self.plain or self.progress is not None:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=20),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[estimate]}"),
            console=Console(stderr=True),
            transient=False,
        )
        self.task = self.progress.add_task(self.target, total=self.total, rate="", estimate="")
        self.progress.start()

    def compiling(self, note: str) -> None:
        """Announce a first compile (before it starts; on a terminal and in a log alike)."""
        if self.enabled:
            say(note)

    def compiled(self, seconds: float) -> None:
        """The compile is over: say how long it took; the rate starts now."""
        if not self.enabled:
            return
        say(f"compiled in {seconds:,.0f} s (not counted in games/s)")
        self.t0 = self.last = time.monotonic()

    def start(self) -> None:
        """The games start: the bar appears (a terminal) or the plain clock starts."""
        if self.enabled:
            self.t0 = self.last = time.monotonic()
            self._start_bar()

    def update(self, done: int, rate: float, head: Headline | None) -> None:
        if not self.enabled:
            return
        games = self.games_at(done)
        rate = rate * (games / done if done else self.per)
        done = games
        estimate = ""
        if head is not None and math.isfinite(head.value):
            estimate = f"{head.label} {head.value:.4f} [{head.low:.4f}, {head.high:.4f}]"
        rate_text = f"{rate:,.0f} games/s"
        if not self.plain:
            self._start_bar()
            self.progress.update(self.task, completed=done, rate=rate_text, estimate=estimate)
            return
        eta = f"ETA {(self.total - done) / rate:,.0f} s" if rate > 0 else "ETA ?"
        share = f"{100 * done / self.total:.0f}%" if self.total else ""
        self.line = f"{self.target}: {done:,}/{self.total:,} ({share}), {rate_text}, {eta}" + (
            f", {estimate}" if estimate else ""
        )
        self.tick()

    def tick(self) -> None:
        """Write the plain line if one is due (also while a long batch runs)."""
        if not self.enabled or not self.plain:
            return
        now = time.monotonic()
        if now - self.last >= PLAIN_EVERY_S:
            self._emit()
            self.last = now

    def _emit(self) -> None:
        line = self.line or f"{self.target}: 0/{self.total:,} (0%), starting"
        self.said = self.line
        try:
            sys.stderr.write(f"progress: {time.monotonic() - self.t0:,.0f} s: {line}\n")
            sys.stderr.flush()
        except (OSError, ValueError):  # stderr closed: progress is not worth failing for
            self.enabled = False

    def close(self) -> None:
        if not self.enabled:
            return
        if self.plain:
            if self.line and self.line != self.said:  # (the last line, once)
                self._emit()
            return
        if self.progress is not None:
            self.progress.stop()


@contextlib.contextmanager
def phase(what: str, enabled: bool = True, every: float = PLAIN_EVERY_S):
    """Show ``what`` (e.g. "writing the report") while the block runs: on a terminal
    a spinner with the seconds so far, in a log one line at the start, one every
    ``every`` seconds after the first ``every``, and one at the end with its time."""
    if not enabled:
        yield
        return
    t0 = time.monotonic()
    if sys.stderr.isatty():
        from rich.console import Console

        with Console(stderr=True).status(f"{what}…") as status:
            stop = threading.Event()

            def count() -> None:
                while not stop.wait(1.0):
                    status.update(f"{what}… {time.monotonic() - t0:,.0f} s")

            clock = threading.Thread(target=count, daemon=True)
            clock.start()
            try:
                yield
            finally:
                stop.set()
                clock.join()
        say(f"{what}: done in {time.monotonic() - t0:,.1f} s")
        return
    say(f"{what}…")
    stop = threading.Event()

    def lines() -> None:
        while not stop.wait(every):
            say(f"{what}… {time.monotonic() - t0:,.0f} s")

    clock = threading.Thread(target=lines, daemon=True)
    clock.start()
    try:
        yield
    finally:
        stop.set()
        clock.join()
    say(f"{what}: done in {time.monotonic() - t0:,.1f} s")
