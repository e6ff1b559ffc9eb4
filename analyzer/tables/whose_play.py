"""Whose play the numbers describe, and what the run assumed.

The lines a report puts before its findings: the strategies and the parameter
rows they played, with the versions (:func:`whose_play`), the field of players in
a line per field (:func:`field_lines`), and the rulings, changed values and
values no rulebook gives that the run assumed (:func:`assumed_lines`).
"""

from __future__ import annotations

import textwrap


def whose_play(info: dict, game) -> list[str]:
    """Sentences saying whose play the numbers describe: strategies, their
    parameters, the versions, and any strategy parameter the scenario changed."""
    sc = info.get("scenario") or {}
    rows = {r["name"]: r for r in info.get("strategy_rows") or []}
    if not rows:  # a run saved before strategy rows were recorded: the shipped ones
        players = sc.get("players") or getattr(game, "min_players", 2)
        rows = {
            s.name: {
                "name": s.name,
                "description": s.description,
                "params": s.params_for(players),
            }
            for s in game.strategies
        }
    used: list[str] = []
    for cell in info.get("cells", []):
        for order in cell.get("orders", []):
            used += [s for s in dict.fromkeys(order) if s not in used]
    if not used:
        used = list(sc.get("lineup") or sc.get("strategies") or [])
    # the strategies a [ladder] rates and a [tune] plays (scenario sections)
    ladder, tune = sc.get("ladder") or {}, sc.get("tune") or {}
    more = [*ladder.get("strategies", []), *([tune["strategy"]] if tune else []),
            *tune.get("field", [])]  # fmt: skip
    used += [s for s in dict.fromkeys(more) if s not in used]
    section_lines = []
    if ladder:
        section_lines.append(
            f"The ladder rates {', '.join(ladder['strategies'])} at {ladder['players']} players."
        )
    if tune:
        section_lines.append(
            f"The tuning searches {tune['strategy']}'s parameters at {tune['players']} players "
            f"against {', '.join(dict.fromkeys(tune['field']))} (from its shipped parameters)."
        )
    lines = []
    if sc.get("lineup"):
        lines.append(
            f"Line-up {', '.join(sc['lineup'])}, played in {sc.get('rotation', 'all')} seat orders."
        )
    elif sc.get("strategies"):
        s = sc["strategies"]
        if len(set(s)) == 1:
            lines.append(f"Every seat played {s[0]}.")
        else:
            lines.append(
                "Seats played " + ", ".join(f"{x} ({_nth(i)})" for i, x in enumerate(s)) + "."
            )
    lines += section_lines
    changed = sc.get("strategy_params") or {}
    for name in used:
        r = rows.get(name, {"description": "", "params": {}})
        params = ", ".join(f"{k} {_short_num(v)}" for k, v in (r.get("params") or {}).items())
        text = f"{name}: {r.get('description', '')}".rstrip(": ")
        if params:
            text += f" (parameters {params}"
            text += f"; changed here: {', '.join(changed[name])})" if name in changed else ")"
        if r.get("by_players"):
            text += f"; its shipped rows differ by player count ({', '.join(r['by_players'])})"
        lines.append(text + ".")
    lines.append(
        f"Strategies and rules as in analyzer {info.get('analyzer_version', '?')}, "
        f"rules version {info.get('rules_version', '?')}, "
        f"strategies version {info.get('strategies_version', '?')}."
    )
    return lines


def field_lines(info: dict, game) -> list[str]:
    """The field of players in a line (one per field with ``[fields]``): the
    strategies of the seats, which parameter rows they play (shipped, tuned for the
    player count, frozen) with the strategies version, and any parameter changed."""
    sc = info.get("scenario") or {}
    if not info.get("cells"):
        return []
    version = info.get("strategies_version", "?")
    rows = {r["name"]: r for r in info.get("strategy_rows") or []}
    strategies = {s.name: s for s in getattr(game, "strategies", ())}
    players = sc.get("players")
    base_params = sc.get("strategy_params") or {}
    counts = sorted({int(c["players"]) for c in info.get("cells") or [] if c.get("players")})

    def who(strats, lineup, rotation, n_orders) -> str:
        if lineup:
            return (
                f"line-up {', '.join(lineup)} played in {n_orders} {rotation or 'all'} seat orders"
            )
        strats = list(strats or [])
        if len(set(strats)) == 1:
            return f"every seat {strats[0]}"
        return "seats " + ", ".join(f"{x} ({_nth(i)})" for i, x in enumerate(strats))

    def rows_text(names, changed) -> str:
        parts = []
        for name in names:
            st = strategies.get(name)
            r = rows.get(name, {})
            if st is not None and st.frozen:
                text = f"{name} frozen (the yardstick's fixed row)"
            elif st is not None and not st.params:
                text = f"{name} (no parameters)"
            elif r.get("by_players") and len(counts) > 1:
                each = ", ".join(str(n) for n in counts)
                text = f"{name} on its own tuned row for each player count ({each})"
            elif r.get("by_players") and (counts or players is not None):
                text = f"{name} on its tuned {counts[0] if counts else players}-player row"
            else:
                text = f"{name} on its shipped row"
            if changed.get(name):
                text += " with " + ", ".join(
                    f"{k} = {_short_num(v)}" for k, v in changed[name].items()
                )
            parts.append(text)
        return "; ".join(parts)

    def used(cells) -> list[str]:
        out: list[str] = []
        for c in cells:
            for o in c.get("orders", []):
                for x in o:
                    if x not in out:
                        out.append(x)
        return out

    cells = info.get("cells", [])
    fields = info.get("fields") or []
    iv = info.get("intervention")
    tail = f" (strategies version {version})"
    lines = []
    if fields:
        for f in fields:
            mine = [c for c in cells if c["index"] in f.get("cells", [])]
            changed = {**base_params, **(f.get("strategy_params_played") or {})}
            players_text = who(f["strategies"], f["lineup"], f["rotation"], f["orders"])
            lines.append(
                f"Field {f['label']}: {players_text}; {rows_text(used(mine), changed)}{tail}."
            )
    else:
        n_orders = len({tuple(o) for o in cells[0].get("orders", [])}) if cells else 1
        lines.append(
            f"Field: {who(sc.get('strategies'), sc.get('lineup'), sc.get('rotation'), n_orders)}; "
            f"{rows_text(used(cells), base_params)}{tail}."
        )
    if iv:
        things = ", ".join(
            info.get("labels", {}).get(x, x) for ids in iv["things"].values() for x in ids
        )
        where = f", variant {iv['variant_label']}" if iv.get("variant_label") else ""
        kinds = getattr(game, "interventions", {}) or {}
        what = "; ".join(kinds[k] for k in iv["things"] if k in kinds)
        lines.append(
            f"Intervention{where}: {iv['target']} forbidden {things}"
            + (f" ({what})." if what else ".")
        )
    return lines


def _nth(seat: int) -> str:
    """A seat (from 0) in people's words: ``first player``."""
    names = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
    return f"{names[seat] if seat < len(names) else f'#{seat + 1}'} player"


def _short_num(v) -> str:
    return f"{float(v):g}" if isinstance(v, int | float) else str(v)


def assumed_lines(info: dict) -> list[str]:
    """Values the run assumed: rulings, changed card values, values no rulebook gives."""
    out = []
    rulings = (info.get("rules") or {}).get("rulings") or {}
    if rulings:
        text = "Rulings: " + ", ".join(f"{k} = {v}" for k, v in rulings.items())
        # the configurations that play other rulings say so (a comparison of rulings)
        other = []
        for c in info.get("cells") or []:
            own = (c.get("rules") or {}).get("rulings") or {}
            diff = {k: v for k, v in own.items() if rulings.get(k) != v}
            if diff:
                other.append(f"{c['label']}: " + ", ".join(f"{k} = {v}" for k, v in diff.items()))
        if 0 < len(other) <= 4:
            text += "; except in " + "; ".join(other)
        elif other:
            text += f"; {len(other)} configurations play other rulings (page 'Settings')"
        out.append(text + ".")
    sc = info.get("scenario") or {}
    if sc.get("overrides"):
        out.append(
            "Changed from the printed game: "
            + ", ".join(f"{k} = {v}" for k, v in sc["overrides"].items())
            + "."
        )
    assumed = info.get("assumed") or []
    if assumed:
        shown = ", ".join(
            f"{a['key']} = {textwrap.shorten(str(a['value']), 40, placeholder=' …')}"
            for a in assumed[:6]
        )
        more = f" and {len(assumed) - 6} more (page 'Assumed values')" if len(assumed) > 6 else ""
        out.append(f"Assumed ({len(assumed)} values no rulebook gives): {shown}{more}.")
    else:
        out.append("Assumed values: none (every value is the rulebook's).")
    return out
