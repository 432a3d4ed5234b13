"""The delaying relay of ``lodam bench net --delay-ms``: its delay, its order, and the
round trips it counts from the MQTT packets passing through it."""

from __future__ import annotations

import asyncio
import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.cli.relay import Delay, DelayRelay, _Packets
from lodam_p2p.session.wire import seal_frame
from lodam_p2p.transport.base import Message
from lodam_p2p.transport.frames import Frame, FrameKind
from lodam_p2p.transport.mqtt import MqttTransport
from lodam_p2p.transport.topics import peer_topic, table_peers_pattern
from tests.support.aio import run
from tests.support.brokers import Mosquitto


def test_delays_parse() -> None:
    assert Delay.parse("3,2") == Delay(3.0, 2.0)
    assert Delay.parse("0") == Delay(0.0, 0.0)
    assert str(Delay.parse("3,2")) == "3+U(0,2) ms"
    for bad in ("", "x", "3,2,1", "-1", "2000"):
        with pytest.raises(ValueError):
            Delay.parse(bad)


def test_packets_are_read_across_reads() -> None:
    publish = bytes([0x32, 8, 0, 3]) + b"a/b" + bytes([0, 9]) + b"x"
    puback = bytes([0x40, 2, 0, 9])
    packets = _Packets()
    wire = publish + puback
    found = []
    for i in range(len(wire)):  # one byte at a time
        found += packets.feed(wire[i:i + 1])
    assert found == [(3, 2, publish[2:]), (4, 0, puback[2:])]


def test_bytes_cross_in_order_and_no_sooner_than_the_delay() -> None:
    """Each read is held at least the delay, and no read overtakes another whatever
    its draw of jitter."""
    chunks = [b"%03d;" % n for n in range(100)]

    async def scenario() -> tuple[bytes, float]:
        got = bytearray()
        done = asyncio.Event()

        async def sink(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while data := await reader.read(1024):
                got.extend(data)
                if len(got) >= sum(map(len, chunks)):
                    done.set()
            writer.close()

        server = await asyncio.start_server(sink, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        loop = asyncio.get_running_loop()
        async with DelayRelay("127.0.0.1", port, Delay(20, 30), random.Random(7)) as relay:
            _reader, writer = await asyncio.open_connection(
                "127.0.0.1", int(relay.url.rsplit(":", 1)[1]))
            started = loop.time()
            for chunk in chunks:
                writer.write(chunk)
                await writer.drain()
            async with asyncio.timeout(30):  # a safety net only
                await done.wait()
            took = loop.time() - started
            writer.close()
        server.close()
        return bytes(got), took

    got, took = run(scenario())
    assert got == b"".join(chunks)
    assert took >= 0.020


KEY = Ed25519PrivateKey.generate()


def _data(sender: str, seq: int, kind: FrameKind = FrameKind.DATA) -> bytes:
    return Frame(kind, sender, seq, b"body" if kind is FrameKind.DATA else b"").encode()


def test_round_trips_are_the_longest_chain_of_frames_waited_for(mosquitto: Mosquitto) -> None:
    """ann sends, bob answers what he read, ann answers that: three round trips one
    after another. bob's second frame, sent before ann's answer reached him, waits for
    nothing new; heartbeats and a peer's own frames coming back count for nothing."""
    async def scenario() -> int:
        async with DelayRelay("127.0.0.1", mosquitto.port, Delay(0)) as relay:
            ann = MqttTransport(relay.url)
            bob = MqttTransport(relay.url)
            async with ann, bob:
                for peer in (ann, bob):
                    await peer.subscribe(table_peers_pattern("oak"))
                boxes = {name: _Box(peer) for name, peer in (("pann", ann), ("pbob", bob))}
                await ann.publish(peer_topic("oak", "pann"), _data("pann", 1))  # depth 1
                await boxes["pbob"].wait_for("pann", 1)
                await bob.publish(peer_topic("oak", "pbob"), _data("pbob", 1))  # depth 2
                await bob.publish(peer_topic("oak", "pbob"),
                                  _data("pbob", 1, FrameKind.STATUS))  # a heartbeat
                await boxes["pann"].wait_for("pbob", 1)
                await bob.publish(peer_topic("oak", "pbob"), _data("pbob", 2))  # depth 2
                signed = seal_frame(KEY, KEY.public_key().public_bytes_raw(), "oak",
                                    _data("pann", 2))  # as a session publishes it
                await ann.publish(peer_topic("oak", "pann"), signed)  # depth 3
                await boxes["pbob"].wait_for("pann", 2)
                for box in boxes.values():
                    box.stop()
            assert relay.round_trips.depth_of == {("pann", 1): 1, ("pbob", 1): 2,
                                                  ("pbob", 2): 2, ("pann", 2): 3}
            return relay.round_trips.deepest

    assert run(scenario()) == 3


class _Box:
    """A peer's received frames, awaited by sender and number."""

    def __init__(self, transport: MqttTransport) -> None:
        self.frames: set[tuple[str, int]] = set()
        self._news = asyncio.Event()
        self._task = asyncio.create_task(self._take(transport))

    async def _take(self, transport: MqttTransport) -> None:
        async for message in transport.messages():
            self._note(message)

    def _note(self, message: Message) -> None:
        payload = message.payload
        # an unsigned frame is a msgpack array of seven; a sealed one has 96 bytes before
        frame = Frame.decode(payload if payload[0] == 0x97 else payload[96:])
        if frame.kind is FrameKind.DATA:
            self.frames.add((frame.sender, frame.seq))
            self._news.set()

    async def wait_for(self, sender: str, seq: int) -> None:
        async with asyncio.timeout(30):  # a safety net only
            while (sender, seq) not in self.frames:
                self._news.clear()
                await self._news.wait()

    def stop(self) -> None:
        self._task.cancel()


def test_side_by_side_needs_a_delay(capsys: pytest.CaptureFixture[str]) -> None:
    from lodam_p2p.cli import main

    assert main(["bench", "net", "--side-by-side"]) != 0
    assert "give --delay-ms" in capsys.readouterr().err
    assert main(["bench", "net", "--delay-ms", "3,2", "--broker", "mqtts://h:8883"]) != 0
    assert "mqtts" in capsys.readouterr().err


def test_a_turn_is_a_seats_decision_and_nothing_else() -> None:
    """The relay tells the game's own turns from the protocol's round trips: a MOVE that
    decides (a card, an offer, an answer) is a turn; an exchange's outcome and re-mask,
    fair-deal envelopes and bodies that do not read are not."""
    from lodam_p2p.cli.relay import RoundTrips, is_turn
    from lodam_p2p.session.wire import Body, Msg

    play = Body(Msg.MOVE, 1, 4, ("play", 7)).encode()
    offer = Body(Msg.MOVE, 1, 5, ("offer", None, None)).encode()
    outcome = Body(Msg.MOVE, 1, 6, ("outcome", False, 9)).encode()
    remask = Body(Msg.MOVE, 1, 6, ("remask",)).encode()
    proto = Body(Msg.PROTO, 1, 0, (), (b"envelope",)).encode()
    assert is_turn(play) and is_turn(offer)
    assert not any(is_turn(body) for body in (outcome, remask, proto, b"\x93junk"))
    trips = RoundTrips()
    trips.published(Frame(FrameKind.DATA, "pann", 1, proto), 0, 0)  # depth 1
    trips.published(Frame(FrameKind.DATA, "pbob", 1, play), 0, 1)  # depth 2: a turn
    trips.published(Frame(FrameKind.DATA, "pann", 2, outcome), 1, 2)  # depth 3
    trips.published(Frame(FrameKind.DATA, "pbob", 2, remask), 2, 3)  # depth 4 …
    trips.published(Frame(FrameKind.DATA, "pbob", 3, offer), 4, 3)  # … its turn
    assert trips.deepest == 4
    assert trips.turn_depths == {2, 4}
    assert trips.turns_per_deal(2) == 1.0 and trips.per_deal(2) == 2.0
