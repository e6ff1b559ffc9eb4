"""analyzer serve, attacked as a page on another site (or a careless client) would:
script injected through a path, a foreign Host (DNS rebinding), cross-site POSTs, a
10,000-deep JSON, a client that leaves mid-body, a flood of deep advice. Against a real
uvicorn server on a loopback port (tests/serving.py), and the real ``analyzer serve``
command for what its user sees (ready, Ctrl-C, a port in use).
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

from analyzer.web import serve
from tests.serving import free_port, running_server

ODDS = {"claim": 13, "dice": "a:d8,b:d6"}
INJECTIONS = [
    "/game/%3Cimg%20src=x%20onerror=alert(1)%3E",
    "/reports/%3Csvg%20onload=alert(1)%3E/report.html",
    "/%3Cscript%3Ealert(1)%3C/script%3E",
]


class Caught(logging.Handler):
    """Every record of the server's loggers (uvicorn's do not reach pytest's caplog)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)

    def text(self) -> str:
        return "\n".join(self.format(r) for r in self.records)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real server answering one deep advice at a time, one more waiting."""
    caught = Caught()
    names = ("uvicorn", "uvicorn.error", "analyzer.web.serve")
    with running_server(tmp_path_factory.mktemp("reports"), deep_at_once=1, deep_queue=1) as url:
        for name in names:  # after uvicorn configured its logging
            logging.getLogger(name).addHandler(caught)
        try:
            yield url, caught
        finally:
            for name in names:
                logging.getLogger(name).removeHandler(caught)


def ask(url: str, method: str, path: str, body: bytes | None = None, headers=None):
    """``(status, headers, text)`` of one request; headers exactly as given (the Host
    too, when given)."""
    where = urlsplit(url)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=120)
    try:
        conn.putrequest(method, path, skip_host="Host" in (headers or {}))
        for k, v in {**(headers or {})}.items():
            conn.putheader(k, v)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        res = conn.getresponse()
        return res.status, dict(res.getheaders()), res.read().decode()
    finally:
        conn.close()


def post(url, path, fields, **headers):
    headers = {"Content-Type": "application/json", **headers}
    return ask(url, "POST", path, json.dumps(fields).encode(), headers)


def one_line(status: int, text: str, headers: dict) -> str:
    """The refusal's line: JSON ``{"error": ...}`` or plain text, one line."""
    media = headers.get("content-type", "")
    line = json.loads(text)["error"] if media.startswith("application/json") else text.strip()
    assert line and "\n" not in line and "Traceback" not in line, (status, text)
    return line


def test_a_script_in_a_path_is_never_echoed_as_markup(server):
    url, _ = server
    for path in INJECTIONS:
        status, headers, text = ask(url, "GET", path)
        assert status == 404, (path, status)
        assert "<img" not in text and "<svg" not in text and "<script" not in text, text
        assert headers["x-content-type-options"] == "nosniff"
    status, _, text = ask(url, "GET", INJECTIONS[0])
    assert "&lt;img src=x onerror=alert(1)&gt;" in text  # shown, as text


def test_not_found_under_the_api_is_json(server):
    url, _ = server
    for method, path in [
        ("GET", "/api/%3Cimg%3E/x/y"),
        ("GET", "/api/nogame/example"),
        ("GET", "/api/unearth/odds"),  # a method not taken: 405, as JSON too
        ("POST", "/api/unearth/simulate"),
    ]:
        body = b"{}" if method == "POST" else None
        headers = {"Content-Type": "application/json"} if body else {}
        status, got, text = ask(url, method, path, body, headers)
        assert status in (404, 405), (path, status)
        assert got["content-type"].startswith("application/json"), (path, got)
        one_line(status, text, got)


def test_a_foreign_host_is_refused_everywhere(server):
    """A DNS-rebinding page reaches 127.0.0.1 under its own name: 421 for every path,
    before anything runs; the server's own names (with its port) are answered."""
    url, _ = server
    port = urlsplit(url).port
    foreign = [
        "attacker.example",
        f"attacker.example:{port}",
        f"localhost:{port + 1}",
        f"127.0.0.1.attacker.example:{port}",
        "",
        "[localhost]",
        f"[::1]x:{port}",
    ]
    for host in foreign:
        for method, path, body in [
            ("GET", "/", None),
            ("GET", "/api/games", None),
            ("POST", "/api/unearth/odds", json.dumps(ODDS).encode()),
        ]:
            headers = {"Host": host, "Content-Type": "application/json"}
            status, got, text = ask(url, method, path, body, headers)
            assert status in (400, 421), (host, path, status, text)
            one_line(status, text, got)
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "LOCALHOST"):
        assert ask(url, "GET", "/api/games", headers={"Host": host})[0] == 200, host
        status, _, text = post(url, "/api/unearth/odds", ODDS, Host=host)
        assert status == 200, (host, text)


def test_cross_site_posts_are_refused(server, monkeypatch):
    """A form or a text/plain fetch from another site needs no preflight: refused, as is
    JSON with a foreign Origin or Referer; the question is never asked."""
    url, _ = server
    asked = []
    real = serve.answer
    monkeypatch.setattr(serve, "answer", lambda *a: asked.append(a) or real(*a))
    body = json.dumps(ODDS).encode()
    foreign = "http://attacker.example"
    refused = [
        {"Content-Type": "text/plain"},  # a simple request: no preflight
        {"Content-Type": "text/plain;charset=UTF-8", "Origin": foreign},
        {"Content-Type": "application/x-www-form-urlencoded", "Origin": foreign},
        {"Content-Type": "multipart/form-data; boundary=x", "Origin": foreign},
        {},  # no Content-Type at all
        {"Content-Type": "application/json", "Origin": foreign},
        {"Content-Type": "application/json", "Origin": "null"},  # a sandboxed frame
        {"Content-Type": "application/json", "Origin": url.replace("127.0.0.1", "localhost")},
        {"Content-Type": "application/json", "Referer": foreign + "/page.html"},
        {"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"},
    ]
    for headers in refused:
        status, got, text = ask(url, "POST", "/api/unearth/odds", body, headers)
        assert status in (403, 415), (headers, status, text)
        assert "access-control-allow-origin" not in {k.lower() for k in got}
        one_line(status, text, got)
    assert asked == []
    # the page's own origin, and a client such as curl (no Origin, no Referer): answered
    for headers in ({"Origin": url}, {"Referer": url + "/game/unearth"}, {}):
        status, _, text = post(url, "/api/unearth/odds", ODDS, **headers)
        assert status == 200, (headers, text)
    assert len(asked) == 3


def test_no_cors_preflight_is_granted(server):
    url, _ = server
    status, headers, _ = ask(
        url,
        "OPTIONS",
        "/api/unearth/advise",
        headers={
            "Origin": "http://attacker.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert status >= 400
    assert not any(k.lower().startswith("access-control-") for k in headers), headers


def test_a_10000_deep_json_is_one_line(server):
    url, caught = server
    before = len(caught.records)
    for deep in (b"[" * 10_000 + b"]" * 10_000, b'{"a":' * 10_000 + b"1" + b"}" * 10_000):
        status, got, text = ask(
            url, "POST", "/api/unearth/odds", deep, {"Content-Type": "application/json"}
        )
        assert status == 400, (status, text[:200])
        assert one_line(status, text, got).startswith("body: JSON nested deeper than")
    # strings may hold any brackets; a body too large keeps its 413
    status, _, text = post(url, "/api/unearth/odds", {**ODDS, "junk": "[" * 5000})
    assert status == 400 and json.loads(text)["error"].startswith("junk: unknown field"), text
    big = b"[" * (serve.MAX_BODY + 10)
    ct = {"Content-Type": "application/json"}
    assert ask(url, "POST", "/api/unearth/odds", big, ct)[0] == 413
    assert not [r for r in caught.records[before:] if r.levelno >= logging.ERROR]


def _leave_mid_body(url: str) -> None:
    """A POST that promises 1,000 bytes, sends 10 and hangs up."""
    where = urlsplit(url)
    with socket.create_connection((where.hostname, where.port), timeout=10) as s:
        s.sendall(
            b"POST /api/unearth/odds HTTP/1.1\r\n"
            + f"Host: {where.netloc}\r\n".encode()
            + b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
            + b'{"claim": '
        )
        time.sleep(0.2)  # the server is reading the body


def test_a_client_leaving_mid_body_is_not_an_error(server):
    url, caught = server
    before = len(caught.records)
    for _ in range(3):
        _leave_mid_body(url)
    time.sleep(0.5)
    assert post(url, "/api/unearth/odds", ODDS)[0] == 200  # still serving
    logged = caught.records[before:]
    text = "\n".join(r.getMessage() for r in logged)
    assert not [r for r in logged if r.levelno >= logging.ERROR or r.exc_info], text
    assert "Exception in ASGI application" not in text


def test_a_flood_of_deep_advice_is_queued_then_refused(server):
    """Eight deep advice at once on a server running one at a time with one waiting:
    some answered, the rest 429 with one line; none fails; the server serves after."""
    url, caught = server
    before = len(caught.records)
    state = ask(url, "GET", "/api/unearth/example")[2]
    deep = {"state": state, "deep": True, "budget": 200, "seed": 5}
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda _: post(url, "/api/unearth/advise", deep), range(8)))
    statuses = sorted(s for s, _, _ in got)
    assert set(statuses) <= {200, 429}, [(s, t[:200]) for s, _, t in got]
    assert 1 <= statuses.count(200) <= 2 + 2, statuses  # a late arrival may find a turn free
    assert statuses.count(429) >= 4, statuses
    for status, headers, text in got:
        if status == 429:
            assert one_line(status, text, headers).startswith("busy: 1 deep advice at a time")
            assert headers.get("retry-after")
    answers = {t for s, _, t in got if s == 200}
    assert len({json.dumps({**json.loads(t), "seconds": 0}) for t in answers}) == 1  # same seed
    assert post(url, "/api/unearth/advise", deep)[0] == 200  # the turns were given back
    assert post(url, "/api/unearth/odds", ODDS)[0] == 200  # odds never wait for deep advice
    assert not [r for r in caught.records[before:] if r.levelno >= logging.ERROR]


def test_the_deep_gate_counts_its_turns():
    """DeepGate alone: full exactly when at_once run and queue wait; cores() by default."""
    import anyio

    gate = serve.DeepGate(2, 1)
    assert serve.DeepGate().at_once == serve.cores() >= 1
    assert serve.DeepGate().queue == 2 * serve.cores()
    seen = []

    async def one():
        async with gate.turn():
            seen.append(gate.inside)
            await anyio.sleep(0.05)

    async def main():
        async with anyio.create_task_group() as tg:
            for _ in range(3):
                tg.start_soon(one)
            await anyio.sleep(0.01)
            assert gate.inside == 3 and gate.full()
        assert gate.inside == 0 and not gate.full()

    anyio.run(main)
    assert max(seen) == 3


@pytest.mark.parametrize(
    ("value", "name", "port"),
    [
        ("localhost:8765", "localhost", 8765),
        ("LocalHost", "localhost", None),
        ("[::1]:8765", "::1", 8765),
        ("[0:0::1]", "::1", None),
        ("127.0.0.1:80", "127.0.0.1", 80),
        ("::1", None, None),  # IPv6 without brackets
        ("[localhost]:8765", None, None),
        ("localhost:x", None, None),
        ("localhost:", None, None),
        ("[::1]8765", None, None),
    ],
)
def test_host_headers_are_read_strictly(value, name, port):
    got = serve.split_host(value)
    assert got == (None if name is None else (name, port))


def test_served_names():
    assert serve.served_names("127.0.0.1") == {"127.0.0.1"}
    assert serve.served_names("192.168.1.20") == {"192.168.1.20"}
    every = serve.served_names("0.0.0.0")
    assert "0.0.0.0" not in every and every >= serve.machine_addresses() - {"0.0.0.0"}
    assert serve.json_depth(b'{"a": [1, {"b": "[[[["}]}') == 3
    assert serve.json_depth(b'"\\"[[[["') == 0


def _start(port: int) -> tuple[subprocess.Popen, list[str], queue.Queue]:
    """``analyzer serve --port PORT`` in a child: its stderr's lines up to the ready
    line (or to two minutes without one), and the queue the rest arrives on."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "analyzer", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines: queue.Queue = queue.Queue()

    def read():
        for line in proc.stderr:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    seen: list[str] = []
    while not seen or (seen[-1] is not None and "ready at" not in seen[-1]):
        try:
            seen.append(lines.get(timeout=120))
        except queue.Empty:
            break
    return proc, [x for x in seen if x is not None], lines


def _rest(lines: queue.Queue) -> list[str]:
    out = []
    while (line := lines.get(timeout=60)) is not None:
        out.append(line)
    return out


@pytest.mark.slow
def test_serve_says_ready_leaves_no_traceback_and_stops_on_ctrl_c():
    """The command: one line when it answers (the URL to open), a client leaving
    mid-body and a deep JSON leave nothing in its log, Ctrl-C stops it (exit 0, no
    error, no traceback), and a second server on the same port is one line."""
    port = free_port()
    proc, lines, rest = _start(port)
    try:
        url = f"http://127.0.0.1:{port}"
        assert lines and lines[-1] == f"analyzer serve: ready at {url}/ (Ctrl-C stops it)", lines
        busy = subprocess.run(
            [sys.executable, "-m", "analyzer", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert busy.returncode == 2
        assert busy.stderr.splitlines() == [
            f"analyzer: error: --port: {port} is in use on 127.0.0.1 (allowed: a free port)"
        ]
        _leave_mid_body(url)
        deep = b"[" * 10_000 + b"]" * 10_000
        ct = {"Content-Type": "application/json"}
        assert ask(url, "POST", "/api/unearth/odds", deep, ct)[0] == 400
        assert post(url, "/api/unearth/odds", ODDS)[0] == 200
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
        after = _rest(rest)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 0, after
    assert after == ["analyzer serve: stopped"], after  # no error line, no traceback
    assert proc.stdout.read() == ""
