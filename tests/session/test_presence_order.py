"""A seat's old presences, delivered late, start no countdown at the table."""

from __future__ import annotations

import asyncio
from typing import Any

from lodam_p2p.rules import Options
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
        for session in others:
            _record(session.link, sleeper.me, seen)
        ignored = [s.link.ignored for s in others]
        for payload in old:  # a network delivering connection 1's news late
            hub._publish(0, topic, payload, retain=False)
        hub._publish(0, topic, b"a marker after them", retain=False)
        await until("every peer took the late presences", lambda: all(
            s.link.ignored > before for s, before in zip(others, ignored, strict=True)))
        return seen, [sleeper.me in s.link.presence.online() for s in others]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await heard.stop()


def _record(link: Any, peer: str, seen: list[PresenceSeen]) -> None:
    put = link._put

    def record(item: object) -> None:
        if isinstance(item, PresenceSeen) and item.peer == peer:
            seen.append(item)
        put(item)
    link._put = record


def test_a_late_will_of_an_old_connection_starts_no_countdown() -> None:
    seen, online = asyncio.run(asyncio.wait_for(_late_presences(), PATIENCE * 2))
    assert seen == [] and all(online)
