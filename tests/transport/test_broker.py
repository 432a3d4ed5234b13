"""The embedded broker and ``lodam broker``."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lodam_p2p.transport.broker import BrokerStartError, EmbeddedBroker, ListenAddress
from lodam_p2p.transport.mqtt import MqttTransport
from tests.support.aio import Inbox, run

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("127.0.0.1:1999", ListenAddress("127.0.0.1", 1999)),
     ("0.0.0.0", ListenAddress("0.0.0.0", 1883)),
     (":0", ListenAddress("127.0.0.1", 0)), ("[::1]:7", ListenAddress("::1", 7)),
     ("::1", ListenAddress("::1", 1883))],
)
def test_listen_address_parses(text: str, expected: ListenAddress) -> None:
    assert ListenAddress.parse(text) == expected


@pytest.mark.parametrize("text", ["h:x", "h:70000", "h:-1"])
def test_bad_listen_address(text: str) -> None:
    with pytest.raises(ValueError, match="bad listen address"):
        ListenAddress.parse(text)


def test_embedded_broker_relays_and_binds_loopback_by_default() -> None:
    async def scenario() -> tuple[str, bytes]:
        async with EmbeddedBroker() as broker:
            assert broker.listen.host == "127.0.0.1" and broker.port > 0
            async with MqttTransport(broker.url) as ann, MqttTransport(broker.url) as bob:
                await bob.subscribe("lodam/#")
                inbox = Inbox(bob)
                await ann.publish("lodam/v3/lobby/oak", b"hi", retain=True)
                message = await inbox.topic("lodam/v3/lobby/oak")
                await inbox.stop()
            return broker.url, message.payload

    url, payload = run(scenario())
    assert url.startswith("mqtt://127.0.0.1:") and payload == b"hi"


def test_port_in_use_is_a_clean_error() -> None:
    async def scenario() -> None:
        async with EmbeddedBroker() as first:
            second = EmbeddedBroker(ListenAddress("127.0.0.1", first.port))
            with pytest.raises(BrokerStartError, match="address already in use"):
                await second.start()

    run(scenario())


def test_lodam_broker_serves_until_interrupted() -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "lodam_p2p", "broker", "--listen", "127.0.0.1:0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        banner = child.stdout.readline()
        url = banner.split("clients use ")[1].split(")")[0]

        async def use() -> None:
            async with MqttTransport(url) as client:
                await client.publish("lodam/v3/lobby/x", b"")

        run(use())
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=20)
    finally:
        child.kill()
    assert child.returncode == 0 and "stopped" in out and err == ""


def test_nothing_listens_after_stop() -> None:
    async def scenario() -> None:
        async with EmbeddedBroker() as broker:
            port = broker.port
        with pytest.raises(OSError):
            await asyncio.open_connection("127.0.0.1", port)

    run(scenario())



def test_clients_that_connect_while_others_subscribe_are_all_served() -> None:
    """amqtt sends a connecting client the retained messages of every topic filter,
    awaiting inside its loop over the filters. A filter added meanwhile (here a peer
    that keeps subscribing to new topics) used to end that client's handling: it stayed
    connected and never got a message. Every client here must get its own."""
    joiners, retained = 10, 8

    async def scenario() -> None:
        async with (EmbeddedBroker() as broker, MqttTransport(broker.url) as host,
                    MqttTransport(broker.url) as busy):
            for n in range(retained):  # filters that match retained messages
                await host.subscribe(f"lodam/presence/{n}")
                await host.publish(f"lodam/presence/{n}", b"here", retain=True)
            joined = asyncio.Event()

            async def churn() -> int:
                added = 0
                while not joined.is_set():
                    await busy.subscribe(f"lodam/extra/{added}")
                    added += 1
                return added

            churning = asyncio.create_task(churn())
            peers: list[tuple[MqttTransport, Inbox]] = []
            try:
                for n in range(joiners):
                    peer = MqttTransport(broker.url)
                    await peer.connect()
                    peers.append((peer, Inbox(peer)))
                    await peer.subscribe(f"lodam/peer-{n}")
                joined.set()
                assert await churning > 0
                for n in range(joiners):
                    await host.publish(f"lodam/peer-{n}", b"yours")
                for n, (_peer, inbox) in enumerate(peers):
                    message = await inbox.topic(f"lodam/peer-{n}", timeout=20.0)
                    assert message.payload == b"yours"
            finally:
                joined.set()
                await churning
                for peer, inbox in peers:
                    await inbox.stop()
                    await peer.close()

    run(scenario(), timeout=90.0)
