"""A game's replay log as readable text, one line per event.

The engine writes a trace when asked (``trace_rows`` > 0 in
:func:`analyzer.unearth.game.play_raw`): int32 rows ``(event, turn, seat, a, b,
c, d, e)`` with the ``EV_*`` codes of :mod:`analyzer.unearth.state`. This module
turns those rows into text using the names of the :class:`Rules` object (cards,
delver cards, named wonders, stone colours), so a game can be read, diffed
(golden replays in ``tests/golden``) and discussed.

Cells of a tableau are printed as axial coordinates ``(q, r)`` relative to the
first stone (the middle cell of the grid).
"""

from __future__ import annotations

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.unearth.codes import Delver, WonderEffect, WonderKind
from analyzer.unearth.rules import RULES_VERSION, Rules
from analyzer.unearth.scoring import N_PARTS, PART_NAMES
from analyzer.unearth.state import (
    EV_CLAIM,
    EV_DRAW,
    EV_END,
    EV_EVENT,
    EV_PLAY,
    EV_REVEAL,
    EV_ROLL,
    EV_SETUP_RUIN,
    EV_STONE,
    EV_TAKE_BACK,
    EV_TAKE_RUIN,
    EV_WONDER,
    S_EOA,
    S_TRACE_N,
)
from analyzer.unearth.tableau import GRID, MIDDLE, NO_WONDER

#: trace rows used by :func:`replay_game` (a 4-player game writes well under 2000)
DEFAULT_TRACE_ROWS = 20000

_ROLL_KIND = {
    0: "excavation",
    1: "reroll",
}


class _Names:
    """Name lookups of one :class:`Rules` object."""

    def __init__(self, rules: Rules):
        t = rules.tables
        data = rules.data
        self.t = t
        self.card_ids = rules.card_ids
        eoa_names = [c.get("name", c["id"]) for c in data["end_of_age"]["card"]]
        self.card_names = list(self.card_ids[: t.n_ruins]) + eoa_names
        self.delvers = rules.delver_names
        self.wonders = rules.wonder_names
        self.colours = rules.stone_colours

    def card(self, card: int) -> str:
        if card < 0 or card >= len(self.card_names):
            return f"card {card}"
        claim = int(self.t.card_claim[card])
        name = self.card_names[card]
        return f"{name} (claim {claim})" if claim > 0 else name

    def die(self, d: int) -> str:
        return f"die {d} (d{int(self.t.dice_faces[d])})"

    def delver(self, kind: int) -> str:
        return self.delvers[kind] if 0 <= kind < len(self.delvers) else f"delver {kind}"

    def wonder_with(self, effect: int) -> str:
        """The name of the named wonder with ``effect`` (a WonderEffect)."""
        hits = [w for w in range(len(self.wonders)) if int(self.t.wonder_effect[w]) == effect]
        return self.wonders[hits[0]] if hits else f"wonder effect {effect}"

    def delver_with(self, effect: int) -> str:
        """The name of the delver card with ``effect`` (a Delver code)."""
        hits = [k for k in range(len(self.delvers)) if int(self.t.delver_effect[k]) == effect]
        return self.delvers[hits[0]] if hits else f"delver effect {effect}"

    def colour(self, c: int) -> str:
        return self.colours[c] if 0 <= c < len(self.colours) else f"colour {c}"


def cell_coords(cell: int) -> tuple[int, int]:
    """Axial ``(q, r)`` of a grid cell, relative to the middle cell (the first stone)."""
    mq, mr = MIDDLE % GRID, MIDDLE // GRID
    return cell % GRID - mq, cell // GRID - mr


def _cell(cell: int) -> str:
    q, r = cell_coords(cell)
    return f"({q}, {r})"


def event_text(names: _Names, row) -> str:
    """One trace row as text (without the turn/seat prefix)."""
    ev, _turn, seat, a, b, c, d, e = (int(x) for x in row)
    t = names.t
    if ev in (EV_REVEAL, EV_SETUP_RUIN):
        return f"reveals {names.card(b)} in slot {a}"
    if ev == EV_EVENT:
        return f"end of age: {names.card(a)}"
    if ev == EV_DRAW:
        return f"draws {names.delver(a)}"
    if ev == EV_PLAY:
        text = f"plays {names.delver(a)}"
        eff = int(t.delver_effect[a]) if 0 <= a < t.delver_effect.shape[0] else -1
        if eff == Delver.FORGOTTEN_SONG:
            text += f", naming {b}"
        elif eff in (Delver.FORLORN, Delver.LOST_IN_THE_RUINS, Delver.A_NEW_DISCOVERY):
            text += f" on seat {b}'s {names.die(c)}"
        return text
    if ev == EV_TAKE_BACK:
        return f"takes back {names.die(a)} from slot {b}"
    if ev == EV_ROLL:
        if e in (2, 3):
            choice = "rerolls it" if d == 1 else "keeps it"
            if e == 2:
                card = names.delver_with(Delver.ANCIENT_MAP)
            else:
                card = names.wonder_with(WonderEffect.EDIFICE)
            return f"rolls {names.die(a)} onto slot {b}: natural {c}, {choice} ({card})"
        return f"{_ROLL_KIND.get(e, 'roll')}: {names.die(a)} on slot {b}: natural {c}, shows {d}"
    if ev == EV_TAKE_RUIN:
        return f"takes {names.card(a)} from the set-aside ruins ({names.wonders[b]})"
    if ev == EV_STONE:
        source = "the ruin" if c == 0 else "the bag"
        return f"takes a {names.colour(a)} stone from {source}, placed at {_cell(b)}"
    if ev == EV_WONDER:
        if b == WonderKind.NAMED:
            return f"completes a ring at {_cell(a)}: builds {names.wonders[c]}"
        if b == WonderKind.GREATER:
            return f"completes a ring at {_cell(a)}: greater wonder token worth {c}"
        if b == WonderKind.LESSER:
            return f"completes a ring at {_cell(a)}: lesser wonder token worth {c}"
        if b == NO_WONDER:
            return f"completes a ring at {_cell(a)}: no wonder left"
        return f"completes a ring at {_cell(a)}: wonder kind {b}"
    if ev == EV_CLAIM:
        if c >= 0:
            return f"slot {a}: {names.card(b)} claimed by seat {c} (total {d})"
        return f"slot {a}: {names.card(b)} tied, leaves the game (total {d})"
    if ev == EV_END:
        return f"game over: score {a}, win share {b / 1000:g}"
    return f"event {ev}: {a} {b} {c} {d} {e}"


def render_trace(rules: Rules, trace: np.ndarray, n_events: int) -> list[str]:
    """The first ``n_events`` rows of ``trace`` (int32[rows, 8]) as text lines.

    Each line is ``t<turn> <who>: <event>`` where ``who`` is the seat, or ``*``
    for table events (reveals, claims, end of age).
    """
    names = _Names(rules)
    lines = []
    for i in range(n_events):
        row = trace[i]
        seat = int(row[2])
        who = f"seat {seat}" if seat >= 0 else "*"
        lines.append(f"t{int(row[1])} {who}: {event_text(names, row)}")
    return lines


def replay_game(job, game: int, *, trace_rows: int = DEFAULT_TRACE_ROWS) -> str:
    """Play game ``game`` of ``job`` (a :class:`~analyzer.unearth.game.GameJob`) and
    return its replay as text: a header, one line per event, the final scores.

    Deterministic in ``(job, game)``. Raises :class:`AnalyzerError` if the trace
    had no room for every event.
    """
    from analyzer.unearth import engine
    from analyzer.unearth.game import play_raw

    results, wins, _claims, s = play_raw(job, game, 1, trace_rows=trace_rows)
    n_events = int(s.sc[S_TRACE_N])
    if n_events >= trace_rows:
        raise AnalyzerError(
            f"replay: trace_rows: bad value {trace_rows} (allowed: more than the "
            f"{n_events} events of game {game})"
        )
    rules = job.rules
    names = _Names(rules)
    n = job.players
    in_play = [names.wonders[w] for w in range(s.named_state.shape[0]) if s.named_state[w] != -2]
    lines = [
        f"# Unearth replay: {RULES_VERSION}, edition {rules.rulings.edition}, seed {job.seed}, "
        f"game {game}",
        f"# players {n}: " + ", ".join(f"seat {p} {job.strategies[p]}" for p in range(n)),
        f"# end-of-age card: {names.card(int(s.sc[S_EOA]))}",
        "# hidden ruins: "
        + ", ".join(f"seat {p} {names.card(int(s.hidden[p]))}" for p in range(n)),
        "# named wonders in play: " + ", ".join(in_play),
    ]
    lines += render_trace(rules, s.trace, n_events)
    for p in range(n):
        row = results[p]
        parts = ", ".join(f"{PART_NAMES[i]} {int(row[engine.R_PARTS + i])}" for i in range(N_PARTS))
        lines.append(
            f"# seat {p}: score {int(row[engine.R_SCORE])} ({parts}), win {float(wins[p]):.4g}"
        )
    return "\n".join(lines) + "\n"
