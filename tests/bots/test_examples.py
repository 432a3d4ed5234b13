"""The shipped cross-game example bot and the bot template package work as documented."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from lodam_p2p.arena import build_config, run_arena
from lodam_p2p.bots import Bot, BotRegistry
from lodam_p2p.games import get_game, lodam

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "bots"
TEMPLATE = ROOT / "docs" / "bot-template"


def from_folder(folder: Path) -> BotRegistry:
    """The bots of ``folder`` alone, loaded as a plugin folder (nothing installed)."""
    return BotRegistry.load([folder], entry_points=False, default_dirs=False)


@pytest.mark.parametrize(("game", "lineup"), [("lodam", "lowest*4"), ("lorum", "lowest*4")])
def test_the_example_bot_plays_both_games_in_the_arena(game: str, lineup: str) -> None:
    registry = from_folder(EXAMPLES)
    assert registry.get("lowest").plays(game)
    result = run_arena(build_config(lineup, 8, 3, game=game), registry)
    assert result.matches == 8 and all(record.finished for record in result.records)
    assert [f.message for r in result.records for f in r.failures] == []


def test_the_example_bot_compares_lodam_cards_by_the_tables_rank_order() -> None:
    registry = from_folder(EXAMPLES)
    bot = registry.get("lowest").make(0, 0, game="lodam")
    assert isinstance(bot, Bot)
    game = get_game("lodam")
    options = lodam.Options(rank_order=lodam.RankOrder.PARLETT)
    match = game.start_match(options, 3, 0)
    deal = game.new_deal(match, list(game.pack(match)))
    while deal.view(deal.to_act).awaiting is not lodam.Decision.PLAY:
        deal.apply(deal.default_action())
    view = deal.view(deal.to_act)
    chosen = bot.decide(view)
    plays = [a for a in view.legal if isinstance(a, lodam.Play)]
    weakest = min(lodam.rank_strength(p.card, options.rank_order) for p in plays)
    assert lodam.rank_strength(chosen.card, options.rank_order) == weakest


def test_the_template_declares_its_module_as_an_entry_point() -> None:
    project = tomllib.loads((TEMPLATE / "pyproject.toml").read_text(encoding="utf-8"))
    points = project["project"]["entry-points"]["lodam_p2p.bots"]
    assert points == {"mybot": "lodam_mybot"}
    assert (TEMPLATE / "lodam_mybot.py").is_file()
    assert project["tool"]["setuptools"]["py-modules"] == ["lodam_mybot"]


def test_the_template_bot_loads_from_its_folder_and_plays_both_games() -> None:
    registry = from_folder(TEMPLATE)
    bot = registry.get("mybot")
    assert bot.plays("lodam") and bot.plays("lorum") and bot.budget == 0.5


def test_the_templates_own_tests_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TEMPLATE))
    monkeypatch.delitem(sys.modules, "lodam_mybot", raising=False)
    tests: Any = _load_template_tests()
    for game in ("lodam", "lorum"):
        tests.test_it_plays_whole_matches_without_an_error(game)
    tests.test_a_seed_replays_the_same_matches()
    tests.test_its_option_is_read()


def _load_template_tests() -> object:
    spec = importlib.util.spec_from_file_location(
        "bot_template_tests", TEMPLATE / "tests" / "test_mybot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
