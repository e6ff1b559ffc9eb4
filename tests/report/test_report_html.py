"""``report.html``: one self-contained file with every chart embedded, sortable
tables, the findings, and no reference to anything outside the file."""

from __future__ import annotations

import base64
import json
from html.parser import HTMLParser

import pytest

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.cli import run_cli

SCENARIO = """
game = "coin"
name = "coins"
description = "is the lucky coin better? <b>not bold</b>"
players = 3
strategies = ["fair", "lucky", "fair"]
games = 300
seed = 2
[compare.a]
label = "p 0.6"
[compare.b]
label = "p 0.7"
overrides = { "coin.p_lucky" = 0.7 }
"""


class Page(HTMLParser):
    """Collects tags, attributes, images, tables and the text of a page."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


@pytest.mark.slow
def test_html_report_is_self_contained(tmp_path):
    src = tmp_path / "coins.toml"
    src.write_text(SCENARIO)
    out = tmp_path / "r"
    assert run_cli(["run", str(src), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert "report.html" in manifest["files"]
    page = Page()
    page.feed((out / "report.html").read_text("utf-8"))
    page.close()
    tags = [t for t, _ in page.tags]
    assert tags[0] == "html" and "link" not in tags and "iframe" not in tags

    # every chart of the report is embedded, byte for byte, and nothing else is an image
    charts = sorted(p for p in out.glob("charts/*.png"))
    assert len(charts) >= 5
    images = [a for t, a in page.tags if t == "img"]
    assert len(images) == len(charts)
    embedded = {base64.b64decode(a["src"].split(",", 1)[1]) for a in images}
    assert embedded == {p.read_bytes() for p in charts}
    assert all(a["src"].startswith("data:image/png;base64,") and a.get("alt") for a in images)

    # nothing points outside the file: no src/href other than data: or #anchors
    for tag, attrs in page.tags:
        for key in ("src", "href", "action", "srcset", "poster"):
            value = attrs.get(key)
            if value is not None:
                assert value.startswith(("data:", "#")), (tag, key, value)
        assert not (tag == "script" and "src" in attrs)
    assert "http://" not in "".join(page.text) and "https://" not in "".join(page.text)

    # tables are sortable; the findings and the comparison are there; text is escaped
    tables = [a for t, a in page.tags if t == "table"]
    assert tables and all(a.get("class") == "sortable" for a in tables)
    assert any(a.get("id") == "table-findings" for a in tables)
    assert any(a.get("id") == "table-comparison" for a in tables)
    text = " ".join(page.text)
    first = manifest["findings"]["findings"][0]["text"]
    assert first in text and "What does p 0.7 change, against p 0.6?" in text
    assert "<b>not bold</b>" in text and ("b", {}) not in page.tags
