"""The few MQTT 3.1.1 packets a broker adversary reads and writes (:mod:`.broker`): the
fixed header of every packet, a PUBLISH's topic, packet id and payload, a CONNECT's Last
Will, and the PUBLISH and PUBACK it makes itself. A relay reads no more than a broker
does. The suite's scripted broker (``tests/support/scripted_broker.py``) reads and
writes its packets with the same functions, and answers the other kinds named here."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

#: The kinds of packet (the first byte's high four bits) read or written here.
CONNECT, CONNACK, PUBLISH, PUBACK, SUBSCRIBE, SUBACK = 1, 2, 3, 4, 8, 9
PINGREQ, PINGRESP, DISCONNECT = 12, 13, 14


@dataclass(frozen=True, slots=True)
class Packet:
    """One MQTT packet: its first byte and the bytes after the remaining length."""

    first: int
    body: bytes

    @property
    def kind(self) -> int:
        return self.first >> 4

    def encode(self) -> bytes:
        return bytes([self.first]) + _length(len(self.body)) + self.body

    def publish_parts(self) -> tuple[str, int | None, bytes]:
        """A PUBLISH's topic, packet id (QoS 1 and 2) and payload."""
        size = int.from_bytes(self.body[:2], "big")
        topic = self.body[2:2 + size].decode("utf-8", "replace")
        at = 2 + size
        packet_id = None
        if (self.first >> 1) & 3:
            packet_id = int.from_bytes(self.body[at:at + 2], "big")
            at += 2
        return topic, packet_id, self.body[at:]


def _length(n: int) -> bytes:
    out = bytearray()
    while True:
        n, digit = divmod(n, 128)
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes(out)


def publish(topic: str, payload: bytes, *, retain: bool = False,
            packet_id: int | None = None) -> Packet:
    """A PUBLISH: at QoS 0 (nobody acknowledges it), or at QoS 1 with ``packet_id``."""
    name = topic.encode()
    head = len(name).to_bytes(2, "big") + name
    if packet_id is None:
        return Packet(PUBLISH << 4 | int(retain), head + payload)
    return Packet(PUBLISH << 4 | 2 | int(retain), head + packet_id.to_bytes(2, "big") + payload)


def puback(packet_id: int) -> Packet:
    """The acknowledgement of a QoS 1 PUBLISH."""
    return Packet(PUBACK << 4 | 0, packet_id.to_bytes(2, "big"))


def will_of(connect: bytes) -> tuple[str, bytes] | None:
    """The Last Will (topic, message) a CONNECT body registers, if any."""
    size = int.from_bytes(connect[:2], "big")
    at = 2 + size + 1  # protocol name, level
    flags = connect[at]
    if not flags & 0x04:
        return None
    at += 3  # flags, keep-alive
    client_size = int.from_bytes(connect[at:at + 2], "big")
    at += 2 + client_size
    topic_size = int.from_bytes(connect[at:at + 2], "big")
    topic = connect[at + 2:at + 2 + topic_size].decode("utf-8", "replace")
    at += 2 + topic_size
    message_size = int.from_bytes(connect[at:at + 2], "big")
    return topic, connect[at + 2:at + 2 + message_size]


async def read_packet(reader: asyncio.StreamReader) -> Packet:
    """The next packet (raises IncompleteReadError at the end)."""
    first = (await reader.readexactly(1))[0]
    length, shift = 0, 0
    for _ in range(4):
        digit = (await reader.readexactly(1))[0]
        length |= (digit & 0x7F) << shift
        shift += 7
        if not digit & 0x80:
            break
    return Packet(first, await reader.readexactly(length))
