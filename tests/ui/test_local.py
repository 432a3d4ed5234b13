"""The offline driver tells and asks players as the network driver will."""

from __future__ import annotations

import asyncio

from lodam_p2p.bots import BotRegistry
from lodam_p2p.bots.adapter import BotPlayer
from lodam_p2p.games.lodam import Action, Answer, Offer, Options, Play, PlayerView
from lodam_p2p.local import play_local
from lodam_p2p.player import (
    DealEnded,
    MatchEnded,
    Notice,
    Phase,
    Progress,
    SeatsChanged,
    TableEvent,
    ViewChanged,
)
from lodam_p2p.tableplan import SeatPlan


class Recorder:
    """A bot that remembers everything it was told."""

    def __init__(self, bot: BotPlayer) -> None:
        self.bot = bot
        self.events: list[TableEvent] = []

    def notify(self, event: TableEvent) -> None:
        self.events.append(event)

    async def decide(self, view: PlayerView) -> Action:
        return await self.bot.decide(view)


def _table(seats: int, bot: str = "heuristic") -> list[Recorder]:
    bot_type = BotRegistry.load().get(bot)
    return [Recorder(BotPlayer(bot, bot_type.make(s, s))) for s in range(seats)]


def _play(players: list, seed: int, **options: object):
    plans = [SeatPlan(f"p{i}", p, "bot:x") for i, p in enumerate(players)]
    return asyncio.run(play_local(options=Options.from_mapping(options), seats=plans, seed=seed))


def test_a_whole_match_reaches_an_outcome_told_to_everyone() -> None:
    players = _table(4)
    outcome = _play(players, seed=5, lives=2)
    assert outcome.winners and outcome.deals >= 2
    for seat, p in enumerate(players):
        first = p.events[0]
        assert isinstance(first, SeatsChanged) and first.me == seat
        ended = [e for e in p.events if isinstance(e, DealEnded)]
        assert len(ended) == outcome.deals
        assert isinstance(p.events[-2], MatchEnded)
        assert p.events[-1] == Progress(Phase.MATCH_OVER)
        assert p.events[-2].winners == outcome.winners


def test_each_deal_goes_shuffling_dealing_playing_then_views() -> None:
    players = _table(3)
    _play(players, seed=2, lives=1)
    phases = [e.phase for e in players[0].events if isinstance(e, Progress)]
    assert phases[:3] == [Phase.SHUFFLING, Phase.DEALING, Phase.PLAYING]
    assert phases.count(Phase.SHUFFLING) == phases.count(Phase.DEAL_OVER)


def test_other_seats_never_hear_an_exchanged_card() -> None:
    players = _table(5)
    _play(players, seed=3, lives=1)
    for seat, p in enumerate(players):
        for e in p.events:
            if isinstance(e, ViewChanged) and isinstance(e.last_action, Offer | Answer):
                assert e.last_action.card is None or e.last_action.seat == seat


def test_the_same_seed_replays_the_same_match() -> None:
    a, b = _play(_table(4), seed=9, lives=1), _play(_table(4), seed=9, lives=1)
    assert a == b


class Stubborn:
    """Answers with an illegal play once, then plays properly."""

    def __init__(self, bot: BotPlayer) -> None:
        self.bot, self.tried, self.notices = bot, False, []

    def notify(self, event: TableEvent) -> None:
        if isinstance(event, Notice):
            self.notices.append(event.text)

    async def decide(self, view: PlayerView) -> Action:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if plays and not self.tried and len(view.current_trick) > 0:
            held = {a.card for a in plays}
            wrong = next((c for c in view.hand if c not in held), None)
            if wrong is not None:
                self.tried = True
                return Play(view.seat, wrong)
        return await self.bot.decide(view)


def test_a_refused_answer_gets_a_notice_and_the_question_again() -> None:
    players: list = _table(3)
    stubborn = Stubborn(players[0].bot)
    players[0] = stubborn
    outcome = _play(players, seed=4, lives=1)
    assert outcome.winners
    assert stubborn.tried and stubborn.notices
    assert stubborn.notices[0].startswith("refused: ")
