"""The strategy landscape inside ``analyzer run``: a scenario's questions
``equilibrium``, ``skill`` and ``drama`` played as studies.

A scenario asks them by name (``questions = ["equilibrium", "skill", "drama"]``,
with its own games: see ``scenarios/unearth_landscape.toml``). After the
scenario's own games, :func:`run_landscape` plays what the questions need, every
part sized from the scenario's ``games`` (so ``analyzer run … --games N`` scales
all of it), with its seed, rules, ``[strategy_params]`` and player count:

- ``equilibrium``: a ladder of the game's strategies (:func:`analyzer.studies.ratings.ladder`;
  every one but the slow ``search``), ``games`` games per line-up, unless the
  scenario has its own ``[ladder]``; its ``ladder.json`` holds the meta-game's
  equilibrium (:mod:`analyzer.studies.equilibrium`);
- ``skill``: the skill gradient (:mod:`analyzer.studies.skill`), ``games`` games
  per line-up, the ``search`` rung ``games // SEARCH_DIVISOR`` (at least
  :data:`MIN_SEARCH_GAMES`) per line-up at the scenario's ``strategy_params.search``;
- ``drama``: :mod:`analyzer.studies.drama`, ``games // DRAMA_DIVISOR`` traced
  games (at least :data:`MIN_DRAMA_GAMES`) at each player count from 2 to the
  game's most (at most :data:`MAX_DRAMA_PLAYERS`), the scenario's field where it
  names one for that count, else the game's default player in every seat.

The results go into the manifest (``ladder``, ``skill``, ``drama``), where the
questions (:mod:`analyzer.tables.landscape`) read them, and
:func:`report_tables` makes ``tables/skill_gradient.csv`` and ``tables/drama.csv``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import pandas as pd

#: the question ids this module plays studies for
QUESTION_IDS = ("equilibrium", "skill", "drama")
#: the search rung's games per line-up: the scenario's games divided by this
SEARCH_DIVISOR = 40
MIN_SEARCH_GAMES = 4
#: traced games per player count: the scenario's games divided by this
DRAMA_DIVISOR = 2
MIN_DRAMA_GAMES = 20
MAX_DRAMA_PLAYERS = 5


def asked(sc) -> list[str]:
    """The landscape question ids the scenario asks, in :data:`QUESTION_IDS` order."""
    ids = {q["id"] for q in sc.questions}
    return [q for q in QUESTION_IDS if q in ids]


def sizes(sc) -> dict:
    """The games each part plays at the scenario's ``games``."""
    g = int(sc.games)
    return {
        "ladder_games": max(g, 2),
        "skill_games": max(g, 2),
        "search_games": max(g // SEARCH_DIVISOR, MIN_SEARCH_GAMES),
        "drama_games": max(g // DRAMA_DIVISOR, MIN_DRAMA_GAMES),
    }


def _say(progress: bool) -> Callable[[str], None] | None:
    if not progress:
        return None

    def say(line: str) -> None:
        try:
            print(line, file=sys.stderr, flush=True)
        except (OSError, ValueError):  # stderr closed: progress is not worth failing for
            pass

    return say


def run_landscape(
    sc, seed: int, *, workers: int | None = None, progress: bool = True
) -> dict[str, dict]:
    """Play the studies the scenario's landscape questions need; ``{}`` if it asks
    none. Returns the manifest's new keys (``ladder``, ``skill``, ``drama``)."""
    ids = asked(sc)
    if not ids:
        return {}
    say = _say(progress)
    size = sizes(sc)
    g = sc.game_def
    rulings = dict(sc.rulings) or None
    overrides = dict(sc.overrides) or None
    params = sc.strategy_params or None
    out: dict[str, dict] = {}
    if "equilibrium" in ids and sc.ladder is None:
        from analyzer.core.invocation import command_line
        from analyzer.studies.ratings import ladder
        from analyzer.studies.sections import ladder_doc

        t0 = time.perf_counter()
        result = ladder(
            g.name,
            sc.players,
            None,
            size["ladder_games"],
            seed,
            rulings=rulings,
            overrides=overrides,
            strategy_params=params,
            workers=workers,
            progress=say,
            command=command_line(),
            luck=sc.luck,  # absent (None): the game's default (off)
        )
        out["ladder"] = ladder_doc(result, time.perf_counter() - t0)
    if "skill" in ids:
        from analyzer.studies.skill import skill_gradient

        t0 = time.perf_counter()
        result = skill_gradient(
            g.name,
            sc.players,
            size["skill_games"],
            seed,
            search_games=size["search_games"],
            rulings=rulings,
            overrides=overrides,
            strategy_params=params,
            workers=workers,
            progress=say,
        )
        out["skill"] = {**result.as_dict(), "seconds": round(time.perf_counter() - t0, 3)}
    if "drama" in ids:
        from analyzer.studies.drama import drama

        t0 = time.perf_counter()
        rules = g.load_rules(dict(sc.rulings), dict(sc.overrides), f"{sc.path}: rules")
        lo, hi = g.player_range(rules)
        counts = list(range(max(lo, 2), min(hi, MAX_DRAMA_PLAYERS) + 1))
        fields = {}
        if sc.strategies:  # the scenario's own field at its player count
            own = tuple(sc.strategies)
            fields[sc.players] = own * sc.players if len(own) == 1 else own
        result = drama(
            g.name,
            counts,
            size["drama_games"],
            seed,
            strategies=fields,
            rulings=rulings,
            overrides=overrides,
            strategy_params=params,
            progress=say,
        )
        out["drama"] = {**result.as_dict(), "seconds": round(time.perf_counter() - t0, 3)}
    return out


def report_tables(info: dict) -> dict[str, pd.DataFrame]:
    """``skill_gradient`` and ``drama`` (those the run has), for ``tables/*.csv``."""
    from analyzer.studies.drama import report_table as drama_table
    from analyzer.studies.skill import report_table as skill_table

    out = {}
    if info.get("skill"):
        out["skill_gradient"] = skill_table(info["skill"])
    if info.get("drama") and info["drama"].get("rows"):
        out["drama"] = drama_table(info["drama"])
    return out


def settings_lines(info: dict) -> list[str]:
    """Lines for the report's settings (``key   value``)."""
    lines = []
    sk = info.get("skill")
    if sk:
        search = ""
        if "search" in sk["rungs"]:
            p = ", ".join(f"{k} {v:g}" for k, v in (sk.get("search_params") or {}).items())
            search = f", search {sk['search_games_per_lineup']:,} games a line-up ({p})"
        lines.append(
            f"skill           rungs {' < '.join(sk['rungs'])} at {sk['players']} players: "
            f"{sk['games_per_lineup']:,} games a line-up{search}, seed {sk['seed']}"
            + (f", {sk['seconds']:.1f} s" if sk.get("seconds") is not None else "")
            + "; file tables/skill_gradient.csv"
        )
    dr = info.get("drama")
    if dr:
        lines.append(
            f"drama           {dr['games_per_count']:,} traced games at each of "
            f"{', '.join(str(n) for n in dr['players'])} players, seed {dr['seed']}"
            + (f", {dr['seconds']:.1f} s" if dr.get("seconds") is not None else "")
            + ("; file tables/drama.csv" if dr.get("rows") else "; not measured")
        )
    return lines


def _pct(v, lo=None, hi=None) -> str:
    if v is None:
        return "–"
    text = f"{100 * v:.1f}%"
    if lo is not None and hi is not None:
        text += f" [{100 * lo:.1f}, {100 * hi:.1f}]"
    return text


def skill_display(doc: dict) -> pd.DataFrame:
    """The skill gradient for reading: one row per step, its win share and chance's
    share with their 95% intervals."""
    rows = []
    for s in doc.get("steps") or []:
        rows.append(
            {
                "step": f"{s['stronger']} vs {s['weaker']}",
                "field": s["field"],
                "games a line-up": f"{s['games']:,}",
                "win share [95% CI]": _pct(s["win_share"], s["low"], s["high"]),
                "verdict": s["verdict"],
                "chance's share [95% CI]": _pct(
                    s.get("chance_share"), s.get("chance_low"), s.get("chance_high")
                ),
                "by": s["chance_method"],
                "the deal's share [95% CI]": _pct(
                    s.get("deal_share"), s.get("deal_low"), s.get("deal_high")
                ),
            }
        )
    return pd.DataFrame(rows)


def drama_display(doc: dict) -> pd.DataFrame:
    """Drama for reading: one row per player count."""
    rows = []
    for r in doc.get("rows") or []:
        share = r.get("decided_at_share")
        decided = (
            "at the end"
            if share is None or share >= 1
            else f"{100 * share:.0f}% of the way (turn {int(r['decided_at_turn'])})"
        )
        rows.append(
            {
                "players": r["players"],
                "games": f"{r['games']:,}",
                "lead changes a game [95% CI]": f"{r['lead_changes']:.2f} "
                f"[{r['lead_changes_low']:.2f}, {r['lead_changes_high']:.2f}]",
                "games with a change": _pct(r["any_change_share"]),
                "half-time leader wins": _pct(
                    r["half_leader_wins"], r["half_leader_low"], r["half_leader_high"]
                ),
                "leader wins 9 in 10 from": decided,
                "final margin, points": f"{r['margin']:.1f} [{r['margin_low']:.1f}, "
                f"{r['margin_high']:.1f}]",
                "won by ≤5%": _pct(r["close_share"], r["close_low"], r["close_high"]),
            }
        )
    return pd.DataFrame(rows)


def display_items(info: dict) -> list[tuple[str, pd.DataFrame, str, str]]:
    """``[(name, display table, title, note)]`` of the skill gradient and drama, for
    the PDF's and the HTML page's tables."""
    items = []
    sk = info.get("skill")
    if sk and sk.get("steps"):
        n = sk["players"]
        items.append(
            (
                "skill_gradient",
                skill_display(sk),
                "Skill gradient: each rung against the one below",
                f"one seat of the stronger rung against {n - 1} of the weaker, seats rotated, "
                f"the same deals; skill matters from {100 / n + 100 * sk['clear_edge']:.0f}%; "
                "Wilson and bootstrap 95% intervals",
            )
        )
    dr = info.get("drama")
    if dr and dr.get("rows"):
        items.append(
            (
                "drama",
                drama_display(dr),
                "Drama and decisiveness",
                "the leader: the single top score if the game ended then; games traced "
                "per player count; normal and Wilson 95% intervals",
            )
        )
    return items
