"""How often the equilibrium's simultaneous bootstrap intervals cover a planted
equilibrium: the synthetic ladder of tests/studies/test_equilibrium.py (an uneven
rock-paper-scissors, equilibrium 50/30/20, 1,500 games per ordered pair and seat
order) over 30 seeds, 1,000 resamples each.

    PYTHONPATH=$PWD python studies/2026-11-28-strategy-landscape/coverage.py
"""

import numpy as np

from analyzer.studies.equilibrium import equilibrium
from tests.studies.test_equilibrium import _synthetic_ladder

covered, per_share = [], np.zeros(3)
for seed in range(30):
    names, per_game, x_true = _synthetic_ladder(seed)
    eq = equilibrium(names, per_game, bootstrap=1000, seed=seed)
    inside = (eq.low <= x_true) & (x_true <= eq.high)
    covered.append(bool(inside.all()))
    per_share += inside
print(f"all three shares covered: seeds 0-9 {sum(covered[:10])}/10, seeds 0-29 {sum(covered)}/30")
print("each share covered (of 30):", per_share.astype(int).tolist())
