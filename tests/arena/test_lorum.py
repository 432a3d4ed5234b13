"""The arena plays Lorum through the game interface: one round a match, the same decks
from every seat, the short First-and-last's stack carried over, clear errors."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from lodam_p2p.arena.config import ArenaError, build_config, check_against
from lodam_p2p.arena.match import MatchPlayer
from lodam_p2p.arena.report import to_json
from lodam_p2p.arena.runner import play_group, run_arena
from lodam_p2p.bots import BotRegistry
from lodam_p2p.bots.manager import new_plugin_manager
from lodam_p2p.cli import main
from lodam_p2p.games import GameMatch
from lodam_p2p.games.lorum import Card, Deal
from lodam_p2p.games.lorum.game import LorumGame
from plugins import random_bot
from plugins.lodam import heuristic


@pytest.fixture(scope="module")
def registry() -> BotRegistry:
    manager = new_plugin_manager()
    for plugin in (random_bot, heuristic):
        manager.register(plugin)
    return BotRegistry(manager)


def test_a_match_is_one_round_unless_rounds_says_more(registry: BotRegistry) -> None:
    one = run_arena(build_config("random*4", 4, 2, game="lorum"), registry)
    assert all(r.finished and r.deals == 32 and r.winners for r in one.records)
    two = run_arena(build_config("random*3", 3, 2, game="lorum", options=["rounds=2"]),
                    registry)
    assert all(r.deals == 48 for r in two.records), "two rounds of 8 contracts × 3 dealers"


def test_winners_are_the_lowest_totals_and_ties_share(registry: BotRegistry) -> None:
    result = run_arena(build_config("random*4", 8, 5, game="lorum"), registry)
    assert sum(r.deals for r in result.records) == 8 * 32
    assert result.bots()["random"].win_share == pytest.approx(1.0)
    for record in result.records:
        best = min(record.ranks)
        assert {s for s, rank in enumerate(record.ranks) if rank == best} == set(record.winners)


def test_seats_rotate_over_the_same_decks_and_the_short_stack_carries_over(
    registry: BotRegistry,
) -> None:
    decks: list[tuple[int, int, tuple[Card, ...]]] = []

    class Recording(LorumGame):
        def new_deal(self, match: GameMatch, deck: Sequence[Card]) -> Deal:
            decks.append((match.deals_played, match.dealer, tuple(deck)))
            return super().new_deal(match, deck)

    options = ["contracts=first_last", "first_last_short=true"]
    config = build_config("random,random@b,random@c,random@d", 4, 6, game="lorum",
                          options=options)
    player = MatchPlayer(config, registry)
    player.game = Recording()
    records = play_group(player, 0)
    assert len(records) == 4 and all(r.deals == 4 for r in records)
    per_match = [decks[k:k + 4] for k in range(0, 16, 4)]
    assert all(len({deck for _n, _d, deck in match}) == 1 for match in per_match), (
        "four short deals of 8 cards come from one shuffled deck of 32")
    assert len({tuple(match) for match in per_match}) == 1, "every rotation, the same deals"


def test_the_same_seed_gives_the_same_report(registry: BotRegistry) -> None:
    config = build_config("random*3", 3, 9, game="lorum", options=["scoring=beans"])
    assert to_json(run_arena(config, registry)) == to_json(run_arena(config, registry))


def test_a_bot_that_does_not_play_lorum_is_refused(registry: BotRegistry) -> None:
    config = build_config("heuristic,random*3", 4, 1, game="lorum")
    with pytest.raises(ArenaError, match="bot 'heuristic' does not play lorum"):
        check_against(config, registry)


def test_the_command_line_plays_lorum(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--game", "lorum", "--bots", "random*4", "--matches", "8",
                 "--json"])
    out, _err = capsys.readouterr()
    assert code == 0
    report = json.loads(out)
    assert report["game"] == "lorum" and report["matches"] == 8 and report["deals"] == 256
    assert {"win_share", "ci95", "counters_lost_per_deal"} <= set(report["bots"]["random"])
    assert main(["arena", "--game", "lorum", "--bots", "heuristic,random*3", "--matches",
                 "4", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bots"]["heuristic"]["errors"] == 0, "the Lorum heuristic takes the seat"
    assert main(["arena", "--game", "lorum", "--bots", "heuristic,random*3",
                 "--bot-option", "heuristic.risk=2"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "has no option 'risk'" in err
