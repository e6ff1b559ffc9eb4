"""Layering: nothing outside a game's folder imports that game's modules.

The machinery (runner, scenarios, aggregation, charts, reports, CLI) knows a
game only through :mod:`analyzer.games`; a game's folder ``analyzer/<game>/``
may import the machinery but no other game. Imports are read from the source
(every ``import`` and ``from ... import`` statement, also inside functions).
"""

from __future__ import annotations

import ast
from pathlib import Path

import analyzer

ROOT = Path(analyzer.__file__).resolve().parent
#: subpackages of analyzer that are machinery, not games
MACHINERY = {"commands", "games"}


def game_packages() -> set[str]:
    return {
        p.name
        for p in ROOT.iterdir()
        if p.is_dir() and (p / "__init__.py").is_file() and p.name not in MACHINERY
    }


def imported_modules(path: Path) -> set[str]:
    """Every absolute module name ``path`` imports (``from a import b`` gives a and a.b)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
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
