"""Arena runs: determinism, rotation through every seat, fallbacks, caps, comparisons."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from lodam_p2p.arena.config import build_config
from lodam_p2p.arena.match import MatchPlayer
from lodam_p2p.arena.report import to_json
from lodam_p2p.arena.runner import EarlyStop, play_group, run_arena
from lodam_p2p.bots import BotRegistry, BotType, hookimpl
from lodam_p2p.bots.manager import new_plugin_manager
from lodam_p2p.games import GameMatch
from lodam_p2p.games.lodam import Card, Deal, LodamGame, Play, PlayerView
from lodam_plugins import random_bot
from lodam_plugins.lodam import heuristic


class Stubborn:
    """Plays a card it does not hold whenever asked to play."""

    def __init__(self, *, seat: int, seed: int, options: object) -> None:
        pass

    def decide(self, view: PlayerView) -> object:
        missing = next(c for c in map(Card.parse, ("2C", "3C", "4C")) if c not in view.hand)
        return Play(view.seat, missing) if view.awaiting.value == "play" else view.legal[0]  # type: ignore[union-attr]


class StubbornPlugin:
    @hookimpl
    def lodam_bot_types(self) -> list[BotType]:
        return [BotType("stubborn", "plays cards it does not hold", Stubborn)]  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def registry() -> BotRegistry:
    manager = new_plugin_manager()
    for plugin in (random_bot, heuristic, StubbornPlugin()):
        manager.register(plugin)
    return BotRegistry(manager)


def test_same_seed_same_result_and_another_seed_differs(registry: BotRegistry) -> None:
    config = build_config("heuristic,random*2", 6, 11)
    first = to_json(run_arena(config, registry))
    assert first == to_json(run_arena(config, registry))
    other = to_json(run_arena(build_config("heuristic,random*2", 6, 12), registry))
    assert other != first


def test_two_worker_processes_give_the_result_of_one(registry: BotRegistry) -> None:
    config = build_config("random*3", 9, 3)
    one = run_arena(config, registry, jobs=1)
    two = run_arena(config, registry, jobs=2)
    assert two.records == one.records
    assert to_json(two) == to_json(one)


def test_each_bot_meets_the_same_deals_from_every_seat(registry: BotRegistry) -> None:
    first_deals: list[tuple[int, int, tuple[Card, ...]]] = []

    class Recording(LodamGame):
        def new_deal(self, match: GameMatch, deck: Sequence[Card]) -> Deal:
            if match.deals_played == 0:
                first_deals.append((len(first_deals) // 3, match.dealer, tuple(deck)))
            return super().new_deal(match, deck)

    config = build_config("heuristic,random*2", 6, 4)
    player = MatchPlayer(config, registry)
    player.game = Recording()
    records = [*play_group(player, 0), *play_group(player, 1)]
    for group in (0, 1):
        seats = sorted(r.seat_bots.index("heuristic") for r in records if r.group == group)
        assert seats == [0, 1, 2]
        starts = {(dealer, deck) for g, dealer, deck in first_deals if g == group}
        assert len(starts) == 1, "every rotation of a group starts from one deal"
    assert first_deals[0][2] != first_deals[3][2], "groups get different deck streams"


def test_an_illegal_bot_is_reported_and_replaced_not_fatal(registry: BotRegistry) -> None:
    result = run_arena(build_config("stubborn,random*2", 3, 8), registry)
    assert all(record.finished for record in result.records)
    failures = [f for record in result.records for f in record.failures]
    assert len(failures) == 3, "one failure per match: the fallback plays on"
    assert "bot 'stubborn' at seat" in failures[0].message
    assert "answered play" in failures[0].message
    assert result.bots()["stubborn"].errors == 3


def test_the_deal_cap_stops_a_match(registry: BotRegistry) -> None:
    result = run_arena(build_config("random*3", 3, 1, max_deals=1), registry)
    assert all(not r.finished and r.deals == 1 and r.winners == () for r in result.records)
    assert to_json(result)["unfinished"] == 3
    assert result.bots()["random"].win_share == 0.0


def test_a_comparison_swaps_only_the_candidate_seat(registry: BotRegistry) -> None:
    config = build_config("random*2", 3, 2, compare="heuristic,random")
    result = run_arena(config, registry)
    assert result.matches == 6  # one group: 3 rotations × A and B
    for a, b in zip(result.records[::2], result.records[1::2], strict=True):
        assert (a.group, a.rotation, a.candidate) == (b.group, b.rotation, b.candidate)
        assert a.candidate is not None
        assert a.seat_bots[a.candidate] == "heuristic"
        assert b.seat_bots[b.candidate] == "random"
        others = [s for s in range(3) if s != a.candidate]
        assert [a.seat_bots[s] for s in others] == [b.seat_bots[s] for s in others]
    assert {r.candidate for r in result.records} == {0, 1, 2}
    comparison = to_json(result)["comparison"]
    assert isinstance(comparison, dict) and comparison["pairs"] == 3


def test_early_stop_ends_a_clear_comparison_before_the_planned_matches(
    registry: BotRegistry,
) -> None:
    config = build_config("random*2", 60, 9, compare="heuristic,random")
    stop = EarlyStop(confidence=0.8, min_groups=3, every=1)
    result = run_arena(config, registry, early_stop=stop)
    assert result.stopped_early
    assert result.matches < config.total_matches
    again = run_arena(config, registry, jobs=2, early_stop=stop)
    assert again.records == result.records


def test_a_labelled_seat_is_the_same_bot_type_with_its_own_options(
    registry: BotRegistry,
) -> None:
    config = build_config(
        "random*2", 3, 5, compare="heuristic@careful,heuristic",
        bot_options=["heuristic@careful.risk=3"],
    )
    assert config.options_of("heuristic@careful") == {"risk": "3"}
    assert config.options_of("heuristic") == {}
    result = run_arena(config, registry)
    assert set(result.bots()) == {"heuristic@careful", "heuristic", "random"}
    comparison = result.comparison()
    assert comparison is not None and comparison.a == "heuristic@careful"
