"""``lodam bench broker``: publish→receive latency through MQTT brokers on this machine.

One connection publishes a small QoS 1 message, another (subscribed) receives it; the
time from the publish call to the receipt is one sample, and samples are taken one at a
time. Both connections go through the project's own transport (paho-mqtt), the way
peers talk. Measured: the embedded amqtt broker (in the same process and event loop, as
``lodam play`` runs it), a private Mosquitto on an ephemeral loopback port when the
binary is installed, and each ``--broker`` given.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import AsyncIterator

from lodam_p2p.cli import CliError
from lodam_p2p.transport.base import Message, TransportError
from lodam_p2p.transport.broker import EmbeddedBroker, private_mosquitto
from lodam_p2p.transport.mqtt import MqttTransport
from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl

_TOPIC = "lodam/v3/bench/latency"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bench broker``."""
    parser = sub.add_parser("broker", help="publish→receive latency through MQTT brokers",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=500, help="samples per broker (500)")
    parser.add_argument("--broker", action="append", default=[], metavar="URL",
                        help="also measure this broker (repeatable)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Measure every broker and print the medians."""
    if not 10 <= args.count <= 100_000:
        raise CliError("--count must be 10 to 100000")
    try:
        urls = [BrokerUrl.parse(text) for text in args.broker]
    except BadBrokerUrl as err:
        raise CliError(str(err)) from None
    results = asyncio.run(measure_all(urls, args.count))
    if args.json:
        print(json.dumps(results))
    else:
        for name, figures in results.items():
            print(f"{name:>10}: median {figures['median_ms']:.3f} ms, "
                  f"p90 {figures['p90_ms']:.3f} ms over {figures['count']} messages")
    return 0


async def measure_all(urls: list[BrokerUrl], count: int) -> dict[str, dict[str, float]]:
    """Median and p90 latency, in ms, per broker."""
    results = {}
    async with EmbeddedBroker() as broker:
        results["amqtt"] = summary(await latencies(BrokerUrl.parse(broker.url), count))
    with private_mosquitto() as text:
        url = BrokerUrl.parse(text) if text else None
        if url is not None:
            results["mosquitto"] = summary(await latencies(url, count))
    for url in urls:
        results[url.redacted()] = summary(await latencies(url, count))
    return results


def summary(samples: list[float]) -> dict[str, float]:
    """Median, 90th percentile (ms) and count of latency samples (s)."""
    ordered = sorted(samples)
    return {"median_ms": 1000 * statistics.median(ordered),
            "p90_ms": 1000 * ordered[int(0.9 * (len(ordered) - 1))], "count": len(ordered)}


async def latencies(url: BrokerUrl, count: int) -> list[float]:
    """``count`` publish→receive times, in seconds, one message at a time."""
    try:
        async with MqttTransport(url) as sender, MqttTransport(url) as receiver:
            await receiver.subscribe(_TOPIC)
            messages = receiver.messages()
            await _warm_up(sender, messages)
            return [await _one(sender, messages, i) for i in range(count)]
    except TransportError as err:
        raise CliError(str(err), 1) from None


async def _warm_up(sender: MqttTransport, messages: AsyncIterator[Message]) -> None:
    for i in range(10):
        await _one(sender, messages, -1 - i)


async def _one(sender: MqttTransport, messages: AsyncIterator[Message], i: int) -> float:
    payload = i.to_bytes(8, "big", signed=True)
    start = time.perf_counter()
    publishing = asyncio.create_task(sender.publish(_TOPIC, payload))
    while (await anext(messages)).payload != payload:
        pass
    elapsed = time.perf_counter() - start
    await publishing
    return elapsed


