"""Fit the luck terms' value estimate ``V`` (:mod:`analyzer.colorful_treasure.luck`)
once, on games of seeds that no analysis uses, and write it as data.

    .venv/bin/python -m analyzer.colorful_treasure.luck_fit --games 1000 --seed 4343

plays ``greedy`` games at 2, 3 and 4 players (the same games for every trial:
the terms only observe) and searches the parameters coordinate by coordinate
(each multiplied or divided by a step that halves when no move helps) for the
least residual variance: the mean over player counts of ``sd(score -
luck_score) / sd(score) + sd(win - luck_win) / sd(win)``. The result and this
command go to ``analyzer/colorful_treasure/data/luck_value.toml``. The search,
the file and the command are :mod:`analyzer.games.luck_fit`'s; a training run's
games are the game's.

Fitting on the games it then adjusts would make the adjusted variance look
smaller than it is; the luck terms stay unbiased whatever the parameters.
"""

from __future__ import annotations

from analyzer.colorful_treasure.luck import PAR_NAMES, load_value_params
from analyzer.games.luck_fit import LuckFit


def _play(players: int, games: int, seed: int, strategy: str = "greedy"):
    """A training run (:class:`analyzer.games.luck_fit.LuckFit`): scores in points."""
    from analyzer.colorful_treasure.engine import R_SCORE
    from analyzer.colorful_treasure.game import make_job, play_raw

    job = make_job(players, strategy, seed, steals=False, luck=True)

    def run(par):
        res, wins, _, s = play_raw(job, 0, games, luck_par=par)
        luck = s.luck_out.sum(axis=1)
        return res[:, R_SCORE] / 60.0, wins.astype(float), luck

    return run


#: how V is fitted (:mod:`analyzer.games.luck_fit`)
FIT = LuckFit("analyzer.colorful_treasure", PAR_NAMES, load_value_params, _play, 1000, 4343)
OUT = FIT.out
fit = FIT.fit  #: ``fit(games, seed, players=(2, 3, 4), rounds=3, log=print)``
write = FIT.write  #: ``write(par, command, score=None, path=OUT)``


def main(argv=None) -> None:
    FIT.main(argv, __doc__)


if __name__ == "__main__":
    main()
