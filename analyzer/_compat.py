"""The old import paths of the machinery's modules, for one release.

Release 0.2 put the machinery into layer folders (``docs/architecture.md``):
``analyzer.runner`` is now ``analyzer.runs.runner``, ``analyzer.aggregate``
``analyzer.tables.aggregate``, and so on (:data:`MOVED`). A script that imports
an old path still gets the module (the very same module object, so its
functions, classes and pickles are the new ones) with a
:class:`DeprecationWarning` naming the new path. Nothing in the package imports
an old path (``tests/test_layering.py``).
"""

from __future__ import annotations

import importlib
import sys
import warnings

#: old module name -> its module now
MOVED = {
    "analyzer.aggregate": "analyzer.tables.aggregate",
    "analyzer.charts": "analyzer.report.charts",
    "analyzer.commands": "analyzer.cli.options",
    "analyzer.commands.compare": "analyzer.cli.compare",
    "analyzer.commands.games": "analyzer.cli.games",
    "analyzer.commands.ladder": "analyzer.cli.ladder",
    "analyzer.commands.replay": "analyzer.cli.replay",
    "analyzer.commands.run": "analyzer.cli.run",
    "analyzer.commands.serve": "analyzer.cli.serve",
    "analyzer.commands.simulate": "analyzer.cli.simulate",
    "analyzer.commands.table": "analyzer.cli.table",
    "analyzer.commands.tune": "analyzer.cli.tune",
    "analyzer.compare": "analyzer.studies.compare",
    "analyzer.deep": "analyzer.games.deep",
    "analyzer.driver": "analyzer.runs.driver",
    "analyzer.errors": "analyzer.core.errors",
    "analyzer.findings": "analyzer.tables.findings",
    "analyzer.fingerprint": "analyzer.core.fingerprint",
    "analyzer.frames": "analyzer.core.frames",
    "analyzer.groupsum": "analyzer.kernels.groupsum",
    "analyzer.invocation": "analyzer.core.invocation",
    "analyzer.jit": "analyzer.kernels.jit",
    "analyzer.kernel_view": "analyzer.kernels.kernel_view",
    "analyzer.luck": "analyzer.kernels.luck",
    "analyzer.outputs": "analyzer.core.outputs",
    "analyzer.pool": "analyzer.runs.pool",
    "analyzer.ratings": "analyzer.studies.ratings",
    "analyzer.rng": "analyzer.kernels.rng",
    "analyzer.runner": "analyzer.runs.runner",
    "analyzer.scenario_file": "analyzer.runs.scenario_file",
    "analyzer.search": "analyzer.kernels.search",
    "analyzer.sections": "analyzer.studies.sections",
    "analyzer.sections_file": "analyzer.runs.sections_file",
    "analyzer.seeding": "analyzer.core.seeding",
    "analyzer.sensitivity": "analyzer.studies.sensitivity",
    "analyzer.sensitivity_file": "analyzer.runs.sensitivity_file",
    "analyzer.serve": "analyzer.web.serve",
    "analyzer.ship_rows": "analyzer.studies.ship_rows",
    "analyzer.stats": "analyzer.core.stats",
    "analyzer.strategy_rows": "analyzer.games.strategy_rows",
    "analyzer.summary": "analyzer.runs.simulate",
    "analyzer.tuning": "analyzer.studies.tuning",
    "analyzer.webpage": "analyzer.report.webpage",
}
#: its module now -> the old name (a checkpoint written before the move names a
#: batch function by its old module: the fingerprint keeps that name)
OLD_NAME = {new: old for old, new in MOVED.items()}


class _Loader:  # importlib.abc.Loader's protocol (the ABC's import slows every start)
    def __init__(self, new: str):
        self.new = new

    def create_module(self, spec):
        return importlib.import_module(self.new)

    def exec_module(self, module) -> None:  # the module ran when it was imported
        pass


class _OldPaths:  # importlib.abc.MetaPathFinder's protocol
    """Finds ``analyzer.<old name>`` as the module that now holds it."""

    def find_spec(self, fullname, path=None, target=None):
        new = MOVED.get(fullname)
        if new is None:
            return None
        warnings.warn(
            f"{fullname} moved to {new}; the old path works until the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        import importlib.util

        return importlib.util.spec_from_loader(fullname, _Loader(new))


def install() -> None:
    """Put the finder of old paths on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _OldPaths) for f in sys.meta_path):
        sys.meta_path.append(_OldPaths())
