"""Write a game's ``data/strategies.toml`` from ``analyzer tune`` result files.

``python -m analyzer.<game>.ship_rows [--version N] RESULT.toml ...`` puts the
recommended row of each result (:func:`analyzer.studies.tuning.recommend`: its best row
only if shown better on fresh games, and at or above the strategy's share floor
if it has one) into the game's data file (:class:`analyzer.games.strategy_rows.RowsFile`),
with the command that found it and its confirmation; a result that keeps the
shipped row adds its check to that row's table. Tables no result replaces are
kept, and so are the file's opening comment lines. A study-level module (it
imports the tuning machinery), apart from the reader the games import.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

from analyzer.core.outputs import atomic_write
from analyzer.games.strategy_rows import RowsFile
from analyzer.studies.tuning import read_result, recommend, seat_names


def _header(rows: RowsFile) -> str:
    """The data file's opening comment lines."""
    lines = rows.resource().read_text("utf-8").splitlines()
    return "\n".join(lines[: next(i for i, x in enumerate(lines) if not x.startswith("#"))])


def _summary(doc: dict, which: str) -> str:
    """The confirmation of a result's ``which`` row ("best" or "shipped") in words."""
    s, c = doc["tune"], doc.get("confirm", {})
    if not c.get("games"):
        return "not confirmed"
    pre = "" if which == "best" else "shipped_"
    text = (
        f"win share {c[pre + 'win_share']:.3f} (95% CI {c[pre + 'low']:.3f} to "
        f"{c[pre + 'high']:.3f}) against {', '.join(seat_names(s))} over {c['games']:,} "
        "fresh games"
    )
    if which == "best":
        text += f"; the row it replaced {c['shipped_win_share']:.3f}"
    if c.get("share") is not None:
        text += f"; {c[pre + 'share']:.3f} of its points from {' + '.join(s['share_columns'])}"
    return text


def render(
    rows: RowsFile, version: int | str, results: list[dict], keep: dict | None = None
) -> str:
    """The data file for ``results`` (documents read by
    :func:`analyzer.studies.tuning.read_result`), one table per (strategy, players): the
    tables of ``keep`` (the current file's ``{name: {players: table}}``), each replaced
    by a result's recommended row or given its check."""
    tables = {
        name: {n: dict(t) for n, t in counts.items()} for name, counts in (keep or {}).items()
    }
    for doc in results:
        s = doc["tune"]
        rec = doc.get("recommend") or recommend(s, doc.get("confirm", {}), doc["best"]["params"])
        mine = tables.setdefault(s["strategy"], {})
        n = str(s["players"])
        if rec["which"] == "best":
            mine[n] = {"command": s["command"], "confirm": _summary(doc, "best")}
        else:
            check = f"{s['command']}: {_summary(doc, 'shipped')}; kept ({rec['why']})"
            mine.setdefault(
                n, {"note": "the row of the nearest smaller player count, kept for this count"}
            )
            mine[n]["checks"] = [*mine[n].get("checks", []), check]
        mine[n]["params"] = {p: round(float(rec["row"].get(p, 0.0)), 4) for p in rows.params}
    lines = [_header(rows), "", f"version = {version}", ""]
    for name in rows.tuned:
        for n in sorted(tables.get(name, {}), key=int):
            t = tables[name][n]
            lines.append(f"[strategies.{name}.{n}]")
            for k, v in t.items():
                if k == "params":
                    continue
                if isinstance(v, list):
                    lines.append(f"{k} = [\n" + "".join(f"    {json.dumps(x)},\n" for x in v) + "]")
                else:
                    lines.append(f"{k} = {json.dumps(v)}")
            row = ", ".join(f"{p} = {t['params'][p]}" for p in rows.params)
            lines += [f"params = {{ {row} }}", ""]
    return "\n".join(lines)


def main(rows: RowsFile, argv: list[str]) -> None:
    """Rewrite ``rows``'s data file with the recommended rows of the result files
    ``argv`` (``--version N`` first sets the strategies version; default: kept)."""
    doc = rows.data()
    version = doc["version"]
    if argv[:1] == ["--version"]:
        version, argv = argv[1], argv[2:]
    path = Path(str(rows.resource()))
    text = render(rows, version, [read_result(a) for a in argv], doc.get("strategies", {}))
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, "utf-8"))
    print(f"written: {path}")


def for_game(rows: RowsFile):
    """A game's ``render(version, results, keep=None)`` and ``main(argv=None)`` (the
    command line's arguments when None) for its data file ``rows``: what its
    ``analyzer/<game>/ship_rows.py`` offers, behind ``python -m analyzer.<game>.ship_rows``."""

    def game_main(argv: list[str] | None = None) -> None:
        main(rows, sys.argv[1:] if argv is None else argv)

    return functools.partial(render, rows), game_main
