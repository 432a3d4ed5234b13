"""Broker adversaries as a relay in front of a real mosquitto: host + 4 bot seats
(Lodam, one life) play through each; the match ends with one result, nobody blamed,
and the relay learns nothing."""

from __future__ import annotations

import asyncio
import socket

import pytest

from lodam_p2p.games.lodam import Options
from lodam_p2p.redteam.broker import KINDS, Packet, Relay, publish, serve, will_of
from lodam_p2p.session.table import _sessions, mqtt_connector
from lodam_p2p.tableplan import MatchOutcome
from tests.session.helpers import PATIENT, bots
from tests.support.brokers import Mosquitto


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_publish_packet_is_read_and_written_as_mqtt_says() -> None:
    packet = publish("lodam/v3/t/oak/p/abc", b"\x01\x02", retain=True)
    encoded = packet.encode()
    assert encoded[0] == 0x31 and encoded[1] == len(encoded) - 2
    assert Packet(encoded[0], encoded[2:]).publish_parts() == ("lodam/v3/t/oak/p/abc",
                                                               None, b"\x01\x02")
    qos1 = Packet(0x32, b"\x00\x01t\x00\x07data")
    assert qos1.publish_parts() == ("t", 7, b"data")
    connect = (b"\x00\x04MQTT\x04" + bytes([0x04 | 0x20 | 0x02]) + b"\x00\x3c"
               + b"\x00\x02id" + b"\x00\x01w" + b"\x00\x03bye")
    assert will_of(connect) == ("w", b"bye")


async def _play(kind: str, upstream: str) -> tuple[list[MatchOutcome], list[str], Relay]:
    relay = Relay(kind, seed=4)
    port = _free_port()
    ready, stop = asyncio.Event(), asyncio.Event()
    _, _, up_port = upstream.rpartition(":")
    server = asyncio.create_task(serve(relay, ("127.0.0.1", port),
                                       ("127.0.0.1", int(up_port)), ready, stop))
    await ready.wait()
    sessions = _sessions("oak", Options(lives=1), 4, bots(["random"] * 4),
                         connect=mqtt_connector(f"mqtt://127.0.0.1:{port}"), seed=3,
                         timing=PATIENT, spectator=None)
    try:
        async with asyncio.timeout(400):
            outcomes = list(await asyncio.gather(*(s.run() for s in sessions)))
    finally:
        stop.set()
        await server
    return outcomes, [session.link.peer for session in sessions], relay


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["broker-replay", "broker-split-view", "broker-fire-will",
                                  "broker-censor"])
def test_a_match_through_a_broker_adversary_ends_alike_everywhere(
        kind: str, mosquitto: Mosquitto) -> None:
    assert kind in KINDS
    played, peers, relay = asyncio.run(_play(kind, mosquitto.url))
    # Nobody is blamed for cheating anywhere. The seat shown a split view may fall so
    # far behind that the others have finished and gone when it catches up (it then
    # names one of them as left): the others agree, and blame nobody.
    for outcome in played:
        assert all(": left: " in b or ": timeout: " in b for b in outcome.blames), outcome
    outcomes = [o for o, peer in zip(played, peers, strict=True) if peer != relay.victim_peer]
    assert len({o.winners for o in outcomes}) == 1 and outcomes[0].winners
    if kind == "broker-censor":  # only its victim may be named, as left or timed out
        victim = peers.index(relay.victim_peer) - 1  # session 0 is the host's watcher
        assert relay.report()["victim"] == victim == 0  # seat 0 unless --victim says
        assert all(b.startswith(f"seat {victim}: ") for o in outcomes for b in o.blames)
    else:
        assert all(not o.blames for o in outcomes), [o.blames for o in outcomes]
    assert relay.report()["learned"] == []
    assert relay.attempted > 0
    faults = [f for o in played for f in o.broker_faults]
    if kind == "broker-replay":
        assert [f for f in faults if f.startswith("replay:")]
    if kind == "broker-split-view":
        assert [f for f in faults if f.startswith(("withheld:", "replay:", "split:"))]
