"""Fit the luck terms' value estimate ``V`` (:mod:`analyzer.colorful_treasure.luck`)
once, on games of seeds that no analysis uses, and write it as data.

    .venv/bin/python -m analyzer.colorful_treasure.luck_fit --games 1000 --seed 4343

plays ``greedy`` games at 2, 3 and 4 players (the same games for every trial:
the terms only observe) and searches the parameters coordinate by coordinate
(each multiplied or divided by a step that halves when no move helps) for the
least residual variance: the mean over player counts of ``sd(score -
luck_score) / sd(score) + sd(win - luck_win) / sd(win)``. The result and this
command go to ``analyzer/colorful_treasure/data/luck_value.toml``.

Fitting on the games it then adjusts would make the adjusted variance look
smaller than it is; the luck terms stay unbiased whatever the parameters.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from analyzer.colorful_treasure.luck import PAR_NAMES, load_value_params
from analyzer.core.outputs import write_luck_values
from analyzer.kernels.luck import coordinate_search, residual

OUT = Path(__file__).parent / "data" / "luck_value.toml"


def _play(players: int, games: int, seed: int, strategy: str = "greedy"):
    from analyzer.colorful_treasure.engine import R_SCORE
    from analyzer.colorful_treasure.game import make_job, play_raw

    job = make_job(players, strategy, seed, steals=False, luck=True)

    def run(par):
        res, wins, _, s = play_raw(job, 0, games, luck_par=par)
        luck = s.luck_out.sum(axis=1)
        return res[:, R_SCORE] / 60.0, wins.astype(float), luck

    return run


def fit(games: int, seed: int, players=(2, 3, 4), rounds: int = 3, log=print) -> np.ndarray:
    """Coordinate search of the parameters from the shipped ones (see module docstring)."""
    runs = [_play(n, games, seed + n) for n in players]
    par = load_value_params()
    return coordinate_search(lambda p: residual(runs, p), par, PAR_NAMES, rounds=rounds, log=log)


def write(par, command: str, score: float | None = None, path: Path = OUT) -> None:
    """Write ``par`` as ``[value]`` (:func:`analyzer.core.outputs.write_luck_values`)."""
    write_luck_values(
        path, PAR_NAMES, par, command, module="analyzer/colorful_treasure/luck.py", score=score
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games per player count")
    ap.add_argument("--seed", type=int, default=4343, help="training seed (+ player count)")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    par = fit(a.games, a.seed, rounds=a.rounds)
    runs = [_play(n, a.games, a.seed + n) for n in (2, 3, 4)]
    cmd = (
        f".venv/bin/python -m analyzer.colorful_treasure.luck_fit --games {a.games} --seed {a.seed}"
    )
    if a.rounds != 3:
        cmd += f" --rounds {a.rounds}"
    write(par, cmd, residual(runs, par))
    print(OUT.read_text())


if __name__ == "__main__":
    main()
