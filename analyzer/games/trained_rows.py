"""A game's trained evaluation weights by player count: its ``data/trained.toml``.

Read without numba. Each ``[trained.<players>]`` table holds ``features`` (the
names, in the order of the weights: they must be the game's feature names, so a
file written for other features is refused), ``weights`` (one number each), the
``analyzer train`` command that fitted them and ``fit`` (what the fit saw). A
player count without a table takes the weights of the nearest smaller count that
has one (and the smallest listed count below that); a game whose file has no
table plays its identity weights (:meth:`TrainedFile.weights`' ``identity``),
the ``balanced`` evaluation unchanged. :mod:`analyzer.studies.training` writes
the tables.
"""

from __future__ import annotations

import tomllib
from importlib import resources


class TrainedFile:
    """The weights of ``<package>/data/trained.toml`` for the features ``names``."""

    def __init__(self, package: str, names: tuple[str, ...]):
        self.package = package
        self.names = tuple(names)
        self._data: dict | None = None

    def resource(self):
        """The data file, as an importlib resource."""
        return resources.files(self.package).joinpath("data", "trained.toml")

    def data(self) -> dict:
        """The parsed file, checked: the game's features, one weight each."""
        if self._data is None:
            res = self.resource()
            doc = tomllib.loads(res.read_text("utf-8")) if res.is_file() else {}
            for n, table in doc.get("trained", {}).items():
                where = f"data/trained.toml: trained.{n}"
                if tuple(table.get("features", ())) != self.names:
                    raise ValueError(f"{where}: features are not the game's {list(self.names)}")
                if len(table.get("weights", ())) != len(self.names):
                    raise ValueError(f"{where}: weights: one number per feature")
            self._data = doc
        return self._data

    def table(self, players: int) -> dict | None:
        """The table that holds ``players``' weights (None: the file has none)."""
        tables = self.data().get("trained", {})
        if not tables:
            return None
        counts = sorted(tables, key=int)
        pick = counts[0]
        for n in counts:
            if int(n) <= players:
                pick = n
        return tables[pick]

    def weights(self, players: int, identity: tuple[float, ...]) -> tuple[float, ...]:
        """The weights at ``players`` seats (``identity`` if the file has none)."""
        table = self.table(players)
        if table is None:
            return tuple(identity)
        return tuple(float(w) for w in table["weights"])
