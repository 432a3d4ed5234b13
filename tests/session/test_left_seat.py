"""A seat played in a process that also plays bot seats: if it loses its connection
mid-match, the process's other seats — and the table's host — play on."""

from __future__ import annotations

import asyncio
import dataclasses

from lodam_p2p.games.lodam import Options
from lodam_p2p.player import Notice
from lodam_p2p.session.table import _run_all
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import QUICK, Keeper, bots, table
from tests.support.virtual import run_on_table_clock as run

#: the person: plays the first legal action, keeps what it is told
Person = Keeper


def test_the_bots_play_on_when_the_persons_own_seat_loses_its_connection() -> None:
    person = Person()
    seats = [SeatPlan("ann", person, "human"), *bots(["heuristic", "heuristic"])]
    # one time limit for every seat (the table's, not a seat's own claim): short enough
    # that the lost seat is voted out soon, long enough for bots on a loaded machine
    timing = dataclasses.replace(QUICK, timeout_s=10.0, person_s=10.0)
    sessions = table(MemoryHub(), seats, Options(lives=2), timing=timing)
    mine = sessions[1]

    async def scenario() -> list[MatchOutcome]:
        playing = asyncio.create_task(_run_all(sessions))
        async with asyncio.timeout(60):
            while not (mine.hand is not None and mine.hand.step > 6):
                await asyncio.sleep(0.01)
        mine.link.transport.abort()  # type: ignore[attr-defined]  # the will fires
        return await playing

    outcomes = run(scenario(), 120)
    outcome = outcomes[0]  # the host's: the table reached a result without the seat
    assert outcome.blames and outcome.blames[0].startswith("seat 0: ")
    assert outcome.winners and 0 not in outcome.winners
    told = [e.text for e in person.events if isinstance(e, Notice)]
    assert any("This seat left the table" in text for text in told)
