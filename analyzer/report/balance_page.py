"""Page 1 of a balance run: what a scenario's ``[balance]`` found, in words.

Drawn from the manifest's ``balance`` entry alone (the content of ``balance.json``;
docs/balancing.md, "Reading the answer"), so ``analyzer report DIR`` draws it again
without playing a game. The same blocks of words make the PDF's first page
(:func:`answer_pages`), the top of ``report.html`` and of ``summary.md``
(:func:`answer_markdown`): the verdict first, then the recommended change against
the printed values, fairness before and after per player count, whether it holds
after re-tuning, what it costs, what was held fixed, the certificate, what each knob
does, the field of players, the method and the games used.

People's words: seats counted from 1 ("first player"), win rates and their gaps
in win points (the JSON keeps fractions), knobs by their labels; an override path
shows once, in the line for scripts. Every key but ``recommended`` may be absent
or ``null``; what is missing is left out, never printed as ``None``.
"""

from __future__ import annotations

import json
import math
import re

import pandas as pd

from analyzer.report.words import ordinal_player

#: the file in a report folder holding the answer (the manifest's ``balance``, whole)
BALANCE_JSON = "balance.json"
#: the table of every candidate the search evaluated (written by the library)
CANDIDATES_CSV = "tables/balance_candidates.csv"

#: measures whose values are win rates or their gaps (fractions; shown in win points)
SHARE_MEASURES = frozenset({"seat_fairness", "strategy_viability", "restricted"})
#: units that say a value is a share of games (shown in win points)
SHARE_UNITS = frozenset({"win points", "win rate", "share", "points of win rate"})
#: the costs a balance reports, in words
COST_NAMES = {"length": "Game length", "score_spread": "Score spread"}


def doc_of(info: dict) -> dict | None:
    """The run's balance answer (the manifest's ``balance``), or None."""
    doc = info.get("balance")
    return doc if isinstance(doc, dict) and doc else None


# --------------------------------------------------------------------------- numbers


def _finite(x) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def is_share(obj: dict | None, objective_id: str = "") -> bool:
    """True when an objective's values are win rates or gaps (fractions)."""
    if obj:
        if obj.get("measure") in SHARE_MEASURES:
            return True
        if obj.get("unit") is not None:
            return str(obj["unit"]).lower() in SHARE_UNITS
        return False
    return bool(re.search(r"(fair|gap|rate|viab)", objective_id))


def objective(doc: dict, objective_id: str) -> dict | None:
    """The objective of ``doc`` with id ``objective_id`` (None if not declared)."""
    for obj in doc.get("objectives") or []:
        if isinstance(obj, dict) and obj.get("id") == objective_id:
            return obj
    return None


def objective_label(doc: dict, objective_id: str) -> str:
    """An objective in words: its declared label, else words from its id
    (``seat_4_rate_4p``: "fourth player's win rate at 4 players")."""
    obj = objective(doc, objective_id)
    if obj and obj.get("label"):
        return str(obj["label"])
    m = re.fullmatch(r"seat_(\d+)_rate_(\d+)p", objective_id)
    if m:
        return f"{ordinal_player(int(m.group(1)) - 1)}'s win rate at {m.group(2)} players"
    m = re.fullmatch(r"(?:fairness|seat_fairness)_(\d+)p", objective_id)
    if m:
        return f"largest gap from a fair share at {m.group(1)} players"
    m = re.fullmatch(r"seat_gap_(\d+)p", objective_id)
    if m:
        return f"seat gap at {m.group(1)} players"
    return objective_id.replace("_", " ")


def objective_unit(doc: dict, objective_id: str) -> str:
    """The unit an objective is shown in: ``win points`` for shares, else its own."""
    obj = objective(doc, objective_id)
    if is_share(obj, objective_id):
        return "win points"
    return str(obj.get("unit") or "") if obj else ""


def _decimals(v: float) -> int:
    a = abs(v)
    return 0 if a >= 1000 else (1 if a >= 1 or a == 0 else 2)


def number(v, share: bool, signed: bool = False, decimals: int | None = None) -> str:
    """A value for reading: a share in win points (one decimal), else 1–2 decimals
    (``decimals`` when given)."""
    if not _finite(v):
        return "n/a"
    x = 100 * v if share else float(v)
    d = decimals if decimals is not None else (1 if share else _decimals(x))
    if round(x, d) == 0:
        x = 0.0  # no negative zero
    return f"{x:+,.{d}f}" if signed else f"{x:,.{d}f}"


def decimals_of(e: dict, share: bool) -> int:
    """Decimals that tell an estimate's interval ends apart (one for win points)."""
    if share:
        return 1
    lo, hi = e.get("low"), e.get("high")
    if float(e["value"]).is_integer() and not (_finite(lo) and _finite(hi) and lo != hi):
        return 0  # a count (steps, turns) measured without spread
    d = _decimals(float(e["value"]))
    if _finite(lo) and _finite(hi) and hi > lo and d < 3:
        d = max(d, min(3, math.ceil(-math.log10((hi - lo) / 2) - 1e-9)))
    return d


def estimate_text(e, share: bool, unit: str = "", signed: bool = False) -> str:
    """``2.1 [1.2, 3.0] win points`` from ``{"value", "low", "high"}`` (a bare number
    without its interval; "n/a" when there is none)."""
    if _finite(e):
        e = {"value": e}
    if not isinstance(e, dict) or not _finite(e.get("value")):
        return "n/a"
    ranged = _finite(e.get("low")) and _finite(e.get("high")) and e["low"] != e["high"]
    d = decimals_of(e, share)
    text = number(e["value"], share, signed, d)
    if ranged:
        text += f" [{number(e['low'], share, signed, d)}, {number(e['high'], share, signed, d)}]"
    unit = unit or (e.get("unit") or "")
    return f"{text} {unit}".strip()


def rate_text(r: dict) -> str:
    """A seat's win rate: ``27.1% [26.2, 28.0]``."""
    if not isinstance(r, dict) or not _finite(r.get("rate")):
        return "n/a"
    text = f"{100 * r['rate']:.1f}%"
    if _finite(r.get("low")) and _finite(r.get("high")):
        text += f" [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"
    return text


def count_words(counts) -> str:
    """``2, 3 and 4``."""
    c = [str(x) for x in counts]
    return c[0] if len(c) == 1 else ", ".join(c[:-1]) + " and " + c[-1]


def _cap(text: str) -> str:
    text = str(text).strip()
    return text[:1].upper() + text[1:]


def _sentence(text: str) -> str:
    text = _cap(text)
    return text if text.endswith((".", "!", "?")) or not text else text + "."


# --------------------------------------------------------------------------- knobs


def knobs(doc: dict) -> list[dict]:
    """The knobs, each a dict with at least ``path`` (the recommended ones first
    declared; knobs the answer names but does not declare get a bare entry)."""
    out = [k for k in doc.get("knobs") or [] if isinstance(k, dict) and k.get("path")]
    seen = {k["path"] for k in out}
    for path in doc.get("recommended") or {}:
        if path not in seen:
            out.append({"path": path})
    return out


def knob_label(knob: dict) -> str:
    """A knob in people's words: its label, or its path when it has none."""
    label = knob.get("label")
    return str(label) if label and label != knob["path"] else str(knob["path"])


def has_label(knob: dict) -> bool:
    return knob_label(knob) != knob["path"]


def value_text(knob: dict, v) -> str:
    """A knob's value as printed on a card: an integer knob's as an integer."""
    if v is None:
        return "n/a"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if knob.get("kind") == "int" and _finite(v) and float(v).is_integer():
        return f"{int(v)}"
    if _finite(v):
        return f"{v:g}" if not float(v).is_integer() else f"{int(v)}"
    return str(v)


def _interval_text(pair) -> str:
    if isinstance(pair, list | tuple) and len(pair) == 2 and all(_finite(x) for x in pair):
        return f"{pair[0]:.3g} to {pair[1]:.3g}"
    return ""


def range_text(knob: dict) -> str:
    """What the search could set a knob to: ``0 to 4 in steps of 1`` or the values."""
    values = knob.get("values")
    if isinstance(values, list) and values:
        return ", ".join(value_text(knob, v) for v in values)
    lo, hi, step = knob.get("low"), knob.get("high"), knob.get("step")
    if lo is None or hi is None:
        return ""
    text = f"{value_text(knob, lo)} to {value_text(knob, hi)}"
    return text + (f" in steps of {value_text(knob, step)}" if step is not None else "")


def change_lines(doc: dict) -> list[str]:
    """One line per knob: the recommended value against the printed one, with its
    95% interval where the knob has one."""
    rec = doc.get("recommended") or {}
    interval = doc.get("interval") or {}
    out = []
    for k in knobs(doc):
        path = k["path"]
        label = _cap(knob_label(k)) if has_label(k) else path  # a path keeps its case
        printed = k.get("printed")
        if path not in rec:
            out.append(f"{label}: unchanged at {value_text(k, printed)} (as printed).")
            continue
        new = rec[path]
        if printed is not None and new == printed:
            text = f"{label}: stays at {value_text(k, new)}, as printed"
        elif printed is None:
            text = f"{label}: {value_text(k, new)}"
        else:
            text = f"{label}: {value_text(k, printed)} printed → {value_text(k, new)}"
        span = _interval_text(interval.get(path))
        if span:
            text += f" (95% interval for the fair value: {span})"
        where = range_text(k)
        if where:
            text += f"; searched {where}"
        out.append(text + ".")
    return out


def changes(doc: dict) -> dict:
    """The knobs the answer changes, with their new values (empty: keep the printed)."""
    printed = {k["path"]: k.get("printed") for k in knobs(doc)}
    return {p: v for p, v in (doc.get("recommended") or {}).items() if v != printed.get(p)}


def overrides_text(doc: dict) -> str:
    """The recommended change as a scenario's ``[overrides]`` line (paths once; only
    the knobs it changes; "" when it keeps the printed values)."""
    rec = changes(doc)
    if not rec:
        return ""
    parts = ", ".join(f"{json.dumps(p)} = {json.dumps(v)}" for p, v in rec.items())
    return f"[overrides] {parts}" if len(rec) == 1 else f"[overrides] {{ {parts} }}"


# --------------------------------------------------------------------------- fairness


def player_counts(doc: dict) -> list[int]:
    """The player counts asked (else those the seat rates or objectives have)."""
    counts = [int(n) for n in doc.get("players") or [] if _finite(n)]
    if not counts:
        counts = sorted(int(n) for n in (doc.get("seat_rates") or {}) if str(n).isdigit())
    if not counts:
        counts = sorted(
            {int(o["players"]) for o in doc.get("objectives") or [] if _finite(o.get("players"))}
        )
    return counts


def fairness_objective(doc: dict, n: int) -> dict | None:
    """The seat-fairness objective at ``n`` players, if the question has one."""
    for o in doc.get("objectives") or []:
        if isinstance(o, dict) and o.get("measure") == "seat_fairness" and o.get("players") == n:
            return o
    return None


def seat_list(doc: dict, n: int, which: str) -> list[dict]:
    """The seats' win rates at ``n`` players, ``which`` of before/after/retuned."""
    per = (doc.get("seat_rates") or {}).get(str(n)) or (doc.get("seat_rates") or {}).get(n)
    rows = (per or {}).get(which) if isinstance(per, dict) else None
    return [r for r in rows or [] if isinstance(r, dict) and _finite(r.get("rate"))]


def worst_seat(rows: list[dict], n: int) -> dict | None:
    """The seat farthest from a fair share (``seat`` counted from 1)."""
    if not rows:
        return None
    return max(rows, key=lambda r: (round(abs(r["rate"] - 1 / n), 9), r["rate"]))


def _seat_words(r: dict | None) -> str:
    if not r or not _finite(r.get("seat")):
        return ""
    return f"{ordinal_player(int(r['seat']) - 1)} {100 * r['rate']:.1f}%"


def games_at(doc: dict, n: int) -> int | None:
    """Fresh games per design at ``n`` players (the fairness objective's, else the
    certificate's)."""
    o = fairness_objective(doc, n)
    for key in ("after", "before"):
        e = (doc.get(key) or {}).get(o["id"]) if o else None
        if isinstance(e, dict) and _finite(e.get("games")):
            return int(e["games"])
    cert = doc.get("certificate") or {}
    return int(cert["games"]) if _finite(cert.get("games")) else None


def fairness_lines(doc: dict) -> list[str]:
    """Per player count: the largest gap from a fair share printed, with the change
    and after re-tuning, with the seat it is at."""
    out = []
    for n in player_counts(doc):
        o = fairness_objective(doc, n)
        parts = []
        for key, words in _stages(doc, o["id"] if o else ""):
            e = ((doc.get(key) or {}).get(o["id"]) if o else None) or None
            w = worst_seat(seat_list(doc, n, key), n)
            if isinstance(e, dict) and _finite(e.get("value")):
                text = f"{words} {estimate_text(e, True)}"
            elif w:
                text = f"{words} {number(abs(w['rate'] - 1 / n), True)}"
            else:
                continue
            parts.append(text + (f" ({_seat_words(w)})" if w else ""))
        if not parts:
            continue
        games = games_at(doc, n)
        tail = f"; {games:,} fresh games each" if games else ""
        out.append(
            f"{n} players (fair share {_fair(n)}), largest gap from fair in win points: "
            + " → ".join(parts)
            + tail
            + "."
        )
    return out


def _stages(doc: dict, oid: str) -> list[tuple[str, str]]:
    """The designs an objective is shown at: printed, with the change, re-tuned. When
    the answer keeps the printed values, its "after" is the printed game again: said
    "as answered", and left out when it is the same as the printed figure."""
    if changes(doc):
        return [("before", "printed"), ("after", "with the change"), ("retuned", "re-tuned")]
    b, a = (doc.get("before") or {}).get(oid), (doc.get("after") or {}).get(oid)
    same = isinstance(b, dict) and isinstance(a, dict) and b.get("value") == a.get("value")
    after = [] if same else [("after", "as answered")]
    return [("before", "printed"), *after, ("retuned", "re-tuned")]


def _fair(n: int) -> str:
    x = 100 / n
    return f"{x:.0f}%" if abs(x - round(x)) < 1e-9 else f"{x:.1f}%"


def other_objective_lines(doc: dict) -> list[str]:
    """The objectives other than seat fairness: before → after (→ re-tuned)."""
    out = []
    for o in doc.get("objectives") or []:
        if not isinstance(o, dict) or not o.get("id") or o.get("measure") == "seat_fairness":
            continue
        oid = o["id"]
        share = is_share(o, oid)
        unit = objective_unit(doc, oid)
        parts = []
        for key, words in _stages(doc, oid):
            e = (doc.get(key) or {}).get(oid)
            if isinstance(e, dict) and _finite(e.get("value")):
                parts.append(f"{estimate_text(e, share, unit)} {words}")
        if not parts:
            continue
        want = _wanted(o, share, unit)
        out.append(f"{_cap(objective_label(doc, oid))}: " + " → ".join(parts) + want + ".")
    return out


def _wanted(o: dict, share: bool, unit: str) -> str:
    band = o.get("band")
    if isinstance(band, list | tuple) and len(band) == 2 and all(_finite(b) for b in band):
        return f" (wanted between {number(band[0], share)} and {number(band[1], share)} {unit})"
    if _finite(o.get("target")) and o.get("measure") not in ("seat_fairness", "edits"):
        return f" (target {number(o['target'], share)} {unit})"
    return ""


# --------------------------------------------------------------------------- re-tuning


def retune_lines(doc: dict) -> list[str]:
    """Whether the answer holds when the players are re-tuned at the new design,
    and how far re-tuning moves each seat-fairness objective."""
    rt = doc.get("retune")
    retuned = doc.get("retuned") or {}
    if not isinstance(rt, dict) or not rt.get("done"):
        return [
            "The players were not re-tuned at the new design (retune = false): the answer "
            "holds for the players as shipped."
        ]
    rounds = rt.get("rounds")
    how = f"{rt.get('strategy') or 'the field'} re-tuned"
    how += " at the new design" if changes(doc) else ""
    if _finite(rounds):
        how += f", {int(rounds)} round{'s' if int(rounds) != 1 else ''}"
    if not changes(doc):
        head = f"Re-tuned at the printed values ({how})"
    elif rt.get("undone"):
        head = (
            f"Re-tuned players undid the first fix ({how}); the search went on from "
            "there, and the change above is where it ended"
        )
    else:
        head = f"It holds after re-tuning ({how})"
    note = rt.get("note")
    out = [head + (f": {note}" if note else "") + "."]
    gaps, others = [], []
    for o in doc.get("objectives") or []:
        if not isinstance(o, dict) or not o.get("id"):
            continue
        a, r = (doc.get("after") or {}).get(o["id"]), retuned.get(o["id"])
        if not (isinstance(a, dict) and isinstance(r, dict)):
            continue
        if not (_finite(a.get("value")) and _finite(r.get("value"))):
            continue
        if o.get("measure") == "edits":  # the players do not change the design
            continue
        share = is_share(o, o["id"])
        shift = number(r["value"] - a["value"], share, True, decimals_of(r, share))
        if o.get("measure") == "seat_fairness" and _finite(o.get("players")):
            gaps.append(f"{shift} at {int(o['players'])}")
        else:
            unit = objective_unit(doc, o["id"])
            others.append(f"{objective_label(doc, o['id'])} by {shift} {unit}".rstrip())
    parts = []
    if gaps:
        gaps[0] += " players" if len(gaps) == 1 else ""
        parts.append(
            "the largest gap from fair moves by "
            + count_words(gaps)
            + (" players" if len(gaps) > 1 else "")
            + " (win points)"
        )
    parts += others
    if parts:
        out.append(_sentence("Re-tuning the players shifts the answer: " + "; ".join(parts)))
    return out


# --------------------------------------------------------------------------- costs


def cost_lines(doc: dict) -> list[str]:
    """What the change costs: game length and score spread, printed → with the change."""
    out = []
    after = "with the change" if changes(doc) else "as answered"
    for key, c in (doc.get("costs") or {}).items():
        if not isinstance(c, dict):
            continue
        b, a = c.get("before"), c.get("after")
        if not (isinstance(b, dict) and isinstance(a, dict)):
            continue
        if not (_finite(b.get("value")) and _finite(a.get("value"))):
            continue
        unit = a.get("unit") or b.get("unit") or ""
        name = COST_NAMES.get(key, key.replace("_", " ").capitalize())
        diff = number(a["value"] - b["value"], False, True, decimals_of(a, False))
        name += f" ({unit})" if unit else ""
        out.append(
            f"{name}: {estimate_text({**b, 'unit': None}, False)} printed → "
            f"{estimate_text({**a, 'unit': None}, False)} {after} ({diff})."
        )
    return out


# --------------------------------------------------------------------------- certificate


def certificate_lines(doc: dict) -> list[str]:
    """The certificate's sentence, or the honest no with the games it would take."""
    cert = doc.get("certificate") if isinstance(doc.get("certificate"), dict) else {}
    if cert.get("sentence"):
        out = [_sentence(cert["sentence"])]
    else:
        delta = cert.get("delta", doc.get("delta"))
        margin = f"±{number(delta, True)} win points" if _finite(delta) else "the margin"
        counts = count_words(player_counts(doc)) if player_counts(doc) else "every count asked"
        games = (
            f", {int(cert['games']):,} fresh games per count" if _finite(cert.get("games")) else ""
        )
        if doc.get("certified"):
            out = [
                f"Certified: every seat within {margin} of fair at {counts} players (95%{games})."
            ]
        else:
            out = [
                f"Not certified: these games do not show every seat within {margin} of "
                f"fair at {counts} players (95%{games})."
            ]
    if not doc.get("certified") and not cert.get("sentence"):  # (its sentence says it)
        need = cert.get("games_needed")
        if _finite(need) and need > 0:
            out.append(f"Certifying it would take about {int(need):,} fresh games per count.")
        elif "games_needed" in cert:
            out.append(
                "How many games certifying it would take cannot be estimated: the change "
                "may leave a seat farther from fair than the margin."
            )
    w = cert.get("worst")
    if (
        isinstance(w, dict)
        and _finite(w.get("gap"))
        and _finite(w.get("seat"))
        and ordinal_player(int(w["seat"]) - 1) not in out[0]  # not said by the sentence
    ):
        ci = (
            f" [{number(w['low'], True, True)}, {number(w['high'], True, True)}]"
            if _finite(w.get("low")) and _finite(w.get("high"))
            else ""
        )
        at = f" at {int(w['players'])} players" if _finite(w.get("players")) else ""
        out.append(
            f"The seat farthest from fair{at} is the {ordinal_player(int(w['seat']) - 1)}: "
            f"{number(w['gap'], True, True)}{ci} win points."
        )
    return out


# --------------------------------------------------------------------------- the page


def field_line(doc: dict) -> str:
    """The field of players in one line."""
    who = doc.get("field_label") or ", ".join(str(s) for s in doc.get("field") or [])
    counts = player_counts(doc)
    at = f", at {count_words(counts)} players" if counts else ""
    return f"Played by {who}{at}." if who else (f"At {count_words(counts)} players." if at else "")


def method_lines(doc: dict) -> list[str]:
    """How the answer was searched for and checked; then the games it used, the
    budget and the seeds (two lines, each short enough for one line of the page)."""
    method = doc.get("method")
    cands = doc.get("candidates")
    how = f"Method: {method}" if method else "Method"
    if _finite(cands):
        how += f", {int(cands):,} candidate designs"
    first = (
        how + ", every candidate on the same seeds (paired); the recommended design "
        "measured again on fresh seeds, never on the games that chose it."
    )
    if doc.get("stopped"):
        first += f" Stopped early: {doc['stopped']}."
    parts = []
    g = doc.get("games") or {}
    if isinstance(g, dict) and _finite(g.get("total")):
        words = {"retune": "re-tuning"}
        split = ", ".join(
            f"{int(v):,} {words.get(k, k.replace('_', ' '))}"
            for k, v in g.items()
            if k != "total" and _finite(v) and v > 0
        )
        parts.append(f"Games: {int(g['total']):,} in all" + (f" ({split})" if split else ""))
    b = doc.get("budget") or {}
    if isinstance(b, dict):
        budget = [f"{int(b['games']):,} games" if _finite(b.get("games")) else "",
                  f"{b['minutes']:g} minutes" if _finite(b.get("minutes")) else ""]  # fmt: skip
        if any(budget):
            parts.append(("budget " if parts else "Budget ") + " or ".join(x for x in budget if x))
    s = doc.get("seeds") or {}
    if isinstance(s, dict) and any(_finite(v) for v in s.values()):
        seeds = ", ".join(f"{k} {int(v)}" for k, v in s.items() if _finite(v))
        parts.append(("seeds " if parts else "Seeds ") + seeds)
    return [first] + (["; ".join(parts) + "."] if parts else [])


def verdict(doc: dict) -> str:
    """The answer in one line: the library's, else the change in words."""
    if doc.get("verdict"):
        return _sentence(doc["verdict"])
    rec = doc.get("recommended") or {}
    by_path = {k["path"]: k for k in knobs(doc)}
    if not rec:
        return "No change was found that makes the game fairer than printed."
    sets = [
        f"{knob_label(by_path[p])} to {value_text(by_path[p], v)}"
        + (
            f" (printed {value_text(by_path[p], by_path[p]['printed'])})"
            if by_path[p].get("printed") is not None
            else ""
        )
        for p, v in rec.items()
    ]
    tail = " (certified)" if doc.get("certified") else " (not certified)"
    return _sentence("Set " + "; ".join(sets) + tail)


def answer_blocks(doc: dict) -> list[tuple[str, str]]:
    """The page as ``[(style, text)]`` (styles of
    :data:`analyzer.report.pages.TEXT_STYLES`): the verdict first, then the evidence."""
    blocks: list[tuple[str, str]] = [("answer", verdict(doc))]

    def section(heading: str, lines: list[str]) -> None:
        lines = [line for line in lines if line]
        if lines:
            blocks.extend([("gap", ""), ("h", heading)] + [("p", line) for line in lines])

    section("The change, against the printed game", change_lines(doc))
    section("Fairness before and after, per player count", fairness_lines(doc))
    section("The other objectives", other_objective_lines(doc))
    section("With re-tuned players", retune_lines(doc))
    section("What it costs", cost_lines(doc))
    frozen = [str(f) for f in doc.get("frozen") or []]
    section(
        "Held fixed",
        [
            (f"Frozen (never changed by the search): {', '.join(frozen)}. " if frozen else "")
            + "Everything but the knobs plays as the scenario sets it (printed values, its "
            "rulings and overrides)."
        ],
    )
    section("Certificate", certificate_lines(doc))
    attribution = [
        _sentence(a["sentence"])
        for a in doc.get("attribution") or []
        if isinstance(a, dict) and a.get("sentence")
    ]
    section("What each knob does near the answer (95% intervals)", attribution)
    said = [_plain(t) for _, t in blocks]
    note = (doc.get("retune") or {}).get("note") if isinstance(doc.get("retune"), dict) else None
    said += [_plain(note)] if note else []
    further = [_sentence(s) for s in doc.get("sentences") or [] if isinstance(s, str) and s]
    section("Further findings", [s for s in further if not _repeats(s, said)])
    section("Field of players", [field_line(doc)])
    blocks += [("gap", "")] + [("small", line) for line in method_lines(doc)]
    script = overrides_text(doc)
    play = f"{script} plays the change (analyzer simulate, a scenario); " if script else ""
    files = f"the whole answer is in {BALANCE_JSON}" + (
        f", every candidate in {CANDIDATES_CSV}" if doc.get("candidates") else ""
    )
    blocks.append(("small", f"For scripts: {play}{files}."))
    return blocks


def _repeats(sentence: str, said: list[str]) -> bool:
    """True when the page already says ``sentence`` (the same, or a long part of it)."""
    p = _plain(sentence)
    return any(p == s or (len(s) > 30 and s in p) for s in said)


def _plain(text: str) -> str:
    """A sentence compared without case, spaces or its full stop (to say it once)."""
    return " ".join(str(text).lower().split()).rstrip(".")


def answer_title(doc: dict, title: str) -> str:
    return f"{title}: what makes it fair" if doc.get("question") else title


def answer_subtitle(doc: dict, info: dict) -> str:
    """The question asked, the games and the seed."""
    q = doc.get("question") or (info.get("scenario") or {}).get("description") or ""
    g = doc.get("games") or {}
    games = f"{int(g['total']):,} games" if isinstance(g, dict) and _finite(g.get("total")) else ""
    seed = f"seed {info['seed']}" if _finite(info.get("seed")) else ""
    more = ", ".join(x for x in (games, seed) if x)
    return f"{q}  ({more})".strip() if more else str(q)


def answer_pages(doc: dict, title: str, subtitle: str, stamp: str) -> list:
    """The PDF's first page (a second only if the words do not fit one)."""
    from analyzer.report.pages import text_blocks_pages

    return text_blocks_pages(title, answer_blocks(doc), stamp, subtitle=subtitle, smallest=0.75)


def answer_markdown(doc: dict) -> list[str]:
    """The same words for ``summary.md``."""
    lines = []
    for style, text in answer_blocks(doc):
        if style == "answer":
            lines += [f"**{text}**", ""]
        elif style == "h":
            lines += [f"### {text}", ""]
        elif style == "p":
            lines += [text, ""]
        elif style == "small":
            lines += [f"_{text}_", ""]
    return lines


# --------------------------------------------------------------------------- tables, files


def change_table(doc: dict) -> pd.DataFrame:
    """One row per knob: printed, recommended, its interval, what was searched, its path."""
    rec = doc.get("recommended") or {}
    interval = doc.get("interval") or {}
    rows = []
    for k in knobs(doc):
        p = k["path"]
        rows.append(
            {
                "knob": knob_label(k),
                "printed": value_text(k, k.get("printed")) if "printed" in k else "",
                "recommended": value_text(k, rec[p]) if p in rec else "unchanged",
                "95% interval": _interval_text(interval.get(p)) or "–",
                "searched": range_text(k) or "–",
                "override path": p,
            }
        )
    return pd.DataFrame(rows)


def seats_table(doc: dict) -> pd.DataFrame:
    """One row per player count and seat: win rate printed, with the change, re-tuned."""
    rows = []
    for n in player_counts(doc):
        stages = {k: {r["seat"]: r for r in seat_list(doc, n, k)} for k in
                  ("before", "after", "retuned")}  # fmt: skip
        seats = sorted({s for d in stages.values() for s in d})
        for s in seats:
            row = {"players": n, "seat (1 = first player)": int(s)}
            for key, words in (("before", "printed"), ("after", "with the change"),
                               ("retuned", "re-tuned")):  # fmt: skip
                if any(stages[key].values()) or key != "retuned":
                    r = stages[key].get(s)
                    row[f"{words} [95% CI]"] = rate_text(r) if r else "–"
            rows.append(row)
    return pd.DataFrame(rows)


def objectives_table(doc: dict) -> pd.DataFrame:
    """One row per objective: printed, with the change, re-tuned, and games."""
    rows = []
    for o in doc.get("objectives") or []:
        if not isinstance(o, dict) or not o.get("id"):
            continue
        oid = o["id"]
        share = is_share(o, oid)
        row = {"objective": objective_label(doc, oid), "unit": objective_unit(doc, oid)}
        games = None
        for key, words in (("before", "printed"), ("after", "with the change"),
                           ("retuned", "re-tuned")):  # fmt: skip
            e = (doc.get(key) or {}).get(oid)
            row[f"{words} [95% CI]"] = estimate_text(e, share) if isinstance(e, dict) else "–"
            if isinstance(e, dict) and _finite(e.get("games")):
                games = int(e["games"])
        row["games each"] = f"{games:,}" if games else "–"
        rows.append(row)
    return pd.DataFrame(rows)


def display_items(info: dict) -> list[tuple[str, pd.DataFrame, str, str]]:
    """``[(name, display table, title, note)]`` of the balance answer, for the HTML
    page and the PDF's appendix."""
    doc = doc_of(info)
    if doc is None:
        return []
    items = []
    t = change_table(doc)
    if len(t):
        items.append(("balance_change", t, "Balance: the recommended change",
                      "the value in the printed game, the recommended one, its 95% interval "
                      "(a monotone knob's fitted fair value) and the range searched"))  # fmt: skip
    t = seats_table(doc)
    if len(t):
        items.append(("balance_seats", t, "Balance: win rate by seat",
                      "per player count, on fresh games (never those that chose the design); "
                      "95% intervals"))  # fmt: skip
    t = objectives_table(doc)
    if len(t):
        note = "win rates and gaps in win points (percentage points); fresh games"
        items.append(("balance_objectives", t, "Balance: the objectives", note))
    return items


def settings_lines(info: dict) -> list[str]:
    """Lines for the report's settings (``key   value``)."""
    doc = doc_of(info)
    if doc is None:
        return []
    names = ", ".join(knob_label(k) for k in knobs(doc))
    line = f"balance         {names or 'no knobs'}"
    objs = [objective_label(doc, o["id"]) for o in doc.get("objectives") or [] if o.get("id")]
    if objs:
        combine = doc.get("combine")
        line += f"; objectives ({combine}) {', '.join(objs)}" if combine else f"; {', '.join(objs)}"
    how = " ".join(method_lines(doc)).removeprefix("Method: ").removeprefix("Method, ")
    return [f"{line}; {how}"]


def games_text(info: dict) -> str:
    """The balance's games for a page's stamp or subtitle ("" if none)."""
    doc = doc_of(info)
    g = (doc or {}).get("games") or {}
    if isinstance(g, dict) and _finite(g.get("total")):
        return f"balance {int(g['total']):,} games"
    return ""
