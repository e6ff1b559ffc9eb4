"""Benchmark: ``analyzer advise --game uruk --deep`` on the shipped example,
seed after seed: the CPU seconds of the rollouts (kernels compiled first) and
whether each seed names the same best choice (or one within noise of it) as the
others. Prints one JSON line per seed and a summary line.

    python benchmarks/bench_uruk_deep_advice.py --seeds 10 [--budget 12000]

benchmarks/README.md quotes its figures. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from pathlib import Path


def main(argv=None) -> None:
    from analyzer.uruk import deep
    from analyzer.uruk.advise import example_text, load_state
    from analyzer.uruk.rules import default_rules

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--budget", type=int, default=deep.DEFAULT_BUDGET)
    a = ap.parse_args(argv)
    rules = default_rules()
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "example.toml"
        p.write_text(example_text())
        state = load_state(p, rules)
    deep.deep_advice(state, rules, budget=50, seed=0)  # compile (or load) the kernels
    runs = []
    for seed in range(1, a.seeds + 1):
        t0 = time.process_time()
        adv = deep.deep_advice(state, rules, budget=a.budget, seed=seed)
        cpu = time.process_time() - t0
        best = adv.choices[0]
        tied = [adv.choices[i].choice for i in adv.within_noise]
        runs.append((best.choice, set(tied)))
        print(
            json.dumps(
                {
                    "seed": seed,
                    "cpu_s": round(cpu, 2),
                    "rollout_cpu_s": round(adv.seconds, 2),
                    "best": best.choice,
                    "win": round(best.win, 4),
                    "within_noise": tied,
                }
            )
        )
    mode, _ = Counter(b for b, _ in runs).most_common(1)[0]
    agree = sum(1 for b, tied in runs if b == mode or mode in tied)
    print(json.dumps({"modal_best": mode, "agree": f"{agree} of {len(runs)}"}))


if __name__ == "__main__":
    main()
