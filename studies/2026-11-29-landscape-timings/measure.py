"""The landscape scenarios at their shipped size, one at a time, each timed in CPU
seconds (numbers in ../2026-11-29-landscape-timings.md).

    PYTHONPATH=. python studies/2026-11-29-landscape-timings/measure.py [OUT] [GAME ...]

Each scenario runs as ``analyzer run scenarios/<game>_landscape.toml --workers 2
--quiet --out OUT/<game>`` in a child process; its CPU seconds are the user + system
time of that process and of the worker processes it started and reaped
(``RUSAGE_CHILDREN``, as ``/usr/bin/time`` counts them). On a machine others share,
wall time says little; CPU / 2 is the time on 2 quiet cores when both are busy, a
lower bound where a part runs in one process (drama, the ladder's small parts).
Printed per scenario: wall, CPU, CPU / 2, the wall seconds of each part (the
manifest's), and restricted play's widest and mean 95% half-width (win points).
``summarise`` instead of a game reads a folder written earlier.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

GAMES = ("uruk", "colorful_treasure", "unearth")


def parts(folder: Path) -> dict:
    """Each part's wall seconds from the run's manifest, and restricted play's widths."""
    m = json.loads((folder / "manifest.json").read_text("utf-8"))
    out = {
        "own games": m.get("seconds"),
        "ladder": (m.get("ladder") or {}).get("seconds"),
        "skill": (m.get("skill") or {}).get("seconds"),
        "drama": (m.get("drama") or {}).get("seconds"),
        "restricted": (m.get("restricted") or {}).get("seconds"),
    }
    t = pd.read_csv(folder / "tables" / "restricted_play.csv")
    half = (t["high"] - t["low"]) / 2
    widest = t.loc[half.idxmax()]
    out["things"] = len(t)
    out["pairs a thing"] = int(t["pairs"].max())
    out["widest half-width"] = f"{half.max():.2f} ({widest['thing']})"
    out["mean half-width"] = round(float(half.mean()), 2)
    return out


def measure(game: str, out: Path) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    cmd = [sys.executable, "-m", "analyzer", "run", f"scenarios/{game}_landscape.toml",
           "--workers", "2", "--quiet", "--out", str(out / game)]  # fmt: skip
    subprocess.run(cmd, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"game": game, "wall": round(time.time() - t0), "cpu": round(cpu),
            "cpu / 2": round(cpu / 2), **parts(out / game)}  # fmt: skip


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else Path("/tmp/landscape_timings")
    games = argv[1:] or list(GAMES)
    if games[0] == "summarise":
        for g in games[1:] or GAMES:
            print(json.dumps({"game": g, **parts(out / g)}))
        return
    for g in games:  # one at a time: they would compete for the cores
        print(json.dumps(measure(g, out)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
