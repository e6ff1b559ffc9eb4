"""Taps at the table through ``analyzer serve``: how long each game's one-step answer
(and its odds, where the game has them) takes from a warm server, as a table page asks
them: a tap changes the state a little and asks again.

    python benchmarks/bench_serve_taps.py             # 20 taps per game
    python benchmarks/bench_serve_taps.py --taps 40
    python benchmarks/bench_serve_taps.py --other OLD_CHECKOUT   # before/after

``--other DIR`` starts a second server from another checkout (``PYTHONPATH=DIR``) and
alternates every tap between the two, so both see the same load: their medians side by
side.

Starts ``analyzer serve`` on a free port, waits until it answers (its engines warmed at
start-up), warms each question once more, then times ``--taps`` taps per game, each a
different state: Unearth's odds (the claim value stepped) and advice (the bag stepped),
Colorful Treasure's advice and odds of one state asked together as its page asks them
(a card marked remembered, then gone), Uruk's advice (a resource stepped). Prints the
median and the slowest tap per game and the load average; the target (a warm tap
answered in 0.3 s) is printed beside, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

TARGET = 0.3  # seconds: a warm tap (issue 38)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(base: str, path: str, body: dict) -> tuple[int, str]:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=300) as res:
            return res.status, res.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def get(base: str, path: str) -> str:
    with urllib.request.urlopen(base + path, timeout=60) as res:
        return res.read().decode()


# --------------------------------------------------------------------------- the taps


def unearth_odds(i: int) -> list[tuple[str, dict]]:
    return [
        # claims 8 to 22: every one reachable (5 + 3 + 8 + 6; an unreachable claim is bad input)
        ("/api/unearth/odds", {"claim": 8 + i % 15, "dice": "blue:d6=5,blue:d6=3,red:d8,blue:d6"})
    ]


def unearth_advise(example: str, i: int) -> list[tuple[str, dict]]:
    state = example.replace("bag = 40", f"bag = {20 + i % 30}")
    return [("/api/unearth/advise", {"state": state})]


def _ct_cards() -> dict[str, list[str]]:
    """Each wonder's cards as a table state names them (the rules' grid)."""
    from analyzer.colorful_treasure.odds import _label
    from analyzer.colorful_treasure.rules import load_rules

    rules = load_rules()
    rows = rules.tables.rows
    return {w: [_label(rules, i * rows + k) for k in range(rows)]
            for i, w in enumerate(rules.wonder_ids)}  # fmt: skip


CARDS = _ct_cards()


def ct_taps(example: str, taps: int) -> list[list[tuple[str, dict]]]:
    """Colorful Treasure: each tap marks one more face-down card remembered (then gone),
    and asks the advice and the odds of the new state together, as the page does."""
    import tomllib

    data = tomllib.loads(example)
    out = []
    for i in range(taps):
        grid = data["grid"]
        names = sorted(grid)
        w = names[i % len(names)]
        col = grid[w]
        # a card of the wonder not yet gone nor remembered, remembered now
        kinds = CARDS[w]
        known = set(col.get("gone", [])) | set(col.get("remembered", []))
        state = example
        for k in kinds:
            if k not in known:
                text = _ct_remember(example, w, k)
                if text is not None:
                    state = text
                    break
        state = state.replace("players = 2", f"players = {2 + i % 3}")
        out.append([("/api/colorful_treasure/advise", {"state": state}),
                    ("/api/colorful_treasure/odds", {"state": state})])  # fmt: skip
    return out


def _ct_remember(example: str, wonder: str, kind: str) -> str | None:
    """The example with ``kind`` of ``wonder`` remembered, if the server takes it."""
    head = f"[grid.{wonder}]\n"
    at = example.find(head)
    if at < 0:
        return None
    start = at + len(head)
    end = example.find("\n[", start)
    end = len(example) if end < 0 else end
    block = example[start:end]
    if "remembered = [" in block:
        block = block.replace("remembered = [", f'remembered = ["{kind}", ', 1)
    else:
        block = block.rstrip("\n") + f'\nremembered = ["{kind}"]\n'
    return example[:start] + block + example[end:]


def uruk_advise(example: str, i: int) -> list[tuple[str, dict]]:
    state = example.replace("resources = { red = 2, yellow = 1 }",
                            f"resources = {{ red = {i % 5}, yellow = {1 + i % 3} }}")  # fmt: skip
    return [("/api/uruk/advise", {"state": state})]


def tap(base: str, requests: list[tuple[str, dict]]) -> tuple[float, list[int]]:
    """One tap: its requests sent together (as a page does); seconds to the last answer."""
    t = time.perf_counter()
    with ThreadPoolExecutor(max_workers=len(requests)) as pool:
        got = list(pool.map(lambda r: post(base, *r), requests))
    return time.perf_counter() - t, [s for s, _ in got]


def start(root: str | None) -> tuple[subprocess.Popen, str]:
    """``analyzer serve`` on a free port (from the checkout ``root``, else this one),
    once it answers: its process and address."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    if root:
        env["PYTHONPATH"] = root
    proc = subprocess.Popen(
        [sys.executable, "-m", "analyzer", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=root or None,
    )
    while True:
        try:
            get(base, "/api/games")
            return proc, base
        except (urllib.error.URLError, ConnectionError):
            if proc.poll() is not None:
                sys.exit(f"the server stopped: {proc.stderr.read()}")
            time.sleep(0.1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--taps", type=int, default=20, help="timed taps per game and question")
    ap.add_argument("--other", default=None, help="a second checkout, its taps alternated")
    args = ap.parse_args()

    procs = []
    try:
        t0 = time.perf_counter()
        proc, base = start(None)
        procs.append(proc)
        print(f"server ready (engines warmed at start-up): {time.perf_counter() - t0:.1f} s wall")
        bases = [base]
        if args.other:
            proc, other = start(os.path.abspath(args.other))
            procs.append(proc)
            bases.append(other)
            print(f"B: a second server from {os.path.abspath(args.other)}, taps alternated")
        ex = {g: get(base, f"/api/{g}/example") for g in ("unearth", "colorful_treasure", "uruk")}
        n = range(args.taps)
        plans = {
            "unearth odds": [unearth_odds(i) for i in n],
            "unearth advise (one step)": [unearth_advise(ex["unearth"], i) for i in n],
            "colorful_treasure advise + odds (one tap)": ct_taps(ex["colorful_treasure"], len(n)),
            "uruk advise (one step)": [uruk_advise(ex["uruk"], i) for i in n],
        }
        heads = "".join(f" {k + ' median s':>10} {'slowest':>8}" for k in "AB"[: len(bases)])
        print(f"{'question':<44} {'taps':>4}{heads}  A within {TARGET} s")
        for name, taps in plans.items():
            for b in bases:
                tap(b, taps[0])  # warm this question once more
            times: list[list[float]] = [[] for _ in bases]
            bad = 0
            for requests in taps:
                for i, b in enumerate(bases):  # alternated: the same load for both
                    took, statuses = tap(b, requests)
                    times[i].append(took)
                    bad += any(s != 200 for s in statuses)
            cols = "".join(f" {statistics.median(t):>10.3f} {max(t):>8.3f}" for t in times)
            med = statistics.median(times[0])
            flag = f" ({bad} taps not 200)" if bad else ""
            print(f"{name:<44} {len(times[0]):>4}{cols}  {'yes' if med <= TARGET else 'no'}{flag}")
        print(f"load average (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
