"""The aiomqtt adapter against real brokers: a private Mosquitto and in-process amqtt."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from lodam_p2p.transport.base import ConnectError, Message
from lodam_p2p.transport.mqtt import Backoff, MqttTransport
from lodam_p2p.transport.presence import Presence, PresenceSpec
from lodam_p2p.transport.topics import (
    peer_topic,
    presence_topic,
    table_peers_pattern,
    table_presence_pattern,
)
from tests.support.aio import Inbox, run
from tests.support.brokers import Mosquitto, free_port

ROOT = Path(__file__).resolve().parents[2]
FAST = Backoff(initial=0.05, maximum=0.5)


@pytest.fixture(params=["mosquitto", "amqtt"])
def broker_url(request: pytest.FixtureRequest) -> str:
    """Each test runs against both brokers."""
    name = "mosquitto" if request.param == "mosquitto" else "amqtt_broker"
    return str(request.getfixturevalue(name).url)


def presence_of(message: Message) -> Presence:
    return Presence.decode(message.payload)


def test_publish_subscribe_and_retained(broker_url: str) -> None:
    async def scenario() -> None:
        async with MqttTransport(broker_url) as ann, MqttTransport(broker_url) as bob:
            await ann.publish("lodam/v3/lobby/oak", b"announced", retain=True)
            await bob.subscribe(table_peers_pattern("oak"))
            await bob.subscribe("lodam/v3/lobby/+")
            inbox = Inbox(bob)
            retained = await inbox.topic("lodam/v3/lobby/oak")
            await ann.publish(peer_topic("oak", "ann"), b"\x00hello")
            live = await inbox.topic(peer_topic("oak", "ann"))
            await inbox.stop()
            assert (retained.payload, retained.retain) == (b"announced", True)
            assert (live.payload, live.retain) == (b"\x00hello", False)
            await ann.publish("lodam/v3/lobby/oak", b"", retain=True)  # leave no trace

    run(scenario())


def test_clean_close_announces_departure_with_the_same_nonce(broker_url: str) -> None:
    async def scenario() -> None:
        async with MqttTransport(broker_url) as watcher:
            await watcher.subscribe(table_presence_pattern("oak"))
            inbox = Inbox(watcher)
            ann = MqttTransport(broker_url, PresenceSpec("oak", "ann"))
            await ann.connect()
            nonce = ann.nonce
            online = await inbox.topic(presence_topic("oak", "ann"))
            await ann.close()
            gone = await inbox.wait_for(lambda m: not presence_of(m).online)
            await inbox.stop()
            assert presence_of(online) == Presence("ann", str(nonce), online=True, conn=1)
            assert presence_of(gone) == Presence("ann", str(nonce), online=False, conn=1)

    run(scenario())


def test_will_fires_when_a_peer_is_killed(broker_url: str) -> None:
    async def scenario() -> None:
        async with MqttTransport(broker_url) as watcher:
            await watcher.subscribe(table_presence_pattern("oak"))
            inbox = Inbox(watcher)
            child = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.support.presence_peer", broker_url, "oak", "cid",
                cwd=ROOT, stdout=subprocess.PIPE)
            assert child.stdout is not None
            line = (await asyncio.wait_for(child.stdout.readline(), 20)).decode().split()
            nonce = line[1]
            await inbox.wait_for(lambda m: presence_of(m).online)
            os.kill(child.pid, signal.SIGKILL)
            await child.wait()
            gone = await inbox.wait_for(lambda m: not presence_of(m).online, timeout=20)
            await inbox.stop()
            assert presence_of(gone) == Presence("cid", nonce, online=False, conn=1)

    run(scenario(), timeout=60)


def test_garbage_does_not_break_a_subscriber(broker_url: str) -> None:
    port = int(broker_url.rsplit(":", 1)[1])

    async def scenario() -> None:
        async with MqttTransport(broker_url) as rogue, MqttTransport(broker_url) as bob:
            await bob.subscribe(table_peers_pattern("oak"))
            inbox = Inbox(bob)
            for junk in (b"", os.urandom(64 * 1024), b"\xff" * 7, "é".encode()):
                await rogue.publish(peer_topic("oak", "rogue"), junk)
            with socket.create_connection(("127.0.0.1", port)) as raw:
                raw.sendall(b"\x10\xff\xff\xff\xff\x7fnot mqtt at all" + os.urandom(256))
            await rogue.publish(peer_topic("oak", "rogue"), b"still here")
            last = await inbox.wait_for(lambda m: m.payload == b"still here")
            await inbox.stop()
            assert len(inbox.received) == 5 and last.topic == peer_topic("oak", "rogue")

    run(scenario())


def test_reconnects_after_the_broker_restarts(mosquitto: Mosquitto) -> None:
    async def scenario() -> None:
        ann = MqttTransport(mosquitto.url, PresenceSpec("oak", "ann"), backoff=FAST)
        async with ann:
            await ann.subscribe(table_peers_pattern("oak"))
            inbox = Inbox(ann)
            first_nonce = ann.nonce
            mosquitto.stop()
            await wait_until(lambda: not ann.connected)
            pending = asyncio.create_task(ann.publish("lodam/v3/lobby/oak", b"kept", retain=True))
            mosquitto.start()
            await wait_until(lambda: ann.epoch == 2)
            await asyncio.wait_for(pending, 30)  # a safety net
            async with MqttTransport(mosquitto.url) as bob:
                await bob.subscribe("lodam/v3/lobby/+")
                await bob.subscribe(table_presence_pattern("oak"))
                bob_inbox = Inbox(bob)
                await bob_inbox.topic("lodam/v3/lobby/oak")
                seen = await bob_inbox.topic(presence_topic("oak", "ann"))
                await bob.publish(peer_topic("oak", "bob"), b"after restart")
                await inbox.topic(peer_topic("oak", "bob"))
                await bob_inbox.stop()
            await inbox.stop()
            told = presence_of(seen)  # connection attempts that failed count too
            assert (told.peer, told.nonce, told.online) == ("ann", ann.nonce, True)
            assert told.conn >= 2
            assert ann.nonce != first_nonce

    run(scenario(), timeout=60)


def test_refused_connection_is_a_clean_error() -> None:
    port = free_port()

    async def scenario() -> None:
        with pytest.raises(ConnectError, match=f"cannot connect to mqtt://127.0.0.1:{port}"):
            await MqttTransport(f"mqtt://127.0.0.1:{port}").connect()

    run(scenario())


def test_refused_login_is_a_clean_error(make_mosquitto: Callable[[str], Mosquitto]) -> None:
    locked = make_mosquitto("allow_anonymous false")
    url = locked.url.replace("mqtt://", "mqtt://eve:s%40cret@")

    async def scenario() -> None:
        with pytest.raises(ConnectError, match="refused the login") as caught:
            await MqttTransport(url).connect()
        assert "s@cret" not in str(caught.value) and "eve:***@" in str(caught.value)

    run(scenario())


async def wait_until(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    """Poll ``condition`` every 20 ms until it holds."""
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(poll(), timeout)


def test_gives_up_after_the_deadline_and_says_so(mosquitto: Mosquitto) -> None:
    async def scenario() -> None:
        ann = MqttTransport(mosquitto.url, backoff=FAST, give_up_after=0.5, publish_timeout=5)
        await ann.connect()
        await ann.subscribe("lodam/#")
        mosquitto.stop()
        with pytest.raises(ConnectError, match="gave up reconnecting"):
            async for _message in ann.messages():
                pass
        with pytest.raises(ConnectError, match="gave up reconnecting"):
            await ann.publish("lodam/v3/lobby/oak", b"x")
        await ann.close()

    run(scenario())


def test_a_link_that_breaks_under_waiting_acknowledgements_prints_nothing(
        mosquitto: Mosquitto) -> None:
    """A link that breaks while acknowledgements are awaited fails them; one that nobody
    awaits any more (its publisher gave up) is nobody's news, and asyncio must not print
    it as a "Future exception was never retrieved" traceback."""
    import gc

    from lodam_p2p.transport import mqtt
    from lodam_p2p.transport.url import BrokerUrl

    async def scenario() -> tuple[list[str], bool]:
        loop = asyncio.get_running_loop()
        reported: list[str] = []
        loop.set_exception_handler(lambda _loop, context: reported.append(context["message"]))
        link = mqtt._Connection(BrokerUrl.parse(mosquitto.url), client_id=None, keepalive=10,
                                will=None, tls_context=None, take=lambda _message: None)
        await link.connect(5.0)
        link._acks.waiting[4242] = loop.create_future()  # an acknowledgement nobody awaits now
        awaited = asyncio.ensure_future(link._ack(4243))
        await asyncio.sleep(0)
        link.disconnect()
        with contextlib.suppress(mqtt._LinkError):
            await awaited
        broken = link.broken.is_set()
        del link
        gc.collect()
        return reported, broken

    assert run(scenario()) == ([], True)


class _StallFirst:
    """A relay to a broker that, on the first connection only, stops passing what the
    client sends once the broker has answered its CONNECT: the broker takes the client
    and then never hears its set-up (a broker too busy to answer in time). With
    ``close``, it instead reads the first connection's CONNECT and closes it unanswered,
    as a NATS node not ready yet does."""

    def __init__(self, port: int, *, close: bool = False) -> None:
        self.port, self.connections, self.close = port, 0, close
        self.url = ""

    async def __aenter__(self) -> _StallFirst:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.url = f"mqtt://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self._server.close()

    async def _relay(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        self.connections += 1
        stall = self.connections == 1
        if stall and self.close:
            await client_r.read(4096)
            client_w.close()
            return
        broker_r, broker_w = await asyncio.open_connection("127.0.0.1", self.port)
        answered = asyncio.Event()

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, up: bool) -> None:
            with contextlib.suppress(OSError):
                while data := await src.read(4096):
                    if not up:
                        answered.set()
                    elif stall and answered.is_set():
                        continue  # the set-up never reaches the broker
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(client_r, broker_w, True), pipe(broker_r, client_w, False))


def test_a_first_connection_whose_set_up_goes_unanswered_is_tried_again(
        mosquitto: Mosquitto, monkeypatch: pytest.MonkeyPatch) -> None:
    """A broker that takes the connection but does not answer the set-up (here the
    presence) in time is a busy broker, not a wrong address: the first connection is
    tried again rather than given up."""
    from lodam_p2p.transport import mqtt

    monkeypatch.setattr(mqtt, "DISCONNECT_WAIT_S", 0.1)  # the stalled link never answers

    async def scenario() -> int:
        async with _StallFirst(mosquitto.port) as relay, MqttTransport(mosquitto.url) as bob:
            await bob.subscribe(table_presence_pattern("oak"))
            inbox = Inbox(bob)
            ann = MqttTransport(relay.url, PresenceSpec("oak", "ann"), timeout=3.0,
                                backoff=FAST)
            await ann.connect()
            try:
                await inbox.wait_for(  # the second connection's presence came through
                    lambda m: m.topic == presence_topic("oak", "ann")
                    and presence_of(m).online and presence_of(m).nonce == ann.nonce)
            finally:
                await inbox.stop()
                await ann.close()
            return relay.connections

    assert run(scenario()) == 2


def test_a_first_connection_closed_unanswered_is_tried_again(mosquitto: Mosquitto) -> None:
    """A broker that takes the connection and closes it without a CONNACK (a NATS node
    whose cluster is still placing its streams) is tried again, not given up."""

    async def scenario() -> int:
        async with _StallFirst(mosquitto.port, close=True) as relay:
            ann = MqttTransport(relay.url, PresenceSpec("oak", "ann"), timeout=3.0,
                                backoff=FAST)
            await ann.connect()
            assert ann.epoch == 1
            await ann.close()
            return relay.connections

    assert run(scenario()) == 2
