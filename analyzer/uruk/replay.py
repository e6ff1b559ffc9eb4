"""A game's trace as readable text, one line per event (``analyzer replay --game uruk``).

The engine writes event rows ``(event, turn, seat, a, b, c)`` (the ``EV_*``
codes of :mod:`analyzer.uruk.state`) when the state has trace rows. This module
names cards, colours and epoch cards from the :class:`Rules` in use, so a game
can be read, diffed (golden replays in ``tests/golden/uruk_*.txt``) and discussed.
"""

from __future__ import annotations

from analyzer.uruk import state as S
from analyzer.uruk.codes import Action
from analyzer.uruk.rules import RULES_VERSION

#: trace rows for one game (a 4-player game writes about 2,000, its options included)
DEFAULT_TRACE_ROWS = 40000
_EPOCHS = ("I", "II", "III", "IV")
#: rows the text replay leaves out: the options of a choice and a rebuilt deck's order
_NOT_TEXT = (S.EV_OPTION_ACTION, S.EV_OPTIONS, S.EV_DECK_ORDER)


def _lines(rules, rows) -> list[str]:
    cards = rules.card_names
    colours = rules.colours

    def card(c):
        return cards[c] if 0 <= c < len(cards) else "-"

    def colour(c):
        return colours[c] if 0 <= c < len(colours) else "-"

    out = []
    for ev, turn, seat, a, b, c in rows:
        if ev in _NOT_TEXT:  # options and a deck's order: the checkable trace's only
            continue
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
        elif ev == S.EV_DEALT:
            text = f"dealt {card(a)}"
        elif ev == S.EV_SETUP_DISCARD:
            text = f"set-up discards {card(a)} from the deck"
        elif ev == S.EV_ACTION:
            text = "action: " + _action_text(rules, a, b, c, card, colour)
        elif ev == S.EV_MAKE_CARDS:
            saved = f", {card(b)} saves {c}" if b >= 0 else ""
            text = f"shows {a} card(s) of it{saved}"
        elif ev == S.EV_PAIR:
            text = f"pays a {colour(c)} pair: {card(a)} + {card(b)}"
        elif ev == S.EV_DISCARD:
            text = f"discards {card(a)}" + (" (earthquake)" if b == 1 else " (hand limit)")
        elif ev == S.EV_BID_CARDS:
            text = f"bid holds {b} x {card(a)}"
        elif ev == S.EV_TRADE_POOL:
            text = f"trades {b} x {card(a)} for pool resources"
        elif ev == S.EV_SETTLE_COST:
            text = "at half price" if c == 1 else f"{card(a)} saves {b}"
        elif ev == S.EV_SCORE:
            text = f"scores {a}, {b} cities, win share {c / 1000:.3f}"
        else:
            text = f"event {ev} {a} {b} {c}"
        out.append(f"{head} {text}")
    return out


def _action_text(rules, kind, b, c, card, colour) -> str:
    """An ``EV_ACTION`` row's action in words."""
    if kind == Action.TAKE_CARD:
        return "take a card " + ("from the deck" if b >= 3 else f"from display slot {b}")
    if kind == Action.MAKE:
        return f"make {card(b)}" + (f" replacing {card(c)}" if c >= 0 else "")
    if kind == Action.TAKE_RESOURCES:
        return f"take resources with {card(b)}" + (" and its function" if c else "")
    if kind == Action.TRADE:
        return "trade " + ", ".join(card(x) for x in _mask_inventions(b, rules))
    if kind == Action.SETTLE:
        return f"place a stone on {card(b)}"
    return f"card action of {card(b)}" + (f" ({colour(c)})" if c >= 0 else "")


def _mask_inventions(mask: int, rules) -> list[int]:
    return [x for x in range(len(rules.invention_names)) if (mask >> x) & 1]


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


# --------------------------------------------------------------------------- the checkable trace

_ACTIONS = {
    Action.TAKE_CARD: "take_card",
    Action.MAKE: "make",
    Action.TAKE_RESOURCES: "take_resources",
    Action.TRADE: "trade",
    Action.SETTLE: "settle",
    Action.CARD_ACTION: "card_action",
}
_GOD_PLACE = ("beside_display", "trigger", "discarded")


def _event(rules, ev, a, b, c) -> tuple[str, str, dict]:
    """``(kind, type, fields)`` of one trace row (names, not codes)."""
    cards = rules.card_names
    colours = rules.colours

    def card(x):
        return cards[x] if 0 <= x < len(cards) else None

    def colour(x):
        return colours[x] if 0 <= x < len(colours) else None

    if ev == S.EV_FIRST:
        return "chance", "first_invention", {"card": card(a)}
    if ev == S.EV_DEALT:
        return "chance", "dealt", {"card": card(a)}
    if ev == S.EV_DEAL:
        return "effect", "deal_done", {"cards": a}
    if ev == S.EV_DISPLAY:
        return "chance", "display", {"card": card(a), "slot": b}
    if ev == S.EV_SETUP_DISCARD:
        return "chance", "setup_discard", {"card": card(a)}
    if ev == S.EV_TURN:
        return "effect", "turn", {"actions": a}
    if ev == S.EV_ACTION:
        kind = Action(a)
        f = {"action": _ACTIONS[kind]}
        if kind == Action.TAKE_CARD:
            f["slot"] = None if b >= 3 else b
        elif kind == Action.MAKE:
            f.update(invention=card(b), replaces=card(c))
        elif kind == Action.TAKE_RESOURCES:
            f.update(invention=card(b), function=c == 2)  # 1: asked for, none to use
        elif kind == Action.TRADE:
            f["inventions"] = [card(x) for x in _mask_inventions(b, rules)]
        elif kind == Action.SETTLE:
            f["invention"] = card(b)
        else:
            f.update(invention=card(b), colour=colour(c))
        return "choice", "action", f
    if ev == S.EV_TAKE_CARD:
        return (
            ("chance" if b < 0 else "effect"),
            "take_card",
            {
                "card": card(a),
                "slot": None if b < 0 else b,
            },
        )
    if ev == S.EV_GOD_DRAWN:
        return "chance", "god_drawn", {"card": card(a), "placed": _GOD_PLACE[b]}
    if ev == S.EV_RESHUFFLE:
        return "effect", "reshuffle", {"removed": a, "deck": b}
    if ev == S.EV_MAKE:
        if c < 0:  # Enlil's free invention: the winner's choice
            return "choice", "make_free", {"invention": card(a), "replaced": card(b)}
        return "effect", "make", {"invention": card(a), "replaced": card(b), "pairs": c}
    if ev == S.EV_MAKE_CARDS:
        return "effect", "make_cards", {"shown": a, "discount": card(b), "saved": c}
    if ev == S.EV_PAIR:
        return "choice", "pair", {"cards": [card(a), card(b)], "colour": colour(c)}
    if ev == S.EV_STONES_BACK:
        return "effect", "stones_back", {"invention": card(a), "stones": b}
    if ev == S.EV_TAKE_RES:
        # a choice when robbing, or a resource of a take-any card action (c = 2)
        return (
            ("effect" if b < 0 and c != 2 else "choice"),
            "take_resource",
            {
                "colour": colour(a),
                "from_seat": None if b < 0 else b,
                "function": bool(c),
            },
        )
    if ev == S.EV_NO_RES:
        return "effect", "no_resource", {"colour": colour(a)}
    if ev == S.EV_ROB_REPLACE:
        return "choice", "robbed_takes", {"colour": colour(a)}
    if ev == S.EV_TRADE_POOL:
        return "effect", "trade_pool", {"invention": card(a), "cards": b}
    if ev == S.EV_TRADE:
        return "effect", "trade", {"invention": card(a), "cards": b}
    if ev == S.EV_PAY:
        return "choice", "pay", {"colour": colour(a), "amount": b}
    if ev == S.EV_SETTLE_COST:
        return "effect", "settle_cost", {"discount": card(a), "saved": b, "half_price": bool(c)}
    if ev == S.EV_SETTLE:
        return (
            "effect",
            "settle",
            {
                "invention": card(a),
                "epoch": _EPOCHS[b],
                "stones": c,
            },
        )
    if ev == S.EV_REMINDER_USED:
        return "effect", "reminder_used", {"card": card(a)}
    if ev == S.EV_CARD_ACTION:
        return "effect", "card_action", {"invention": card(a), "amount": b}
    if ev == S.EV_DRAW:
        return "chance", "draw", {"card": card(a)}
    if ev == S.EV_ACTIVATE:
        return "effect", "activate", {"card": card(a), "trigger_seat": b}
    if ev == S.EV_STONE_OUT:
        return "effect", "stone_out", {"epoch": _EPOCHS[a]}
    if ev == S.EV_HAND_LIMIT:
        return "effect", "hand_limit", {"cards": a}
    if ev == S.EV_DISCARD:
        return "choice", "discard", {"card": card(a), "why": ("hand_limit", "earthquake")[b]}
    if ev == S.EV_BID:
        return "choice", "bid", {"value": None if a < 0 else a}
    if ev == S.EV_BID_CARDS:
        return "choice", "bid_cards", {"invention": card(a), "cards": b}
    if ev == S.EV_WIN:
        return "effect", "auction_won", {"card": card(a), "value": None if b < 0 else b}
    if ev == S.EV_BONUS:
        f = {"card": card(a), "full": bool(b)}
        if b == 0 and a - len(rules.invention_names) >= 0:
            god = rules.data["gods"]["card"][a - len(rules.invention_names)]
            if god["effect"] == "nannar":
                f["drawn"] = card(c)
            else:
                f["colour"] = colour(c)
        elif c >= 0:
            f["colour"] = colour(c)
        return "effect", "bonus", f
    if ev == S.EV_GAIN:
        return "choice", "gain", {"colour": colour(a), "got": b}
    if ev == S.EV_SECRET_BID:
        return "choice", "secret_bid", {"resources": a, "value": b}
    if ev == S.EV_SUFFER:
        f = {"card": card(a)}
        if b >= 0:
            f["lost"] = card(b)
        else:
            f["amount"] = c
        return ("choice" if b >= 0 else "effect"), "suffer", f
    if ev == S.EV_SPARED:
        return "effect", "spared", {"card": card(a), "paid": b}
    if ev == S.EV_END:
        return "effect", "end_triggered", {}
    if ev == S.EV_REFILL_IV:
        return "effect", "refill_epoch_iv", {"stones": a}
    if ev == S.EV_SCORE:
        return "effect", "score", {"score": a, "cities": b, "win_share_x1000": c}
    raise ValueError(f"uruk trace: unknown event code {ev}")


def trace_events(rules, rows) -> list[dict]:
    """The checkable trace's events of the trace rows ``(event, turn, seat, a, b, c)``:
    each row as :func:`_event` names it, and the rows that belong to another one
    folded into it: the options written before a choice (its ``options``), a
    rebuilt deck's order after a reshuffle (its ``order``); a trade action gains
    ``traded``, the inventions of its ``trade`` rows (the cards actually traded)."""
    events: list[dict] = []
    pending: list[tuple[int, int, int, int]] = []  # option rows for the next choice
    trade = None  # the running trade action
    for ev, turn, seat, a, b, c in rows:
        if ev in (S.EV_OPTION_ACTION, S.EV_OPTIONS):
            pending.append((ev, a, b, c))
            continue
        if ev == S.EV_DECK_ORDER:
            order = events[-1].setdefault("order", [])
            order += [rules.card_names[x] for x in (a, b, c) if x >= 0]
            continue
        kind, typ, fields = _event(rules, ev, a, b, c)
        e = {"kind": kind, "type": typ, "turn": turn, "seat": None if seat < 0 else seat, **fields}
        if kind == "choice":
            e["options"] = _options(rules, e, pending)
            pending = []
        elif pending:
            raise ValueError(f"uruk trace: options before a {typ!r} row, not a choice")
        if typ == "action":
            trade = e if e["action"] == "trade" else None
            if trade is not None:
                trade["traded"] = []
        elif typ == "trade" and trade is not None:
            trade["traded"].append(e["invention"])
        elif typ == "turn":
            trade = None
        events.append(e)
    return events


def _options(rules, e: dict, rows: list) -> list | dict:
    """The ``options`` of choice event ``e`` from the option rows written before it
    (``state.EV_OPTION_ACTION``, ``state.EV_OPTIONS``): each option in the form of
    the choice's own fields."""
    cards = rules.card_names
    colours = rules.colours
    n_inv = len(rules.invention_names)
    typ = e["type"]
    if typ == "action":
        out = []
        for _, kind, b, c in rows:
            _, _, f = _event(rules, S.EV_ACTION, kind, b, c)
            out.append(f)
        return out
    if len(rows) != 1 or rows[0][0] != S.EV_OPTIONS:
        raise ValueError(f"uruk trace: a {typ!r} choice without its options row")
    _, a, b, c = rows[0]

    def bits(mask: int, limit: int) -> list[int]:
        return [i for i in range(limit) if (mask >> i) & 1]

    take_any = typ == "take_resource" and e["from_seat"] is None  # a take-any card action
    if typ in ("pay", "gain", "robbed_takes") or take_any:
        return [colours[i] for i in bits(a, len(colours))]
    if typ == "take_resource":
        return bits(a, 64)
    if typ in ("pair", "discard", "bid_cards", "suffer"):
        return [cards[x] for x in bits(a, n_inv)]
    if typ == "bid":
        return [None, *bits(a, 64)]
    if typ == "secret_bid":
        return list(range(a + 1))
    if typ == "make_free":
        free = [None] if c else []
        return {
            "invention": [cards[x] for x in bits(a, n_inv)],
            "replaced": free + [cards[x] for x in bits(b, n_inv)],
        }
    raise ValueError(f"uruk trace: no options known for a {typ!r} choice")


def replay_events(job, game: int) -> dict:
    """Game ``game`` of ``job`` as the checkable trace (``analyzer replay --game
    uruk --json``; the contract is docs/CONTRACTS.md, "The checkable trace", the
    events docs/games/uruk.md, "The trace"): every chance outcome and every choice
    by name, and the final state the engine reached."""
    from analyzer.uruk.game import check_results, play_raw
    from analyzer.uruk.scoring import PART_NAMES

    results, wins, s = play_raw(job, game, 1, trace_rows=DEFAULT_TRACE_ROWS)
    check_results(results, game)
    rules = job.rules
    t = rules.tables
    n = job.players
    k = int(s.sc[S.S_TRACE_N])
    if k >= s.trace.shape[0]:
        raise RuntimeError(f"uruk trace: game {game} wrote more than {k} rows")
    events = trace_events(rules, s.trace[:k].tolist())
    cards = rules.card_names
    from analyzer.uruk.engine import R_PARTS, R_SCORE

    seats = []
    for p in range(n):
        row = results[p]
        seats.append(
            {
                "seat": p,
                "score": int(row[R_SCORE]),
                "parts": {name: int(row[R_PARTS + j]) for j, name in enumerate(PART_NAMES)},
                "win": float(wins[p]),
                "inventions": {
                    cards[int(x)]: int(st)
                    for x, st in zip(s.inv[p], s.stones[p], strict=True)
                    if x >= 0
                },
                "hand": {cards[x]: int(v) for x, v in enumerate(s.hand[p]) if v},
                "supply": dict(zip(rules.colours, map(int, s.supply[p]), strict=True)),
            }
        )
    best = max(x["win"] for x in seats)
    final = {
        "seats": seats,
        "winners": [x["seat"] for x in seats if x["win"] == best and best > 0],
        "pool": dict(zip(rules.colours, map(int, s.pool), strict=True)),
        "epochs": dict(zip(_EPOCHS, map(int, s.epoch), strict=True)),
        "pool_stones": int(s.sc[S.S_POOL_STONES]),
        "deck": int(s.sc[S.S_DECK_N]),
        "discard": int(s.sc[S.S_DISCARD_N]),
        "capped": bool(s.sc[S.S_CAPPED]),
    }
    setup = {
        "players": n,
        "first_player": 0,
        "colours": rules.colours,
        "epoch_stones": {e: int(t.epoch_stones[i, n]) for i, e in enumerate(_EPOCHS)},
        "note": "set-up chance outcomes (first inventions, hands, display, set-up "
        "discards) are the first events, turn 0",
    }
    return {"setup": setup, "events": events, "final": final}


# --------------------------------------------------------------------------- the score track


def score_track(job, trace: dict) -> dict | None:
    """Each seat's score if the game ended after each turn, from the checkable trace
    (the drama study's view, :mod:`analyzer.studies.drama`): the displayed inventions
    with their villages and cities, the supply, the `end_points` inventions and
    Ninurta's points per city, scored as at the end (docs/games/uruk.md, "Game end
    and scoring"), with the game's tie-break as ``keys`` (the most cities).

    The running state follows the trace's events: a seat's first invention (with
    its village) and three resources of its colour; every resource taken, gained,
    traded for or paid (``take_resource``, ``robbed_takes``, ``trade_pool``/``trade``,
    ``gain``, ``pay``; a god's bonus and a spared seat's payment are those rows
    too); every invention made or placed by Enlil (the replaced one to the hand, its
    stones moving with it or going to the pool by ``stones_back``), every stone
    settled, lost to a drought, every invention lost to an earthquake, Ninurta won.
    An activation after a turn belongs to that turn; the closing ``score`` rows are
    no turn.

    Returns ``{"turns", "scores", "keys"}``, or None when the last turn's scores
    differ from the game's final ones (never a guess)."""
    from analyzer.uruk.codes import Counts, Effect, GodEffect

    rules = job.rules
    t = rules.tables
    colours = list(rules.colours)
    index = {name: i for i, name in enumerate(rules.card_names)}
    seats = trace["final"]["seats"]
    n = len(seats)
    inv: list[dict[int, int]] = [{} for _ in range(n)]  # invention -> stones (0, 1, 2)
    supply = [[0] * len(colours) for _ in range(n)]
    city_points = [0] * n
    from_players = bool(t.trade_from_players)

    def colour_of(x: int) -> int:
        return int(t.inv_colour[x])

    def cities(p: int) -> int:
        return sum(1 for st in inv[p].values() if st == 2)

    def score(p: int) -> int:
        pts = 0
        for x, st in inv[p].items():
            pts += (t.bare_points, t.inv_level[x] * t.village_factor,
                    t.inv_level[x] * t.city_factor)[st]  # fmt: skip
            if t.inv_effect[x] == Effect.END_POINTS:
                what = int(t.inv_kind_param[x])
                if what == Counts.INVENTIONS:
                    k = len(inv[p])
                elif what == Counts.VILLAGES:
                    k = sum(1 for st in inv[p].values() if st == 1)
                elif what == Counts.CITIES:
                    k = cities(p)
                elif what == Counts.RESOURCES:
                    k = sum(supply[p])
                else:
                    k = sum(1 for y in inv[p] if colour_of(y) == colour_of(x))
                pts += int(t.inv_amount[x]) * (k // int(t.inv_level_param[x]))
        pts += sum(supply[p]) // t.resources_per_point
        return int(pts + city_points[p] * cities(p))

    def replace(p: int, x: int, y: int | None) -> None:
        stones = inv[p].pop(y) if y is not None else 0
        inv[p][x] = stones

    turns: list[int] = []
    scores: list[list[int]] = []
    keys: list[list[list[int]]] = []
    current = None
    started = False
    made: dict = {}
    for ev in trace["events"]:
        typ, p = ev["type"], ev.get("seat")
        if typ == "score":  # the closing scores: no turn of their own
            continue
        t_ev = ev.get("turn")
        if typ == "turn" and not started:  # play begins: the first invention's resources
            started = True
            for q in range(n):
                for x in inv[q]:
                    supply[q][colour_of(x)] += int(t.start_resources)
        if started and current is not None and t_ev != current:
            turns.append(current)
            scores.append([score(q) for q in range(n)])
            keys.append([[cities(q)] for q in range(n)])
        if started:
            current = t_ev
        if typ == "first_invention":
            inv[p][index[ev["card"]]] = 1
        elif typ == "take_resource":
            c = colours.index(ev["colour"])
            supply[p][c] += 1
            if ev["from_seat"] is not None:
                supply[ev["from_seat"]][c] -= 1
        elif typ == "robbed_takes":
            supply[p][colours.index(ev["colour"])] += 1
        elif typ == "trade_pool" or (typ == "trade" and not from_players):
            supply[p][colour_of(index[ev["invention"]])] += int(ev["cards"])
        elif typ == "gain" and ev["colour"] is not None:
            supply[p][colours.index(ev["colour"])] += int(ev["got"])
        elif typ == "pay":
            supply[p][colours.index(ev["colour"])] -= int(ev["amount"])
        elif typ == "make":  # placed with its cards (make_cards), after any stones_back
            made = ev
        elif typ == "make_cards" or typ == "make_free":
            e = made if typ == "make_cards" else ev
            y = e["replaced"]
            replace(p, index[e["invention"]], None if y is None else index[y])
        elif typ == "stones_back":
            inv[p][index[ev["invention"]]] = 0
        elif typ == "settle":
            inv[p][index[ev["invention"]]] = int(ev["stones"])
        elif typ == "suffer" and ev.get("lost") is not None:
            x = index[ev["lost"]]
            if t.god_effect[index[ev["card"]] - t.n_inv] == GodEffect.DROUGHT:
                inv[p][x] -= 1  # a stone (a city's top one)
            else:  # an earthquake: a bare invention
                del inv[p][x]
        elif typ == "auction_won" and p is not None:
            g = index[ev["card"]] - t.n_inv
            if g >= 0 and t.god_effect[g] == GodEffect.CITY_POINTS:
                city_points[p] += int(t.god_amount[g])
    if current is not None:
        turns.append(current)
        scores.append([score(q) for q in range(n)])
        keys.append([[cities(q)] for q in range(n)])
    if not scores or scores[-1] != [int(s["score"]) for s in seats]:
        return None
    return {"turns": turns, "scores": scores, "keys": keys}
