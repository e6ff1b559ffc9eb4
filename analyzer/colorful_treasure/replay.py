"""A game's replay log as readable text, one line per event.

The engine writes a trace when asked (``trace_rows`` > 0 in
:func:`analyzer.colorful_treasure.game.play_raw`): int64 rows ``(event, turn,
seat, a, b, c, d, e)`` with the ``EV_*`` codes of
:mod:`analyzer.colorful_treasure.state`. This module turns them into text with
the names of the :class:`Rules` object, so a game can be read, diffed (golden
replays in ``tests/golden``) and discussed. Positions are printed as
``<wonder> row <r>`` (row 0 at the top of the column).
"""

from __future__ import annotations

import numpy as np

from analyzer.colorful_treasure.codes import SCALE, Kind, Reward
from analyzer.colorful_treasure.rules import RULES_VERSION, Rules
from analyzer.colorful_treasure.state import (
    EV_BACK,
    EV_END,
    EV_KIND,
    EV_NO_VICTIM,
    EV_NOTHING,
    EV_PAIR,
    EV_PEEK,
    EV_PLASTIC,
    EV_REVEAL,
    EV_REWARD,
    EV_STEAL,
    EV_STOP,
    EV_TAKE,
    EV_TILE_DECLINE,
    EV_TILE_PASS,
    EV_TILE_TAKE,
    EV_TILE_USE,
    EV_TREASURE,
    EV_TRUCE,
    EV_WILD,
    S_TRACE_N,
)
from analyzer.core.errors import AnalyzerError
from analyzer.games.trace import check_room, players_line, seat_line

#: trace rows used by :func:`replay_game` (a 4-player game writes a few hundred)
DEFAULT_TRACE_ROWS = 5000


def position_text(rules: Rules, p: int) -> str:
    rows = rules.tables.rows
    return f"{rules.wonder_names[p // rows]} row {p % rows}"


def tile_text(rules: Rules, i: int) -> str:
    """``"t2 (fourth card)"``: a tile in play and the effect of its side."""
    sides = rules.tile_sides()
    if not 0 <= i < len(sides):
        return f"tile {i}"
    tid, side = sides[i]
    effect = rules.data["tiles"]["side"][side]["effect"]
    return f"{tid} ({effect.replace('_', ' ')})"


def kind_name(rules: Rules, key: int) -> str:
    """A ``card_key`` as a word: a gem colour, ``diamond``, ``key`` or ``chest``."""
    nc = rules.tables.n_colours
    if 0 <= key < nc:
        return rules.colours[key]
    return ("diamond", "key", "chest")[key - nc] if nc <= key < nc + 3 else f"kind {key}"


def bits(mask: int) -> list[int]:
    """The bits set in ``mask``, lowest first."""
    return [i for i in range(64) if (int(mask) >> i) & 1]


def event_text(rules: Rules, row) -> str:
    """One trace row as text (without the turn/seat prefix)."""
    ev, _turn, _seat, a, b, c, d, _e = (int(x) for x in row)
    if ev == EV_REVEAL:
        return f"reveals {position_text(rules, a)}: {rules.card_name(b)} (card {c} of the turn)"
    if ev == EV_TAKE:
        return f"takes {rules.card_name(a)}"
    if ev == EV_PLASTIC:
        return f"takes the plastic diamond above {rules.wonder_names[a]}"
    if ev == EV_BACK:
        return f"turns {rules.card_name(b)} face down again at {position_text(rules, a)}"
    if ev == EV_PAIR:
        if a >= 0 or b >= 0:  # steal_pairs = cards
            spent = " and ".join(rules.card_name(x) for x in (a, b) if x >= 0)
            return f"spends {spent} in a pair (ruling steal_pairs = cards)"
        return "discards a key marker and a chest marker"
    if ev == EV_STEAL:
        item = "a plastic diamond" if b < 0 else rules.card_name(b)
        return f"steals {item} from seat {a}"
    if ev == EV_NO_VICTIM:
        return "has nobody to steal from"
    if ev == EV_NOTHING:
        return "takes nothing"
    if ev == EV_KIND:
        how = {2: "a second kind ", 3: "instead of the keys and chests "}.get(c, "")
        of = ", ".join(kind_name(rules, k) for k in bits(b))
        return f"chooses {how}{kind_name(rules, a)} (of {of})"
    if ev == EV_STOP:
        return f"reveals no more cards ({c} face up)"
    if ev == EV_TILE_PASS:
        return f"does not use the action tile {tile_text(rules, a)}"
    if ev == EV_TILE_DECLINE:
        left = ", ".join(tile_text(rules, i) for i in bits(d))
        return f"takes no action tile for {rules.colours[c]} (left: {left})"
    if ev == EV_WILD:
        marker = "key" if a == Kind.KEY else "chest"
        spent = f", spends {rules.card_name(b)}" if b >= 0 else ""
        return f"pairs its {marker} marker with the wild marker{spent}"
    if ev == EV_TREASURE:
        return f"holds {a} key and chest cards that count: treasure reward {b / SCALE:g}"
    if ev == EV_REWARD:
        return f"takes the {Reward(a).name.lower()} reward ({b} points)"
    if ev == EV_TILE_TAKE:
        return f"takes the action tile {tile_text(rules, a)}"
    if ev == EV_TILE_USE:
        return f"uses the action tile {tile_text(rules, a)}"
    if ev == EV_PEEK:
        return f"looks at {position_text(rules, a)}: {rules.card_name(b)} (seen by this seat only)"
    if ev == EV_TRUCE:
        return "steals nothing: it holds the truce"
    if ev == EV_END:
        return f"game over: score {a / SCALE:g}, win share {b / 1000:g}"
    return f"event {ev}: {a} {b} {c}"


#: rows that record only a choice whose outcome other rows show (the kind taken, the
#: reveals stopped, a tile not used or not taken): tests of the rules' effects may
#: leave them out (``render_trace(..., skip=CHOICE_ROWS)``)
CHOICE_ROWS = (EV_KIND, EV_STOP, EV_TILE_PASS, EV_TILE_DECLINE)


def render_trace(rules: Rules, trace: np.ndarray, n_events: int, skip=()) -> list[str]:
    """The first ``n_events`` rows of ``trace`` as ``t<turn> seat <s>: <event>`` lines,
    less the rows whose event code is in ``skip``."""
    return [
        f"t{int(trace[i, 1])} seat {int(trace[i, 2])}: {event_text(rules, trace[i])}"
        for i in range(n_events)
        if int(trace[i, 0]) not in skip
    ]


def layout_lines(rules: Rules, grid: np.ndarray) -> list[str]:
    """The dealt grid, one line per column (row 0 first)."""
    rows = rules.tables.rows
    out = []
    for w, name in enumerate(rules.wonder_names):
        cards = [rules.card_name(int(grid[w * rows + r])).split(" ")[-1] for r in range(rows)]
        out.append(f"# {name}: " + ", ".join(cards))
    return out


def _other_rulings(rules: Rules) -> str:
    """The rulings other than variant and scoring that differ from their defaults
    (so the header of a default game reads as before)."""
    from analyzer.colorful_treasure.rules import Rulings

    base = Rulings().as_dict()
    now = rules.rulings.as_dict()
    diff = [f"{k} {v}" for k, v in now.items() if k not in ("variant", "scoring") and v != base[k]]
    return "".join(", " + d for d in diff)


def replay_game(job, game: int, *, trace_rows: int = DEFAULT_TRACE_ROWS) -> str:
    """Play game ``game`` of ``job`` (a :class:`~analyzer.colorful_treasure.game.GameJob`)
    and return its replay: a header with the dealt grid, one line per event, the
    final scores. Deterministic in ``(job, game)``."""
    from analyzer.colorful_treasure import engine
    from analyzer.colorful_treasure.game import PART_NAMES, deal_layouts, play_raw

    results, wins, _steals, s = play_raw(job, game, 1, trace_rows=trace_rows)
    n_events = check_room(int(s.sc[S_TRACE_N]), trace_rows, game)
    rules = job.rules
    n = job.players
    lines = [
        f"# Colorful Treasure replay: {RULES_VERSION}, variant {rules.rulings.variant}, "
        f"scoring {rules.rulings.scoring}, seed {job.seed}, game {game}" + _other_rulings(rules),
        players_line(job),
        "# grid as dealt (each column from row 0):",
    ]
    lines += layout_lines(rules, deal_layouts(rules, job.seed, game, 1)[0])
    lines += render_trace(rules, s.trace, n_events)
    for p in range(n):
        row = results[p]
        parts = ", ".join(
            f"{name} {int(row[engine.R_PARTS + i]) / SCALE:g}" for i, name in enumerate(PART_NAMES)
        )
        if rules.tables.n_tiles:
            parts += f", tiles {int(row[engine.R_PTS_TILES]) / SCALE:g}"
        lines.append(seat_line(p, f"{int(row[engine.R_SCORE]) / SCALE:g}", parts, wins[p]))
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ the checkable trace


def _place(rules: Rules, p: int) -> str:
    """A place as ``"<wonder id>/<row>"`` (row 0 at the top of the column)."""
    rows = rules.tables.rows
    return f"{rules.wonder_ids[p // rows]}/{p % rows}"


def _card(rules: Rules, c: int) -> str:
    """A card as ``"<wonder id>/<what>"``: a gem colour, ``diamond``, ``key``, ``chest``."""
    t = rules.tables
    return f"{rules.wonder_ids[int(t.card_wonder[c])]}/{kind_name(rules, int(t.card_key[c]))}"


def _tile(rules: Rules, i: int) -> str:
    return rules.tile_sides()[i][0]


def setup_dict(rules: Rules, players: int) -> dict:
    """What the rules fix before play (``setup`` of the checkable trace)."""
    t = rules.tables
    data = rules.data
    young = rules.young
    out = {
        "first_player": 0,
        "colours": rules.colours,
        "wonders": [
            {
                "id": w["id"],
                "name": w["name"],
                "colours": list(w["colours"]),
                "treasure": None if young else w["treasure"],
            }
            for w in data["wonders"]["wonder"]
        ],
        "rows": t.rows,
        "cards": [_card(rules, c) for c in range(t.n_cards)],
        "layout": (
            "hidden: each column's cards are shuffled face down (every order equally "
            "likely, columns independent); a place's card is a chance event when it is "
            "first revealed or peeked, and a checker needs no more"
        ),
        "first_reveals": t.first_reveals,
        "extra_reveals": t.extra_reveals,
        "end_cards": t.end_cards,
        "scoring": {
            "gems": [int(x) for x in t.gem_points],
            "diamond_card": t.diamond_card,
            "plastic_diamond": t.plastic_diamond,
        },
        "rewards": None
        if young
        else {
            "gem": {"colours": int(t.gem_goal[players]), "points": int(t.gem_reward[players])},
            "explorer": {"wonders": t.explorer_goal, "points": t.explorer_points},
            "treasure": {"points": t.treasure_points, "min_cards": t.treasure_min},
        },
        "tiles": [
            {
                "tile": tid,
                "side": side,
                "effect": data["tiles"]["side"][side]["effect"],
                "use": data["tiles"]["side"][side]["use"],
                "points": int(data["tiles"]["side"][side]["points"]),
                "amount": int(data["tiles"]["side"][side]["amount"]),
            }
            for tid, side in rules.tile_sides()
        ],
    }
    return out


#: the ``as`` of a take_kind event, by the row's ``c``
_KIND_AS = {1: "take", 2: "second_kind", 3: "instead_of_treasure"}


def row_events(rules: Rules, row) -> list[dict]:
    """The checkable trace's events of one trace row (none for EV_END: see ``final``)."""
    ev, turn, seat, a, b, c, d, e = (int(x) for x in row)
    head = {"turn": turn, "seat": seat}

    def choice(type_, **kw):
        return {"kind": "choice", "type": type_, **head, **kw}

    def chance(type_, **kw):
        return {"kind": "chance", "type": type_, **head, **kw}

    def effect(type_, **kw):
        return {"kind": "effect", "type": type_, **head, **kw}

    places = lambda m: [_place(rules, p) for p in bits(m)]  # noqa: E731
    if ev == EV_REVEAL:
        return [
            choice("reveal", place=_place(rules, a), number=c, options=places(d)),
            chance("card", place=_place(rules, a), card=_card(rules, b), seen_by="all"),
        ]
    if ev == EV_PEEK:
        return [
            choice("peek", place=_place(rules, a), options=places(d)),
            chance("card", place=_place(rules, a), card=_card(rules, b), seen_by=seat),
        ]
    if ev == EV_STOP:
        return [choice("stop", face_up=c, options=places(d))]
    if ev in (EV_KIND, EV_NOTHING):
        what = kind_name(rules, a) if ev == EV_KIND else None
        opts = [kind_name(rules, k) for k in bits(b)]
        return [choice("take_kind", what=what, options=opts, **{"as": _KIND_AS.get(c, "take")})]
    if ev == EV_TAKE:
        return [effect("take", card=_card(rules, a))]
    if ev == EV_PLASTIC:
        return [effect("plastic", wonder=rules.wonder_ids[a])]
    if ev == EV_BACK:
        return [effect("turn_back", place=_place(rules, a), card=_card(rules, b))]
    if ev == EV_PAIR:
        return [effect("pair", spent=[_card(rules, x) for x in (a, b) if x >= 0])]
    if ev == EV_WILD:
        marker = "key" if a == Kind.KEY else "chest"
        return [effect("wild_pair", marker=marker, spent=_card(rules, b) if b >= 0 else None)]
    if ev == EV_STEAL:
        item = "plastic" if b < 0 else _card(rules, b)
        opts = {"cards": [_card(rules, x) for x in bits(d)], "plastic": bits(e)}
        return [choice("steal", victim=a, item=item, options=opts)]
    if ev == EV_NO_VICTIM:
        return [effect("no_steal", why="nothing to take")]
    if ev == EV_TRUCE:
        return [effect("no_steal", why="truce")]
    if ev == EV_REWARD:
        return [effect("reward", reward=Reward(a).name.lower(), points=b)]
    if ev in (EV_TILE_TAKE, EV_TILE_DECLINE):
        tile = _tile(rules, a) if ev == EV_TILE_TAKE else None
        opts = [_tile(rules, i) for i in bits(d)]
        return [choice("take_tile", tile=tile, colour=rules.colours[c], options=opts)]
    if ev in (EV_TILE_USE, EV_TILE_PASS):
        effect_name = rules.data["tiles"]["side"][rules.tile_sides()[a][1]]["effect"]
        used = ev == EV_TILE_USE
        tile = _tile(rules, a)
        return [choice("use_tile", tile=tile, effect=effect_name, used=used, options=[True, False])]
    if ev == EV_TREASURE:
        return [effect("treasure", cards=a, points=b / SCALE, points_60ths=b)]
    if ev == EV_END:
        return []
    raise AnalyzerError(f"replay: unknown trace event {ev}")


def replay_events(job, game: int, *, trace_rows: int = DEFAULT_TRACE_ROWS) -> dict:
    """Game ``game`` of ``job`` as the checkable trace (``analyzer replay --json``,
    docs/CONTRACTS.md "The checkable trace"; what it holds: docs/games/colorful_treasure.md,
    "The checkable trace"): ``setup``, ``events`` in play order, ``final``."""
    from analyzer.colorful_treasure import engine
    from analyzer.colorful_treasure.game import PART_NAMES, play_raw

    results, wins, _steals, s = play_raw(job, game, 1, trace_rows=trace_rows)
    n_events = check_room(int(s.sc[S_TRACE_N]), trace_rows, game)
    rules = job.rules
    events: list[dict] = []
    for i in range(n_events):
        events += row_events(rules, s.trace[i])
    seats = []
    for p in range(job.players):
        row = results[p]
        parts = {name: int(row[engine.R_PARTS + i]) / SCALE for i, name in enumerate(PART_NAMES)}
        parts["tiles"] = int(row[engine.R_PTS_TILES]) / SCALE
        seats.append(
            {
                "seat": p,
                "score": int(row[engine.R_SCORE]) / SCALE,
                "score_60ths": int(row[engine.R_SCORE]),
                "parts": parts,
                "win": float(wins[p]),
            }
        )
    best = max(x["score_60ths"] for x in seats)
    final = {
        "turns": int(results[0, engine.R_GAME_TURNS]),
        "cards_left": int(results[0, engine.R_LEFT]),
        "seats": seats,
        "winners": [x["seat"] for x in seats if x["score_60ths"] == best and x["win"] > 0],
    }
    return {"setup": setup_dict(rules, job.players), "events": events, "final": final}


def score_track(job, trace: dict) -> dict | None:
    """Each seat's score if the game ended after each turn, from the checkable
    trace (the drama study's view, :mod:`analyzer.studies.drama`): gem cards by
    colour, diamond cards, plastic diamonds, the "first to" rewards already
    given, and the treasure majority as it stands (ties share it; a seat restricted
    play bars from it competes for nothing).

    Returns ``{"turns": [t, ...], "scores": [[seat 0, seat 1, ...], ...]}`` (a
    tied top score has no single leader: the game shares the win, or by a ruling
    gives none), or None where the trace does not give the running score: with
    action tiles, with ``stolen_cards = ignore``, or when the last turn's scores
    differ from the game's final ones."""
    from analyzer.colorful_treasure.game import treasure_barred

    if str(job.rules.describe()["rulings"].get("stolen_cards", "count")) != "count":
        return None
    setup = trace["setup"]
    if setup.get("tiles"):
        return None
    seats = trace["final"]["seats"]
    n = len(seats)
    colours = list(setup["colours"])
    table = setup["scoring"]
    treasure = setup["rewards"]["treasure"]
    cards: list[dict[str, int]] = [{} for _ in range(n)]
    bar = treasure_barred(job.forbid)
    barred = {q for q in range(n) if (bar >> q) & 1}
    plastic = [0] * n
    rewards = [0.0] * n

    def kind(card: str) -> str:
        return card.rpartition("/")[2]

    def score_now() -> list[float]:
        pts = []
        for p in range(n):
            c = cards[p]
            gems = sum(table["gems"][min(c.get(x, 0), len(table["gems"]) - 1)] for x in colours)
            pts.append(
                gems
                + table["diamond_card"] * c.get("diamond", 0)
                + table["plastic_diamond"] * plastic[p]
                + rewards[p]
            )
        held = [cards[p].get("key", 0) + cards[p].get("chest", 0) for p in range(n)]
        most = max((held[p] for p in range(n) if p not in barred), default=-1)
        if most >= treasure.get("min_cards", 1):
            top = [p for p in range(n) if held[p] == most and p not in barred]
            for p in top:
                pts[p] += treasure["points"] / len(top)
        return pts

    turns: list[int] = []
    scores: list[list[float]] = []
    current = None
    for ev in trace["events"]:
        t = ev.get("turn")
        if current is not None and t != current:
            turns.append(current)
            scores.append(score_now())
        current = t
        typ, seat = ev["type"], ev.get("seat")
        if typ == "take":
            k = kind(ev["card"])
            cards[seat][k] = cards[seat].get(k, 0) + 1
        elif typ == "plastic":
            plastic[seat] += 1
        elif typ == "steal":
            victim, item = ev["victim"], ev["item"]
            if item == "plastic":
                plastic[victim] -= 1
                plastic[seat] += 1
            else:
                k = kind(item)
                cards[victim][k] -= 1
                cards[seat][k] = cards[seat].get(k, 0) + 1
        elif typ == "reward":
            rewards[seat] += float(ev["points"])
    if current is not None:
        turns.append(current)
        scores.append(score_now())
    final = [float(x["score"]) for x in seats]
    if not scores or any(abs(a - b) > 1e-6 for a, b in zip(scores[-1], final, strict=True)):
        return None
    return {"turns": turns, "scores": scores}
