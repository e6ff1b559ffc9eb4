"""The numba cache key covers the kernel sources and nothing else."""

from __future__ import annotations

import pytest

from analyzer.kernels import jit


def _names() -> set[str]:
    return {p.relative_to(jit._ROOT).as_posix() for p in jit.kernel_sources()}


def test_kernel_modules_and_what_they_import_are_keyed():
    names = _names()
    # kernels, and modules kernels import constants from
    for name in ("kernels/jit.py", "kernels/rng.py", "unearth/engine.py", "unearth/codes.py"):
        assert name in names


def test_modules_no_kernel_reaches_are_not_keyed():
    names = _names()
    names_not = (
        "tables/aggregate.py",
        "report/charts.py",
        "report/__init__.py",
        "cli/__init__.py",
        "scenario.py",
    )
    for name in names_not:
        assert name not in names


def test_imports_resolve_submodules_and_names(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        "from analyzer.unearth import claims\n"
        "from analyzer.kernels.rng import rng_die\nimport numpy\n"
    )
    found = {p.relative_to(jit._ROOT).as_posix() for p in jit._imports(src)}
    assert found == {"unearth/__init__.py", "unearth/claims.py", "kernels/rng.py"}


def test_a_kernels_key_covers_its_module_and_what_it_imports():
    engine = (jit._ROOT / "unearth" / "engine.py").resolve()
    names = {p.relative_to(jit._ROOT).as_posix() for p in jit.module_closure(engine)}
    assert {"unearth/engine.py", "unearth/state.py", "kernels/rng.py", "kernels/jit.py"} <= names
    # editing the game's non-kernel modules, the machinery or another game keeps the cache
    assert not names & {
        "unearth/plugin.py",
        "unearth/game.py",
        "tables/aggregate.py",
        "games/__init__.py",
    }
    assert not any(n.startswith(("uruk/", "colorful_treasure/")) for n in names)


def test_kernels_of_the_package_are_cached_under_their_key():
    from analyzer.unearth import rolls

    fn = rolls.roll_die.py_func
    locator = jit.KernelCacheLocator.from_function(fn, rolls.__file__)
    key = jit.source_key(jit.Path(rolls.__file__).resolve())
    assert locator.get_cache_path().startswith(f"{jit.CACHE_DIR}/{key}/")
    # a kernel defined outside the package (a test's) is left to numba's locators
    assert jit.KernelCacheLocator.from_function(fn, __file__) is None


@pytest.mark.slow
def test_kernels_import_and_run_with_the_jit_disabled():
    # NUMBA_DISABLE_JIT=1 (coverage, the benchmarks' plain runs) must give plain functions
    import os
    import subprocess
    import sys

    code = (
        "import numpy as np\nfrom analyzer.kernels.rng import rng_die\n"
        "print(rng_die(np.ones(4, np.uint64), 6))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert 1 <= int(out.stdout) <= 6


def test_relative_imports_are_followed_too():
    engine = jit._ROOT / "unearth" / "engine.py"
    found = jit._imports(
        engine, b"from .claims import claim_winner\nfrom ..kernels.rng import rng_die\n"
    )
    names = {p.relative_to(jit._ROOT).as_posix() for p in found}
    assert names == {"unearth/claims.py", "kernels/rng.py"}


def test_the_cache_entry_is_named_by_the_sources_not_the_checkout():
    # a kernel's cache folder and freshness stamp come from its sources' hash and its
    # place in the package, so another checkout of the same sources finds it
    from analyzer.unearth import rolls

    fn = rolls.roll_die.py_func
    locator = jit.KernelCacheLocator.from_function(fn, rolls.__file__)
    key = jit.source_key(jit.Path(rolls.__file__).resolve())
    assert locator.get_cache_path() == f"{jit.CACHE_DIR}/{key}/analyzer_unearth"
    assert locator.get_source_stamp() == key
    assert str(jit._ROOT) not in locator.get_cache_path()


def test_numba_is_told_of_the_locator_through_its_documented_setting():
    # NUMBA_CACHE_LOCATOR_CLASSES (numba's docs): ours first, then numba's own in
    # numba's order, or the user's own list, kept after ours
    import numba

    ours = "analyzer.kernels.jit.KernelCacheLocator"
    assert numba.config.CACHE_LOCATOR_CLASSES.split(",") == [ours, *jit.NUMBA_LOCATORS]
    assert jit.locator_classes("") == ",".join([ours, *jit.NUMBA_LOCATORS])
    assert jit.locator_classes(" InTreeCacheLocator ,my.Locator") == (
        f"{ours},InTreeCacheLocator,my.Locator"
    )
    assert jit.locator_classes(f"{ours},ZipCacheLocator") == f"{ours},ZipCacheLocator"


def test_a_compiled_kernel_is_saved_under_its_sources_key(tmp_path):
    # numba itself picks the locator: a kernel compiled in a child with an empty
    # cache is written below CACHE_DIR/<its module's key>/analyzer_kernels
    import os
    import subprocess
    import sys

    code = (
        "import numpy as np\nfrom analyzer.kernels.rng import rng_next\n"
        "print(rng_next(np.ones(4, np.uint64)))"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    key = jit.source_key((jit._ROOT / "kernels" / "rng.py").resolve())
    saved = {p.name for p in (tmp_path / key / "analyzer_kernels").iterdir()}
    assert any(name.startswith("rng.rng_next-") and name.endswith(".nbi") for name in saved)
    assert any(name.startswith("rng.rng_next-") and name.endswith(".nbc") for name in saved)
