"""Restricted play's size: play each shipped restricted-play scenario at a small size,
measure the widest 95% interval and the rate, and extrapolate the games per thing
that give intervals of about ±1.5 win points and the wall time of a run that plays
them (studies/2026-11-28-restricted-play.md).

    PYTHONPATH=. python studies/2026-11-28-restricted-play/measure.py 400 2
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from analyzer.report import run_and_report

SCENARIOS = (
    "scenarios/uruk_restricted.toml",
    "scenarios/unearth_restricted.toml",
    "scenarios/colorful_treasure_restricted.toml",
    "scenarios/uruk_inventions.toml",
)
TARGET = 1.5  #: half-width of the 95% interval, win points


def main(games: int, workers: int) -> None:
    for path in SCENARIOS:
        with tempfile.TemporaryDirectory() as tmp:
            res = run_and_report(path, Path(tmp) / "out", games=games, workers=workers,
                                 progress=False)  # fmt: skip
            doc = res.info["restricted"]
            rows = doc["rows"]
            half = max((r["high"] - r["low"]) / 2 for r in rows)
            mean_half = sum((r["high"] - r["low"]) / 2 for r in rows) / len(rows)
            per_thing = games * (half / TARGET) ** 2
            secs = doc["seconds"]
            rate = doc["games_total"] / secs
            total = per_thing * (len(rows) + 1)
            print(
                json.dumps(
                    {
                        "scenario": path,
                        "games_per_thing": games,
                        "things": len(rows),
                        "widest_half_width": round(half, 2),
                        "mean_half_width": round(mean_half, 2),
                        "seconds": secs,
                        "games_per_second": round(rate, 1),
                        "games_per_thing_for_1.5": round(per_thing),
                        "minutes_at_that_size": round(total / rate / 60, 1),
                        "main_run_seconds": res.info.get("seconds"),
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
