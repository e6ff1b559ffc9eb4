"""The generic questions: those every game can answer from the generic tables.

Is the first seat favoured (:data:`FIRST_PLAYER`), is any other seat
(:data:`SEATS`), how do the strategies fare (:data:`STRATEGIES`), what does a
variant change (:data:`VARIANT_EFFECT`, also an intervention's paired effect)
and what does a sweep's parameter change (:data:`SWEEP_EFFECT`); :data:`GENERIC`
lists them in order. Each reads report tables only
(:mod:`analyzer.tables.report_tables`) and answers in findings
(:mod:`analyzer.tables.answers`).
"""

from __future__ import annotations

import math

from analyzer.tables.answers import (
    ORDINALS,
    _interval,
    _points,
    cell_suffix,
    count,
    difference_finding,
    direction,
    independent_difference,
    num,
    pct,
    pct_interval,
    rate_finding,
    seat_name,
)
from analyzer.tables.finding import Finding, Question
from analyzer.tables.landscape import LANDSCAPE
from analyzer.tables.restricted import DOMINANCE


def _first_player(tables, info, params) -> list[Finding]:
    fp = tables.get("first_player")
    if fp is None:
        return []
    out = []
    for _, r in fp.iterrows():
        eff = r["seat0_win"] - r["fair"]
        text = (
            f"The first player wins {pct(r['seat0_win'])} "
            f"{pct_interval(r['seat0_win_low'], r['seat0_win_high'])} of "
            f"{int(r['players'])}-player games{cell_suffix(info, r['label'])}, "
            f"{abs(100 * eff):.1f} points {direction(eff)} a fair {pct(r['fair'], 0)} "
            f"(n = {count(r['games'])} games)."
        )
        text += _adjusted_sentence(r)
        change = paired_change(tables, info, r["cell"], "seat=0", "win", "first_player",
                               "first player's win rate", "the first player's")  # fmt: skip
        if change is not None:
            out.append(change)
            continue
        out.append(
            rate_finding(
                "first_player",
                r["label"],
                "first player's win rate",
                text,
                r["seat0_win"],
                r["seat0_win_low"],
                r["seat0_win_high"],
                r["games"],
                r["fair"],
                "games",
            )
        )
    return out


def variant_bases(info: dict) -> dict[int, tuple[int, int]]:
    """Each variant cell of a comparison -> ``(base cell, sign)``: the cell it is
    judged against (the printed game's, in its field of players) and the sign
    that turns the pair's paired difference (``b - a``) into "variant minus
    base". The base is variant ``a``, or, in a two-variant comparison whose ``a``
    changes the game and whose other variant is the printed game, that one."""
    out: dict[int, tuple[int, int]] = {}
    printed = printed_variant(info)
    variant_of = {
        int(c["index"]): (c.get("params") or {}).get("variant") for c in info.get("cells") or []
    }
    pairs = [tuple(int(x) for x in p) for p in info.get("pairs") or []]
    n_variants = len((info.get("scenario") or {}).get("compare") or {})
    for a, b in pairs:
        if (
            n_variants == 2
            and printed is not None
            and variant_of.get(b) == printed != variant_of.get(a)
        ):
            out[a] = (b, -1)
        else:
            out[b] = (a, 1)
    return out


def printed_variant(info: dict) -> str | None:
    """The key of the comparison's variant that plays the game as printed (no rules,
    overrides, forbidden things or strategies of its own), or None."""
    compare = (info.get("scenario") or {}).get("compare") or {}
    for key, v in compare.items():
        if not any((v or {}).get(k) for k in ("rules", "overrides", "forbid", "strategies")):
            return str(key)
    return None


def sweep_bases(info: dict) -> dict[int, int]:
    """Each swept value's cell after the first -> the first value's cell it is paired
    with (``info["sweep_pairs"]``, table ``sweep_paired``; none when the sweep keeps
    no pairs: over player counts, or a run resumed from a checkpoint without them)."""
    return {int(b): int(a) for a, b in info.get("sweep_pairs") or []}


def base_cells(info: dict) -> set[int]:
    """The cells a run's answers start from: every cell but the variants and the
    swept values judged by their paired change (:func:`variant_bases`,
    :func:`sweep_bases`)."""
    judged = {**variant_bases(info), **sweep_bases(info)}
    return {int(c["index"]) for c in info.get("cells") or []} - set(judged)


def paired_change(
    tables, info, cell: int, scope: str, metric: str, question: str, subject: str, who: str
) -> Finding | None:
    """The paired change of ``metric`` (scope ``scope``: ``seat=0``,
    ``strategy=<name>``) from a variant cell's base to the variant, as a finding of
    ``question``, or None when the cell is no variant or the comparison lacks it.
    The games of a comparison are the same games (common random numbers), so the
    change is judged by its own paired test, not by comparing two verdicts. A sweep's
    value after the first is judged likewise against the first value
    (:func:`sweep_paired_change`)."""
    base = variant_bases(info).get(int(cell))
    comp = tables.get("comparison")
    if base is None or comp is None:
        return sweep_paired_change(tables, info, cell, scope, metric, question, subject, who)
    b_cell, sign = base
    pair_cell = int(cell) if sign > 0 else b_cell
    row = comp[(comp["cell"] == pair_cell) & (comp["scope"] == scope) & (comp["metric"] == metric)]
    if not len(row):
        return None
    r = row.iloc[0]
    d = sign * float(r["diff"])
    lo, hi = sorted((sign * float(r["diff_low"]), sign * float(r["diff_high"])))
    base_mean, mine = (r["mean_a"], r["mean_b"]) if sign > 0 else (r["mean_b"], r["mean_a"])
    label, base_label = _cell_label(info, int(cell)), _cell_label(info, b_cell)
    text = (
        f"{label} instead of {base_label} changes {who} win rate by {_points(d, lo, hi)} "
        f"points ({pct(base_mean)} → {pct(mine)}; paired: the same "
        f"{count(r['pairs'])} seat-games played both ways)."
    )
    return difference_finding(
        question, label, f"change in {subject}", text, d, lo, hi, r["pairs"], base_mean,
        "paired seat-games", "share",
    )  # fmt: skip


def sweep_paired_change(
    tables, info, cell: int, scope: str, metric: str, question: str, subject: str, who: str
) -> Finding | None:
    """The paired change of ``metric`` (scope ``seat=<k>``, ``strategy=<name>``) from
    the first swept value to cell ``cell``'s (table ``sweep_paired``), as a finding of
    ``question``, or None: the cell is the first value, or the sweep kept no pairs.
    Every value plays the same games (the same seed and game indices), so a value is
    judged by its paired difference from the first, not by its own significance set
    beside the first value's."""
    first = sweep_bases(info).get(int(cell))
    comp = tables.get("sweep_paired")
    if first is None or comp is None or not len(comp):
        return None
    row = comp[(comp["cell"] == int(cell)) & (comp["cell_a"] == first)
               & (comp["scope"] == scope) & (comp["metric"] == metric)]  # fmt: skip
    if not len(row):
        return None
    r = row.iloc[0]
    d, lo, hi = float(r["diff"]), float(r["diff_low"]), float(r["diff_high"])
    label, base_label = _cell_label(info, int(cell)), _cell_label(info, first)
    unit = "seat-games" if scope.startswith("strategy=") else "games"
    text = (
        f"Going from {base_label} to {label} changes {who} win rate by {_points(d, lo, hi)} "
        f"points ({pct(r['mean_a'])} → {pct(r['mean_b'])}; paired: the same "
        f"{count(r['pairs'])} {unit} played with each value)."
    )
    return difference_finding(
        question, label, f"change in {subject}", text, d, lo, hi, r["pairs"], r["mean_a"],
        f"paired {unit}", "share",
    )  # fmt: skip


def _adjusted_sentence(r) -> str:
    """The luck-adjusted estimate beside the plain one (``docs/statistics.md``), or ''."""
    adj = r.get("seat0_win_adj", math.nan)
    ratio = r.get("var_ratio", math.nan)
    if not (isinstance(adj, float) and math.isfinite(adj) and math.isfinite(ratio)):
        return ""
    interval = pct_interval(r["seat0_win_adj_low"], r["seat0_win_adj_high"])
    return (
        f" The same answer with the dice's luck taken out: {pct(adj)} {interval}, "
        f"an interval {math.sqrt(ratio):.2f} times as wide."
    )


def _seats(tables, info, params) -> list[Finding]:
    t = tables.get("seats")
    if t is None:
        return []
    want = params.get("seat")
    out = []
    for _, r in t.iterrows():
        seat, players = int(r["seat"]), int(r["players"])
        if (want is None and seat == 0) or (want is not None and seat != want):
            continue
        eff = r["win_rate"] - r["fair"]
        text = (
            f"{seat_name(seat, players)} wins {pct(r['win_rate'])} "
            f"{pct_interval(r['win_rate_low'], r['win_rate_high'])} of {players}-player games"
            f"{cell_suffix(info, r['label'])}, {abs(100 * eff):.1f} points {direction(eff)} "
            f"a fair {pct(r['fair'], 0)} (n = {count(r['n'])} games)."
        )
        who = f"the {_nth(seat, players)} player's"
        change = paired_change(tables, info, r["cell"], f"seat={seat}", "win", "seats",
                               f"seat {seat} win rate", who)  # fmt: skip
        if change is not None:
            out.append(change)
            continue
        out.append(
            rate_finding(
                "seats",
                r["label"],
                f"seat {seat} win rate",
                text,
                r["win_rate"],
                r["win_rate_low"],
                r["win_rate_high"],
                r["n"],
                r["fair"],
                "games",
            )
        )
    return out


def _strategies(tables, info, params) -> list[Finding]:
    t = tables.get("strategies")
    if t is None:
        return []
    want = params.get("strategy")
    out = []
    for _, sub in t.groupby("cell", sort=True):
        if sub["strategy"].nunique() < 2 and want is None:
            continue
        for _, r in sub.iterrows():
            if want is not None and r["strategy"] != want:
                continue
            fair = 1.0 / float(r["players"])
            eff = r["win_rate"] - fair
            text = (
                f"{r['strategy']} wins {pct(r['win_rate'])} "
                f"{pct_interval(r['win_rate_low'], r['win_rate_high'])} of its seat-games"
                f"{cell_suffix(info, r['label'])}, {abs(100 * eff):.1f} points "
                f"{direction(eff)} a fair {pct(fair, 0)} (n = {count(r['n'])} seat-games)."
            )
            change = paired_change(tables, info, r["cell"], f"strategy={r['strategy']}", "win",
                                   "strategies", f"{r['strategy']} win rate",
                                   f"{r['strategy']}'s")  # fmt: skip
            if change is not None:
                out.append(change)
                continue
            out.append(
                rate_finding(
                    "strategies",
                    r["label"],
                    f"{r['strategy']} win rate",
                    text,
                    r["win_rate"],
                    r["win_rate_low"],
                    r["win_rate_high"],
                    r["n"],
                    fair,
                    "seat-games",
                )
            )
    return out


#: paired-difference rows a comparison reports by default: (scope, metric, subject, unit)
VARIANT_METRICS = (
    ("seat=0", "win", "the first player's win rate", "share"),
    ("all seats", "score", "the mean final score", "points"),
    ("game", "game_turns", "the game length", "turns"),
)


#: what an intervention's paired comparison reports by default: (metric, unit)
INTERVENTION_METRICS = (("win", "share"), ("score", "points"))


def _intervention_effect(comp, info, metrics) -> list[Finding]:
    """What is forbidden is worth to the seats it applies to: the paired difference
    of their win share or score, allowed minus forbidden (the same games), with
    the per-use figure (the difference divided by how often they used it where
    allowed) in the sentence."""
    iv = info.get("intervention") or {}
    thing = intervention_thing(info)
    verb, past, instead = (
        list(iv.get("words") or [])
        + ["use", "used", "what it does instead"][len(iv.get("words") or []) :]
    )[:3]
    sign = 1.0 if iv.get("variant") == "a" else -1.0  # allowed minus forbidden
    out = []
    for metric, unit in metrics:
        sub = comp[(comp["scope"] == "treated seats") & (comp["metric"] == metric)]
        per = comp[(comp["scope"] == "treated seats") & (comp["metric"] == f"{metric} per use")]
        for _, r in sub.iterrows():
            d = sign * r["diff"]
            lo, hi = sorted((sign * r["diff_low"], sign * r["diff_high"]))
            allowed, forbidden = r["mean_b"], r["mean_a"]
            if sign < 0:
                allowed, forbidden = forbidden, allowed
            where = f" ({_field_label(info, int(r['cell']))})" if info.get("fields") else ""
            if unit == "share":
                worth = f"{_points(d, lo, hi)} win points"
                means = f"{pct(allowed)} of games won when allowed, {pct(forbidden)} when not"
            else:
                worth = f"{_interval(d, lo, hi)} points of score"
                means = f"{num(allowed, 2)} points when allowed, {num(forbidden, 2)} when not"
            text = (
                f"{thing} is worth {worth} to a seat that may {verb} it, over {instead}{where}: "
                f"{means} (n = {count(r['pairs'])} paired seat-games)."
            )
            p = per[per["cell"] == r["cell"]]
            if len(p) and not math.isfinite(float(p["diff"].iloc[0])):
                text += f" Allowed, the seat never {past} it here."
            elif len(p):
                q = p.iloc[0]
                pd_ = sign * q["diff"]
                plo, phi = sorted((sign * q["diff_low"], sign * q["diff_high"]))
                each = (
                    f"{100 * pd_:+.1f} win points [{100 * plo:+.1f}, {100 * phi:+.1f}]"
                    if unit == "share"
                    else f"{_interval(pd_, plo, phi)} points"
                )
                text += (
                    f" {past.capitalize()} in {pct(q['uptake'])} of them: {each} each time, "
                    f"if all of the effect comes through that."
                )
            out.append(
                difference_finding(
                    "variant_effect",
                    r["label"],
                    f"worth of {thing} ({'win share' if unit == 'share' else 'score'})",
                    text,
                    d,
                    lo,
                    hi,
                    r["pairs"],
                    forbidden,
                    "paired seat-games",
                    unit,
                )
            )
    return out


def intervention_thing(info: dict) -> str:
    """What a run's intervention forbids, by name: ``The Eternal Flame``."""
    iv = info.get("intervention") or {}
    labels = info.get("labels", {})
    names = [labels.get(x, x) for ids in (iv.get("things") or {}).values() for x in ids]
    return " and ".join(names) or "what is forbidden"


def variant_labels(info: dict) -> list[str]:
    """The labels of a run's comparison variants, the reference (``a``) first."""
    compare = (info.get("scenario") or {}).get("compare") or {}
    if compare:
        keys = ["a", *(k for k in compare if k != "a")] if "a" in compare else list(compare)
        return [str(compare[k].get("label", k)) for k in keys]
    return [str(c["label"]) for c in info.get("cells") or []] if info.get("pairs") else []


def _variant_heading(info: dict, params: dict) -> str | None:
    """The question's heading: with an intervention, what the thing forbidden is
    worth; else what each variant changes against the first, by their labels;
    what it measures in brackets (a metric, a seat, a strategy's win rate)."""
    iv = info.get("intervention") or {}
    metric, seat, strategy = params.get("metric"), params.get("seat"), params.get("strategy")
    names = {"win": "win share", "score": "final score"}
    bits = []
    if strategy:
        bits.append(f"win rate of {strategy}")
    elif metric is not None:
        bits.append(names.get(metric, info.get("labels", {}).get(metric, metric)))
    if seat is not None:
        bits.append(f"seat {seat}")
    what = f" ({', '.join(bits)})" if bits else ""
    if iv.get("variant") and seat is None and not strategy:
        verb = (list(iv.get("words") or []) + ["use"])[0]
        return f"What is {intervention_thing(info)} worth to a seat that may {verb} it?{what}"
    labels = variant_labels(info)
    if len(labels) < 2:
        return None
    if len(labels) == 2:
        return f"What does {labels[1]} change, against {labels[0]}?{what}"
    return f"What does each of the {len(labels) - 1} variants change, against {labels[0]}?{what}"


def _field_label(info: dict, cell: int) -> str:
    """The label of a cell's field of players (its own label without fields)."""
    for c in info.get("cells", []):
        if int(c["index"]) == cell:
            key = c.get("field")
            for f in info.get("fields") or []:
                if f["key"] == key:
                    return f"field {f['label']}"
            return str(c["label"])
    return str(cell)


def _variant_effect(tables, info, params) -> list[Finding]:
    if params.get("strategy") is not None:
        return _variant_strategy(tables, info, params["strategy"])
    comp = tables.get("comparison")
    if comp is None:
        return []
    treated = (comp["scope"] == "treated seats").any() and (info.get("intervention") or {}).get(
        "variant"
    )
    if treated and params.get("seat") is None:
        metric = params.get("metric")
        if metric is None:
            return _intervention_effect(comp, info, INTERVENTION_METRICS)
        if metric in ("win", "score") or metric.startswith("pts_"):
            unit = "share" if metric == "win" else "points"
            return _intervention_effect(comp, info, ((metric, unit),))
    rows = VARIANT_METRICS
    if params.get("metric") is not None or params.get("seat") is not None:
        from analyzer.tables.aggregate import metric_scopes

        metric = params.get("metric", "win")
        scope = f"seat={params['seat']}" if params.get("seat") is not None else None
        if scope is None:
            per_game = metric_scopes(info.get("columns") or ()).get(metric) == "game"
            scope = "game" if per_game else "all seats"
            if metric == "win":
                scope = "seat=0"
        rows = ((scope, metric, _metric_name(metric, scope, info), _unit(metric)),)
    out = []
    for scope, metric, subject, unit in rows:
        sub = comp[(comp["scope"] == scope) & (comp["metric"] == metric)]
        for _, r in sub.iterrows():
            a = _cell_label(info, int(r["cell_a"]))
            if unit == "share":
                change = (
                    f"by {100 * r['diff']:+.1f} points [{100 * r['diff_low']:+.1f}, "
                    f"{100 * r['diff_high']:+.1f}] ({pct(r['mean_a'])} → {pct(r['mean_b'])})"
                )
            else:
                change = (
                    f"by {r['diff']:+.2f}{' ' + unit if unit != 'value' else ''} "
                    f"[{r['diff_low']:+.2f}, {r['diff_high']:+.2f}] "
                    f"({num(r['mean_a'], 2)} → {num(r['mean_b'], 2)})"
                )
            text = (
                f"{r['label']} instead of {a} changes {subject} {change} "
                f"(n = {count(r['pairs'])} paired games)."
            )
            if r["diff_low"] == r["diff_high"] == 0:  # no pair differs: nothing to test
                text = (
                    f"{r['label']} instead of {a} leaves {subject} unchanged in every one "
                    f"of the {count(r['pairs'])} paired games."
                )
            out.append(
                difference_finding(
                    "variant_effect",
                    r["label"],
                    subject,
                    text,
                    r["diff"],
                    r["diff_low"],
                    r["diff_high"],
                    r["pairs"],
                    r["mean_a"],
                    "paired games",
                    unit,
                )
            )
    return out


def _unit(metric: str) -> str:
    """What a compared metric's numbers are: a share, points, turns or a plain value."""
    if metric in ("win", "shared_win"):
        return "share"
    if metric in ("score", "mean_score") or metric.startswith("pts_"):
        return "points"
    if metric == "game_turns":
        return "turns"
    return "value"


def _metric_name(metric: str, scope: str, info: dict) -> str:
    names = {
        "win": "the win rate",
        "score": "the mean final score",
        "game_turns": "the game length",
        "mean_score": "the mean final score per game",
        "shared_win": "the share of shared wins",
    }
    name = names.get(metric, f"the mean {info.get('labels', {}).get(metric, metric)}")
    if scope.startswith("seat="):
        seat = scope[len("seat=") :]
        return (
            f"{name} of seat {seat}"
            if seat != "0"
            else name.replace("the ", "the first player's ", 1)
        )
    return name


def _variant_strategy(tables, info, strategy: str) -> list[Finding]:
    st = tables.get("strategies")
    pairs = info.get("pairs") or []
    if st is None or not pairs:
        return []
    out = []
    comp = tables.get("comparison")
    for a_cell, b_cell in pairs:
        paired = None
        if comp is not None:
            paired = comp[(comp["cell"] == b_cell) & (comp["scope"] == f"strategy={strategy}")
                          & (comp["metric"] == "win")]  # fmt: skip
        if paired is not None and len(paired):
            out.append(_variant_strategy_paired(info, paired.iloc[0], strategy, a_cell))
        else:  # a saved run without the paired rows of each strategy
            out += _variant_strategy_pair(st, strategy, a_cell, b_cell)
    return out


def _variant_strategy_paired(info, r, strategy: str, a_cell: int) -> Finding:
    """A variant's paired change of a strategy's win rate: the same games, the same
    seats, played both ways."""
    a = _cell_label(info, a_cell)
    text = (
        f"{r['label']} instead of {a} changes the win rate of {strategy} by "
        f"{_points(r['diff'], r['diff_low'], r['diff_high'])} points "
        f"({pct(r['mean_a'])} → {pct(r['mean_b'])}; paired: the same "
        f"{count(r['pairs'])} seat-games played both ways)."
    )
    return difference_finding(
        "variant_effect", r["label"], f"{strategy} win rate", text, r["diff"], r["diff_low"],
        r["diff_high"], r["pairs"], r["mean_a"], "paired seat-games", "share",
    )  # fmt: skip


def _variant_strategy_pair(st, strategy: str, a_cell: int, b_cell: int) -> list[Finding]:
    a = st[(st["cell"] == a_cell) & (st["strategy"] == strategy)]
    b = st[(st["cell"] == b_cell) & (st["strategy"] == strategy)]
    if not len(a) or not len(b):
        return []
    a, b = a.iloc[0], b.iloc[0]
    d, lo, hi = independent_difference(
        a["win_rate"], a["win_rate_low"], a["win_rate_high"],
        b["win_rate"], b["win_rate_low"], b["win_rate_high"],
    )  # fmt: skip
    text = (
        f"{b['label']} instead of {a['label']} changes the win rate of {strategy} by "
        f"{100 * d:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}] "
        f"({pct(a['win_rate'])} → {pct(b['win_rate'])}; n = {count(b['n'])} seat-games each, "
        "interval as if independent)."
    )
    return [
        difference_finding(
            "variant_effect",
            b["label"],
            f"{strategy} win rate",
            text,
            d,
            lo,
            hi,
            b["n"],
            a["win_rate"],
            "seat-games",
            "share",
        )  # fmt: skip
    ]


#: sweep metrics answered by default: (metric in the sweep table, subject, unit)
SWEEP_METRICS = (
    ("win rate seat 0", "the first player's win rate", "share"),
    ("mean score", "the mean final score", "points"),
    ("mean game_turns", "the game length", "turns"),
)


def _sweep_effect(tables, info, params) -> list[Finding]:
    """First swept value -> last: the paired change (the same games played with each
    value, :func:`analyzer.runs.scenario_cells.sweep_pairs`) when the run kept it for
    every game, else the two cells' intervals combined as if independent."""
    sw = tables.get("sweep")
    params_swept = info.get("sweep") or []
    if sw is None or not params_swept or "players" in params_swept:
        return []  # across player counts the first-player question answers per count
    cells = sorted(sw["cell"].unique())
    if len(cells) < 2:
        return []
    first, last = cells[0], cells[-1]
    la, lb = _cell_label(info, first), _cell_label(info, last)
    metrics = SWEEP_METRICS
    if params.get("metric") is not None:
        m = params["metric"]
        name = m if m.startswith(("mean ", "win rate")) else f"mean {m}"
        metrics = ((name, f"the {name}", "share" if name.startswith("win") else "points"),)
    out = []
    for metric, subject, unit in metrics:
        a = sw[(sw["cell"] == first) & (sw["metric"] == metric)]
        b = sw[(sw["cell"] == last) & (sw["metric"] == metric)]
        if not len(a) or not len(b):
            continue
        a, b = a.iloc[0], b.iloc[0]
        r, scope = _sweep_paired_row(tables.get("sweep_paired"), info, first, last, metric, a, b)
        seat_games = "seat-games" if scope == "all seats" else "games"
        if r is not None:
            d, lo, hi = r["diff"], r["diff_low"], r["diff_high"]
            how = f"paired: the same {count(r['pairs'])} {seat_games} played with each value"
            n, n_unit = r["pairs"], f"paired {seat_games}"
        else:
            d, lo, hi = independent_difference(
                a["estimate"], a["low"], a["high"], b["estimate"], b["low"], b["high"]
            )
            how = (
                f"n = {count(b['n'])} each; interval as if independent, so conservative: "
                "this run kept no paired differences of the same games"
            )
            n, n_unit = b["n"], seat_games
        if unit == "share":
            change = (
                f"by {100 * d:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}] "
                f"({pct(a['estimate'])} → {pct(b['estimate'])})"
            )
        else:
            change = (
                f"by {d:+.2f} {unit} [{lo:+.2f}, {hi:+.2f}] "
                f"({num(a['estimate'], 2)} → {num(b['estimate'], 2)})"
            )
        text = f"Going from {la} to {lb} changes {subject} {change} ({how})."
        out.append(
            difference_finding(
                "sweep_effect",
                lb,
                subject,
                text,
                d,
                lo,
                hi,
                n,
                a["estimate"],
                n_unit,
                unit,
            )  # fmt: skip
        )
    return out


def _sweep_paired_row(comp, info: dict, first: int, last: int, metric: str, a, b):
    """``(row, scope)``: the paired row (table ``sweep_paired``) of sweep metric
    ``metric`` (``win rate seat 0``, ``mean score``, ``mean game_turns``, ``mean
    <column>``) between cells ``first`` and ``last``, or None: no such row, or not
    every game of both cells paired (a run resumed from a checkpoint written before
    sweeps were paired); ``scope`` is the row's (``seat=0``, ``all seats``, ``game``)."""
    if metric.startswith("win rate seat "):
        scope, name = f"seat={metric[len('win rate seat ') :]}", "win"
    elif metric.startswith("mean "):
        from analyzer.tables.aggregate import metric_scopes

        name = metric[len("mean ") :]
        game_level = metric_scopes(info.get("columns") or ()).get(name) == "game"
        scope = "game" if game_level else "all seats"
    else:
        return None, ""
    if comp is None or not len(comp):
        return None, scope
    rows = comp[(comp["cell"] == last) & (comp["cell_a"] == first) & (comp["scope"] == scope)
                & (comp["metric"] == name)]  # fmt: skip
    if not len(rows):
        return None, scope
    r = rows.iloc[0]
    return (r if r["pairs"] == a["n"] == b["n"] else None), scope


def _nth(seat: int, players: int) -> str:
    """``first``, ``second``, ... ``last``: a seat (from 0) in people's words."""
    if seat == players - 1 and seat > 0:
        return "last"
    return ORDINALS[seat] if seat < len(ORDINALS) else f"#{seat + 1}"


def _cell_label(info: dict, index: int) -> str:
    for c in info.get("cells", []):
        if int(c["index"]) == int(index):
            return str(c["label"])
    return str(index)


FIRST_PLAYER = Question("first_player", "Is the first seat favoured?", _first_player)
SEATS = Question("seats", "Is any other seat favoured or held back?", _seats, ("seat",))
STRATEGIES = Question(
    "strategies", "Does any strategy win more than its fair share?", _strategies, ("strategy",)
)
VARIANT_EFFECT = Question(
    "variant_effect",
    "What does each variant change, against the first?",
    _variant_effect,
    ("metric", "seat", "strategy"),
    needs="compare",
    heading=_variant_heading,
)


def _sweep_heading(info: dict, params: dict) -> str | None:
    """The question as a sweep puts it: what changes as its parameter goes from the
    first value to the last (by name and values)."""
    swept = [p for p in info.get("sweep") or [] if p != "players"]
    cells = info.get("cells") or []
    if not swept or len(cells) < 2:
        return None
    first, last = cells[0].get("params") or {}, cells[-1].get("params") or {}

    def values(c):
        return ", ".join(str(c.get(p)) for p in swept)

    what = f" ({params['metric']})" if params.get("metric") else ""
    return (
        f"What changes as {' and '.join(swept)} goes from {values(first)} to {values(last)}?{what}"
    )


SWEEP_EFFECT = Question(
    "sweep_effect",
    "What changes from the first swept value to the last?",
    _sweep_effect,
    ("metric",),
    needs="sweep",
    heading=_sweep_heading,
)

#: the questions every game can answer from the generic tables, in order, restricted
#: play (:mod:`analyzer.tables.restricted`: a game that declares barrable things) and
#: the landscape's studies (:mod:`analyzer.tables.landscape`)
GENERIC = (FIRST_PLAYER, SEATS, STRATEGIES, VARIANT_EFFECT, SWEEP_EFFECT, DOMINANCE, *LANDSCAPE)
