"""The fingerprint of a dataclass that gained fields: its ``repr`` without them.

A checkpoint is resumed only by the same job and reducer, compared by their
``repr`` (:mod:`analyzer.runs.runner`); a field added later is left out of it while
it holds its default, so checkpoints written before it existed still resume.
A leaf module: the job (:class:`analyzer.runs.driver.ScenarioJob`) and the reducer
(:class:`analyzer.tables.aggregate.Reducer`) both use it.
"""

from __future__ import annotations


def repr_without_defaults(obj, newer: tuple[str, ...]) -> str:
    """The dataclass ``repr`` of ``obj`` leaving out the fields ``newer`` while they
    hold their defaults: a checkpoint's fingerprint (its job's and reducer's
    ``repr``) stays that of the version before those fields existed."""
    import dataclasses

    parts = []
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        if f.name in newer and v == f.default:
            continue
        parts.append(f"{f.name}={v!r}")
    return f"{type(obj).__name__}({', '.join(parts)})"
