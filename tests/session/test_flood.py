"""Floods through the in-memory hub: resend requests and early frames from hostile keys
cost a seat no more than its limits (protocol/SPEC.md, "Limits"). The assertions count
the bytes and frames held and sent, never time or memory of the process."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import pytest

from lodam_p2p.games.lodam import Options
from lodam_p2p.session import link as link_module
from lodam_p2p.session.held import HELD_BODIES, LOBBY_BODIES, LOBBY_BYTES, HeldQueue
from lodam_p2p.session.keys import new_identity, seeded
from lodam_p2p.session.link import Link
from lodam_p2p.session.table import _sessions
from lodam_p2p.session.wire import Body, Msg, peer_name, raw_public, seal_frame
from lodam_p2p.transport import topics
from lodam_p2p.transport.frames import Frame, FrameKind, ResendRequest
from lodam_p2p.transport.memory import MemoryHub, MemoryTransport
from lodam_p2p.transport.stream import StreamLimits
from tests.session.helpers import PATIENT

TABLE = "oak"
LIMITS = StreamLimits()


class Flooder:
    """A hostile key that publishes whatever frames it likes on its own topic."""

    def __init__(self, hub: MemoryHub, n: int) -> None:
        self.identity = new_identity(seeded(99, n))
        self.pubkey = raw_public(self.identity)
        self.peer = peer_name(self.pubkey)
        self.transport: MemoryTransport = hub.transport()
        self.bytes = 0

    async def frame(self, kind: FrameKind, seq: int, body: bytes) -> None:
        frame = Frame(kind, self.peer, seq, body).encode()
        payload = seal_frame(self.identity, self.pubkey, TABLE, frame)
        self.bytes += len(payload)
        await self.transport.publish(topics.peer_topic(TABLE, self.peer), payload)


async def _until(done: Callable[[], bool]) -> None:
    """Wait for ``done`` (the hub hands messages on within the loop; the timeout is only
    a safety net for a broken build)."""
    async with asyncio.timeout(120):
        while not done():
            await asyncio.sleep(0.005)


@pytest.fixture
def signatures(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many frames the links have signed (one counter for all)."""
    count = [0]

    def counting(*args: Any) -> bytes:
        count[0] += 1
        return seal_frame(*args)

    monkeypatch.setattr(link_module, "seal_frame", counting)
    return count


def test_a_resend_flood_costs_the_budget_and_no_signature(signatures: list[int]) -> None:
    asyncio.run(_resend_flood(signatures))


async def _resend_flood(signatures: list[int]) -> None:
    hub = MemoryHub()
    victim = Link(hub.transport, TABLE, new_identity(seeded(1, 0)), heartbeat=600, retry=600)
    bystander = Link(hub.transport, TABLE, new_identity(seeded(2, 0)), heartbeat=600,
                     retry=600)
    await victim.open(asyncio.Queue())
    await bystander.open(asyncio.Queue())
    for _ in range(200):  # 200 frames of about 4 KB kept to answer resends
        await victim.send(Body(Msg.PROTO, hand=1, envelopes=(bytes(4000),)))
    signed, sent = signatures[0], victim.bytes_sent
    mallory = Flooder(hub, 1)
    await mallory.transport.connect()
    await mallory.transport.subscribe(topics.table_answers_pattern(TABLE, mallory.peer))
    answers = [0]
    reading = asyncio.create_task(_count(mallory.transport, answers))
    loop = asyncio.get_running_loop()
    began = loop.time()
    request = ResendRequest(victim.peer, ((1, 200),)).encode()
    for _ in range(300):  # each asks for 800 KB: 240 MB in all
        await mallory.frame(FrameKind.RESEND, 0, request)
    await _until(lambda: victim.bytes_received >= mallory.bytes
                 and bystander.bytes_received >= sent + mallory.bytes)
    took = loop.time() - began
    resent = victim.bytes_sent - sent
    assert signatures[0] == signed  # every answer was a frame signed when first sent
    assert 0 < resent <= LIMITS.resend_burst + LIMITS.resend_rate * took
    assert bystander.bytes_received == sent + mallory.bytes  # no answer reached it
    await _until(lambda: answers[0] >= resent)
    assert answers[0] == resent  # the flooder's own link carried what it asked for
    reading.cancel()
    await victim.close()
    await bystander.close()
    await mallory.transport.close()


async def _count(transport: MemoryTransport, received: list[int]) -> None:
    """Add up the bytes ``transport`` receives (for as long as it runs)."""
    async for message in transport.messages():
        received[0] += len(message.payload)


def test_a_lobby_flood_holds_no_more_than_the_caps() -> None:
    asyncio.run(_lobby_flood())


async def _lobby_flood() -> None:
    hub = MemoryHub()
    host = _sessions(TABLE, Options(), 3, [], connect=hub.transport, seed=5, timing=PATIENT,
                     spectator=None)[0]
    running = asyncio.create_task(host.run())
    await host.opened.wait()
    mallory = Flooder(hub, 0)
    await mallory.transport.connect()
    seq = 0
    for _ in range(600):  # in order, but no lobby message: 38 MB the gate drops
        seq += 1
        await mallory.frame(FrameKind.DATA, seq, Body(
            Msg.PROTO, hand=1, envelopes=(bytes(16000),) * 4).encode())
    for _ in range(300):  # lot commitments the lobby cannot take yet
        seq += 1
        await mallory.frame(FrameKind.DATA, seq, Body(Msg.LOT_COMMIT,
                                                      args=(bytes(32),)).encode())
    for ahead in range(2, 400):  # early frames beyond a gap
        await mallory.frame(FrameKind.DATA, seq + ahead, bytes(60000))
    crowd = [Flooder(hub, n) for n in range(1, 301)]  # new keys, one early frame each
    for key in crowd:
        await key.transport.connect()
        await key.frame(FrameKind.DATA, 2, bytes(30000))
    flood = mallory.bytes + sum(key.bytes for key in crowd)
    await _until(lambda: host.link.bytes_received >= flood and host.runner.inbox.empty())
    endpoint = host.link.endpoint
    held = [q for q in host.queues.values() if isinstance(q, HeldQueue)]
    assert endpoint.senders <= LIMITS.strangers
    assert endpoint.held_bytes() <= LIMITS.strangers * LIMITS.stranger_bytes
    assert all(len(q) <= LOBBY_BODIES and q.bytes <= LOBBY_BYTES for q in held)
    assert sum(q.bytes for q in held) + endpoint.held_bytes() < 5 * 2**20 < flood / 10
    assert host.desk is not None and not host.desk.seated  # the flood sat nobody down
    kept = host.queues.get(mallory.peer, ())
    assert [body.kind for body in kept] == [Msg.LOT_COMMIT] * LOBBY_BODIES
    assert host.link.ignored >= 600  # every PROTO dropped at the lobby's gate
    running.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await running
    for key in [mallory, *crowd]:
        await key.transport.close()


def test_a_queue_holds_what_its_caps_allow_and_gives_the_room_back() -> None:
    queue = HeldQueue("mallory")
    body = Body(Msg.PROTO, hand=9)
    assert sum(queue.hold(body, 100, started=False) for _ in range(50)) == LOBBY_BODIES
    assert sum(queue.hold(body, 2**20, started=True) for _ in range(50)) == 7  # 8 MiB
    while queue:
        queue.popleft()
    assert queue.bytes == 0
    assert sum(queue.hold(body, 10, started=True) for _ in range(600)) == HELD_BODIES
