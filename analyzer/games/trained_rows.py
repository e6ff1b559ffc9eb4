"""A game's trained evaluation weights by player count: its ``data/trained.toml``.

Read without numba. Each ``[trained.<players>]`` table holds ``features`` (the
names, in the order of the weights: they must be the game's feature names, so a
file written for other features is refused), ``weights`` (one number each), the
``analyzer train`` command that fitted them and ``fit`` (what the fit saw).
Weights are fitted for one player count and measured there: a player count
without a table of its own plays the identity weights
(:meth:`TrainedFile.weights`' ``identity``), the default's evaluation unchanged
(Uruk's 2-player weights, played at 4 players, lost to the default: study
2026-11-29-training). :mod:`analyzer.studies.training` writes
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
        """The table of ``players``' weights (None: the file has none)."""
        return self.data().get("trained", {}).get(str(players))

    def weights(self, players: int, identity: tuple[float, ...]) -> tuple[float, ...]:
        """The weights at ``players`` seats (``identity`` if the file has none for it)."""
        table = self.table(players)
        if table is None:
            return tuple(identity)
        return tuple(float(w) for w in table["weights"])
