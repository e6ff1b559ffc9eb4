"""The trace every game keeps for its replays: one int64 row per event.

A game's state holds ``trace`` (int64[rows, columns]) and counts the rows
written in its ``sc``; a row starts with the event's code, the game turn and the
seat, then the event's own words. What the words mean, and which events are
written, are the game's (its ``replay.py``; ``docs/games/<game>.md``, "The
trace"); writing a row is the same for every game.
"""

from analyzer.kernels.jit import njit


@njit(inline="always")
def write_event(trace, i, ev, turn, seat, a, b, c):
    """Row ``i`` of ``trace`` (int64[rows, 6 or more]) starts with the event
    ``(ev, turn, seat, a, b, c)``; its further columns are left as they are.
    Draws no random numbers."""
    trace[i, 0] = ev
    trace[i, 1] = turn
    trace[i, 2] = seat
    trace[i, 3] = a
    trace[i, 4] = b
    trace[i, 5] = c
