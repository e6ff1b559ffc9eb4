"""The findings in a report: page 1 of the PDF, the HTML page's questions, ``summary.md``.

Each question with its findings ranked by effect size (at most a few on page 1;
every one in ``tables/findings.csv``), the field of players, what the ladder, the
tuning and the sensitivity study found, whose play the numbers describe and
what was assumed (:mod:`analyzer.tables.findings` answers the questions).
"""

from __future__ import annotations

import math
import re

import pandas as pd

from analyzer.report import balance_page, charts
from analyzer.report.info import plays_games, section_notes
from analyzer.studies import sections
from analyzer.tables import findings


def page_one_findings(found: findings.Findings, k: int | None = None):
    """``[(question, findings shown, findings left out)]`` for page 1: each
    question's findings ranked by effect size, at most ``k`` each (default
    :data:`analyzer.tables.findings.PAGE_PER_QUESTION`, fewer when page 1 is full)."""
    k = k or getattr(found, "page_per_question", findings.PAGE_PER_QUESTION)
    out = []
    first = list(getattr(found, "first_labels", []))
    for i, q in enumerate(found.questions):
        got = found.for_question(i)
        # the printed game's first, the clear ones before the others, then by rank
        got = sorted(got, key=lambda f: (f.label not in first, not f.significant))
        out.append((q, got[:k], got[k:]))
    return out


def findings_pages(found: findings.Findings, info: dict, title: str, stamp: str) -> list:
    """Page 1: the findings, with as many per question as fit on one page (at
    least one each; what does not fit is on the page 'All findings')."""
    pages = []
    # the parameter values of "whose play" give way first (they are on the page
    # 'Strategy parameters'), then findings beyond the largest of each question
    tries = [(k, False) for k in range(findings.PAGE_PER_QUESTION, 1, -1)]
    tries += [(k, True) for k in range(findings.PAGE_PER_QUESTION, 0, -1)]
    tries.append((1, "tight"))  # last: the method in one line, no closing line
    for k, compact in tries:
        found.page_per_question = k
        pages = charts.text_blocks_pages(
            title,
            findings_blocks(found, info, compact),
            stamp,
            subtitle=findings_subtitle(info),
            smallest=0.75 if compact == "tight" else 0.85,
        )
        if len(pages) == 1:
            break
    return pages


#: the words a report uses, in people's words: the glossary page and the HTML's "Words"
GLOSSARY = (
    (
        "Verdict",
        "the answer to a question in one line, before its evidence. 'Yes' or 'No' "
        "when the evidence is clear after the correction for the number of findings; 'Not "
        "shown' when the 95% interval still includes 'no effect' (no effect is not proven "
        "either); 'A clear change' / 'No clear change' for what a variant changes.",
    ),
    (
        "95% interval [a, b]",
        "the range the true value lies in, in 95 of 100 runs like this "
        "one; more games make it narrower.",
    ),
    (
        "Points, win points",
        "percentage points of a win rate: 27.4% against a fair 25% is 2.4 "
        "points more than a fair share.",
    ),
    (
        "Fair share",
        "the win rate of a seat in a perfectly balanced game: 1 in the number of "
        "players (25% at 4 players); a shared win counts as a fraction.",
    ),
    (
        "First player, second player, ...",
        "the seats in turn order, counted from 1 (tables "
        "and CSV files number them from 0: seat 0 is the first player).",
    ),
    ("Seat-games", "one seat in one game: 1,000 four-player games are 4,000 seat-games."),
    (
        "Paired effect, paired games",
        "a variant is played on the same games as the game it is "
        "compared with (the same dice and shuffles, game by game); its effect is the mean of "
        "the game-by-game differences, with its own interval and test. A variant is judged by "
        "this, never by setting two separate verdicts side by side.",
    ),
    (
        "Significant, ● and ○",
        "● : the finding is unlikely to be chance after the correction "
        "(Holm-adjusted p below 0.05); ○ : it may be chance.",
    ),
    (
        "Holm-adjusted p",
        "the chance of an effect at least this large if there were none, "
        "corrected (Holm's method) for the number of findings the report tests, so that the "
        "report as a whole calls chance an effect less than 1 time in 20.",
    ),
    (
        "Field of players",
        "the strategies at the table and their seat orders; an answer holds "
        "for that field, and a run with several fields says in how many it holds.",
    ),
    (
        "Tuned row",
        "a strategy's parameter values as tuned for one player count; a sweep "
        "over player counts plays each count's own row.",
    ),
    (
        "Association, not cause",
        "seats that did a thing won more (or less), which may be "
        "because they were winning anyway; what a thing is worth needs a paired comparison "
        "that forbids it.",
    ),
    (
        "Luck-adjusted",
        "the same estimate with the dice's luck taken out: the same answer, "
        "usually with a narrower interval.",
    ),
)


def glossary_pages(stamp: str) -> list:
    """The glossary page of the PDF (:data:`GLOSSARY`)."""
    blocks: list[tuple[str, str]] = []
    for term, meaning in GLOSSARY:
        blocks += [("h", term), ("p", meaning), ("gap", "")]
    return charts.text_blocks_pages("Words used in this report", blocks, stamp)


def compact_whose_play(lines: list[str]) -> list[str]:
    """ "Whose play" without the parameter values (page 'Strategy parameters' has them)."""
    out = [re.sub(r" \(parameters [^)]*\)", "", line) for line in lines]
    if out != lines:
        out.append("Parameter values: page 'Strategy parameters' (tables/strategy_parameters.csv).")
    return out


def strategy_parameters(info: dict) -> pd.DataFrame:
    """One row per strategy the run played: the parameter values it played with (the
    row of the scenario's player count, ``[strategy_params]`` on top)."""
    used: list[str] = []
    for cell in info.get("cells", []):
        for order in cell.get("orders", []):
            for x in order:
                if x not in used:
                    used.append(x)
    rows = []
    for r in info.get("strategy_rows") or []:
        if r["name"] in used and r.get("params"):
            rows.append({"strategy": r["name"], **r["params"]})
    return pd.DataFrame(rows)


def findings_subtitle(info: dict) -> str:
    sc = info["scenario"]
    n_cells = len(info.get("cells", [])) or 1
    per = f"{info['games']:,} games" + (
        f" in each of {n_cells} configurations" if n_cells > 1 else ""
    )
    more = [t for t in (sections.games_text(info), balance_page.games_text(info)) if t]
    if more:
        per = (per + "; " if plays_games(info) else "") + ", ".join(more)
    desc = sc.get("description") or ""
    return f"{desc}  ({per}, seed {info['seed']})".strip()


def findings_blocks(
    found: findings.Findings, info: dict, compact: bool | str = False
) -> list[tuple[str, str]]:
    """Page 1: the field of players, each question and its answers, whose play (without
    the parameter values when ``compact``), what was assumed, the method (in one line
    and without the closing line when ``compact`` is ``"tight"``)."""
    blocks: list[tuple[str, str]] = []
    how = "questions this scenario asks" if found.explicit else "the game's standard questions"
    games = plays_games(info)
    if games:
        text = (
            f"Answers to {how}: each opens with its verdict in one line (in bold), then the "
            "evidence, each finding with its 95% interval and sample size; ● significant, ○ not "
            "(after correction). Words: the glossary page."
        )
        blocks.append(("small", text))
    field = getattr(found, "field_of_players", [])
    if field:
        heading = "Fields of players" if len(info.get("fields") or []) > 1 else "Field of players"
        blocks += [("gap", ""), ("h", heading)]
        blocks += [("p", line) for line in field]
    if not found.questions and games:
        blocks.append(("p", "No question has an answer in this run's tables."))
    for i, (q, shown, rest) in enumerate(page_one_findings(found)):
        blocks += [("gap", ""), ("h", f"{i + 1}. {q['text']}")]
        line = found.verdict_for(i) if hasattr(found, "verdict_for") else ""
        if line:
            blocks.append(("verdict", line))
        if not shown:
            blocks.append(("ns", "No data in this run answers it."))
        for f in shown:
            blocks.append(("sig" if f.significant else "ns", f"{f.text} {_cap(f.verdict())}."))
        blocks += [("p", line) for line in found.across_for(i)]
        if rest:
            n_sig = sum(f.significant for f in rest)
            blocks.append(
                (
                    "small",
                    f"… and {len(rest)} smaller effects ({n_sig} significant): page "
                    "'All findings' and tables/findings.csv.",
                )  # fmt: skip
            )
    for heading, lines in section_notes(info, found):
        blocks += [("gap", ""), ("h", heading)]
        blocks += [("p", line) for line in lines]
    blocks += [("gap", ""), ("h", "Whose play these numbers describe")]
    whose = compact_whose_play(found.whose_play)
    blocks += [("p", line) for line in whose]
    blocks += [("gap", ""), ("h", "What was assumed")]
    blocks += [("p", line) for line in found.assumed]
    if compact == "tight":
        if games:
            n = len(found.findings)
            blocks += [("gap", ""), ("small", (
                f"Method: two-sided z-tests, significant at p < {findings.ALPHA:g} after Holm's "
                f"correction for the {n} findings; 95% intervals, uncorrected; "
                "the settings are on the last page."))]  # fmt: skip
        return blocks
    if games:
        blocks += [("gap", ""), ("small", found.method)]
    else:
        blocks.append(("gap", ""))
    blocks.append(("small", "Charts and tables follow; the settings and run details are on "
                            "the last page."))  # fmt: skip
    return blocks


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def findings_markdown(found: findings.Findings) -> list[str]:
    """The findings as Markdown lines (questions, ranked findings, whose play, assumed)."""
    lines = []
    if getattr(found, "field_of_players", []):
        lines += ["**Field of players.** " + " ".join(found.field_of_players), ""]
    for i, q in enumerate(found.questions):
        lines += [f"**{i + 1}. {q['text']}**", ""]
        if found.verdict_for(i):
            lines += [f"**{found.verdict_for(i)}**", ""]
        for f in found.for_question(i):
            lines.append(f"- {f.text} {_cap(f.verdict())}.")
        lines += [""] + [f"_{line}_" for line in found.across_for(i)]
        lines.append("")
    if not found.questions:
        lines += ["No question has an answer in this run's tables.", ""]
    whose = compact_whose_play(found.whose_play)
    lines += ["**Whose play these numbers describe.** " + " ".join(whose), ""]
    lines += ["**What was assumed.** " + " ".join(found.assumed), ""]
    lines += [f"_{found.method}_", ""]
    return lines


def findings_display(found: findings.Findings) -> pd.DataFrame:
    """The findings as a table for a page: rank, question, sentence subject, estimate."""
    rows = []
    for f in found.findings:
        share = f.unit == "share"
        scale = 100 if share else 1
        unit = " pts" if share and f.reference == 0 else ("%" if share else "")
        rows.append(
            {
                "rank": f.rank,
                "question": f.question,
                "configuration": f.label,
                "what": f.subject,
                "estimate [95% CI]": f"{scale * f.estimate:.1f}{unit} "
                f"[{scale * f.low:.1f}, {scale * f.high:.1f}]",
                "no effect": f"{scale * f.reference:.1f}{unit}",
                "n": f"{f.n:,} {f.n_unit}",
                "Holm p": _holm_text(f.p_adjusted),
                "significant": "*" if f.significant else "",
            }
        )
    return pd.DataFrame(rows)


def _holm_text(p: float) -> str:
    """A Holm-adjusted p-value for the findings table; none (``nan``: no game of the
    pair differed, so nothing was tested) reads "none differ"."""
    if not math.isfinite(p):
        return "none differ"
    return "<0.001" if p < 0.001 else f"{p:.3f}"
