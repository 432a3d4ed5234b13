"""The MQTT transport: paho-mqtt (MQTT 3.1.1) behind :class:`~.base.Transport`.

This is the only module of the project that imports the MQTT client.

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

Several brokers (the nodes of a cluster) may be given, as a list or as one
comma-separated string (:mod:`.brokers`). The first connection goes to the first that
answers, in the order given; when the link breaks, the transport moves on to the next
broker of the list that answers, cycling through them all with the same backoff, so a
node lost for good costs a seat one reconnection. It is the same path as a broker's
restart (a new connection, every subscription renewed, the presence announced again),
so the streams above resume as they do then. :attr:`MqttTransport.url` is the broker in
use; each move is logged, counted in :attr:`MqttTransport.moves`, and told to
``on_move``.

The event loop drives paho itself (:class:`_Connection`), through the part of paho's
public API made for external event loops: ``socket()``, ``loop_read()``,
``loop_write()``, ``loop_misc()``, ``want_write()`` and the ``on_socket_*`` callbacks
(tests/transport/test_paho_api.py pins what is used, so that a paho release that changes
it fails there, loudly). The path of a received message is short on purpose, since a
match receives thousands and each asyncio hop is a task wake-up: the socket's reader
takes every packet that arrived together in one turn of the loop, paho decodes each and
calls back, and the message goes straight on the transport's own queue. A packet paho
queues is written at once (a loopback socket is nearly always writable; only a full
buffer makes a writer wait for room), and a QoS 1 publication awaits its PUBACK inline:
no task, no thread and no wake-up through the loop's self-pipe per message. Only the
blocking TCP (and TLS) connection is made on an executor thread, before the loop takes
the socket. A connection's messages are held until its set-up (subscriptions, presence)
is done, so that they are seen, and checked for a stale will, as of the connection's
nonce; a flood of peer messages beyond the queue's caps is shed (:mod:`.backlog`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import select
import socket
import ssl
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion

from lodam_p2p.transport.backlog import Backlog
from lodam_p2p.transport.base import (
    QOS_AT_LEAST_ONCE,
    ConnectError,
    Message,
    Transport,
    TransportClosed,
    TransportError,
)
from lodam_p2p.transport.brokers import parse_brokers
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
    ``url`` may name several brokers (a sequence, or a comma-separated string): see
    the module docstring; ``on_move(old, new)`` is called with each broker left and
    the one reached (their redacted URLs).
    """

    def __init__(
        self,
        url: BrokerUrl | str | Sequence[BrokerUrl | str],
        presence: PresenceSpec | None = None,
        *,
        client_id: str | None = None,
        keepalive: int = 10,
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
        self._client: _Connection | None = None
        self._online = asyncio.Event()
        self._supervisor: asyncio.Task[None] | None = None
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
        for tries_left in range(SETUP_TRIES - 1, -1, -1):
            try:
                client = await self._open_first()
                break
            except _SetupLost as err:
                if not tries_left:
                    raise
                log.info("%s; trying again", err)
                await asyncio.sleep(delay)
                delay = min(delay * self._backoff.factor, self._backoff.maximum)
        if len(self.urls) > 1 and self._presence is not None:  # a peer's: say where
            log.info("on the broker %s", self.url.redacted())
        self._supervisor = asyncio.create_task(self._supervise(client))

    async def _open_first(self) -> _Connection:
        """One round over the brokers in order: the first that answers. A refusal that
        retrying will not cure fails at once; :class:`_SetupLost` if any broker took
        the connection but did not answer its set-up, else the last broker's error."""
        failures: list[ConnectError] = []
        for index in range(len(self.urls)):
            self._at = index
            try:
                return await self._open()
            except _Unrecoverable:
                raise
            except ConnectError as err:
                if len(self.urls) > 1:
                    log.info("%s; trying the next broker", err)
                failures.append(err)
        lost = [err for err in failures if isinstance(err, _SetupLost)]
        if lost:
            raise lost[-1]
        if len(failures) == 1:
            raise failures[0]
        raise ConnectError("no broker answered: " + "; ".join(map(str, failures)))

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
            with contextlib.suppress(_LinkError, TimeoutError):  # renewed on reconnection
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
        if self._supervisor is not None:
            await stop_tasks([self._supervisor])
        client, self._client = self._client, None
        if client is not None and self._online.is_set():
            with contextlib.suppress(_LinkError, TimeoutError):
                async with asyncio.timeout(self._timeout):
                    await self._announce(client, online=False)
        self._online.clear()
        if client is not None:
            await _quietly_disconnect(client)
        self._queue.put_nowait(None)

    # -- the connection's life -------------------------------------------------------

    async def _open(self) -> _Connection:
        """One connection attempt: connect, subscribe, announce. Maps every failure."""
        nonce = new_nonce() if self._presence else None
        self._attempts += 1
        conn = self._attempts
        inlet = _Inlet()
        client = self._make_client(nonce, conn, inlet)
        try:
            await client.connect(self._timeout)
        except _LinkError as err:
            raise self._connect_error(err) from None
        try:
            async with asyncio.timeout(self._timeout):
                for pattern in self._patterns:
                    await client.subscribe(pattern, QOS_AT_LEAST_ONCE)
                self._nonce, self._conn = nonce, conn
                await self._announce(client, online=True)
        except (_LinkError, TimeoutError) as err:
            await _quietly_disconnect(client)
            reason = str(err) or "no answer in time"
            raise _SetupLost(f"lost {self.url.redacted()} while setting up: {reason}") from None
        self._client, self._epoch = client, self._epoch + 1
        self._online.set()
        inlet.open(lambda message: self._received(client, message))
        return client

    async def _supervise(self, client: _Connection) -> None:
        """On a broken link, reconnect with backoff. Runs until closed."""
        while True:
            await client.broken.wait()
            self._online.clear()
            await _quietly_disconnect(client)
            left = self.url.redacted()
            if len(self.urls) > 1:
                log.warning("lost the broker %s; moving to the next that answers", left)
            else:
                log.info("lost the broker %s; reconnecting", left)
            try:
                client = await self._reconnect()
                self._moved(left)
            except ConnectError as err:
                self._failure = err
                self._closed = True
                self._queue.put_nowait(None)
                return

    def _received(self, client: _Connection, message: Message) -> None:
        """Queue a message ``client`` received, and heal a stale will it may be."""
        if self._closed:
            return
        self.counts[client.where] += 1
        if self.backlog.admit(message):
            self._queue.put_nowait(message)
        self._heal_stale_will(client, message)

    async def _reconnect(self) -> _Connection:
        """Retry :meth:`_open` with backoff; give up on refusal or after the deadline."""
        loop = asyncio.get_running_loop()
        deadline = None if self._give_up_after is None else loop.time() + self._give_up_after
        last: ConnectError | None = None
        async for _delay in self._backoff.delays():
            if deadline is not None and loop.time() > deadline:
                break
            self._at = (self._at + 1) % len(self.urls)  # the next broker, cycling
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
                async with asyncio.timeout(self._timeout):
                    await client.publish(topic, payload, qos, retain)
                self.counts[client.where] += 1
                return
            except (_LinkError, TimeoutError) as err:
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

    def _make_client(self, nonce: str | None, conn: int, inlet: _Inlet) -> _Connection:
        will = None
        if self._presence is not None and nonce is not None:
            gone = self._presence.payload(nonce, online=False, conn=conn)
            will = (self._presence.topic, gone)
        return _Connection(self.url, client_id=self._client_id, keepalive=self._keepalive,
                           will=will, tls_context=self._tls_context(), take=inlet.put)

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

    async def _announce(self, client: _Connection, online: bool) -> None:
        if self._presence is not None and self._nonce is not None:
            body = self._presence.payload(self._nonce, online, self._conn)
            await client.publish(self._presence.topic, body, QOS_AT_LEAST_ONCE, True)

    def _heal_stale_will(self, client: _Connection, message: Message) -> None:
        """Our own will from an older connection fired late: announce ourselves again."""
        if self._presence is None or self._nonce is None:
            return
        if is_stale_will(self._presence, self._nonce, message.topic, message.payload):
            task = asyncio.create_task(self._announce_in_time(client))
            task.add_done_callback(_ignore_result)

    async def _announce_in_time(self, client: _Connection) -> None:
        async with asyncio.timeout(self._timeout):
            await self._announce(client, online=True)

    def _connect_error(self, err: _LinkError) -> ConnectError:
        where = self.url.redacted()
        if err.code in _REFUSED_LOGIN:
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

    def put(self, message: Message) -> None:
        """A message as the connection received it."""
        if self._take is None:
            self._held.append(message)
        else:
            self._take(message)

    def open(self, take: Callable[[Message], None]) -> None:
        """From now on hand every message to ``take``, those held first."""
        held, self._held, self._take = self._held, [], take
        for message in held:
            take(message)


class _LinkError(Exception):
    """The connection failed or broke; ``code`` is a refusal's reason code, if any."""

    def __init__(self, reason: str, code: int | None = None) -> None:
        super().__init__(reason)
        self.code = code


#: The most packets one wake-up of the reader takes from the socket.
READ_BURST = 64
#: How often paho's housekeeping runs (keep-alive pings, the broker's silence), seconds.
MISC_S = 1.0


class _Connection:
    """One connection to the broker: a paho client that the running event loop drives.

    paho makes the TCP (and TLS) connection and writes CONNECT on an executor thread;
    from then on only the loop's thread calls it. The socket's reader takes every packet
    the socket holds (up to :data:`READ_BURST`), so that messages that arrived together
    are handed on together, and calls ``take`` with each message; a packet paho queues
    is written at once, except while paho is at work inside :meth:`_read` (it may hold
    its own locks then, and calls back from within): it is written as soon as the read
    is done, in the same turn. :attr:`broken` is set when the link breaks, for good:
    each reconnection is a new connection.
    """

    def __init__(self, url: BrokerUrl, *, client_id: str | None, keepalive: int,
                 will: tuple[str, bytes] | None, tls_context: ssl.SSLContext | None,
                 take: Callable[[Message], None]) -> None:
        self.url, self._keepalive, self._take = url, keepalive, take
        self.where = url.redacted()  #: the broker, as logs and counts name it
        self._loop = asyncio.get_running_loop()
        self.broken = asyncio.Event()
        self.error: _LinkError | None = None
        self._connack: asyncio.Future[None] = self._loop.create_future()
        self._acks: dict[int, asyncio.Future[None]] = {}
        self._reading = self._writing = self._write_asked = False
        self._fileno = -1
        self._misc: asyncio.Task[None] | None = None
        client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2,
                             client_id=client_id or "", protocol=MQTTProtocolVersion.MQTTv311,
                             clean_session=True, reconnect_on_failure=False)
        if url.username is not None:
            client.username_pw_set(url.username, url.password)
        if will is not None:
            client.will_set(will[0], will[1], qos=QOS_AT_LEAST_ONCE, retain=True)
        if tls_context is not None:
            client.tls_set_context(tls_context)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_publish = self._on_publish
        client.on_subscribe = self._on_subscribe
        self._paho = client

    async def connect(self, timeout: float) -> None:
        """Connect and wait for the CONNACK; :class:`_LinkError` if that fails."""
        client = self._paho
        client.connect_timeout = timeout
        try:
            await self._loop.run_in_executor(None, client.connect, self.url.host,
                                             self.url.port, self._keepalive)
        except (OSError, ValueError) as err:  # refused, unreachable, TLS, a bad host
            raise _LinkError(_reason(err)) from None
        sock = client.socket()
        if not isinstance(sock, socket.socket):
            raise _LinkError("no socket after connecting")
        _no_delay(sock)
        self._fileno = sock.fileno()
        client.on_socket_close = self._on_socket_close
        client.on_socket_register_write = self._on_register_write
        client.on_socket_unregister_write = self._on_unregister_write
        self._loop.add_reader(self._fileno, self._read)
        if client.want_write():  # CONNECT did not fit at once: the rest when there is room
            self._write()
        self._misc = self._loop.create_task(self._housekeeping())
        try:
            async with asyncio.timeout(timeout):
                await asyncio.shield(self._connack)
        except TimeoutError:
            self.disconnect()
            raise _LinkError(f"no CONNACK within {timeout:g} s") from None
        except _LinkError:
            self.disconnect()
            raise

    async def subscribe(self, pattern: str, qos: int) -> None:
        """Subscribe and wait for the SUBACK; :class:`_LinkError` if refused or broken."""
        rc, mid = self._paho.subscribe(pattern, qos=qos)
        self._check(rc)
        if mid is None:
            raise _LinkError("paho gave the subscription no message id")
        await self._ack(mid)

    async def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        """Publish; at QoS 1 wait for the PUBACK. :class:`_LinkError` if broken."""
        info = self._paho.publish(topic, payload, qos=qos, retain=retain)
        self._check(info.rc)
        if qos > 0 and not info.is_published() and info.mid is not None:
            await self._ack(info.mid)

    def disconnect(self) -> None:
        """Say DISCONNECT if the link is up, close the socket and stop; never raises
        nor waits (the DISCONNECT is written at once, or not at all)."""
        with contextlib.suppress(Exception):
            self._paho.disconnect()
        self._closed("disconnected")

    # -- paho's callbacks (on the loop's thread) --------------------------------------

    def _on_connect(self, _client: object, _userdata: object, _flags: object,
                    reason: Any, _properties: object) -> None:
        if self._connack.done():
            return
        if reason.is_failure:
            self._connack.set_exception(_LinkError(f"refused: {reason}", int(reason.value)))
        else:
            self._connack.set_result(None)

    def _on_disconnect(self, _client: object, _userdata: object, _flags: object,
                       reason: Any, _properties: object) -> None:
        self._closed(f"the broker closed the connection ({reason})")

    def _on_message(self, _client: object, _userdata: object, raw: paho.MQTTMessage) -> None:
        try:
            topic = raw.topic
        except UnicodeDecodeError:
            return  # no broker should pass it on; nothing here can use it
        self._take(Message(topic, bytes(raw.payload), bool(raw.retain)))

    def _on_publish(self, _client: object, _userdata: object, mid: int, _reason: object,
                    _properties: object) -> None:
        self._acked(mid, None)

    def _on_subscribe(self, _client: object, _userdata: object, mid: int,
                      reasons: list[Any], _properties: object) -> None:
        refused = [r for r in reasons if r.is_failure]
        self._acked(mid, _LinkError(f"subscription refused: {refused[0]}") if refused else None)

    def _on_socket_close(self, _client: object, _userdata: object, _sock: object) -> None:
        self._forget_socket()

    def _on_register_write(self, _client: object, _userdata: object, _sock: object) -> None:
        if self._reading:
            self._write_asked = True  # written once paho is out of the read
        else:
            self._write()

    def _on_unregister_write(self, _client: object, _userdata: object, _sock: object) -> None:
        if self._fileno >= 0:
            self._loop.remove_writer(self._fileno)

    # -- the socket ---------------------------------------------------------------------

    def _read(self) -> None:
        client = self._paho
        self._reading = True
        try:
            for _ in range(READ_BURST):
                rc = client.loop_read()
                sock = client.socket()
                if rc != MQTTErrorCode.MQTT_ERR_SUCCESS or sock is None:
                    break
                if not _more_to_read(sock):
                    break
            else:
                self._loop.call_soon(self._read)  # more next turn (TLS may hold bytes)
        except Exception as err:  # a broken link shows here as any error
            self._closed(_reason(err))
        finally:
            self._reading = False
        if self._write_asked:
            self._write_asked = False
            self._write()

    def _write(self) -> None:
        if self._writing:  # paho asks from within the write below: it writes that too
            return
        client = self._paho
        self._writing = True
        try:
            client.loop_write()
        except Exception as err:  # a broken link shows here as any error
            self._closed(_reason(err))
            return
        finally:
            self._writing = False
        if self._fileno >= 0 and client.want_write():  # the buffer is full: wait for room
            self._loop.add_writer(self._fileno, self._write)

    async def _housekeeping(self) -> None:
        while self._paho.loop_misc() == MQTTErrorCode.MQTT_ERR_SUCCESS:
            await asyncio.sleep(MISC_S)

    # -- endings ------------------------------------------------------------------------

    async def _ack(self, mid: int) -> None:
        if self.error is not None:
            raise self.error
        future = self._acks[mid] = self._loop.create_future()
        try:
            await future
        finally:
            self._acks.pop(mid, None)

    def _acked(self, mid: int, error: _LinkError | None) -> None:
        future = self._acks.get(mid)
        if future is None or future.done():
            return
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)

    def _check(self, rc: int) -> None:
        if self.error is not None:
            raise self.error
        if rc != MQTTErrorCode.MQTT_ERR_SUCCESS:
            raise _LinkError(paho.error_string(rc))

    def _closed(self, reason: str) -> None:
        """The link is gone: fail what waits on it, stop reading, set :attr:`broken`."""
        if self.error is None:
            self.error = _LinkError(reason)
        self._forget_socket()
        if self._misc is not None and self._misc is not asyncio.current_task():
            self._misc.cancel()
        for future in [self._connack, *self._acks.values()]:
            if not future.done():
                future.set_exception(self.error)
                future.exception()  # retrieved: nobody may be waiting any more
        self.broken.set()

    def _forget_socket(self) -> None:
        if self._fileno >= 0:
            self._loop.remove_reader(self._fileno)
            self._loop.remove_writer(self._fileno)
            self._fileno = -1


def _no_delay(sock: socket.socket) -> None:
    """Turn Nagle's algorithm off on the connection's socket.

    paho leaves it on, so a small publication that follows another waits for the
    broker's delayed TCP acknowledgement (40 ms on Linux). The session's messages are
    small and latency-bound: measured, a seeded 5-seat match over Mosquitto took 10.4 s
    with Nagle on and 2.0 s with it off.
    """
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


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


def _reason(err: BaseException) -> str:
    """A one-line reason for a failed or broken link."""
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    return str(err) or type(err).__name__


def _ignore_result(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.info("re-announcing presence failed: %s", task.exception())


#: Longest wait for a connection's housekeeping to end once it is disconnected.
DISCONNECT_WAIT_S = 5.0


async def _quietly_disconnect(client: _Connection) -> None:
    """Leave the broker cleanly if we still can; never raise, never hang: the DISCONNECT
    is written at once if the socket takes it, and the socket is closed either way (a
    process that has finished its match must still exit)."""
    client.disconnect()
    await asyncio.sleep(0)  # the cancelled housekeeping ends


if TYPE_CHECKING:  # mypy checks that the adapter honours the contract
    _CONFORMS: type[Transport] = MqttTransport
