"""What an exact-odds question costs, before it is asked, and asking it stoppably.

The enumeration in :mod:`analyzer.unearth.odds` is one compiled call: once it
runs, Python (and so Ctrl-C) gets no say until it returns. So every question is
priced first from the size of its enumeration (:func:`estimate`: the product of
``faces ** rolls`` of the unknown dice, the number the kernel's weights count),
a question priced above :data:`LIMIT_S` seconds is refused unless the caller
forces it (``analyzer odds --force``), and a question priced above
:data:`FORK_S` runs in a forked child process that Ctrl-C or SIGTERM ends at
once (:func:`call_stoppably`).

The price is pessimistic: :data:`ROLLS_PER_S` is a slow machine's pace (the
kernel prunes equal totals, so most questions finish many times sooner).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from dataclasses import dataclass

from analyzer.core.errors import EnvironmentFailure, Lift, Param, ParamError
from analyzer.unearth import odds
from analyzer.unearth.rules import Rules, default_rules

#: enumerated rolls per second the estimate assumes (measured 1e7 to 2e8 on one core)
ROLLS_PER_S = 1e7
#: a question estimated above this many seconds is refused unless forced
LIMIT_S = 60.0
#: a question estimated above this many seconds runs in a child process Ctrl-C can end
FORK_S = 1.0

#: the limit in force (None: no limit, ``--force``); see :func:`no_limit`
_LIMIT: contextvars.ContextVar[float | None] = contextvars.ContextVar("odds_limit", default=LIMIT_S)


@dataclass(frozen=True)
class Cost:
    """The size of a question's enumeration and the seconds it may take."""

    rolls: int
    seconds: float

    def describe(self) -> str:
        return f"{self.rolls:,} roll sequences, up to about {_duration(self.seconds)}"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:,.0f} days"


def estimate(question: odds.OddsQuestion, rules: Rules | None = None) -> Cost:
    """The price of ``question`` (validates it first: bad input raises InputError)."""
    prep = odds._prepare(question, rules or default_rules())
    return Cost(rolls=int(prep.weight), seconds=prep.weight / ROLLS_PER_S)


@contextlib.contextmanager
def no_limit():
    """Within the block, no question is refused for its price (``--force``)."""
    token = _LIMIT.set(None)
    try:
        yield
    finally:
        _LIMIT.reset(token)


def exact_odds(question: odds.OddsQuestion, rules: Rules | None = None) -> odds.OddsResult:
    """:func:`analyzer.unearth.odds.exact_odds`, priced first and stoppable.

    Raises :class:`~analyzer.core.errors.InputError` naming ``dice`` if the price is
    above the limit in force (see
    :func:`no_limit`); a question above :data:`FORK_S` seconds runs in a child
    process (:func:`call_stoppably`).
    """
    rules = rules or default_rules()
    cost = estimate(question, rules)
    limit = _LIMIT.get()
    if limit is not None and cost.seconds > limit:
        raise ParamError(
            Param("dice"),
            f": the exact enumeration is {cost.describe()} (allowed: about {_duration(limit)}; ",
            Lift("force"),  # the CLI: "add --force to run it anyway, Ctrl-C stops it"
            ")",
        )
    if cost.seconds > FORK_S:
        return call_stoppably(odds.exact_odds, question, rules)
    return odds.exact_odds(question, rules)


def call_stoppably(fn, *args):
    """``fn(*args)`` in a forked child process; an interrupt (Ctrl-C, SIGTERM) in
    this process kills the child at once, however long its compiled call runs.
    The child dies with this process. Without ``fork`` (Windows), and for a web
    request (``analyzer serve``: a process with threads forks no child), it runs here."""
    from analyzer.core.invocation import serving

    if not hasattr(os, "fork") or serving():
        return fn(*args)
    import multiprocessing

    from analyzer.runs.runner import die_with_parent

    ctx = multiprocessing.get_context("fork")
    here, there = ctx.Pipe(duplex=False)
    parent = os.getpid()

    def child() -> None:
        die_with_parent(parent)
        try:
            result = (True, fn(*args))
        except BaseException as err:  # noqa: BLE001 - handed to the parent as it is
            result = (False, err)
        there.send(result)

    proc = ctx.Process(target=child, daemon=True)
    proc.start()
    there.close()
    try:
        while not here.poll(0.2):
            if not proc.is_alive() and not here.poll(0):
                raise EnvironmentFailure(
                    f"exact odds: the worker process ended without an answer (exit code "
                    f"{proc.exitcode}; out of memory?)"
                )
        ok, value = here.recv()
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        here.close()
    if not ok:
        raise value
    return value


__all__ = ["Cost", "FORK_S", "LIMIT_S", "call_stoppably", "estimate", "exact_odds", "no_limit"]
