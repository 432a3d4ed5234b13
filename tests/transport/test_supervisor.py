"""The supervisor on its own: a transport's life driven through a connector of the test's
own, which plays the brokers, with no MQTT client and no socket.

What a broker would do is what the fake connections record (subscriptions, the presence
announced, publications) and what the test makes them do (refuse a connection, break).
Nothing waits a fixed time: each step waits for what the driver saw to change.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from lodam_p2p.transport.base import ConnectError, Message, TransportClosed
from lodam_p2p.transport.connection import Backoff, Connector, LinkError
from lodam_p2p.transport.presence import Presence, PresenceSpec
from lodam_p2p.transport.supervisor import Supervisor
from lodam_p2p.transport.url import BrokerUrl
from tests.support.aio import run

FAST = Backoff(initial=0.001, maximum=0.01)
ANN = PresenceSpec("oak", "ann")


class FakeLink:
    """One connection of the :class:`FakeDriver`: a :class:`~.connection.BrokerConnection`."""

    def __init__(self, driver: FakeDriver, url: BrokerUrl, will: tuple[str, bytes] | None,
                 take: Callable[[Message], None]) -> None:
        self.driver, self.url, self.will, self.take = driver, url, will, take
        self.where = url.redacted()
        self.broken = asyncio.Event()
        self.subscribed: list[str] = []
        self.published: list[Message] = []

    async def connect(self, timeout: float) -> None:
        refusal = self.driver.refusals.get(self.url.host) or self.driver.once.pop(
            self.url.host, None)
        if refusal is not None:
            raise refusal
        for message in self.driver.early:  # received before the set-up is done
            self.take(message)
        self.driver.early = []

    async def subscribe(self, pattern: str, qos: int) -> None:
        self._check()
        self.subscribed.append(pattern)
        self.driver.changed()

    async def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        self._check()
        self.published.append(Message(topic, payload, retain))
        self.driver.changed()

    def disconnect(self) -> None:
        self.broken.set()

    def _check(self) -> None:
        if self.broken.is_set():
            raise LinkError("broken")


class FakeDriver:
    """A :class:`~.connection.Connector` whose connections the test sees and breaks."""

    def __init__(self) -> None:
        self.links: list[FakeLink] = []
        self.refusals: dict[str, LinkError] = {}  # by host
        self.once: dict[str, LinkError] = {}  # by host: the next connection's failure
        self.early: list[Message] = []  # what the next connection receives at once
        self._changed = asyncio.Event()

    def __call__(self, url: BrokerUrl, will: tuple[str, bytes] | None,
                 take: Callable[[Message], None]) -> FakeLink:
        self.links.append(FakeLink(self, url, will, take))
        self.changed()
        return self.links[-1]

    def changed(self) -> None:
        self._changed.set()

    async def until(self, condition: Callable[[], bool]) -> None:
        """Wait until ``condition`` holds, checking it at each change the driver sees."""
        while not condition():
            self._changed.clear()
            await self._changed.wait()


def announced(link: FakeLink) -> list[Presence]:
    return [Presence.decode(m.payload) for m in link.published if m.topic == ANN.topic]


def test_a_broken_link_is_made_again_with_its_subscriptions_and_a_fresh_presence() -> None:
    async def scenario() -> None:
        driver = FakeDriver()
        _: Connector = driver
        ann = Supervisor("mqtt://10.0.0.1:1883", driver, ANN, backoff=FAST)
        async with ann:
            await ann.subscribe("lodam/v3/oak/#")
            first, nonce = driver.links[0], ann.nonce
            assert first.subscribed == ["lodam/v3/oak/#"] and ann.epoch == 1
            assert first.will is not None and first.will[0] == ANN.topic
            first.broken.set()
            await driver.until(lambda: ann.epoch == 2)
            second = driver.links[-1]
            assert second.subscribed == ["lodam/v3/oak/#"] and ann.nonce != nonce
            assert [(p.nonce, p.online) for p in announced(second)] == [(ann.nonce, True)]
            assert ann.moves == 0 and ann.connected
        assert announced(second)[-1].online is False  # a clean goodbye: no will fires

    run(scenario())


def test_a_publication_made_while_the_link_is_down_waits_for_the_next() -> None:
    async def scenario() -> None:
        driver = FakeDriver()
        async with Supervisor("mqtt://10.0.0.1:1883", driver, backoff=FAST) as ann:
            driver.refusals["10.0.0.1"] = LinkError("connection refused")
            driver.links[0].broken.set()
            await driver.until(lambda: len(driver.links) >= 3)  # a retry refused at least
            assert not ann.connected
            pending = asyncio.create_task(ann.publish("lodam/v3/lobby/oak", b"kept"))
            del driver.refusals["10.0.0.1"]
            await pending
            assert driver.links[-1].published == [Message("lodam/v3/lobby/oak", b"kept")]
            assert ann.counts["mqtt://10.0.0.1:1883"] == 1

    run(scenario())


def test_the_first_connection_takes_the_first_broker_that_answers_and_moves_on() -> None:
    async def scenario() -> None:
        driver = FakeDriver()
        driver.refusals["10.0.0.1"] = LinkError("connection refused")
        moves: list[tuple[str, str]] = []
        brokers = "mqtt://10.0.0.1:1883,mqtt://10.0.0.2:1883,mqtt://10.0.0.3:1883"
        async with Supervisor(brokers, driver, ANN, backoff=FAST,
                              on_move=lambda *move: moves.append(move)) as seat:
            assert seat.url.host == "10.0.0.2" and seat.epoch == 1
            driver.links[-1].broken.set()
            await driver.until(lambda: seat.epoch == 2)
            assert seat.url.host == "10.0.0.3" and seat.moves == 1
        assert moves == [("mqtt://10.0.0.2:1883", "mqtt://10.0.0.3:1883")]

    run(scenario())


def test_a_broker_that_takes_the_connection_and_closes_it_is_tried_again() -> None:
    """A node that is up but not ready closes the connection without a refusal: the
    first connection tries again after the backoff instead of failing; a connection
    refused outright still fails at once."""
    async def scenario() -> None:
        driver = FakeDriver()
        driver.once["10.0.0.1"] = LinkError("the broker closed the connection", taken=True)
        async with Supervisor("mqtt://10.0.0.1:1883", driver, ANN, backoff=FAST) as seat:
            assert seat.epoch == 1 and len(driver.links) == 2

        driver = FakeDriver()
        driver.once["10.0.0.1"] = LinkError("connection refused")
        with pytest.raises(ConnectError, match="connection refused"):
            await Supervisor("mqtt://10.0.0.1:1883", driver, backoff=FAST).connect()
        assert len(driver.links) == 1

    run(scenario())


def test_a_refused_login_fails_at_once_and_a_lost_broker_is_given_up() -> None:
    async def scenario() -> None:
        driver = FakeDriver()
        driver.refusals["10.0.0.1"] = LinkError("refused: not authorised", 5)
        with pytest.raises(ConnectError, match="refused the login"):
            await Supervisor("mqtt://10.0.0.1:1883,mqtt://10.0.0.2:1883", driver).connect()
        assert len(driver.links) == 1  # the next broker is not tried

        driver = FakeDriver()
        ann = Supervisor("mqtt://10.0.0.1:1883", driver, backoff=FAST, give_up_after=0.0)
        await ann.connect()
        driver.refusals["10.0.0.1"] = LinkError("connection refused")
        driver.links[0].broken.set()
        with pytest.raises(ConnectError, match="gave up reconnecting"):
            async for _message in ann.messages():
                pass
        with pytest.raises(ConnectError, match="gave up reconnecting"):
            await ann.subscribe("lodam/#")
        await ann.close()
        with pytest.raises(TransportClosed):
            await ann.connect()

    run(scenario())


def test_a_stale_will_received_during_the_set_up_is_seen_as_of_the_new_connection() -> None:
    """The older connection's will, fired late and received before the new connection's
    set-up is done, is held until then: seen as of the new nonce, it is stale, and the
    presence is announced again (not taken for the current connection's)."""
    async def scenario() -> None:
        driver = FakeDriver()
        async with Supervisor("mqtt://10.0.0.1:1883", driver, ANN, backoff=FAST) as ann:
            await ann.subscribe(ANN.topic)
            first = driver.links[0]
            assert first.will is not None
            driver.early = [Message(*first.will, retain=True)]
            first.broken.set()
            await driver.until(lambda: ann.epoch == 2)
            second = driver.links[-1]
            await driver.until(lambda: len(announced(second)) == 2)
            assert all(p.online and p.nonce == ann.nonce for p in announced(second))
            messages = ann.messages()
            assert (await anext(messages)).payload == first.will[1]  # and passed on

    run(scenario())
