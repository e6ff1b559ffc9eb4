"""analyzer serve, as a player at the table meets it: how long the server takes to start
(engines loaded from the numba cache), the first page load, a warm answer through the
API against the one-shot CLI (side by side, same question), and 50 requests at once.

    python benchmarks/bench_serve.py                 # 20 warm answers, 50 concurrent
    python benchmarks/bench_serve.py --answers 40 --concurrent 100

Prints figures and ratios; asserts only that every answer is the right one.
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

SEVEN = {"claim": 17, "dice": "a:d8,b:d6,a:d6,b:d4,a:d6,b:d6,a:d4"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(url: str, body: dict) -> tuple[int, str]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=300) as res:
            return res.status, res.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=60) as res:
        return res.status, res.read()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=20, help="sequential warm answers timed")
    ap.add_argument("--concurrent", type=int, default=50, help="requests sent at once")
    args = ap.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "analyzer", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while True:
            try:
                get(base + "/api/games")
                break
            except (urllib.error.URLError, ConnectionError):
                if proc.poll() is not None:
                    sys.exit(f"the server stopped: {proc.stderr.read()}")
                time.sleep(0.05)
        started = time.perf_counter() - t0
        print(f"server start (engines warm from the numba cache): {started:.2f} s wall")

        loads = []
        for _ in range(5):
            t = time.perf_counter()
            status, body = get(base + "/game/unearth")
            loads.append(time.perf_counter() - t)
            assert status == 200 and b"Unearth at the table" in body
        print(f"page load /game/unearth: median {1000 * statistics.median(loads):.1f} ms "
              f"({len(body):,} bytes, one request: styles and script inline)")  # fmt: skip
        for name in ("colorful_treasure", "uruk"):
            loads = []
            for _ in range(5):
                t = time.perf_counter()
                status, body = get(f"{base}/game/{name}")
                loads.append(time.perf_counter() - t)
                assert status == 200 and b"at the table" in body
            print(f"page load /game/{name}: median {1000 * statistics.median(loads):.1f} ms "
                  f"({len(body):,} bytes)")  # fmt: skip

        cli = subprocess.run(
            [sys.executable, "-m", "analyzer", "odds", "--claim", "17", "--dice", SEVEN["dice"],
             "--json"], capture_output=True, text=True, check=True,
        )  # fmt: skip
        api_times, cli_times = [], []
        for _ in range(args.answers):
            t = time.perf_counter()
            status, text = post(base + "/api/unearth/odds", SEVEN)
            api_times.append(time.perf_counter() - t)
            assert status == 200 and text == cli.stdout, "the API's answer is not the CLI's"
        for _ in range(max(3, args.answers // 4)):  # the one-shot CLI, same question
            t = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "analyzer", "odds", "--claim", "17", "--dice",
                 SEVEN["dice"], "--json"], capture_output=True, check=True,
            )  # fmt: skip
            cli_times.append(time.perf_counter() - t)
        a, c = statistics.median(api_times), statistics.median(cli_times)
        print(
            f"7-dice Unearth odds: API warm median {1000 * a:.1f} ms of {len(api_times)} "
            f"(max {1000 * max(api_times):.1f}); one-shot CLI median {1000 * c:.0f} ms of "
            f"{len(cli_times)}; CLI/API {c / a:.1f}x"
        )

        games = json.loads(get(base + "/api/games")[1])
        for g in games:
            if g["name"] == "unearth" or not g["odds"]:
                continue
            ex = urllib.request.urlopen(f"{base}/api/{g['name']}/example").read().decode()
            times = []
            for _ in range(args.answers):
                t = time.perf_counter()
                status, _text = post(f"{base}/api/{g['name']}/odds", {"state": ex})
                times.append(time.perf_counter() - t)
            print(f"{g['name']} odds (its example): API warm median "
                  f"{1000 * statistics.median(times):.1f} ms, status {status}")  # fmt: skip

        questions = [
            {"claim": c, "dice": d}
            for c, d in [(13, "blue:d6=5,blue:d6=3,red:d8"), (11, "me:d6,me:d4"),
                         (15, "me:d8,you:d6=6,you:d6=4"), (17, SEVEN["dice"])]
        ]  # fmt: skip
        alone = {json.dumps(q): post(base + "/api/unearth/odds", q)[1] for q in questions}
        batch = [questions[i % len(questions)] for i in range(args.concurrent)]
        t = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.concurrent) as pool:
            got = list(pool.map(lambda q: post(base + "/api/unearth/odds", q), batch))
        took = time.perf_counter() - t
        wrong = [(q, s, b) for q, (s, b) in zip(batch, got, strict=True)
                 if not (s == 200 and b == alone[json.dumps(q)])]  # fmt: skip
        right = len(batch) - len(wrong)
        for q, s, b in wrong[:3]:  # what went wrong, not only how often
            print(f"  wrong: {json.dumps(q)} -> {s} {' '.join(b.split())[:200]}")
        after = post(base + "/api/unearth/odds", SEVEN)[0]
        print(
            f"{args.concurrent} concurrent odds requests: {right} of {len(batch)} answered "
            f"correctly in {took:.2f} s wall; the server answers after: {after == 200}"
        )
        print(f"load average: {os.getloadavg()[0]:.1f}")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
