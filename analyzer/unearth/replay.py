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

from analyzer.games.trace import check_room, players_line, seat_line
from analyzer.unearth.codes import Delver, WonderEffect, WonderKind
from analyzer.unearth.rules import RULES_VERSION, Rules
from analyzer.unearth.scoring import N_PARTS, PART_NAMES
from analyzer.unearth.state import (
    EV_BAG_STONE,
    EV_CLAIM,
    EV_DECLARE,
    EV_DIE,
    EV_DIE_SET,
    EV_DRAW,
    EV_END,
    EV_EOA_CARD,
    EV_EVENT,
    EV_EXPEDITION,
    EV_HIDDEN,
    EV_IN_PLAY,
    EV_NAMED_OPTIONS,
    EV_PILE,
    EV_PLAY,
    EV_REVEAL,
    EV_ROLL,
    EV_RUIN_STONE,
    EV_SET_ASIDE,
    EV_SETUP_RUIN,
    EV_SHUFFLE,
    EV_STONE,
    EV_TAKE_BACK,
    EV_TAKE_RUIN,
    EV_VALUE,
    EV_WONDER,
    ROLL_EDIFICE,
    ROLL_MAP,
    S_EOA,
    S_TRACE_N,
)
from analyzer.unearth.tableau import GRID, MIDDLE, NO_WONDER

#: trace rows used by :func:`replay_game` (a 4-player game writes well under 2000)
DEFAULT_TRACE_ROWS = 20000
#: rows only the checkable trace shows (the text keeps its lines): a die a card
#: changed (the play's line says which) and a new draw pile's order
_NOT_TEXT = (EV_DIE_SET, EV_PILE)

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


def bits(mask: int) -> list[int]:
    """The indices of the bits set in ``mask``, in increasing order."""
    return [i for i in range(int(mask).bit_length()) if (mask >> i) & 1]


def event_text(names: _Names, row) -> str:
    """One trace row as text (without the turn/seat prefix)."""
    ev, _turn, seat, a, b, c, d, e = (int(x) for x in row)
    t = names.t
    if ev == EV_HIDDEN:
        return f"is dealt {names.card(a)} face down"
    if ev == EV_SET_ASIDE:
        return f"sets aside {names.card(a)} unseen"
    if ev == EV_EOA_CARD:
        return f"end-of-age card under the ruins deck: {names.card(a)}"
    if ev == EV_IN_PLAY:
        return f"named wonder in play: {names.wonders[a]}"
    if ev == EV_RUIN_STONE:
        return f"draws a {names.colour(b)} stone from the bag onto slot {a}"
    if ev == EV_BAG_STONE:
        return f"draws a {names.colour(a)} stone from the bag"
    if ev == EV_SHUFFLE:
        return f"shuffles the delver discards into a new draw pile of {a}"
    if ev == EV_DIE:
        why = ""
        if d == ROLL_MAP:
            why = f" ({names.delver_with(Delver.ANCIENT_MAP)} reroll)"
        elif d == ROLL_EDIFICE:
            why = f" ({names.wonder_with(WonderEffect.EDIFICE)} reroll)"
        return f"{names.die(a)} rolled a {c}{why}"
    if ev == EV_DECLARE:
        return f"declares {names.die(a)} onto slot {b}"
    if ev == EV_EXPEDITION:
        return f"{names.delver_with(Delver.EXPEDITION)}: puts {names.die(a)} on slot {b}"
    if ev == EV_VALUE:
        opts = ", ".join(str(v) for v in bits(d))
        whose = "" if e == seat else f" of seat {e}"
        return f"picks {c} for {names.die(a)}{whose} on slot {b} (of {opts})"
    if ev == EV_NAMED_OPTIONS:
        opts = ", ".join(names.wonders[w] for w in bits(b))
        return f"may build at {_cell(a)}: {opts}"
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
        if int(row[0]) in _NOT_TEXT:
            continue
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
    n_events = check_room(int(s.sc[S_TRACE_N]), trace_rows, game)
    rules = job.rules
    names = _Names(rules)
    n = job.players
    in_play = [names.wonders[w] for w in range(s.named_state.shape[0]) if s.named_state[w] != -2]
    lines = [
        f"# Unearth replay: {RULES_VERSION}, edition {rules.rulings.edition}, seed {job.seed}, "
        f"game {game}",
        players_line(job),
        f"# end-of-age card: {names.card(int(s.sc[S_EOA]))}",
        "# hidden ruins: "
        + ", ".join(f"seat {p} {names.card(int(s.hidden[p]))}" for p in range(n)),
        "# named wonders in play: " + ", ".join(in_play),
    ]
    lines += render_trace(rules, s.trace, n_events)
    for p in range(n):
        row = results[p]
        parts = ", ".join(f"{PART_NAMES[i]} {int(row[engine.R_PARTS + i])}" for i in range(N_PARTS))
        lines.append(seat_line(p, int(row[engine.R_SCORE]), parts, wins[p]))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- checkable trace

_WHY = {0: "roll", ROLL_MAP: "ancient_map", ROLL_EDIFICE: "edifice"}
#: end-of-trace rows of the set-up: every row up to the last named wonder drawn into play
_SETUP_TYPES = {
    EV_DRAW: "deal",
    EV_HIDDEN: "hidden_ruin",
    EV_SET_ASIDE: "set_aside",
    EV_EOA_CARD: "end_of_age_card",
    EV_REVEAL: "reveal",
    EV_RUIN_STONE: "ruin_stone",
    EV_IN_PLAY: "named_in_play",
}


def _free_cells(stones: set[int], centres: set[int]) -> list[int]:
    """The cells where a seat's next stone may go: the middle cell for the first
    stone, else every cell holding no stone and no wonder centre that touches a
    stone ("Stones, rings and wonders")."""
    from analyzer.unearth.hexgrid import NEIGHBOURS

    if not stones:
        return [MIDDLE]
    out = set()
    for cell in stones:
        for nb in NEIGHBOURS[cell]:
            nb = int(nb)
            if nb >= 0 and nb not in stones and nb not in centres:
                out.add(nb)
    return sorted(out)


def trace_events(rules: Rules, rows: np.ndarray) -> list[dict]:
    """The trace rows (int[n, 8]) as the checkable trace's events (docs/CONTRACTS.md,
    "The checkable trace"): each a dict with ``kind`` (chance, choice or effect),
    ``type``, ``turn``, ``seat`` and named fields; cards, delver cards, named
    wonders and colours by their data ids, cells as ``[q, r]``."""
    data = rules.data
    t = rules.tables
    card_ids = rules.card_ids
    delvers = rules.delver_ids
    wonders = rules.wonder_ids
    colours = rules.stone_colours
    faces = [int(f) for f in t.dice_faces]
    n_setup = 0
    for i, row in enumerate(rows):
        if int(row[0]) == EV_IN_PLAY:
            n_setup = i + 1
    stones: dict[int, set[int]] = {}
    centres: dict[int, set[int]] = {}
    set_aside: list[str] = []
    named_offer: dict | None = None
    memorial = data["named_wonders"]["wonder"]
    effect_of = {w["id"]: w["effect"] for w in memorial}
    out: list[dict] = []

    def cell(c: int) -> list[int]:
        return list(cell_coords(int(c)))

    for i, row in enumerate(rows):
        ev, turn, seat, a, b, c, d, e = (int(x) for x in row)
        base = {"turn": turn, "seat": seat if seat >= 0 else None}
        if i < n_setup:
            typ = _SETUP_TYPES.get(ev, f"event_{ev}")
            kind = "chance"
            if ev == EV_DRAW:
                f = {"card": delvers[a]}
            elif ev == EV_HIDDEN:
                f = {"card": card_ids[a]}
            elif ev == EV_SET_ASIDE:
                f = {"card": card_ids[a]}
                set_aside.append(card_ids[a])
            elif ev == EV_EOA_CARD:
                f = {"card": card_ids[a]}
            elif ev == EV_REVEAL:
                f = {"slot": a, "card": card_ids[b]}
            elif ev == EV_RUIN_STONE:
                f = {"slot": a, "colour": colours[b]}
            elif ev == EV_IN_PLAY:
                f = {"wonder": wonders[a]}
            else:
                f = {"row": [a, b, c, d, e]}
            out.append({"kind": kind, "type": typ, **base, **f})
            continue
        if ev == EV_DRAW:
            ev_out = {"kind": "chance", "type": "draw", "card": delvers[a]}
        elif ev == EV_SHUFFLE:
            ev_out = {"kind": "chance", "type": "shuffle", "cards": a, "order": []}
        elif ev == EV_PILE:  # the order of the shuffle just above, top first
            out[-1]["order"] += [delvers[k] for k in (a, b, c, d, e) if k >= 0]
            continue
        elif ev == EV_DIE_SET:
            ev_out = {
                "kind": "effect",
                "type": "die_changed",
                "die": a,
                "slot": b,
                "was": c,
                "value": d,
            }
        elif ev == EV_REVEAL:
            ev_out = {"kind": "chance", "type": "reveal", "slot": a, "card": card_ids[b]}
        elif ev == EV_RUIN_STONE:
            ev_out = {"kind": "chance", "type": "ruin_stone", "slot": a, "colour": colours[b]}
        elif ev == EV_EVENT:
            ev_out = {"kind": "effect", "type": "end_of_age_event", "card": card_ids[a]}
        elif ev == EV_PLAY:
            eff = data["delvers"]["delver"][a]["effect"]
            ev_out = {"kind": "choice", "type": "play", "card": delvers[a]}
            if eff == "forgotten_song":
                ev_out["number"] = b
            elif eff in ("forlorn", "lost_in_the_ruins", "a_new_discovery"):
                ev_out["target"] = {"seat": b, "die": c}
            ev_out["options"] = [delvers[k] for k in bits(d)]
        elif ev == EV_DECLARE:
            ev_out = {
                "kind": "choice",
                "type": "declare",
                "die": a,
                "slot": b,
                "die_options": bits(c),
                "slot_options": bits(d),
            }
        elif ev == EV_TAKE_BACK:
            ev_out = {"kind": "effect", "type": "take_back", "die": a, "slot": b}
        elif ev == EV_DIE:
            ev_out = {
                "kind": "chance",
                "type": "roll",
                "die": a,
                "faces": faces[a],
                "slot": b,
                "face": c,
                "why": _WHY.get(d, str(d)),
            }
        elif ev == EV_ROLL and e in (2, 3):
            ev_out = {
                "kind": "choice",
                "type": "reroll",
                "by": "ancient_map" if e == 2 else "edifice",
                "die": a,
                "slot": b,
                "natural": c,
                "reroll": bool(d),
                "options": [True, False],
            }
        elif ev == EV_EXPEDITION:
            ev_out = {
                "kind": "choice",
                "type": "expedition",
                "die": a,
                "slot": b,
                "options": bits(c),
            }
        elif ev == EV_VALUE:
            ev_out = {
                "kind": "choice",
                "type": "value",
                "owner": e,
                "die": a,
                "slot": b,
                "value": c,
                "options": bits(d),
            }
        elif ev == EV_ROLL:
            ev_out = {
                "kind": "effect",
                "type": "die_placed",
                "die": a,
                "slot": b,
                "natural": c,
                "value": d,
                "excavation": e == 0,
            }
        elif ev == EV_BAG_STONE:
            ev_out = {"kind": "chance", "type": "bag_stone", "colour": colours[a]}
        elif ev == EV_STONE:
            mine = stones.setdefault(seat, set())
            opts = _free_cells(mine, centres.setdefault(seat, set()))
            mine.add(b)
            ev_out = {
                "kind": "choice",
                "type": "stone",
                "colour": colours[a],
                "source": "ruin" if c == 0 else "bag",
                "colour_options": [colours[k] for k in bits(d)],
                "cell": cell(b),
                "cell_options": [cell(x) for x in opts],
            }
        elif ev == EV_NAMED_OPTIONS:
            named_offer = {"cell": cell(a), "options": [wonders[w] for w in bits(b)]}
            continue
        elif ev == EV_WONDER:
            centres.setdefault(seat, set()).add(a)
            if named_offer is not None:
                chosen = wonders[c] if b == WonderKind.NAMED else None
                out.append(
                    {
                        "kind": "choice",
                        "type": "named_wonder",
                        **base,
                        "cell": named_offer["cell"],
                        "wonder": chosen,
                        "options": named_offer["options"] + [None],
                    }
                )
                named_offer = None
            if b == WonderKind.NAMED:
                ev_out = {
                    "kind": "effect",
                    "type": "build_named",
                    "cell": cell(a),
                    "wonder": wonders[c],
                }
            elif b in (WonderKind.GREATER, WonderKind.LESSER):
                pile = "greater" if b == WonderKind.GREATER else "lesser"
                ev_out = {
                    "kind": "chance",
                    "type": "token",
                    "cell": cell(a),
                    "pile": pile,
                    "value": c,
                }
            else:
                ev_out = {"kind": "effect", "type": "no_wonder", "cell": cell(a)}
        elif ev == EV_TAKE_RUIN:
            card = card_ids[a]
            how = effect_of[wonders[b]]
            ev_out = {
                "kind": "choice" if how == "memorial" else "chance",
                "type": "take_set_aside",
                "card": card,
                "wonder": wonders[b],
                "options": list(set_aside),
            }
            set_aside.remove(card)
        elif ev == EV_CLAIM:
            ev_out = {
                "kind": "effect",
                "type": "claim",
                "slot": a,
                "card": card_ids[b],
                "winner": c if c >= 0 else None,
                "total": d,
            }
        elif ev == EV_END:
            continue  # in "final"
        else:
            ev_out = {"kind": "effect", "type": f"event_{ev}", "row": [a, b, c, d, e]}
        kind = ev_out.pop("kind")
        typ = ev_out.pop("type")
        out.append({"kind": kind, "type": typ, **base, **ev_out})
    return out


def replay_events(job, game: int, *, trace_rows: int = DEFAULT_TRACE_ROWS) -> dict:
    """Game ``game`` of ``job`` as the checkable trace (``analyzer replay --json``):
    ``{"setup", "events", "final"}`` (docs/CONTRACTS.md, "The checkable trace";
    what the events hold: docs/games/unearth.md, "The trace").

    The set-up's chance outcomes (the deal, hidden ruins, ruins set aside, the
    end-of-age card, the first ruins and their stones, the named wonders in play)
    are the first events; ``setup`` holds what the rules fix before play.
    """
    from analyzer.unearth import engine
    from analyzer.unearth.game import play_raw

    results, wins, _claims, s = play_raw(job, game, 1, trace_rows=trace_rows)
    n_events = check_room(int(s.sc[S_TRACE_N]), trace_rows, game)
    rules = job.rules
    t = rules.tables
    n = job.players
    setup = {
        "players": n,
        "first_player": 0,
        "slots": int(t.revealed_by_players[n]),
        "dice": [int(f) for f in t.dice_faces],
        "stone_colours": rules.stone_colours,
        "grid": {"size": GRID, "middle": list(cell_coords(MIDDLE))},
    }
    final = {
        "scores": [int(results[p][engine.R_SCORE]) for p in range(n)],
        "parts": [
            {PART_NAMES[i]: int(results[p][engine.R_PARTS + i]) for i in range(N_PARTS)}
            for p in range(n)
        ],
        "win": [float(wins[p]) for p in range(n)],
        "winners": [p for p in range(n) if float(wins[p]) > 0],
        "turns": int(s.sc[engine.S_TURN]),
        "aborted": bool(s.sc[engine.S_ABORTED]),
    }
    return {"setup": setup, "events": trace_events(rules, s.trace[:n_events]), "final": final}


def score_track(job, trace: dict) -> dict | None:
    """Each seat's score if the game ended after each turn, from the checkable trace
    (the drama study's view, :mod:`analyzer.studies.drama`): the ruins and cities it
    holds (its hidden ruin included), its stones by colour, its wonder tokens and
    named wonders, scored as at the end (docs/games/unearth.md, "Scoring"); with
    the game's tie-break as ``keys`` (ruins held by claim value, highest first).

    Returns ``{"turns", "scores", "keys"}``, or None when the last turn's scores
    differ from the game's final ones (never a guess)."""
    rules = job.rules
    data = rules.data
    rulings = rules.describe()["rulings"]
    final = trace["final"]
    n = len(final["scores"])
    ruin_colour = {r["id"]: r["colour"] for r in data["ruins"]["ruin"]}
    city_points = {c["id"]: c.get("points", 0) for c in data["end_of_age"]["card"]}
    claim = {r["id"]: r["claim"] for r in data["ruins"]["ruin"]}
    for c in data["end_of_age"]["card"]:
        if c["kind"] == "ruin":
            claim[c["id"]] = c["claim"]
    values = sorted(set(claim.values()), reverse=True)
    sc = data["scoring"]
    table = sc["set_points"]
    wonders = {w["id"]: w for w in data["named_wonders"]["wonder"]}
    colours_all = data["components"]["stone_colours"]
    held: list[list[str]] = [[] for _ in range(n)]
    stones: list[dict[str, int]] = [{} for _ in range(n)]
    tokens: list[list[int]] = [[] for _ in range(n)]
    named: list[list[str]] = [[] for _ in range(n)]

    def score(p: int) -> int:
        per_colour = {c: 0 for c in data["ruins"]["colours"]}
        cities = 0
        for cid in held[p]:
            if cid in ruin_colour:
                per_colour[ruin_colour[cid]] += 1
            else:
                cities += city_points.get(cid, 0)
        total = sum(table[min(k, len(table) - 1)] for k in per_colour.values())
        total += min(per_colour.values()) * sc["five_colour_set"]
        total += sum(tokens[p]) + cities
        for wid in named[p]:
            w = wonders[wid]
            total += w["points"]
            eff = w["effect"]
            if eff.startswith("temple_"):
                total += stones[p].get(eff.removeprefix("temple_"), 0)
            elif eff == "tomb":
                pool = stones[p] if rulings.get("tomb") == "stone_colours" else per_colour
                total += sum(1 for v in pool.values() if v > 0)
            elif eff == "fountain":
                total += 2 * min(stones[p].get(c, 0) for c in colours_all)
        count = len(tokens[p]) + len(named[p])
        threshold = sc["wonder_bonus_threshold"]
        if rulings.get("wonder_bonus", "once") == "once":
            total += sc["wonder_bonus_points"] if count >= threshold else 0
        else:
            total += sc["wonder_bonus_points"] * (count // threshold)
        return total

    def key(p: int) -> list[int]:
        return [sum(1 for cid in held[p] if claim.get(cid) == v) for v in values]

    turns: list[int] = []
    scores: list[list[int]] = []
    keys: list[list[list[int]]] = []
    current = None

    def snapshot() -> None:
        turns.append(current)
        scores.append([score(p) for p in range(n)])
        keys.append([key(p) for p in range(n)])

    for ev in trace["events"]:
        t = ev.get("turn")
        if current is not None and t != current:
            snapshot()
        current = t
        typ, seat = ev["type"], ev.get("seat")
        if typ == "claim" and ev.get("winner") is not None and ev["winner"] >= 0:
            held[ev["winner"]].append(ev["card"])
        elif typ in ("hidden_ruin", "take_set_aside"):  # a set-aside ruin a wonder gives
            held[seat].append(ev["card"])
        elif typ == "stone":
            stones[seat][ev["colour"]] = stones[seat].get(ev["colour"], 0) + 1
        elif typ == "token":
            tokens[seat].append(int(ev["value"]))
        elif typ == "build_named":
            named[seat].append(ev["wonder"])
    if current is not None:
        snapshot()
    if not scores or [int(x) for x in scores[-1]] != [int(x) for x in final["scores"]]:
        return None
    return {"turns": turns, "scores": scores, "keys": keys}
