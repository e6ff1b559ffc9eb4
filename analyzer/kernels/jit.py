"""One place for numba JIT options.

Every kernel in the project is decorated with :data:`njit` from here, so caching
and other flags are decided once. ``NUMBA_DISABLE_JIT=1`` turns every kernel into
plain Python (used for coverage and for the benchmark ratios).

**The view rule.** A kernel that takes a view (:mod:`analyzer.kernels.kernel_view`)
takes views and scalars only and returns no array: an array read from a view has
no owner and lives only as long as the call, so handing one out (returned to
Python, it is freed memory) corrupts memory. Every version :data:`njit`
compiles, or loads from the cache, is checked against this rule
(:func:`check_view_rule`; one of the hooks into numba's internals, below); a
kernel that breaks it raises :class:`ViewRuleError` at its first call, naming it.

**The on-disk cache.** numba checks only the source of the file that defines a
cached function, but the machine code it stores also contains every jitted
function it calls from other files. So a kernel of this package is cached in a
directory named after a hash of its *module's kernel sources*: the module and
every module of the package it imports, directly or not (read from their import
statements, see :func:`module_closure`). A change to any of them compiles that
kernel afresh instead of loading stale code, while an edit anywhere else (a
chart caption, the CLI, another game) keeps it. That hash is also the cache's
freshness stamp (numba's is a hash of the one file) and the folders below it
are named by their place in the package (numba's, by a hash of their absolute
path), so every checkout of the same sources (a fresh clone, a git worktree)
shares the machine code. The base directory is ``$NUMBA_CACHE_DIR`` if set,
else ``~/.cache/analyzer/numba``; old hash directories can be deleted at any
time. :class:`KernelCacheLocator` does this through numba's documented hook,
the cache locator classes named by ``NUMBA_CACHE_LOCATOR_CLASSES`` (numba 0.62
and later; set here through ``numba.config``, ahead of any the user named).

**numba's API.** This module and :mod:`analyzer.kernels.kernel_view` use numba's
documented API (``numba.njit`` and its options, ``numba.config``, the cache
locators, ``numba.extending``, ``numba.types``, and ``cgutils.create_struct_proxy``
as numba's extension docs use it). Views also type their fields through
``numba.extending.infer_getattr`` with its template base class
(``numba.core.typing.templates.AttributeTemplate``, as numba's own
``make_attribute_wrapper`` does). The rest are four hooks into numba's
internals, listed in :data:`INTERNAL_HOOKS` with what each gives and what is lost
without it. None of them changes what a kernel computes. They are switched on
only for the numba releases they were written against (:data:`INTERNALS_TESTED`)
and with ``ANALYZER_NUMBA_INTERNALS`` not ``0``; on any other numba, kernels
compile with numba's documented behaviour alone (the same games, a slower and
larger first compile, the view rule unchecked). ``tests/kernels/test_numba_api.py``
names every numba name the package uses and checks each hook on the release
installed.

**The memory of a cold compile** (two of the hooks). numba keeps two things per
compiled version that it never needs again, and a cold compile of a whole
engine holds them all at once: a second copy of each kernel's optimised LLVM
module (made for linking into callers, beside the copy the JIT engine owns),
and the typed numba IR and compiler metadata of each version. Here the copy for
linking is made afresh at each link and not kept (:func:`_module_for_linking`),
and a version, once saved to the cache, keeps only what a version loaded from
the cache has (:func:`_lean_after_save`). Neither changes a byte of the machine
code or of the cache; together they take about 55 MB (10%) off the peak memory
of the Unearth engine's cold compile (``benchmarks/bench_compile.py``,
benchmarks/README.md).
"""

import ast
import functools
import hashlib
import os
import platform
import tempfile
from pathlib import Path

import llvmlite.binding as ll
import numba
from numba import types
from numba.core.caching import UserProvidedCacheLocator

#: the package's folder (this module is analyzer/kernels/jit.py)
_ROOT = Path(__file__).resolve().parent.parent
_PACKAGE = _ROOT.name


def _module_file(name: str) -> Path | None:
    """The source file of package module ``name`` (``analyzer.x.y``), or None."""
    parts = name.split(".")
    if parts[0] != _PACKAGE:
        return None
    base = _ROOT.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _package_of(path: Path) -> list[str]:
    """Dotted parts of the package a source file of this package belongs to."""
    rel = Path(path).resolve().relative_to(_ROOT)
    return [_PACKAGE, *rel.parts[:-1]]


def _imports(path: Path, source: bytes | None = None) -> set[Path]:
    """Package source files that ``path`` imports, absolute or relative imports
    (``source``: the file's text, if not read from ``path``)."""
    found = set()
    text = source if source is not None else Path(path).read_bytes()
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                module = node.module
            else:  # ``from .x import y``: relative to the file's package
                base = _package_of(path)[: len(_package_of(path)) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            # ``from a.b import c``: c may be a submodule or a name in a.b
            names = [module] + [f"{module}.{a.name}" for a in node.names]
        else:
            continue
        # only the modules named: a parent package's __init__ runs on import but
        # supplies no name that a kernel uses
        found.update(hit for hit in map(_module_file, names) if hit is not None)
    return found


@functools.cache
def _file_imports(path: Path) -> frozenset[Path]:
    """:func:`_imports` of a package file, parsed once per process: the keys of
    every kernel module walk mostly the same files, and parsing them again for
    each module made loading one cached kernel cost a third of a second."""
    return frozenset(_imports(path))


def module_closure(path: Path) -> list[Path]:
    """``path`` and every package module it imports, transitively, sorted."""
    todo = [Path(path).resolve()]
    seen: set[Path] = set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo.extend(_file_imports(p) - seen)
    return sorted(seen)


def kernel_sources() -> list[Path]:
    """Every package module that defines kernels (mentions ``njit``) and every
    package module those import, transitively, sorted."""
    found: set[Path] = set()
    for p in _ROOT.rglob("*.py"):
        if b"njit" in p.read_bytes():
            found.update(module_closure(p))
    return sorted(found)


@functools.cache
def source_key(path: Path) -> str:
    """Hash of the kernel sources of module ``path`` (:func:`module_closure`)
    and of the numba, Python and machine it is compiled for."""
    h = hashlib.sha256()
    h.update(f"{numba.__version__} {platform.python_version()} {platform.machine()}".encode())
    for p in module_closure(path):
        h.update(p.relative_to(_ROOT).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _cache_base() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR")
    if not base:
        try:
            base = str(Path.home() / ".cache" / "analyzer" / "numba")
        except RuntimeError:  # no home directory
            base = str(Path(tempfile.gettempdir()) / "analyzer-numba")
    path = Path(base)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:  # not writable: fall back to the temporary directory
        path = Path(tempfile.gettempdir()) / "analyzer-numba"
        path.mkdir(parents=True, exist_ok=True)
    return str(path)


#: base directory of the compiled-kernel cache (see the module docstring)
CACHE_DIR = _cache_base()


class KernelCacheLocator(UserProvidedCacheLocator):
    """numba's cache locator for kernels of this package: numba's directory for
    the source file, inside ``CACHE_DIR/<source_key of the file>``. Kernels
    defined elsewhere (tests) fall through to numba's own locators."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._key = source_key(Path(py_file).resolve())
        self._cache_path = os.path.join(
            CACHE_DIR, self._key, self.get_suitable_cache_subpath(py_file)
        )

    @classmethod
    def get_suitable_cache_subpath(cls, py_file):
        """The source file's folder below the package (``unearth``, ``kernels``):
        the same in every checkout of the same sources, where numba's own names
        the folder by a hash of its absolute path."""
        rel = Path(py_file).resolve().parent.relative_to(_ROOT)
        return "_".join((_PACKAGE, *rel.parts))

    def get_source_stamp(self):
        """The hash of the kernel sources (:func:`source_key`) in place of numba's
        hash of the one file: a cached version is fresh exactly when the sources
        it was compiled from are the same, so every checkout (a fresh clone, a
        git worktree) shares the machine code of identical sources."""
        return self._key

    @classmethod
    def from_function(cls, py_func, py_file):
        path = Path(py_file).resolve()
        if not path.is_file() or _ROOT not in path.parents:
            return None
        return super().from_function(py_func, py_file)


#: numba's own cache locators in numba's default order (numba's docs,
#: ``NUMBA_CACHE_LOCATOR_CLASSES``): where a kernel of another package goes
NUMBA_LOCATORS = (
    "UserProvidedCacheLocator",
    "InTreeCacheLocator",
    "UserWideCacheLocator",
    "IPythonCacheLocator",
    "ZipCacheLocator",
)
_OUR_LOCATOR = f"{KernelCacheLocator.__module__}.{KernelCacheLocator.__qualname__}"


def locator_classes(named: str = "") -> str:
    """The value of ``NUMBA_CACHE_LOCATOR_CLASSES`` for this process:
    :class:`KernelCacheLocator` first, then the locators ``named`` (the user's
    own setting), or numba's default ones if none."""
    names = [n.strip() for n in named.split(",") if n.strip() and n.strip() != _OUR_LOCATOR]
    return ",".join([_OUR_LOCATOR, *(names or NUMBA_LOCATORS)])


def _configure() -> None:
    """Set numba's cache directory and locators (``numba.config``, as the
    environment variables would). Called at import and again before each
    kernel is made: numba reads the environment again if a ``NUMBA_``
    variable changes, which would drop what is set here."""
    numba.config.CACHE_DIR = CACHE_DIR
    current = numba.config.CACHE_LOCATOR_CLASSES
    if not current.startswith(_OUR_LOCATOR + ","):
        numba.config.CACHE_LOCATOR_CLASSES = locator_classes(current)


_configure()


# --------------------------------------------------------------------------- numba's internals

#: numba releases the hooks below were written against and tested on (prefixes
#: of ``numba.__version__``); on any other release they stay off
INTERNALS_TESTED = ("0.68.",)

#: every use of numba's internals, what it gives and what is lost without it
#: (``tests/kernels/test_numba_api.py`` checks each on the numba installed)
INTERNAL_HOOKS = {
    "CPUCodeLibrary._get_module_for_linking": (
        "replaced on numba's class (_module_for_linking): the copy of a kernel's module "
        "made for linking into callers is not kept; without it a cold compile of the "
        "Unearth engine peaks about 42 MB higher"
    ),
    "Dispatcher._cache, CacheImpl.reduce, Cache.save_overload": (
        "wrapped per kernel (_lean_after_save): a version saved to the cache keeps what "
        "a loaded one keeps; without it a cold compile peaks about 17 MB higher"
    ),
    "Dispatcher.get_call_template": (
        "wrapped per kernel (_one_version_per_type): a call between kernels asks for the "
        "plain argument types; without it a kernel is compiled again for every constant "
        "argument value, which made the first compile several times longer"
    ),
    "Dispatcher.add_overload": (
        "wrapped per kernel (_checked): every version compiled or loaded is checked "
        "against the view rule; without it a kernel that breaks the rule compiles "
        "and may read freed memory (no shipped kernel does: the suite checks them)"
    ),
}


def internals_wanted() -> bool:
    """Are the hooks of :data:`INTERNAL_HOOKS` on in this process: numba is a
    release of :data:`INTERNALS_TESTED` and ``ANALYZER_NUMBA_INTERNALS`` is
    not ``0``."""
    if os.environ.get("ANALYZER_NUMBA_INTERNALS", "") == "0":
        return False
    return numba.__version__.startswith(INTERNALS_TESTED)


#: the hooks' state for this process (see :func:`internals_wanted`)
INTERNALS = internals_wanted()


def _module_for_linking(self):
    """numba's ``CPUCodeLibrary._get_module_for_linking`` without keeping its copy.

    numba links a callee into each caller from a copy of the callee's final
    module whose exported functions are ``linkonce_odr`` (so each caller may
    inline them and drop what it does not use), and keeps that copy for the life
    of the process, beside the final module the JIT engine owns: every compiled
    kernel held twice, each with the callees linked into it. The copy is made
    here at each use instead (linking clones it again, so nothing holds it
    after). A library loaded from the cache has no final module, only the copy
    for linking read from the cache, which numba keeps as before. Set on
    numba's class, so it holds for every kernel of the process."""
    self._ensure_finalized()
    if self._shared_module is not None:  # loaded from the cache
        return self._shared_module
    mod = self._final_module
    functions = list(mod.functions)
    if not functions:
        raise RuntimeError(f"library unfit for linking: no available functions in {self}")
    to_fix = [
        f.name for f in functions if not f.is_declaration and f.linkage == ll.Linkage.external
    ]
    if to_fix:
        mod = mod.clone()
        for name in to_fix:
            mod.get_function(name).linkage = "linkonce_odr"
    return mod


if INTERNALS:
    from numba.core import codegen

    codegen.CPUCodeLibrary._get_module_for_linking = _module_for_linking


def _lean_after_save(dispatcher):
    """Once a freshly compiled version of ``dispatcher`` is saved to the cache,
    keep of it what numba keeps of a version loaded from the cache: the type
    annotation as its text (``inspect_types`` prints it) and no compiler
    metadata. The typed IR, type maps and pass timings they held are the
    larger part of the Python memory a cold compile keeps."""
    cache = getattr(dispatcher, "_cache", None)
    impl = getattr(cache, "_impl", None)
    if impl is None:  # NUMBA_DISABLE_JIT=1, or no disk cache
        return dispatcher
    save, reduce = cache.save_overload, impl.reduce
    text = {}

    def reduce_keeping_text(cres):
        data = reduce(cres)
        text[id(cres)] = data[6]  # CompileResult._reduce: (..., typeann, ...)
        return data

    def save_overload(sig, cres):
        save(sig, cres)
        args = tuple(cres.signature.args)
        annotation = text.pop(id(cres), None)  # None: not written (not cachable)
        text.clear()
        if annotation is not None and dispatcher.overloads.get(args) is cres:
            dispatcher.overloads[args] = cres._replace(type_annotation=annotation, metadata=None)

    impl.reduce = reduce_keeping_text
    cache.save_overload = save_overload
    return dispatcher


#: Compile in nopython mode, cache to disk (the second run of a command loads
#: machine code instead of compiling), release the GIL. ``error_model="numpy"``:
#: a division does not test its divisor for zero to raise ZeroDivisionError
#: (no kernel divides by zero: claim values, face counts and pile sizes are
#: positive), which takes a branch and an exception path out of the hot loops.
#: ``no_cfunc_wrapper``: no C-callable wrapper per version (numba makes one so a
#: kernel can be passed as a first-class function value; none is: kernels call
#: kernels directly), about 30 MB less at the peak of the engine's cold compile.
OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy", "no_cfunc_wrapper": True}


def _plain(ty):
    """The type a kernel is compiled for when called with a value of type ``ty``:
    a literal's own type, and an ``IntEnum`` member's integer type (the call
    casts the member)."""
    ty = types.unliteral(ty)
    if isinstance(ty, types.IntEnumMember):
        return ty.dtype
    return ty


def _one_version_per_type(dispatcher):
    """Let kernel-to-kernel calls ask for the argument *types*, never their
    constant values.

    numba types a constant argument (``trace(s, EV_ROLL, ...)``) as a literal
    and compiles the callee again for every distinct constant, then the callee's
    callees for the constants it passes on: that made the first compile several
    times longer. Here a call from another kernel asks for the plain type
    (:func:`_plain`), so each kernel is compiled once per signature of types.
    """
    resolve = getattr(dispatcher, "get_call_template", None)
    if resolve is None:  # NUMBA_DISABLE_JIT=1: a plain Python function
        return dispatcher

    def get_call_template(args, kws):
        args = tuple(_plain(a) for a in args)
        kws = {k: _plain(v) for k, v in kws.items()}
        return resolve(args, kws)

    dispatcher.get_call_template = get_call_template
    return dispatcher


class ViewRuleError(TypeError):
    """A kernel takes a view and also an array, or returns an array (module docstring)."""


def _is_view(ty) -> bool:
    return bool(getattr(ty, "is_kernel_view", False))


def _holds_array(ty) -> bool:
    """Does a value of numba type ``ty`` hold an array (or other counted buffer)?"""
    if isinstance(ty, (types.Buffer, types.List, types.ListType, types.DictType, types.Set)):
        return True
    if isinstance(ty, types.Optional):
        return _holds_array(ty.type)
    if isinstance(ty, types.BaseTuple):
        return any(_holds_array(x) for x in ty.types)
    return False


def check_view_rule(name: str, signature, inline: bool = False) -> None:
    """Raise :class:`ViewRuleError` if a kernel compiled for ``signature`` (a numba
    signature: ``.args``, ``.return_type``) breaks the view rule.

    An ``inline`` kernel (``inline="always"``) becomes part of its caller's code,
    so it may take arrays its caller read from a view; it still returns none."""
    args = tuple(signature.args)
    if not any(_is_view(a) for a in args):
        return
    for i, a in enumerate(args):
        if inline:
            break
        if not _is_view(a) and _holds_array(a):
            raise ViewRuleError(
                f"kernel {name} takes a view and an array (argument {i + 1}: {a}); "
                "a kernel that takes a view takes views and scalars only: make the "
                "array a field of a view"
            )
    if _holds_array(signature.return_type):
        raise ViewRuleError(
            f"kernel {name} takes a view and returns {signature.return_type}; an array "
            "read from a view must not outlive the call: return scalars, or write "
            "into a field of a view"
        )


def _checked(dispatcher):
    """Check every version of ``dispatcher`` against the view rule as it is added
    (compiled or loaded from the cache), before anything can call it."""
    add = getattr(dispatcher, "add_overload", None)
    if add is None:  # NUMBA_DISABLE_JIT=1: a plain Python function
        return dispatcher
    name = getattr(dispatcher.py_func, "__qualname__", str(dispatcher))
    inline = dispatcher.targetoptions.get("inline") == "always"

    def add_overload(cres):
        check_view_rule(name, cres.signature, inline)
        return add(cres)

    dispatcher.add_overload = add_overload
    return dispatcher


def njit(fn=None, **options):
    """``numba.njit`` with :data:`OPTIONS` (``options`` add to them); with
    numba's internals on (:data:`INTERNALS`), compiling one version per
    argument types (see :func:`_one_version_per_type`), keeping the view rule
    and the lean memory of a compile (module docstring)."""

    def wrap(f):
        _configure()
        dispatcher = numba.njit(**{**OPTIONS, **options})(f)
        if not INTERNALS:
            return dispatcher
        return _lean_after_save(_checked(_one_version_per_type(dispatcher)))

    return wrap(fn) if fn is not None else wrap
