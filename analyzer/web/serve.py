"""``analyzer serve``: odds and advice at the table, in a browser.

A small web app over the same library the terminal's commands call. The JSON API
takes a question's parameters as fields (``{"claim": 17, "dice": "a:d8,b:d6"}``
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

The generic layer: no game is imported here, nor the CLI. A game offers a page
through :meth:`analyzer.games.Game.web_page`; its odds and advice are its table
questions (:class:`analyzer.games.table.TableSpec`).
"""

from __future__ import annotations

import contextlib
import json
import logging
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

    out = []
    for name in available_games():
        g = load_game(name)
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
            }
        )
    return out


def page(game: str | None) -> str:
    """The HTML of the index (``game`` None) or of a game's page."""
    from html import escape

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
        shell.replace("{{TITLE}}", escape(title))
        .replace("{{GAME}}", escape(game or ""))
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


# --------------------------------------------------------------------------- the app


def make_app(reports: Path | str = "reports", *, warm: bool = True):
    """The Starlette app: pages, the JSON API and the saved reports under
    ``reports``; ``warm`` answers one question of each kind at start-up so the
    first user's answer comes from loaded engines."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    reports = Path(reports)

    def _json(status: int, body: str) -> Response:
        return Response(body, status_code=status, media_type="application/json")

    async def index(request: Request):
        return HTMLResponse(await run_in_threadpool(page, None))

    async def game_page(request: Request):
        from analyzer.games import available_games

        name = request.path_params["game"]
        if name not in available_games():
            return HTMLResponse(f"no game {name!r}", status_code=404)
        return HTMLResponse(await run_in_threadpool(page, name))

    async def api_games(request: Request):
        return JSONResponse(await run_in_threadpool(games_list))

    async def api_example(request: Request):
        name = request.path_params["game"]
        if name not in _known_games():
            return _json(404, json.dumps({"error": f"no game {name!r}"}))
        status, text = await run_in_threadpool(example, name)
        if status != 200:
            return _json(status, text)
        return Response(text, media_type="text/plain; charset=utf-8")

    async def api_command(request: Request):
        name, kind = request.path_params["game"], request.path_params["kind"]
        if kind not in API_COMMANDS:
            return _json(404, json.dumps({"error": f"no /api/{name}/{kind} (odds or advise)"}))
        if name not in _known_games():
            return _json(404, json.dumps({"error": f"no game {name!r}"}))
        raw = b""
        async for chunk in request.stream():  # stop reading a body past the limit
            raw += chunk
            if len(raw) > MAX_BODY:
                return _json(413, json.dumps({"error": f"body above {MAX_BODY:,} bytes"}))
        try:
            fields = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError) as err:
            return _json(400, json.dumps({"error": f"body: not JSON ({err})"}))
        status, body = await run_in_threadpool(answer, name, kind, fields)
        return _json(status, body)

    async def reports_index(request: Request):
        return JSONResponse(await run_in_threadpool(report_folders, reports))

    async def report_file(request: Request):
        folder = request.path_params["folder"]
        names = {r["name"] for r in report_folders(reports)}
        if folder not in names:  # only listed folders: no path from the request is opened
            return HTMLResponse(f"no report {folder!r}", status_code=404)
        return FileResponse(reports / folder / "report.html", media_type="text/html")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await run_in_threadpool(load_questions)
        if warm:
            await run_in_threadpool(warm_up)
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
    return Starlette(routes=routes, lifespan=lifespan)


def _known_games() -> tuple[str, ...]:
    from analyzer.games import available_games

    return available_games()


def warm_up() -> dict:
    """Answer the example question of each game's odds and advice once (loads their
    engines); ``{game/kind: seconds}``."""
    from analyzer.games import available_games, load_game

    took = {}
    for name in available_games():
        for i, (kind, fields) in enumerate(load_game(name).web_warm_up()):
            t0 = time.perf_counter()
            if fields.get("state") == "example":
                status, text = example(name)
                if status != 200:
                    continue
                fields = {**fields, "state": text}
            if supports(name, kind):
                answer(name, kind, fields)
            took[f"{name}/{kind}/{i}"] = round(time.perf_counter() - t0, 3)
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


def serve(host: str = "127.0.0.1", port: int = 8765, reports: Path | str = "reports") -> None:
    """Run the app with uvicorn until interrupted."""
    import uvicorn

    sock = listen(host, port)
    config = uvicorn.Config(make_app(reports), log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])
