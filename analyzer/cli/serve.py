"""``analyzer serve``: the odds and advice of every game in a browser page."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import typer

EXAMPLES = """
Start a local web app: a page per game, usable on a phone, where the table
state is set with taps and the exact odds, the ranked advice and (on request)
the deep advice are shown; a JSON API under it (POST /api/GAME/odds and
/api/GAME/advise take the command's options as fields and answer exactly what
its --json prints); the saved reports under --reports listed on the first page.

Examples:

  analyzer serve                      # http://127.0.0.1:8765/

  analyzer serve --port 9000 --reports reports

  analyzer serve --host 0.0.0.0       # share it on your home network (read the warning)

  curl -s localhost:8765/api/unearth/odds -H 'Content-Type: application/json' \
    -d '{"claim": 13, "dice": "blue:d6=5,blue:d6=3,red:d8"}'

The engines are loaded once at start-up (a few seconds with the numba cache
warm), so every answer after that comes warm; a line says when it is ready, with
the address to open. Ctrl-C stops the server. It answers only to its own names,
takes a POST only as JSON from its own page (or a client such as curl), and runs a
few deep advice at a time: docs/serve.md says what it refuses and why.
"""


def lan_address() -> str | None:
    """This machine's address on its home network (the one its default route leaves
    by), or None; no packet is sent."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # a documentation address: a route, no traffic
            return s.getsockname()[0]
    except OSError:
        return None


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""

    @app.command("serve", help=EXAMPLES)
    def serve_cmd(
        host: str = typer.Option(
            "127.0.0.1",
            "--host",
            help="address to listen on (default: this machine only; 0.0.0.0: every network)",
        ),
        port: int = typer.Option(8765, "--port", help="TCP port (1 to 65535)"),
        reports: Path = typer.Option(
            Path("reports"), "--reports", help="folder whose report folders the index lists"
        ),
    ) -> None:
        from analyzer.core.errors import bad_value

        if not 1 <= port <= 65535:
            raise bad_value("--port", port, "a TCP port from 1 to 65535")
        try:
            loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:
            raise bad_value("--host", host, "an IP address such as 127.0.0.1 or 0.0.0.0") from None
        from analyzer.core.errors import Interrupted
        from analyzer.web.serve import listen, serve

        sock = listen(host, port)  # a port in use or a foreign address: its one line
        if not loopback:
            typer.echo(
                f"analyzer: warning: serving on {host}: anyone on your network can use this "
                "page and its API (no login); stop it with Ctrl-C when the game is over",
                err=True,
            )
        shown = host
        if host in ("0.0.0.0", "::"):  # every address: show the one a phone would use
            shown = lan_address() or host
        if ":" in shown:
            shown = f"[{shown}]"
        url = f"http://{shown}:{port}/"
        typer.echo(
            "analyzer serve: loading the engines (a few seconds; a minute or two the first time)",
            err=True,
        )

        def ready() -> None:
            typer.echo(f"analyzer serve: ready at {url} (Ctrl-C stops it)", err=True)

        try:
            serve(host=host, port=port, reports=reports, sock=sock, on_ready=ready)
        except (KeyboardInterrupt, Interrupted):  # stopped before it was ready
            pass
        typer.echo("analyzer serve: stopped", err=True)
