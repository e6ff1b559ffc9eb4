"""A game's trace as readable text, one line per event (``analyzer replay --game uruk``).

The engine writes event rows ``(event, turn, seat, a, b, c)`` (the ``EV_*``
codes of :mod:`analyzer.uruk.state`) when the state has trace rows. This module
names cards, colours and epoch cards from the :class:`Rules` in use, so a game
can be read, diffed (golden replays in ``tests/golden/uruk_*.txt``) and discussed.
"""

from __future__ import annotations

from analyzer.uruk import state as S
from analyzer.uruk.rules import RULES_VERSION

#: trace rows for one game (a 4-player game writes well under 5,000)
DEFAULT_TRACE_ROWS = 40000
_EPOCHS = ("I", "II", "III", "IV")


def _lines(rules, rows) -> list[str]:
    cards = rules.card_names
    colours = rules.colours

    def card(c):
        return cards[c] if 0 <= c < len(cards) else "-"

    def colour(c):
        return colours[c] if 0 <= c < len(colours) else "-"

    out = []
    for ev, turn, seat, a, b, c in rows:
        who = f"seat {seat}" if seat >= 0 else "table"
        head = f"t{turn:03d} {who}:"
        if ev == S.EV_FIRST:
            text = f"first invention {card(a)} with a village"
        elif ev == S.EV_DEAL:
            text = f"{a} level-2 cards dealt"
        elif ev == S.EV_TURN:
            text = f"--- turn, {a} action(s)"
        elif ev == S.EV_TAKE_CARD:
            text = f"takes {card(a)} " + (f"from display slot {b}" if b >= 0 else "from the deck")
        elif ev == S.EV_MAKE:
            how = "free (Enlil)" if c < 0 else f"{c} colour pair(s)"
            repl = f", {card(b)} back to the hand" if b >= 0 else ""
            text = f"makes {card(a)} ({how}){repl}"
        elif ev == S.EV_TAKE_RES:
            src = "the pool" if b < 0 else f"seat {b}"
            text = f"takes 1 {colour(a)} from {src}" + (" (function)" if c else "")
        elif ev == S.EV_NO_RES:
            text = f"gets no {colour(a)} (holds the most)"
        elif ev == S.EV_ROB_REPLACE:
            text = f"robbed, takes 1 {colour(a)} from the pool"
        elif ev == S.EV_STONES_BACK:
            text = f"{b} stone(s) of {card(a)} go back to the pool"
        elif ev == S.EV_REMINDER_USED:
            text = f"discards {card(a)} (its half-price stone placed)"
        elif ev == S.EV_TRADE:
            text = f"trades {b} x {card(a)}"
        elif ev == S.EV_SETTLE:
            kind = "village" if c == 1 else "city"
            text = f"{kind} on {card(a)} from epoch {_EPOCHS[b]}"
        elif ev == S.EV_PAY:
            text = f"pays {b} {colour(a)}"
        elif ev == S.EV_CARD_ACTION:
            text = f"card action of {card(a)} ({b})"
        elif ev == S.EV_GOD_DRAWN:
            where = ("beside the display", "face down: trigger", "discarded")[b]
            text = f"draws {card(a)}: {where}"
        elif ev == S.EV_ACTIVATE:
            text = f"{card(a)} is activated (trigger seat {b})"
        elif ev == S.EV_STONE_OUT:
            text = f"a stone leaves epoch {_EPOCHS[a]} for the pool"
        elif ev == S.EV_HAND_LIMIT:
            text = f"discards {a} card(s) to the hand limit"
        elif ev == S.EV_BID:
            text = "passes" if a < 0 else f"bids {a}"
        elif ev == S.EV_WIN:
            text = f"wins {card(a)} with {b}" if seat >= 0 else f"no one bids for {card(a)}"
        elif ev == S.EV_BONUS:
            kind = "bonus" if b == 1 else "lesser bonus"
            text = f"{card(a)} {kind}"
        elif ev == S.EV_GAIN:
            text = f"gains {b} {colour(a)}"
        elif ev == S.EV_DRAW:
            text = f"draws {card(a)}"
        elif ev == S.EV_SECRET_BID:
            text = f"secret bid {a} resource(s), value {b}"
        elif ev == S.EV_SUFFER:
            lost = card(b) if b >= 0 else f"{c}"
            text = f"suffers {card(a)}: loses {lost}"
        elif ev == S.EV_SPARED:
            text = f"spared from {card(a)}, pays {b}"
        elif ev == S.EV_RESHUFFLE:
            text = f"deck rebuilt: {a} card(s) out of the game, {b} in the deck"
        elif ev == S.EV_END:
            text = "the last stone left epoch IV: the round is finished, then one more turn each"
        elif ev == S.EV_REFILL_IV:
            text = f"{a} pool stone(s) back on epoch IV"
        elif ev == S.EV_DISPLAY:
            text = f"display slot {b} <- {card(a)}"
        elif ev == S.EV_SCORE:
            text = f"scores {a}, {b} cities, win share {c / 1000:.3f}"
        else:
            text = f"event {ev} {a} {b} {c}"
        out.append(f"{head} {text}")
    return out


def replay_game(job, game: int) -> str:
    """Game ``game`` of ``job`` (a :class:`analyzer.uruk.game.GameJob`) as text."""
    from analyzer.uruk.game import check_results, play_raw

    results, wins, s = play_raw(job, game, 1, trace_rows=DEFAULT_TRACE_ROWS)
    check_results(results, game)
    n = int(s.sc[S.S_TRACE_N])
    head = [
        f"Uruk replay ({RULES_VERSION}): game {game}, seed {job.seed}, {job.players} players",
        "strategies: " + ", ".join(f"seat {i} {n}" for i, n in enumerate(job.strategies)),
        "",
    ]
    rows = s.trace[:n].tolist()
    return "\n".join(head + _lines(job.rules, rows)) + "\n"
