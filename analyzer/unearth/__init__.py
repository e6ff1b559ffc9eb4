"""Everything that is Unearth's: rules data, kernels, strategies, odds.

Section map (``docs/games/unearth.md``):

- Components, Editions, card tables: :mod:`.rules` (data in ``data/``)
- Set-up: :mod:`.setup`
- A turn: :mod:`.turn`, :mod:`.rolls`
- Claims and tiebreaks: :mod:`.claiming`, :mod:`.claims`
- Delver cards: :mod:`.cards`
- End of age: :mod:`.end_of_age`
- Stones, rings and wonders: :mod:`.wonders`, :mod:`.tableau`
- Scoring: :mod:`.scoring`
- The game loop, invariants, results: :mod:`.engine`
- Strategies (decisions only): :mod:`.strategies`
- Exact odds for a player at the table: :mod:`.odds`, :mod:`.advise` (the questions
  ``odds`` and ``advise``: :mod:`.table`)
- Python entry point for whole games: :mod:`.game`; the game as the machinery
  sees it: :mod:`.plugin`; its report tables, charts and commands: :mod:`.tables`,
  :mod:`.charts`, :mod:`.table`
"""

from analyzer.games import register_game


def _game():
    from analyzer.unearth.plugin import Unearth

    return Unearth()


#: Unearth's table questions (``analyzer odds``, ``analyzer advise``): the CLI builds
#: their commands without building the game, so that a one-shot ``odds`` starts fast
register_game("unearth", _game, commands=(), table="analyzer.unearth.table")
