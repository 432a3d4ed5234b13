"""Broker adversaries: an MQTT 3.1.1 relay that seats take for their broker, and that
misbehaves as a hostile broker may (protocol/SPEC.md, "The broker and strangers").

The relay accepts each seat's TCP connection, opens one to the real broker (the
*upstream*) for it, and passes the bytes through, packet by packet. It reads of each
packet only what a broker reads: the fixed header, and of a PUBLISH its topic, packet
id and payload; of a CONNECT its Last Will. It can therefore drop, hold back, repeat or
replace a publication, and publish a will, but it signs nothing and holds no seat's
key: the cards it can see are none (``learned`` stays empty).

Kinds (:data:`KINDS`):

``broker-replay``
    delivers to each seat, now and then, an old frame of another seat's stream.
``broker-censor``
    once its victim is seated (after its first dozen frames), withholds every frame the
    victim publishes (the PUBLISH is acknowledged to it and dropped): the victim's
    presence still goes through.
``broker-split-view``
    shows its victim another view: now and then a frame of another seat is withheld
    from the victim (its resends too, a few times) and an older one delivered in its
    place.
``broker-fire-will``
    now and then publishes the retained Last Will of a seat that is still connected.

Run as ``python -m lodam_p2p.redteam.broker KIND --listen HOST:PORT --upstream
mqtt://HOST:PORT [--victim N]``; on SIGTERM it prints one JSON line: ``kind``,
``attempted`` (how many times it misbehaved), ``learned`` (always empty) and, for a
censor, ``victim`` (its seat, read off the table's START; ``--victim``, else seat 0).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import signal
import sys
from dataclasses import dataclass, field

from lodam_p2p.session.wire import BadMessage, Body, Msg
from lodam_p2p.transport.frames import Frame, FrameError
from lodam_p2p.transport.url import BrokerUrl

#: The broker adversaries, with what each does.
KINDS = {
    "broker-replay": "replays old frames of a seat's stream to the others",
    "broker-censor": "withholds every frame its victim publishes",
    "broker-split-view": "shows its victim other frames than the others see",
    "broker-fire-will": "publishes a live seat's Last Will",
}
_PUBLISH, _PUBACK, _CONNECT = 3, 4, 1
_PEER_TOPIC = "/p/"


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


def publish(topic: str, payload: bytes, *, retain: bool = False) -> Packet:
    """A QoS 0 PUBLISH (nobody acknowledges it)."""
    name = topic.encode()
    return Packet(0x30 | int(retain), len(name).to_bytes(2, "big") + name + payload)


def puback(packet_id: int) -> Packet:
    """The acknowledgement of a QoS 1 PUBLISH."""
    return Packet(_PUBACK << 4 | 0, packet_id.to_bytes(2, "big"))


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


@dataclass
class Relay:
    """The relay's state, shared by its connections."""

    kind: str
    victim_seat: int | None = None
    seed: int = 0
    attempted: int = 0
    victim_peer: str = ""
    #: every frame seen per peer topic, for replays and swaps
    history: dict[str, list[bytes]] = field(default_factory=dict)
    withheld: dict[bytes, int] = field(default_factory=dict)
    wills: list[tuple[str, bytes]] = field(default_factory=list)
    peers_seen: list[str] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def report(self) -> dict[str, object]:
        """The JSON line printed at the end."""
        line: dict[str, object] = {"kind": self.kind, "attempted": self.attempted,
                                   "learned": []}
        if self.kind.endswith("-censor"):
            seat = self.seats.index(self.victim_peer) if self.victim_peer in self.seats \
                else self.victim_seat
            line["victim"] = seat
            line["victim_peer"] = self.victim_peer
        return line

    def note_peer(self, peer: str) -> None:
        if peer not in self.peers_seen:
            self.peers_seen.append(peer)

    def learn_roster(self, payload: bytes) -> None:
        """Read the seats off the table's START (signed, not secret: any broker sees
        it), and pick the victim among them (``victim_seat``, else seat 0)."""
        if self.seats:
            return
        try:
            body = Body.decode(Frame.decode(payload[96:]).body)
        except (BadMessage, FrameError):
            return
        if body.kind is not Msg.START:
            return
        self.seats = [str(row[0]) for row in body.args[2]]
        if self.kind in ("broker-censor", "broker-split-view") and self.seats:
            seat = self.victim_seat if self.victim_seat is not None else 0
            self.victim_peer = self.seats[seat % len(self.seats)]

    def from_seat(self, peer: str, topic: str, payload: bytes) -> bool:
        """A seat's publication: False to drop it."""
        if _PEER_TOPIC not in topic:
            return True
        history = self.history.setdefault(topic, [])
        history.append(payload)
        self.learn_roster(payload)
        # the censor lets its victim sit down first (its lobby and the lot: a dozen
        # frames), then withholds everything it says
        if (self.kind == "broker-censor" and peer and peer == self.victim_peer
                and len(history) > 12):
            self.attempted += 1
            return False
        return True

    def to_seat(self, peer: str, topic: str, payload: bytes) -> list[bytes] | None:
        """What to deliver to ``peer`` instead of ``payload`` (None: as it is)."""
        history = self.history.get(topic, [])
        old = history[:-20]
        if _PEER_TOPIC not in topic or topic.endswith(peer) or not old:
            return None
        if self.kind == "broker-replay" and self.rng.random() < 0.05:
            self.attempted += 1
            return [payload, self.rng.choice(old)]
        if self.kind == "broker-split-view" and peer == self.victim_peer:
            held = self.withheld.get(payload)
            if held is None and self.rng.random() < 0.05:
                held = 0
            if held is not None and held < 6:
                self.withheld[payload] = held + 1
                self.attempted += 1
                return [self.rng.choice(old)]
        return None


async def _pump_up(relay: Relay, reader: asyncio.StreamReader, up: asyncio.StreamWriter,
                   down: asyncio.StreamWriter, me: list[str]) -> None:
    """Seat → broker."""
    while True:
        packet = await read_packet(reader)
        if packet.kind == _CONNECT:
            will = will_of(packet.body)
            if will is not None:
                relay.wills.append(will)
        elif packet.kind == _PUBLISH:
            topic, packet_id, payload = packet.publish_parts()
            if _PEER_TOPIC in topic and not me[0]:
                me[0] = topic.rsplit("/", 1)[-1]
                relay.note_peer(me[0])
            if not relay.from_seat(me[0], topic, payload):
                if packet_id is not None:
                    down.write(puback(packet_id).encode())
                continue
            if relay.kind == "broker-fire-will" and relay.wills and relay.rng.random() < 0.01:
                relay.attempted += 1
                topic_w, message = relay.rng.choice(relay.wills)
                up.write(publish(topic_w, message, retain=True).encode())
        up.write(packet.encode())
        await up.drain()


async def _pump_down(relay: Relay, reader: asyncio.StreamReader,
                     down: asyncio.StreamWriter, up: asyncio.StreamWriter,
                     me: list[str]) -> None:
    """Broker → seat."""
    while True:
        packet = await read_packet(reader)
        if packet.kind == _PUBLISH and me[0]:
            topic, packet_id, payload = packet.publish_parts()
            instead = relay.to_seat(me[0], topic, payload)
            if instead is not None:
                if packet_id is not None:  # the broker is answered; the seat is not told
                    up.write(puback(packet_id).encode())
                for each in instead:
                    down.write(publish(topic, each).encode())
                await down.drain()
                continue
        down.write(packet.encode())
        await down.drain()


async def serve(relay: Relay, listen: tuple[str, int], upstream: tuple[str, int],
                ready: asyncio.Event | None = None, stop: asyncio.Event | None = None) -> None:
    """Relay every connection to ``listen`` to ``upstream`` until ``stop``."""

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*upstream)
        except OSError:
            writer.close()
            return
        me = [""]
        tasks = [asyncio.create_task(_pump_up(relay, reader, up_writer, writer, me)),
                 asyncio.create_task(_pump_down(relay, up_reader, writer, up_writer, me))]
        with contextlib.suppress(Exception):
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        for each in (writer, up_writer):
            each.close()

    server = await asyncio.start_server(client, *listen)
    if ready is not None:
        ready.set()
    async with server:
        await (stop or asyncio.Event()).wait()


def _host_port(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host or "127.0.0.1", int(port)


def main(argv: list[str] | None = None) -> int:
    """``python -m lodam_p2p.redteam.broker KIND --listen H:P --upstream URL``."""
    parser = argparse.ArgumentParser(prog="lodam adversary broker-KIND")
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("--listen", required=True, help="HOST:PORT the seats connect to")
    parser.add_argument("--upstream", required=True, help="the real broker's mqtt:// URL")
    parser.add_argument("--victim", type=int, help="the censored seat (default: seat 0)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    return run_relay(args.kind, args.listen, args.upstream, args.victim, args.seed)


def run_relay(kind: str, listen: str, upstream: str, victim: int | None = None,
              seed: int = 0) -> int:
    """Relay ``listen`` (HOST:PORT) to the broker at ``upstream`` as adversary ``kind``
    until SIGTERM or SIGINT, then print the JSON report line. Raises ValueError on a bad
    address."""
    url = BrokerUrl.parse(upstream)
    relay = Relay(kind, victim, seed)

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await serve(relay, _host_port(listen), (url.host, url.port), stop=stop)

    asyncio.run(run())
    print(json.dumps(relay.report()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
