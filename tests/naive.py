"""Slow, obviously correct twins of the kernels, written from the spec alone.

Each function here restates a rule of ``shared/rules/unearth.md`` in plain
Python with no attempt at speed; tests compare kernels against them.
"""

NO_CLAIM = -1
TIE = -2


def naive_ruin_outcome(dice, claim_value, n_players):
    """``dice``: list of (seat, faces, value). Returns (result, cards per seat)."""
    cards = [0] * n_players
    if sum(v for _, _, v in dice) < claim_value:
        return NO_CLAIM, cards
    ranked = {}
    for seat, faces, value in dice:
        ranked.setdefault(seat, []).append((value, faces))
    for seat in ranked:
        ranked[seat].sort(reverse=True)
    width = max(len(v) for v in ranked.values())

    def padded(seat):
        return ranked[seat] + [(0, 0)] * (width - len(ranked[seat]))

    order = sorted(ranked, key=padded, reverse=True)
    if len(order) > 1 and padded(order[0]) == padded(order[1]):
        winner = TIE
    else:
        winner = order[0]
    for seat, _, _ in dice:
        if seat != winner:
            cards[seat] += 1
    return winner, cards
