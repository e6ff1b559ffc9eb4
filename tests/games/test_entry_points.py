"""Games of other distributions: the registry asks importlib.metadata for their
``analyzer.games`` entry points only when an installed distribution declares
one (:func:`analyzer.games._entry_points_declared`, a text scan that keeps
importlib.metadata out of the command line's start). Its twin is
importlib.metadata itself, on the same folders."""

from __future__ import annotations

import sys
from importlib.metadata import distributions

import pytest

from analyzer.games import _entry_points_declared

DECLARED = "[console_scripts]\nx = x:main\n\n[analyzer.games]\npig = examples.pig:factory\n"
OTHER = "[console_scripts]\nx = x:main\n\n[pytest11]\ny = y\n"


def _dist(folder, name: str, entry_points: str | None) -> None:
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points)


def _metadata_says(folder) -> bool:
    """importlib.metadata's answer: some distribution in ``folder`` declares the group."""
    return any(
        ep.group == "analyzer.games"
        for d in distributions(path=[str(folder)])
        for ep in d.entry_points
    )


@pytest.mark.parametrize(
    "dists",
    [
        [("a", DECLARED)],
        [("a", OTHER), ("b", None), ("c", DECLARED)],
        [("a", OTHER)],
        [("a", None)],
        [],
    ],
)
def test_the_scan_answers_as_importlib_metadata(tmp_path, monkeypatch, dists):
    for name, text in dists:
        _dist(tmp_path, name, text)
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(tmp_path / "missing")])
    assert _entry_points_declared() == _metadata_says(tmp_path)


def test_a_zip_on_the_path_is_left_to_importlib_metadata(tmp_path, monkeypatch):
    archive = tmp_path / "game.zip"
    archive.write_bytes(b"PK\x05\x06" + b"\x00" * 18)  # an empty zip
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert _entry_points_declared()
