"""The transport contract the session layer is written against.

A transport moves opaque payloads between peers by topic, the MQTT way: at-least-once
(QoS 1), ordered per publisher, retained messages, and one Last Will per connection.
Two implementations honour it: :class:`lodam_p2p.transport.mqtt.MqttTransport` (any MQTT
3.1.1 broker, through paho-mqtt) and :class:`lodam_p2p.transport.memory.MemoryTransport`
(an in-process hub that can drop, duplicate, delay and reorder for tests).

What a transport promises, and what it does not:

- ``publish`` returns once the broker has the message (QoS 1 acknowledged) or raises
  :class:`TransportError`. After a reconnect a message may arrive twice, or — if the
  link broke while it was in flight — not at all: the session's
  :mod:`lodam_p2p.transport.stream` layer dedupes and asks for gaps again.
- ``messages()`` is one long iterator that survives reconnects; it ends when the
  transport is closed.
- Subscriptions are remembered and renewed on every reconnect, and so is the presence
  (see :mod:`lodam_p2p.transport.presence`): each connection gets a fresh nonce, the
  Last Will carries it, and the online announcement is re-published.
- ``epoch`` counts successful connections. A session that sees it change should
  announce how far its own stream has got, so peers notice what they missed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

#: Quality of service the project uses everywhere (DESIGN section 4).
QOS_AT_LEAST_ONCE = 1


class TransportError(Exception):
    """A transport-level failure, worded for the user (no traceback needed)."""


class ConnectError(TransportError):
    """The broker could not be reached, refused us, or rejected our credentials."""


class TransportClosed(TransportError):
    """The transport was closed (by us, or it gave up reconnecting)."""


@dataclass(frozen=True, slots=True)
class Message:
    """One message as received: the topic it was published on and its raw bytes.

    ``retain`` is true when the broker delivered a stored (retained) message on
    subscription rather than a live publication.
    """

    topic: str
    payload: bytes
    retain: bool = False


@runtime_checkable
class Transport(Protocol):
    """Publish/subscribe with retained messages and a presence will.

    Use it as an async context manager (``async with transport:``) or call
    :meth:`connect` and :meth:`close` yourself.
    """

    @property
    def epoch(self) -> int:
        """How many times a connection has been established (0 before the first)."""
        ...

    @property
    def nonce(self) -> str | None:
        """The nonce of the current connection's presence, if a presence is set."""
        ...

    async def connect(self) -> None:
        """Connect (first time), subscribe nothing yet, publish the presence if any."""
        ...

    async def publish(
        self, topic: str, payload: bytes, retain: bool = False, qos: int = QOS_AT_LEAST_ONCE
    ) -> None:
        """Publish ``payload`` on ``topic``; an empty retained payload clears the topic."""
        ...

    async def subscribe(self, pattern: str) -> None:
        """Subscribe to a topic filter (``+`` and ``#`` wildcards); kept across reconnects."""
        ...

    def messages(self) -> AsyncIterator[Message]:
        """Every message received on any subscription, until the transport closes."""
        ...

    async def close(self) -> None:
        """Announce the presence as gone (if any), disconnect cleanly: no will fires."""
        ...


def topic_matches(pattern: str, topic: str) -> bool:
    """MQTT topic-filter matching: ``+`` is one level, a final ``#`` is any rest.

    >>> topic_matches("lodam/v3/t/+/p/+", "lodam/v3/t/oak/p/ann")
    True
    >>> topic_matches("lodam/#", "lodam")
    True
    """
    want = pattern.split("/")
    have = topic.split("/")
    for index, level in enumerate(want):
        if level == "#":
            return True
        if index >= len(have) or level not in ("+", have[index]):
            return False
    return len(want) == len(have)
