"""Seat win rates under seat-compensation overrides, paired on one seed.

    PYTHONPATH=. python studies/2026-11-29-seat-compensation/measure.py GAME PLAYERS GAMES SET...

Each SET is ``-`` (the printed game) or ``PATH=VALUE[;PATH=VALUE]`` (VALUE as JSON).
Every set plays the same games (seed 11, the game's default strategy in every seat,
one worker), so the shift of a seat's win rate against the first set is paired game
by game (common random numbers). Prints, per set: each seat's win rate (percent,
+- the 95% half-width), the largest gap from a fair share, and the paired shifts.
"""

from __future__ import annotations

import json
import sys

import numpy as np

import analyzer

SEED = 11


def parse(text: str) -> dict:
    if text == "-":
        return {}
    out = {}
    for item in text.split(";"):
        path, _, value = item.partition("=")
        out[path] = json.loads(value)
    return out


def wins(game: str, players: int, games: int, overrides: dict) -> np.ndarray:
    """Wins by game (rows) and seat (columns)."""
    df = analyzer.simulate(
        game=game, players=players, games=games, seed=SEED, overrides=overrides, workers=1
    )
    return df.pivot(index="game", columns="seat", values="win").to_numpy(float)


def half(x: np.ndarray) -> np.ndarray:
    return 196 * x.std(axis=0, ddof=1) / np.sqrt(len(x))


def main(game: str, players: int, games: int, sets: list[str]) -> None:
    base = None
    for text in sets or ["-"]:
        ov = parse(text)
        w = wins(game, players, games, ov)
        rates, hw = 100 * w.mean(axis=0), half(w)
        line = " ".join(f"s{k + 1} {rates[k]:.1f}±{hw[k]:.1f}" for k in range(players))
        gap = np.max(np.abs(rates - 100 / players))
        shift = ""
        if base is None:
            base = w
        else:
            d = w - base
            dm, dh = 100 * d.mean(axis=0), half(d)
            shift = " | paired shift: " + " ".join(
                f"s{k + 1} {dm[k]:+.1f}±{dh[k]:.1f}" for k in range(players)
            )
        print(
            f"{game} {players}p {games} games {ov or 'printed'}: {line} | max gap {gap:.1f}{shift}",
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
