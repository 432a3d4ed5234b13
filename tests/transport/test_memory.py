"""The in-memory hub: a faithful broker when healthy, a seeded saboteur when asked."""

from __future__ import annotations

import asyncio

import pytest

from lodam_p2p.transport.base import Transport, TransportClosed
from lodam_p2p.transport.memory import Faults, MemoryHub, MemoryTransport
from lodam_p2p.transport.presence import Presence, PresenceSpec
from lodam_p2p.transport.topics import peer_topic, table_peers_pattern, table_presence_pattern
from tests.support.aio import Inbox, run

TOPIC = peer_topic("oak", "ann")


async def pair(hub: MemoryHub) -> tuple[MemoryTransport, MemoryTransport, Inbox]:
    """ann publishes, bob listens to the table."""
    ann, bob = hub.transport(), hub.transport()
    await ann.connect()
    await bob.connect()
    await bob.subscribe(table_peers_pattern("oak"))
    return ann, bob, Inbox(bob)


async def send_numbers(ann: MemoryTransport, count: int) -> None:
    for i in range(count):
        await ann.publish(TOPIC, i.to_bytes(2, "big"))


def numbers(inbox: Inbox) -> list[int]:
    return [int.from_bytes(m.payload, "big") for m in inbox.received]


def test_memory_transport_is_a_transport() -> None:
    async def scenario() -> None:
        assert isinstance(MemoryHub().transport(), Transport)
    run(scenario())


def test_healthy_hub_delivers_in_order_with_retained() -> None:
    async def scenario() -> list[int]:
        hub = MemoryHub()
        ann, _bob, inbox = await pair(hub)
        await ann.publish("lodam/v3/lobby/oak", b"table", retain=True)
        await send_numbers(ann, 50)
        late = hub.transport()
        await late.connect()
        await late.subscribe("lodam/v3/lobby/+")
        late_inbox = Inbox(late)
        retained = await late_inbox.topic("lodam/v3/lobby/oak")
        assert retained.retain and retained.payload == b"table"
        await ann.publish("lodam/v3/lobby/oak", b"", retain=True)
        assert hub.retained == {}
        await asyncio.sleep(0)
        return numbers(inbox)

    assert run(scenario()) == list(range(50))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_faults_are_seeded_and_repeatable(seed: int) -> None:
    async def scenario() -> list[int]:
        hub = MemoryHub(Faults(drop=0.2, duplicate=0.2, reorder=0.2, seed=seed, hold_s=0.01))
        ann, _bob, inbox = await pair(hub)
        await send_numbers(ann, 200)
        await asyncio.sleep(0.05)
        return numbers(inbox)

    first, second = run(scenario()), run(scenario())
    assert first == second
    assert len(set(first)) < 200  # some dropped
    assert len(first) > len(set(first))  # some duplicated
    assert first != sorted(first)  # some reordered


def test_delay_keeps_each_link_in_order() -> None:
    async def scenario() -> list[int]:
        hub = MemoryHub(Faults(delay=0.02, seed=7))
        ann, _bob, inbox = await pair(hub)
        await send_numbers(ann, 100)
        await inbox.wait_for(lambda m: m.payload == (99).to_bytes(2, "big"))
        return numbers(inbox)

    assert run(scenario()) == list(range(100))


def test_faults_only_touch_their_topics() -> None:
    async def scenario() -> list[int]:
        hub = MemoryHub(Faults(drop=1.0, topics="lodam/v3/lobby/#"))
        ann, _bob, inbox = await pair(hub)
        await send_numbers(ann, 10)
        await asyncio.sleep(0)
        return numbers(inbox)

    assert run(scenario()) == list(range(10))


def test_abort_fires_the_will_and_close_does_not() -> None:
    async def scenario() -> list[Presence]:
        hub = MemoryHub()
        watcher = hub.transport()
        await watcher.connect()
        await watcher.subscribe(table_presence_pattern("oak"))
        inbox = Inbox(watcher)
        ann = MemoryTransport(hub, PresenceSpec("oak", "ann"), nonce_factory=lambda: "n1")
        bob = MemoryTransport(hub, PresenceSpec("oak", "bob"), nonce_factory=lambda: "n2")
        await ann.connect()
        await bob.connect()
        ann.abort()
        await bob.close()
        await asyncio.sleep(0)
        with pytest.raises(TransportClosed):
            await ann.publish(TOPIC, b"x")
        return [Presence.decode(m.payload) for m in inbox.received]

    assert run(scenario()) == [
        Presence("ann", "n1", True, conn=1), Presence("bob", "n2", True, conn=1),
        Presence("ann", "n1", False, conn=1), Presence("bob", "n2", False, conn=1),
    ]


def test_bounce_renews_the_nonce_and_heals_a_stale_will() -> None:
    async def scenario() -> tuple[int, bytes]:
        hub = MemoryHub()
        nonces = iter(["old", "new"])
        ann = MemoryTransport(hub, PresenceSpec("oak", "ann"), nonce_factory=lambda: next(nonces))
        await ann.connect()
        await ann.subscribe(table_presence_pattern("oak"))
        inbox = Inbox(ann)
        await ann.bounce()
        # a broker that fires the old connection's will late:
        hub._publish(0, ann._presence.topic, Presence("ann", "old", False, conn=1).encode(),
                     True)
        online = Presence("ann", "new", True, conn=2).encode()
        await inbox.wait_for(lambda _m: [m.payload for m in inbox.received].count(online) >= 2)
        return ann.epoch, hub.retained[ann._presence.topic]

    epoch, retained = run(scenario())
    assert epoch == 2 and Presence.decode(retained) == Presence("ann", "new", True, conn=2)


def test_messages_end_when_closed() -> None:
    async def scenario() -> int:
        hub = MemoryHub()
        ann = hub.transport()
        await ann.connect()
        await ann.subscribe("#")
        await ann.publish("a", b"1")
        await ann.close()
        return len([m async for m in ann.messages()])

    assert run(scenario()) == 1
