"""Pig as the machinery sees it: the :class:`analyzer.games.Game` it registers.

The runner, scenarios, aggregation, reports and the CLI know a game only
through these members: its name and players, its strategies and their
parameters, its rules (rulings, overrides), its batch job, its declared
columns and its replays. Everything else (reports' own tables, charts,
questions, table advice) is optional and left out here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from analyzer.core.errors import InputError, bad_value
from analyzer.games import Column, Game, Strategy

from .rules import RULES_VERSION, RULINGS, load_rules, read_data

#: the columns the games table has beyond the core ones, each described
COLUMNS = (
    Column("turns", "turns this seat took", by_strategy=True),
    Column("rolls", "dice this seat rolled", by_strategy=True),
    Column("busts", "turns this seat lost to the bust face", by_strategy=True, sweep=True),
    Column("capped", "1 if the game stopped at the safety stop (max_turns)", kind="label"),
)


def _strategies() -> tuple[Strategy, ...]:
    return (
        Strategy(
            "hold",
            "rolls until its turn total reaches `hold` points or would reach the target",
            (("hold", 20.0),),
            bounds=(("hold", 5.0, 40.0),),
        ),
        Strategy("random", "rolls or holds with even odds after every roll"),
    )


@dataclass
class Pig(Game):
    name: str = "pig"
    title: str = "Pig"
    rules_version: str = RULES_VERSION
    min_players: int = 2
    max_players: int = 6
    strategies: tuple[Strategy, ...] = field(default_factory=_strategies)
    default_strategy: str = "hold"
    batch_size: int = 20_000  # a game takes about a microsecond

    # ----------------------------------------------------------------- rules

    def ruling_names(self) -> tuple[str, ...]:
        return ("end",)

    def ruling_specs(self) -> tuple:
        return RULINGS

    def load_rules(self, rulings: dict, overrides: dict, where: str):
        return load_rules(rulings, overrides, where)

    def rules_settings(self, rules) -> tuple[dict, dict]:
        return rules.settings()

    def override_example(self, path: str):
        return read_data().get(path)

    def describe_rules(self, rules) -> dict:
        rulings, overrides = rules.settings()
        return {"rules_version": RULES_VERSION, "rulings": rulings, "overrides": overrides}

    def columns(self, rules) -> tuple[Column, ...]:
        return COLUMNS

    # ----------------------------------------------------------------- playing

    def check_strategy_params(self, params: dict) -> None:
        hold = params.get("hold", {}).get("hold")
        if hold is not None and not 1 <= hold <= 1000:
            raise bad_value("strategy_params.hold.hold", hold, "a number from 1 to 1000")

    def make_job(
        self,
        players: int,
        strategies: Sequence[str],
        seed: int,
        rules,
        *,
        claims: bool = False,
        strategy_params: dict | None = None,
    ):
        from .game import PigJob

        for name in strategy_params or {}:
            if name != "hold":
                raise InputError(f"strategy_params: {name!r} takes no parameters (allowed: hold)")
        hold = float((strategy_params or {}).get("hold", {}).get("hold", 20.0))
        return PigJob(players, tuple(strategies), seed, rules, hold)

    def replay(self, job, game: int) -> str:
        from .game import replay_game

        return replay_game(job, game)

    def replay_events(self, job, game: int) -> dict:
        from .game import replay_events

        return replay_events(job, game)
