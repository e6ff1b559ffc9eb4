"""What a run's manifest says, as a report needs it.

Whether the run played games of its own (:func:`plays_games`), the tables it may
have saved (:func:`data_tables`), the stamp every page carries (:func:`make_stamp`),
and the pages and notes of its ``[ladder]``, ``[tune]`` and ``[sensitivity]``
(:func:`section_charts`, :func:`section_notes`).
"""

from __future__ import annotations

from analyzer.games import DEFAULT_GAME, load_game
from analyzer.report import balance_page, charts
from analyzer.studies import sections, sensitivity
from analyzer.tables import findings, restricted


def data_tables(info: dict) -> tuple[str, ...]:
    """Per-game tables a run of the manifest's game may save: ``games`` and the game's own."""
    return ("games", *load_game(info.get("game", DEFAULT_GAME)).tables)


def plays_games(info: dict) -> bool:
    """True when the run played games of its own (not only [ladder]/[tune])."""
    return bool(info.get("cells"))


def versions_text(info: dict, sep: str = ", ") -> str:
    """``rules N, strategies N`` of a manifest (a run saved before strategies were
    versioned has the rules version only)."""
    text = f"rules {info.get('rules_version', '?')}"
    if info.get("strategies_version") is not None:
        text += f"{sep}strategies {info['strategies_version']}"
    return text


def make_stamp(info: dict) -> str:
    """One line saying how a page was made: scenario, seed, versions, games."""
    sc = info["scenario"]
    n_cells = len(info.get("cells", [])) or 1
    per = f"{info['games']:,} games" + (f" per configuration × {n_cells}" if n_cells > 1 else "")
    more = [t for t in (sections.games_text(info), balance_page.games_text(info)) if t]
    if more:
        per = (per + " · " if plays_games(info) else "") + ", ".join(more)
    return (
        f"scenario {sc['name']} ({sc['path']}) · seed {info['seed']} · analyzer "
        f"{info['analyzer_version']} · {versions_text(info, ' · ')} · {per} · "
        f"{str(info.get('created', ''))[:10]}"
    )


def section_charts(info: dict, stamp: str) -> list[tuple[str, object]]:
    """The pages of the run's ``[ladder]`` and ``[tune]`` (those it has)."""
    out = []
    if info.get("ladder"):
        out.append(("ladder", charts.ladder(info["ladder"], stamp)))
    if info.get("tune"):
        out.append(("tune", charts.tune(info["tune"], stamp)))
    return out


def section_notes(
    info: dict, found: findings.Findings | None = None
) -> list[tuple[str, list[str]]]:
    """``[(heading, sentences)]``: what the ladder and the tuning found, in words, and
    (given the run's findings) what the sensitivity study says of them."""
    out = sensitivity.notes(info, found) if found is not None else []
    out += restricted.notes(info)  # the question 'dominance': decisive and ignorable things
    if info.get("ladder"):
        out.append(("Strategy ratings (ladder)", sections.ladder_sentences(info["ladder"])))
    if info.get("tune"):
        out.append(("Tuning", sections.tune_sentences(info["tune"])))
    return out
