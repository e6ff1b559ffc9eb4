"""Everything that is Uruk's: rules data, kernels, players, replay, report tables.

Section map (``docs/games/uruk.md``):

- Components, Inventions, epoch costs, Scoring data: :mod:`.rules` (data in ``data/``)
- Integer codes shared with the kernels: :mod:`.codes`
- The state of one game and its trace: :mod:`.state`
- Set-up, the deck, the display, deck exhausted: :mod:`.cards`
- A turn's actions (make, resources, trade, settlements, card actions): :mod:`.actions`
- Gods and disasters (activation, auctions, secret bids): :mod:`.gods`
- Game end and scoring: :mod:`.scoring`
- Players: :mod:`.strategies`; their choices inside actions: :mod:`.choices`
- Predicates of a seat's position shared by actions and players: :mod:`.position`
- The whole game loop and invariants: :mod:`.engine`
- Table advice (``analyzer advise --game uruk``): :mod:`.advise`, :mod:`.deep`; the
  question: :mod:`.table`
- Python entry point for whole games: :mod:`.game`; the Game seam: :mod:`.plugin`
"""

from analyzer.games import register_game


def _game():
    from analyzer.uruk.plugin import Uruk

    return Uruk()


register_game("uruk", _game, commands=(), table="analyzer.uruk.table")
