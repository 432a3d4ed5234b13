"""Broker adversaries: an MQTT 3.1.1 relay that seats take for their broker, and that
misbehaves as a hostile broker may (protocol/SPEC.md, "The broker and strangers").

The relay accepts each seat's TCP connection, opens one to the real broker (the
*upstream*) for it, and passes the bytes through, packet by packet. It reads of each
packet only what a broker reads (:mod:`.packets`): the fixed header, and of a PUBLISH
its topic, packet id and payload; of a CONNECT its Last Will. It can therefore drop,
hold back, repeat or replace a publication, and publish a will, but it signs nothing
and holds no seat's key: the cards it can see are none (``learned`` stays empty). What
it decides is :class:`Relay`'s, which a test can put in front of the in-memory hub too.

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

Every misdeed aimed at a seat's stream reaches the answers it publishes to one asker's
resend requests as well (``…/p/<peer>/to/<asker>``, :mod:`lodam_p2p.transport.topics`):
they are that stream's frames, on a topic of their own.
``broker-fire-will``
    publishes the retained Last Will of a seat that is still connected: now and then,
    any seat's; or, on command (``--will-after N``), its victim's after every ``N``
    frames the victim publishes once seated.
``broker-lobby-censor``
    withholds from the host every frame of one joiner (``--victim N``: the N-th to ask
    for a seat, the first by default): its JOIN never reaches the host, which waits for
    the table to fill while the joiner is told that the host has not answered.

Run as ``python -m lodam_p2p.redteam.broker KIND --listen HOST:PORT --upstream
mqtt://HOST:PORT [--victim N] [--will-after N]``; on SIGTERM it prints one JSON line:
``kind``, ``attempted`` (how many times it misbehaved), ``learned`` (always empty) and,
for a censor (and a will fired on command), ``victim``: its seat, read off the table's
START (``--victim``, else seat 0), or for the lobby censor the joiner's place in the
order of asking.
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

from lodam_p2p.redteam.packets import (
    CONNECT,
    PUBLISH,
    Packet,
    puback,
    publish,
    read_packet,
    will_of,
)
from lodam_p2p.session.wire import BadMessage, Body, Msg
from lodam_p2p.transport.frames import Frame, FrameError
from lodam_p2p.transport.lobby import BadAnnouncement, TableAnnouncement
from lodam_p2p.transport.topics import stream_of
from lodam_p2p.transport.url import BrokerUrl

__all__ = ["KINDS", "Packet", "Relay", "publish", "run_relay", "serve", "will_of"]

#: The broker adversaries, with what each does.
KINDS = {
    "broker-replay": "replays old frames of a seat's stream to the others",
    "broker-censor": "withholds every frame its victim publishes",
    "broker-split-view": "shows its victim other frames than the others see",
    "broker-fire-will": "publishes a live seat's Last Will (now and then, or on command)",
    "broker-lobby-censor": "withholds one joiner's JOIN frames from the host",
}
_LOBBY_TOPIC = "/lobby/"
#: Frames a censor lets its victim publish first (its lobby and the lot).
SEATED_AFTER = 12


@dataclass
class Relay:
    """What the relay decides, shared by its connections (see the module docstring)."""

    kind: str
    victim_seat: int | None = None
    seed: int = 0
    #: broker-fire-will on command: fire the victim's will after every this many of its
    #: frames (None: now and then, any seat's)
    will_after: int | None = None
    attempted: int = 0
    victim_peer: str = ""
    #: the host, read off its signed announcement (any broker sees it)
    host_peer: str = ""
    #: every frame seen per peer topic, for replays and swaps
    history: dict[str, list[bytes]] = field(default_factory=dict)
    withheld: dict[bytes, int] = field(default_factory=dict)
    #: each peer's Last Will (topic, message), as its CONNECT registered it
    wills: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    peers_seen: list[str] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    #: the peers that asked for a seat (JOIN), in order
    joiners: list[str] = field(default_factory=list)
    #: frames the victim published since it was named (for ``will_after``)
    victim_frames: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def report(self) -> dict[str, object]:
        """The JSON line printed at the end."""
        line: dict[str, object] = {"kind": self.kind, "attempted": self.attempted,
                                   "learned": []}
        if self.kind.endswith("-censor") or self.will_after is not None:
            if self.victim_peer in self.seats:
                seat: int | None = self.seats.index(self.victim_peer)
            elif self.victim_peer in self.joiners:
                seat = self.joiners.index(self.victim_peer)
            else:
                seat = self.victim_seat
            line["victim"] = seat
            line["victim_peer"] = self.victim_peer
        return line

    def note_peer(self, peer: str) -> None:
        """A connection is ``peer``'s (it published on that peer's topic)."""
        if peer not in self.peers_seen:
            self.peers_seen.append(peer)

    def note_will(self, topic: str, message: bytes) -> None:
        """A CONNECT registered this will (on the presence topic of its peer)."""
        self.wills[topic.rsplit("/", 1)[-1]] = (topic, message)

    def learn_roster(self, payload: bytes) -> None:
        """Read the seats off the table's START (signed, not secret: any broker sees
        it), and pick the victim among them (``victim_seat``, else seat 0)."""
        if self.seats:
            return
        body = _body(payload)
        if body is None or body.kind is not Msg.START:
            return
        self.seats = [str(row[0]) for row in body.args[2]]
        singles_out = self.kind in ("broker-censor", "broker-split-view") or (
            self.kind == "broker-fire-will" and self.will_after is not None)
        if singles_out and self.seats:
            seat = self.victim_seat if self.victim_seat is not None else 0
            self.victim_peer = self.seats[seat % len(self.seats)]

    def learn_joiner(self, peer: str, payload: bytes) -> None:
        """The lobby censor names its victim: the ``victim_seat``-th peer to JOIN."""
        if self.kind != "broker-lobby-censor" or self.victim_peer or peer in self.joiners:
            return
        body = _body(payload)
        if body is None or body.kind is not Msg.JOIN or peer == self.host_peer:
            return
        self.joiners.append(peer)
        if len(self.joiners) > (self.victim_seat or 0):
            self.victim_peer = peer

    def learn_host(self, payload: bytes) -> None:
        """The host, from its table announcement."""
        if self.host_peer or not payload:
            return
        with contextlib.suppress(BadAnnouncement):
            self.host_peer = TableAnnouncement.decode(payload).host

    def from_seat(self, peer: str, topic: str, payload: bytes) -> bool:
        """A seat's publication: False to drop it."""
        if _LOBBY_TOPIC in topic:
            self.learn_host(payload)
            return True
        stream = stream_of(topic)
        if stream is None:
            return True
        history = self.history.setdefault(stream[1], [])
        if topic == stream[1]:  # an answer repeats a frame of the stream: not a new one
            history.append(payload)
        self.learn_roster(payload)
        self.learn_joiner(peer, payload)
        if peer and peer == self.victim_peer:
            self.victim_frames += 1
        # the censor lets its victim sit down first (its lobby and the lot: a dozen
        # frames), then withholds everything it says
        if (self.kind == "broker-censor" and peer and peer == self.victim_peer
                and len(history) > SEATED_AFTER):
            self.attempted += 1
            return False
        return True

    def will_to_fire(self, peer: str, topic: str) -> tuple[str, bytes] | None:
        """After ``peer``'s publication on ``topic``: a live seat's will to publish, if
        now is the time (broker-fire-will only)."""
        if self.kind != "broker-fire-will" or not self.wills:
            return None
        if self.will_after is None:
            if self.rng.random() >= 0.01:
                return None
            self.attempted += 1
            return self.wills[self.rng.choice(sorted(self.wills))]
        will = self.wills.get(self.victim_peer)
        if (will is None or peer != self.victim_peer or stream_of(topic) is None
                or self.victim_frames % self.will_after):
            return None
        self.attempted += 1
        return will

    def to_seat(self, peer: str, topic: str, payload: bytes) -> list[bytes] | None:
        """What to deliver to ``peer`` instead of ``payload`` (None: as it is)."""
        stream = stream_of(topic)
        if stream is None or stream[0] == peer:
            return None
        if (self.kind == "broker-lobby-censor" and peer == self.host_peer
                and self.victim_peer and stream[0] == self.victim_peer):
            self.attempted += 1
            return []
        old = self.history.get(stream[1], [])[:-20]
        if not old:
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


def _body(payload: bytes) -> Body | None:
    """The session body of a sealed DATA frame (signed, not secret), if it is one."""
    try:
        return Body.decode(Frame.decode(payload[96:]).body)
    except (BadMessage, FrameError):
        return None


async def _pump_up(relay: Relay, reader: asyncio.StreamReader, up: asyncio.StreamWriter,
                   down: asyncio.StreamWriter, me: list[str]) -> None:
    """Seat → broker."""
    while True:
        packet = await read_packet(reader)
        if packet.kind == CONNECT:
            will = will_of(packet.body)
            if will is not None:
                relay.note_will(*will)
        elif packet.kind == PUBLISH:
            topic, packet_id, payload = packet.publish_parts()
            stream = stream_of(topic)
            if stream is not None and not me[0]:
                me[0] = stream[0]
                relay.note_peer(me[0])
            if not relay.from_seat(me[0], topic, payload):
                if packet_id is not None:
                    down.write(puback(packet_id).encode())
                continue
            if _LOBBY_TOPIC in topic and not me[0] and relay.host_peer:
                me[0] = relay.host_peer  # the announcer: what it receives is the host's
            fired = relay.will_to_fire(me[0], topic)
            if fired is not None:  # after the frame: the seat's next one brings it back
                up.write(packet.encode())
                packet = publish(*fired, retain=True)
        up.write(packet.encode())
        await up.drain()


async def _pump_down(relay: Relay, reader: asyncio.StreamReader,
                     down: asyncio.StreamWriter, up: asyncio.StreamWriter,
                     me: list[str]) -> None:
    """Broker → seat."""
    while True:
        packet = await read_packet(reader)
        if packet.kind == PUBLISH and me[0]:
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
    parser.add_argument("--will-after", type=int, metavar="N",
                        help="broker-fire-will: fire the victim's will after every N of "
                        "its frames (default: any seat's, now and then)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    return run_relay(args.kind, args.listen, args.upstream, args.victim, args.seed,
                     will_after=args.will_after)


def run_relay(kind: str, listen: str, upstream: str, victim: int | None = None,
              seed: int = 0, *, will_after: int | None = None) -> int:
    """Relay ``listen`` (HOST:PORT) to the broker at ``upstream`` as adversary ``kind``
    until SIGTERM or SIGINT, then print the JSON report line. Raises ValueError on a bad
    address."""
    url = BrokerUrl.parse(upstream)
    if will_after is not None and will_after < 1:
        raise ValueError("--will-after takes a number of frames, 1 or more")
    relay = Relay(kind, victim, seed, will_after)

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
