"""The strategies' default parameter rows, by player count (``data/strategies.toml``).

Read without numba. Each ``[<strategy>.<players>]`` table of the data file is a
full parameter row (names in :data:`PARAM_NAMES`) with the ``analyzer tune``
command that produced it and its confirmation; a player count without a table
takes the row of the nearest smaller count that has one (and the smallest
listed count below that). ``random`` plays no parameters; ``baseline``'s row
is frozen in the code (:data:`analyzer.unearth.strategies.BASELINE_PARAMS`),
not here. docs/strategies.md lists the rows and how they were made.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

#: parameter names, in the order of a strategy's parameter row (docs/strategies.md)
PARAM_NAMES = (
    "w_ruin",
    "w_stone",
    "risk",
    "lead",
    "w_card",
    "card_min",
    "place",
    "named",
    "card_end",
    "stone_ring",
    "big_die",
    "wonder_fit",
)

STRATEGY_NAMES = ("random", "claimer", "collector", "balanced", "baseline")

#: ``baseline``'s row: ``balanced``'s defaults as shipped before any tuning, frozen;
#: its last four columns (added later) are 0, which is the evaluation it shipped with
BASELINE_ROW = (1.0, 1.3, 1.0, 0.4, 0.6, 1.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0)


@cache
def data() -> dict:
    """The parsed data file."""
    text = resources.files("analyzer.unearth").joinpath("data", "strategies.toml").read_text()
    doc = tomllib.loads(text)
    for name, counts in doc.get("strategies", {}).items():
        if name not in STRATEGY_NAMES or name in ("random", "baseline"):
            raise ValueError(f"data/strategies.toml: strategies.{name}: not a tunable strategy")
        for n, table in counts.items():
            row = table.get("params", {})
            if set(row) != set(PARAM_NAMES):
                missing = sorted(set(PARAM_NAMES) - set(row)) or sorted(set(row) - set(PARAM_NAMES))
                raise ValueError(f"data/strategies.toml: strategies.{name}.{n}: params {missing}")
    return doc


def version() -> str:
    """The strategies version (written beside the rules version)."""
    return str(data()["version"])


@cache
def rows_by_players(name: str) -> tuple[tuple[int, tuple[float, ...]], ...]:
    """``((players, row), ...)`` of ``name``, by increasing player count."""
    if name == "random":
        return ((2, (0.0,) * len(PARAM_NAMES)),)
    if name == "baseline":
        return ((2, BASELINE_ROW),)
    counts = data()["strategies"][name]
    return tuple(
        (int(n), tuple(float(counts[n]["params"][p]) for p in PARAM_NAMES))
        for n in sorted(counts, key=int)
    )


def default_row(name: str, players: int) -> tuple[float, ...]:
    """``name``'s default parameter row at ``players`` seats."""
    rows = rows_by_players(name)
    row = rows[0][1]
    for n, r in rows:
        if n <= players:
            row = r
    return row


def provenance(name: str, players: int) -> dict:
    """The command and confirmation recorded for ``name``'s row at ``players``."""
    if name in ("random", "baseline"):
        return {}
    counts = data()["strategies"][name]
    use = None
    for n in sorted(counts, key=int):
        if int(n) <= players or use is None:
            use = n
    return {k: v for k, v in counts[use].items() if k != "params"} | {"players_row": int(use)}


# ------------------------------------------------------------------ shipping tuned rows

_HEADER = """\
# Unearth: the default parameter rows of the strategies, by player count.
#
# Each [strategies.<name>.<players>] table is a full row (docs/strategies.md says
# what each parameter does) with the `analyzer tune` command that found it and
# its confirmation on fresh games against the field the command names. A player
# count without a table takes the row of the nearest smaller count that has one.
# `random` takes no parameters and `baseline`'s row is frozen in the code:
# neither is here. Written by `python -m analyzer.unearth.defaults RESULT.toml ...`
# from the result files of those commands; `version` is the strategies version,
# written beside the rules version into every report and manifest.
"""


def render(version_: int | str, results: list[dict], keep: dict | None = None) -> str:
    """The data file for ``results`` (documents read by ``analyzer.tuning.read_result``):
    one table per (strategy, players), the later result winning; ``keep``: tables
    of the current file that no result replaces (``{name: {players: table}}``)."""
    tables: dict[str, dict[str, dict]] = {
        name: dict(counts) for name, counts in (keep or {}).items()
    }
    for doc in results:
        s, c, best = doc["tune"], doc.get("confirm", {}), doc["best"]
        summary = (
            f"win share {c['win_share']:.3f} (95% CI {c['low']:.3f} to {c['high']:.3f}) "
            f"against {', '.join(s['field'])} over {c['games']:,} fresh games; the row it "
            f"replaced {c['shipped_win_share']:.3f}"
            if c.get("games")
            else "not confirmed"
        )
        if c.get("share") is not None:
            summary += f"; {c['share']:.3f} of its points from {' + '.join(s['share_columns'])}"
        tables.setdefault(s["strategy"], {})[str(s["players"])] = {
            "command": s["command"],
            "confirm": summary,
            "params": {p: round(float(best["row"][p]), 4) for p in PARAM_NAMES},
        }
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

    return json.dumps(v) if isinstance(v, str) else str(v)


def main(argv: list[str]) -> None:
    """``python -m analyzer.unearth.defaults [--version N] RESULT.toml ...``: rewrite
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
