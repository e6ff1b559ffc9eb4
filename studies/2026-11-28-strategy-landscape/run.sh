#!/bin/sh
# The three landscape scenarios at their shipped size (games = 2000), 2 workers,
# timed; the numbers in ../2026-11-28-strategy-landscape.md.
set -e
for g in unearth colorful_treasure uruk; do
    /usr/bin/time -f "$g: %e s wall, %U s user" \
        python -m analyzer run scenarios/${g}_landscape.toml --out /tmp/full_$g --workers 2 --quiet
done
