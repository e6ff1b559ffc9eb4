"""The HTML report: one self-contained file beside ``report.pdf``.

Everything is inside the file: the charts as base64 PNG ``<img>`` (the same
images as ``charts/*.png``), the styles in one ``<style>`` element and a few
lines of script that sort a table when its header is clicked. It links to
nothing, loads no font, script or image from elsewhere, and opens offline in any
browser. Built from the same findings (:mod:`analyzer.tables.findings`), figures and
tables as the PDF by :func:`analyzer.report.write_report`.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence

import pandas as pd

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto;
       max-width: 1100px; padding: 1.5em; color: #111; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; overflow-wrap: anywhere; }  /* long names wrap */
h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
h3 { margin-bottom: 0.3em; } .sub { color: #333; } .stamp { color: #555; font-size: 0.8em; }
p.answer { font-size: 1.3em; font-weight: bold; margin: 0.4em 0 0.8em; }
ul.findings { list-style: none; padding-left: 0.4em; } ul.findings li { margin: 0.3em 0; }
.sig::before { content: "\\25CF  "; color: #D55E00; }
.ns::before { content: "\\25CB  "; color: #0072B2; }
.ns { color: #333; } .method { font-size: 0.85em; color: #444; }
figure { margin: 1.2em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { font-weight: bold; margin-bottom: 0.3em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1.2em;
        display: block; max-width: 100%; overflow-x: auto; }  /* it scrolls, not the page */
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: right; }
th { background: #e8e8e8; cursor: pointer; user-select: none; }
th.asc::after { content: " \\25B2"; } th.desc::after { content: " \\25BC"; }
td.text { text-align: left; } nav a { margin-right: 0.8em; }
nav { display: flex; flex-wrap: wrap; row-gap: 0.3em; }  /* a narrow screen wraps the links */
p { overflow-wrap: break-word; }  /* a long override path breaks, not the page */
pre { font-size: 0.8em; overflow-x: auto; }
p.verdict { font-weight: bold; margin: 0.2em 0 0.4em; }
dl.glossary dt { font-weight: bold; } dl.glossary dd { margin: 0 0 0.5em 1.2em; }
details summary { cursor: pointer; color: #0072B2; margin-left: 0.4em; }
"""

#: sorts a table by the clicked column: numbers (%, commas, leading +, "[" tails ignored) as numbers
SCRIPT = """
document.querySelectorAll("table.sortable th").forEach(function (th) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0], col = th.cellIndex;
    var asc = !th.classList.contains("asc");
    table.querySelectorAll("th").forEach(function (h) { h.classList.remove("asc", "desc"); });
    th.classList.add(asc ? "asc" : "desc");
    function key(row) {
      var t = row.cells[col].textContent.trim(), n = parseFloat(t.replace(/[,%+]/g, ""));
      return isNaN(n) ? t.toLowerCase() : n;
    }
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a), y = key(b);
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""


def esc(text) -> str:
    return html.escape(str(text), quote=True)


def table_html(df: pd.DataFrame, table_id: str) -> str:
    """A sortable ``<table>``; text columns left-aligned."""
    head = "".join(f"<th>{esc(c)}</th>" for c in df.columns)
    rows = []
    for row in df.itertuples(index=False):
        cells = []
        for v in row:
            text = str(v)
            numeric = text.replace(",", "").replace("%", "").lstrip("+-").split(" ")[0]
            cls = "" if numeric.replace(".", "", 1).isdigit() else ' class="text"'
            cells.append(f"<td{cls}>{esc(text)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (
        f'<table class="sortable" id="{esc(table_id)}"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def png_img(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{esc(alt)}">'


#: how a text block of a PDF page is set in HTML: (tag, class)
BLOCK_TAGS = {
    "answer": ("p", "answer"),
    "verdict": ("p", "verdict"),
    "h": ("h3", ""),
    "p": ("p", ""),
    "lead": ("p", ""),
    "sig": ("p", "sig"),
    "ns": ("p", "ns"),
    "small": ("p", "method"),
}


def answer_html(question: str, blocks, charts) -> list[str]:
    """A balance run's answer under its question: the same blocks of words as the
    PDF's page 1, then its charts."""
    out = [f'<h2 id="answer">{esc(question or "Answer")}</h2>']
    for style, text in blocks:
        if style in BLOCK_TAGS:
            tag, cls = BLOCK_TAGS[style]
            attr = f' class="{cls}"' if cls else ""
            out.append(f"<{tag}{attr}>{esc(text)}</{tag}>")
    for name, chart_title, png in charts:
        out.append(
            f'<figure id="chart-{esc(name)}"><figcaption>{esc(chart_title)}</figcaption>'
            f"{png_img(png, chart_title)}</figure>"
        )
    return out


def report_html(
    *,
    title: str,
    subtitle: str,
    stamp: str,
    questions: Sequence[tuple[str, Sequence[tuple[bool, str]]]],
    notes: Sequence[tuple[str, Sequence[str]]],
    method: str,
    charts: Sequence[tuple[str, str, bytes]],
    tables: Sequence[tuple[str, str, str, pd.DataFrame]],
    settings: Sequence[str],
    lead: Sequence[tuple[str, Sequence[str]]] = (),
    glossary: Sequence[tuple[str, str]] = (),
    shown: int = 4,
    answer: tuple[str, Sequence[tuple[str, str]], Sequence[tuple[str, str, bytes]]] | None = None,
) -> str:
    """The whole page. ``questions``: ``[(question, [(significant, sentence)])]``;
    ``notes``: ``[(heading, [lines])]`` (whose play, assumed); ``charts``:
    ``[(name, title, png bytes)]``; ``tables``: ``[(id, title, note, display table)]``;
    ``lead``: ``[(heading, [lines])]`` shown before the questions (the field of
    players). A question may carry a third item: lines said after its findings
    (whether the answer holds in every field), and a fourth: its verdict in one
    line, said first. Findings after the first ``shown`` fold away;
    ``glossary``: ``[(term, meaning)]``, the words the page uses; ``answer``: a
    balance run's answer, said before everything else: its question, its blocks ``[(style, text)]``
    (the PDF's page 1, :func:`analyzer.report.balance_page.answer_blocks`) and its
    charts ``[(name, title, png bytes)]``."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f'<p class="sub">{esc(subtitle)}</p>',
        f'<p class="stamp">{esc(stamp)}</p>',
        "<nav>" + ('<a href="#answer">Answer</a>' if answer else "")
        + '<a href="#findings">Findings</a><a href="#charts">Charts</a>'
        '<a href="#glossary">Words</a><a href="#tables">Tables</a>'
        '<a href="#settings">Settings</a></nav>',
    ]  # fmt: skip
    if answer:
        out += answer_html(*answer)
    out.append('<h2 id="findings">Findings</h2>')
    for heading, lines in lead:
        out.append(f"<h3>{esc(heading)}</h3>")
        out += [f"<p>{esc(line)}</p>" for line in lines]
    for i, (question, items, *more) in enumerate(questions):
        after = more[0] if more else ()
        verdict = more[1] if len(more) > 1 else ""
        out.append(f"<h3>{i + 1}. {esc(question)}</h3>")
        if verdict:
            out.append(f'<p class="verdict">{esc(verdict)}</p>')
        out.append('<ul class="findings">')
        for k, (significant, sentence) in enumerate(items):
            if k == shown and len(items) > shown:
                out.append("</ul>")
                out.append(f"<details><summary>{len(items) - shown} more findings</summary>")
                out.append('<ul class="findings">')
            out.append(f'<li class="{"sig" if significant else "ns"}">{esc(sentence)}</li>')
        out.append("</ul>")
        if len(items) > shown:
            out.append("</details>")
        for line in after:
            out.append(f"<p>{esc(line)}</p>")
    for heading, lines in notes:
        out.append(f"<h3>{esc(heading)}</h3>")
        out += [f"<p>{esc(line)}</p>" for line in lines]
    out.append(f'<p class="method">{esc(method)}</p>')
    if glossary:
        out.append('<h2 id="glossary">Words used here</h2><dl class="glossary">')
        for term, meaning in glossary:
            out.append(f"<dt>{esc(term)}</dt><dd>{esc(meaning)}</dd>")
        out.append("</dl>")
    out.append('<h2 id="charts">Charts</h2>')
    for name, chart_title, png in charts:
        out.append(
            f'<figure id="chart-{esc(name)}"><figcaption>{esc(chart_title)}</figcaption>'
            f"{png_img(png, chart_title)}</figure>"
        )
    out.append('<h2 id="tables">Tables</h2>')
    out.append('<p class="method">Click a column\'s header to sort by it.</p>')
    for table_id, table_title, note, df in tables:
        out.append(f"<h3>{esc(table_title)}</h3>")
        if note:
            out.append(f'<p class="method">{esc(note)}</p>')
        out.append(table_html(df, f"table-{table_id}"))
    out.append('<h2 id="settings">Settings</h2>')
    out.append("<pre>" + esc("\n".join(settings)) + "</pre>")
    out.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(out) + "\n"
