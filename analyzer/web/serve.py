"""``analyzer serve``: odds and advice at the table, in a browser.

A small web app over the same commands the terminal runs. The JSON API takes a
command's options as fields (``{"claim": 17, "dice": "a:d8,b:d6"}`` is
``analyzer odds --claim 17 --dice a:d8,b:d6``) and answers with exactly what the
command prints with ``--json``: the request is turned into that command line
and run in this process (:func:`call_cli`), so the web and the terminal cannot
drift apart, and every answer comes from engines loaded once (warm).

Built on Starlette (the ASGI toolkit FastAPI is made of: routing, requests,
responses, a test client; no data-model layer we would not use, since the
commands validate their own input) served by uvicorn (the reference ASGI
server). Sync endpoints run in Starlette's thread pool; each request's output is
caught by a per-request stand-in for ``sys.stdout`` (:class:`_Routed`), so
concurrent requests never see each other's output.

Never from the web: options that write files or lift limits (``--chart``,
``--out``, ``--force``), and a deep advice budget above :data:`WEB_MAX_BUDGET`.
Bad input answers 400 with the command's own one-line reason, naming the field.

The generic layer: no game is imported here. A game offers a page through
:meth:`analyzer.games.Game.web_page`; its odds and advice are the ``odds`` and
``advise`` commands (with ``--game`` when the command takes it).
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import json
import logging
import os
import re
import sys
import tempfile
import threading
import time
from importlib import resources
from pathlib import Path

#: the commands the API runs, by the last part of its path
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
#: what the web says where a command's error line offers ``--force``
_NO_FORCE = "the web runs no longer question"
#: the largest deep-advice budget (total rollouts) a web request may ask for
WEB_MAX_BUDGET = 100_000
#: the largest request body accepted, in bytes
MAX_BODY = 64 * 1024
#: exit codes a request answers with its one line (bad input: 400, interrupted: 503);
#: any other failure is a 500, and :func:`call_cli` logs its traceback
ANSWERED_CODES = (0, 2, 130)

#: where a failed request's traceback goes (the web answer has only its one line)
log = logging.getLogger("analyzer.web.serve")

_CAPTURE: contextvars.ContextVar[dict | None] = contextvars.ContextVar(
    "analyzer_serve_capture", default=None
)
_INSTALL_LOCK = threading.Lock()
_CLI_LOCK = threading.Lock()
_FIRST_LOCK = threading.RLock()
_RAN: set[tuple[str, ...]] = set()  # the commands run once (their modules imported)
_GROUP = None  # the click group of analyzer's commands, once built
_DEEP: dict[str, bool] = {}  # game -> whether its advise answers --deep (asked once)
_DEEP_LOCK = threading.Lock()


class _Routed(io.TextIOBase):
    """``sys.stdout``/``sys.stderr`` while serving: a write goes to the buffer of the
    request running in this context, or to the real stream outside a request."""

    def __init__(self, real, which: str):
        self.real = real
        self.which = which

    def write(self, s: str) -> int:
        buf = _CAPTURE.get()
        if buf is None:
            return self.real.write(s)
        return buf[self.which].write(s)

    def flush(self) -> None:
        if _CAPTURE.get() is None:
            self.real.flush()

    def isatty(self) -> bool:
        return False if _CAPTURE.get() is not None else self.real.isatty()

    @property
    def encoding(self):  # click asks
        return "utf-8"

    def fileno(self) -> int:
        return self.real.fileno()


def _install_routing() -> None:
    with _INSTALL_LOCK:
        if not isinstance(sys.stdout, _Routed):
            sys.stdout = _Routed(sys.stdout, "out")
        if not isinstance(sys.stderr, _Routed):
            sys.stderr = _Routed(sys.stderr, "err")


def call_cli(argv: list[str]) -> tuple[int, str, str]:
    """Run ``analyzer ARGV`` in this process: ``(exit code, stdout, stderr)``."""
    from analyzer.cli import _invoke, _register_commands, app

    _install_routing()
    with _CLI_LOCK:  # the commands are registered once, by one thread
        if not app.registered_commands:
            _register_commands()
    bufs = {"out": io.StringIO(), "err": io.StringIO()}
    from analyzer.core.invocation import SERVING

    token = _CAPTURE.set(bufs)
    serving = SERVING.set(True)
    # a command's first run imports its modules: one first run at a time, since two
    # threads importing modules that import each other can meet a half-made module
    key = tuple(argv[:3]) if argv[1:2] == ["--game"] else tuple(argv[:1])
    first = key not in _RAN
    failed: list[BaseException] = []

    def on_failure(err: BaseException, code: int) -> None:
        if code not in ANSWERED_CODES:
            failed.append(err)

    try:
        # the CLI's own mapping of failures to one line and an exit code, without
        # run_cli's process-wide set-up (signals, warning filters): requests run in
        # threads at once
        if first:
            with _FIRST_LOCK:
                code = _invoke(list(argv), False, on_failure)
                _RAN.add(key)
        else:
            code = _invoke(list(argv), False, on_failure)
    finally:
        SERVING.reset(serving)
        _CAPTURE.reset(token)
    if failed:  # outside the request's capture: to the server's own stderr
        log.error(
            "analyzer %s: exit code %d (a 500), its traceback:",
            " ".join(argv),
            code,
            exc_info=failed[-1],
        )
    return code, bufs["out"].getvalue(), bufs["err"].getvalue()


def load_cli() -> None:
    """Import the CLI and register its commands (before serving: requests in threads
    must not be the first to import them)."""
    from analyzer.cli import _register_commands, app

    with _CLI_LOCK:
        if not app.registered_commands:
            _register_commands()


class RequestError(Exception):
    """Bad input from a web request: the one-line reason and the HTTP status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def command(name: str, game: str | None = None):
    """The click command ``analyzer NAME`` (None if no game offers it); for a
    table command (``odds``, ``advise``: one per game behind ``--game``), the
    one of ``game``."""
    import typer.main

    from analyzer.cli import _register_commands, app, table

    global _GROUP
    with _CLI_LOCK:  # built once (about 16 ms each time): the commands do not change
        if not app.registered_commands:
            _register_commands()
        if name in table.GAMES:
            from analyzer.games import DEFAULT_GAME

            return table.GAMES[name].get(game or DEFAULT_GAME)
        if _GROUP is None:
            _GROUP = typer.main.get_command(app)
    return _GROUP.commands.get(name) if hasattr(_GROUP, "commands") else None


def _per_game(kind: str) -> bool:
    """Whether ``analyzer KIND`` is a table command (``--game`` picks the game's)."""
    from analyzer.cli import _register_commands, app, table

    with _CLI_LOCK:
        if not app.registered_commands:
            _register_commands()
    return kind in table.GAMES


def _params(cmd) -> dict:
    """A command's options and arguments by field name (``reading_the_stones``)."""
    return {p.name: p for p in cmd.params}


def takes_game(cmd) -> bool:
    return any("--game" in getattr(p, "opts", ()) for p in cmd.params)


def supports(game: str, kind: str) -> bool:
    """Whether ``analyzer KIND`` answers for ``game``: through its ``--game`` option,
    or, for a command without one, for the default game."""
    from analyzer.games import DEFAULT_GAME

    if _per_game(kind):
        return command(kind, game) is not None
    cmd = command(kind)
    if cmd is None:
        return False
    return takes_game(cmd) or game == DEFAULT_GAME


def build_argv(game: str, kind: str, fields: dict, tmpdir: str) -> tuple[list[str], dict]:
    """``analyzer KIND ...`` for a request's JSON ``fields`` and a map from the
    command's words back to field names (for its error lines). Raises
    :class:`RequestError` naming the field for anything the web does not take."""
    cmd = command(kind, game)
    if cmd is None or not supports(game, kind):
        raise RequestError(f"game {game!r} has no {kind} here", 404)
    if not isinstance(fields, dict):
        raise RequestError("the body must be one JSON object of fields")
    params = _params(cmd)
    argv = [kind]
    # every option of the command by its field name: its error lines name options the
    # request did not send too ("--seed and --players need --deep")
    words = {
        opt: name
        for name, p in params.items()
        for opt in (*getattr(p, "opts", ()), *getattr(p, "secondary_opts", ()))
        if opt.startswith("-")
    }
    if takes_game(cmd) or _per_game(kind):
        argv += ["--game", game]
    for raw_key, value in fields.items():
        key = str(raw_key).replace("-", "_")
        if key in FORBIDDEN:
            raise RequestError(f"{raw_key}: not allowed from the web ({FORBIDDEN[key]})")
        if key == "game":
            raise RequestError(f"{raw_key}: the game is in the path (/api/{game}/{kind})")
        p = params.get(key)
        if p is None or key in ("help",):
            allowed = ", ".join(sorted(k for k in params if k not in FORBIDDEN and k != "game"))
            raise RequestError(f"{raw_key}: unknown field (allowed: {allowed})")
        if value is None:
            continue
        if key == "budget":
            value = _web_budget(value)
        opt = p.opts[0] if getattr(p, "opts", None) else key
        if p.param_type_name == "argument":
            if key == "state":
                if not isinstance(value, str):
                    raise RequestError("state: must be the TOML text of a table state")
                try:
                    text = value.encode("utf-8")
                except UnicodeEncodeError as err:  # a lone surrogate: JSON allows "\ud800"
                    raise RequestError(f"state: not text ({err.reason} at {err.start})") from None
                path = os.path.join(tmpdir, "state.toml")
                with open(path, "wb") as f:
                    f.write(text)
                argv.append(path)
                words[path] = "state"
                continue
            raise RequestError(f"{raw_key}: not taken from the web")
        words[opt] = key
        if getattr(p, "is_flag", False):
            if not isinstance(value, bool):
                raise RequestError(f"{raw_key}: must be true or false, not {value!r}")
            if value:
                argv.append(opt)
            continue
        values = value if getattr(p, "multiple", False) and isinstance(value, list) else [value]
        if isinstance(value, list) and not getattr(p, "multiple", False):
            raise RequestError(f"{raw_key}: one value, not a list")
        for v in values:
            if isinstance(v, bool) or not isinstance(v, (str, int, float)):
                raise RequestError(f"{raw_key}: must be a string or a number, not {v!r}")
            argv += [opt, str(v)]
    argv.append("--json")
    return argv, words


def _web_budget(value) -> int:
    """A deep-advice budget from a request, as the integer the command will get:
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


def field_words(line: str, words: dict[str, str]) -> str:
    """The command's error line with its option names and temporary paths replaced by
    the request's field names (``--claim: ...`` reads ``claim: ...``)."""
    for word in sorted(words, key=len, reverse=True):
        line = line.replace(word, words[word])
    line = re.sub(r"^analyzer: error: ", "", line.strip())
    # click's wording of a value its type refuses: the field first, as every other line
    return re.sub(r"^Invalid value for '([^']+)': ", r"\1: bad value: ", line)


def answer(game: str, kind: str, fields: dict) -> tuple[int, str]:
    """``(HTTP status, body)`` for ``POST /api/GAME/KIND`` with JSON ``fields``: the
    command's ``--json`` output (200), or ``{"error": one line}``."""
    with tempfile.TemporaryDirectory(prefix="analyzer-serve-") as tmp:
        try:
            argv, words = build_argv(game, kind, fields, tmp)
        except RequestError as err:
            return err.status, json.dumps({"error": str(err)})
        code, out, err = call_cli(argv)
    if code == 0:
        return 200, out
    lines = [ln for ln in err.splitlines() if ln.strip()]
    line = lines[-1] if lines else f"exit code {code}"
    # the terminal's way past a limit is not the web's: say so instead of "add --force"
    line = re.sub(r"add --force to run it anyway(, Ctrl-C stops it)?", _NO_FORCE, line)
    line = field_words(line, words)
    status = {2: 400, 130: 503}.get(code, 500)
    return status, json.dumps({"error": line})


def example(game: str) -> tuple[int, str]:
    """``(status, TOML text)`` of ``analyzer advise --example`` for ``game``."""
    if not supports(game, "advise"):
        return 404, json.dumps({"error": f"game {game!r} has no advise here"})
    argv = ["advise", "--game", game]
    code, out, err = call_cli(argv + ["--example"])
    if code != 0:
        return 500, json.dumps({"error": (err.strip().splitlines() or ["failed"])[-1]})
    return 200, out


def deep_offered(game: str) -> bool:
    """Whether ``advise --deep`` answers for ``game``: its advise has a ``--deep``
    option and answers the example state with it (a budget of 2, a fixed seed)
    instead of refusing it. Asked once per game and remembered, so a page offers the
    deep advice exactly when the API gives it, whichever version of a game is
    installed."""
    with _DEEP_LOCK:
        if game not in _DEEP:
            _DEEP[game] = _ask_deep(game)
        return _DEEP[game]


def _ask_deep(game: str) -> bool:
    if not supports(game, "advise"):
        return False
    params = _params(command("advise", game))
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
        await run_in_threadpool(load_cli)
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
