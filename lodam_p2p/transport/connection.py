"""One connection to a broker, as the supervisor that owns it sees it.

The supervisor (:class:`~lodam_p2p.transport.supervisor.Supervisor`) makes a connection
per attempt through the :class:`Connector` it was given (paho's, in :mod:`.mqtt`), and
meets it only through :class:`BrokerConnection`: connect, subscribe, publish,
disconnect, and an event set when the link breaks, for good (each reconnection is a new
connection). What the connection receives goes through an :class:`Inlet`, which holds
it until the connection's set-up is done. Here too are the errors a connection raises
(:class:`LinkError`, and the two kinds of :class:`ConnectError` the supervisor tells
apart, which :func:`connect_error` and :func:`tls_context` give), and the
:class:`Backoff` between attempts.

Nothing here imports the MQTT client: swapping it touches :mod:`.mqtt` alone.
"""
from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Protocol

from lodam_p2p.transport.base import ConnectError, Message
from lodam_p2p.transport.url import BrokerUrl

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


class Unrecoverable(ConnectError):
    """A refusal that retrying will not cure (bad credentials, bad TLS files)."""


class SetupLost(ConnectError):
    """The broker took the connection but did not answer its set-up in time."""


class LinkError(Exception):
    """The connection failed or broke; ``code`` is a refusal's reason code, if any.
    ``taken``: the broker took a plain connection, then closed it or let the CONNECT go
    unanswered without a refusal — a node not ready yet (a NATS cluster placing its
    streams says so), not a wrong address. Over TLS such a close is how a refused
    client certificate shows, so it is never ``taken``."""

    def __init__(self, reason: str, code: int | None = None, *, taken: bool = False) -> None:
        super().__init__(reason)
        self.code = code
        self.taken = taken


class BrokerConnection(Protocol):
    """One connection to the broker, made by a client driver's :class:`Connector`."""

    #: the broker, as logs and counts name it (its redacted URL)
    where: str
    #: set when the link breaks, for good
    broken: asyncio.Event

    async def connect(self, timeout: float) -> None:
        """Connect and wait for the broker's answer; :class:`LinkError` if that fails."""
        ...

    async def subscribe(self, pattern: str, qos: int) -> None:
        """Subscribe and wait for the answer; :class:`LinkError` if refused or broken."""
        ...

    async def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        """Publish; at QoS 1 wait for the acknowledgement. :class:`LinkError` if broken."""
        ...

    def disconnect(self) -> None:
        """Say goodbye if the link is up, close the socket and stop; never raises nor
        waits."""
        ...


class Connector(Protocol):
    """What makes a supervisor's connections: a client driver (:mod:`.mqtt`'s is paho)."""

    def __call__(self, url: BrokerUrl, will: tuple[str, bytes] | None,
                 take: Callable[[Message], None]) -> BrokerConnection:
        """A connection to ``url``, not yet connected, that registers the Last Will
        ``will`` (its topic and payload) if there is one and hands each message it
        receives to ``take``; :class:`Unrecoverable` if it cannot be made at all
        (:func:`tls_context`)."""
        ...


def tls_context(url: BrokerUrl) -> ssl.SSLContext | None:
    """The TLS context of a connection to ``url`` (``None`` without TLS), with its CA and
    client certificate; :class:`Unrecoverable` if those files cannot be loaded."""
    if not url.tls:
        return None
    try:
        context = ssl.create_default_context(cafile=url.ca_file)
        if url.cert_file is not None:
            context.load_cert_chain(url.cert_file, url.key_file)
    except (OSError, ssl.SSLError) as err:
        raise Unrecoverable(f"cannot load the TLS files of {url.redacted()}: {err}") from None
    return context


def connect_error(err: LinkError, where: str) -> ConnectError:
    """The one-line error of a failed connection to the broker ``where``: a refused
    login is :class:`Unrecoverable`, anything else may be tried again."""
    if err.code in _REFUSED_LOGIN:
        return Unrecoverable(f"broker {where} refused the login (bad user name or "
                             "password, or not authorised)")
    reason = str(err) or type(err).__name__
    return ConnectError(f"cannot connect to {where}: {reason}")


class Inlet:
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


#: Longest wait for a connection's housekeeping to end once it is disconnected.
DISCONNECT_WAIT_S = 5.0


async def quietly_disconnect(client: BrokerConnection) -> None:
    """Leave the broker cleanly if we still can; never raise, never hang: the DISCONNECT
    is written at once if the socket takes it, and the socket is closed either way (a
    process that has finished its match must still exit)."""
    client.disconnect()
    await asyncio.sleep(0)  # the cancelled housekeeping ends
