"""mybot in lodam_p2p's arena, used as a library: both games, no errors, replayable."""

from __future__ import annotations

import lodam_mybot
import pytest

from lodam_p2p.arena import build_config, run_arena
from lodam_p2p.arena.report import to_json
from lodam_p2p.bots import BotRegistry
from lodam_p2p.bots.manager import new_plugin_manager


def registry() -> BotRegistry:
    """Only this plugin: the test does not depend on what else is installed."""
    manager = new_plugin_manager()
    manager.register(lodam_mybot)
    return BotRegistry(manager)


@pytest.mark.parametrize("game", ["lodam", "lorum"])
def test_it_plays_whole_matches_without_an_error(game: str) -> None:
    result = run_arena(build_config("mybot*4", 8, 1, game=game), registry())
    assert result.matches == 8 and all(record.finished for record in result.records)
    assert [f.message for r in result.records for f in r.failures] == []


def test_a_seed_replays_the_same_matches() -> None:
    config = build_config("mybot*4", 4, 7)
    assert to_json(run_arena(config, registry())) == to_json(run_arena(config, registry()))


def test_its_option_is_read() -> None:
    config = build_config("mybot*4", 4, 7, bot_options=["mybot.first=true"])
    assert not any(r.failures for r in run_arena(config, registry()).records)
