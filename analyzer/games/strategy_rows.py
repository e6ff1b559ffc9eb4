"""A game's tuned strategy rows by player count: its ``data/strategies.toml``.

Read without numba, by the games (their kernels take the rows as arrays). Each
``[strategies.<name>.<players>]`` table of the file is a full parameter row
(``params``, one value per name of the game's parameter list) with the
``analyzer tune`` command that produced it and its confirmation on fresh games;
a player count without a table takes the row of the nearest smaller count that
has one (and the smallest listed count below that). Strategies whose row is
fixed in the code (``random``, the frozen ``baseline``) or borrowed from another
(Unearth's ``search`` plays ``balanced``'s rows) are not in the file.
:mod:`analyzer.studies.ship_rows` writes the file from ``analyzer tune`` results.
:func:`search_params` declares the ``search`` player's own settings.
"""

from __future__ import annotations

import tomllib
from importlib import resources


class RowsFile:
    """The rows of ``<package>/data/strategies.toml``.

    ``params``: the parameter names, in the order of a row; ``tuned``: the
    strategies the file may hold, in the order the file lists them; ``fixed``:
    ``{strategy: row}`` of those whose row is in the code; ``row_of``:
    ``{strategy: strategy}`` of those that play another's rows.
    """

    def __init__(
        self,
        package: str,
        params: tuple[str, ...],
        tuned: tuple[str, ...],
        fixed: dict[str, tuple[float, ...]],
        row_of: dict[str, str] | None = None,
    ):
        self.package = package
        self.params = params
        self.tuned = tuned
        self.fixed = fixed
        self.row_of = row_of or {}
        self._data: dict | None = None
        self._rows: dict[str, tuple[tuple[int, tuple[float, ...]], ...]] = {}

    def resource(self):
        """The data file, as an importlib resource."""
        return resources.files(self.package).joinpath("data", "strategies.toml")

    def data(self) -> dict:
        """The parsed file, checked: tunable strategies only, full rows."""
        if self._data is None:
            doc = tomllib.loads(self.resource().read_text("utf-8"))
            for name, counts in doc.get("strategies", {}).items():
                if name not in self.tuned:
                    raise ValueError(
                        f"data/strategies.toml: strategies.{name}: not a tunable strategy"
                    )
                for n, table in counts.items():
                    row = table.get("params", {})
                    if set(row) != set(self.params):
                        odd = sorted(set(self.params) ^ set(row))
                        raise ValueError(
                            f"data/strategies.toml: strategies.{name}.{n}: params {odd}"
                        )
            self._data = doc
        return self._data

    def version(self) -> str:
        """The strategies version (written beside the rules version)."""
        return str(self.data()["version"])

    def rows_by_players(self, name: str) -> tuple[tuple[int, tuple[float, ...]], ...]:
        """``((players, row), ...)`` of ``name``, by increasing player count."""
        if name not in self._rows:
            if name in self.fixed:
                self._rows[name] = ((2, tuple(self.fixed[name])),)
            else:
                counts = self.data()["strategies"][self.row_of.get(name, name)]
                self._rows[name] = tuple(
                    (int(n), tuple(float(counts[n]["params"][p]) for p in self.params))
                    for n in sorted(counts, key=int)
                )
        return self._rows[name]

    def default_row(self, name: str, players: int) -> tuple[float, ...]:
        """``name``'s default parameter row at ``players`` seats."""
        rows = self.rows_by_players(name)
        row = rows[0][1]
        for n, r in rows:
            if n <= players:
                row = r
        return row


def search_params(
    budget: float, width: float, *, decision: str = "decision", base: str = "balanced", extra=()
) -> tuple[tuple[str, float, str], ...]:
    """The ``search`` player's own settings (``strategy_params.search``) as
    ``(name, default, meaning)`` rows: the shared search's (``analyzer.kernels.search``)
    rollouts per ``decision`` (``budget``), choices kept for them by the ``base``
    player's evaluation (``width``), the weight of a rollout's score margin and
    the standard errors by which a choice must beat the base player's; then the
    game's ``extra`` rows."""
    return (
        ("budget", float(budget), f"rollouts per {decision}"),
        ("width", float(width), f"choices kept for rollouts: the best by {base}'s evaluation"),
        ("margin", 0.01, "weight of a rollout's score margin beside its win share"),
        ("z", 1.0, f"standard errors by which a choice must beat {base}'s to replace it"),
        *extra,
    )
