"""Reading the lobby ends when the broker has sent what it holds, not after a guess.

The reader's probe comes back after every retained message of its subscriptions, so
the read is complete however slow the broker, and it returns as soon as it is
(``limit`` is only a safety net here, far beyond each test's own patience).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from lodam_p2p.transport.base import Message, topic_matches
from lodam_p2p.transport.lobby import PROBE_ROOT, TableAnnouncement, read_lobby
from lodam_p2p.transport.memory import Faults, MemoryHub
from lodam_p2p.transport.mqtt import MqttTransport
from lodam_p2p.transport.presence import PresenceSpec
from tests.support.aio import run
from tests.support.announcing import host_key

#: Far longer than any test waits: reaching it would fail the test by its own timeout.
NEVER = 3600.0
TABLES = [f"t{n:02}" for n in range(40)]


def _announcement(table: str) -> TableAnnouncement:
    return TableAnnouncement(table, f"host{table}", 5).signed(host_key(TABLES.index(table)))


async def _announce_all(hub: MemoryHub) -> None:
    host = hub.transport()
    await host.connect()
    for table in TABLES:
        await host.publish(_announcement(table).topic, _announcement(table).encode(),
                           retain=True)


def test_every_table_is_read_and_the_read_ends_at_the_probe() -> None:
    async def scenario() -> list[str]:
        hub = MemoryHub()
        await _announce_all(hub)
        reader = hub.transport(PresenceSpec("lobby", "look"))
        await reader.connect()
        return [a.table for a in await read_lobby(reader, limit=NEVER)]

    assert run(scenario(), timeout=60.0) == TABLES


class _SlowBroker:
    """A transport whose broker takes its time over every retained message (far longer
    than the old fixed quiet period), then echoes the probe, in that order."""

    def __init__(self, retained: dict[str, bytes], pause: float) -> None:
        self._retained, self._pause = retained, pause
        self._patterns: list[str] = []
        self._queue: asyncio.Queue[Message] = asyncio.Queue()
        self._feeding: list[asyncio.Task[None]] = []
        self.epoch, self.nonce = 1, None

    async def connect(self) -> None:
        """Nothing to do."""

    async def subscribe(self, pattern: str) -> None:
        self._patterns.append(pattern)
        matching = [Message(t, p, retain=True) for t, p in sorted(self._retained.items())
                    if topic_matches(pattern, t)]
        self._feeding.append(asyncio.create_task(self._feed(matching)))

    async def _feed(self, messages: list[Message]) -> None:
        for message in messages:
            await asyncio.sleep(self._pause)
            self._queue.put_nowait(message)

    async def publish(self, topic: str, payload: bytes, retain: bool = False,
                      qos: int = 1) -> None:
        await asyncio.gather(*self._feeding)  # the broker's order: retained ones first
        if any(topic_matches(p, topic) for p in self._patterns):
            self._queue.put_nowait(Message(topic, payload))

    async def messages(self) -> AsyncIterator[Message]:
        while True:
            yield await self._queue.get()

    async def close(self) -> None:
        """Nothing to do."""


def test_a_slow_broker_is_read_to_the_end() -> None:
    retained = {_announcement(t).topic: _announcement(t).encode() for t in TABLES[:4]}

    async def scenario() -> list[str]:
        slow = _SlowBroker(retained, pause=0.4)
        return [a.table for a in await read_lobby(slow, limit=NEVER)]  # type: ignore[arg-type]

    assert run(scenario(), timeout=60.0) == TABLES[:4]


def test_a_probe_that_never_comes_back_ends_the_read_at_the_limit() -> None:
    async def scenario() -> list[str]:
        hub = MemoryHub(Faults(drop=1.0, topics=f"{PROBE_ROOT}/#"))
        await _announce_all(hub)
        reader = hub.transport()
        await reader.connect()
        return [a.table for a in await read_lobby(reader, limit=0.2)]

    assert run(scenario(), timeout=60.0) == TABLES  # retained ones came at subscription


def test_two_readers_at_once_each_wait_for_their_own_probe() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        hub = MemoryHub()
        await _announce_all(hub)
        readers = [hub.transport(), hub.transport()]
        for reader in readers:
            await reader.connect()
        first, second = await asyncio.gather(*(read_lobby(r, limit=NEVER) for r in readers))
        return [a.table for a in first], [a.table for a in second]

    assert run(scenario(), timeout=60.0) == (TABLES, TABLES)


@pytest.fixture(params=["mosquitto", "amqtt"])
def broker_url(request: pytest.FixtureRequest) -> str:
    """Each real-broker test runs against both brokers."""
    name = "mosquitto" if request.param == "mosquitto" else "amqtt_broker"
    return str(request.getfixturevalue(name).url)


def test_a_real_broker_is_read_to_the_end(broker_url: str) -> None:
    async def scenario() -> list[str]:
        async with MqttTransport(broker_url) as host:
            for table in TABLES:
                await host.publish(_announcement(table).topic, _announcement(table).encode(),
                                   retain=True)
            async with MqttTransport(broker_url) as reader:
                listed = [a.table for a in await read_lobby(reader, limit=NEVER)]
            for table in TABLES:
                await host.publish(_announcement(table).topic, b"", retain=True)
        return listed

    assert run(scenario(), timeout=120.0) == TABLES
