"""Test support: a broker adversary's :class:`~lodam_p2p.redteam.broker.Relay` in front of
the in-memory hub, so that each broker kind plays on the table clock, without sockets.

Each seat's transport is a :class:`RelayTransport`: what the seat publishes goes through
:meth:`Relay.from_seat` (dropped when it says so, a will fired when it says so), and what
the hub delivers to the seat through :meth:`Relay.to_seat`, as the TCP relay does."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from lodam_p2p.games.lodam import Options
from lodam_p2p.redteam.broker import Relay
from lodam_p2p.session import Session, Timing
from lodam_p2p.session.table import _sessions
from lodam_p2p.tableplan import SeatPlan
from lodam_p2p.transport import PresenceSpec
from lodam_p2p.transport.base import QOS_AT_LEAST_ONCE, Message
from lodam_p2p.transport.memory import MemoryHub, MemoryTransport
from tests.session.helpers import PATIENT


class RelayTransport:
    """A :class:`MemoryTransport` seen through ``relay`` (see the module docstring)."""

    def __init__(self, hub: MemoryHub, spec: PresenceSpec, relay: Relay,
                 broker: MemoryTransport) -> None:
        self._hub, self._relay, self._broker = hub, relay, broker
        self._inner = hub.transport(spec)
        self.peer = spec.peer

    @property
    def epoch(self) -> int:
        """The inner transport's."""
        return self._inner.epoch

    @property
    def nonce(self) -> str | None:
        """The inner transport's."""
        return self._inner.nonce

    async def connect(self) -> None:
        """Connect; the relay reads the will the connection registers."""
        await self._inner.connect()
        will = self._hub._wills.get(id(self._inner))
        if will is not None:
            self._relay.note_will(*will)

    async def publish(self, topic: str, payload: bytes, retain: bool = False,
                      qos: int = QOS_AT_LEAST_ONCE) -> None:
        """Publish what the relay lets through, and a will when it fires one."""
        if not self._relay.from_seat(self.peer, topic, bytes(payload)):
            return
        fired = self._relay.will_to_fire(self.peer, topic)
        await self._inner.publish(topic, payload, retain, qos)
        if fired is not None:  # after the frame, as the relay publishes it
            await self._broker.publish(*fired, retain=True)

    async def subscribe(self, pattern: str) -> None:
        """The inner transport's."""
        await self._inner.subscribe(pattern)

    async def messages(self) -> AsyncIterator[Message]:
        """What the hub delivers, as the relay changes it."""
        async for message in self._inner.messages():
            instead = self._relay.to_seat(self.peer, message.topic, message.payload)
            if instead is None:
                yield message
                continue
            for payload in instead:
                yield Message(message.topic, payload)

    async def close(self) -> None:
        """The inner transport's."""
        await self._inner.close()


async def relayed_table(relay: Relay, seats: Sequence[SeatPlan], options: Options, *,
                        seed: int = 3, timing: Timing = PATIENT,
                        hub: MemoryHub | None = None) -> list[Session]:
    """The host's watcher and one session per seat, each on ``hub`` through ``relay``
    (its wills published by a client of the hub that is the broker's own)."""
    hub = hub or MemoryHub()
    broker = hub.transport()
    await broker.connect()

    def connect(spec: PresenceSpec) -> RelayTransport:
        return RelayTransport(hub, spec, relay, broker)

    return _sessions("oak", options, len(seats), seats, connect=connect, seed=seed,
                     timing=timing, spectator=None)
