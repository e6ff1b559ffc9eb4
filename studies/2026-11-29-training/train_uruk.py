"""Train Uruk's `trained` player at 2 players (the library behind `analyzer train`).

PYTHONPATH=$PWD python studies/2026-11-29-training/train_uruk.py OUT [--resume]
"""

import sys
from pathlib import Path

from analyzer.studies.training import TrainSettings, format_result, train

SETTINGS = TrainSettings(
    "uruk", 2, 39, rounds=2, budget=150, rollouts=24, every=4.0, margin=0.02, chunk=10
)

if __name__ == "__main__":
    if "--rounds" in sys.argv:  # more rounds of the same run (with --resume)
        from dataclasses import replace

        SETTINGS = replace(SETTINGS, rounds=int(sys.argv[sys.argv.index("--rounds") + 1]))
    result = train(
        SETTINGS,
        Path(sys.argv[1]),
        resume="--resume" in sys.argv,
        progress=lambda line: print(line, file=sys.stderr, flush=True),
    )
    print(format_result(result))
