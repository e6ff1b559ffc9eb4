"""The table questions of every game: what a player at the table asks (``odds``:
exact odds; ``advise``: one decision's choices ranked), written once.

A game declares its questions in a :class:`TableSpec` (the ``TABLE`` of the module
it names to :func:`analyzer.games.register_game` with ``table=``): each
:class:`Question` with its options (:class:`Option`: the Python name, the CLI's
option, its kind, default and help) and the function that answers it from the
checked values; the spec also names how a table-state file becomes the game's
state (``load``) and the game's example state (``examples/``). Everything else is
here, the same for every game: reading the state (TOML text, a path or a dict),
checking the options (``--budget and --seed need --deep``, a seed, ``--top``),
the answer's JSON and terminal rendering (:class:`Answer`). The fronts are thin:
:func:`analyzer.odds` and :func:`analyzer.advise` call :func:`ask`, the CLI
(:mod:`analyzer.cli.table`) builds each game's ``odds``/``advise`` command from
the spec, and ``analyzer serve`` (:mod:`analyzer.web.serve`) answers a request's
fields through :func:`ask` too.

Bad input raises :class:`~analyzer.core.errors.InputError` naming the parameter by
its Python name (a :class:`~analyzer.core.errors.ParamError`: the CLI spells it
``--claim``, the web ``claim``); a bad table state names the state (``field``
``"state"``). Importing this module is cheap: no numba, no pandas, no game.
"""

from __future__ import annotations

import contextvars
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from analyzer.core.errors import InputError, Param, ParamError, bad_value

#: the kinds of option: text, an integer, a flag, repeatable text, a file path;
#: ``state`` is the table state (the CLI's STATE.toml argument)
KINDS = ("text", "int", "flag", "texts", "path", "state")


@dataclass(frozen=True)
class Option:
    """One parameter of a table question.

    ``name`` is its Python name (a keyword of :func:`analyzer.odds`, a field of the
    web API); ``flag`` the CLI's option (``--ruin-stones``; None for the ``state``
    argument). ``front``: the CLI's own (``--example``, ``--json``), not the
    question's. ``deep_only``: meaningful only with ``deep`` (refused without it).
    ``check(param, value)`` raises :class:`InputError` for a value the question
    refuses before it loads the state (a seed out of range). ``implied``: what the
    question takes when the option is not given (``--budget``'s default), said, not
    passed (the question gets None)."""

    name: str
    flag: str | None
    kind: str = "text"
    default: Any = None
    help: str = ""
    show_default: bool = True
    front: bool = False
    deep_only: bool = False
    check: Callable[[Param, Any], None] | None = None
    implied: Any = None

    def convert(self, value):
        """``value`` as the question takes it (``"3"`` for an integer is 3 and 13 for
        text is ``"13"``, as on the command line); :class:`ParamError` naming the
        option otherwise."""
        p = Param(self.name)
        if self.kind == "flag":
            if not isinstance(value, bool):
                raise ParamError(p, f": must be true or false, not {value!r}")
            return value
        if self.kind == "int":
            return _integer(p, value)
        if self.kind == "path":
            if isinstance(value, str | os.PathLike):
                return Path(value)
            raise bad_value(p, value, "a file path")
        if self.kind == "texts":
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list | tuple):
                raise bad_value(p, value, "a list of strings")
            return [_text(p, v) for v in items]
        return _text(p, value)


def _text(p: Param, value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)  # as the command line reads it: 13 is "13"
    raise bad_value(p, value, "a string or a number")


def _integer(p: Param, value) -> int:
    """An integer: an int, a float with no fraction (JSON's ``2.0``) or text that
    reads as one (``int(text)``: ``"3"``, ``" 3 "``, ``"1_000"``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:  # not an integer, or more digits than Python reads
            pass
    raise bad_value(p, value, "an integer")


def _check_top(p: Param, top: int) -> None:
    if top < 0:
        raise bad_value(p, top, "0 (all) or a positive number")


def _check_seed(p: Param, seed: int) -> None:
    from analyzer.core.seeding import SEED_ALLOWED, seed_ok

    if not seed_ok(seed):
        raise bad_value(p, seed, SEED_ALLOWED)


# --------------------------------------------------------------------------- shared options

#: the table state (``STATE.toml`` on the command line)
STATE = Option("state", None, "state", help="Table-state TOML file.", show_default=False)
#: ``--example``: print the game's example state
EXAMPLE = Option(
    "example",
    "--example",
    "flag",
    False,
    "Print the documented example state file and exit.",
    front=True,
)
#: ``--json``: the answer as one JSON object (always, from the web)
JSON = Option("json_out", "--json", "flag", False, "Print one JSON object.", front=True)
#: ``--deep``: rank by win chance from rollouts of the whole game
DEEP = Option(
    "deep", "--deep", "flag", False, "Rank by win chance from rollouts of the whole game."
)
#: ``--seed``: the deep advice's rollouts' seed
SEED = Option(
    "seed",
    "--seed",
    "int",
    help="With --deep: seed of the rollouts (default: fresh).",
    show_default=False,
    deep_only=True,
    check=_check_seed,
)


def budget(default: int) -> Option:
    """``--budget``: the deep advice's rollouts in all (``default`` when not given)."""
    return Option(
        "budget",
        "--budget",
        "int",
        help=f"With --deep: total rollouts (default {default:,}).",
        show_default=False,
        deep_only=True,
        implied=default,
    )


def top(default: int, help: str) -> Option:
    """``--top``: how many choices the terminal shows (0: all)."""
    return Option("top", "--top", "int", default, help, check=_check_top)


def on_state(*own: Option) -> tuple[Option, ...]:
    """The options of a question on a table state: the state, ``--example``,
    ``--json``, then the question's own."""
    return (STATE, EXAMPLE, JSON, *own)


def deep_options(default_budget: int) -> tuple[Option, ...]:
    """``--deep``, ``--budget`` (``default_budget`` rollouts when not given), ``--seed``."""
    return (DEEP, budget(default_budget), SEED)


@dataclass(frozen=True)
class Question:
    """One table question of a game: ``verb`` (``odds``, ``advise``), the command's
    ``help``, its ``options`` in the command's order (the shared ones above and the
    game's own) and ``answer(**values)``, which answers it from the checked values
    (``state`` loaded by the spec, when the question takes one) with an
    :class:`Answer`; ``deep(**values)`` answers instead when ``deep`` is asked for
    (a function may name the values it reads and take the others as ``**_``)."""

    verb: str
    help: str
    options: tuple[Option, ...]
    answer: Callable[..., Answer]
    deep: Callable[..., Answer] | None = None
    #: the deep advice's rollouts per second said before this machine has timed it
    #: (None: :data:`analyzer.games.deep_rate.DEFAULT_ROLLOUTS_PER_S`)
    deep_rate: float | None = None

    @property
    def takes_state(self) -> bool:
        return any(o.kind == "state" for o in self.options)

    def params(self) -> tuple[Option, ...]:
        """The options the question itself takes (not the state, not the CLI's own)."""
        return tuple(o for o in self.options if not o.front and o.kind != "state")

    def values(self, given: dict) -> dict:
        """Every parameter's value: ``given`` ones converted (None: not given), the
        defaults of the others. Unknown names raise :class:`ParamError`."""
        params = {o.name: o for o in self.params()}
        out = {}
        for name, value in given.items():
            opt = params.get(name)
            if opt is None:
                raise ParamError(
                    Param(name),
                    f": not an option of {self.verb} (allowed: {', '.join(params) or 'none'})",
                )
            if value is not None:
                out[name] = opt.convert(value)
        return {name: out.get(name, opt.default) for name, opt in params.items()}

    def check(self, values: dict) -> None:
        """Refuse what the values ask before the state is read: options that need
        ``deep`` without it, then each option's own check, in the options' order."""
        later = [o for o in self.params() if o.deep_only]
        if later and not values.get("deep") and any(values[o.name] is not None for o in later):
            names: list[str] = []
            for i, o in enumerate(later):
                if i:
                    names.append(" and " if i == len(later) - 1 else ", ")
                names.append(Param(o.name))
            raise ParamError(f"{self.verb}: ", *names, " need ", Param("deep"))
        for o in self.params():
            if o.check is not None and values[o.name] is not None:
                o.check(Param(o.name), values[o.name])


@dataclass(frozen=True)
class TableSpec:
    """A game's table questions.

    ``questions``: its :class:`Question` s (at most one per verb). ``load(data,
    where)`` turns a table state (the dict of its TOML) into what the questions'
    ``answer`` takes as ``state``, raising :class:`InputError` that names ``where``
    and the key. ``package`` is the game's package, whose ``examples/`` holds the
    example state ``example`` (printed by ``--example``)."""

    package: str
    questions: tuple[Question, ...]
    load: Callable[[dict, str], Any] | None = None
    example: str = "table.toml"

    def question(self, verb: str) -> Question | None:
        return next((q for q in self.questions if q.verb == verb), None)

    def example_text(self) -> str:
        """The game's example table state (its ``examples/`` file), as text."""
        return example_file(self.package, self.example)


def example_file(package: str, name: str = "table.toml") -> str:
    """The text of ``examples/NAME`` shipped in ``package`` (a game's example state)."""
    from importlib import resources

    return resources.files(package).joinpath("examples", name).read_text("utf-8")


@dataclass(frozen=True)
class Answer:
    """The answer to a table question.

    ``value`` is the game's own result (exact odds, a ranking, a deep advice);
    :meth:`to_json` the JSON text ``--json`` prints (one object); :meth:`renderables`
    what the terminal shows (rich tables and lines, in order: ``rich``'s
    ``Console().print(answer)`` prints them, :meth:`text` gives them as plain text)."""

    value: Any
    json: Callable[[], str] = field(repr=False)
    terminal: Callable[[], Sequence] = field(repr=False)
    game: str = ""
    question: str = ""

    def to_json(self) -> str:
        return self.json()

    def renderables(self) -> list:
        return list(self.terminal())

    def __rich_console__(self, console, options):
        yield from self.renderables()

    def text(self, width: int = 100) -> str:
        """The terminal rendering as plain text, ``width`` columns wide."""
        import io

        from rich.console import Console

        out = io.StringIO()
        console = Console(file=out, width=width, color_system=None, highlight=False)
        for r in self.renderables():
            console.print(r)
        return out.getvalue()


def ranking(value, to_json, table, verdict: str, assumed: Sequence[str]) -> Answer:
    """A ranking's :class:`Answer`: ``to_json()`` its JSON text; on the terminal
    ``table()``, the ``verdict`` in words and what it ``assumed``."""
    return Answer(value, to_json, lambda: [table(), verdict, assumed_line(assumed)])


def assumed_line(assumed: Sequence[str]) -> str:
    """What an answer assumed, as its terminal line: ``Assumed: a; b.``"""
    return "Assumed: " + "; ".join(assumed) + "."


def columns_table(title: str, columns: Sequence[tuple[str, str]]):
    """An empty rich table titled ``title`` (left) with ``(name, justify)`` columns."""
    from rich.table import Table

    tab = Table(title=title, title_justify="left")
    for name, justify in columns:
        tab.add_column(name, justify=justify)
    return tab


#: where a question's notes go while it runs (``odds: enumerating ...``), if anywhere
_SAY: contextvars.ContextVar[Callable[[str], None] | None] = contextvars.ContextVar(
    "analyzer_table_say", default=None
)


#: a deep advice's estimate, said when its rollouts start (:func:`rollouts_start`)
_STARTING: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "analyzer_table_starting", default=None
)


def rollouts_start() -> None:
    """A deep advice's rollouts start now (its input checked, its game built): say its
    estimate, which :func:`ask` keeps until then so bad input is one line."""
    line = _STARTING.get()
    if line is not None:
        _STARTING.set(None)
        note(line)


def note(line: str) -> None:
    """Tell the front running the question ``line`` (the CLI: on stderr, before the
    answer); nothing if no front listens."""
    say = _SAY.get()
    if say is not None:
        say(line)


class Recent:
    """``fn(key)`` remembered for the last ``size`` keys (a hashable table state), and
    asked once when several threads ask one key at the same time: a table page asks
    its game's odds and advice of one state together, and a game whose two answers
    share one exact search (Colorful Treasure's) searches once per tap. ``fn`` must be
    a pure function of ``key``."""

    def __init__(self, fn: Callable[[Any], Any], size: int = 16):
        import threading

        self.fn = fn
        self.size = size
        self._lock = threading.Lock()
        self._done: dict = {}  # key -> (threading.Event, [result] or [])

    def __call__(self, key):
        import threading

        with self._lock:
            entry = self._done.get(key)
            mine = entry is None
            if mine:
                entry = self._done[key] = (threading.Event(), [])
                while len(self._done) > self.size:  # the oldest first (dicts keep order)
                    del self._done[next(iter(self._done))]
        event, result = entry
        if not mine:
            event.wait()
            if result:
                return result[0]
            return self.fn(key)  # the first asker failed: its error is this one's too
        try:
            result.append(self.fn(key))
        except BaseException:
            with self._lock:
                if self._done.get(key) is entry:
                    del self._done[key]
            raise
        finally:
            event.set()
        return result[0]


# --------------------------------------------------------------------------- the state


@dataclass(frozen=True)
class StateText:
    """A table state given as TOML text (never a path, whatever it holds: the web's)."""

    text: str


def read_state(state, hint: str) -> tuple[dict, str]:
    """``(the state's TOML as a dict, how errors name it)``. ``state``: TOML text
    (a ``str`` holding a newline or ``=``, or a :class:`StateText`), a path (any
    other ``str``, an ``os.PathLike``) or a dict. ``hint`` names the command that
    prints an example (``analyzer advise --example``)."""
    if isinstance(state, dict):
        return state, "state"
    text = as_text(state)
    if text is not None:
        return parse_toml(text.text, "state", hint), "state"
    if not isinstance(state, str | os.PathLike):
        raise bad_value(Param("state"), state, "TOML text, a path or a dict of a table state")
    src = os.fspath(state)
    try:
        text = Path(state).read_text("utf-8-sig")  # a BOM (Windows Notepad) is UTF-8 too
    except FileNotFoundError:
        raise InputError(
            f"{src}: no such file (allowed: a table-state TOML file; `{hint}` prints one)"
        ) from None
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(
            f"{src}: cannot read ({err.__class__.__name__}) (allowed: a UTF-8 TOML file)"
        ) from None
    return parse_toml(text, src, hint), src


def as_text(state) -> StateText | None:
    """``state`` as TOML text, if it is text: a :class:`StateText`, or a ``str``
    holding a newline or ``=`` (a path holds neither); None otherwise."""
    if isinstance(state, str) and ("\n" in state or "=" in state):
        return StateText(state)
    return state if isinstance(state, StateText) else None


def parse_toml(text: str, src: str, hint: str) -> dict:
    """The dict of a table state's TOML ``text``; :class:`InputError` naming ``src``
    if it is not TOML (``hint``: the command that prints an example)."""
    import tomllib

    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:  # a lone surrogate: text no UTF-8 file can hold
        raise InputError(
            f"{src}: not UTF-8 text (character {err.start + 1} is a lone surrogate) "
            "(allowed: UTF-8 TOML text)"
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"{src}: bad TOML: {err} (allowed: TOML; see {hint})") from None
    except ValueError:  # a number of thousands of digits: Python refuses to read it
        raise InputError(
            f"{src}: bad TOML: a number too long to read (allowed: numbers of at most 4,300 digits)"
        ) from None
    except RecursionError:  # lists or tables thousands deep
        raise InputError(
            f"{src}: bad TOML: nested too deeply to read (allowed: a table state, few levels deep)"
        ) from None


def unknown_keys(obj: dict, allowed: Sequence[str], where: str) -> None:
    """Refuse a key of a state file's table ``obj`` that is not ``allowed``."""
    for k in obj:
        if k not in allowed:
            raise InputError(f"{where}: unknown key {k!r} (allowed: {', '.join(allowed)})")


# --------------------------------------------------------------------------- asking


def spec(game: str) -> TableSpec | None:
    """Game ``game``'s table questions: the module it declared (read without
    building the game), else its :meth:`Game.table_spec`; None if it has none."""
    import importlib

    from analyzer.games import load_game, table_module

    module = table_module(game)
    if module is not None:
        return importlib.import_module(module).TABLE
    return load_game(game, where=Param("game")).table_spec()


def question(game: str, verb: str) -> Question:
    """Game ``game``'s question ``verb``; :class:`ParamError` naming ``game`` if none."""
    from analyzer.games import available_games

    found = spec(game)
    q = None if found is None else found.question(verb)
    if q is None:
        having = [g for g in available_games() if _has(g, verb)]
        raise ParamError(
            Param("game"),
            f": {game!r} has no {verb} question (allowed: {', '.join(having) or 'none'})",
        )
    return q


def _has(game: str, verb: str) -> bool:
    try:
        found = spec(game)
    except InputError:  # a game that cannot be built has no questions to ask
        return False
    return found is not None and found.question(verb) is not None


def example_command(game: str, verb: str) -> str:
    """The command that prints ``game``'s example state: ``analyzer VERB [--game G] --example``."""
    from analyzer.games import DEFAULT_GAME

    where = "" if game == DEFAULT_GAME else f" --game {game}"
    return f"analyzer {verb}{where} --example"


def example(game: str) -> str:
    """Game ``game``'s example table state (TOML text, commented)."""
    found = spec(game)
    if found is None:
        raise ParamError(Param("game"), f": {game!r} has no table questions")
    return found.example_text()


def ask(
    game: str,
    verb: str,
    state=None,
    options: dict | None = None,
    *,
    say: Callable[[str], None] | None = None,
) -> Answer:
    """Answer game ``game``'s table question ``verb`` (``odds``, ``advise``) for
    ``state`` (see :func:`read_state`; None for a question that takes none) and
    ``options`` by their Python names. ``say(line)`` hears the question's notes
    while it runs (a long enumeration's price). Raises :class:`InputError` for bad
    input, naming the parameter."""
    q = question(game, verb)
    values = q.values(options or {})
    if not q.takes_state and state is not None:
        raise ParamError(Param("state"), f": {verb} of {game} takes no table state")
    if q.takes_state and state is None:
        raise ParamError(
            Param("state"),
            f": missing (allowed: a table state: TOML text, a path or a dict; "
            f"`{example_command(game, verb)}` prints one)",
        )
    q.check(values)
    if q.takes_state:
        named = as_text(state) is not None or not isinstance(state, str | os.PathLike)
        try:
            data, where = read_state(state, example_command(game, verb))
            values["state"] = spec(game).load(data, where)
        except InputError as err:  # the fault is the state's, unless a path names itself
            if err.field is None and named:
                err.field = "state"
            raise
    deep = q.deep is not None and bool(values.get("deep"))
    said = deep_estimate(game, values.get("budget"), q) if deep else None
    token, starting = _SAY.set(say), _STARTING.set(said)
    try:
        t0 = _clock()
        answer = (q.deep if deep else q.answer)(**values)
        waited = _clock() - t0
    finally:
        _SAY.reset(token)
        _STARTING.reset(starting)
    if said is not None:  # the wait a deep advice of this budget was, timed as it is said
        from analyzer.games import deep_rate

        deep_rate.record_rate(game, said.rollouts, waited, said.rollouts)
    return replace(answer, game=game, question=verb)


#: the clock a deep advice's wait is timed by (wall seconds: what the user waits)
_clock = time.perf_counter


def deep_estimate(game: str, budget: int | None = None, q: Question | None = None):
    """How long game ``game``'s deep advice of ``budget`` rollouts (None: its default)
    should take on this machine (:func:`analyzer.games.deep_rate.estimate`: the last rate
    measured here, else the game's default): a line with its ``seconds`` and
    ``rollouts``; None when the game has no deep advice (or no budget to price)."""
    from analyzer.games import deep_rate as shared

    if q is None:
        found = spec(game)
        q = None if found is None else found.question("advise")
    if q is None or q.deep is None:
        return None
    if budget is None:
        budget = next((o.implied for o in q.options if o.name == "budget"), None)
    if not isinstance(budget, int) or isinstance(budget, bool):
        return None
    return shared.estimate(game, budget, q.deep_rate)


def odds(game: str, state=None, **question) -> Answer:
    """Exact odds at the table (``analyzer odds --game GAME``); see :func:`ask`."""
    return ask(game, "odds", state, question)


def advise(game: str, state, *, deep: bool = False, budget=None, seed=None, **options) -> Answer:
    """One decision's choices ranked (``analyzer advise --game GAME``); ``deep``
    ranks them by win chance from ``budget`` rollouts seeded by ``seed``. See
    :func:`ask`."""
    given = {"deep": True} if deep else {}  # a game whose advise has no deep takes no False
    given.update((k, v) for k, v in (("budget", budget), ("seed", seed)) if v is not None)
    return ask(game, "advise", state, {**given, **options})
