"""Pinned hashes of small seeded runs: a refactor must leave every table identical.

The hashes were taken from the engine before the game seam was built (issue 11)
and must not change unless games are meant to change (then ``RULES_VERSION`` is
bumped and the hashes are taken again on purpose, with the reason in the commit):

    .venv/bin/python -m tests.test_pinned --print

The hash covers every column's name, dtype and values in order, so a column
renamed, reordered, retyped or holding one different value changes it.
"""

from __future__ import annotations

import hashlib
import sys

import numpy as np
import pandas as pd
import pytest

import analyzer

#: (players, strategies, games, seed) -> (games table hash, claims table hash)
PINNED = {
    (2, "random", 300, 11): (
        "b47c7bf1f40a567357b25411d7793ce8b2453e37b5f09ca539695fbc6eb1b9d6",
        "8f9ba5772963660a8095dc48d2b5b3a101bddfee28adf2b2c75497da1fe555f4",
    ),
    (3, "balanced", 120, 12): (
        "7e2cc84b1e61a994f279e13160e287061b7eee28c2f5f7424b4b87c2d9b61eea",
        "e0b94f879b15eb028d7df7b9df5737fbef5294dad6df084654bcc1f552b76753",
    ),
    (4, "random,claimer,collector,balanced", 150, 13): (
        "952e2f0930e371e64f93af96bf82c50fa2e9c78f338b77885d33559ef07cd822",
        "55cfd541f4a874f724b5177c1b452df74a08d71ed74502147609c9517aedebf8",
    ),
    (5, "claimer,collector,random,balanced,balanced", 80, 14): (
        "5aa0f5582a31cfc831a845db09d73084b63ff604a6c1963bc9a2b75dd0f81a94",
        "89d7686a6795e184a7aba5c56d7c765cb5b39894e7c50345be5ab7f82ed69c69",
    ),
}

RUNS = (
    (2, "random", 300, 11),
    (3, "balanced", 120, 12),
    (4, "random,claimer,collector,balanced", 150, 13),
    (5, "claimer,collector,random,balanced,balanced", 80, 14),
)


def table_hash(frame: pd.DataFrame) -> str:
    """sha256 of a table's column names, dtypes and values, in column order."""
    h = hashlib.sha256()
    h.update(f"{len(frame)} rows\n".encode())
    for name in frame.columns:
        col = frame[name]
        h.update(f"{name}:{col.dtype}\n".encode())
        if isinstance(col.dtype, pd.CategoricalDtype):
            h.update("\x1f".join(map(str, col.cat.categories)).encode())
            h.update(np.ascontiguousarray(col.cat.codes.to_numpy()).tobytes())
        else:
            h.update(np.ascontiguousarray(col.to_numpy()).tobytes())
    return h.hexdigest()


def run_hashes(players: int, strategies: str, games: int, seed: int) -> tuple[str, str]:
    table, claims = analyzer.simulate(players, strategies, games, seed, claims=True)
    return table_hash(table), table_hash(claims)


@pytest.mark.parametrize("run", RUNS, ids=lambda r: f"{r[0]}p-{r[3]}")
def test_seeded_run_is_unchanged(run):
    assert run_hashes(*run) == PINNED[run]


def test_hash_sees_one_changed_value():
    table, _ = analyzer.simulate(2, "random", 20, 1, claims=True)
    before = table_hash(table)
    table.loc[7, "score"] += 1
    assert table_hash(table) != before


if __name__ == "__main__":  # pragma: no cover - regeneration helper
    if "--print" in sys.argv:
        for run in RUNS:
            print(
                f"    {run!r}: (\n        {run_hashes(*run)[0]!r},\n"
                f"        {run_hashes(*run)[1]!r},\n    ),"
            )
