"""Whether a run's answers hold in every field of players.

A run with several fields of players (``[fields]``) answers each question field
by field; :func:`across_fields` says, for each thing a question measured,
whether the answer holds in every field (the same sign and significant in each),
in one sentence; and, when a field's seats include a search player (the
strongest field, ``strongest`` in the manifest's ``fields``), whether it holds
for those players.
"""

from __future__ import annotations

from analyzer.tables.answers import _interval, _points, pct, pct_interval
from analyzer.tables.finding import Finding, question_key


def _cell_fields(info: dict) -> dict[str, str]:
    """Cell label -> the label of its field of players (runs with ``[fields]``)."""
    names = {f["key"]: f["label"] for f in info.get("fields") or []}
    return {str(c["label"]): names.get(c.get("field"), "") for c in info.get("cells", [])}


def across_fields(questions: list[dict], found: list[Finding], info: dict) -> dict[str, list[str]]:
    """For a run with several fields of players: for each question and each thing it
    measured (a finding's subject), whether the answer holds in every field (the
    same sign and significant in each), in one sentence."""
    fields = info.get("fields") or []
    if len(fields) < 2:
        return {}
    of = _cell_fields(info)
    order = [f["label"] for f in fields]
    out: dict[str, list[str]] = {}
    for q in questions:
        key = question_key(q)
        mine = [f for f in found if f.question == key and of.get(f.label)]
        subjects = list(dict.fromkeys(f.subject for f in mine))
        lines = []
        for subject in subjects:
            by_field: dict[str, list[Finding]] = {}
            for f in mine:
                if f.subject == subject:
                    by_field.setdefault(of[f.label], []).append(f)
            if len(by_field) < 2:
                continue
            lines.append(_across_sentence(subject, by_field, order))
            for f in fields:
                if f.get("strongest") and f["label"] in by_field:
                    lines.append(_strongest_sentence(subject, by_field, f))
        if lines:
            out[key] = lines
    return out


def _strongest_sentence(subject: str, by_field: dict[str, list[Finding]], field: dict) -> str:
    """Whether the answer holds for the strongest players: the field whose seats
    include a search player (often a small confirmatory run, ``games`` of its own),
    against the other fields' direction."""
    label = field["label"]
    games = field.get("games_played") or 0
    mine = by_field[label]
    others = [g for n, fs in by_field.items() if n != label for g in fs if g.significant]
    ups = {g.effect > 0 for g in others}
    said = "; ".join(f"{_short_estimate(f)}{'' if f.significant else ' (n.s.)'}" for f in mine)
    who = f"with the strongest players ({label}" + (f", {games:,} games)" if games else ")")
    if all(f.significant for f in mine) and len({f.effect > 0 for f in mine}) == 1:
        up = mine[0].effect > 0
        if not ups or ups == {up}:
            return f"{subject}: the finding holds {who}: {said}."
        return f"{subject}: the finding reverses {who}: {said}."
    return f"{subject}: not shown {who}: {said} (more games, or a stronger effect, needed)."


def _short_estimate(f: Finding) -> str:
    if f.unit == "share":
        if f.reference == 0:
            return f"{_points(f.estimate, f.low, f.high)} points"
        return f"{pct(f.estimate)} {pct_interval(f.low, f.high)}"
    return _interval(f.estimate, f.low, f.high)


def _across_sentence(subject: str, by_field: dict[str, list[Finding]], order: list[str]) -> str:
    """``Across the 3 fields, <subject>: holds in every field ...``."""
    names = [n for n in order if n in by_field] + [n for n in by_field if n not in order]
    rows = [(n if len(by_field[n]) == 1 else f.label, f) for n in names for f in by_field[n]]
    sig = [(n, f) for n, f in rows if f.significant]
    ups = {f.effect > 0 for _, f in sig}
    each = "; ".join(
        f"{n}: {_short_estimate(f)}{'' if f.significant else ' (n.s.)'}" for n, f in rows
    )
    k, m = len(sig), len(rows)
    if k == m and len(ups) == 1:
        side = "above" if ups == {True} else "below"
        verdict = (
            f"the conclusion holds in every field: {side} 'no effect' and significant in all {m}"
        )
    elif k == 0:
        verdict = f"no field shows a significant effect (0 of {m})"
    elif len(ups) > 1:
        above = ", ".join(n for n, f in sig if f.effect > 0)
        below = ", ".join(n for n, f in sig if f.effect <= 0)
        verdict = (
            f"the fields disagree: significantly above 'no effect' in {above}, below in {below}"
        )
    else:
        side = "above" if ups == {True} else "below"
        rest = [n for n, f in rows if not f.significant]
        verdict = (
            f"the conclusion does not hold in every field: significantly {side} 'no effect' "
            f"in {k} of {m}, not in {', '.join(rest)}"
        )
    return f"Across the fields, {subject}: {verdict} ({each})."
