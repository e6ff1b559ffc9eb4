"""CPU-seconds of the report phase, two checkouts side by side, alternating runs.

The report phase is what ``analyzer run`` does after the games and what
``analyzer report DIR`` does after reading and reducing the saved tables:
:func:`analyzer.report.write_report` (tables, findings, charts, PDF, HTML,
summary, manifest). Each run is a fresh process on a copy of a saved report
folder; it prints the CPU-seconds (user + system) of ``write_report`` alone, of
``rebuild_report`` (``analyzer report`` without the imports) and of the whole
process. The shared machines change speed by up to 2x within minutes, so the
two checkouts alternate and the medians are compared; nothing is asserted::

    .venv/bin/analyzer run scenarios/default.toml --out /tmp/rep
    git worktree add /tmp/old main
    .venv/bin/python benchmarks/bench_report.py /tmp/old . /tmp/rep --rounds 5

``--parts`` prints, for the first checkout only, where one ``write_report``
spends its CPU-seconds (each chart's drawing and PNG, the PDF pages, ...).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# the child imports the checkout it is given, not the one installed (editable) in the venv
_PRELUDE = """
import sys
sys.meta_path[:] = [m for m in sys.meta_path if "editable" not in repr(m).lower()]
sys.path.insert(0, {root!r})
import analyzer
assert analyzer.__file__.startswith({root!r}), analyzer.__file__
"""

# the saved run the report is written from, as ``analyzer run`` has it after the games
_LOAD = """
import json, time
from pathlib import Path
import pandas as pd
from analyzer import report
src = Path({folder!r})
info = json.loads((src / "manifest.json").read_text("utf-8"))
aggregate = pd.read_parquet(src / "data" / "aggregate.parquet")
extra = {{p.stem: pd.read_parquet(p) for p in (src / "data").glob("claims_exact.parquet")}}
out = Path({scratch!r})
out.mkdir()
"""

_TIMES = """
import resource
t0 = time.process_time()
report.write_report(out, aggregate, info, extra)
write = time.process_time() - t0
t0 = time.process_time()
report.rebuild_report(src)
rebuild = time.process_time() - t0
ru = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"write_report": write, "rebuild_report": rebuild,
                  "process": ru.ru_utime + ru.ru_stime}}))
"""

_PARTS = """
import collections
from matplotlib.figure import Figure
from analyzer.report import charts
from analyzer.report import webpage
from analyzer.unearth import charts as game_charts

spent = collections.defaultdict(float)


def timed(owner, name, key):
    fn = getattr(owner, name)

    def wrapper(*args, **kwargs):
        t0 = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[key] += time.process_time() - t0

    setattr(owner, name, wrapper)


for mod in (charts, game_charts):
    for name in ("first_player", "seats", "score_distribution", "score_parts", "game_length",
                 "named_wonders", "delvers", "end_of_age", "claims", "claims_exact"):
        if hasattr(mod, name):
            timed(mod, name, "draw (build the figure): " + name)
timed(charts, "packed_table_pages", "table pages (build)")
timed(report, "findings_pages", "findings page (build)")
timed(report, "build_tables", "report tables")
timed(webpage, "report_html", "report.html")
timed(report, "summary_markdown", "summary.md")
timed(pd.DataFrame, "to_csv", "CSV files")
timed(charts, "png_bytes", "PNG: layout + draw + encode") if hasattr(charts, "png_bytes") else None
savefig = Figure.savefig


def counted_savefig(fig, fname, *args, **kwargs):
    t0 = time.process_time()
    try:
        return savefig(fig, fname, *args, **kwargs)
    finally:
        fmt = kwargs.get("format", "?")
        spent[f"savefig {{fmt}} (all pages)"] += time.process_time() - t0


Figure.savefig = counted_savefig
t0 = time.process_time()
report.write_report(out, aggregate, info, extra)
spent["write_report (all)"] = time.process_time() - t0
for key, value in sorted(spent.items()):
    print(f"{{value:7.3f}}  {{key}}")
"""


def child(root: Path, folder: Path, body: str) -> str:
    """Run ``body`` in a fresh interpreter importing ``root``'s analyzer on a copy of
    ``folder``; return its standard output."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "report"
        shutil.copytree(folder, copy)
        code = _PRELUDE.format(root=str(root)) + (_LOAD + body).format(
            folder=str(copy), scratch=str(Path(tmp) / "scratch")
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=False
        )
    if done.returncode:
        raise SystemExit(f"{root}: the child failed:\n{done.stderr}")
    return done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path, help="checkout A (e.g. a worktree of main)")
    ap.add_argument("new", type=Path, help="checkout B")
    ap.add_argument("folder", type=Path, help="a report folder written by 'analyzer run'")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--parts", action="store_true", help="where checkout A's time goes")
    args = ap.parse_args()
    old, new = args.old.resolve(), args.new.resolve()
    if args.parts:
        print(child(old, args.folder, _PARTS), end="")
        return
    runs: dict[Path, list[dict]] = {old: [], new: []}
    for r in range(args.rounds):
        for root in (old, new) if r % 2 == 0 else (new, old):
            got = json.loads(child(root, args.folder, _TIMES))
            runs[root].append(got)
            print(f"round {r + 1} {root.name or root}: " + ", ".join(
                f"{k} {v:.2f}" for k, v in got.items()), flush=True)  # fmt: skip
    for key in ("write_report", "rebuild_report", "process"):
        a = statistics.median(x[key] for x in runs[old])
        b = statistics.median(x[key] for x in runs[new])
        print(f"{key}: median CPU-s A {a:.2f}, B {b:.2f}, B/A {b / a:.2f}")


if __name__ == "__main__":
    main()
