"""The old home of scenarios: a façade that re-exports their public names.

``analyzer.scenario`` was both the scenario file format and the driver; they are
now :mod:`analyzer.runs.scenario_file` (parsing, validation, expansion into cells)
and :mod:`analyzer.runs.driver` (:func:`run_scenario`, the batch job, the manifest),
and :func:`repr_without_defaults` is :mod:`analyzer.core.fingerprint`'s. Users'
scripts keep importing every public name from here; nothing inside the package
imports this module (``tests/test_layering.py``).
"""

from __future__ import annotations

from analyzer.core.fingerprint import repr_without_defaults
from analyzer.runs.driver import (
    ScenarioJob,
    ScenarioRun,
    fields_info,
    intervention_info,
    reducer_uptake,
    run_scenario,
    scenario_job,
    sections_only_info,
    strategy_rows,
)
from analyzer.runs.scenario_file import (
    DEFAULT_BATCH,
    FIELD_KEYS,
    FORBID_SEATS,
    GAME_KEYS,
    MAX_CELLS,
    MAX_DEPTH,
    MAX_FIELDS,
    MAX_FILE_BYTES,
    MAX_SWEEP_AXES,
    OUTPUT_KEYS,
    ROTATIONS,
    SLOW_BATCH,
    TOP_KEYS,
    VARIANT_KEYS,
    Cell,
    FieldSpec,
    Forbid,
    Scenario,
    SweepAxis,
    Variant,
    comparison_pairs,
    expand,
    fields_of,
    games_per_order,
    load_scenario,
    parse_scenario,
    plan_games,
    read_toml,
    seat_orders,
    with_overrides,
)

__all__ = [
    "Cell",
    "DEFAULT_BATCH",
    "FIELD_KEYS",
    "FORBID_SEATS",
    "FieldSpec",
    "Forbid",
    "GAME_KEYS",
    "MAX_CELLS",
    "MAX_DEPTH",
    "MAX_FIELDS",
    "MAX_FILE_BYTES",
    "MAX_SWEEP_AXES",
    "OUTPUT_KEYS",
    "ROTATIONS",
    "SLOW_BATCH",
    "Scenario",
    "ScenarioJob",
    "ScenarioRun",
    "SweepAxis",
    "TOP_KEYS",
    "VARIANT_KEYS",
    "Variant",
    "comparison_pairs",
    "expand",
    "fields_info",
    "fields_of",
    "games_per_order",
    "intervention_info",
    "load_scenario",
    "parse_scenario",
    "plan_games",
    "read_toml",
    "reducer_uptake",
    "repr_without_defaults",
    "run_scenario",
    "scenario_job",
    "seat_orders",
    "sections_only_info",
    "strategy_rows",
    "with_overrides",
]


def __getattr__(name: str):
    """Any other name the old module had (its private helpers) from its new home."""
    from analyzer.runs import driver, scenario_file

    for module in (scenario_file, driver):
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
