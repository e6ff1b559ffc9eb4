"""Every command's options as they were: names, flags, defaults, required.

``tests/golden/cli_options.json`` was taken from the CLI before the machinery
moved into layer folders (release 0.2); a command, option or default that changes
must change it on purpose (regenerate with ``python tests/cli/test_cli_options.py``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

GOLDEN = Path(__file__).parents[1] / "golden" / "cli_options.json"


def _params(command) -> list[dict]:
    out = []
    for p in command.params:
        default = p.default
        try:
            json.dumps(default)
        except TypeError:
            default = repr(default)
        out.append(
            {
                "name": p.name,
                "opts": list(p.opts) + list(getattr(p, "secondary_opts", [])),
                "kind": type(p).__name__,
                "default": default,
                "required": p.required,
                "multiple": bool(getattr(p, "multiple", False)),
                "is_flag": bool(getattr(p, "is_flag", False)),
            }
        )
    return out


def _walk(command, path: list[str]) -> dict[str, list[dict]]:
    out = {" ".join(path) or "analyzer": _params(command)}
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        out.update(_walk(sub, [*path, name]))
    return out


def snapshot() -> dict[str, list[dict]]:
    """``{command: its parameters}`` for every command, and for each game's own
    ``odds``/``advise`` (``"odds --game NAME"``)."""
    from typer.main import get_command

    from analyzer.cli import _register_commands, app, table

    if not app.registered_commands:  # as run_cli does: once per process
        _register_commands()
    out = _walk(get_command(app), [])
    for verb in table.TABLE_COMMANDS:
        for game in ("unearth", "colorful_treasure", "uruk"):
            command = table.GAMES[verb].get(game)
            if command is not None:
                out[f"{verb} --game {game}"] = _params(command)
    return out


def test_every_command_keeps_its_options():
    now = json.loads(json.dumps(snapshot()))
    before = json.loads(GOLDEN.read_text("utf-8"))
    assert sorted(now) == sorted(before)
    for name in before:
        assert now[name] == before[name], name


if __name__ == "__main__":
    json.dump(snapshot(), sys.stdout, indent=1, sort_keys=True)
