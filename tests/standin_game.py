"""A stand-in game with only the core columns, for testing the machinery alone.

*Coin flip*: every seat flips ``rounds`` coins; a head scores one point; the
highest score wins (ties share). Strategy ``fair`` flips a fair coin,
``lucky`` one that shows heads with probability ``p`` (default 0.6: the
override ``coin.p_lucky``, or the strategy parameter ``p``; searched from 0 to 1). Game ``g``
of seed ``s`` draws only from ``numpy.random.default_rng([s, g])``. Importing
this module registers the game as ``coin``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyzer.core.errors import InputError, bad_value
from analyzer.games import Game, Strategy, register_game


@dataclass(frozen=True)
class CoinJob:
    players: int
    strategies: tuple[str, ...]
    seed: int
    rounds: int
    p_lucky: float

    def __call__(self, start: int, count: int) -> dict[str, pd.DataFrame]:
        n = self.players
        p = np.array([self.p_lucky if s == "lucky" else 0.5 for s in self.strategies])
        scores = np.empty((count, n), np.int16)
        for i in range(count):
            rng = np.random.default_rng([self.seed, start + i])
            scores[i] = (rng.random((self.rounds, n)) < p).sum(axis=0)
        best = scores.max(axis=1, keepdims=True)
        top = scores == best
        win = top / top.sum(axis=1, keepdims=True)
        games = pd.DataFrame(
            {
                "game": np.repeat(np.arange(start, start + count, dtype=np.int64), n),
                "seat": np.tile(np.arange(n, dtype=np.int8), count),
                "n_players": np.full(count * n, n, np.int8),
                "strategy": pd.Categorical(
                    np.tile(np.array(self.strategies), count), categories=["fair", "lucky"]
                ),
                "score": scores.reshape(-1),
                "win": win.reshape(-1).astype(np.float32),
                "game_turns": np.full(count * n, self.rounds, np.int16),
            }
        )
        return {"games": games}


@dataclass
class CoinGame(Game):
    name: str = "coin"
    title: str = "Coin flip"
    rules_version: str = "coin-1"
    min_players: int = 2
    max_players: int = 6
    strategies: tuple = field(
        default_factory=lambda: (
            Strategy("fair", "a fair coin"),
            Strategy(
                "lucky",
                "a coin showing heads with probability p",
                (("p", 0.6),),
                bounds=(("p", 0.0, 1.0),),
            ),
        )
    )
    default_strategy: str = "fair"

    def ruling_names(self):
        return ("rounds",)

    def load_rules(self, rulings, overrides, where):
        rounds = rulings.get("rounds", 5)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise bad_value(f"{where}: rules.rounds", rounds, "a positive integer")
        for path in overrides:
            if path != "coin.p_lucky":
                raise InputError(f"{where}: override {path!r} (allowed: coin.p_lucky)")
        return {"rounds": rounds, "p_lucky": float(overrides.get("coin.p_lucky", 0.6))}

    def override_example(self, path):
        return 0.6 if path == "coin.p_lucky" else None

    def rules_settings(self, rules):
        return {"rounds": rules["rounds"]}, {"coin.p_lucky": rules["p_lucky"]}

    def describe_rules(self, rules):
        return {"rules_version": self.rules_version, "rulings": dict(rules), "overrides": {}}

    def make_job(self, players, strategies, seed, rules, *, claims=False, strategy_params=None):
        p = float((strategy_params or {}).get("lucky", {}).get("p", rules["p_lucky"]))
        return CoinJob(players, tuple(strategies), seed, rules["rounds"], p)

    def replay(self, job, game):
        scores = job(game, 1)["games"]["score"].tolist()
        return f"coin game {game}: heads by seat {scores}\n"


def _factory() -> CoinGame:
    return CoinGame()


register_game("coin", _factory)
