"""Colorful Treasure on the game seam: its :class:`~analyzer.games.folder.GameFolder`.

Declared here: the players (their memory, their rows from the rules' player data),
the score parts and the columns the action tiles add, one line per ruling, the
override paths into the data files, the exact tables of a fresh grid, the
charts of rewards and steals, and the web page's wonders. Registered by
``analyzer/colorful_treasure/__init__.py``; no engine is imported to list games.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.core.errors import bad_value
from analyzer.games import Column, Strategy
from analyzer.games.folder import GameFolder

_STRATEGY_TEXT = {
    "random": "uniform among the legal choices at every decision, no memory",
    "greedy": "best expected points now, from what it remembers (recall 0.8 a turn), "
    "plus the rewards and the treasure majority; never weighs what a victim loses",
    "perfect": "greedy with perfect memory: exact chances over each column's unseen cards",
    "hunter": "greedy that also plays to hurt: a steal's loss to its victim counts "
    "(deny at least 0.5)",
    "baseline": "greedy as shipped in strategies version 1 (its row and choices), frozen: "
    "the yardstick of ratings and tuning",
    "search": "greedy (same row, same recall), the cards it reveals first and its steals "
    "chosen by rollouts of the rest of the game (slow: about 1 s a game)",
}

#: score parts (``pts_<name>`` columns), with what each counts
PARTS = {
    "gems": "points of gem cards by colour (1, 3, 6, ... for 1, 2, 3, ... cards)",
    "diamond_cards": "points of diamond cards",
    "plastic": "points of plastic diamonds",
    "gem_reward": "gem reward (first to hold enough gem colours)",
    "explorer": "explorer reward (first to hold cards of enough wonders)",
    "treasure": "treasure reward (most key and chest cards; ties share)",
}
#: the action tiles' part, in games that play them (ruling tiles)
TILE_PART = {"tiles": "points of the action tiles held (truce, sixth colour)"}


def _strategies() -> tuple[Strategy, ...]:
    from analyzer.colorful_treasure.codes import (
        BASELINE_PARAMS,
        FROZEN_STRATEGIES,
        PARAM_NAMES,
        SEARCH,
        SEARCH_BASE,
        SEARCH_PARAMS,
        STRATEGY_NAMES,
    )
    from analyzer.colorful_treasure.rules import default_rules, tuned_rows
    from analyzer.games.data import read_bounds

    rules = default_rules()
    rows = rules.player_params()
    rows["baseline"] = dict(zip(PARAM_NAMES, BASELINE_PARAMS, strict=True))
    rows[SEARCH] = rows[SEARCH_BASE]  # greedy's row; its settings come after it
    # the tuned rows by player count (data/strategies.toml), each a full row
    by_players = {
        name: tuple((n, tuple(rules.player_params(n)[name].items())) for n in sorted(counts))
        for name, counts in tuned_rows().items()
    }
    extra = {SEARCH: tuple((p, v) for p, v, _ in SEARCH_PARAMS)}
    if SEARCH_BASE in by_players:
        by_players[SEARCH] = tuple((n, row + extra[SEARCH]) for n, row in by_players[SEARCH_BASE])
    # the ranges analyzer tune searches (data/tuning.toml, which says why; not recall)
    bounds = read_bounds("analyzer.colorful_treasure", PARAM_NAMES)
    return tuple(
        Strategy(
            name,
            _STRATEGY_TEXT[name],
            tuple((p, rows[name][p]) for p in PARAM_NAMES) + extra.get(name, ()),
            bounds=() if name in ("random", SEARCH) or name in FROZEN_STRATEGIES else bounds,
            frozen=name in FROZEN_STRATEGIES,
            slow=name == SEARCH,
            by_players=by_players.get(name, ()),
        )
        for name in STRATEGY_NAMES
    )


def games_columns(rules) -> tuple[Column, ...]:
    """The columns Colorful Treasure adds to the ``games`` table, in table order."""
    cols = [Column("turns", "turns this seat played")]
    cols += [Column(f"pts_{p}", text, part=True) for p, text in PARTS.items()]
    cols += [Column(f"gems_{c}", f"{c} gem cards held at the end") for c in rules.colours]
    cols += [
        Column("colours_held", "gem colours held at the end", by_strategy=True),
        Column("wonders_held", "wonders of which the seat holds a card at the end"),
        Column("cards_held", "wonder cards held at the end", by_strategy=True, sweep=True),
        Column("diamond_cards", "diamond cards held at the end"),
        Column("plastic_diamonds", "plastic diamonds held at the end"),
        Column("treasure_cards", "key and chest cards held at the end"),
        Column(
            "markers_left",
            "unpaired treasure markers at the end (ruling steal_pairs = cards: unspent key "
            "and chest cards)",
        ),
        Column(
            "steals",
            "steals the seat made",
            by_strategy=True,
            sweep=True,
            game_mean="steals_per_seat",
        ),
        Column("robbed", "steals that took from this seat", by_strategy=True),
        Column("stole_plastic", "steals that took a plastic diamond"),
        Column("extra_reveals", "turns in which the seat revealed a third card", by_strategy=True),
        Column("treasure_turns", "turns that revealed a key or chest (a forced take)"),
        Column("took_nothing", "turns that took nothing (ruling take = optional)"),
        Column("gem_reward", "1 if the seat took the gem reward", sweep=True),
        Column("explorer_reward", "1 if the seat took the explorer reward", sweep=True),
        Column("treasure_reward", "1 if the seat got (a share of) the treasure reward"),
        Column("cards_left", "cards left in the grid at the end (same for every seat)"),
    ]
    if rules.rulings.tiles != "none":  # only games with action tiles have these
        cols += [
            Column("pts_tiles", "points of the action tiles held at the end", part=True),
            Column("tiles_taken", "action tiles the seat took", by_strategy=True, sweep=True),
            Column("tiles_used", "action tile uses (x1 tiles, ignore treasure)"),
        ]
        sides = dict.fromkeys(side for _, side in rules.tile_sides())  # once each, in order
        cols += [
            Column(f"tile_{side}", f"1 if the seat took a tile showing {side.replace('_', ' ')}")
            for side in sides
        ]
    return tuple(cols)


def _questions() -> tuple:
    from analyzer.colorful_treasure.questions import QUESTIONS

    return QUESTIONS


#: one line per value of each ruling (``Rulings._ALLOWED`` order), for ``analyzer games --rules``
_RULING_TEXT = {
    "variant": (
        "the standard game",
        "young players: no rewards, keys or chests, two reveals a turn, "
        "ends when the grid is empty",
    ),
    "scoring": ("the basic values", "the advanced values"),
    "take": (
        "a kind is always taken when no key or chest is revealed",
        "a player may take nothing",
    ),
    "tied_game": ("tied players share the win", "a tie has no winner"),
    "stolen_cards": (
        "a stolen card counts for its new owner's rewards",
        "a card ever stolen counts for no one's rewards (it still scores its points)",
    ),
    "last_cards": (
        "a turn with too few face-down cards reveals what is left",
        "the game ends at once instead",
    ),
    "tiles": ("no action tiles", "the action tiles, side A", "the action tiles, side B"),
    "tile_timing": (
        "tiles are taken before the 'first to' rewards are checked at a turn's end",
        "tiles are taken after the reward check (a sixth colour counts a turn later)",
    ),
    "tile_offers": (
        "one tile offer for each colour reaching 3 gem cards (two in a turn possible)",
        "at most one tile offer a turn",
    ),
    "steal_pairs": (
        "a steal pair is formed by key and chest markers",
        "a steal pair is formed by key and chest cards, stolen ones included",
    ),
}


@dataclass
class ColorfulTreasure(GameFolder):
    name: str = "colorful_treasure"
    title: str = "Colorful Treasure"
    strategies_version: str = "2"
    min_players: int = 2
    max_players: int = 4
    strategies: tuple[Strategy, ...] = field(default_factory=_strategies)
    default_strategy: str = "greedy"
    yardstick: str | None = "baseline"
    #: greedy, perfect and hunter are rows of one plan (EXPECT, the same code): one
    #: stands in for another, so ``analyzer tune --field self`` can seat a shipped row
    row_strategies: tuple[str, ...] = ("greedy", "perfect", "hunter")
    #: 5,000 random games take ~35 ms, under ten times a batch's fixed cost
    #: (benchmarks/README.md, "The user path")
    batch_size: int = 20_000
    tables: dict = field(
        default_factory=lambda: {
            "steals": "one row per steal: game, turn, thief, victim, item taken"
        }
    )
    table_switch: str | None = "steals"  #: make_job(steals=...): the steals table
    questions: tuple = field(default_factory=_questions)
    interventions: dict = field(
        default_factory=lambda: {
            "actions": "stealing: the seat never steals (its key and chest pairs are spent "
            "on nothing)",
            "rewards": "the seat may not take that reward card (others still may; its keys "
            "and chests do not count for the treasure reward)",
            "tiles": "the seat never takes that action tile (with the tiles in play)",
            "force": "take_tiles: the seat takes a tile whenever one is offered (forced)",
        }
    )

    # ----------------------------------------------------------------- rules

    def ruling_names(self) -> tuple[str, ...]:
        from analyzer.colorful_treasure.rules import RULING_NAMES

        return RULING_NAMES

    def ruling_specs(self) -> tuple:
        from analyzer.colorful_treasure.rules import Rulings
        from analyzer.games.rulings import Ruling

        defaults = Rulings()
        return tuple(
            Ruling(name, values, getattr(defaults, name), tuple(_RULING_TEXT[name]))
            for name, values in Rulings._ALLOWED.items()
        )

    def load_rules(self, rulings: dict, overrides: dict, where: str):
        from analyzer.colorful_treasure.rules import load_rules

        if not isinstance(rulings, dict):
            raise bad_value(f"{where}: rules", rulings, "a table of rulings")
        return load_rules(dict(rulings), dict(overrides), where=where)

    def override_example(self, path: str):
        from analyzer.colorful_treasure.rules import base_data

        data = base_data()
        parts = path.split(".")
        node = data.get(parts[0])
        for i, key in enumerate(parts[1:], start=1):
            if parts[0] == "wonders" and i == 1 and key != "colours":
                hits = [w for w in data["wonders"]["wonder"] if _match(w["id"], key)]
                if not hits:
                    return None
                node = hits[0]
                continue
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        return None if isinstance(node, dict) or node is data.get(parts[0]) else node

    def player_range(self, rules) -> tuple[int, int]:
        comp = rules.data["components"]  # as the tables have them, without building them
        return int(comp["min_players"]), int(comp["max_players"])

    def assumed_values(self, rules) -> list[dict]:
        from analyzer.colorful_treasure.rules import assumed_values

        return assumed_values(rules)

    def make_job(
        self,
        players,
        strategies,
        seed,
        rules,
        *,
        claims=False,
        strategy_params=None,
        luck=None,
        forbid=None,
    ):
        from analyzer.colorful_treasure.game import make_job
        from analyzer.games.jobs import job_options

        options = job_options(luck, forbid)
        return make_job(
            players,
            tuple(strategies),
            seed,
            rules,
            strategy_params=strategy_params,
            steals=claims,
            **options,
        )

    def check_strategy_params(self, params: dict) -> None:
        from analyzer.colorful_treasure.codes import check_param, search_settings  # no engine

        for name, table in params.items():
            for key, val in table.items():
                check_param(name, key, val)  # recall's range
        search_settings(params)  # the search's budget, width, margin, z

    def intervention_ids(self, rules, kind: str) -> tuple[str, ...]:
        from analyzer.colorful_treasure.interventions import intervention_ids

        return intervention_ids(rules, kind)

    def intervention_words(self, kind: str) -> tuple[str, str, str]:
        if kind == "rewards":
            return ("take", "took", "no reward card")
        if kind in ("tiles", "force"):
            return ("take", "took", "no tile")
        return ("steal", "stole", "nothing")

    def uptake_columns(self, kind: str, ids) -> tuple[str, ...]:
        return tuple(ids) if kind == "rewards" else ()

    def barrable(self, rules) -> tuple:
        """Stealing, the three rewards (when in play) and each action tile (with tiles)."""
        from analyzer.colorful_treasure.interventions import intervention_ids
        from analyzer.games import Barrable

        out = [Barrable("stealing", "stealing", {"actions": ("stealing",)}, "actions")]
        names = {
            "gem_reward": "the gem reward",
            "explorer_reward": "the explorer reward",
            "treasure_reward": "the treasure reward",
        }
        out += [
            Barrable(r, names[r], {"rewards": (r,)}, "rewards")
            for r in intervention_ids(rules, "rewards")
        ]
        out += [
            Barrable(f"tile_{x}", f"the {x.replace('_', ' ')} tile", {"tiles": (x,)}, "tiles")
            for x in intervention_ids(rules, "tiles")
        ]
        out += [
            Barrable(x, "take every tile offered", {"force": (x,)}, "tiles", forced=True)
            for x in intervention_ids(rules, "force")
        ]
        return tuple(out)

    def labels(self, rules) -> dict[str, str]:
        out = {f"pts_{p}": p.replace("_", " ") for p in {**PARTS, **TILE_PART}}
        out.update(zip(rules.wonder_ids, rules.wonder_names, strict=True))
        return out

    def columns(self, rules) -> tuple[Column, ...]:
        return games_columns(rules)

    def info(self, rules) -> dict:
        return {"colours": rules.colours, "variant": rules.rulings.variant}

    # ----------------------------------------------------------------- reports

    def exact_tables(self, cells):
        """Exact chances of the set-up (no sampling error), for cell 0's rules."""
        from analyzer.colorful_treasure.exact import exact_table

        return {"exact": exact_table(cells[0].rules)}

    def luck_fit(self):
        from analyzer.colorful_treasure.luck_fit import FIT

        return FIT

    def charts(self, tables, info, stamp) -> list:
        from analyzer.colorful_treasure import charts

        out = []
        if "rewards" in tables:
            out.append(("rewards", charts.rewards(tables["rewards"], stamp)))
        if "steals_by_seat" in tables:
            out.append(("steals", charts.steals(tables["steals_by_seat"], stamp)))
        return out

    def table_pages(self):
        return (
            ("rewards", "Rewards: who takes them, and do they decide games", "per seat-game"),
            ("steals_by_seat", "Steals: who steals from whom", "per game"),
            ("tiles", "Action tiles: who takes them, and their owners' win rate", "per seat-game"),
            ("exact", "Exact chances of a fresh grid", "no sampling error"),
        )

    # ----------------------------------------------------------------- the web page

    def web_page(self) -> str | None:
        import json
        from importlib import resources

        from analyzer.colorful_treasure.odds import EXAMPLE

        wonders = web_wonders()
        html = resources.files(__package__).joinpath("web", "page.html").read_text("utf-8")
        return html.replace("{{WONDERS}}", json.dumps(wonders)).replace(
            "{{EXAMPLE}}", json.dumps(web_state(EXAMPLE, wonders))
        )

    def web_warm_up(self):
        return (("odds", {"state": "example"}), ("advise", {"state": "example"}))


def web_wonders() -> list[dict]:
    """The wonders of the default rules as the page shows them: id, name and the
    names of its cards in the order of the rules (``"red"``, ``"diamond"``,
    ``"key"``: the words the table state uses)."""
    from analyzer.colorful_treasure.codes import Kind
    from analyzer.colorful_treasure.rules import default_rules

    rules = default_rules()
    t = rules.tables
    out = []
    for w, (wid, name) in enumerate(zip(rules.wonder_ids, rules.wonder_names, strict=True)):
        cards = []
        for c in range(w * t.rows, (w + 1) * t.rows):
            kind = int(t.card_kind[c])
            gem = kind == Kind.GEM
            cards.append(rules.colours[int(t.card_colour[c])] if gem else Kind(kind).name.lower())
        out.append({"id": wid, "name": name, "cards": cards})
    return out


def _match(name: str, pattern: str) -> bool:
    import fnmatch

    return fnmatch.fnmatchcase(name, pattern)


def web_state(text: str, wonders: list[dict]) -> dict:
    """A table state (TOML text, as ``advise --example`` prints) as the page holds it:
    players, scoring, rewards given and each card's mark (``down``, ``seen``, ``gone``,
    ``mine``), so the page opens on the same state as the command's example."""
    import tomllib

    raw = tomllib.loads(text)
    grid = raw.get("grid", {})
    mine = {tuple(item.split()) for item in raw.get("mine", [])}
    cards = {}
    for w in wonders:
        col = grid.get(w["id"])
        marks = {}
        for c in w["cards"]:
            if (w["id"], c) in mine:
                marks[c] = "mine"
            elif col is None or c in col.get("gone", []):
                marks[c] = "gone"  # a wonder not listed has no card left
            else:
                marks[c] = "seen" if c in col.get("remembered", []) else "down"
        cards[w["id"]] = marks
    return {
        "players": raw.get("players", 2),
        "scoring": raw.get("scoring", "basic"),
        "rewards": list(raw.get("rewards_given", [])),
        "cards": cards,
    }
