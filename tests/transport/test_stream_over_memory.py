"""Streams and transport together, the way a session drives them, on a faulty network.

``Peer`` below is the whole glue a session needs: publish what the endpoint says to
publish, feed it what arrives on the table's peer topics, and call its timer.
"""

from __future__ import annotations

import asyncio

from lodam_p2p.transport.base import Transport
from lodam_p2p.transport.frames import FrameError
from lodam_p2p.transport.memory import Faults, MemoryHub
from lodam_p2p.transport.presence import PresenceSpec
from lodam_p2p.transport.stream import Delivery, StreamEndpoint
from lodam_p2p.transport.topics import (
    TopicKind,
    answer_topic,
    parse_topic,
    peer_topic,
    table_answers_pattern,
    table_peers_pattern,
)
from tests.support.aio import run

TABLE = "oak"


class Peer:
    """One seat's transport and stream endpoint, glued."""

    def __init__(self, name: str, transport: Transport) -> None:
        self.name, self.transport = name, transport
        self.endpoint = StreamEndpoint(name, retry_interval=0.05, heartbeat_interval=0.05)
        self.delivered: list[Delivery] = []
        self.rejected = 0

    async def say(self, body: bytes) -> None:
        loop = asyncio.get_running_loop()
        await self.transport.publish(peer_topic(TABLE, self.name),
                                     self.endpoint.send(body, loop.time()))

    async def listen(self) -> None:
        loop = asyncio.get_running_loop()
        async for message in self.transport.messages():
            topic = parse_topic(message.topic)
            if topic.kind is not TopicKind.PEER or topic.peer is None:
                continue
            try:
                self.endpoint.receive(topic.peer, message.payload, loop.time())
            except FrameError:
                self.rejected += 1
            await self._flush()

    async def tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            when = self.endpoint.timer()
            await asyncio.sleep(max(0.0, (when or loop.time() + 0.05) - loop.time()))
            self.endpoint.handle_timer(loop.time())
            await self._flush()

    async def _flush(self) -> None:
        self.delivered += self.endpoint.deliveries()
        for frame in self.endpoint.frames_to_send():
            await self.transport.publish(peer_topic(TABLE, self.name), frame)
        for asker, frame in self.endpoint.answers_to_send():
            await self.transport.publish(answer_topic(TABLE, self.name, asker), frame)


def test_every_seat_hears_every_other_in_order_despite_faults() -> None:
    names = ["ann", "bob", "cid", "dee"]
    sent = {name: [f"{name}-{i}".encode() for i in range(40)] for name in names}

    async def scenario() -> dict[str, list[Delivery]]:
        hub = MemoryHub(Faults(drop=0.15, duplicate=0.15, reorder=0.15, delay=0.005,
                               seed=11, topics="lodam/v3/t/+/p/#"))
        peers = [Peer(n, hub.transport(PresenceSpec(TABLE, n))) for n in names]
        for peer in peers:
            await peer.transport.connect()
            await peer.transport.subscribe(table_peers_pattern(TABLE))
            await peer.transport.subscribe(table_answers_pattern(TABLE, peer.name))
        tasks = [asyncio.create_task(job()) for p in peers for job in (p.listen, p.tick)]
        await peers[0].transport.publish(peer_topic(TABLE, "ann"), b"\x93garbage")
        for i in range(40):
            for peer in peers:
                await peer.say(sent[peer.name][i])
        while any(len(p.delivered) < 3 * 40 for p in peers):
            await asyncio.sleep(0.02)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert all(p.rejected >= 1 for p in peers[1:])
        return {p.name: p.delivered for p in peers}

    delivered = run(scenario(), timeout=60)
    for receiver in names:
        for sender in names:
            if sender != receiver:
                got = [d.body for d in delivered[receiver] if d.sender == sender]
                assert got == sent[sender], (receiver, sender)
