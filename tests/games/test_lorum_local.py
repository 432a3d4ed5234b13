"""Lorum at the offline table, through the game interface: four random bots play a
whole round, every seat told every deal; the short First-and-last's stack is dealt on
without a new shuffle."""

from __future__ import annotations

import asyncio
from typing import Any

from lodam_p2p.bots import BotRegistry
from lodam_p2p.bots.adapter import BotPlayer
from lodam_p2p.games import get_game
from lodam_p2p.local import play_local
from lodam_p2p.player import DealEnded, MatchEnded, Phase, Progress, TableEvent, ViewChanged
from lodam_p2p.tableplan import MatchOutcome, SeatPlan

GAME = get_game("lorum")


class Recorder:
    """A random bot that remembers everything it was told."""

    def __init__(self, seat: int) -> None:
        bot_type = BotRegistry.load().get("random")
        self.bot = BotPlayer("random", bot_type.make(seat, seat))
        self.events: list[TableEvent] = []

    def notify(self, event: TableEvent) -> None:
        self.events.append(event)

    async def decide(self, view: Any) -> Any:
        return await self.bot.decide(view)


def _play(players: list[Recorder], seed: int, *assignments: str) -> MatchOutcome:
    plans = [SeatPlan(f"p{i}", p, "bot:random") for i, p in enumerate(players)]
    options = GAME.parse_options(assignments)
    return asyncio.run(play_local(options=options, seats=plans, seed=seed, game="lorum"))


def test_four_random_bots_play_a_round_to_its_end() -> None:
    players = [Recorder(seat) for seat in range(4)]
    outcome = _play(players, 3)
    assert outcome.game == "lorum" and outcome.deals == 32 and outcome.winners
    best = min(outcome.lives)
    assert {s for s in range(4) if outcome.lives[s] == best} == set(outcome.winners)
    for seat, player in enumerate(players):
        ended = [e for e in player.events if isinstance(e, DealEnded)]
        assert len(ended) == 32
        assert sum(sum(e.points) for e in ended) == sum(outcome.lives)
        assert isinstance(player.events[-2], MatchEnded)
        views = [e.view for e in player.events if isinstance(e, ViewChanged)]
        assert all(view.seat == seat for view in views)


def test_the_short_first_and_last_is_dealt_from_one_shuffle() -> None:
    players = [Recorder(seat) for seat in range(3)]
    outcome = _play(players, 4, "contracts=first_last", "first_last_short=true")
    assert outcome.deals == 3
    phases = [e.phase for e in players[0].events if isinstance(e, Progress)]
    assert phases.count(Phase.DEAL_OVER) == 3
    assert phases.count(Phase.SHUFFLING) == 1, "30 cards hold three deals of 2 × 3"


def test_the_same_seed_replays_the_same_round() -> None:
    first = _play([Recorder(s) for s in range(3)], 8, "scoring=beans")
    again = _play([Recorder(s) for s in range(3)], 8, "scoring=beans")
    assert first == again and first.deals == 24
