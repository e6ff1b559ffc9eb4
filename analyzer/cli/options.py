"""Option texts shared by the commands (formerly ``analyzer.commands``)."""

#: help of the ``--strategy`` option shared by the commands that play games
STRATEGY_HELP = (
    "strategy, one for all seats or one per seat in seat order; repeat the "
    "option or separate with commas (default: the game's own, balanced for Unearth)"
)
