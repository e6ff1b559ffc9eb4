"""Unearth as the machinery sees it: the :class:`~analyzer.games.folder.GameFolder`
of this folder, registered by ``analyzer/unearth/__init__.py``.

What only Unearth knows: its strategies and their tuning ranges, the score
parts and the columns of its ``games`` table, its editions and rulings, the
named wonders a scenario may forbid a seat, the exact claim odds, its charts
and web page. The skeleton's modules (``rules``, ``game``, ``replay``,
``tables``) are imported when first used, so listing games loads no engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported where a table is made, not to list games
    import pandas as pd

from analyzer.core.errors import bad_value
from analyzer.games import Column, Strategy
from analyzer.games.folder import GameFolder, strategies_from_rows
from analyzer.unearth.defaults import STRATEGY_NAMES, version

_STRATEGY_TEXT = {
    "random": "uniform among the legal choices at every decision",
    "claimer": "the ruin path: tuned with a stone's base worth at most 1 point; never fills "
    "a ring centre it could close",
    "collector": "the stone path: tuned to take at least a third of its points from wonders",
    "balanced": "expected points each turn from exact one-roll odds, stones and cards, "
    "tuned for wins with nothing imposed",
    "baseline": "balanced with its parameters before tuning, frozen: the yardstick of ratings",
    "search": "balanced, its excavation rolls chosen by rollouts of the rest of the game "
    "(determinized Monte Carlo; settings budget, width, margin, z); slow",
}

#: ranges ``analyzer tune`` searches (docs/games/unearth.md); ``place`` acts as 0/1 (> 0.5)
_BOUNDS = (
    ("w_ruin", 0.0, 8.0),
    ("w_stone", 0.0, 4.0),
    ("risk", 0.0, 3.0),
    ("lead", 0.0, 2.0),
    ("w_card", 0.0, 3.0),
    ("card_min", 0.0, 4.0),
    ("place", 0.0, 1.0),
    ("named", 0.0, 6.0),
    ("card_end", 0.0, 1.0),
    ("stone_ring", 0.0, 6.0),
    ("big_die", -2.0, 2.0),
    ("wonder_fit", 0.0, 1.0),
)

#: score parts, in the order of the ``pts_*`` columns, with what each counts
_PARTS = {
    "ruin_sets": "points from ruins of one colour (2, 4, 6, 8, 10 for the 1st..5th)",
    "five_colour": "bonus for sets of five differently coloured ruins",
    "tokens": "points of lesser and greater wonder tokens",
    "named": "points of named wonders, end-game effects included",
    "bonus": "wonder-count bonus (edition rule)",
    "cities": "points of cities (end-of-age cards claimed)",
}


#: the collector's constraint when tuned: at least a third of its points from wonders
_WONDER_PARTS = ("pts_tokens", "pts_named", "pts_bonus")


def _bounds(name: str) -> tuple[tuple[str, float, float], ...]:
    """What ``analyzer tune`` searches for ``name``: the claimer, the ruin path,
    values a stone at most 1 point."""
    if name == "random":
        return ()
    if name == "claimer":
        return tuple((p, lo, min(hi, 1.0) if p == "w_stone" else hi) for p, lo, hi in _BOUNDS)
    return _BOUNDS


def _strategies() -> tuple[Strategy, ...]:
    from analyzer.unearth.defaults import ROWS, SEARCH_PARAMS

    return strategies_from_rows(
        ROWS,
        STRATEGY_NAMES,
        _STRATEGY_TEXT,
        search_params=SEARCH_PARAMS,
        bounds={name: _bounds(name) for name in STRATEGY_NAMES},
        floors={"collector": (_WONDER_PARTS, 1 / 3)},
    )


def games_columns(rules) -> tuple[Column, ...]:
    """The columns Unearth adds to the ``games`` table, in table order."""
    cols = [
        Column("end_of_age", "end-of-age card that ended the game", kind="label"),
        Column("turns", "turns this seat played"),
    ]
    cols += [Column(f"pts_{p}", text, part=True) for p, text in _PARTS.items()]
    cols += [Column(f"ruins_{c}", f"{c} ruins claimed") for c in rules.ruin_colours]
    cols.append(Column("ruins_city", "cities (end-of-age cards) claimed"))
    cols += [Column(f"stones_{c}", f"{c} stones collected") for c in rules.stone_colours]
    for kind in ("lesser", "greater", "named"):
        cols.append(Column(f"wonders_{kind}", f"{kind} wonders built", by_strategy=True))
    cols += [
        Column(f"named_{w}", f"1 if the seat built {name}")
        for w, name in zip(rules.wonder_ids, rules.wonder_names, strict=True)
    ]
    cols += [
        Column("delvers_drawn", "delver cards drawn"),
        Column("delvers_played", "delver cards played"),
    ]
    cols += [
        Column(f"played_{d}", f"times the seat played {name}")
        for d, name in zip(rules.delver_ids, rules.delver_names, strict=True)
    ]
    cols.append(Column("claims_won", "ruins and cities claimed"))
    cols.append(
        Column(
            "wonders_total",
            "wonders of every kind built (derived: lesser + greater + named)",
            by_strategy=True,
            sweep=True,
            game_mean="wonders_per_seat",
        )
    )
    return tuple(cols)


def _questions() -> tuple:
    from analyzer.unearth.questions import QUESTIONS

    return QUESTIONS


#: version of the strategies' play, printed beside the rules version in every manifest
#: and report: the ``version`` of ``data/strategies.toml``, bumped whenever a
#: strategy plays differently (its rows, or the evaluation they weigh)
STRATEGIES_VERSION = version()


#: (name, values, default, one line per value, note) of each ruling, for
#: ``analyzer games --rules`` (``analyzer.unearth.rules.Rulings``, ``docs/games/unearth.md``)
_RULINGS = (
    (
        "edition",
        ("english", "german"),
        "english",
        ("the English rulebook's readings", "the German rulebook's readings"),
        "sets the defaults of wonder_bonus, tomb and first_player",
    ),
    (
        "wonder_bonus",
        ("once", "per_threshold"),
        "once",
        ("+5 once for 3 or more wonders (English)", "+5 for every 3 wonders (German)"),
        "default: as the edition says",
    ),
    (
        "tomb",
        ("stone_colours", "ruin_colours"),
        "stone_colours",
        (
            "Tomb of the Last Age counts stone colours (English)",
            "it counts ruin colours (German)",
        ),
        "default: as the edition says",
    ),
    (
        "first_player",
        ("die_roll", "highest_sum"),
        "die_roll",
        ("recorded only (English)", "recorded only (German); seat 0 always starts"),
        "default: as the edition says",
    ),
    (
        "token_fallback",
        (True, False),
        True,
        ("an empty token pile takes from the other pile", "then no wonder is built"),
        "",
    ),
    (
        "card_mods_on_forced_rerolls",
        (False, True),
        False,
        (
            "card modifiers wait for the current player's own roll",
            "they also apply to a die the current player's card makes another reroll",
        ),
        "",
    ),
)


@dataclass
class Unearth(GameFolder):
    name: str = "unearth"
    title: str = "Unearth"
    strategies_version: str = STRATEGIES_VERSION
    min_players: int = 2
    max_players: int = 5
    strategies: tuple[Strategy, ...] = field(default_factory=_strategies)
    default_strategy: str = "balanced"
    yardstick: str | None = "baseline"
    tables: dict = field(
        default_factory=lambda: {"claims": "one row per claim resolved (docs/CONTRACTS.md)"}
    )
    questions: tuple = field(default_factory=_questions)
    interventions: dict = field(
        default_factory=lambda: {
            "wonders": "the seat may not build it and takes the wonder token instead",
            "delvers": "the seat never plays it (restricted play; the card stays in its hand)",
        }
    )
    #: restricted play's kinds of thing in words (the default: the kind, singular)
    barrable_nouns: dict = field(
        default_factory=lambda: {"wonders": "named wonder", "delvers": "delver card"}
    )

    # ----------------------------------------------------------------- rules

    def ruling_names(self) -> tuple[str, ...]:
        from analyzer.unearth.rules import Rulings

        return tuple(k for k in Rulings.__dataclass_fields__ if not k.startswith("_"))

    def ruling_specs(self) -> tuple:
        from analyzer.games.rulings import Ruling

        return tuple(Ruling(*row) for row in _RULINGS)

    def load_rules(self, rulings: dict, overrides: dict, where: str):
        from analyzer.unearth.rules import load_rules

        rulings = dict(rulings)
        edition = rulings.pop("edition", "english")
        if not isinstance(edition, str):
            raise bad_value(f"{where}: edition", edition, "english, german")
        return load_rules(edition, overrides, rulings=rulings, where=where)

    def player_range(self, rules) -> tuple[int, int]:
        comp = rules.data["components"]
        return int(comp["min_players"]), int(comp["max_players"])

    def labels(self, rules) -> dict[str, str]:
        out = {f"pts_{p}": p for p in _PARTS}
        out.update(zip(rules.wonder_ids, rules.wonder_names, strict=True))
        out.update(zip(rules.delver_ids, rules.delver_names, strict=True))
        for c in rules.data["end_of_age"]["card"]:
            out[c["id"]] = c["name"]
        return out

    def info(self, rules) -> dict:
        """Printed points of each named wonder (end-game effects come on top)."""
        return {
            "wonder_points": {
                w["id"]: int(w["points"]) for w in rules.data["named_wonders"]["wonder"]
            }
        }

    def columns(self, rules) -> tuple[Column, ...]:
        return games_columns(rules)

    # ----------------------------------------------------------------- playing

    def make_job(
        self,
        players: int,
        strategies: Sequence[str],
        seed: int,
        rules,
        *,
        claims: bool = False,
        strategy_params: dict | None = None,
        forbid: dict | None = None,
        luck: bool = False,
    ):
        from analyzer.unearth.game import make_job

        wonders = {seat: kinds.get("wonders", ()) for seat, kinds in (forbid or {}).items()}
        delvers = {seat: kinds.get("delvers", ()) for seat, kinds in (forbid or {}).items()}
        delvers = {seat: ids for seat, ids in delvers.items() if ids}
        return make_job(
            players,
            tuple(strategies),
            seed,
            rules,
            claims=claims,
            strategy_params=strategy_params,
            forbid=wonders,
            luck=luck,
            **({"bar_delvers": delvers} if delvers else {}),  # only then: today's job
        )

    def check_strategy_params(self, params: dict) -> None:
        if not params.get("search"):  # nothing to check: the engine stays unloaded
            return
        from analyzer.unearth.defaults import search_settings  # no engine

        search_settings(params)  # the search's budget, width, margin, z

    def intervention_ids(self, rules, kind: str) -> tuple[str, ...]:
        if kind == "wonders":
            return tuple(rules.wonder_ids)
        return tuple(rules.delver_ids) if kind == "delvers" else ()

    def intervention_words(self, kind: str) -> tuple[str, str, str]:
        if kind == "delvers":
            return ("play", "played", "the other cards")
        return ("build", "built", "the wonder token it takes instead")

    def barrable(self, rules) -> tuple:
        """Each named wonder, the wonder path (every named wonder: the seat takes
        wonder tokens only) and each delver card (never played)."""
        from analyzer.games import Barrable

        wonders = tuple(rules.wonder_ids)
        out = [
            Barrable(w, n, {"wonders": (w,)}, "wonders")
            for w, n in zip(wonders, rules.wonder_names, strict=True)
        ]
        out.append(
            Barrable("wonder_path", "the wonder path (every named wonder)", {"wonders": wonders},
                     "wonders")
        )  # fmt: skip
        out += [
            Barrable(d, n, {"delvers": (d,)}, "delvers")
            for d, n in zip(rules.delver_ids, rules.delver_names, strict=True)
        ]
        return tuple(out)

    def uptake_columns(self, kind: str, ids) -> tuple[str, ...]:
        return tuple(f"named_{w}" for w in ids) if kind == "wonders" else ()

    def luck_fit(self):
        from analyzer.unearth.luck_fit import FIT

        return FIT

    # ----------------------------------------------------------------- the web page

    def web_page(self) -> str | None:
        from importlib import resources

        return resources.files(__package__).joinpath("web", "page.html").read_text("utf-8")

    def web_warm_up(self):
        # the tree engine (small questions), the kernel (a question past 2**21 roll
        # sequences), the exact advice and the rollouts of the deep advice
        return (
            ("odds", {"claim": 17, "dice": "a:d8,b:d6,a:d6,b:d4,a:d6,b:d6,a:d4"}),
            ("odds", {"claim": 30, "dice": "a:d8,b:d8,a:d8,b:d8,a:d8,b:d8,a:d8,b:d6"}),
            ("advise", {"state": "example"}),
            ("advise", {"state": "example", "deep": True, "budget": 200, "seed": 1}),
        )

    # ----------------------------------------------------------------- reports

    def derive(self, games: pd.DataFrame) -> pd.DataFrame:
        kinds = [f"wonders_{k}" for k in ("lesser", "greater", "named")]
        if "wonders_total" in games or not all(k in games for k in kinds):
            return games
        if all(games[k].dtype.kind in "iu" for k in kinds):  # the row sum, without pandas'
            import numpy as np

            return games.assign(wonders_total=sum(games[k].to_numpy(np.int64) for k in kinds))
        return games.assign(wonders_total=games[kinds].sum(axis=1))

    def exact_tables(self, cells) -> dict[str, pd.DataFrame]:
        """Exact single-roll claim odds for cell 0, and for every cell whose ruins,
        components or end-of-age cards differ from cell 0's."""
        try:
            from analyzer.unearth.odds import dice_to_claim_table
        except ImportError:  # pragma: no cover - the odds module is part of the game
            return {}
        prefixes = ("ruins.", "components.", "end_of_age.")

        def key(cell) -> dict:
            return {p: v for p, v in cell.overrides.items() if p.startswith(prefixes)}

        frames = []
        for cell in cells:
            if cell is not cells[0] and key(cell) == key(cells[0]):
                continue
            t = dice_to_claim_table(cell.rules).copy()
            t.insert(0, "cell", cell.index)
            frames.append(t)
        import pandas as pd

        return {"claims_exact": pd.concat(frames, ignore_index=True)}

    def charts(self, tables, info, stamp) -> list:
        from analyzer.report import charts as generic
        from analyzer.unearth import charts

        t = tables
        out = []
        if "score_parts" in t:  # the generic chart with wonders built beside it
            fig = generic.score_parts(
                t["score_parts"],
                stamp,
                t.get("wonders"),
                labels=info.get("labels", {}),
                side_titles=(
                    "Wonders built",
                    "wonder kind (total = all kinds)",
                    "mean wonders built per seat-game",
                ),
            )
            out.append(("score_parts", fig))
        if "named_wonders" in t:
            out.append(("named_wonders", charts.named_wonders(t["named_wonders"], stamp)))
        if "delvers" in t:
            out.append(("delvers", charts.delvers(t["delvers"], stamp)))
        if "end_of_age" in t:
            out.append(("end_of_age", charts.end_of_age(t["end_of_age"], stamp)))
        if "claims_dice" in t:
            fig = charts.claims(t["claims_dice"], t["claims_faces"], t["claims_tiebreak"], stamp)
            out.append(("claims", fig))
        if "claims_exact" in t:
            ex = t["claims_exact"]
            if "cell" in ex:
                ex = ex[ex["cell"] == ex["cell"].min()]
            out.append(("claims_exact", charts.claims_exact(ex, stamp)))
        return out

    def table_pages(self):
        return (
            ("claims_tiebreak", "Claims: dice and tiebreaks", "from play"),
            ("claims_exact", "Claims: exact single-roll odds", "no sampling error"),
            (
                "named_wonders",
                "Named wonders",
                "win_builders / win_others: seats that built it and the rest; association, not "
                "its effect (its worth: scenarios/eternal_flame.toml)",
            ),
            (
                "delvers",
                "Delver cards",
                "win_played / win_not_played: seats that played it and the rest; association, "
                "not its effect (its worth: a comparison with copies = 0)",
            ),
            ("end_of_age", "End-of-age card", "per game"),
        )

    def title_notes(self, tables) -> list[str]:
        if "claims_exact" not in tables:
            return ["", "Exact claim odds: not available (analyzer.unearth.odds missing)."]
        return []
