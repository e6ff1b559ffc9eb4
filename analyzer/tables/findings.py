"""Findings: a scenario's questions answered in plain sentences, with intervals and n.

A *question* (:class:`Question`) turns report tables into *findings*
(:class:`Finding`): one estimate with its 95% interval, its sample size, the
value that would mean "no effect" (a fair share, zero difference) and a
sentence saying it in words. Every game lists the questions it answers by
default in :attr:`analyzer.games.Game.questions` (the generic ones defined
here, :data:`GENERIC`, and its own); a scenario may name its questions instead
(key ``questions``, see ``scenarios/README.md``).

:func:`answer` asks the questions of a run, tests every finding against its
"no effect" value (two-sided z-tests), corrects the p-values for the number of
findings in the report with Holm's step-down method (valid whatever the
dependence between the tests; seat win rates of one game are negatively
dependent, which the Benjamini-Hochberg procedure does not cover) and ranks the
findings by effect size: the distance from "no effect" relative to the
baseline (2.4 points above a fair 25% is 9.6%), so that win rates, points and
turns rank on one scale. Reports, ``summary.md`` and the manifest all show what
:func:`answer` returns.

Findings only read report tables (:mod:`analyzer.tables.aggregate`); they never
compute from per-game tables and never import a game. Here: checking a scenario's
questions (:func:`parse_questions`) and asking them (:func:`answer`); the parts
are :mod:`analyzer.tables.finding` (a finding, a question, Holm's correction),
:mod:`analyzer.tables.answers` (the building blocks of an answer),
:mod:`analyzer.tables.questions` (the generic questions),
:mod:`analyzer.tables.fields` (answers across fields of players) and
:mod:`analyzer.tables.whose_play` (whose play, what was assumed). This module
keeps every name it had before they had modules of their own.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (pandas loads with the tables: a game's questions load without it)
    import pandas as pd

from analyzer.core.errors import InputError, bad_value
from analyzer.tables.answers import (
    ORDINALS,
    association,
    cell_suffix,
    count,
    diff_p,
    difference_finding,
    direction,
    first_cell,
    independent_difference,
    num,
    pct,
    pct_interval,
    rate_finding,
    rate_p,
    rates_difference,
    relative,
    se_from_interval,
    seat_name,
    two_sided_p,
    z_value,
)
from analyzer.tables.fields import _cell_fields, across_fields
from analyzer.tables.finding import (
    ALPHA,
    PAGE_PER_QUESTION,
    Answer,
    Finding,
    Findings,
    Question,
    correct,
    question_key,
)
from analyzer.tables.questions import (
    FIRST_PLAYER,
    GENERIC,
    INTERVENTION_METRICS,
    SEATS,
    STRATEGIES,
    SWEEP_EFFECT,
    SWEEP_METRICS,
    VARIANT_EFFECT,
    VARIANT_METRICS,
    _field_label,
    base_cells,
    intervention_thing,
    variant_labels,
)
from analyzer.tables.verdicts import verdict
from analyzer.tables.whose_play import assumed_lines, field_lines, whose_play


def game_questions(game) -> tuple[Question, ...]:
    """The questions ``game`` answers by default (:data:`GENERIC` if it lists none)."""
    return tuple(getattr(game, "questions", ()) or GENERIC)


def parse_questions(value, game, where: str, *, compare: bool, sweep: bool) -> list[dict]:
    """Validate a scenario's ``questions``: a list of question ids, or tables
    ``{ ask = "<id>", <param> = value }``. Returns ``[{"id", "params"}]``.

    Raises :class:`InputError` (one line: file, key, value, what is allowed)."""
    known = {q.id: q for q in game_questions(game)}
    allowed = ", ".join(known)
    if not isinstance(value, list) or not value:
        raise bad_value(
            f"{where}: questions", value, f"a non-empty list of question ids ({allowed})"
        )
    out = []
    for i, item in enumerate(value):
        key = f"{where}: questions[{i}]"
        if isinstance(item, str):
            item = {"ask": item}
        if not isinstance(item, dict):
            raise bad_value(key, item, f"a question id ({allowed}) or a table with 'ask'")
        if "ask" not in item:
            raise InputError(f"{key}: missing key 'ask' (allowed: {allowed})")
        qid = item["ask"]
        if qid not in known:
            raise bad_value(f"{key}.ask", qid, allowed)
        q = known[qid]
        params = {k: v for k, v in item.items() if k != "ask"}
        for k, v in params.items():
            if k not in q.params:
                raise InputError(
                    f"{key}: unknown key '{k}' for question '{qid}' "
                    f"(allowed: {', '.join(q.params) or 'none'})"
                )
            _check_param(k, v, game, f"{key}.{k}")
        if q.needs == "compare" and not compare:
            raise InputError(f"{key}: question '{qid}' needs a [compare.a]/[compare.b] scenario")
        if q.needs == "sweep" and not sweep:
            raise InputError(f"{key}: question '{qid}' needs a [sweep] scenario")
        out.append({"id": qid, "params": params})
    return out


def _check_param(key: str, value, game, where: str) -> None:
    if key == "strategy":
        names = game.strategy_names()
        if value not in names:
            raise bad_value(where, value, ", ".join(names))
    elif key == "seat":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise bad_value(where, value, "a seat index: 0 (first player), 1, ...")
    elif key == "metric":
        if not isinstance(value, str) or not value:
            raise bad_value(where, value, "a metric name such as win, score, game_turns")


def answer(tables: dict[str, pd.DataFrame], info: dict, game=None) -> Findings:
    """Ask the run's questions (the scenario's, else the game's), correct and rank.

    ``game`` is the run's :class:`~analyzer.games.Game` (looked up from ``info``
    when None)."""
    if game is None:
        from analyzer.games import DEFAULT_GAME, load_game

        game = load_game(info.get("game", DEFAULT_GAME))
    known = {q.id: q for q in game_questions(game)}
    asked = (info.get("scenario") or {}).get("questions")
    explicit = bool(asked)
    if not asked:
        asked = [{"id": q.id, "params": {}} for q in game_questions(game)]
    questions, found = [], []
    for q in asked:
        question = known.get(q["id"])
        if question is None:  # a saved run asked a question this version no longer has
            continue
        got = question.answer(tables, info, dict(q.get("params") or {}))
        if not got and not explicit:
            continue  # a standard question this run has no data for
        text = question.text
        if q.get("params"):
            text += " (" + ", ".join(f"{k} {v}" for k, v in q["params"].items()) + ")"
        own = question.heading(info, dict(q.get("params") or {})) if question.heading else None
        text = own or text
        entry = {"id": q["id"], "text": text, "params": dict(q.get("params") or {})}
        questions.append(entry)
        found += [replace(f, question=question_key(entry)) for f in got]
    found = correct(found)
    n = len(found)
    method = (
        f"Method: each finding is tested against 'no effect' (two-sided z-test); significant: "
        f"p < {ALPHA:g} after Holm's correction for the {n} finding{'s' if n != 1 else ''} "
        "in this report. 95% intervals (Wilson for rates, normal for means and differences), "
        "uncorrected. Ranked by effect size: distance from 'no effect' relative to its baseline."
    )
    of_field = _cell_fields(info) if len(info.get("fields") or []) > 1 else {}
    verdicts = {}
    for q in questions:
        key = question_key(q)
        line = verdict(q["id"], [f for f in found if f.question == key], of_field)
        if line:
            verdicts[key] = line
    bases = base_cells(info)
    first = [str(c["label"]) for c in info.get("cells") or [] if int(c["index"]) in bases]
    return Findings(
        questions=questions,
        findings=found,
        method=method,
        whose_play=whose_play(info, game),
        assumed=assumed_lines(info),
        explicit=explicit,
        field_of_players=field_lines(info, game),
        across=across_fields(questions, found, info),
        verdicts=verdicts,
        first_labels=first,
    )


__all__ = [
    "association",
    "first_cell",
    "FIRST_PLAYER",
    "GENERIC",
    "Finding",
    "Findings",
    "Question",
    "answer",
    "correct",
    "game_questions",
    "parse_questions",
    # the names of the parts, kept here where they were before
    "ALPHA",
    "INTERVENTION_METRICS",
    "ORDINALS",
    "PAGE_PER_QUESTION",
    "SEATS",
    "STRATEGIES",
    "SWEEP_EFFECT",
    "SWEEP_METRICS",
    "VARIANT_EFFECT",
    "VARIANT_METRICS",
    "Answer",
    "across_fields",
    "assumed_lines",
    "cell_suffix",
    "count",
    "diff_p",
    "difference_finding",
    "direction",
    "field_lines",
    "independent_difference",
    "intervention_thing",
    "num",
    "pct",
    "pct_interval",
    "question_key",
    "rate_finding",
    "rate_p",
    "rates_difference",
    "relative",
    "se_from_interval",
    "seat_name",
    "two_sided_p",
    "variant_labels",
    "whose_play",
    "z_value",
    "_field_label",
]
