"""One line per question: the verdict in words, before the evidence.

:func:`verdict` reads a question's findings (already tested and corrected,
:func:`analyzer.tables.finding.correct`) and says the answer in one line: a word
("Yes", "No", "Not shown", "A clear change", "No clear change") and the estimate
that carries it, with its interval, in people's words ("Yes: the first player
wins 2.7 points [1.0, 4.4] more than a fair share at 3 players").

The rules it keeps:

- a variant is judged by its paired change (a finding on ``paired`` games), never
  by setting its own verdict beside the printed game's;
- the printed game (or the base of a comparison) comes first;
- over several fields of players the line says in how many fields the answer
  holds, and the head estimate is one of those where it holds.
"""

from __future__ import annotations

import re

from analyzer.tables.answers import ORDINALS, _interval, _points, pct
from analyzer.tables.finding import Finding


def is_change(f: Finding) -> bool:
    """A finding on paired games: a variant's change against its base."""
    return f.n_unit.startswith("paired")


def _who(subject: str) -> str | None:
    """Who a win-rate finding is about, in people's words, or None."""
    if subject == "first player's win rate":
        return "the first player"
    if subject.startswith("seat ") and subject.endswith(" win rate"):
        seat = subject[len("seat ") : -len(" win rate")]
        if seat.isdigit():
            k = int(seat)
            return f"the {ORDINALS[k] if k < len(ORDINALS) else f'#{k + 1}'} player"
    if subject.endswith(" win rate"):
        return subject[: -len(" win rate")]
    return None


def label_words(label: str) -> str:
    """A configuration's label in words: ``players=3`` -> ``3 players``."""
    m = re.fullmatch(r"players=(\d+)", str(label))
    return f"{m.group(1)} players" if m else str(label)


def _where(f: Finding, several: bool) -> str:
    return f" ({label_words(f.label)})" if several else ""


def claim(f: Finding, several: bool = False) -> str:
    """A finding's estimate in a few words, with its 95% interval."""
    where = _where(f, several)
    if is_change(f) or f.reference == 0:
        m = re.match(r"^(.*? by [^\[]*\[[^\]]*\])( points| turns| win points)?", f.text)
        if m and (" instead of " in f.text or f.text.startswith("Going from ")):
            return m.group(0)
        m = re.match(r"^(.*? is worth .*?)(?::|$)", f.text)
        if m and f.subject.startswith("worth of"):
            return m.group(1)
        m = re.match(r"^(Seats .*? won .*?\])", f.text)
        if m:  # an association: the seats that did it against the rest
            return m.group(1) + " (association, not cause)"
        if f.unit == "share":
            return f"{f.subject}: {_points(f.estimate, f.low, f.high)} points{where}"
        unit = "" if f.unit in ("value", "share") else f" {f.unit}"
        return f"{f.subject}: {_interval(f.estimate, f.low, f.high)}{unit}{where}"
    who = _who(f.subject)
    if f.unit == "share" and who:
        d, lo, hi = (100 * (x - f.reference) for x in (f.estimate, f.low, f.high))
        more = "more" if d >= 0 else "less"
        if d < 0:
            d, lo, hi = -d, -hi, -lo
        at = f"{label_words(f.label)}: " if several else ""
        return (
            f"{who} wins {d:.1f} points [{lo:.1f}, {hi:.1f}] {more} than a fair share "
            f"({at}{pct(f.estimate)} against {pct(f.reference, 0)})"
        )
    if f.unit == "share":
        return f"{f.subject}: {pct(f.estimate)} [{100 * f.low:.1f}, {100 * f.high:.1f}]{where}"
    return f"{f.subject}: {_interval(f.estimate, f.low, f.high)}{where}"


#: questions whose "yes" is one direction only: (question id, "yes" when the effect is above)
ONE_SIDED = {"first_player": True, "strategies": True}


def _word(question: str, head: Finding) -> str:
    if head.subject.startswith("worth of"):  # what a thing forbidden is worth
        return "Worth something" if head.significant else "No worth shown"
    if is_change(head) or question in ("variant_effect", "sweep_effect"):
        return "A clear change" if head.significant else "No clear change"
    if not head.significant:
        return "Not shown"
    up = ONE_SIDED.get(question)
    if up is None:
        return "Yes"
    return "Yes" if (head.effect > 0) == up else "No"


def _head(fs: list[Finding], question: str = "") -> Finding:
    """The finding a verdict is carried by: the largest significant one (of a one-sided
    question, the largest significant one on its "yes" side first), else the one
    nearest to significant (smallest p-value)."""
    sig = [f for f in fs if f.significant]
    up = ONE_SIDED.get(question)
    if up is not None:
        sig = [f for f in sig if (f.effect > 0) == up] or sig
    if sig:
        return max(sig, key=lambda f: (f.effect_size, -f.p_value))
    # nothing clear: the nearest to clear, not the largest (a thing two seats did)
    return min(fs, key=lambda f: (_p(f), -f.effect_size))


def _p(f: Finding) -> float:
    return f.p_value if f.p_value == f.p_value else 1.0


def verdict(question: str, fs: list[Finding], fields: dict[str, str] | None = None) -> str:
    """The one-line verdict of a question from its findings (empty: no findings).

    ``fields`` maps a finding's label to its field of players (runs with several
    fields); the line then says in how many fields the head answer holds."""
    if not fs:
        return ""
    if question in DESCRIPTIVE:
        return DESCRIPTIVE[question](fs)
    base = [f for f in fs if not is_change(f)] or fs
    changes = [f for f in fs if is_change(f) and f not in base]
    labels = list(dict.fromkeys(f.label for f in base))
    several = len(labels) > 1 or (bool(changes) and base is not fs)
    head = _head(base, question)
    fields = fields or {}
    same = [f for f in base if f.subject == head.subject]
    if fields and len({fields.get(f.label) for f in same}) > 1:
        line = _across_fields(question, same, fields, several)
        same = []
    else:
        line = f"{_word(question, head)}: {claim(head, several)}"
    if several and len(same) > 1:
        up = head.effect > 0
        sig = [f for f in same if f.significant and (f.effect > 0) == up]
        other = [f for f in same if f.significant and (f.effect > 0) != up]
        if head.significant and len(sig) < len(same):
            rest = [label_words(f.label) for f in same if not f.significant]
            which = f" ({', '.join(rest)}: not shown)" if 0 < len(rest) <= 2 else ""
            line += f"; clear in {len(sig)} of {len(same)}{which}"
            if other:
                names = ", ".join(label_words(f.label) for f in other[:3])
                more = "…" if len(other) > 3 else ""
                line += f"; clearly the other way in {len(other)} ({names}{more})"
        elif head.significant:
            line += f"; clear in all {len(same)}"
    others = [f for f in base if f.subject != head.subject and f.significant]
    if others and question not in ("first_player",):
        line += f"; {len(others)} more clear finding{'s' if len(others) > 1 else ''} below"
    if not head.significant and (head.low > head.reference or head.high < head.reference):
        line += " (its interval leaves out 'no effect', but not after the correction for the "
        line += "report's many findings)"
    mine = [c for c in changes if c.subject == f"change in {head.subject}"]
    said = sorted(mine or changes, key=lambda f: (-f.significant, -f.effect_size))[:2]
    for c in said:
        judged = "a clear change" if c.significant else "not a clear change"
        line += f". {_cap(claim(c))}, paired: {judged}"
    if len(changes) > len(said):
        more = len(changes) - len(said)
        line += f" ({more} more change{'s' if more > 1 else ''} below)"
    return line + "."


def _across_fields(question: str, same: list[Finding], fields: dict, several: bool) -> str:
    """The verdict of one thing measured in several fields of players: headlined by
    the side that holds in most fields, saying in how many it holds (never from one
    field when the others say otherwise)."""
    m = len(same)
    up = [f for f in same if f.significant and f.effect > 0]
    down = [f for f in same if f.significant and f.effect <= 0]
    if not up and not down:
        head = _head(same, question)
        return f"{_word(question, head)} in any of the {m} fields of players: " + claim(
            head, several
        )
    yes_up = ONE_SIDED.get(question, True)
    main, other = (up, down) if (len(up), yes_up) > (len(down), not yes_up) else (down, up)
    head = max(main, key=lambda f: (f.effect_size, -f.p_value))
    where = "every one" if len(main) == m else f"{len(main)}"
    line = f"{_word(question, head)} in {where} of the {m} fields of players: {claim(head, True)}"
    if len(main) > 1:
        line += "; likewise: " + ", ".join(
            fields.get(f.label, f.label) for f in main if f is not head)  # fmt: skip
    if other:
        line += f"; the other way in {len(other)} (" + ", ".join(
            fields.get(f.label, f.label) for f in other) + ")"  # fmt: skip
    rest = m - len(main) - len(other)
    if rest:
        line += f"; not clear in {rest}"
    return line


def _first_sentence(text: str) -> str:
    return text.split(". ")[0].rstrip(".")


def _equilibrium_line(fs: list[Finding]) -> str:
    """The meta-game answers which strategy (or mix) holds, not yes or no: its first
    sentence says it (who dominates, or the mix with its intervals, and among whom)."""
    first = _first_sentence(fs[0].text)
    m = re.search(r"(no strategy dominates|\S+ dominates)", first)
    what = first[m.start() :] if m else first
    what = what.split(" (simultaneous")[0].split("; ")[0].split(", as no other")[0]
    among = re.search(r"\(([^()]*(?:\([^()]*\))?[^()]*)\)$", fs[0].subject)
    return _cap(what) + (f" ({among.group(1)})" if among else "") + "."


def _drama_line(fs: list[Finding]) -> str:
    """Drama is measured, not tested: how often the lead changes (with its interval,
    the count and the field the subject names) and when the game is decided."""
    f = fs[0]
    if f.estimate != f.estimate:  # not measured: the words say why
        return "Not measured: " + _first_sentence(f.text) + "."
    what = f.subject.replace("lead changes a game", "", 1).strip()
    line = (
        f"Measured: the lead changes {f.estimate:.1f} [{f.low:.1f}, {f.high:.1f}] "
        f"times a game {what}".rstrip()
    )
    m = re.search(r"It is decided (\S+) of the way through", f.text)
    if m:
        line += f"; decided {m.group(1)} of the way through"
    elif "No point before the end decides it" in f.text:
        line += "; no point before the end decides it"
    return line + "."


#: questions that describe rather than test: their own line, no "Yes"/"No"
DESCRIPTIVE = {"equilibrium": _equilibrium_line, "drama": _drama_line}


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
