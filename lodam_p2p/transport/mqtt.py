"""The MQTT transport: paho-mqtt (MQTT 3.1.1) behind :class:`~.base.Transport`.

This is the only module of the project that imports the MQTT client.

The transport's life — the first connection, the supervisor that reconnects with
backoff, renews the subscriptions and the presence, and moves between the brokers of a
cluster — is :class:`~lodam_p2p.transport.supervisor.Supervisor`, which
:class:`MqttTransport` owns, and gives paho's driver (:class:`_Paho`, a
:class:`~lodam_p2p.transport.connection.Connector`) to make each connection with. The
supervisor meets a connection only through
:class:`~lodam_p2p.transport.connection.BrokerConnection`; here is what makes that
connection with paho: :class:`_Connection`, with the acknowledgements it awaits
(:mod:`.acks`) and its socket's helpers (:mod:`.sockets`).

Theory of operation
-------------------
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
import contextlib
import socket
import ssl
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion

from lodam_p2p.transport.acks import Acks, fail_quietly
from lodam_p2p.transport.backlog import Backlog
from lodam_p2p.transport.base import QOS_AT_LEAST_ONCE, Message, Transport
from lodam_p2p.transport.connection import (
    DISCONNECT_WAIT_S,
    Backoff,
    Connector,
    LinkError,
    tls_context,
)
from lodam_p2p.transport.presence import PresenceSpec
from lodam_p2p.transport.retry import SETUP_TRIES, log
from lodam_p2p.transport.sockets import more_to_read, no_delay, reason_of
from lodam_p2p.transport.supervisor import Supervisor
from lodam_p2p.transport.url import BrokerUrl

__all__ = ["DISCONNECT_WAIT_S", "MISC_S", "READ_BURST", "SETUP_TRIES", "Backoff",
           "MqttTransport", "log"]

#: The connection's errors (the name paho's driver and its tests know them by).
_LinkError = LinkError


class MqttTransport:
    """A :class:`~.base.Transport` on any MQTT 3.1.1 broker.

    ``presence`` (optional) is the table/peer whose presence and Last Will this
    connection keeps. ``keepalive`` bounds how long an abruptly vanished peer goes
    unnoticed (brokers fire the will after 1.5 × keepalive without traffic).
    ``timeout`` bounds each connection attempt and each acknowledgement;
    ``publish_timeout`` bounds the whole publish including waits for a reconnection.
    ``url`` may name several brokers (a sequence, or a comma-separated string): see
    :mod:`.supervisor`; ``on_move(old, new)`` is called with each broker left and
    the one reached (their redacted URLs).
    """

    def __init__(self, url: BrokerUrl | str | Sequence[BrokerUrl | str],
                 presence: PresenceSpec | None = None, *, client_id: str | None = None,
                 keepalive: int = 10, timeout: float = 5.0, publish_timeout: float = 30.0,
                 backoff: Backoff | None = None, give_up_after: float | None = None,
                 on_move: Callable[[str, str], None] | None = None) -> None:
        self._life = Supervisor(url, _Paho(client_id, keepalive), presence, timeout=timeout,
                                publish_timeout=publish_timeout, backoff=backoff,
                                give_up_after=give_up_after, on_move=on_move)
        #: every broker this transport may use, in the order given
        self.urls: tuple[BrokerUrl, ...] = self._life.urls
        #: messages received from and published to each broker, by its redacted URL
        self.counts = self._life.counts
        #: what the received queue holds, in bytes (see :mod:`.backlog`)
        self.backlog: Backlog = self._life.backlog

    @property
    def url(self) -> BrokerUrl:
        """The broker in use (the one tried last while the link is down)."""
        return self._life.url

    @property
    def epoch(self) -> int:
        """How many connections have been established so far."""
        return self._life.epoch

    @property
    def nonce(self) -> str | None:
        """The presence nonce of the current connection."""
        return self._life.nonce

    @property
    def connected(self) -> bool:
        """Whether the link is up right now."""
        return self._life.connected

    @property
    def moves(self) -> int:
        """How many times the transport moved to another broker of :attr:`urls`."""
        return self._life.moves

    @property
    def on_move(self) -> Callable[[str, str], None] | None:
        """Told ``(left, reached)`` at each move to another broker (may be set later)."""
        return self._life.on_move

    @on_move.setter
    def on_move(self, listener: Callable[[str, str], None] | None) -> None:
        self._life.on_move = listener

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        """Connect for the first time; :class:`~.base.ConnectError` on failure (see
        :meth:`.Supervisor.connect`)."""
        await self._life.connect()

    async def publish(
        self, topic: str, payload: bytes, retain: bool = False, qos: int = QOS_AT_LEAST_ONCE
    ) -> None:
        """Publish, waiting through reconnections up to ``publish_timeout`` seconds."""
        await self._life.publish(topic, payload, retain, qos)

    async def subscribe(self, pattern: str) -> None:
        """Subscribe at QoS 1 now (if connected) and after every reconnection."""
        await self._life.subscribe(pattern)

    def messages(self) -> AsyncIterator[Message]:
        """Every message received, across reconnections, until the transport closes."""
        return self._life.messages()

    async def close(self) -> None:
        """Announce departure (so no will fires) and disconnect; idempotent."""
        await self._life.close()


@dataclass(frozen=True, slots=True)
class _Paho:
    """The :class:`~.connection.Connector` of paho: each connection a :class:`_Connection`."""

    client_id: str | None
    keepalive: int

    def __call__(self, url: BrokerUrl, will: tuple[str, bytes] | None,
                 take: Callable[[Message], None]) -> _Connection:
        """A paho connection to ``url`` (see :class:`~.connection.Connector`)."""
        return _Connection(url, client_id=self.client_id, keepalive=self.keepalive,
                           will=will, tls_context=tls_context(url), take=take)


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
        self._acks = Acks(self._loop)
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
        #: over TLS a close before the CONNACK is how a refused client certificate shows
        self._plain = tls_context is None  # (TLS 1.3): a refusal, not a busy broker
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
            raise _LinkError(reason_of(err)) from None
        sock = client.socket()
        if not isinstance(sock, socket.socket):
            raise _LinkError("no socket after connecting")
        no_delay(sock)
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
            raise _LinkError(f"no CONNACK within {timeout:g} s", taken=self._plain) from None
        except _LinkError as err:
            self.disconnect()
            raise _LinkError(str(err), err.code, taken=err.code is None and self._plain) from None

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
        self._acks.answer(mid)

    def _on_subscribe(self, _client: object, _userdata: object, mid: int,
                      reasons: list[Any], _properties: object) -> None:
        refused = [r for r in reasons if r.is_failure]
        self._acks.answer(mid, _LinkError(f"subscription refused: {refused[0]}")
                          if refused else None)

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
                if not more_to_read(sock):
                    break
            else:
                self._loop.call_soon(self._read)  # more next turn (TLS may hold bytes)
        except Exception as err:  # a broken link shows here as any error
            self._closed(reason_of(err))
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
            self._closed(reason_of(err))
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
        await self._acks.wait(mid)

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
        fail_quietly([self._connack], self.error)
        self._acks.fail(self.error)
        self.broken.set()

    def _forget_socket(self) -> None:
        if self._fileno >= 0:
            self._loop.remove_reader(self._fileno)
            self._loop.remove_writer(self._fileno)
            self._fileno = -1


if TYPE_CHECKING:  # mypy checks that the adapter honours the contracts
    _CONFORMS: type[Transport] = MqttTransport
    _CONNECTS: Connector = _Paho(None, 10)
