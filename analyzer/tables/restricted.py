"""Restricted play answered: what a seat loses when barred from one thing at a time.

Restricted play (Jaffe et al., AIIDE 2012) measures how much a thing (a card, a
wonder, an action) is worth by barring one seat from it: the same games (common
random numbers) are played with nothing barred and with the thing barred from
one seat, every seat in turn, the others playing as usual; the thing's worth is
the barred seat's win rate barred minus unbarred, paired game by game. The
study plays them (:mod:`analyzer.studies.restricted`) and keeps one row per
thing in the manifest (``restricted``); this module reads those rows: the
report table ``restricted_play`` (:func:`report_tables`, also
``tables/restricted_play.csv``), the question ``dominance`` a scenario asks
(:data:`DOMINANCE`, one finding per thing, the costliest first) and the words
(:func:`verdict`, :func:`summary`).

A scenario asks it as ``questions = [{ ask = "dominance" }]``, with optional
``games`` (paired games per thing, each seat barred in a quarter of them at 4
players; default the scenario's ``games``) or ``scale`` (paired games per thing
as a multiple of the scenario's ``games``, so ``--games`` scales them too) and
``things`` (ids or groups of the game's barrable things,
:meth:`analyzer.games.Game.barrable`; default all).
:func:`check_dominance` validates them when the file is read.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from analyzer.core.errors import InputError, bad_value
from analyzer.tables.answers import count, difference_finding
from analyzer.tables.finding import Finding, Question

if TYPE_CHECKING:  # pandas is imported where a table is built: a scenario's checks load none
    import pandas as pd

#: the report table and CSV (``tables/restricted_play.csv``)
TABLE = "restricted_play"
#: a loss this large (win points, significant after Holm) makes a thing decisive
DECISIVE_POINTS = 5.0
#: a thing a seat can ignore: its interval keeps the loss under this many win points
IGNORE_POINTS = 2.0
#: the question's parameters (besides ``ask``)
PARAMS = ("games", "things", "scale")
#: most paired games per thing a scenario may ask for
MAX_GAMES = 10_000_000
#: the range of ``scale`` (paired games per thing over the scenario's games)
SCALE_RANGE = (0.01, 100.0)


# --------------------------------------------------------------------------- asking


def games_per_thing(sc, params: dict) -> int:
    """Paired games per thing: ``games``, else ``scale`` × the scenario's games
    (at least 1), else the scenario's games."""
    if "games" in params:
        return int(params["games"])
    return max(1, round(float(params.get("scale", 1)) * int(sc.games)))


def asked(sc) -> dict | None:
    """The params of the scenario's ``dominance`` question, or None if it asks none."""
    for q in getattr(sc, "questions", ()) or ():
        if q.get("id") == "dominance":
            return dict(q.get("params") or {})
    return None


def chosen(game, rules, params: dict, where: str = "") -> tuple:
    """The game's barrable things a ``dominance`` question asks for (``things``: ids or
    groups; default all), in the game's order."""
    every = tuple(game.barrable(rules))
    want = params.get("things")
    if want is None:
        return every
    names = [b.thing for b in every]
    groups = sorted({b.group for b in every})
    allowed = ", ".join([*groups, *names])
    ok = isinstance(want, list) and want and all(isinstance(x, str) for x in want)
    if not ok:
        raise bad_value(f"{where}.things", want, f"a non-empty list of ({allowed})")
    for x in want:
        if x not in names and x not in groups:
            raise bad_value(f"{where}.things", x, allowed)
    return tuple(b for b in every if b.thing in want or b.group in want)


def check_dominance(sc, where: str) -> None:
    """A scenario's ``dominance`` question: its parameters, a game that declares
    barrable things, and one configuration to bar them in (no sweep, comparison,
    fields of players or intervention of its own)."""
    params = asked(sc)
    if params is None:
        return
    i = next(i for i, q in enumerate(sc.questions) if q["id"] == "dominance")
    key = f"{where}: questions[{i}]"
    for k in params:
        if k not in PARAMS:
            raise InputError(
                f"{key}: unknown key '{k}' for question 'dominance' (allowed: {', '.join(PARAMS)})"
            )
    game = sc.game_def
    if not sc.plays_games:
        raise InputError(f"{key}: question 'dominance' needs games of the scenario's own")
    for present, what in (
        (bool(sc.sweep), "a [sweep]"),
        (bool(sc.compare), "[compare]"),
        (bool(sc.fields), "[fields]"),
        (sc.forbid is not None, "a 'forbid'"),
    ):
        if present:
            raise InputError(
                f"{key}: question 'dominance' not with {what} (allowed: a scenario of one "
                "configuration; restricted play bars each thing in it)"
            )
    if "games" in params:
        g = params["games"]
        if isinstance(g, bool) or not isinstance(g, int) or not 1 <= g <= MAX_GAMES:
            raise bad_value(f"{key}.games", g, f"an integer from 1 to {MAX_GAMES:,}")
    if "scale" in params:
        x = params["scale"]
        lo, hi = SCALE_RANGE
        if isinstance(x, bool) or not isinstance(x, int | float) or not lo <= x <= hi:
            raise bad_value(f"{key}.scale", x, f"a number from {lo:g} to {hi:g}")
        if "games" in params:
            raise InputError(
                f"{key}: 'games' and 'scale' both given for question 'dominance' "
                "(allowed: one: games a thing, or a multiple of the scenario's games)"
            )
    rules = game.load_rules(sc.rulings, sc.overrides, f"{where}: rules")
    if not chosen(game, rules, params, key):
        raise InputError(
            f"{key}: game {game.name!r} declares nothing a seat can be barred from "
            "(allowed: a game with interventions, e.g. unearth, uruk)"
        )


# --------------------------------------------------------------------------- words


def verdict(effect: float, low: float, high: float, significant: bool, forced: bool) -> str:
    """In words: ``decisive``, ``matters``, ``can ignore``, ``a trap`` (the seat does
    better without it) or ``unclear`` (win points, barred − free); a thing forced on
    the seat: ``forcing costs`` or ``forcing pays`` when significant."""
    if forced and significant:
        return "forcing costs" if effect < 0 else "forcing pays"
    if significant and effect <= -DECISIVE_POINTS:
        return "decisive"
    if significant and effect < 0:
        return "matters"
    if significant and effect > 0:
        return "a trap"
    if low > -IGNORE_POINTS and high < IGNORE_POINTS:
        return "can ignore"
    return "unclear"


VERDICT_WORDS = {
    "decisive": "decisive",
    "matters": "it matters",
    "a trap": "a seat does better without it",
    "can ignore": "a seat can ignore it",
    "unclear": "too few games to tell",
    "forcing costs": "forcing it costs a seat",
    "forcing pays": "a seat does better forced to",
}


def _doing(row) -> str:
    return f"forced to {row['label']}" if row.get("forced") else f"barred from {row['label']}"


def _pts(x: float) -> str:
    return f"{x:+.1f}".replace("-", "−")


def row_sentence(row: dict, players: int, field: str) -> str:
    """One thing in words: ``Barred from Leier, a seat's win rate changes by −8.1 points
    [−10.3, −5.9] (25.0% → 16.9%; 4 balanced players, n = 8,000 paired games): decisive.``"""
    e = row["effect"]
    lo, hi = row["low"], row["high"]
    return (
        f"{_doing(row)[:1].upper()}{_doing(row)[1:]}, a seat's win rate changes by {_pts(e)} "
        f"points [{_pts(lo)}, {_pts(hi)}] ({100 * row['win_free']:.1f}% → "
        f"{100 * row['win_barred']:.1f}%; {field}, n = {count(row['pairs'])} paired games): "
        f"{VERDICT_WORDS.get(row['verdict'], row['verdict'])}."
    )


def summary(doc: dict) -> list[str]:
    """Page 1's lines: the costliest things by name, which are decisive and which a
    seat can ignore."""
    rows = sorted(doc.get("rows") or [], key=lambda r: r["effect"])
    if not rows:
        return []
    costly = [r for r in rows if r["effect"] < 0 and r.get("significant")][:3]
    lines = []
    if costly:
        first = costly[0]
        parts = [f"{first['label']} is worth about {-first['effect']:.0f} points of win rate"]
        parts += [f"{r['label']} about {-r['effect']:.0f}" for r in costly[1:]]
        text = ", ".join(parts) + " (what barring it costs a seat; significant after Holm)."
        lines.append(text[:1].upper() + text[1:])
    else:
        worst = rows[0]
        lines.append(
            f"Barring no single thing costs a seat significantly; the costliest, "
            f"{worst['label']}, {_pts(worst['effect'])} points [{_pts(worst['low'])}, "
            f"{_pts(worst['high'])}]."
        )
    for key, words in (
        ("decisive", "Decisive (a significant loss of at least {d:g} points)"),
        ("matters", "Matter (a significant loss under {d:g} points)"),
        ("a trap", "A seat does better without"),
        ("can ignore", "A seat can ignore (barred, it loses under {i:g} points)"),
        ("forcing costs", "Forcing costs a seat"),
        ("forcing pays", "A seat does better forced to"),
    ):
        names = [r["label"] for r in rows if r["verdict"] == key]
        if names:
            text = words.format(d=DECISIVE_POINTS, i=IGNORE_POINTS)
            lines.append(f"{text}: {_join(names)}.")
    return lines


def notes(info: dict) -> list[tuple[str, list[str]]]:
    """``[(heading, sentences)]`` for page 1: which things are decisive, which matter,
    which a seat does better without and which it can ignore; empty without
    restricted play."""
    doc = info.get("restricted") or {}
    lines = summary(doc)[1:]
    if not lines:
        return []
    lines.append(
        f"{field_text(doc)}, each seat barred in turn, {doc.get('games', 0):,} paired games "
        "a thing; every thing's row in tables/restricted_play.csv."
    )
    return [("Restricted play: what a seat can and cannot do without", lines)]


def _join(items: list[str], limit: int = 10) -> str:
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    items = items[:limit]
    if more or len(items) < 2:
        return ", ".join(items) + more
    return ", ".join(items[:-1]) + " and " + items[-1]


# --------------------------------------------------------------------------- tables


def restricted_table(info: dict) -> pd.DataFrame:
    """One row per thing barred (or forced): ``thing``, ``label``, ``group``, ``forced``,
    ``effect`` (win points for the barred seat, barred − free, paired), ``low``,
    ``high`` (95%), ``p``, ``p_holm`` (Holm over the things), ``significant``,
    ``verdict``, ``pairs``, ``win_free``, ``win_barred``, ``score_effect`` (points
    of score) with its interval; ranked by effect (the costliest first)."""
    import pandas as pd

    doc = info.get("restricted") or {}
    rows = doc.get("rows") or []
    if not rows:
        return pd.DataFrame()
    t = pd.DataFrame(rows)
    return t.sort_values(["effect", "thing"], kind="stable").reset_index(drop=True)


def report_tables(info: dict) -> dict[str, pd.DataFrame]:
    """``{"restricted_play": ...}`` when the run played restricted play, else {}."""
    t = restricted_table(info)
    return {TABLE: t} if len(t) else {}


def things_noun(doc: dict) -> str:
    """What was barred, in the singular: ``invention`` when all are inventions, else
    ``thing``."""
    groups = list(dict.fromkeys(r["group"] for r in doc.get("rows") or []))
    nouns = doc.get("nouns") or {}
    return nouns.get(groups[0], groups[0]) if len(groups) == 1 else "thing"


def field_text(doc: dict) -> str:
    """The field of players the numbers describe, in a few words: ``4 balanced players``."""
    strategies = doc.get("strategies") or []
    n = int(doc.get("players") or len(strategies))
    if strategies and len(set(strategies)) == 1:
        return f"{n} {strategies[0]} players"
    return f"{n} players ({', '.join(strategies)})" if strategies else f"{n} players"


# --------------------------------------------------------------------------- the question


def _dominance(tables, info, params) -> list[Finding]:
    doc = info.get("restricted") or {}
    t = restricted_table(info)
    if not len(t):
        return []
    field = field_text(doc)
    players = int(doc.get("players") or 0)
    out = []
    head = summary(doc)
    for i, row in enumerate(t.to_dict(orient="records")):
        text = row_sentence(row, players, field)
        if i == 0 and head:
            text = f"{head[0]} {text}"
        out.append(
            difference_finding(
                "dominance",
                str(row["label"]),
                f"win rate {_doing(row)} ({field})",
                text,
                row["effect"] / 100,
                row["low"] / 100,
                row["high"] / 100,
                row["pairs"],
                row["win_free"],
                "paired games",
                "share",
            )
        )
    return out


def _heading(info: dict, params: dict) -> str | None:
    doc = info.get("restricted") or {}
    groups = list(dict.fromkeys(r["group"] for r in doc.get("rows") or []))
    nouns = doc.get("nouns") or {}
    what = " and ".join(nouns.get(g, g) for g in groups) or "thing"
    return (
        f"What does a seat lose when barred from each {what}? (restricted play: the same "
        "games with nothing barred, each seat barred in turn)"
    )


DOMINANCE = Question(
    "dominance",
    "Is there one thing a seat cannot do without? (restricted play)",
    _dominance,
    PARAMS,
    heading=_heading,
)


def holm_rows(rows: list[dict]) -> list[dict]:
    """``p_holm`` and ``significant`` (Holm over the rows, 5%), and the verdict."""
    from analyzer.core.stats import holm

    if not rows:
        return rows
    adj = holm([r["p"] for r in rows])
    out = []
    for r, a in zip(rows, adj, strict=True):
        a = float(a)
        sig = bool(math.isfinite(a) and a < 0.05)
        out.append(
            {
                **r,
                "p_holm": a,
                "significant": sig,
                "verdict": verdict(r["effect"], r["low"], r["high"], sig, r.get("forced", False)),
            }
        )
    return out
