"""A bot type declares the games it plays; tables and ``lodam bots`` honour it."""

from __future__ import annotations

import json

import pytest

from lodam_p2p.arena.config import ArenaError, build_config, check_against
from lodam_p2p.arena.runner import run_arena
from lodam_p2p.bots import ANY_GAME, BotError, BotRegistry, BotType, hookimpl
from lodam_p2p.bots.manager import new_plugin_manager
from lodam_p2p.cli import main
from lodam_plugins import random_bot
from lodam_plugins.lodam import heuristic


class Quiet:
    def __init__(self, *, seat: int, seed: int, options: object) -> None:
        self.seat = seat


def test_a_type_plays_lodam_unless_it_says_otherwise() -> None:
    plain = BotType("plain", "…", Quiet)
    assert plain.games == ("lodam",) and plain.plays("lodam") and not plain.plays("lorum")
    both = BotType("both", "…", Quiet, games=("lodam", "lorum"))
    assert both.plays("lorum")
    anything = BotType("any", "…", Quiet, games=(ANY_GAME,))
    assert anything.plays("lorum") and anything.plays("skat")


@pytest.mark.parametrize("games", [(), "lodam", ("lodam", ""), ("lodam", 3)])
def test_a_bad_games_declaration_is_refused(games: object) -> None:
    with pytest.raises(BotError, match="games must be"):
        BotType("odd", "…", Quiet, games=games)  # type: ignore[arg-type]


def test_a_bot_is_not_seated_at_a_game_it_does_not_play() -> None:
    only = BotType("only", "…", Quiet, games=("lorum",))
    with pytest.raises(BotError, match=r"bot 'only' does not play lodam \(it plays: lorum\)"):
        only.check_game("lodam")

    class Plugin:
        @staticmethod
        @hookimpl
        def lodam_bot_types() -> list[BotType]:
            return [only]

    manager = new_plugin_manager()
    manager.register(Plugin)
    manager.register(random_bot)
    registry = BotRegistry(manager)
    with pytest.raises(ArenaError, match="does not play lodam"):
        check_against(build_config("only,random*2", 3, 1), registry)


def test_the_bundled_bots_declare_their_games() -> None:
    manager = new_plugin_manager()
    manager.register(random_bot)
    manager.register(heuristic)
    registry = BotRegistry(manager)
    assert registry.get("random").games == (ANY_GAME,)
    assert registry.get("heuristic").games == ("lodam",)
    assert not registry.get("heuristic").plays("lorum")


def test_lodam_bots_lists_the_bots_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    lodam = listing["games"]["lodam"]
    assert lodam["title"] == "Losing Lodam" and lodam["seats"] == "3 to 10"
    assert {"random", "heuristic"} <= set(lodam["bots"])
    assert {"random", "heuristic", "ismcts"} <= set(listing["games"]["lorum"]["bots"])
    assert listing["bots"]["heuristic"]["games"] == ["lodam", "lorum"]
    by_game = listing["bots"]["ismcts"]["by_game"]
    assert by_game["lodam"]["options"]["c"]["default"] == 0.35
    assert by_game["lorum"]["options"]["c"]["default"] == 0.7
    assert "lorum_ismcts" in by_game["lorum"]["source"]
    assert main(["bots"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("lodam: Losing Lodam (3 to 10 seats)")
    assert "\n  random" in text
    lorum = text[text.index("\nlorum: Lorum"):]
    assert "option ismcts.c=0.7" in lorum and "option ismcts.c=0.35" not in lorum
    assert "option heuristic.risk" not in lorum, "the Lodam heuristic's options stay Lodam's"


def test_a_fallback_that_does_not_play_the_game_is_passed_over() -> None:
    class Broken:
        def __init__(self, *, seat: int, seed: int, options: object) -> None:
            pass

        def decide(self, view: object) -> object:
            raise RuntimeError("no idea")

    made: list[int] = []

    class Elsewhere(Broken):
        def __init__(self, *, seat: int, seed: int, options: object) -> None:
            made.append(seat)  # a Lorum-only bot seated at a Lodam table

    elsewhere = BotType("elsewhere", "…", Elsewhere, games=("lorum",))

    class Plugin:
        @staticmethod
        @hookimpl
        def lodam_bot_types() -> list[BotType]:
            return [BotType("broken", "…", Broken), elsewhere]

        @staticmethod
        @hookimpl
        def lodam_bot_fallback() -> BotType:
            return elsewhere

    manager = new_plugin_manager()
    manager.register(Plugin)
    manager.register(random_bot)
    result = run_arena(build_config("broken,random*2", 3, 2), BotRegistry(manager))
    assert all(record.finished for record in result.records)
    assert result.bots()["broken"].errors == 3
    assert made == [], "the failed seat is played by the first legal move instead"
