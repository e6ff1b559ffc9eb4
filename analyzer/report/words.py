"""People's words for what the tables call by their column names.

Tables and CSV files keep their column names and values (scripts read them);
what a reader sees on a chart or a table page says the same in words:
``seat0_win`` is "first player's win rate", ``pts_ruin_sets`` "points from ruin
sets", ``seat=0`` "first player", and seats are counted from 1.
"""

from __future__ import annotations

import re

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

#: column and metric names with a fixed reading
NAMES = {
    "win": "win rate",
    "win_rate": "win rate",
    "score": "final score",
    "mean_score": "mean score per game",
    "game_turns": "game length (turns)",
    "shared_win": "shared wins",
    "seat0_win": "first player's win rate",
    "seat0_win_adj": "first player's win rate, luck-adjusted",
    "var_ratio": "variance ratio (luck-adjusted / plain)",
    "fair": "fair share",
    "advantage": "advantage over a fair share",
    "significant": "clear (*)",
    "players": "players",
    "n": "n",
    "label": "configuration",
    "diff": "difference",
    "mean_a": "base",
    "mean_b": "variant",
    "pairs": "paired n",
    "scope": "whose",
    "metric": "what",
    "build_rate": "build rate",
    "win_builders": "builders' win rate",
    "win_others": "others' win rate",
    "games": "games",
    "share": "share",
}


def ordinal_player(seat: int) -> str:
    """``first player`` for seat 0 (seats counted from 1 in words)."""
    return f"{ORDINALS[seat] if 0 <= seat < len(ORDINALS) else f'#{seat + 1}'} player"


def metric_name(metric: str, labels: dict | None = None) -> str:
    """A metric or column name in words: ``pts_ruin_sets`` -> ``points from ruin sets``."""
    labels = labels or {}
    m = str(metric)
    if m in NAMES:
        return NAMES[m]
    mean = re.fullmatch(r"mean (.+)", m)
    if mean:
        return f"mean {metric_name(mean.group(1), labels)}"
    seat = re.fullmatch(r"win rate seat (\d+)", m)
    if seat:
        return f"{ordinal_player(int(seat.group(1)))}'s win rate"
    if m.startswith("pts_"):
        name = labels.get(m, m[4:])
        if name == m or name == m[4:]:
            name = m[4:]
        return f"points from {str(name).replace('_', ' ')}"
    for suffix, words in (("_low", " (low end)"), ("_high", " (high end)")):
        if m.endswith(suffix):
            return metric_name(m[: -len(suffix)], labels) + words
    label = labels.get(m)
    if label and label != m:
        return str(label)
    return m.replace("_", " ")


def scope_name(scope: str) -> str:
    """Whose a paired difference is: ``seat=0`` -> ``first player``."""
    s = str(scope)
    if s.startswith("seat=") and s[5:].isdigit():
        return ordinal_player(int(s[5:]))
    if s.startswith("strategy="):
        return s[len("strategy=") :]
    return {"all seats": "every seat", "game": "per game"}.get(s, s)


def header(column: str, labels: dict | None = None) -> str:
    """A table column's header in words (``x [95% CI]`` kept as such)."""
    c = str(column)
    if c.endswith(" [95% CI]"):
        return metric_name(c[: -len(" [95% CI]")], labels) + " [95% CI]"
    if c == "seat":
        return "seat (1 = first player)"
    return metric_name(c, labels)
