"""A real ``analyzer serve`` app on a loopback port, for the API and browser tests."""

from __future__ import annotations

import contextlib
import socket
import threading
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(reports, warm: bool = False, **options):
    """uvicorn serving :func:`analyzer.web.serve.make_app` in a thread of this process
    (``options``: make_app's, such as ``deep_at_once``); yields its base URL and stops
    it on exit."""
    import uvicorn

    from analyzer.web import serve

    port = free_port()
    app = serve.make_app(reports, warm=warm, **options)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not srv.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    if not srv.started:
        raise RuntimeError("analyzer serve did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=10)
