"""The MQTT transport: aiomqtt (MQTT 3.1.1) behind :class:`~.base.Transport`.

This is the only module of the project that imports aiomqtt.

Theory of operation
-------------------
:meth:`MqttTransport.connect` makes the first connection and fails with a one-line
:class:`~.base.ConnectError` if the broker is unreachable, refuses us, or rejects the
credentials. From then on a supervisor task owns the connection: received messages go
into one queue (which :meth:`MqttTransport.messages` drains across reconnects), and when
the link breaks it reconnects with exponential backoff, renews
every subscription, registers a Last Will with a *fresh* presence nonce and announces
the presence again (see :mod:`.presence`). Publications made while the link is down
wait for the next connection and are retried once it is up, so a message may arrive
twice; the stream layer drops duplicates. A login refused on reconnection, or an outage
longer than ``give_up_after``, closes the transport: :meth:`messages` then raises.

The path of a received message is short on purpose, since a match receives thousands
and each asyncio hop is a task wake-up: paho decodes it in the socket's reader callback
and hands it to aiomqtt's incoming queue, which here is an :class:`_Inlet` that puts it
straight on the transport's own queue. aiomqtt's message iterator, which would spend a
task and an ``asyncio.wait`` on every message, only serves to notice the disconnection.
A connection's messages are held until its set-up (subscriptions, presence) is done,
so that they are seen, and checked for a stale will, as of the connection's nonce;
a flood of peer messages beyond the queue's caps is shed (:mod:`.backlog`). The
socket itself is read and written by :func:`_serve_socket`, which takes every packet
that arrived together in one turn of the loop and writes each packet as it is queued.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import select
import socket
import ssl
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import aiomqtt

from lodam_p2p.transport.backlog import Backlog
from lodam_p2p.transport.base import (
    QOS_AT_LEAST_ONCE,
    ConnectError,
    Message,
    Transport,
    TransportClosed,
    TransportError,
)
from lodam_p2p.transport.presence import PresenceSpec, is_stale_will, new_nonce
from lodam_p2p.transport.tasks import stop_tasks
from lodam_p2p.transport.url import BrokerUrl

log = logging.getLogger(__name__)

_REFUSED_LOGIN = {4, 5, 134, 135}  # 3.1.1 bad login / not authorised, and their v5 codes


@dataclass(frozen=True, slots=True)
class Backoff:
    """Reconnection delays: ``initial`` seconds, times ``factor`` per failure, up to ``maximum``."""

    initial: float = 0.1
    factor: float = 2.0
    maximum: float = 5.0

    def delays(self) -> AsyncIterator[float]:
        """Sleep through the successive delays, yielding each one slept."""
        return _sleep_through(self)


async def _sleep_through(backoff: Backoff) -> AsyncIterator[float]:
    delay = backoff.initial
    while True:
        await asyncio.sleep(delay)
        yield delay
        delay = min(delay * backoff.factor, backoff.maximum)


class _Unrecoverable(ConnectError):
    """A refusal that retrying will not cure (bad credentials, bad TLS files)."""


class _SetupLost(ConnectError):
    """The broker took the connection but did not answer its set-up in time."""


#: Attempts at the first connection when the broker takes it but does not answer the
#: set-up (its subscriptions, the presence) in time: a busy broker, not a wrong address.
SETUP_TRIES = 3


class MqttTransport:
    """A :class:`~.base.Transport` on any MQTT 3.1.1 broker.

    ``presence`` (optional) is the table/peer whose presence and Last Will this
    connection keeps. ``keepalive`` bounds how long an abruptly vanished peer goes
    unnoticed (brokers fire the will after 1.5 × keepalive without traffic).
    ``timeout`` bounds each connection attempt and each acknowledgement;
    ``publish_timeout`` bounds the whole publish including waits for a reconnection.
    """

    def __init__(
        self,
        url: BrokerUrl | str,
        presence: PresenceSpec | None = None,
        *,
        client_id: str | None = None,
        keepalive: int = 10,
        timeout: float = 5.0,
        publish_timeout: float = 30.0,
        backoff: Backoff | None = None,
        give_up_after: float | None = None,
    ) -> None:
        self.url = url if isinstance(url, BrokerUrl) else BrokerUrl.parse(url)
        self._presence = presence
        self._client_id = client_id
        self._keepalive = keepalive
        self._timeout = timeout
        self._publish_timeout = publish_timeout
        self._backoff = backoff or Backoff()
        self._give_up_after = give_up_after
        self._patterns: list[str] = []
        self._queue: asyncio.Queue[Message | None] = asyncio.Queue()
        #: what the queue holds, in bytes; a flood over its caps is shed (see .backlog)
        self.backlog = Backlog()
        self._client: aiomqtt.Client | None = None
        self._online = asyncio.Event()
        self._supervisor: asyncio.Task[None] | None = None
        self._failure: TransportError | None = None
        self._nonce: str | None = None
        self._attempts = 0  # connection attempts: the presence's ``conn``
        self._conn = 0  # the attempt the current connection came from
        self._epoch = 0
        self._closed = False

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

    async def __aenter__(self) -> MqttTransport:
        await self.connect()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        """Connect for the first time; raise :class:`~.base.ConnectError` on failure.
        No broker, or a refusal, fails at once; a broker that took the connection but
        did not answer its set-up in time is tried again (:data:`SETUP_TRIES` in all)."""
        if self._closed or self._supervisor is not None:
            raise TransportClosed("connect() is called once, on a fresh transport")
        delay = self._backoff.initial
        for _ in range(SETUP_TRIES - 1):
            try:
                client = await self._open()
                break
            except _SetupLost as err:
                log.info("%s; trying again", err)
                await asyncio.sleep(delay)
                delay = min(delay * self._backoff.factor, self._backoff.maximum)
        else:
            client = await self._open()
        self._supervisor = asyncio.create_task(self._supervise(client))

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
            with contextlib.suppress(aiomqtt.MqttError):  # renewed on reconnection
                await client.subscribe(pattern, qos=QOS_AT_LEAST_ONCE)

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
        if self._supervisor is not None:
            await stop_tasks([self._supervisor])
        client, self._client = self._client, None
        if client is not None and self._online.is_set():
            with contextlib.suppress(aiomqtt.MqttError, TimeoutError):
                await self._announce(client, online=False)
        self._online.clear()
        if client is not None:
            await _quietly_disconnect(client)
        self._queue.put_nowait(None)

    # -- the connection's life -------------------------------------------------------

    async def _open(self) -> aiomqtt.Client:
        """One connection attempt: connect, subscribe, announce. Maps every failure."""
        nonce = new_nonce() if self._presence else None
        self._attempts += 1
        conn = self._attempts
        inlet = _Inlet()
        client = self._make_client(nonce, conn, inlet)
        try:
            await client.__aenter__()
        except aiomqtt.MqttError as err:
            raise self._connect_error(err) from None
        _no_delay(client)
        _serve_socket(client)
        try:
            for pattern in self._patterns:
                await client.subscribe(pattern, qos=QOS_AT_LEAST_ONCE)
            self._nonce, self._conn = nonce, conn
            await self._announce(client, online=True)
        except aiomqtt.MqttError as err:
            await _quietly_disconnect(client)
            raise _SetupLost(f"lost {self.url.redacted()} while setting up: {err}") from None
        self._client, self._epoch = client, self._epoch + 1
        self._online.set()
        inlet.open(lambda message: self._received(client, message))
        return client

    async def _supervise(self, client: aiomqtt.Client) -> None:
        """On a broken link, reconnect with backoff. Runs until closed."""
        while True:
            await _until_broken(client)
            self._online.clear()
            await _quietly_disconnect(client)
            log.info("lost the broker %s; reconnecting", self.url.redacted())
            try:
                client = await self._reconnect()
            except ConnectError as err:
                self._failure = err
                self._closed = True
                self._queue.put_nowait(None)
                return

    def _received(self, client: aiomqtt.Client, message: Message) -> None:
        """Queue a message ``client`` received, and heal a stale will it may be."""
        if self._closed:
            return
        if self.backlog.admit(message):
            self._queue.put_nowait(message)
        self._heal_stale_will(client, message)

    async def _reconnect(self) -> aiomqtt.Client:
        """Retry :meth:`_open` with backoff; give up on refusal or after the deadline."""
        loop = asyncio.get_running_loop()
        deadline = None if self._give_up_after is None else loop.time() + self._give_up_after
        last: ConnectError | None = None
        async for _delay in self._backoff.delays():
            if deadline is not None and loop.time() > deadline:
                break
            try:
                return await self._open()
            except _Unrecoverable:
                raise
            except ConnectError as err:
                last = err
        raise ConnectError(f"gave up reconnecting: {last}")

    async def _publish(self, topic: str, payload: bytes, retain: bool, qos: int) -> None:
        while True:
            self._check_open()
            await self._online.wait()
            client = self._client
            if client is None:
                continue
            try:
                # our own deadline, not aiomqtt's: its asyncio.wait_for would spend a task
                # on every publication (math.inf makes it await the acknowledgement inline)
                async with asyncio.timeout(self._timeout):
                    await client.publish(topic, payload, qos=qos, retain=retain,
                                         timeout=math.inf)
                return
            except (aiomqtt.MqttError, TimeoutError) as err:
                log.info("publish on %s failed (%s); retrying", topic,
                         str(err) or "no acknowledgement in time")
                await asyncio.sleep(self._backoff.initial)

    # -- pieces ----------------------------------------------------------------------

    def _make_client(self, nonce: str | None, conn: int, inlet: _Inlet) -> aiomqtt.Client:
        url = self.url
        will = None
        if self._presence is not None and nonce is not None:
            gone = self._presence.payload(nonce, online=False, conn=conn)
            will = aiomqtt.Will(self._presence.topic, gone, qos=QOS_AT_LEAST_ONCE, retain=True)
        return aiomqtt.Client(
            url.host, url.port, username=url.username, password=url.password,
            identifier=self._client_id, will=will, keepalive=self._keepalive,
            timeout=self._timeout, tls_context=self._tls_context(),
            protocol=aiomqtt.ProtocolVersion.V311, queue_type=inlet.queue_type(),
        )

    def _tls_context(self) -> ssl.SSLContext | None:
        url = self.url
        if not url.tls:
            return None
        try:
            context = ssl.create_default_context(cafile=url.ca_file)
            if url.cert_file is not None:
                context.load_cert_chain(url.cert_file, url.key_file)
        except (OSError, ssl.SSLError) as err:
            raise _Unrecoverable(f"cannot load the TLS files of {url.redacted()}: {err}") from None
        return context

    async def _announce(self, client: aiomqtt.Client, online: bool) -> None:
        if self._presence is not None and self._nonce is not None:
            body = self._presence.payload(self._nonce, online, self._conn)
            await client.publish(self._presence.topic, body, qos=QOS_AT_LEAST_ONCE,
                                 retain=True, timeout=self._timeout)

    def _heal_stale_will(self, client: aiomqtt.Client, message: Message) -> None:
        """Our own will from an older connection fired late: announce ourselves again."""
        if self._presence is None or self._nonce is None:
            return
        if is_stale_will(self._presence, self._nonce, message.topic, message.payload):
            task = asyncio.create_task(self._announce(client, online=True))
            task.add_done_callback(_ignore_result)

    def _connect_error(self, err: aiomqtt.MqttError) -> ConnectError:
        where = self.url.redacted()
        if isinstance(err, aiomqtt.MqttCodeError) and _code(err) in _REFUSED_LOGIN:
            return _Unrecoverable(f"broker {where} refused the login (bad user name or "
                                  "password, or not authorised)")
        reason = str(err) or type(err).__name__
        return ConnectError(f"cannot connect to {where}: {reason}")

    def _check_open(self) -> None:
        if self._closed:
            raise self._failure or TransportClosed("transport is closed")


class _Inlet:
    """Where one connection's received messages go (see the module docstring): held
    until :meth:`open`, then handed on one by one as paho decodes them."""

    def __init__(self) -> None:
        self._held: list[Message] = []
        self._take: Callable[[Message], None] | None = None

    def queue_type(self) -> type[asyncio.Queue[aiomqtt.Message]]:
        """aiomqtt's incoming queue for the connection: it keeps nothing, it hands on."""
        put = self.put

        class _HandingOn(asyncio.Queue[aiomqtt.Message]):
            def put_nowait(self, item: aiomqtt.Message) -> None:
                put(item)

        return _HandingOn

    def put(self, raw: aiomqtt.Message) -> None:
        """A message as aiomqtt received it."""
        message = Message(str(raw.topic), _payload_bytes(raw.payload), bool(raw.retain))
        if self._take is None:
            self._held.append(message)
        else:
            self._take(message)

    def open(self, take: Callable[[Message], None]) -> None:
        """From now on hand every message to ``take``, those held first."""
        held, self._held, self._take = self._held, [], take
        for message in held:
            take(message)


async def _until_broken(client: aiomqtt.Client) -> None:
    """Return when the connection breaks. aiomqtt's message iterator is what tells: it
    raises then, and never yields here, since the :class:`_Inlet` keeps nothing for it."""
    with contextlib.suppress(aiomqtt.MqttError):
        async for _never in client.messages:
            pass


def _no_delay(client: aiomqtt.Client) -> None:
    """Turn Nagle's algorithm off on the connection's socket.

    paho leaves it on, so a small publication that follows another waits for the
    broker's delayed TCP acknowledgement (40 ms on Linux). The session's messages are
    small and latency-bound: measured, a seeded 5-seat match over Mosquitto took 10.4 s
    with Nagle on and 2.0 s with it off.
    """
    paho = getattr(client, "_client", None)
    get_socket = getattr(paho, "socket", None)
    sock = get_socket() if callable(get_socket) else None
    if isinstance(sock, socket.socket):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


#: The most packets one wake-up of the reader takes from the socket.
READ_BURST = 64


def _serve_socket(client: aiomqtt.Client) -> None:
    """Read and write the connection's socket with fewer turns of the event loop.

    aiomqtt has paho read one packet per readiness of the socket (paho reads one at a
    time unless publications are in flight) and answers paho's "I have something to
    write" (a publication, or the PUBACK of each message received) by registering a
    writer thread-safely: a wake-up of the loop through its self-pipe, a selector
    registration, a poll that finds the socket writable, the write, an unregistration.
    Each turn of the loop costs tens of microseconds, and a match receives thousands of
    messages. Here the reader takes every packet the socket holds (up to
    :data:`READ_BURST`), so that messages that arrived together are handed on together,
    and a packet is written as soon as paho queues it: a loopback socket is nearly always
    writable, and only when its buffer is full does a writer wait for room. This is set
    once the connection is up: from then on paho is driven on the loop's thread only
    (aiomqtt connects on an executor thread, and serves that thread's packets itself).
    """
    paho = client._client
    loop = asyncio.get_running_loop()
    writing = False

    def read() -> None:
        try:
            for _ in range(READ_BURST):
                paho.loop_read()
                sock = paho.socket()
                if sock is None or not _more_to_read(sock):
                    return
        except Exception as err:  # as in aiomqtt's own reader: the link is broken
            _break(client, err)
            return
        loop.call_soon(read)  # more at the next turn (TLS may hold decoded bytes unseen)

    def write() -> None:
        nonlocal writing
        if writing:  # paho asks from within the write below: it writes that packet too
            return
        writing = True
        try:
            paho.loop_write()
        except Exception as err:  # as in aiomqtt's own writer: the link is broken
            _break(client, err)
            return
        finally:
            writing = False
        sock = paho.socket()
        if sock is not None and paho.want_write():  # the buffer is full: wait for room
            loop.add_writer(sock.fileno(), write)

    def write_now(_paho: object, _userdata: object, _sock: object) -> None:
        if paho._in_callback_mutex.locked():  # within paho's callback, a write would
            loop.call_soon(write)             # wait on that lock for ever (QoS 0)
        else:
            write()

    sock = paho.socket()
    if sock is not None:
        loop.add_reader(sock.fileno(), read)  # in place of aiomqtt's reader
    paho.on_socket_register_write = write_now


def _more_to_read(sock: object) -> bool:
    """Whether the socket holds more to read now (or, for TLS, decoded bytes paho left)."""
    if isinstance(sock, ssl.SSLSocket) and sock.pending() > 0:
        return True
    if not isinstance(sock, socket.socket):
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return False  # closed: the reader's next turn, or the close, tells paho
    return bool(readable)


def _break(client: aiomqtt.Client, err: Exception) -> None:
    """Mark the connection broken by ``err``, as aiomqtt's own callbacks do."""
    disconnected = getattr(client, "_disconnected", None)
    if isinstance(disconnected, asyncio.Future) and not disconnected.done():
        disconnected.set_exception(err)


def _code(err: aiomqtt.MqttCodeError) -> int | None:
    """The numeric code of a connection refusal, whatever form paho gave it in."""
    rc = err.rc
    if rc is None or isinstance(rc, int):
        return rc
    return int(rc.value)


def _payload_bytes(payload: object) -> bytes:
    if isinstance(payload, bytes | bytearray):
        return bytes(payload)
    return b"" if payload is None else str(payload).encode()


def _ignore_result(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.info("re-announcing presence failed: %s", task.exception())


#: Longest wait for the broker to see a DISCONNECT through (aiomqtt waits forever).
DISCONNECT_WAIT_S = 5.0


async def _quietly_disconnect(client: aiomqtt.Client) -> None:
    """Leave the broker cleanly if we still can; never raise, never hang: aiomqtt waits
    without a limit for the disconnection to complete, and a process that has finished
    its match must still exit (the socket closes with it)."""
    with contextlib.suppress(aiomqtt.MqttError, OSError, RuntimeError, TimeoutError):
        await asyncio.wait_for(client.__aexit__(None, None, None), DISCONNECT_WAIT_S)
    # A broker that never acknowledged the disconnection may drop the link later; aiomqtt
    # then records that error where nobody waits any more, and asyncio would print it
    # as a "Future exception was never retrieved" traceback on the player's terminal.
    disconnected = getattr(client, "_disconnected", None)
    if isinstance(disconnected, asyncio.Future):
        disconnected.add_done_callback(_retrieved)


def _retrieved(future: asyncio.Future[None]) -> None:
    """Mark the outcome of ``future`` as seen."""
    if not future.cancelled():
        future.exception()


if TYPE_CHECKING:  # mypy checks that the adapter honours the contract
    _CONFORMS: type[Transport] = MqttTransport
