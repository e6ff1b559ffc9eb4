"""``analyzer serve``: odds and advice at the table, in a browser.

A small web app over the same library the terminal's commands call. The JSON API
takes a question's parameters as fields (``{"claim": 13, "dice": "a:d8,b:d6"}``
asks what ``analyzer odds --claim 17 --dice a:d8,b:d6`` asks) and answers with
exactly what the command prints with ``--json``: both ask
:func:`analyzer.games.table.ask` and print the answer's
:meth:`~analyzer.games.table.Answer.to_json`, so the web and the terminal cannot
drift apart, and every answer comes from engines loaded once (warm).

Built on Starlette (the ASGI toolkit FastAPI is made of: routing, requests,
responses, a test client; no data-model layer we would not use, since the
questions check their own input) served by uvicorn (the reference ASGI
server). Sync endpoints run in Starlette's thread pool.

Never from the web: options that write files or lift limits (``chart``,
``out``, ``force``), and a deep advice budget above :data:`WEB_MAX_BUDGET`.
Bad input answers 400 with the question's own one-line reason, naming the field:
the library's error names its parameter by its Python name, which is the field's.

Nothing let in from elsewhere (:class:`Guard`, wrapped around every request): only
our own names are answered (:func:`served_names`; any other ``Host`` is a 421, which
stops a DNS-rebinding page), a POST must be JSON from the page's own origin (no
cross-site form or ``text/plain`` request runs, and no CORS header invites one),
everything echoed into HTML is escaped (:func:`html_text`), deep advice runs at most
:func:`cores` at a time with a bounded queue (:class:`DeepGate`; a 429 past it), a
body is at most :data:`MAX_BODY` bytes and :data:`MAX_DEPTH` levels deep, and a
client that leaves mid-request is not an error.

The generic layer: no game is imported here, nor the CLI. A game offers a page
through :meth:`analyzer.games.Game.web_page`; its odds and advice are its table
questions (:class:`analyzer.games.table.TableSpec`).
"""

from __future__ import annotations

import contextlib
import html
import ipaddress
import json
import logging
import os
import re
import threading
import time
from importlib import resources
from pathlib import Path

from analyzer.core.errors import InputError, Lift, ParamError, describe
from analyzer.games import table

#: the questions the API asks, by the last part of its path
API_COMMANDS = ("odds", "advise")
#: fields the web never passes on (they write files or lift limits), with why
FORBIDDEN = {
    "chart": "writes a file",
    "out": "writes a file",
    "force": "lifts the price limit",
    "example": "use GET /api/<game>/example",
    "json": "always on",
    "debug": "not from the web",
}
#: what the web says where a question's error offers the way past its limit (``force``)
_NO_FORCE = "the web runs no longer question"
#: the largest deep-advice budget (total rollouts) a web request may ask for
WEB_MAX_BUDGET = 100_000
#: the largest request body accepted, in bytes
MAX_BODY = 64 * 1024
#: the deepest a request body's JSON may nest (its fields are two levels deep)
MAX_DEPTH = 32
#: the names every server answers to (with the port it listens on)
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
#: exit codes (:data:`analyzer.core.errors.EXIT_CODES`) a request answers with its one
#: line and the status it answers with (bad input: 400, interrupted: 503); any other
#: failure is a 500, and :func:`answer` logs its traceback
ANSWERED = {2: 400, 130: 503}

#: where a failed request's traceback goes (the web answer has only its one line)
log = logging.getLogger("analyzer.web.serve")

_FIRST_LOCK = threading.RLock()
_ASKED: set[tuple[str, str]] = set()  # the questions asked once (their modules imported)
_DEEP: dict[str, bool] = {}  # game -> whether its advise answers deep (asked once)
_DEEP_LOCK = threading.Lock()


class RequestError(Exception):
    """Bad input from a web request: the one-line reason and the HTTP status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def question(game: str, kind: str):
    """Game ``game``'s table question ``kind`` (``odds``, ``advise``), or None."""
    try:
        return table.question(game, kind)
    except InputError:  # no such game, or no such question of it
        return None


def supports(game: str, kind: str) -> bool:
    """Whether ``game`` answers the table question ``kind``."""
    return question(game, kind) is not None


def load_questions() -> None:
    """Read every game's table questions (before serving: requests in threads must
    not be the first to import their modules)."""
    from analyzer.games import available_games

    for game in available_games():
        for kind in API_COMMANDS:
            supports(game, kind)


def request(game: str, kind: str, fields) -> tuple[table.StateText | None, dict]:
    """The table state and the parameters a request's JSON ``fields`` ask ``kind``
    of ``game`` with (the question reads them as the command line does: a number
    for a text option as its text). Raises :class:`RequestError` naming the field
    for anything the web does not take."""
    q = question(game, kind)
    if q is None:
        raise RequestError(f"game {game!r} has no {kind} here", 404)
    if not isinstance(fields, dict):
        raise RequestError("the body must be one JSON object of fields")
    params = {o.name: o for o in q.options}
    state = None
    options: dict = {}
    for raw_key, value in fields.items():
        key = str(raw_key).replace("-", "_")
        if key in FORBIDDEN:
            raise RequestError(f"{raw_key}: not allowed from the web ({FORBIDDEN[key]})")
        if key == "game":
            raise RequestError(f"{raw_key}: the game is in the path (/api/{game}/{kind})")
        o = params.get(key)
        if o is None or key in ("help",):
            allowed = ", ".join(sorted(k for k in params if k not in FORBIDDEN and k != "game"))
            raise RequestError(f"{raw_key}: unknown field (allowed: {allowed})")
        if value is None:
            continue
        if key == "budget":
            value = _web_budget(value)
        if o.kind == "state":
            if not isinstance(value, str):
                raise RequestError("state: must be the TOML text of a table state")
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as err:  # a lone surrogate: JSON allows "\ud800"
                raise RequestError(f"state: not text ({err.reason} at {err.start})") from None
            state = table.StateText(value)
            continue
        if o.kind == "flag":
            if not isinstance(value, bool):
                raise RequestError(f"{raw_key}: must be true or false, not {value!r}")
            if not o.front:  # the CLI's own (json_out): the web always answers JSON
                options[key] = value
            continue
        many = o.kind == "texts"
        values = value if many and isinstance(value, list) else [value]
        if isinstance(value, list) and not many:
            raise RequestError(f"{raw_key}: one value, not a list")
        for v in values:
            if isinstance(v, bool) or not isinstance(v, str | int | float):
                raise RequestError(f"{raw_key}: must be a string or a number, not {v!r}")
        if o.front:
            continue
        if many:  # repeatable: every value, as each --wonder adds one
            options.setdefault(key, []).extend(values)
        else:
            options[key] = value
    return state, options


def _web_budget(value) -> int:
    """A deep-advice budget from a request, as the integer the question will get:
    checked here against :data:`WEB_MAX_BUDGET` whatever its spelling (``"200000"``,
    ``200000.0``), so no spelling slips past the web's limit."""
    allowed = f"an integer from 1 to {WEB_MAX_BUDGET:,}"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    try:
        n = value if type(value) is int else int(str(value).strip())
    except (ValueError, OverflowError):
        raise RequestError(f"budget: bad value {value!r} (allowed: {allowed})") from None
    if n > WEB_MAX_BUDGET:
        raise RequestError(f"budget: {n} is above the web's limit ({allowed})")
    return n


def web_spelling(param) -> str:
    """A parameter named by an error as the web names it: its field; the way past a
    limit as what the web does instead."""
    return _NO_FORCE if isinstance(param, Lift) else str(param)


def answer(game: str, kind: str, fields: dict) -> tuple[int, str]:
    """``(HTTP status, body)`` for ``POST /api/GAME/KIND`` with JSON ``fields``: what
    the command prints with ``--json`` (200), or ``{"error": one line}``."""
    from analyzer.core.errors import Interrupted
    from analyzer.core.invocation import SERVING

    try:
        state, options = request(game, kind, fields)
    except RequestError as err:
        return err.status, json.dumps({"error": str(err)})
    serving = SERVING.set(True)  # no child process forked from a server's thread
    try:
        with _first(game, kind):
            body = table.ask(game, kind, state, options).to_json() + "\n"
    except (Exception, KeyboardInterrupt, Interrupted) as err:
        code, line = describe(err)
        if isinstance(err, ParamError):
            line = err.spelled(web_spelling)
        if code not in ANSWERED:  # its traceback to the server's own log
            log.error(
                "analyzer %s --game %s: exit code %d (a 500) for the fields %s; its traceback:",
                kind,
                game,
                code,
                _shown(fields),
                exc_info=err,
            )
        return ANSWERED.get(code, 500), json.dumps({"error": " ".join(line.split())})
    finally:
        SERVING.reset(serving)
    return 200, body


@contextlib.contextmanager
def _first(game: str, kind: str):
    """A question's first asking imports its modules: one first asking at a time,
    since two threads importing modules that import each other can meet a
    half-made module."""
    if (game, kind) in _ASKED:
        yield
        return
    with _FIRST_LOCK:
        yield
        _ASKED.add((game, kind))


def _shown(fields) -> str:
    """A request's fields for the log, shortened."""
    text = json.dumps(fields, default=repr)
    return text if len(text) <= 500 else text[:499] + "…"


def example(game: str) -> tuple[int, str]:
    """``(status, TOML text)`` of the example table state of ``game``'s advice."""
    if not supports(game, "advise"):
        return 404, json.dumps({"error": f"game {game!r} has no advise here"})
    try:
        return 200, table.example(game)
    except Exception as err:  # noqa: BLE001 - a game's missing example: one line
        return 500, json.dumps({"error": describe(err)[1]})


def deep_offered(game: str) -> bool:
    """Whether the deep advice answers for ``game``: its advise has a ``deep``
    parameter and answers the example state with it (a budget of 2, a fixed seed)
    instead of refusing it. Asked once per game and remembered, so a page offers the
    deep advice exactly when the API gives it, whichever version of a game is
    installed."""
    with _DEEP_LOCK:
        if game not in _DEEP:
            _DEEP[game] = _ask_deep(game)
        return _DEEP[game]


def _ask_deep(game: str) -> bool:
    q = question(game, "advise")
    if q is None:
        return False
    params = {o.name for o in q.options}
    if "deep" not in params:
        return False
    status, text = example(game)
    if status != 200:
        return False
    fields = {"state": text, "deep": True}
    fields.update({k: 2 for k in ("budget", "seed") if k in params})  # 2: the least any takes
    status, body = answer(game, "advise", fields)
    if status == 400 and "budget" in fields and "budget" in body:  # a larger least budget
        del fields["budget"]
        status, body = answer(game, "advise", fields)
    return status == 200


# --------------------------------------------------------------------------- pages


def _asset(name: str) -> str:
    return resources.files("analyzer").joinpath("web", name).read_text(encoding="utf-8")


def games_list() -> list[dict]:
    """Every game with what the web offers for it."""
    from analyzer.games import available_games, load_game
    from analyzer.games.table import deep_estimate

    out = []
    for name in available_games():
        g = load_game(name)
        said = deep_estimate(name) if deep_offered(name) else None
        out.append(
            {
                "name": name,
                "title": g.title,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "odds": supports(name, "odds"),
                "advise": supports(name, "advise"),
                "deep": deep_offered(name),
                "page": g.web_page() is not None,
                # the deep advice's default rollouts and their estimated seconds here
                "deep_rollouts": None if said is None else said.rollouts,
                "deep_seconds": None if said is None else round(said.seconds, 1),
                "deep_estimate": None if said is None else str(said),
            }
        )
    return out


def html_text(text) -> str:
    """``text`` as HTML text or an attribute's value: the one escaping of everything
    the server echoes into HTML."""
    return html.escape(str(text), quote=True)


def html_line(line: str) -> str:
    """A page holding one line of text (a not-found answer), escaped."""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html_text(line)}</title></head><body><p>{html_text(line)}</p></body></html>\n"
    )


def page(game: str | None) -> str:
    """The HTML of the index (``game`` None) or of a game's page."""
    shell = _asset("shell.html")
    if game is None:
        body = _asset("index.html")
        title = "analyzer at the table"
    else:
        from analyzer.games import load_game

        g = load_game(game, where="game")
        body = g.web_page() or _asset("generic.html")
        title = f"{g.title}: odds and advice"
    return (
        shell.replace("{{TITLE}}", html_text(title))
        .replace("{{GAME}}", html_text(game or ""))
        .replace("{{COMMON_JS}}", _asset("common.js"))
        .replace("{{BODY}}", body)
    )


def report_folders(root: Path) -> list[dict]:
    """The report folders directly under ``root`` that hold a ``report.html``,
    newest first, with what their manifest says."""
    out = []
    if not root.is_dir():
        return out
    inside = root.resolve()
    for d in sorted(root.iterdir()):
        html = d / "report.html"
        if not (d.is_dir() and html.is_file()):
            continue
        if not html.resolve().is_relative_to(inside):  # a symlink out of the folder
            continue
        info: dict = {}
        try:
            info = json.loads((d / "manifest.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
        out.append(
            {
                "name": d.name,
                "game": info.get("game") or (info.get("settings") or {}).get("game", ""),
                "modified": html.stat().st_mtime,
                "description": str(info.get("description") or info.get("scenario") or ""),
            }
        )
    out.sort(key=lambda r: r["modified"], reverse=True)
    return out


# --------------------------------------------------------------------------- what is refused


def cores() -> int:
    """The cores this process may use: how many deep advice questions run at once."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def machine_addresses() -> set[str]:
    """This machine's own addresses on its networks (those its name resolves to and the
    one its default route leaves by), as far as they can be found without a packet."""
    import socket

    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.add(str(info[4][0]))
    except OSError:
        pass
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:  # a documentation address: a route is chosen, nothing is sent
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.add(str(s.getsockname()[0]))
        except OSError:
            pass
    return found


def served_names(host: str) -> set[str]:
    """The names a server listening on ``host`` answers to besides
    :data:`LOOPBACK_NAMES`: the address served, and for every address (``0.0.0.0``,
    ``::``) this machine's own (:func:`machine_addresses`) and its name."""
    import socket

    names = {host}
    if host in ("0.0.0.0", "::", ""):
        names |= machine_addresses()
        with contextlib.suppress(OSError):
            name = socket.gethostname().lower()
            names |= {name, f"{name}.local"} if name else set()
    return {_host_name(n) for n in names if n} - {"0.0.0.0", "::"}


def _host_name(name: str) -> str:
    """A host name as compared: lower case, an IP address in its shortest spelling."""
    name = name.strip().lower()
    try:
        return ipaddress.ip_address(name.strip("[]")).compressed
    except ValueError:
        return name


def split_host(value: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a ``Host`` header (``localhost:8765``, ``[::1]:8765``,
    ``localhost``: port None), or None for one that is not a host."""
    value = value.strip()
    if value.startswith("["):
        name, closed, rest = value[1:].partition("]")
        if not closed or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else None
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return None
    elif value.count(":") == 1:
        name, port = value.split(":")
    elif ":" in value:  # an IPv6 address needs its brackets
        return None
    else:
        name, port = value, None
    if not name or (port is not None and not (port.isascii() and port.isdigit())):
        return None
    return _host_name(name), (int(port) if port is not None else None)


def _quoted(value: str, most: int = 80) -> str:
    value = value if len(value) <= most else value[: most - 1] + "…"
    return repr(value)


class Guard:
    """ASGI middleware in front of every request: answers only our own names (a
    ``Host`` in ``names`` or :data:`LOOPBACK_NAMES`, or the address the connection
    came to, with the port it came to), and takes a POST only as JSON from the
    page's own origin. Every answer says ``nosniff`` (a text answer is never read as
    HTML) and may not be framed by another site."""

    SAFE = ("GET", "HEAD", "OPTIONS")

    def __init__(self, app, names=()):
        self.app = app
        self.shown = tuple(dict.fromkeys(_host_name(n) for n in (*LOOPBACK_NAMES, *names)))
        self.names = frozenset(self.shown)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.refusal(scope)
        if refused is not None:
            status, line = refused
            await refusal_response(scope["path"], status, line)(scope, receive, send)
            return

        async def send_marked(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [
                    *message["headers"],
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"SAMEORIGIN"),
                ]
            await send(message)

        await self.app(scope, receive, send_marked)

    def refusal(self, scope) -> tuple[int, str] | None:
        """``(status, one line)`` if the request is not ours to answer, else None."""
        from starlette.datastructures import Headers

        headers = Headers(scope=scope)
        server = scope.get("server") or (None, None)
        host = headers.get("host")
        if host is None:
            return 400, "no Host header: this server answers only to its own names"
        got = split_host(host)
        here = self.names | ({_host_name(str(server[0]))} if server[0] else set())
        if got is None or got[0] not in here or got[1] not in (None, server[1]):
            names = ", ".join(f"[{n}]" if ":" in n else n for n in self.shown)
            port = f" on port {server[1]}" if server[1] else ""
            return 421, (
                f"Host {_quoted(host)} is not this server's: it answers only to its own "
                f"names ({names}{port})"
            )
        if scope["method"] in self.SAFE:
            return None
        scheme = scope.get("scheme", "http")
        ours = _origin(scheme, got[0], got[1])
        origin = headers.get("origin")
        if origin is not None:
            if _origin_of(origin) != ours:
                return 403, (
                    f"cross-site request refused: Origin {_quoted(origin)} is not this "
                    "server's own page"
                )
        elif headers.get("referer") is not None:
            referer = headers["referer"]
            if _origin_of(referer) != ours:
                return 403, (
                    f"cross-site request refused: Referer {_quoted(referer)} is not this "
                    "server's own page"
                )
        elif headers.get("sec-fetch-site", "none") not in ("same-origin", "none"):
            return 403, "cross-site request refused: not from this server's own page"
        sent = headers.get("content-type")
        if (sent or "").split(";")[0].strip().lower() != "application/json":
            said = f"not {_quoted(sent)}" if sent else "none was sent"
            return 415, (f"the body must be JSON sent with Content-Type: application/json ({said})")
        return None


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(scheme: str, name: str, port: int | None) -> tuple[str, str, int | None]:
    scheme = scheme.lower()
    return scheme, name, port if port is not None else _DEFAULT_PORTS.get(scheme)


def _origin_of(url: str) -> tuple[str, str, int | None] | None:
    """``(scheme, host, port)`` of an Origin or Referer, or None (``null``, junk)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname:
        return None
    return _origin(parts.scheme, _host_name(parts.hostname), port)


def refusal_response(path: str, status: int, line: str, headers=None):
    """A refusal's one line: ``{"error": line}`` under ``/api/``, else a line of text."""
    from starlette.responses import Response

    if path.startswith("/api/"):
        body, media = json.dumps({"error": line}), "application/json"
    else:
        body, media = line + "\n", "text/plain; charset=utf-8"
    return Response(body, status_code=status, media_type=media, headers=headers)


class DeepGate:
    """Deep advice (a long run) at most ``at_once`` at a time, and at most ``queue``
    more waiting their turn, first come first served; past that, :meth:`full`."""

    def __init__(self, at_once: int | None = None, queue: int | None = None):
        self.at_once = at_once or cores()
        self.queue = 2 * self.at_once if queue is None else queue
        self.inside = 0  # running and waiting
        self._slots = None  # made in the event loop, at the first deep question

    def full(self) -> bool:
        return self.inside >= self.at_once + self.queue

    def busy_line(self) -> str:
        return (
            f"busy: {self.at_once} deep advice at a time and {self.queue} waiting "
            "already; ask again in a minute"
        )

    @contextlib.asynccontextmanager
    async def turn(self):
        """Wait for a turn (the caller checked :meth:`full`), then hold it."""
        import anyio

        if self._slots is None:
            self._slots = anyio.Semaphore(self.at_once)
        self.inside += 1
        try:
            async with self._slots:
                yield
        finally:
            self.inside -= 1


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(rb"[\[\]{}]")


def json_depth(raw: bytes) -> int:
    """How deep the JSON text ``raw`` nests (``{"a": [1]}``: 2), counted without
    parsing it (a parser recurses, and fails on a deep one)."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub(b"", raw)):
        depth += 1 if m.group() in (b"[", b"{") else -1
        deepest = max(deepest, depth)
    return deepest


# --------------------------------------------------------------------------- the app


def make_app(
    reports: Path | str = "reports",
    *,
    warm: bool = True,
    hosts=(),
    deep_at_once: int | None = None,
    deep_queue: int | None = None,
    stopping: threading.Event | None = None,
):
    """The Starlette app: pages, the JSON API and the saved reports under
    ``reports``; ``warm`` answers one question of each kind at start-up so the
    first user's answer comes from loaded engines. It answers to
    :data:`LOOPBACK_NAMES` and ``hosts`` (:func:`served_names`) only, and runs
    ``deep_at_once`` deep advice at a time (default: :func:`cores`) with
    ``deep_queue`` more waiting (default: twice that) (:class:`Guard`,
    :class:`DeepGate`); ``stopping`` set ends the warm-up early."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import ClientDisconnect, Request
    from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    reports = Path(reports)
    gate = DeepGate(deep_at_once, deep_queue)

    def _json(status: int, body: str, headers=None) -> Response:
        return Response(body, status_code=status, media_type="application/json", headers=headers)

    def _error(status: int, line: str, headers=None) -> Response:
        return _json(status, json.dumps({"error": line}), headers)

    def _not_here(line: str) -> Response:
        return HTMLResponse(html_line(line), status_code=404)

    async def index(request: Request):
        return HTMLResponse(await run_in_threadpool(page, None))

    async def game_page(request: Request):
        from analyzer.games import available_games

        name = request.path_params["game"]
        if name not in available_games():
            return _not_here(f"no game {name!r}")
        return HTMLResponse(await run_in_threadpool(page, name))

    async def api_games(request: Request):
        return JSONResponse(await run_in_threadpool(games_list))

    async def api_example(request: Request):
        name = request.path_params["game"]
        if name not in _known_games():
            return _error(404, f"no game {name!r}")
        status, text = await run_in_threadpool(example, name)
        if status != 200:
            return _json(status, text)
        return Response(text, media_type="text/plain; charset=utf-8")

    async def api_command(request: Request):
        name, kind = request.path_params["game"], request.path_params["kind"]
        if kind not in API_COMMANDS:
            return _error(404, f"no /api/{name}/{kind} (odds or advise)")
        if name not in _known_games():
            return _error(404, f"no game {name!r}")
        raw = b""
        try:
            async for chunk in request.stream():  # stop reading a body past the limit
                raw += chunk
                if len(raw) > MAX_BODY:
                    return _error(413, f"body above {MAX_BODY:,} bytes")
        except ClientDisconnect:  # the client left mid-body: no one to answer
            log.debug("POST %s: the client left before its body ended", request.url.path)
            return Response(status_code=400)
        if json_depth(raw) > MAX_DEPTH:
            return _error(400, f"body: JSON nested deeper than {MAX_DEPTH} levels")
        try:
            fields = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError) as err:
            return _error(400, f"body: not JSON ({err})")
        except RecursionError:  # what json_depth did not see: never a 500
            return _error(400, f"body: JSON nested deeper than {MAX_DEPTH} levels")
        if kind == "advise" and isinstance(fields, dict) and fields.get("deep") is True:
            if gate.full():
                return _error(429, gate.busy_line(), {"Retry-After": "60"})
            async with gate.turn():
                if await request.is_disconnected():  # left while waiting its turn
                    return Response(status_code=400)
                status, body = await run_in_threadpool(answer, name, kind, fields)
            return _json(status, body)
        status, body = await run_in_threadpool(answer, name, kind, fields)
        return _json(status, body)

    async def reports_index(request: Request):
        return JSONResponse(await run_in_threadpool(report_folders, reports))

    async def report_file(request: Request):
        folder = request.path_params["folder"]
        names = {r["name"] for r in report_folders(reports)}
        if folder not in names:  # only listed folders: no path from the request is opened
            return _not_here(f"no report {folder!r}")
        return FileResponse(reports / folder / "report.html", media_type="text/html")

    async def http_error(request: Request, exc: HTTPException):
        """Starlette's own answers (no such path, a method not taken): JSON under
        ``/api/``, else a page with the line escaped."""
        path = request.url.path
        line = str(exc.detail)
        if exc.status_code == 404:
            line = f"nothing at {path}"
        elif exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow", "")
            line = f"{request.method} {path}: not taken here (allowed: {allowed})"
        if path.startswith("/api/"):
            return _error(exc.status_code, line, exc.headers)
        return HTMLResponse(html_line(line), status_code=exc.status_code, headers=exc.headers)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await run_in_threadpool(load_questions)
        if warm:
            await run_in_threadpool(warm_up, stopping)
        yield

    routes = [
        Route("/", index),
        Route("/game/{game}", game_page),
        Route("/api/games", api_games),
        Route("/api/reports", reports_index),
        Route("/api/{game}/example", api_example),
        Route("/api/{game}/{kind}", api_command, methods=["POST"]),
        Route("/reports/{folder}/report.html", report_file),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(Guard, names=tuple(hosts))],
        exception_handlers={HTTPException: http_error},
    )
    app.state.deep_gate = gate
    return app


def _known_games() -> tuple[str, ...]:
    from analyzer.games import available_games

    return available_games()


def warm_up(stopping: threading.Event | None = None) -> dict:
    """Answer the example question of each game's odds and advice once (loads their
    engines); ``{game/kind: seconds}``. Stops between two questions once ``stopping``
    is set (Ctrl-C while loading)."""
    from analyzer.games import available_games, load_game

    took = {}
    for name in available_games():
        for i, (kind, fields) in enumerate(load_game(name).web_warm_up()):
            if stopping is not None and stopping.is_set():
                return took
            t0 = time.perf_counter()
            if fields.get("state") == "example":
                status, text = example(name)
                if status != 200:
                    continue
                fields = {**fields, "state": text}
            if supports(name, kind):
                answer(name, kind, fields)
            took[f"{name}/{kind}/{i}"] = round(time.perf_counter() - t0, 3)
        if stopping is not None and stopping.is_set():
            return took
        t0 = time.perf_counter()
        deep_offered(name)
        took[f"{name}/deep?"] = round(time.perf_counter() - t0, 3)
    return took


def listen(host: str, port: int):
    """A socket bound to ``host:port``, before any engine is loaded: a port in use is
    one line naming it at once, not uvicorn's log line after the warm-up."""
    import errno
    import socket

    from analyzer.core.errors import InputError

    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        if err.errno == errno.EADDRINUSE:
            raise InputError(f"--port: {port} is in use on {host} (allowed: a free port)") from None
        where = "--port" if err.errno == errno.EACCES else "--host"
        raise InputError(
            f"{where}: cannot listen on {host}:{port}: {err.strerror or err}"
        ) from None
    sock.set_inheritable(True)
    return sock


def serve(
    host: str = "127.0.0.1",
    port: int = 8765,
    reports: Path | str = "reports",
    *,
    sock=None,
    on_ready=None,
) -> None:
    """Run the app with uvicorn on ``sock`` (or one :func:`listen` makes) until
    interrupted; ``on_ready()`` is called once the engines are loaded and the socket
    answers. Ctrl-C (or SIGTERM) stops it: a return, not an error."""
    import uvicorn

    from analyzer.core.errors import Interrupted

    stopping = threading.Event()

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            stopping.set()  # the warm-up stops at its next question
            super().handle_exit(sig, frame)

        async def startup(self, sockets=None):
            await super().startup(sockets=sockets)
            if on_ready is not None and self.started and not self.should_exit:
                on_ready()

    if sock is None:
        sock = listen(host, port)
    config = uvicorn.Config(
        make_app(reports, hosts=served_names(host), stopping=stopping), log_level="warning"
    )
    server = Server(config)
    try:
        server.run(sockets=[sock])
    except (KeyboardInterrupt, Interrupted):
        # uvicorn stopped on the signal, then raised it again for its caller: the
        # server was asked to stop, and did
        if not server.should_exit:
            raise
    finally:
        sock.close()
