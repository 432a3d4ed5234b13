"""An in-process broker and transport for tests, with seeded fault injection.

:class:`MemoryHub` plays the broker: topic filters, retained messages, Last Wills,
and — unlike a healthy broker — :class:`Faults`: each live delivery to each subscriber
may be dropped, duplicated, delayed or reordered, decided by a ``random.Random`` seeded
from ``Faults.seed`` so a failing test replays exactly (given the same sequence of
publications).

Delays keep each publisher-to-subscriber link in order, as MQTT does; ``reorder``
breaks that order on purpose: a reordered message is held back and delivered after the
next message on the same link (or after ``hold_s`` seconds if none comes). Retained
messages sent on subscription, and topics outside ``Faults.topics``, are never faulted.

A :class:`Hostile` hub goes further, as a broker that misbehaves on purpose: it replays
old messages a peer really sent, and shows one subscriber another view of the peer
topics (a message withheld from it alone, an older one delivered in its place). It can
forge nothing: what it replays are the publications as they were.

:class:`MemoryTransport` implements :class:`~lodam_p2p.transport.base.Transport` on a
hub; :meth:`MemoryTransport.abort` is an abrupt disconnect (the will fires) and
:meth:`MemoryTransport.bounce` a dropped link that reconnects at once (the will of the
old connection fires, then a new nonce is announced — the order a real broker uses).
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lodam_p2p.transport.base import (
    QOS_AT_LEAST_ONCE,
    Message,
    Transport,
    TransportClosed,
    topic_matches,
)
from lodam_p2p.transport.presence import PresenceSpec, is_stale_will, new_nonce
from lodam_p2p.transport.topics import stream_of

_Link = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Faults:
    """Per-delivery fault probabilities, and where they apply.

    ``delay`` is the largest extra latency in seconds (uniform, order-preserving per
    link); ``topics`` is a topic filter: only matching topics are faulted.
    """

    drop: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    delay: float = 0.0
    seed: int = 0
    topics: str = "#"
    hold_s: float = 0.02


@dataclass(frozen=True, slots=True)
class Hostile:
    """A broker's misdeeds on the topics matching ``topics``.

    ``replay`` is the chance that a live delivery is followed by an old message of the
    same topic, one at least ``age`` publications back. ``split`` names a peer (its
    presence's peer name) shown another view: every ``split_every``-th publication on
    another peer's topic is withheld from it (the same bytes published again, a resend,
    too: ``split_hold`` times in all) and an older message of that topic is delivered in
    its place. Decisions are seeded by ``seed``.
    """

    replay: float = 0.0
    age: int = 20
    split: str = ""
    split_every: int = 25
    split_hold: int = 6
    seed: int = 0
    topics: str = "lodam/v3/t/+/p/#"


class MemoryHub:
    """The in-process broker shared by a test's :class:`MemoryTransport` objects."""

    def __init__(self, faults: Faults | None = None, hostile: Hostile | None = None) -> None:
        self.retained: dict[str, bytes] = {}
        self._clients: dict[int, MemoryTransport] = {}
        self._wills: dict[int, tuple[str, bytes]] = {}
        self._held: dict[_Link, Message] = {}
        self._delayed: dict[_Link, deque[tuple[float, Message]]] = {}
        self.set_faults(faults or Faults())
        self.hostile = hostile or Hostile()
        self._hostile_rng = random.Random(self.hostile.seed)
        self._history: dict[str, list[bytes]] = {}
        self._withheld: dict[bytes, int] = {}
        #: what the hostile hub did: replays, withholdings
        self.replayed = self.withheld = 0

    def set_faults(self, faults: Faults) -> None:
        """Change the faults from now on (reseeding the generator)."""
        self.faults = faults
        self._rng = random.Random(faults.seed)

    def transport(self, presence: PresenceSpec | None = None) -> MemoryTransport:
        """A new, unconnected transport on this hub."""
        return MemoryTransport(self, presence)

    def _attach(self, client: MemoryTransport, will: tuple[str, bytes] | None) -> None:
        self._clients[id(client)] = client
        if will is not None:
            self._wills[id(client)] = will

    def _detach(self, client: MemoryTransport, fire_will: bool) -> None:
        self._clients.pop(id(client), None)
        will = self._wills.pop(id(client), None)
        if fire_will and will is not None:
            self._publish(id(client), will[0], will[1], retain=True)

    def _publish(self, sender: int, topic: str, payload: bytes, retain: bool) -> None:
        """Store if retained, then hand the message to every matching subscriber."""
        if retain:
            if payload:
                self.retained[topic] = payload
            else:
                self.retained.pop(topic, None)
        message = Message(topic, payload)
        stream = stream_of(topic)
        history = self._remember(topic, stream, payload)
        for client in list(self._clients.values()):
            if not client._wants(topic):
                continue
            if history is None:
                self._deliver((sender, id(client)), client, message)
            else:
                self._deliver_hostile((sender, id(client)), client, message, history,
                                      stream)

    def _remember(self, topic: str, stream: tuple[str, str] | None,
                  payload: bytes) -> list[bytes] | None:
        """The publications so far of the stream ``topic`` carries (a resend answer's
        is its sender's stream, which it repeats: not remembered again), when the
        hostile hub meddles with it."""
        hostile = self.hostile
        if not (hostile.replay or hostile.split) or not topic_matches(hostile.topics, topic):
            return None
        history = self._history.setdefault(stream[1] if stream else topic, [])
        if stream is None or stream[1] == topic:
            history.append(payload)
            del history[:-512]
        return history

    def _deliver_hostile(self, link: _Link, client: MemoryTransport, message: Message,
                         history: list[bytes], stream: tuple[str, str] | None) -> None:
        """Withhold from the split peer (an old message in its place), deliver, replay."""
        hostile, rng = self.hostile, self._hostile_rng
        old = history[:-hostile.age]
        peer = client._presence.peer if client._presence is not None else ""
        sender = stream[0] if stream else ""
        if hostile.split and peer == hostile.split and sender != peer:
            held = self._withheld.get(message.payload)
            if (held is None and old and len(history) % hostile.split_every == 0
                    and stream is not None and stream[1] == message.topic):
                held = 0
            if held is not None and held < hostile.split_hold:
                self._withheld[message.payload] = held + 1
                self.withheld += 1
                if old:
                    self._deliver(link, client, Message(message.topic, rng.choice(old)))
                return
        self._deliver(link, client, message)
        if old and rng.random() < hostile.replay:
            self.replayed += 1
            self._deliver(link, client, Message(message.topic, rng.choice(old)))

    def _send_retained(self, client: MemoryTransport, pattern: str) -> None:
        for topic, payload in sorted(self.retained.items()):
            if topic_matches(pattern, topic):
                client._put(Message(topic, payload, retain=True))

    def _deliver(self, link: _Link, client: MemoryTransport, message: Message) -> None:
        """One live delivery, through the fault injector."""
        faults, rng = self.faults, self._rng
        if not topic_matches(faults.topics, message.topic):
            client._put(message)
            return
        if rng.random() < faults.drop:
            return
        copies = 2 if rng.random() < faults.duplicate else 1
        for _ in range(copies):
            if link not in self._held and rng.random() < faults.reorder:
                self._hold(link, client, message)
                continue
            self._send(link, client, message)
            held = self._held.pop(link, None)
            if held is not None:
                self._send(link, client, held)

    def _hold(self, link: _Link, client: MemoryTransport, message: Message) -> None:
        """Keep ``message`` back until the link's next message (or ``hold_s``)."""
        self._held[link] = message

        def release() -> None:
            if self._held.get(link) is message:
                self._send(link, client, self._held.pop(link))

        asyncio.get_running_loop().call_later(self.faults.hold_s, release)

    def _send(self, link: _Link, client: MemoryTransport, message: Message) -> None:
        """Deliver now, or after a random delay that keeps the link in order."""
        if self.faults.delay <= 0:
            client._put(message)
            return
        loop = asyncio.get_running_loop()
        queue = self._delayed.setdefault(link, deque())
        at = loop.time() + self._rng.uniform(0, self.faults.delay)
        if queue:
            at = max(at, queue[-1][0])
        queue.append((at, message))
        loop.call_at(at, self._release_due, link, client)

    def _release_due(self, link: _Link, client: MemoryTransport) -> None:
        """Hand over, in order, the link's delayed messages whose time has come.

        Timers with equal deadlines may fire in any order, so each one drains the
        link's queue from the front rather than delivering "its own" message.
        """
        queue = self._delayed.get(link)
        now = asyncio.get_running_loop().time()
        while queue and queue[0][0] <= now:
            client._put(queue.popleft()[1])


class MemoryTransport:
    """A :class:`~lodam_p2p.transport.base.Transport` on a :class:`MemoryHub`.

    ``nonce_factory`` draws the per-connection presence nonce (tests may pass a
    deterministic one).
    """

    def __init__(
        self,
        hub: MemoryHub,
        presence: PresenceSpec | None = None,
        nonce_factory: Callable[[], str] = new_nonce,
    ) -> None:
        self._hub = hub
        self._presence = presence
        self._new_nonce = nonce_factory
        self._patterns: list[str] = []
        self._queue: asyncio.Queue[Message | None] = asyncio.Queue()
        self._epoch = 0
        self._attempts = 0  # the presence's ``conn``
        self._nonce: str | None = None
        self._connected = False
        self._closed = False

    @property
    def epoch(self) -> int:
        """How many times this transport has (re)connected."""
        return self._epoch

    @property
    def nonce(self) -> str | None:
        """The current connection's presence nonce."""
        return self._nonce

    async def __aenter__(self) -> MemoryTransport:
        await self.connect()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        """Attach to the hub with a fresh nonce and announce the presence."""
        if self._closed:
            raise TransportClosed("transport is closed")
        self._nonce = self._new_nonce() if self._presence else None
        self._attempts += 1
        self._hub._attach(self, self._presence_message(False))
        self._connected = True
        self._epoch += 1
        for pattern in self._patterns:  # as MQTT: subscriptions renewed, retained re-sent
            self._hub._send_retained(self, pattern)
        await self._announce(True)

    async def publish(
        self, topic: str, payload: bytes, retain: bool = False, qos: int = QOS_AT_LEAST_ONCE
    ) -> None:
        """Publish through the hub (``qos`` is accepted for the protocol's sake)."""
        self._check_open()
        self._hub._publish(id(self), topic, bytes(payload), retain)

    async def subscribe(self, pattern: str) -> None:
        """Subscribe; matching retained messages are delivered at once."""
        self._check_open()
        if pattern not in self._patterns:
            self._patterns.append(pattern)
        self._hub._send_retained(self, pattern)

    async def messages(self) -> AsyncIterator[Message]:
        """Every message received, until the transport is closed."""
        while (message := await self._queue.get()) is not None:
            if self._presence and self._nonce:
                await self._heal_stale_will(message)
            yield message

    async def close(self) -> None:
        """Announce departure, detach cleanly (no will) and end :meth:`messages`."""
        if self._connected:
            await self._announce(False)
        self._finish(fire_will=False)

    def abort(self) -> None:
        """Vanish abruptly: the hub fires the will; :meth:`messages` ends."""
        self._finish(fire_will=True)

    async def bounce(self) -> None:
        """Lose the link and reconnect at once (old will fires, new nonce announced)."""
        self._check_open()
        self._hub._detach(self, fire_will=True)
        self._connected = False
        await self.connect()

    def _finish(self, fire_will: bool) -> None:
        if not self._closed:
            self._hub._detach(self, fire_will)
            self._closed, self._connected = True, False
            self._queue.put_nowait(None)

    def _check_open(self) -> None:
        if self._closed or not self._connected:
            raise TransportClosed("transport is not connected")

    def _wants(self, topic: str) -> bool:
        return any(topic_matches(pattern, topic) for pattern in self._patterns)

    def _put(self, message: Message) -> None:
        if not self._closed:
            self._queue.put_nowait(message)

    def _presence_message(self, online: bool) -> tuple[str, bytes] | None:
        if self._presence is None or self._nonce is None:
            return None
        return self._presence.topic, self._presence.payload(self._nonce, online, self._attempts)

    async def _announce(self, online: bool) -> None:
        message = self._presence_message(online)
        if message is not None:
            self._hub._publish(id(self), message[0], message[1], retain=True)

    async def _heal_stale_will(self, message: Message) -> None:
        assert self._presence is not None and self._nonce is not None
        if self._connected and is_stale_will(
            self._presence, self._nonce, message.topic, message.payload
        ):
            await self._announce(True)


if TYPE_CHECKING:  # mypy checks that the test transport honours the contract
    _CONFORMS: type[Transport] = MemoryTransport
