"""A report's files: the target folder checked, built whole beside it and swapped in.

A report directory is built whole in a temporary directory beside the target and
swapped into place at the end (:func:`analyzer.core.outputs.replace_dir`), so a
half-written report never exists; Parquet and JSON are written here the one
way every report writes them.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.core.errors import EnvironmentFailure, InputError


def _json(v):
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, tuple | set):
        return list(v)
    return str(v)


def _write_parquet(df: pd.DataFrame, path: Path, index: bool = False) -> None:
    df.to_parquet(path, engine="pyarrow", index=index)


#: what a report folder may hold before its first report: a balance search's kept
#: progress (``analyzer balance --resume``)
KEPT = ("balance_progress",)


def _check_target(target: Path, keep: tuple[str, ...] = KEPT) -> None:
    """Refuse, before any work, a report folder that cannot or must not be written
    (a folder holding only ``keep`` entries, a run's kept progress, is taken)."""
    target = Path(target)
    here = Path.cwd().resolve()
    full = target.resolve()
    if full == here or full in here.parents:
        raise InputError(
            f"--out: {target} is the current directory or one above it (allowed: a report "
            "folder of its own, e.g. --out reports/NAME)"
        )
    if target.exists() and not target.is_dir():
        raise InputError(f"--out: {target} is a file (allowed: a folder, new or a report)")
    others = [p for p in target.iterdir() if p.name not in keep] if target.is_dir() else []
    if others and not (target / "manifest.json").is_file():
        raise InputError(
            f"--out: {target} is a non-empty directory that is not a report "
            "(allowed: a new directory, an empty one, or an earlier report to replace)"
        )
    ancestor = full.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise InputError(f"--out: {ancestor} is a file (allowed: a path of folders)")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise EnvironmentFailure(
            f"--out: cannot write in {ancestor} (permission denied; choose a writable place)"
        )


def _build_dir(target: Path, fill) -> list[str]:
    """Build a directory with ``fill(tmp)`` beside ``target``, then swap it into place
    keeping the user's files (:func:`analyzer.core.outputs.replace_dir`)."""
    from analyzer.core.outputs import replace_dir

    target = Path(target)
    _check_target(target)
    return replace_dir(target, fill)
