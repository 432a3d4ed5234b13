"""One bot name, one plugin per game: the registry joins them, each game keeps its own
factory and options, and a bot made without naming the game picks by its views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from lodam_p2p.arena.config import build_config, check_against
from lodam_p2p.arena.runner import run_arena
from lodam_p2p.bots import BotError, BotOption, BotOptionError, BotRegistry, BotType, hookimpl
from lodam_p2p.bots.dispatch import ByGame, game_of
from lodam_p2p.bots.manager import PluginLoadError, new_plugin_manager
from lodam_p2p.games import get_game
from lodam_plugins import random_bot
from lodam_plugins.lodam import heuristic, ismcts
from lodam_plugins.lodam.heuristic import HeuristicBot
from lodam_plugins.lodam.hooks import LodamHooks
from lodam_plugins.lorum import heuristic as lorum_heuristic
from lodam_plugins.lorum import ismcts as lorum_ismcts
from lodam_plugins.lorum.heuristic import LorumHeuristicBot
from lodam_plugins.lorum.hooks import LorumHooks
from lodam_plugins.search import IsmctsBot


class Remember:
    """Keeps its options and answers the first legal move."""

    def __init__(self, *, seat: int, seed: int, options: Mapping[str, object]) -> None:
        self.options = dict(options)

    def decide(self, view: Any) -> Any:
        return view.legal[0]


class Other(Remember):
    pass


LODAM_PART = BotType("pair", "for Lodam", Remember, options=(BotOption("c", 0.35, "c"),))
LORUM_PART = BotType("pair", "for Lorum", Other,
                     options=(BotOption("c", 0.7, "c"), BotOption("rollout", "h", "r")),
                     games=("lorum",))


def _registry(*plugins: object) -> BotRegistry:
    manager = new_plugin_manager()
    for plugin in plugins:
        manager.register(plugin)
    return BotRegistry(manager)


@pytest.fixture(scope="module")
def bundled() -> BotRegistry:
    return _registry(random_bot, heuristic, ismcts, lorum_heuristic, lorum_ismcts)


def test_the_lorum_part_joins_whichever_plugin_comes_first() -> None:
    for joined in (LODAM_PART.joined(LORUM_PART), LORUM_PART.joined(LODAM_PART)):
        assert joined.all_games == ("lodam", "lorum")
        assert joined.plays("lodam") and joined.plays("lorum") and not joined.plays("skat")
        assert joined.for_game("lorum").summary == "for Lorum"
        assert joined.for_game("lodam").factory is Remember


def test_each_game_parses_its_own_options() -> None:
    joined = LODAM_PART.joined(LORUM_PART)
    assert joined.parse_options({}, "lodam") == {"c": 0.35}
    assert joined.parse_options({}, "lorum") == {"c": 0.7, "rollout": "h"}
    assert joined.parse_options({"c": "0.5"}, "lorum")["c"] == 0.5
    with pytest.raises(BotOptionError, match="has no option 'rollout'"):
        joined.parse_options({"rollout": "x"}, "lodam")
    assert joined.parse_options({"rollout": "x"}) == {"c": 0.35}, "some part declares it"
    with pytest.raises(BotOptionError, match=r"no option 'depth' \(its options: c, rollout\)"):
        joined.parse_options({"depth": "3"})
    with pytest.raises(BotOptionError, match=r"pair\.c=x"):
        joined.make(0, 1, {"c": "x"})


def test_made_for_a_game_it_is_that_game_s_bot() -> None:
    joined = LODAM_PART.joined(LORUM_PART)
    bot = joined.make(2, 5, {"c": "0.9"}, game="lorum")
    assert isinstance(bot, Other) and bot.options == {"c": 0.9, "rollout": "h"}
    with pytest.raises(BotError, match=r"does not play skat \(it plays: lodam, lorum\)"):
        joined.make(0, 1, game="skat")


def test_one_name_for_one_game_twice_is_a_clash() -> None:
    with pytest.raises(BotError, match=r"play the same game \(lorum\)"):
        LORUM_PART.joined(LORUM_PART)
    with pytest.raises(BotError, match="cannot join"):
        LODAM_PART.joined(BotType("other", "…", Other, games=("lorum",)))

    class Twice:
        @staticmethod
        @hookimpl
        def lodam_bot_types() -> list[BotType]:
            return [LORUM_PART]

    class Again:
        @staticmethod
        @hookimpl
        def lodam_bot_types() -> list[BotType]:
            return [LORUM_PART]

    with pytest.raises(PluginLoadError, match="two plugins provide a bot named 'pair'"):
        _registry(Twice, Again)


def test_the_bundled_names_play_both_games(bundled: BotRegistry) -> None:
    for name in ("heuristic", "ismcts", "random"):
        assert bundled.get(name).plays("lorum") and bundled.get(name).plays("lodam")
    assert isinstance(bundled.get("heuristic").make(0, 1, game="lorum"), LorumHeuristicBot)
    assert isinstance(bundled.get("heuristic").make(0, 1, game="lodam"), HeuristicBot)
    lodam = bundled.get("ismcts").make(0, 1, game="lodam")
    lorum = bundled.get("ismcts").make(0, 1, game="lorum")
    assert isinstance(lodam, IsmctsBot) and isinstance(lodam.hooks, LodamHooks)
    assert isinstance(lorum, IsmctsBot) and isinstance(lorum.hooks, LorumHooks)
    assert lodam.exploration == 0.35 and lorum.exploration == 0.7
    entry = next(bot for bot in bundled if bot.name == "ismcts")
    assert entry.source_of(bundled.get("ismcts").for_game("lorum")) != entry.source_of(
        bundled.get("ismcts").for_game("lodam"))


@pytest.mark.parametrize("game", ["lodam", "lorum"])
def test_a_bot_made_without_the_game_plays_the_game_of_its_view(
    bundled: BotRegistry, game: str,
) -> None:
    rules = get_game(game)
    match = rules.start_match(rules.default_options(), 4, 0)
    deal = rules.new_deal(match, list(rules.pack(match)))
    seat = deal.to_act
    assert seat is not None
    view = deal.view(seat)
    assert game_of(view, ("lodam", "lorum")) == game
    bot = bundled.get("ismcts").make(seat, 3, {"iterations": "20", "c": "0.5"})
    assert isinstance(bot, ByGame)
    assert bot.decide(view) in view.legal
    assert bot.game == game
    made = bot.bot
    assert isinstance(made, IsmctsBot)
    assert isinstance(made.hooks, LorumHooks if game == "lorum" else LodamHooks)
    assert made.exploration == 0.5


def test_the_arena_seats_the_lorum_heuristic_at_a_lorum_table(bundled: BotRegistry) -> None:
    config = build_config("heuristic,ismcts,random*2", 4, 3, game="lorum",
                          bot_options=["ismcts.iterations=5", "ismcts.rollout=random"])
    check_against(config, bundled)
    result = run_arena(config, bundled)
    assert all(record.finished for record in result.records)
    assert not any(record.failures for record in result.records)
    lodam = build_config("ismcts,random*2", 3, 1, bot_options=["ismcts.rollout=random"])
    with pytest.raises(ValueError, match="has no option 'rollout'"):
        check_against(lodam, bundled)
