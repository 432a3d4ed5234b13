"""Every seat is told the same number for a deal, whatever happened to it: the match's
deals played (voided ones too), and one — not the hand number, which moves on when a
seat comes back and the hand under way is dealt again. In process, over the in-memory
hub."""

from __future__ import annotations

import asyncio
from typing import Any

from lodam_p2p.games.lodam import Options
from lodam_p2p.player import Player, TableEvent, ViewChanged
from lodam_p2p.session.course import Timing
from lodam_p2p.session.table import _sessions
from lodam_p2p.tableplan import SeatPlan
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import bots
from tests.support.aio import until
from tests.support.virtual import run_on_table_clock

#: Patient protocol timeouts and a long rejoin grace: nobody may be blamed here.
TIMING = Timing(timeout_s=60.0, grace_s=60.0, linger_s=1.0, heartbeat_s=0.1, retry_s=0.1,
                lobby_s=30.0)


class Watching:
    """A bot's seat that is also told every view, as a person's screen is, and keeps the
    deal numbers it was told."""

    wants_views = True

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.deals: list[int] = []

    def notify(self, event: TableEvent) -> None:
        if isinstance(event, ViewChanged) and (not self.deals or self.deals[-1] != event.deal):
            self.deals.append(event.deal)
        self.inner.notify(event)

    async def decide(self, view: Any) -> Any:
        return await self.inner.decide(view)


async def _bounce() -> None:
    hub = MemoryHub()
    plans = bots(["random", "heuristic"] * 2)
    watching = [Watching(plan.player) for plan in plans]
    seats = [SeatPlan(p.name, w, p.kind) for p, w in zip(plans, watching, strict=True)]
    sessions = _sessions("oak", Options(lives=1), 4, seats, connect=hub.transport, seed=4,
                         timing=TIMING, spectator=None)
    tasks = [asyncio.create_task(s.run()) for s in sessions]
    sleeper = sessions[2]
    await until("a hand dealt", lambda: sleeper.hand is not None and sleeper.hand.dealt)
    hand = sleeper.hand_no
    await sleeper.link.transport.bounce()  # the will fires; the same process reconnects
    await until("the hand dealt again", lambda: sleeper.hand_no > hand)
    outcomes = await asyncio.gather(*tasks)
    assert outcomes[0].blames == ()
    begun = sessions[1].hand_no - 1
    assert begun > outcomes[0].deals  # the hand under way was voided and dealt again
    told = [w.deals for w in watching if w.deals]
    assert len(told) == 4 and all(t == told[0] for t in told)  # one count at every seat
    assert told[0] == list(range(1, outcomes[0].deals + 1))  # not the hands begun


def test_a_hand_dealt_again_after_a_seat_came_back_keeps_its_deal_number_at_every_seat(
) -> None:
    run_on_table_clock(_bounce(), 240.0)
