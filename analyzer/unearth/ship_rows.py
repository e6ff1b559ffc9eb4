"""Write ``data/strategies.toml`` from ``analyzer tune`` result files.

``python -m analyzer.unearth.ship_rows [--version N] RESULT.toml ...`` puts the
recommended row of each result (:func:`analyzer.tuning.recommend`: its best row
only if shown better on fresh games) into the data file, with the command that
found it and its confirmation; a result that keeps the shipped row adds its
check to that row's table. Kept apart from :mod:`.defaults`, which the kernels
import (this module imports the tuning machinery).
"""

from __future__ import annotations

from importlib import resources

from analyzer.unearth.defaults import PARAM_NAMES, STRATEGY_NAMES, data

_HEADER = """\
# Unearth: the default parameter rows of the strategies, by player count.
#
# Each [strategies.<name>.<players>] table is a full row (docs/strategies.md says
# what each parameter does) with the `analyzer tune` command that found it and
# its confirmation on fresh games against the field the command names. A player
# count without a table takes the row of the nearest smaller count that has one.
# `random` takes no parameters and `baseline`'s row is frozen in the code:
# neither is here. Written by `python -m analyzer.unearth.ship_rows RESULT.toml ...`
# from the result files of those commands; `version` is the strategies version,
# written beside the rules version into every report and manifest.
"""


def _summary(doc: dict, which: str) -> str:
    """The confirmation of a result's ``which`` row ("best" or "shipped") in words."""
    s, c = doc["tune"], doc.get("confirm", {})
    if not c.get("games"):
        return "not confirmed"
    pre = "" if which == "best" else "shipped_"
    text = (
        f"win share {c[pre + 'win_share']:.3f} (95% CI {c[pre + 'low']:.3f} to "
        f"{c[pre + 'high']:.3f}) against {', '.join(s['field'])} over {c['games']:,} "
        "fresh games"
    )
    if which == "best":
        text += f"; the row it replaced {c['shipped_win_share']:.3f}"
    if c.get("share") is not None:
        text += f"; {c[pre + 'share']:.3f} of its points from {' + '.join(s['share_columns'])}"
    return text


def render(version_: int | str, results: list[dict], keep: dict | None = None) -> str:
    """The data file for ``results`` (documents read by ``analyzer.tuning.read_result``),
    one table per (strategy, players), later results first-come: each result's
    recommended row (``analyzer.tuning.recommend``: its best row only if shown
    better on fresh games). A result that keeps the shipped row keeps that
    row's table (from ``keep``, the current file's ``{name: {players: table}}``)
    and adds the check to it."""
    from analyzer.tuning import recommend

    tables: dict[str, dict[str, dict]] = {
        name: {n: dict(t) for n, t in counts.items()} for name, counts in (keep or {}).items()
    }
    for doc in results:
        s = doc["tune"]
        rec = doc.get("recommend") or recommend(s, doc.get("confirm", {}), doc["best"]["params"])
        mine = tables.setdefault(s["strategy"], {})
        n = str(s["players"])
        check = f"{s['command']}: {_summary(doc, 'shipped')}; kept ({rec['why']})"
        if rec["which"] == "best":
            mine[n] = {"command": s["command"], "confirm": _summary(doc, "best")}
        elif n not in mine:
            mine[n] = {
                "note": "the row of the nearest smaller player count, kept for this count",
                "checks": [check],
            }
        else:
            mine[n]["checks"] = [*mine[n].get("checks", []), check]
        mine[n]["params"] = {p: round(float(rec["row"][p]), 4) for p in PARAM_NAMES}
    lines = [_HEADER, f"version = {version_}", ""]
    for name in STRATEGY_NAMES:
        for n in sorted(tables.get(name, {}), key=int):
            t = tables[name][n]
            lines.append(f"[strategies.{name}.{n}]")
            for k, v in t.items():
                if k != "params":
                    lines.append(f"{k} = {_toml_str(v)}")
            row = ", ".join(f"{p} = {t['params'][p]}" for p in PARAM_NAMES)
            lines += [f"params = {{ {row} }}", ""]
    return "\n".join(lines)


def _toml_str(v) -> str:
    import json

    if isinstance(v, list):
        return "[\n" + "".join(f"    {json.dumps(x)},\n" for x in v) + "]"
    return json.dumps(v) if isinstance(v, str) else str(v)


def main(argv: list[str]) -> None:
    """``python -m analyzer.unearth.ship_rows [--version N] RESULT.toml ...``: rewrite
    ``data/strategies.toml`` with the best rows of those ``analyzer tune`` results
    (tables no result replaces are kept)."""
    from pathlib import Path

    from analyzer.outputs import atomic_write
    from analyzer.tuning import read_result

    version_ = data()["version"]
    if argv[:1] == ["--version"]:
        version_, argv = argv[1], argv[2:]
    path = Path(str(resources.files("analyzer.unearth").joinpath("data", "strategies.toml")))
    text = render(version_, [read_result(a) for a in argv], data().get("strategies", {}))
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, "utf-8"))
    print(f"written: {path}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
