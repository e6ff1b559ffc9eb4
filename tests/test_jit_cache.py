"""The numba cache key covers the kernel sources and nothing else."""

from __future__ import annotations

from analyzer import jit


def _names() -> set[str]:
    return {p.relative_to(jit._ROOT).as_posix() for p in jit.kernel_sources()}


def test_kernel_modules_and_what_they_import_are_keyed():
    names = _names()
    # kernels, and modules kernels import constants from
    for name in ("jit.py", "rng.py", "unearth/engine.py", "unearth/codes.py"):
        assert name in names


def test_modules_no_kernel_reaches_are_not_keyed():
    names = _names()
    for name in ("aggregate.py", "charts.py", "report.py", "cli.py", "scenario.py"):
        assert name not in names


def test_imports_resolve_submodules_and_names(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        "from analyzer.unearth import claims\nfrom analyzer.rng import rng_die\nimport numpy\n"
    )
    found = {p.relative_to(jit._ROOT).as_posix() for p in jit._imports(src)}
    assert found == {"unearth/__init__.py", "unearth/claims.py", "rng.py"}
