"""docs/games.md names everything a game must state."""

from __future__ import annotations

from pathlib import Path

from lodam_p2p.games import Game

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games.md"


def test_every_abstract_method_of_game_is_in_the_guide() -> None:
    guide = DOCS.read_text(encoding="utf-8")
    required = [*sorted(Game.__abstractmethods__), "seats", "options_type", "illegal_action"]
    missing = [name for name in required if f"`{name}`" not in guide]
    assert not missing, f"missing from docs/games.md: {missing}"
