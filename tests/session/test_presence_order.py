"""A seat's old presences, delivered late, start no countdown at the table."""

from __future__ import annotations

import asyncio
from typing import Any

from lodam_p2p.games.lodam import Options
from lodam_p2p.session.course import Timing
from lodam_p2p.session.link import PresenceSeen
from lodam_p2p.session.table import _sessions
from lodam_p2p.transport.memory import MemoryHub
from lodam_p2p.transport.presence import Presence
from lodam_p2p.transport.topics import presence_topic, table_presence_pattern
from tests.session.helpers import bots
from tests.support.aio import Inbox, until

TIMING = Timing(timeout_s=60.0, grace_s=60.0, linger_s=1.0, heartbeat_s=0.1, retry_s=0.1,
                lobby_s=30.0)
PATIENCE = 120.0


async def _late_presences() -> tuple[list[PresenceSeen], list[bool]]:
    hub = MemoryHub()
    spy = hub.transport()
    await spy.connect()
    await spy.subscribe(table_presence_pattern("oak"))
    heard = Inbox(spy)
    sessions = _sessions("oak", Options(lives=1), 4, bots(["random", "heuristic"] * 2),
                         connect=hub.transport, seed=4, timing=TIMING, spectator=None)
    tasks = [asyncio.create_task(s.run()) for s in sessions]
    try:
        sleeper = sessions[2]
        others = [s for s in sessions if s is not sleeper]
        await until("a hand dealt", lambda: sleeper.hand is not None and sleeper.hand.dealt)
        hand = sleeper.hand_no
        await sleeper.link.transport.bounce()  # connection 1's will, then connection 2
        await until("the hand dealt again", lambda: sleeper.hand_no > hand
                     and not any(s.away for s in others))
        topic = presence_topic("oak", sleeper.me)
        old = [m.payload for m in heard.received
               if m.topic == topic and Presence.decode(m.payload).conn == 1]
        assert [Presence.decode(p).online for p in old] == [True, False]
        seen: list[PresenceSeen] = []
        online: list[bool] = []
        marker = b"a marker after them"
        for session in others:
            _watch(session.link, sleeper.me, set(old), marker, seen=seen, online=online)
        for payload in old:  # a network delivering connection 1's news late
            hub._publish(0, topic, payload, retain=False)
        hub._publish(0, topic, marker, retain=False)
        await until("every peer took the late presences", lambda: len(online) == len(others))
        return seen, online
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await heard.stop()


def _watch(link: Any, sleeper: str, late: set[bytes], marker: bytes, *,
           seen: list[PresenceSeen], online: list[bool]) -> None:
    """Record what the late presences (and only they) make ``link`` tell its session,
    and whether the sleeper counts as online right after the marker behind them.

    Only these moments are looked at: the match goes on meanwhile, and may end, after
    which the sleeper's own last "gone" is news that has nothing to do with the test."""
    reader = link.reader
    take, put = reader._take_presence, reader.put

    def watched(peer: str, payload: bytes) -> None:
        if payload not in late:
            take(peer, payload)
            if payload == marker:
                online.append(sleeper in reader.presence.online())
            return

        def record(item: object) -> None:
            if isinstance(item, PresenceSeen) and item.peer == sleeper:
                seen.append(item)
            put(item)
        reader.put = record
        try:
            take(peer, payload)
        finally:
            reader.put = put
    reader._take_presence = watched


def test_a_late_will_of_an_old_connection_starts_no_countdown() -> None:
    seen, online = asyncio.run(asyncio.wait_for(_late_presences(), PATIENCE * 2))
    assert seen == [] and all(online)
