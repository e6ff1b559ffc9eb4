"""Everything that is Colorful Treasure's: rules data, kernels, players, reports.

Section map (``docs/games/colorful_treasure.md``):

- Components, Scoring values, Variant for young players, rulings: :mod:`.rules`
  (data in ``data/``), integer codes in :mod:`.codes`
- Set-up, A turn, Scoring (rewards, end scoring), memory: :mod:`.turn`
- Game end, the turn as a whole, invariants: :mod:`.engine` (state in :mod:`.state`)
- Players and memory: :mod:`.strategies`; the ``search`` player :mod:`.search`
- Table answers: exact odds :mod:`.odds`, deep advice :mod:`.deep`; the questions
  ``odds`` and ``advise``: :mod:`.table`
- Exact checks: :mod:`.exact`
- Python entry point for whole games: :mod:`.game`; replays :mod:`.replay`
- The game as the machinery sees it: :mod:`.plugin`; its tables and charts:
  :mod:`.tables`, :mod:`.charts`
"""

from analyzer.games import register_game


def _game():
    from analyzer.colorful_treasure.plugin import ColorfulTreasure

    return ColorfulTreasure()


register_game("colorful_treasure", _game, commands=(), table="analyzer.colorful_treasure.table")
