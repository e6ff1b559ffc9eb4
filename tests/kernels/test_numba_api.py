"""Which of numba's names the package uses, and the hooks into numba's internals.

The package keeps to numba's documented API (``numba.njit``, ``numba.typeof``,
``numba.config``, ``numba.types``, ``numba.extending``, the cache locators of
``NUMBA_CACHE_LOCATOR_CLASSES``) except the uses named here, each with what it
gives and what is lost without it (``analyzer/kernels/jit.py``, "numba's API").
A new numba name in the package fails the first test until it is listed.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from analyzer.kernels import jit

PACKAGE = Path(jit.__file__).resolve().parent.parent

#: numba's documented API, as the package uses it: a module, or a module's name
DOCUMENTED = {
    "numba",  # import numba
    "numba.njit",
    "numba.typeof",
    "numba.config.CACHE_DIR",  # NUMBA_CACHE_DIR
    "numba.config.CACHE_LOCATOR_CLASSES",  # NUMBA_CACHE_LOCATOR_CLASSES (numba 0.62+)
    "numba.config.DISABLE_JIT",  # NUMBA_DISABLE_JIT
    "numba.__version__",
    "numba.types",  # numba.types.* (the types reference)
    "numba.extending.intrinsic",
    "numba.extending.overload",
    "numba.extending.NativeValue",
    "numba.extending.infer_getattr",
    "numba.extending.lower_getattr_generic",
    "numba.extending.models",
    "numba.extending.register_model",
    "numba.extending.typeof_impl",
    "numba.extending.unbox",
    # the struct proxy of numba's extension docs (the interval example)
    "numba.core.cgutils.create_struct_proxy",
    # a locator class numba's docs name, subclassed as the docs' custom locators are
    "numba.core.caching.UserProvidedCacheLocator",
}

#: the other numba names the package uses: why, and what is lost without them
INTERNAL = {
    # the base class numba.extending.infer_getattr takes (numba's own
    # make_attribute_wrapper uses it): a view's fields are typed by name, for
    # any bundle; without it a view could not be read in a kernel
    "numba.core.typing.templates.AttributeTemplate": "kernel_view",
    # numba's internals, switched on only for the releases of jit.INTERNALS_TESTED
    "numba.core.codegen": "jit.INTERNAL_HOOKS",
}


def _numba_names(path: Path) -> set[str]:
    """numba modules and names a source file imports, and ``numba.x.y`` chains it reads."""
    tree = ast.parse(path.read_bytes(), str(path))
    found = set()
    inner = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "numba")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numba":
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Attribute) and id(node) not in inner:
            parts = []
            value = node
            while isinstance(value, ast.Attribute):
                parts.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id == "numba":
                found.add(".".join(["numba", *reversed(parts)]))
    return found


def _covered(name: str, allowed: set[str]) -> bool:
    """``name`` is an allowed name or below one (``numba.types.int64`` under
    ``numba.types``); ``numba`` itself covers only ``import numba``."""
    return any(name == a or a != "numba" and name.startswith(a + ".") for a in allowed)


def test_the_package_uses_numbas_documented_api_and_the_named_internals_only():
    used: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for name in _numba_names(path):
            used.setdefault(name, []).append(path.relative_to(PACKAGE).as_posix())
    assert used, "no numba name found: the scan is broken"
    unknown = {
        name: files
        for name, files in used.items()
        if not _covered(name, DOCUMENTED) and name not in INTERNAL
    }
    assert not unknown, f"numba names neither documented nor listed in INTERNAL: {unknown}"
    # the internal uses are where they are said to be, and nowhere else
    assert used["numba.core.typing.templates.AttributeTemplate"] == ["kernels/kernel_view.py"]
    assert used["numba.core.codegen"] == ["kernels/jit.py"]


def test_the_scan_sees_every_way_of_naming_numba(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        "import numba\nimport numba.core.runtime\nfrom numba.core import codegen\n"
        "from numba import types\nx = numba.core.registry.cpu_target.target_context\n"
    )
    names = _numba_names(src)
    assert {
        "numba",
        "numba.core.runtime",
        "numba.core.codegen",
        "numba.types",
        "numba.core.registry.cpu_target.target_context",
    } <= names
    assert not _covered("numba.core.registry.cpu_target.target_context", DOCUMENTED)
    assert _covered("numba.types.int64", DOCUMENTED)


def test_every_internal_hook_is_named_with_what_it_gives():
    assert set(jit.INTERNAL_HOOKS) == {
        "CPUCodeLibrary._get_module_for_linking",
        "Dispatcher._cache, CacheImpl.reduce, Cache.save_overload",
        "Dispatcher.get_call_template",
        "Dispatcher.add_overload",
    }
    for name, why in jit.INTERNAL_HOOKS.items():
        assert "without it" in why, name


# a kernel that passes a constant to another: how many versions of the callee?
_CHILD = """
import json, numba
from analyzer.kernels import jit
from analyzer.kernels.jit import njit

@njit
def callee(x):
    return x + 1

@njit
def caller(y):
    return callee(3) + callee(4) + callee(y)

from numba.core import codegen

out = {
    "internals": jit.INTERNALS,
    "version": numba.__version__,
    "value": caller(5),
    "callee_versions": len(callee.signatures),
    "linking_hook": codegen.CPUCodeLibrary._get_module_for_linking is jit._module_for_linking,
}
print(json.dumps(out))
"""


def _child(tmp_path: Path, **env) -> dict:
    script = tmp_path / "child.py"  # a file: numba caches only kernels it can locate
    script.write_text(_CHILD)
    full = {**os.environ, "PYTHONPATH": str(PACKAGE.parent), **env}
    full.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run(
        [sys.executable, str(script)], env=full, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="the hooks act on compiled kernels")
def test_the_hooks_are_on_for_the_tested_numba_and_off_on_request(tmp_path):
    on = _child(tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "on"))
    off = _child(tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "off"), ANALYZER_NUMBA_INTERNALS="0")
    assert on["value"] == off["value"] == 4 + 5 + 6
    # off: numba's documented behaviour alone, whatever the release
    assert not off["internals"] and not off["linking_hook"]
    # a literal version per constant (3, 4) beside the plain one: what the hook saves
    assert off["callee_versions"] == 3
    if on["version"].startswith(jit.INTERNALS_TESTED):
        assert on["internals"] and on["linking_hook"]
        assert on["callee_versions"] == 1  # one version per argument type
    else:  # a release the hooks were not written for: they stay off
        assert not on["internals"] and on["callee_versions"] == 3
