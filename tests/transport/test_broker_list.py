"""Several brokers per seat: the ``--broker`` list, and a transport that moves on.

The list is parsed in one place (:mod:`lodam_p2p.transport.brokers`, and the
``--broker`` option of :mod:`lodam_p2p.cli.broker_list`). A transport given several
brokers connects to the first that answers and, when it loses its broker for good, moves
to the next one and says so; here over two private mosquittos that know nothing of each
other, so what arrives on the second can only have been sent there after the move.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable

import pytest

from lodam_p2p.cli import CliError
from lodam_p2p.cli.broker_list import add_broker, check_brokers
from lodam_p2p.transport import BadBrokerUrl, BrokerUrl, ConnectError
from lodam_p2p.transport.brokers import join_brokers, parse_brokers, rotated
from lodam_p2p.transport.discovery import announced_brokers
from lodam_p2p.transport.mqtt import Backoff, MqttTransport
from tests.support.aio import run
from tests.support.brokers import Mosquitto, free_port

PATIENCE_S = 60.0  # a safety net only: every wait is on an event


def test_a_list_is_split_checked_and_kept_in_order_once_each() -> None:
    urls = parse_brokers(["mqtt://b:1884, mqtt://a", "mqtt://b:1884", "mqtts://c"])
    assert [str(u) for u in urls] == ["mqtt://b:1884", "mqtt://a:1883", "mqtts://c:8883"]
    assert parse_brokers(join_brokers(urls)) == urls
    with pytest.raises(BadBrokerUrl, match="ftp://x"):
        parse_brokers("mqtt://a,ftp://x")
    with pytest.raises(BadBrokerUrl, match="no broker URL"):
        parse_brokers(" , ")


def test_seats_spread_round_robin_each_keeping_the_other_nodes() -> None:
    nodes = "mqtt://a:1,mqtt://b:1,mqtt://c:1"
    firsts = [rotated(nodes, turn).split(",")[0] for turn in range(5)]
    assert firsts == ["mqtt://a:1", "mqtt://b:1", "mqtt://c:1", "mqtt://a:1", "mqtt://b:1"]
    assert rotated(nodes, 2) == "mqtt://c:1,mqtt://a:1,mqtt://b:1"
    assert rotated("mqtt://a:1", 7) == "mqtt://a:1"


def test_the_option_joins_lists_and_repeats_and_names_a_bad_url() -> None:
    parser = argparse.ArgumentParser()
    add_broker(parser)
    args = parser.parse_args(["--broker", "mqtt://a,mqtt://b", "--broker", "mqtt://c:1"])
    assert check_brokers(args.broker) == "mqtt://a:1883,mqtt://b:1883,mqtt://c:1"
    with pytest.raises(CliError, match="ftp://x"):
        check_brokers(parser.parse_args(["--broker", "mqtt://a,ftp://x"]).broker)
    assert check_brokers("mqtt://a, mqtt://b") == "mqtt://a:1883,mqtt://b:1883"
    with pytest.raises(CliError, match="scheme"):
        check_brokers("mqtt://a,http://b")


def test_a_host_announces_every_node_of_its_cluster() -> None:
    nodes = "mqtt://u:p@10.0.0.1:1883,mqtt://10.0.0.2:1883,mqtt://127.0.0.1:1883"
    assert announced_brokers(nodes, None) == ("mqtt://10.0.0.1:1883", "mqtt://10.0.0.2:1883")
    local = "mqtt://127.0.0.1:4001,mqtt://127.0.0.1:4002"
    assert announced_brokers(local, None) == ("mqtt://127.0.0.1:4001", "mqtt://127.0.0.1:4002")


def test_the_first_broker_that_answers_is_taken(mosquitto: Mosquitto) -> None:
    run(_first_that_answers(mosquitto), PATIENCE_S)


async def _first_that_answers(mosquitto: Mosquitto) -> None:
    dead = f"mqtt://127.0.0.1:{free_port()}"
    async with MqttTransport([dead, mosquitto.url], timeout=5.0) as transport:
        assert transport.url == BrokerUrl.parse(mosquitto.url) and transport.moves == 0
    with pytest.raises(ConnectError, match="no broker answered"):
        await MqttTransport([dead, f"mqtt://127.0.0.1:{free_port()}"]).connect()


def test_a_seat_that_loses_its_broker_for_good_moves_to_the_next(
        make_mosquitto: Callable[[str], Mosquitto]) -> None:
    run(_moves_on(make_mosquitto(""), make_mosquitto("")), PATIENCE_S)


async def _moves_on(first: Mosquitto, second: Mosquitto) -> None:
    moved = asyncio.Event()
    told: list[tuple[str, str]] = []

    def on_move(left: str, reached: str) -> None:
        told.append((left, reached))
        moved.set()

    listener = MqttTransport(second.url)
    seat = MqttTransport(f"{first.url},{second.url}", backoff=Backoff(0.05, 2.0, 0.5),
                         on_move=on_move)
    async with listener, seat:
        await listener.subscribe("t/x")
        assert seat.url == BrokerUrl.parse(first.url)
        first.stop()  # for good
        await moved.wait()
        await seat.publish("t/x", b"after the move")
        heard = await anext(aiter(listener.messages()))
    assert told == [(str(BrokerUrl.parse(first.url)), str(BrokerUrl.parse(second.url)))]
    assert seat.moves == 1 and seat.url == BrokerUrl.parse(second.url)
    assert heard.payload == b"after the move"
