"""The strategy landscape's questions: the meta-game's equilibrium, the skill
gradient and drama, answered in words with intervals.

The studies (:mod:`analyzer.studies.equilibrium`, :mod:`analyzer.studies.skill`,
:mod:`analyzer.studies.drama`, played by :mod:`analyzer.studies.landscape`) keep
their results in the manifest: ``ladder`` (with ``equilibrium``,
``equilibrium_interval``, ``entropy``), ``skill`` and ``drama``. The questions
here read those (they never play a game) and answer only when a scenario asks
them by name (``questions = ["equilibrium", "skill", "drama"]``): a ladder's
own notes already say its equilibrium. Every finding names the field of
players it describes.
"""

from __future__ import annotations

import math

from analyzer.tables.answers import difference_finding, rate_finding
from analyzer.tables.finding import Finding, Question

#: a share below this is "not played" in words (the LP's zeros are exact, its others not)
SUPPORT = 0.005
#: the skill gradient's default bar above a fair share (the study records its own)
CLEAR_EDGE = 0.10


# --------------------------------------------------------------------------- equilibrium


def _share_text(doc: dict, s: str, with_interval: bool = True) -> str:
    x = doc["equilibrium"][s]
    lo, hi = (doc.get("equilibrium_interval") or {}).get(s, [None, None])
    text = f"{s} {100 * x:.0f}%"
    if with_interval and lo is not None and hi is not None:
        text += f" [{100 * lo:.0f}, {100 * hi:.0f}]"
    return text


def field_words(doc: dict) -> str:
    """The field an equilibrium describes: ``the 5 strategies random, ... at 2 players``."""
    names = list(doc["strategies"])
    n = doc["players"]
    how = "head to head" if n == 2 else f"one seat against a field of {n - 1}"
    return f"the {len(names)} strategies {', '.join(names)} at {n} players ({how})"


def _meta_field(doc: dict) -> str:
    """The meta-game's field in a few words: ``5 strategies at 2 players, head to head``."""
    n = doc["players"]
    how = "head to head" if n == 2 else f"one seat against a field of {n - 1}"
    return f"{len(doc['strategies'])} strategies at {n} players, {how}"


def equilibrium_sentences(doc: dict) -> list[str]:
    """What the meta-game says, in words (``doc``: a ladder's ``ladder.json``), or
    [] for a ladder saved before it had an equilibrium."""
    eq = doc.get("equilibrium")
    if not eq:
        return []
    order = sorted(eq, key=lambda s: -eq[s])
    played = [s for s in order if eq[s] >= SUPPORT]
    games = doc.get("games_total")
    over = f" over {games:,} games" if games else ""
    where = f"Among {field_words(doc)}{over}"
    lo_hi = doc.get("equilibrium_interval") or {}
    if len(played) == 1:
        s = played[0]
        lo = (lo_hi.get(s) or [None])[0]
        text = (
            f"{where}, {s} dominates: the equilibrium of the strategy meta-game plays it "
            f"alone ({_share_text(doc, s)}), as no other strategy does as well against it"
        )
        rivals = [
            x for x in order if x != s and ((lo_hi.get(x) or [0, 0])[1] or 0) >= 0.05
        ]  # fmt: skip
        if lo is not None and lo < 0.5 and rivals:
            ranges = ", ".join(
                f"{x} [{100 * lo_hi[x][0]:.0f}, {100 * lo_hi[x][1]:.0f}]" for x in rivals
            )
            text += (
                f"; but these games do not settle it: in resampled games {ranges} "
                f"take a share of the mix or its place (simultaneous 95% intervals)"
            )
        out = [text + "."]
    else:
        parts = [_share_text(doc, s) for s in played]
        mix = ", ".join(parts[:-1]) + f" and {parts[-1]}"
        out = [
            f"{where}, no strategy dominates: an equilibrium of the strategy meta-game "
            f"mixes {mix} (simultaneous 95% bootstrap intervals); no strategy does better "
            "than even against that mix."
        ]
    ent = doc.get("entropy")
    if ent is not None:
        ei = doc.get("entropy_interval") or [None, None]
        text = f"Its entropy is {ent:.2f} bits"
        if ei[0] is not None:
            text += f" [{ei[0]:.2f}, {ei[1]:.2f}]"
        text += (
            f" (0 for one strategy, {math.log2(len(eq)):.2f} for all {len(eq)} in equal "
            f"shares): about {2**ent:.1f} strategies' worth of diversity."
        )
        out.append(text)
    return out


# --------------------------------------------------------------------------- skill


def _pct(x) -> str:
    return f"{100 * x:.0f}%"


def _iv(lo, hi) -> str:
    return f"[{100 * lo:.0f}, {100 * hi:.0f}]"


def step_text(s: dict) -> str:
    return (
        f"{s['stronger']} beats {s['weaker']} {_pct(s['win_share'])} "
        f"{_iv(s['low'], s['high'])} of the time"
    )


def _where(n: int) -> str:
    who = "head to head" if n == 2 else f"one seat against a field of {n - 1}"
    return f"at {n} players ({who}; fair share {_pct(1 / n)})"


def skill_headline(doc: dict) -> tuple[str, int]:
    """The skill gradient's verdict in one sentence (skill matters / luck decides /
    not settled) and the index of the step it rests on."""
    steps = doc["steps"]
    n = doc["players"]
    bar = 1 / n + doc.get("clear_edge", CLEAR_EDGE)
    where = _where(n)
    sensible = [i for i, s in enumerate(steps) if s["weaker"] != "random"] or list(
        range(len(steps))
    )
    clear = [i for i in sensible if steps[i]["verdict"] == "skill matters"]
    # the step of the verdict: a clear edge, else the best measured sensible step
    main = max(sensible, key=lambda i: steps[i]["seat_games"])
    if clear:
        # the best measured of the clear steps (the tuned player against the yardstick,
        # not a search rung of a few dozen games), then the clearest
        best = max(clear, key=lambda i: (steps[i]["seat_games"], steps[i]["low"]))
        text = (
            f"Skill matters {where}: {step_text(steps[best])}, clearly more than "
            f"{_pct(bar)} (the bar: a fair share plus {100 * (bar - 1 / n):.0f} points)."
        )
        return text, best
    listed = "; ".join(step_text(steps[i]) for i in sensible)
    if all(steps[i]["verdict"] == "luck decides" for i in sensible):
        text = (
            f"Luck decides {where}: past random play a better player gains little: {listed}, "
            f"each clearly below {_pct(bar)} (a fair share plus "
            f"{100 * (bar - 1 / n):.0f} points)."
        )
    else:
        text = (
            f"Not settled {where}: {listed}; these games cannot tell whether the edge "
            f"reaches {_pct(bar)} (a fair share plus {100 * (bar - 1 / n):.0f} points)."
        )
    return text, main


def chance_sentence(doc: dict, index: int) -> str:
    """Chance's share of the outcome's variance in step ``index``, or ''."""
    s = doc["steps"][index]
    if s.get("chance_share") is None:
        return ""
    how = (
        "the game's luck terms"
        if s["chance_method"] == "luck terms"
        else "replaying the same deals with the players swapped"
    )
    text = (
        f"Chance alone explains {_pct(s['chance_share'])} "
        f"{_iv(s['chance_low'], s['chance_high'])} of the outcome's variance in "
        f"{s['stronger']} against {s['weaker']} (by {how})"
    )
    if s.get("skill_share") is not None and s.get("skill_low") is not None:
        text += (
            f"; which player sits first, the players' difference, "
            f"{_pct(s['skill_share'])} {_iv(s['skill_low'], s['skill_high'])}"
        )
    if s["chance_method"] == "luck terms" and s.get("deal_share") is not None:
        text += (
            f"; the deal alone, replayed with the players swapped, "
            f"{_pct(s['deal_share'])} {_iv(s['deal_low'], s['deal_high'])}"
        )
    return text + "."


def step_sentence(doc: dict, s: dict) -> str:
    """One step in words with its field and verdict."""
    tail = f", {s['games']} games a line-up" if s["stronger"] == "search" else ""
    return f"At {s['players']} players ({s['field']}{tail}), {step_text(s)}: {s['verdict']}."


def skill_sentences(doc: dict) -> list[str]:
    """The skill gradient in words: the verdict, chance's share beside it, each step,
    the search rung's size. ``doc``: :meth:`analyzer.studies.skill.SkillGradient.as_dict`."""
    steps = doc.get("steps") or []
    if not steps:
        return []
    head, main = skill_headline(doc)
    out = [head]
    chance = chance_sentence(doc, main)
    if chance:
        out.append(chance)
    out += [step_sentence(doc, s) for s in steps]
    if doc.get("search_params") and any(s["stronger"] == "search" for s in steps):
        params = ", ".join(f"{k} {v:g}" for k, v in doc["search_params"].items())
        out.append(
            f"The search rung plays {doc['search_games_per_lineup']} games a line-up "
            f"({params}): a small sample, its interval wide."
        )
    return out


# --------------------------------------------------------------------------- drama


def _field_of(row: dict) -> str:
    names = [x.strip() for x in str(row.get("field", "")).split(",") if x.strip()]
    uniq = list(dict.fromkeys(names))
    return f"{uniq[0]} in every seat" if len(uniq) == 1 else ", ".join(names)


def drama_sentences(doc: dict) -> list[str]:
    """Drama and decisiveness in words, one paragraph per player count."""
    out = []
    for r in doc.get("rows") or []:
        n = r["players"]
        where = f"At {n} players ({_field_of(r)}; {r['games']:,} games traced)"
        text = (
            f"{where} the lead changes {r['lead_changes']:.1f} "
            f"[{r['lead_changes_low']:.1f}, {r['lead_changes_high']:.1f}] times a game "
            f"(at least once in {_pct(r['any_change_share'])} "
            f"{_iv(r['any_change_low'], r['any_change_high'])} of games); the leader at "
            f"half-time wins {_pct(r['half_leader_wins'])} "
            f"{_iv(r['half_leader_low'], r['half_leader_high'])}. "
        )
        share = r.get("decided_at_share")
        late = r.get("leader_wins_at_90pct")
        if share is None or not math.isfinite(share) or share >= 1:
            text += (
                f"No point before the end decides it: the leader nine tenths of the way "
                f"through wins {_pct(late)} of games, fewer than nine in ten."
                if late is not None and math.isfinite(late)
                else "No point before the end decides it."
            )
        else:
            text += (
                f"It is decided {_pct(share)} of the way through (after turn "
                f"{int(r['decided_at_turn'])} of {r['mean_turns']:.0f} on average): from "
                f"then on the leader wins {_pct(r['decided_rate'])} "
                f"{_iv(r['decided_low'], r['decided_high'])} or more."
            )
        text += (
            f" The winner leads by {r['margin']:.1f} [{r['margin_low']:.1f}, "
            f"{r['margin_high']:.1f}] points at the end ({_pct(r['relative_margin'])} of its "
            f"score); {_pct(r['close_share'])} {_iv(r['close_low'], r['close_high'])} of "
            f"games are won by at most {_pct(doc.get('close', 0.05))} of the winner's score."
        )
        out.append(text)
    if doc.get("not_measured"):
        counts = ", ".join(str(n) for n in doc["not_measured"])
        out.append(f"Not measured at {counts} players: this game's trace gives no running score.")
    return out


# --------------------------------------------------------------------------- questions


def _asked(info: dict, qid: str) -> bool:
    """Whether the run's scenario asked question ``qid`` by name (the landscape's
    questions answer only then)."""
    asked = (info.get("scenario") or {}).get("questions") or []
    return any(q.get("id") == qid for q in asked)


def _equilibrium(tables, info, params) -> list[Finding]:
    doc = info.get("ladder") or {}
    eq = doc.get("equilibrium")
    if not _asked(info, "equilibrium") or not eq:
        return []
    words = equilibrium_sentences(doc)
    order = sorted(eq, key=lambda s: -eq[s])
    played = [s for s in order if eq[s] >= SUPPORT] or order[:1]
    out = []
    n_games = int(doc.get("games_total") or 0)
    for i, s in enumerate(played):
        lo, hi = (doc.get("equilibrium_interval") or {}).get(s) or [math.nan, math.nan]
        lo = math.nan if lo is None else lo
        hi = math.nan if hi is None else hi
        text = " ".join(words) if i == 0 else (
            f"{s} plays {_pct(eq[s])} {_iv(lo, hi)} of the equilibrium mix among "
            f"{field_words(doc)}."
        )  # fmt: skip
        out.append(
            difference_finding(
                "equilibrium",
                f"ladder, {doc['players']} players",
                f"equilibrium share of {s} ({_meta_field(doc)})",
                text,
                eq[s],
                lo,
                hi,
                n_games,
                1.0,
                "games",
                "share",
            )
        )
    return out


def _skill(tables, info, params) -> list[Finding]:
    """One finding: the verdict's step, its words carrying chance's share and the
    other steps (each row of ``tables/skill_gradient.csv``)."""
    doc = info.get("skill") or {}
    steps = doc.get("steps") or []
    if not _asked(info, "skill") or not steps:
        return []
    head, main = skill_headline(doc)
    s = steps[main]
    words = [head, step_sentence(doc, s)]
    chance = chance_sentence(doc, main)
    if chance:
        words.append(chance)
    others = [x for i, x in enumerate(steps) if i != main]
    if others:
        words.append(
            "The other steps: "
            + "; ".join(
                step_text(x) + f" ({x['field']}" + (f", {x['games']} games a line-up"
                                if x["stronger"] == "search" else "") + f"), {x['verdict']}"
                for x in others
            )
            + "."
        )  # fmt: skip
    return [
        rate_finding(
            "skill",
            f"{s['stronger']} vs {s['weaker']}",
            f"{s['stronger']}'s win share against {s['weaker']} ({s['field']})",
            " ".join(words),
            s["win_share"],
            s["low"],
            s["high"],
            s["seat_games"],
            s["fair"],
            "seat-games",
        )
    ]


def _drama(tables, info, params) -> list[Finding]:
    """One finding: the scenario's own player count in full (its lead changes the
    estimate), the other counts in a line each (every row in ``tables/drama.csv``)."""
    doc = info.get("drama") or {}
    rows = doc.get("rows") or []
    if not _asked(info, "drama") or not doc:
        return []
    words = drama_sentences(doc)
    if not rows:  # not measured: the question says so, with nothing to test
        nan = math.nan
        return [
            Finding("drama", "not measured", "lead changes a game", " ".join(words), nan, nan,
                    nan, 0, "games", 0.0, nan, nan, nan, unit="changes")
        ]  # fmt: skip
    own = (info.get("scenario") or {}).get("players")
    main = next((i for i, r in enumerate(rows) if r["players"] == own), 0)
    r = rows[main]
    text = words[main]
    others = [x for i, x in enumerate(rows) if i != main]
    if others:
        text += (
            " Other player counts: "
            + "; ".join(
                f"{x['players']} players ({_field_of(x)}) {x['lead_changes']:.1f} "
                f"[{x['lead_changes_low']:.1f}, {x['lead_changes_high']:.1f}] lead changes a game, "
                f"the half-time leader wins {_pct(x['half_leader_wins'])} "
                f"{_iv(x['half_leader_low'], x['half_leader_high'])}, "
                + (
                    "decided only at the end"
                    if not x.get("decided_at_share") or x["decided_at_share"] >= 1
                    else f"decided {_pct(x['decided_at_share'])} of the way through"
                )
                for x in others
            )
            + "."
        )
    return [
        difference_finding(
            "drama",
            f"{r['players']} players",
            f"lead changes a game at {r['players']} players ({_field_of(r)})",
            text,
            r["lead_changes"],
            r["lead_changes_low"],
            r["lead_changes_high"],
            r["games"],
            1.0,
            "games",
            "changes",
        )
    ]


EQUILIBRIUM = Question(
    "equilibrium", "Does one strategy dominate, or which mix of strategies is stable?",
    _equilibrium,
)  # fmt: skip
SKILL = Question("skill", "Does skill matter, or does luck decide?", _skill)
DRAMA = Question("drama", "How often does the lead change, and when is the game decided?", _drama)

#: the landscape's questions, answered only when a scenario names them
LANDSCAPE = (EQUILIBRIUM, SKILL, DRAMA)
