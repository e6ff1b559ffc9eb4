"""Uruk as the machinery sees it: the :class:`~analyzer.games.folder.GameFolder`
of this folder, registered by ``analyzer/uruk/__init__.py``.

What only Uruk knows: its strategies with their score floors, its score parts
and counts per seat, the rulings the rulebook leaves open, the values it
assumes, its chart of inventions and the card pickers of its web page. Its
modules are imported when first used (listing games needs no numba).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.core.errors import bad_value
from analyzer.games import Column, Strategy
from analyzer.games.folder import GameFolder, strategies_from_rows
from analyzer.uruk.defaults import STRATEGY_NAMES as _NAMES
from analyzer.uruk.defaults import version

_TEXT = {
    "random": "uniform among the legal actions and choices at every decision",
    "builder": "inventions and settlements: points now and levels for later weigh most",
    "hoarder": "resources and auctions: values resources highly, bids far for gods and "
    "against disasters",
    "balanced": "weighs points, levels, resources and cards together",
    "baseline": "balanced as shipped in strategies version 1 (its row and choices), frozen: "
    "the yardstick of ratings and tuning",
    "search": "balanced, its actions and secret bids chosen by rollouts of the rest of the "
    "game (determinized Monte Carlo; settings budget, width, margin, z, bids); slow",
    "balanced_v3": "balanced as shipped in strategies version 3 (its rows and rules): it does "
    "not see the end coming and takes cards after the end is triggered that it never makes",
    "trained": "balanced's candidate actions valued by a linear evaluation of what the seat "
    "can see, fitted by analyzer train to the search's rollout values (data/trained.toml)",
}
_PARTS = {
    "inventions": "points of displayed inventions (1 bare, level with a village, 2x with a city)",
    "resources": "1 point per 4 resources left",
    "effects": "end_points inventions (Leier, Waage)",
    "gods": "Ninurta: points per own city",
}
_STATS = {
    "turns": "turns this seat played",
    "cards_taken": "cards taken by the take-a-card action",
    "made": "inventions made (Enlil's free one included)",
    "resources_taken": "resources got by the take-resources action",
    "traded": "hand cards traded for resources",
    "villages_built": "villages founded during play",
    "cities_built": "cities founded during play",
    "auctions_won": "god auctions won",
    "fewest_bonus": "full bonuses of Gibil, Marduk, Nannar (fewest stones)",
    "disasters_suffered": "disasters suffered",
    "disasters_spared": "disasters escaped with the highest secret bid",
    "robbed": "resources other seats took from this one (empty pool)",
    "card_actions": "card actions used (Aquaedukt, Zahnrad)",
    "actions": "actions taken",
}


def _strategies() -> tuple[Strategy, ...]:
    from analyzer.games.data import read_bounds
    from analyzer.uruk.defaults import KEPT_NAMES, ROWS, SEARCH_PARAMS, TUNED_NAMES

    # the ranges analyzer tune searches (data/tuning.toml, which says why; not uniform)
    bounds = read_bounds("analyzer.uruk", ROWS.params)
    return strategies_from_rows(
        ROWS,
        _NAMES,
        _TEXT,
        search_params=SEARCH_PARAMS,
        bounds=dict.fromkeys(TUNED_NAMES + KEPT_NAMES + ("trained",), bounds),
        floors=_FLOORS,
    )


#: the plans of builder and hoarder, kept when ``analyzer tune`` tunes them (a
#: share of their points from these score columns, at least): builder scores from
#: its inventions and settlements, hoarder from resources kept (and Ninurta)
_FLOORS = {
    "builder": (("pts_inventions",), 0.85),
    "hoarder": (("pts_resources", "pts_gods"), 0.25),
}


def games_columns(rules) -> tuple[Column, ...]:
    """The columns Uruk adds to the ``games`` table, in table order."""
    cols = [Column(f"pts_{p}", text, part=True) for p, text in _PARTS.items()]
    cols += [
        Column("cities", "cities at the end (the tiebreak)", by_strategy=True, sweep=True),
        Column("villages", "villages at the end", by_strategy=True),
        Column("inventions", "inventions displayed at the end", by_strategy=True),
        Column("resources_left", "resources in the supply at the end"),
        Column("hand_left", "hand cards at the end"),
        Column(
            "capped",
            "1 if the game stopped at the turn cap (components.max_turns)",
            game_mean="capped_share",
        ),
        Column(
            "activations",
            "god and disaster cards activated in the game",
            sweep=True,
            game_mean="activations_per_game",
        ),
        Column("reshuffles", "times the deck was rebuilt in the game"),
    ]
    cols += [Column(name, text) for name, text in _STATS.items()]
    cols += [
        Column(f"has_{iid}", f"1 if the seat displays {name} at the end")
        for iid, name in zip(rules.invention_ids, rules.invention_names, strict=True)
    ]
    return tuple(cols)


def _questions() -> tuple:
    from analyzer.uruk.questions import QUESTIONS

    return QUESTIONS


@dataclass
class Uruk(GameFolder):
    name: str = "uruk"
    title: str = "Uruk: Wiege der Zivilisation"
    strategies_version: str = field(default_factory=version)
    min_players: int = 2
    max_players: int = 4
    strategies: tuple[Strategy, ...] = field(default_factory=_strategies)
    #: strategies version 5: ``trained`` (balanced's games at 3 and 4 players, where
    #: no weights are shipped); version 4's default ``balanced`` is unchanged
    default_strategy: str = "trained"
    yardstick: str | None = "baseline"
    questions: tuple = field(default_factory=_questions)
    #: every strategy but random and baseline runs the same code (the name picks the row)
    row_strategies: tuple[str, ...] = ("balanced", "builder", "hoarder")
    #: ``analyzer tune`` with no ``--strategy`` tunes ``balanced``'s row, the row the
    #: default ``trained`` plays (and self-play works: ``trained`` has no stand-in)
    tune_strategy: str | None = "balanced"
    interventions: dict = field(
        default_factory=lambda: {
            "inventions": "the seat may not make it (its cards stay in the game: pair and "
            "trade fodder, bids)",
            "actions": "the seat never trades hand cards (trading) or never bids in a god's "
            "open auction (god_auctions)",
        }
    )

    # ----------------------------------------------------------------- rules

    def ruling_names(self) -> tuple[str, ...]:
        from analyzer.uruk.rules import RULING_NAMES

        return RULING_NAMES

    def ruling_specs(self) -> tuple:
        from analyzer.uruk.rules import RULINGS

        return RULINGS

    def load_rules(self, rulings: dict, overrides: dict, where: str):
        from analyzer.uruk.rules import load_rules

        if not isinstance(rulings, dict):
            raise bad_value(f"{where}: rules", rulings, "a table of rulings")
        return load_rules(overrides, rulings=rulings, where=where)

    def player_range(self, rules) -> tuple[int, int]:
        comp = rules.data["components"]  # as the tables have them, without building them
        return int(comp["min_players"]), int(comp["max_players"])

    def assumed_values(self, rules) -> list[dict]:
        from analyzer.uruk.rules import assumed_values

        return assumed_values(rules)

    def labels(self, rules) -> dict[str, str]:
        out = {f"pts_{p}": p for p in _PARTS}
        out.update(
            {f"has_{i}": n for i, n in zip(rules.invention_ids, rules.invention_names, strict=True)}
        )
        return out

    def columns(self, rules) -> tuple[Column, ...]:
        return games_columns(rules)

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
        from analyzer.games.jobs import job_options
        from analyzer.uruk.game import make_job

        options = job_options(luck, forbid)
        return make_job(
            players, tuple(strategies), seed, rules, strategy_params=strategy_params, **options
        )

    def check_strategy_params(self, params: dict) -> None:
        from analyzer.uruk.defaults import search_settings  # no engine

        search_settings(params)  # the search's budget, width, margin, z, bids

    def intervention_ids(self, rules, kind: str) -> tuple[str, ...]:
        from analyzer.uruk.interventions import intervention_ids

        return intervention_ids(rules, kind)

    def intervention_words(self, kind: str) -> tuple[str, str, str]:
        if kind == "inventions":
            return ("make", "made", "other inventions")
        return ("use", "used", "the other actions")

    def uptake_columns(self, kind: str, ids) -> tuple[str, ...]:
        return tuple(f"has_{x}" for x in ids) if kind == "inventions" else ()

    def barrable(self, rules) -> tuple:
        from analyzer.games import Barrable
        from analyzer.uruk.interventions import intervention_ids

        names = dict(zip(rules.invention_ids, rules.invention_names, strict=True))
        out = [
            Barrable(x, names[x], {"inventions": (x,)}, "inventions")
            for x in intervention_ids(rules, "inventions")
        ]
        out.append(Barrable("trading", "trading", {"actions": ("trading",)}, "actions"))
        out.append(
            Barrable("god_auctions", "god auctions", {"actions": ("god_auctions",)}, "actions")
        )
        return tuple(out)

    def info(self, rules) -> dict:
        return {"inventions": dict(zip(rules.invention_ids, rules.invention_names, strict=True))}

    # ----------------------------------------------------------------- reports

    def charts(self, tables, info, stamp) -> list:
        from analyzer.uruk import charts

        if "inventions_at_end" in tables and len(tables["inventions_at_end"]):
            return [
                ("inventions_at_end", charts.inventions_at_end(tables["inventions_at_end"], stamp))
            ]
        return []

    # ----------------------------------------------------------------- the web page

    def trainer(self):
        from analyzer.uruk.training import TRAINER

        return TRAINER

    def luck_fit(self):
        from analyzer.uruk.luck_fit import FIT

        return FIT

    def web_page(self) -> str | None:
        import json
        from importlib import resources

        from analyzer.uruk.rules import base_data

        data = base_data()
        cards = {  # what the page's card picker and steppers need of the rules
            "inventions": [
                {k: r[k] for k in ("id", "name", "colour", "level", "copies")}
                for r in data["inventions"]["invention"]
            ],
            "gods": [{k: r[k] for k in ("id", "name", "kind")} for r in data["gods"]["card"]],
            "epochs": [{"id": e["id"], "stones": e["stones"]} for e in data["epochs"]["epoch"]],
            "colours": data["components"]["colours"],
        }
        html = resources.files(__package__).joinpath("web", "page.html").read_text("utf-8")
        return html.replace("{{CARDS}}", json.dumps(cards, ensure_ascii=False))

    def web_warm_up(self):
        return (("advise", {"state": "example"}),)

    def table_pages(self):
        return (
            (
                "inventions_at_end",
                "Inventions displayed at the end",
                "per seat-game; association with winning, not cause (compare scenarios "
                "remove an invention for the effect)",
            ),
        )
