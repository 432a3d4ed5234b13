"""A transport's life on a broker, or on the nodes of a cluster: connect, supervise,
reconnect, move on.

:class:`Supervisor` is the :class:`~.base.Transport` of :mod:`.mqtt` without the MQTT
client: it owns a :class:`~.connection.Connector`, given by its owner
(:class:`~lodam_p2p.transport.mqtt.MqttTransport` gives paho's), makes each connection
through it and meets the connection only through :class:`~.connection.BrokerConnection`.

Theory of operation
-------------------
:meth:`Supervisor.connect` makes the first connection and fails with a one-line
:class:`~.base.ConnectError` if the broker is unreachable, refuses us, or rejects the
credentials. From then on a supervisor task owns the connection: received messages go
into one queue (which :meth:`Supervisor.messages` drains across reconnects), and when
the link breaks it reconnects with exponential backoff, renews every subscription,
registers a Last Will with a *fresh* presence nonce and announces the presence again
(see :mod:`.presence`). Publications made while the link is down wait for the next
connection and are retried once it is up, so a message may arrive twice; the stream
layer drops duplicates. A login refused on reconnection, or an outage longer than
``give_up_after``, closes the transport: :meth:`messages` then raises.

Several brokers (the nodes of a cluster) may be given, as a list or as one
comma-separated string (:mod:`.brokers`). The first connection goes to the first that
answers, in the order given; when the link breaks, the transport moves on to the next
broker of the list that answers, cycling through them all with the same backoff, so a
node lost for good costs a seat one reconnection. It is the same path as a broker's
restart (a new connection, every subscription renewed, the presence announced again),
so the streams above resume as they do then. Which broker is tried when, and when to
give up, is :mod:`.retry`'s; the supervisor makes each attempt. :attr:`Supervisor.url`
is the broker in use; each move is logged, counted in :attr:`Supervisor.moves`, and told
to ``on_move``.

A connection's messages are held until its set-up (subscriptions, presence) is done
(:class:`~.connection.Inlet`), so that they are seen, and checked for a stale will, as
of the connection's nonce; a flood of peer messages beyond the queue's caps is shed
(:mod:`.backlog`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Self

from lodam_p2p.transport.backlog import Backlog
from lodam_p2p.transport.base import (
    QOS_AT_LEAST_ONCE,
    ConnectError,
    Message,
    TransportClosed,
    TransportError,
)
from lodam_p2p.transport.brokers import parse_brokers
from lodam_p2p.transport.connection import (
    Backoff,
    BrokerConnection,
    Connector,
    Inlet,
    LinkError,
    SetupLost,
    connect_error,
    quietly_disconnect,
)
from lodam_p2p.transport.presence import PresenceSpec, is_stale_will, new_nonce
from lodam_p2p.transport.retry import first_connection, log, reconnect
from lodam_p2p.transport.tasks import stop_tasks
from lodam_p2p.transport.url import BrokerUrl


class Supervisor:
    """A :class:`~.base.Transport` on a broker, whose connections ``connector`` makes;
    the other arguments are those of :class:`~lodam_p2p.transport.mqtt.MqttTransport`."""

    def __init__(
        self,
        url: BrokerUrl | str | Sequence[BrokerUrl | str],
        connector: Connector,
        presence: PresenceSpec | None = None,
        *,
        timeout: float = 5.0,
        publish_timeout: float = 30.0,
        backoff: Backoff | None = None,
        give_up_after: float | None = None,
        on_move: Callable[[str, str], None] | None = None,
    ) -> None:
        #: every broker this transport may use, in the order given
        self.urls: tuple[BrokerUrl, ...] = (
            (url,) if isinstance(url, BrokerUrl)
            else parse_brokers(url if isinstance(url, str) else [str(u) for u in url]))
        self._at = 0  # the index in ``urls`` of the broker in use (or tried last)
        #: how many times the transport moved to another broker of :attr:`urls`
        self.moves = 0
        #: messages received from and published to each broker, by its redacted URL
        self.counts: collections.Counter[str] = collections.Counter()
        #: told ``(left, reached)`` at each move to another broker (may be set later)
        self.on_move = on_move
        self._connector = connector
        self._presence = presence
        self._timeout = timeout
        self._publish_timeout = publish_timeout
        self._backoff = backoff or Backoff()
        self._give_up_after = give_up_after
        self._patterns: list[str] = []
        self._queue: asyncio.Queue[Message | None] = asyncio.Queue()
        #: what the queue holds, in bytes; a flood over its caps is shed (see .backlog)
        self.backlog = Backlog()
        self._client: BrokerConnection | None = None
        self._online = asyncio.Event()
        self._task: asyncio.Task[None] | None = None  # the supervisor's, once connected
        self._failure: TransportError | None = None
        self._nonce: str | None = None
        self._attempts = 0  # connection attempts: the presence's ``conn``
        self._conn = 0  # the attempt the current connection came from
        self._epoch = 0
        self._closed = False

    @property
    def url(self) -> BrokerUrl:
        """The broker in use (the one tried last while the link is down)."""
        return self.urls[self._at]

    @property
    def epoch(self) -> int:
        """How many connections have been established so far."""
        return self._epoch

    @property
    def nonce(self) -> str | None:
        """The presence nonce of the current connection."""
        return self._nonce

    @property
    def connected(self) -> bool:
        """Whether the link is up right now."""
        return self._online.is_set()

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        """Connect for the first time; raise :class:`~.base.ConnectError` on failure.
        No broker, or a refusal, fails at once; a broker that took the connection but
        did not answer its set-up in time is tried again (:func:`~.retry.first_connection`)."""
        if self._closed or self._task is not None:
            raise TransportClosed("connect() is called once, on a fresh transport")
        client = await first_connection(len(self.urls), self._open_at, self._backoff)
        if len(self.urls) > 1 and self._presence is not None:  # a peer's: say where
            log.info("on the broker %s", self.url.redacted())
        self._task = asyncio.create_task(self._supervise(client))

    async def publish(
        self, topic: str, payload: bytes, retain: bool = False, qos: int = QOS_AT_LEAST_ONCE
    ) -> None:
        """Publish, waiting through reconnections up to ``publish_timeout`` seconds."""
        try:
            async with asyncio.timeout(self._publish_timeout):  # wait_for may drop a cancel
                await self._publish(topic, payload, retain, qos)
        except TimeoutError:
            raise TransportError(
                f"could not publish to {self.url.redacted()} within "
                f"{self._publish_timeout:g} s") from None

    async def subscribe(self, pattern: str) -> None:
        """Subscribe at QoS 1 now (if connected) and after every reconnection."""
        self._check_open()
        if pattern in self._patterns:
            return
        self._patterns.append(pattern)
        client = self._client
        if client is not None and self._online.is_set():
            with contextlib.suppress(LinkError, TimeoutError):  # renewed on reconnection
                async with asyncio.timeout(self._timeout):
                    await client.subscribe(pattern, QOS_AT_LEAST_ONCE)

    async def messages(self) -> AsyncIterator[Message]:
        """Every message received, across reconnections, until the transport closes."""
        while (message := await self._queue.get()) is not None:
            self.backlog.taken(message)
            yield message
        if self._failure is not None:
            raise self._failure

    async def close(self) -> None:
        """Announce departure (so no will fires) and disconnect; idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._task is not None:
            await stop_tasks([self._task])
        client, self._client = self._client, None
        if client is not None and self._online.is_set():
            with contextlib.suppress(LinkError, TimeoutError):
                async with asyncio.timeout(self._timeout):
                    await self._announce(client, online=False)
        self._online.clear()
        if client is not None:
            await quietly_disconnect(client)
        self._queue.put_nowait(None)

    # -- the connection's life -------------------------------------------------------

    async def _open_at(self, index: int) -> BrokerConnection:
        """One connection attempt to the broker at ``index`` of :attr:`urls`."""
        self._at = index
        return await self._open()

    async def _open(self) -> BrokerConnection:
        """One connection attempt: connect, subscribe, announce. Maps every failure."""
        nonce = new_nonce() if self._presence else None
        self._attempts += 1
        conn = self._attempts
        inlet = Inlet()
        client = self._connector(self.url, self._will(nonce, conn), inlet.put)
        try:
            await client.connect(self._timeout)
        except LinkError as err:
            if err.taken:
                raise SetupLost(f"{self.url.redacted()} took the connection but did not "
                                f"answer it: {err}") from None
            raise connect_error(err, self.url.redacted()) from None
        try:
            async with asyncio.timeout(self._timeout):
                for pattern in self._patterns:
                    await client.subscribe(pattern, QOS_AT_LEAST_ONCE)
                self._nonce, self._conn = nonce, conn
                await self._announce(client, online=True)
        except (LinkError, TimeoutError) as err:
            await quietly_disconnect(client)
            reason = str(err) or "no answer in time"
            raise SetupLost(f"lost {self.url.redacted()} while setting up: {reason}") from None
        self._client, self._epoch = client, self._epoch + 1
        self._online.set()
        inlet.open(lambda message: self._received(client, message))
        return client

    async def _supervise(self, client: BrokerConnection) -> None:
        """On a broken link, reconnect with backoff. Runs until closed."""
        while True:
            await client.broken.wait()
            self._online.clear()
            await quietly_disconnect(client)
            left = self.url.redacted()
            if len(self.urls) > 1:
                log.warning("lost the broker %s; moving to the next that answers", left)
            else:
                log.info("lost the broker %s; reconnecting", left)
            try:
                client = await reconnect(self._at, len(self.urls), self._open_at,
                                         self._backoff, self._give_up_after)
                self._moved(left)
            except ConnectError as err:
                self._failure = err
                self._closed = True
                self._queue.put_nowait(None)
                return

    def _received(self, client: BrokerConnection, message: Message) -> None:
        """Queue a message ``client`` received, and heal a stale will it may be."""
        if self._closed:
            return
        self.counts[client.where] += 1
        if self.backlog.admit(message):
            self._queue.put_nowait(message)
        self._heal_stale_will(client, message)

    async def _publish(self, topic: str, payload: bytes, retain: bool, qos: int) -> None:
        while True:
            self._check_open()
            await self._online.wait()
            client = self._client
            if client is None:
                continue
            try:
                async with asyncio.timeout(self._timeout):
                    await client.publish(topic, payload, qos, retain)
                self.counts[client.where] += 1
                return
            except (LinkError, TimeoutError) as err:
                log.info("publish on %s failed (%s); retrying", topic,
                         str(err) or "no acknowledgement in time")
                await asyncio.sleep(self._backoff.initial)

    def _moved(self, left: str) -> None:
        """Log and tell a move from the broker ``left`` to the one now in use."""
        reached = self.url.redacted()
        if reached == left:
            if len(self.urls) > 1:
                log.warning("back on the broker %s", reached)
            return
        self.moves += 1
        log.warning("moved from the broker %s to %s", left, reached)
        if self.on_move is not None:
            try:
                self.on_move(left, reached)
            except Exception as err:  # a listener's bug must not cost the connection
                log.warning("a listener of broker moves failed: %s", err)

    # -- pieces ----------------------------------------------------------------------

    def _will(self, nonce: str | None, conn: int) -> tuple[str, bytes] | None:
        """The Last Will a connection of ``nonce`` and attempt ``conn`` registers."""
        if self._presence is None or nonce is None:
            return None
        return (self._presence.topic, self._presence.payload(nonce, online=False, conn=conn))

    async def _announce(self, client: BrokerConnection, online: bool) -> None:
        if self._presence is not None and self._nonce is not None:
            body = self._presence.payload(self._nonce, online, self._conn)
            await client.publish(self._presence.topic, body, QOS_AT_LEAST_ONCE, True)

    def _heal_stale_will(self, client: BrokerConnection, message: Message) -> None:
        """Our own will from an older connection fired late: announce ourselves again."""
        if self._presence is None or self._nonce is None:
            return
        if is_stale_will(self._presence, self._nonce, message.topic, message.payload):
            task = asyncio.create_task(self._announce_in_time(client))
            task.add_done_callback(_ignore_result)

    async def _announce_in_time(self, client: BrokerConnection) -> None:
        async with asyncio.timeout(self._timeout):
            await self._announce(client, online=True)

    def _check_open(self) -> None:
        if self._closed:
            raise self._failure or TransportClosed("transport is closed")


def _ignore_result(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.info("re-announcing presence failed: %s", task.exception())
