"""The progress of a run on stderr: games done, games/s, ETA and the running headline.

Game-agnostic; drawn by the runner after each batch (:class:`_Progress`).
"""

from __future__ import annotations

import math
import time

from analyzer.core.stats import Headline

#: seconds between two plain progress lines (stderr not a terminal, e.g. a CI log)
PLAIN_EVERY_S = 5.0


class _Progress:
    """Games done, games/s, ETA and the running headline on stderr.

    On a terminal: a rich progress bar. Otherwise (a CI log, a pipe, a file):
    one plain, whole line every :data:`PLAIN_EVERY_S` seconds and one at the
    end, never cut to a terminal width.
    """

    def __init__(self, enabled: bool, total: int, target: str) -> None:
        import sys

        self.enabled = enabled
        if not enabled:
            return
        self.total, self.target = total, target
        self.plain = not sys.stderr.isatty()
        self.t0 = self.last = time.monotonic()
        self.line = ""
        if self.plain:
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
        self.task = self.progress.add_task(target, total=total, rate="", estimate="")
        self.progress.start()

    def update(self, done: int, rate: float, head: Headline | None) -> None:
        if not self.enabled:
            return
        estimate = ""
        if head is not None and math.isfinite(head.value):
            estimate = f"{head.label} {head.value:.4f} [{head.low:.4f}, {head.high:.4f}]"
        rate_text = f"{rate:,.0f} games/s"
        if not self.plain:
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
        import sys

        line = self.line or f"{self.target}: 0/{self.total:,} (0%), starting"
        try:
            sys.stderr.write(f"progress: {time.monotonic() - self.t0:,.0f} s: {line}\n")
            sys.stderr.flush()
        except (OSError, ValueError):  # stderr closed: progress is not worth failing for
            self.enabled = False

    def close(self) -> None:
        if not self.enabled:
            return
        if self.plain:
            if self.line:
                self._emit()
            return
        self.progress.stop()
