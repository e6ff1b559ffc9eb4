"""Everything that is Unearth's: rules data, kernels, strategies, odds.

Section map (``docs/rules/unearth.md``):

- Components, Editions, card tables: :mod:`.rules` (data in ``data/``)
- Claims and tiebreaks: :mod:`.claims`
- Exact odds for a player at the table: :mod:`.odds`, :mod:`.advise`
- Stones, rings and wonders: :mod:`.tableau`
- Scoring: :mod:`.scoring`
- Set-up, A turn, Delver cards, End of age: :mod:`.engine`
- Strategies: :mod:`.strategies`
- Python entry point for whole games: :mod:`.game`
"""

from analyzer.games import register_game


def _game():
    from analyzer.unearth.plugin import Unearth

    return Unearth()


register_game("unearth", _game)
