"""Write ``data/strategies.toml`` from ``analyzer tune --game uruk`` result files.

``python -m analyzer.uruk.ship_rows RESULT.toml ...`` puts the recommended row
of each result (:func:`analyzer.tuning.recommend`: its best row only if shown
better on fresh games, and at or above the strategy's share floor) into the
data file, with the command that found it and its confirmation; a result that
keeps the shipped row adds its check to that row's table. Kept apart from
:mod:`.defaults`, which the game reads (this module imports the tuning machinery).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from analyzer.tuning import seat_names
from analyzer.uruk.defaults import PARAM_NAMES, TUNED_NAMES, data

_HEADER = resources.files("analyzer.uruk").joinpath("data", "strategies.toml")


def _header() -> str:
    lines = _HEADER.read_text("utf-8").splitlines()
    return "\n".join(
        x for x in lines[: next(i for i, x in enumerate(lines) if not x.startswith("#"))]
    )


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


def render(version: int | str, results: list[dict], keep: dict) -> str:
    """The data file: the tables of ``keep`` (``{name: {players: table}}``), each
    replaced by a result's recommended row or given its check."""
    from analyzer.tuning import recommend

    tables = {name: {n: dict(t) for n, t in counts.items()} for name, counts in keep.items()}
    for doc in results:
        s = doc["tune"]
        rec = doc.get("recommend") or recommend(s, doc.get("confirm", {}), doc["best"]["params"])
        mine = tables.setdefault(s["strategy"], {})
        n = str(s["players"])
        if rec["which"] == "best":
            mine[n] = {"command": s["command"], "confirm": _summary(doc, "best")}
        else:
            check = f"{s['command']}: {_summary(doc, 'shipped')}; kept ({rec['why']})"
            mine.setdefault(n, {"note": "the row of the nearest smaller player count"})
            mine[n]["checks"] = [*mine[n].get("checks", []), check]
        mine[n]["params"] = {p: round(float(rec["row"].get(p, 0.0)), 4) for p in PARAM_NAMES}
    lines = [_header(), "", f"version = {version}", ""]
    for name in TUNED_NAMES:
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
            row = ", ".join(f"{p} = {t['params'][p]}" for p in PARAM_NAMES)
            lines += [f"params = {{ {row} }}", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    from analyzer.outputs import atomic_write
    from analyzer.tuning import read_result

    path = Path(str(_HEADER))
    doc = data()
    text = render(doc["version"], [read_result(a) for a in argv], doc.get("strategies", {}))
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, "utf-8"))
    print(f"written: {path}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
