#!/bin/sh
# "It works": the recommended seat compensation of each shipped question played afresh
# with `analyzer simulate` on a new seed (20261129, used by no balance run), against the
# printed game on the same seed, at the player count the question optimises, with the
# question's field, 40,000 games per design (the figure; about 2 minutes of CPU in all).
#   sh studies/2026-11-29-balancing/play_afresh.sh
set -e
S=20261129
sim() { analyzer simulate --seed $S --workers 1 --quiet "$@"; }
sim --game unearth --players 4 --strategy balanced --games 40000
sim --game unearth --players 4 --strategy balanced --games 40000 \
    --override seat_compensation.delver_cards_per_seat=1
sim --game colorful_treasure --players 4 --strategy greedy --games 40000
sim --game colorful_treasure --players 4 --strategy greedy --games 40000 \
    --override seat_compensation.points_per_earlier_seat=0.75
sim --game uruk --players 3 --strategy balanced --games 40000
sim --game uruk --players 3 --strategy balanced --games 40000 \
    --override seat_compensation.resources_later_seats=1
