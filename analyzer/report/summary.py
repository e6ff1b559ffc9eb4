"""The words around a report: the title page's settings, the headlines, ``summary.md``.

:func:`title_lines` says how the report was made (game, scenario, games, seed,
versions, rules), :func:`headlines` gives the few numbers a reader looks for
first, and :func:`summary_markdown` writes ``summary.md``: the findings, the
charts and the tables in Markdown.
"""

from __future__ import annotations

import json

import pandas as pd

from analyzer.games import DEFAULT_GAME, load_game
from analyzer.report import balance_page
from analyzer.report.findings_view import findings_markdown
from analyzer.report.info import make_stamp, plays_games, section_notes, versions_text
from analyzer.report.table_display import display_table, table_pages
from analyzer.studies import landscape, sections
from analyzer.tables import findings

#: assumed values listed on the first page; the rest are on their own page
TITLE_ASSUMED = 8


def title_lines(tables: dict[str, pd.DataFrame], info: dict) -> list[str]:
    """Text of the title page: what was run, how, and the headline results."""
    sc = info["scenario"]
    lines = [sc.get("description") or "", ""]
    lines.append(f"scenario file   {sc['path']}")
    if plays_games(info):
        lines.append(f"players         {sc['players']}")
        if sc.get("fields"):
            for f in info.get("fields") or sc["fields"]:
                who = (
                    f"line-up {', '.join(f['lineup'])} (rotation: {f['rotation']})"
                    if f.get("lineup")
                    else f"strategies {', '.join(f['strategies'])}"
                )
                params = f.get("strategy_params") or {}
                more = f", strategy_params {json.dumps(params)}" if params else ""
                per = (
                    f", {f['games_per_order']:,} games per seat order"
                    if f.get("games_per_order")
                    else ""
                )
                lines.append(f"field           {f['label']}: {who}{more}{per}")
        elif sc.get("lineup"):
            lines.append(
                f"line-up         {', '.join(sc['lineup'])} (rotation: {sc['rotation']}, "
                f"{info.get('games_per_order', 0):,} games per seat order)"
            )
        else:
            lines.append(f"strategies      {', '.join(sc['strategies'])}")
        if sc.get("strategy_params"):
            lines.append(f"strategy_params {json.dumps(sc['strategy_params'])}")
        if info.get("intervention"):
            iv = info["intervention"]
            where = f" (variant {iv['variant']})" if iv.get("variant") else ""
            lines.append(f"forbid          {json.dumps(iv['forbid'])}{where}")
        lines.append(
            f"games           {info['games']:,} per configuration, "
            f"{info.get('games_total', info['games']):,} in all"
        )
    lines += sections.settings_lines(info)
    lines += landscape.settings_lines(info)
    lines += balance_page.settings_lines(info)
    lines.append(f"seed            {info['seed']}")
    lines.append(f"rules           {json.dumps(info['rules'].get('rulings', {}))}")
    if sc.get("overrides"):
        lines.append(f"overrides       {json.dumps(sc['overrides'])}")
    for axis in sc.get("sweep") or []:
        lines.append(f"sweep           {axis['param']} over {axis['values']}")
    if sc.get("compare"):
        for k, v in sc["compare"].items():
            lines.append(
                f"variant {k}       {v['label']}: rules {json.dumps(v['rules'])}, "
                f"overrides {json.dumps(v['overrides'])}"
            )
    if info.get("seconds") is not None:
        rate = (
            f"{info.get('games_per_second') or 0:,.0f} games/s, "
            if info.get("games_per_second") is not None
            else ""
        )
        lines.append(
            f"run time        {info['seconds']:.1f} s, {rate}workers "
            f"{info.get('workers') or 'all cores'}"
        )
    lines.append(f"versions        analyzer {info['analyzer_version']}, {versions_text(info)}")
    assumed = info.get("assumed") or []
    if assumed:
        lines.append(
            f"assumed values  {len(assumed)} not given by the rulebook (page 'Assumed values', "
            "tables/assumed_values.csv)"
        )
    if plays_games(info):
        lines += load_game(info.get("game", DEFAULT_GAME)).title_notes(tables)
    if assumed:
        lines += ["", "Assumed values (not in the rulebook; change them in a scenario file)", ""]
        for a in assumed[:TITLE_ASSUMED]:
            lines.append(f"  {a['key']} = {a['value']}"[:110])
        if len(assumed) > TITLE_ASSUMED:
            lines.append(
                f"  ... and {len(assumed) - TITLE_ASSUMED} more: every one with its note is on "
                "the page 'Assumed values' and in tables/assumed_values.csv"
            )
    return lines


def headlines(tables: dict[str, pd.DataFrame], info: dict) -> list[str]:
    """A few sentences with the main estimates."""
    out = []
    fp = tables.get("first_player")
    if fp is not None:
        for _, r in fp.iterrows():
            verdict = "differs from" if r["significant"] else "is consistent with"
            out.append(
                f"{r['label']}: first player wins {r['seat0_win']:.3f} "
                f"[{r['seat0_win_low']:.3f}, {r['seat0_win_high']:.3f}] of {int(r['games']):,} "
                f"games; {verdict} the fair share {r['fair']:.3f}."
            )
    st = tables.get("strategies")
    if st is not None and st["strategy"].nunique() > 1:
        for label, sub in st.groupby("label", sort=False):
            best = sub.sort_values("win_rate", ascending=False).iloc[0]
            out.append(
                f"{label}: best strategy {best['strategy']} wins {best['win_rate']:.3f} "
                f"[{best['win_rate_low']:.3f}, {best['win_rate_high']:.3f}] of its seat-games."
            )
    comp = tables.get("comparison")
    if comp is not None:
        sig = comp[comp["significant"]]
        out.append(f"comparison: {len(sig)} of {len(comp)} paired differences exclude 0.")
        for _, r in sig.head(6).iterrows():
            out.append(
                f"    {r['metric']} ({r['scope']}): {r['diff']:+.3f} "
                f"[{r['diff_low']:+.3f}, {r['diff_high']:+.3f}]"
            )
    return out


def summary_markdown(
    tables: dict[str, pd.DataFrame],
    info: dict,
    chart_names: list[str],
    found: findings.Findings | None = None,
) -> str:
    """``summary.md``: the findings, then settings and the main tables as Markdown."""
    sc = info["scenario"]
    if found is None:
        found = findings.answer(tables, info)
    lines = [
        f"# {sc['name']}",
        "",
        sc.get("description") or "",
        "",
        f"_{make_stamp(info)}_",
        "",
    ]
    balance = balance_page.doc_of(info)
    if balance:  # a [balance] run: its answer first
        lines += ["## The answer", ""] + balance_page.answer_markdown(balance)
    lines += ["## Findings", ""]
    lines += findings_markdown(found) if plays_games(info) else []
    for heading, sentences in section_notes(info, found):
        lines += [f"**{heading}.** " + " ".join(sentences), ""]
    if not plays_games(info):
        lines += ["**Whose play these numbers describe.** " + " ".join(found.whose_play), ""]
        lines += ["**What was assumed.** " + " ".join(found.assumed), ""]
    lines += ["## Settings", ""]
    lines += [f"    {s}" for s in title_lines(tables, info)[2:]]
    lines += ["", "## Main tables (95% intervals)", ""]
    for name, df, title, note in balance_page.display_items(info) + sections.display_items(info):
        if name != "tune_trials":
            lines += [f"### {title}", "", f"_{note}_" if note else "", _markdown(df), ""]
    for name, title, _ in table_pages(info):
        if name in ("claims_exact", "sweep", "assumed_values") or name not in tables:
            continue
        lines += [f"### {title}", "", _markdown(display_table(tables[name])), ""]
    lines += [
        "## Files",
        "",
        "- `report.pdf`: findings, then every chart and table",
        "- `report.html`: the same in one file for a browser (charts embedded, tables sortable)",
    ]
    lines += [f"- `charts/{n}.png`" for n in chart_names]
    lines += [f"- `tables/{n}.csv`" for n in tables]
    if info.get("ladder"):
        lines.append(
            f"- `{sections.LADDER_DIR}/ratings.csv`, `matrix.csv`, `matrix_wide.csv`, "
            "`ladder.json`: the ladder's ratings and head-to-head matrix"
        )
    if info.get("tune"):
        lines.append(
            f"- `{sections.TUNE_DIR}/tune.toml`, `trials.csv`: the tuning's result "
            "(the best row, its confirmation, every trial)"
        )
    if balance:
        lines.append(
            f"- `{balance_page.BALANCE_JSON}`: the balance answer (recommended values, "
            "intervals, before and after, the certificate)"
        )
    lines += [
        "- `data/*.parquet`: per-game tables and the aggregate (for `analyzer report`)",
        "- `manifest.json`: scenario as resolved, seed, versions, timing",
        "",
    ]
    return "\n".join(lines)


def _markdown(df: pd.DataFrame, max_rows: int = 40) -> str:
    part = df.head(max_rows)
    head = "| " + " | ".join(str(c) for c in part.columns) + " |"
    sep = "|" + "|".join("---" for _ in part.columns) + "|"
    rows = ["| " + " | ".join(str(v) for v in r) + " |" for r in part.itertuples(index=False)]
    more = ["", f"({len(df) - max_rows} more rows in the CSV)"] if len(df) > max_rows else []
    return "\n".join([head, sep, *rows, *more])
