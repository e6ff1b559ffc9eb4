"""Exact chances of a fresh grid, by enumeration with fractions
(``docs/games/colorful_treasure.md``, "Exact checks").

Each function enumerates every layout of the cards involved (each column is
shuffled on its own, so every order of a column's cards is equally likely) and
returns a :class:`fractions.Fraction`. Tests hold the engine's set-up and
first reveals against these values; :func:`exact_table` puts them in reports.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pandas as pd

from analyzer.colorful_treasure.codes import Kind
from analyzer.colorful_treasure.rules import Rules


def _column(rules: Rules, w: int) -> list[int]:
    rows = rules.tables.rows
    return list(range(w * rows, (w + 1) * rows))


def _treasure(rules: Rules, card: int) -> bool:
    return int(rules.tables.card_kind[card]) in (Kind.KEY, Kind.CHEST)


def p_column_treasure(rules: Rules, w: int, k: int) -> Fraction:
    """Chance that the cards at rows ``0 .. k-1`` of fresh column ``w`` include its
    key or chest (every order of the column equally likely)."""
    hits = total = 0
    for order in itertools.permutations(_column(rules, w)):
        total += 1
        hits += any(_treasure(rules, c) for c in order[:k])
    return Fraction(hits, total)


def p_same_colour(rules: Rules, w1: int, w2: int) -> Fraction:
    """Chance that the cards at row 0 of fresh columns ``w1`` and ``w2`` (different)
    are gem cards of the same colour."""
    t = rules.tables
    hits = total = 0
    for a in _column(rules, w1):  # row 0 holds each card of the column equally often
        for b in _column(rules, w2):
            total += 1
            gems = t.card_kind[a] == Kind.GEM and t.card_kind[b] == Kind.GEM
            hits += bool(gems and t.card_colour[a] == t.card_colour[b])
    return Fraction(hits, total)


def p_same_colour_any(rules: Rules) -> Fraction:
    """:func:`p_same_colour` averaged over every pair of different columns."""
    w = rules.tables.n_wonders
    pairs = [(a, b) for a in range(w) for b in range(w) if a != b]
    return sum((p_same_colour(rules, a, b) for a, b in pairs), Fraction(0)) / len(pairs)


def p_first_two_treasure(rules: Rules) -> Fraction:
    """Chance that two positions chosen uniformly among all positions of a fresh grid
    hold at least one key or chest (each pair of positions equally likely, then
    every layout of their columns)."""
    t = rules.tables
    total = Fraction(0)
    pairs = 0
    for a, b in itertools.combinations(range(t.n_cards), 2):
        same = a // t.rows == b // t.rows
        hits = outcomes = 0
        for ca in _column(rules, a // t.rows):
            for cb in _column(rules, b // t.rows):
                if same and ca == cb:
                    continue
                outcomes += 1
                hits += _treasure(rules, ca) or _treasure(rules, cb)
        total += Fraction(hits, outcomes)
        pairs += 1
    return total / pairs


def exact_table(rules: Rules) -> pd.DataFrame:
    """The exact checks as a table: question, fraction, value."""
    rows = []
    if not rules.young:
        for k in (2, 3):
            rows.append(
                (
                    f"{k} cards of one fresh column include its key or chest",
                    p_column_treasure(rules, 0, k),
                )
            )
        rows.append(
            (
                "first two reveals among the whole fresh grid include a key or chest",
                p_first_two_treasure(rules),
            )
        )
    rows.append(
        ("row 0 of two different fresh columns: gem cards of one colour", p_same_colour_any(rules))
    )
    return pd.DataFrame(
        {
            "question": [q for q, _ in rows],
            "fraction": [str(f) for _, f in rows],
            "value": [float(f) for _, f in rows],
        }
    )
