"""Layering: the folders of ``analyzer/`` are its layers, and no game is imported
from outside its folder.

The machinery's folders (``analyzer.games.LAYERS``, lowest first: core, kernels,
games, tables, runs, studies, report, web, cli) import only from their own folder
and the folders below; the machinery knows a game only through
:mod:`analyzer.games`; a game's folder ``analyzer/<game>/`` may import the
machinery but no other game. Imports are read from the source (every ``import``
and ``from ... import`` statement, also inside functions; docs/architecture.md).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import analyzer
from analyzer.games import LAYERS

ROOT = Path(analyzer.__file__).resolve().parent
#: subpackages of analyzer that are machinery, not games
MACHINERY = set(LAYERS)


def game_packages() -> set[str]:
    return {
        p.name
        for p in ROOT.iterdir()
        if p.is_dir() and (p / "__init__.py").is_file() and p.name not in MACHINERY
    }


def _nodes(path: Path) -> list[ast.AST]:
    """Every node of the source at ``path``, parsed once per version of the file."""
    st = path.stat()
    return _parsed(str(path), st.st_mtime_ns, st.st_size)


@functools.cache
def _parsed(path: str, mtime_ns: int, size: int) -> list[ast.AST]:
    return list(ast.walk(ast.parse(Path(path).read_text("utf-8"), path)))


def imported_modules(path: Path) -> set[str]:
    """Every absolute module name ``path`` imports (``from a import b`` gives a and a.b)."""
    names = set()
    for node in _nodes(path):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def violations(path: Path, games: set[str], rel: Path | None = None) -> list[str]:
    """Imports of a game's modules by a file outside that game's folder
    (``rel``: the file's place below ``analyzer/``, default its real one)."""
    rel = rel or path.relative_to(ROOT)
    where = rel.as_posix()
    rel = rel.parts
    home = rel[0] if len(rel) > 1 and rel[0] in games else None
    out = []
    for name in sorted(imported_modules(path)):
        parts = name.split(".")
        if len(parts) >= 2 and parts[0] == "analyzer" and parts[1] in games and parts[1] != home:
            out.append(f"{where} imports {name}")
    return out


def test_there_is_a_game_to_guard():
    assert "unearth" in game_packages()


def test_no_module_outside_a_game_imports_it():
    games = game_packages()
    found = [v for path in sorted(ROOT.rglob("*.py")) for v in violations(path, games)]
    assert found == [], "\n".join(found)


def test_the_check_sees_a_planted_import(tmp_path):
    # a machinery module that reaches into a game, inside a function, is caught;
    # so is one game importing another
    planted = tmp_path / "charts.py"
    planted.write_text("def f():\n    from analyzer.unearth.engine import play_batch\n")
    found = violations(planted, {"unearth"}, rel=Path("charts.py"))
    assert "charts.py imports analyzer.unearth.engine" in found
    found = violations(planted, {"unearth", "uruk"}, rel=Path("uruk/engine.py"))
    assert "uruk/engine.py imports analyzer.unearth.engine" in found
    assert violations(planted, {"unearth"}, rel=Path("unearth/report.py")) == []


def test_a_game_may_import_itself_and_the_machinery():
    engine = ROOT / "unearth" / "plugin.py"
    assert violations(engine, game_packages()) == []
    assert any(n.startswith("analyzer.games") for n in imported_modules(engine))


# ------------------------------------------------------------------ import circles
#
# The generic layer is layered: the scenario file format (scenario_file,
# sections_file) below the driver (driver), the driver below the studies
# (sections, ratings, tuning, sensitivity), the library below the CLI. No module may import,
# even inside a function, one that imports it back.

#: the studies played on top of the driver
STUDIES = (
    "analyzer.studies.sections",
    "analyzer.studies.ratings",
    "analyzer.studies.tuning",
    "analyzer.studies.sensitivity",
)


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module below ``root`` (the folder of ``package``) by its dotted name."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = (package, *path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """``{module: modules of the package it imports}``, read from the source: every
    ``import`` and ``from ... import`` (also inside functions, also relative ones).
    ``from a import b`` is an import of ``a.b`` when that is a module, else of ``a``."""
    modules = module_names(root, package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _nodes(path):
            if isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    if sub in modules:
                        graph[name].add(sub)
                    elif source in modules:
                        graph[name].add(source)
    return graph


@functools.cache
def package_graph() -> dict[str, set[str]]:
    """:func:`import_graph` of the package, read once for the tests below (they only read it)."""
    return import_graph(ROOT, "analyzer")


def reachable(graph: dict[str, set[str]], start: str) -> dict[str, str]:
    """Every module ``start`` imports, directly or not: ``{module: the module importing
    it on a shortest path from start}`` (breadth first)."""
    seen: dict[str, str] = {}
    todo = [start]
    while todo:
        nxt = []
        for m in todo:
            for n in sorted(graph.get(m, ())):
                if n not in seen:
                    seen[n] = m
                    nxt.append(n)
        todo = nxt
    return seen


def path_to(back: dict[str, str], start: str, end: str) -> str:
    """``"start -> ... -> end"`` along the shortest path :func:`reachable` found."""
    path, cur = [end], back[end]
    while cur != start:
        path.append(cur)
        cur = back[cur]
    return " -> ".join([start, *reversed(path)])


def circles(graph: dict[str, set[str]]) -> list[str]:
    """Each strongly connected component of more than one module (or a module importing
    itself), named by one of its circles: ``"a -> b -> a  (component: a, b)"``."""
    out, done = [], set()
    for m in sorted(graph):
        back = reachable(graph, m)
        if m in done or m not in back:
            continue
        component = {n for n in back if m in reachable(graph, n)}
        done |= component
        out.append(f"{path_to(back, m, m)}  (component: {', '.join(sorted(component))})")
    return out


def test_no_import_circle_among_the_modules():
    found = circles(package_graph())
    assert found == [], "import circles:\n" + "\n".join(found)


def test_the_circle_check_sees_planted_circles(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("def run():\n    from pkg.a import f\n")
    (pkg / "stats.py").write_text("")
    # a relative import inside a function closes a -> b -> a; `from pkg import stats`
    # is an import of pkg.stats, not of the package
    (pkg / "a.py").write_text("from pkg import stats\n\ndef f():\n    from . import b\n")
    (pkg / "b.py").write_text("import pkg.a\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("from ..sub import c\n")  # imports itself
    graph = import_graph(pkg, "pkg")
    assert graph["pkg.a"] == {"pkg.stats", "pkg.b"}
    assert circles(graph) == [
        "pkg.a -> pkg.b -> pkg.a  (component: pkg.a, pkg.b)",
        "pkg.sub.c -> pkg.sub.c  (component: pkg.sub.c)",
    ]
    # `from pkg import name` of a name that is not a module is an import of the package
    (pkg / "stats.py").write_text("from pkg import run\n")
    assert circles(import_graph(pkg, "pkg"))[0] == (
        "pkg -> pkg.a -> pkg.stats -> pkg  (component: pkg, pkg.a, pkg.b, pkg.stats)"
    )


def test_the_file_format_and_the_driver_play_no_study():
    graph = package_graph()
    for below, above in (
        ("analyzer.runs.scenario_file", ("analyzer.runs.driver", *STUDIES)),
        ("analyzer.runs.sections_file", ("analyzer.runs.driver", *STUDIES)),
        ("analyzer.runs.sensitivity_file", ("analyzer.runs.driver", *STUDIES)),
        ("analyzer.runs.driver", STUDIES),
    ):
        assert below in graph
        back = reachable(graph, below)
        found = [path_to(back, below, m) for m in above if m in back]
        assert found == [], f"{below} imports what is above it:\n" + "\n".join(found)


def test_nothing_in_the_package_imports_the_scenario_facade():
    graph = package_graph()
    assert sorted(m for m, imports in graph.items() if "analyzer.scenario" in imports) == []


def test_no_submodule_imports_the_package_itself():
    # `from analyzer import __version__` would: it is analyzer._version's
    graph = package_graph()
    assert sorted(m for m, imports in graph.items() if "analyzer" in imports) == []


def test_library_modules_never_import_the_cli():
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        # the front end that is the CLI: its commands and the entry point (the web app
        # asks the library as the commands do: no exception)
        if rel.parts[0] == "cli" or rel.as_posix() == "__main__.py":
            continue
        if "commands" in rel.parts:  # a game's own commands
            continue
        for name in sorted(imported_modules(path)):
            if name.split(".")[:2] == ["analyzer", "cli"] or name.split(".")[0] in (
                "typer",
                "click",
            ):
                found.append(f"{rel.as_posix()} imports {name}")
    assert found == [], "\n".join(found)


# ------------------------------------------------------------------ folders are layers

#: imports up the layers that stand for now, each with its reason (none may be added)
UPWARD: set[tuple[str, str]] = set()
#: top-level modules every layer may import: leaves
LEAVES = {"analyzer._version", "analyzer._compat"}


def layer_of(module: str) -> int | None:
    """The layer of a machinery module (its folder's place in LAYERS), else None."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return None


def upward_imports(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Every import by a machinery module of a module of a higher layer, of a game,
    or of a top-level module that is not a leaf."""
    out = set()
    for module, imports in graph.items():
        here = layer_of(module)
        if here is None:
            continue
        for name in imports:
            there = layer_of(name)
            if there is None:
                if name not in LEAVES:  # the package API, a façade, or a game
                    out.add((module, name))
            elif there > here:
                out.add((module, name))
    return out


def test_every_folder_imports_only_the_layers_below_it():
    found = upward_imports(package_graph()) - UPWARD
    assert found == set(), "imports up the layers:\n" + "\n".join(
        f"{a} imports {b}" for a, b in sorted(found)
    )


def test_the_layer_check_sees_a_planted_upward_import(tmp_path):
    graph = {
        "analyzer.core.stats": {"analyzer.runs.runner"},
        "analyzer.runs.runner": {"analyzer.core.stats", "analyzer._version"},
        "analyzer.tables.findings": {"analyzer.unearth.tables"},
    }
    assert upward_imports(graph) == {
        ("analyzer.core.stats", "analyzer.runs.runner"),
        ("analyzer.tables.findings", "analyzer.unearth.tables"),
    }


def test_every_machinery_folder_is_a_layer_and_few_modules_stay_on_top():
    folders = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}
    games = game_packages()
    assert folders - games == set(LAYERS)
    top = sorted(p.name for p in ROOT.glob("*.py"))
    assert len(top) <= 10, top
