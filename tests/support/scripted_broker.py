"""A scripted MQTT 3.1.1 broker for one client at a time, in the test's own event loop.

It answers what a client sends (CONNECT, SUBSCRIBE, PINGREQ, PUBLISH at QoS 1,
DISCONNECT), records it, and sends what the test asks when the test asks: publications
pushed to the client in *one* write (on loopback they are then all in the client's
socket at once, as messages that arrive together are), or along with the CONNACK. It
routes nothing and keeps no retained messages: tests that want a broker's behaviour use
Mosquitto (``tests/support/brokers.py``); this one is for what the client does with the
bytes it gets, and with the bytes it writes. Its packets are read and written by the red
team's broker adversary's (:mod:`lodam_p2p.redteam.packets`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field

from lodam_p2p.redteam.packets import (
    CONNACK,
    CONNECT,
    DISCONNECT,
    PINGREQ,
    PINGRESP,
    PUBACK,
    PUBLISH,
    SUBACK,
    SUBSCRIBE,
    Packet,
    puback,
    publish,
    read_packet,
)


@dataclass(frozen=True, slots=True)
class Publication:
    """A publication as the client sent it."""

    topic: str
    payload: bytes
    retain: bool


@dataclass
class ScriptedBroker:
    """See the module docstring. ``async with`` it; connect a client to :attr:`url`.

    ``with_connack`` are publications (topic, payload) sent in the same write as the
    CONNACK, before the client has set anything up.
    """

    with_connack: list[tuple[str, bytes]] = field(default_factory=list)
    url: str = ""
    published: list[Publication] = field(default_factory=list)
    pubacks: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    _writer: asyncio.StreamWriter | None = None
    _next_id: int = 0

    async def __aenter__(self) -> ScriptedBroker:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.url = f"mqtt://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *_exc: object) -> None:
        if self._writer is not None:
            self._writer.close()
        self._server.close()
        await self._server.wait_closed()

    def push(self, topic: str, payloads: list[bytes]) -> None:
        """Send these publications (QoS 1) to the connected client in one write."""
        assert self._writer is not None, "no client is connected"
        self._writer.write(b"".join(self._publish(topic, payload) for payload in payloads))

    async def until(self, check: Callable[[], bool]) -> None:
        """Wait until ``check()`` holds, looking each time the client has sent something."""
        while not check():
            self.changed.clear()
            await self.changed.wait()

    def _publish(self, topic: str, payload: bytes) -> bytes:
        self._next_id = self._next_id % 65535 + 1
        return publish(topic, payload, packet_id=self._next_id).encode()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                if not self._answer(await read_packet(reader), writer):
                    break
                self.changed.set()
        writer.close()

    def _answer(self, packet: Packet, writer: asyncio.StreamWriter) -> bool:
        kind = packet.kind
        if kind == CONNECT:
            pushed = b"".join(self._publish(topic, payload) for topic, payload in self.with_connack)
            writer.write(Packet(CONNACK << 4, b"\0\0").encode() + pushed)
        elif kind == SUBSCRIBE:
            writer.write(Packet(SUBACK << 4, packet.body[:2] + b"\x01").encode())
        elif kind == PUBLISH:
            self._take_publish(packet, writer)
        elif kind == PUBACK:
            self.pubacks += 1
        elif kind == PINGREQ:
            writer.write(Packet(PINGRESP << 4, b"").encode())
        return kind != DISCONNECT

    def _take_publish(self, packet: Packet, writer: asyncio.StreamWriter) -> None:
        topic, packet_id, payload = packet.publish_parts()
        if packet_id is not None:
            writer.write(puback(packet_id).encode())
        self.published.append(Publication(topic, payload, bool(packet.first & 1)))
