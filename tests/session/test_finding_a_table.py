"""A new seat finds its table: it looks again while the table is not announced, or not
open for a seat, and says "no table" only of a table that stayed unannounced.

Over the in-memory hub, on the table clock (:mod:`tests.support.virtual`): a wait of a
minute costs nothing, and the host's announcement is published when the seat has said
it is waiting, not after a guessed pause.
"""

from __future__ import annotations

import asyncio

import pytest

from lodam_p2p.session.effects import SessionError
from lodam_p2p.session.table import TABLE_PATIENCE_S, find_announcement
from lodam_p2p.transport.lobby import TableAnnouncement
from lodam_p2p.transport.memory import MemoryHub
from lodam_p2p.transport.presence import PresenceSpec
from tests.support.announcing import announced, host_peer
from tests.support.virtual import run_on_table_clock

OLD_HOST, NEW_HOST = host_peer(1), host_peer(2)


async def _announce(hub: MemoryHub, announcement: TableAnnouncement) -> None:
    host = hub.transport(PresenceSpec("oak", announcement.host))
    await host.connect()
    await host.publish(announcement.topic, announcement.encode(), retain=True)


def test_a_table_announced_after_the_seat_began_to_look_is_found() -> None:
    async def scenario() -> tuple[TableAnnouncement, list[str]]:
        hub, told = MemoryHub(), []
        waiting = asyncio.Event()

        def tell(why: str) -> None:
            told.append(why)
            waiting.set()

        look = asyncio.create_task(find_announcement(
            hub.transport, "oak", open_only=True, patience_s=None, waiting=tell))
        await waiting.wait()
        await _announce(hub, announced("oak", 2, 3))
        return await look, told

    found, told = run_on_table_clock(scenario(), 600.0)
    assert found.host == NEW_HOST
    assert told == ["no table 'oak' on this broker yet"]


def test_a_table_playing_a_match_is_waited_for_until_it_is_open_again() -> None:
    async def scenario() -> tuple[TableAnnouncement, list[str]]:
        hub, told = MemoryHub(), []
        await _announce(hub, announced("oak", 1, 3, state="playing"))
        waiting = asyncio.Event()

        def tell(why: str) -> None:
            told.append(why)
            waiting.set()

        look = asyncio.create_task(find_announcement(
            hub.transport, "oak", open_only=True, patience_s=None, waiting=tell))
        await waiting.wait()  # its host is about to play again
        await _announce(hub, announced("oak", 2, 3))
        return await look, told

    found, told = run_on_table_clock(scenario(), 600.0)
    assert found.host == NEW_HOST and found.state == "open"
    assert told == ["table 'oak' is playing a match"]


def test_no_table_is_said_only_once_the_patience_ran_out() -> None:
    async def scenario() -> float:
        loop = asyncio.get_running_loop()
        began = loop.time()
        with pytest.raises(SessionError, match=r"^no table 'oak' on this broker$"):
            await find_announcement(MemoryHub().transport, "oak", open_only=True,
                                    patience_s=TABLE_PATIENCE_S)
        return loop.time() - began

    assert run_on_table_clock(scenario(), 600.0) >= TABLE_PATIENCE_S


def test_without_patience_the_first_look_answers() -> None:
    async def scenario() -> None:
        with pytest.raises(SessionError, match="no table 'oak'"):
            await find_announcement(MemoryHub().transport, "oak")

    run_on_table_clock(scenario(), 60.0)
