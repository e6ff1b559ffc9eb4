"""State shared by threads of one process (``analyzer serve`` answers requests in
threads; a script may call the API from threads): no thread sees it half made."""

from __future__ import annotations

import threading
import types

from analyzer import games


def test_no_thread_sees_a_half_discovered_game_registry(monkeypatch):
    """The first look at the registry imports every game folder (each registers itself).
    A second thread asking meanwhile waits for the whole list instead of being told
    that no game exists; the discovering thread itself may ask again (a game's import
    may list the games) without waiting on itself."""
    monkeypatch.setattr(games, "_DISCOVERED", False)
    monkeypatch.setattr(games, "_FACTORIES", {})
    monkeypatch.setattr(games, "_COMMANDS", {})
    monkeypatch.setattr(games, "BROKEN", {})
    importing, release = threading.Event(), threading.Event()
    seen_inside = []

    def import_module(name):  # a game folder's import: slow, and it asks the registry
        importing.set()
        assert release.wait(30)
        seen_inside.append(games.available_games())  # the same thread: no deadlock
        games.register_game(name.rsplit(".", 1)[1], lambda: None, commands=())

    folders = [types.SimpleNamespace(ispkg=True, name=n) for n in ("alpha", "beta")]
    monkeypatch.setattr(games, "importlib", types.SimpleNamespace(import_module=import_module))
    monkeypatch.setattr(games, "pkgutil", types.SimpleNamespace(iter_modules=lambda p: folders))
    first = threading.Thread(target=games.available_games)
    first.start()
    assert importing.wait(30)
    got = []
    second = threading.Thread(target=lambda: got.append(games.available_games()))
    second.start()
    second.join(0.3)  # the second asks while the first is still importing
    release.set()
    first.join(30)
    second.join(30)
    assert got == [("alpha", "beta")]
    assert seen_inside == [(), ("alpha",)]
