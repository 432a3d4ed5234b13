"""One peer's connection at a table: signed frames over reliable per-sender streams.

A :class:`Link` owns a transport (MQTT or in-memory), a
:class:`~lodam_p2p.transport.stream.StreamEndpoint` and the peer's identity key. It
subscribes to every peer topic and every presence of the table, to the answers meant
for it alone (resends it asked for), and, for a joiner, to the table's lobby
announcement, and puts what it learns into the session's inbox queue.
That reading part, with the checks every frame passes, what it learns of the peers and
the items the session gets (:class:`Delivered`, :class:`PresenceSeen`, :class:`LinkDown`
and the others), is a :class:`~lodam_p2p.session.linkread.LinkReader`
(:mod:`.linkread`) the link owns as :attr:`Link.reader`: the link gives it the event
loop's clock, its own publishing and the event a draining link waits on, runs its
:meth:`~lodam_p2p.session.linkread.LinkReader.read` as a task, and reads back who is
gone and when each peer was last heard (for the drain) and the forks to publish again.
Here are the sending half, the event loop's tasks, and the close. Resend requests and
heartbeats run on a ticker task.

Each frame is signed once, when it is first sent: the stream keeps it sealed, and a
resend publishes those bytes again. Until the machine admits the seated peers
(:meth:`Link.restrict`), every key is a stranger (the stream's lobby caps) and only the
lobby's messages get through (:data:`LOBBY_KINDS`, each at most
:data:`MAX_LOBBY_BODY` bytes): a key that floods the lobby with anything else is dropped
and logged once. A peer restarted into a match under way (stream epoch above 0) is
admitted from its journal at once and has no lobby.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.session.linkread import (
    LOBBY_KINDS,
    MAX_LOBBY_BODY,
    Delivered,
    HeardFrom,
    LinkDown,
    LinkReader,
    LobbySeen,
    OwnWillSeen,
    PresenceSeen,
    StreamFaultSeen,
    log,
    proves_fork,
)
from lodam_p2p.session.wire import Body, peer_name, raw_public, seal_frame
from lodam_p2p.transport import PresenceSpec, Transport, TransportError, topics
from lodam_p2p.transport.presence import PresenceTracker
from lodam_p2p.transport.stream import StreamEndpoint
from lodam_p2p.transport.tasks import stop_tasks

__all__ = [
    "DRAIN_POLL_S", "DRAIN_S", "DRAIN_STILL_S", "LOBBY_KINDS", "MAX_LOBBY_BODY",
    "Connector", "Delivered", "HeardFrom", "Link", "LinkDown", "LobbySeen", "OwnWillSeen",
    "PresenceSeen", "StreamFaultSeen", "log", "proves_fork",
]

#: Makes the transport of one peer (MQTT or in-memory) for its presence.
Connector = Callable[[PresenceSpec], Transport]
#: At close, the longest a link stays to answer a seat that has not reached its last
#: frame (see :meth:`Link.close`), and how long such a seat may stand still meanwhile.
DRAIN_S, DRAIN_STILL_S = 30.0, 10.0
#: How often a draining link looks again (and echoes what it newly delivered), at
#: least: a frame that comes makes it look at once.
DRAIN_POLL_S = 0.05


class Link:
    """See the module docstring. ``open`` it, ``send`` bodies, ``close`` it."""

    def __init__(self, connector: Connector, table: str, identity: Ed25519PrivateKey, *,
                 watch_lobby: bool = False, heartbeat: float = 1.0, retry: float = 0.5,
                 epoch: int = 0) -> None:
        self.table = topics.check_name(table, "table")
        self.identity = identity
        self.pubkey = raw_public(identity)
        self.peer = peer_name(self.pubkey)
        self.transport = connector(PresenceSpec(table, self.peer, signer=identity.sign,
                                                pubkey=self.pubkey, epoch=epoch))
        # a restarted peer (epoch > 0) opens a new epoch of its stream and follows the
        # others from where they are now (see transport.stream)
        self.endpoint = StreamEndpoint(self.peer, retry_interval=retry,
                                       heartbeat_interval=heartbeat, epoch=epoch,
                                       late_join=epoch > 0, seal=self._seal,
                                       lobby=epoch == 0)
        self.bytes_sent = 0
        self._watch_lobby = watch_lobby
        self._tasks: list[asyncio.Task[None]] = []
        self._send_lock = asyncio.Lock()
        self._epoch = 0
        self._heartbeat = heartbeat
        #: set when a signed frame comes (a draining link looks again at once)
        self._news: asyncio.Event = asyncio.Event()
        #: the reading part: every message in, checked, and told to the session
        self.reader = LinkReader(self, clock=self._loop_time, flush=self._flush_control,
                                 news=self._news)

    @property
    def presence(self) -> PresenceTracker:
        """The peers' presence as the reader has seen it."""
        return self.reader.presence

    @property
    def broker_faults(self) -> list[str]:
        """The broker faults the streams showed, one line each (a result's broker_faults)."""
        return self.reader.broker_faults

    @property
    def ignored(self) -> int:
        """The messages dropped for failing a check (see :mod:`.linkread`)."""
        return self.reader.ignored

    @property
    def bytes_received(self) -> int:
        """The payloads received on other peers' topics, in bytes."""
        return self.reader.bytes_received

    async def open(self, inbox: asyncio.Queue[object]) -> None:
        """Connect, subscribe, and start reading into ``inbox``."""
        self.reader.inbox = inbox
        await self.transport.connect()
        self._epoch = self.transport.epoch
        await self.transport.subscribe(topics.table_peers_pattern(self.table))
        await self.transport.subscribe(topics.table_answers_pattern(self.table, self.peer))
        await self.transport.subscribe(topics.table_presence_pattern(self.table))
        if self._watch_lobby:
            await self.transport.subscribe(topics.lobby_topic(self.table))
        self._tasks = [asyncio.create_task(self.reader.read()), asyncio.create_task(self._tick())]

    def restrict(self, peers: frozenset[str]) -> None:
        """From now on take frames only from ``peers`` (the seated table)."""
        self.reader.admit(peers)
        self.endpoint.admit(peers)

    async def send(self, body: Body) -> None:
        """Publish ``body`` as this peer's next stream message."""
        async with self._send_lock:
            frame = self.endpoint.send(body.encode(), self._loop_time())
            await self._publish(frame)

    async def publish_retained(self, topic: str, payload: bytes) -> None:
        """Publish a retained message (the lobby announcement)."""
        await self.transport.publish(topic, payload, retain=True)

    def _seal(self, frame: bytes) -> bytes:
        """Sign ``frame`` for publication at this table (once per frame: see above)."""
        return seal_frame(self.identity, self.pubkey, self.table, frame)

    @staticmethod
    def _loop_time() -> float:
        return asyncio.get_running_loop().time()

    async def close(self, *, drain: float = DRAIN_S) -> None:
        """Stay while a seated peer still heard from has not reached our last frame
        (at most ``drain`` seconds, see :meth:`drain`), then stop the tasks and close
        the transport cleanly (no will fires)."""
        with contextlib.suppress(TransportError, OSError):
            await self.drain(drain)
        await stop_tasks(self._tasks)
        with contextlib.suppress(TransportError, OSError):
            await self.transport.close()

    async def drain(self, limit: float = DRAIN_S) -> None:
        """Keep answering resends until every seated peer still heard from has echoed
        our last frame (protocol/SPEC.md, "The broker and strangers").

        A seat the broker kept behind (a split view) may still need our frames when we
        are done: were we to go, it could never catch up, and would end the match on
        another result than ours. A peer is waited for while it is heard (a frame within
        four heartbeats, no "gone" since) and its echo of our stream moves on (within
        :data:`DRAIN_STILL_S`), never longer than ``limit`` in all: a seat the broker
        censors, or one that left, costs nothing or little. Meanwhile a STATUS echoes
        each position newly delivered at once, so that the others, draining as well,
        need not wait for our next heartbeat."""
        task = asyncio.current_task()
        if (not self._tasks or self._tasks[-1].done() or self.endpoint.high_water == 0
                or (task is not None and task.cancelling())):
            return  # nothing said, the link down, or the session cancelled: go at once
        start = self._loop_time()
        moved: dict[str, tuple[int, float]] = {}
        while True:
            now = self._loop_time()
            if self.endpoint.echo_due():  # the others wait for our echo as we for theirs
                async with self._send_lock:
                    await self._publish(self.endpoint.status(now))
            if not self._behind(now, moved) or now >= start + limit:
                return
            self._news.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(self._heartbeat, DRAIN_POLL_S)):
                    await self._news.wait()
            if self._tasks[-1].done():
                return

    def _behind(self, now: float, moved: dict[str, tuple[int, float]]) -> list[str]:
        """The seated peers to wait for at :meth:`drain` (``moved``: when each one's
        echo of our stream last moved on)."""
        last, quiet = self.endpoint.high_water, 4 * self._heartbeat + 0.5
        reader, waiting = self.reader, []
        for peer in sorted(reader.allowed or ()):
            reached = self.endpoint.reached.get(peer, 0)
            if peer == self.peer or reached >= last or peer in reader.gone:
                continue
            if now - reader.heard_at.get(peer, -quiet) > quiet:
                continue
            before = moved.get(peer)
            if before is None or before[0] != reached:
                moved[peer] = before = (reached, now)
            if now - before[1] < DRAIN_STILL_S:
                waiting.append(peer)
        return waiting

    # --- resends and heartbeats ------------------------------------------------------

    async def _tick(self) -> None:
        while True:
            now = self._loop_time()
            due = self.endpoint.timer()
            await asyncio.sleep(0.25 if due is None else min(0.25, max(0.01, due - now)))
            self.endpoint.handle_timer(self._loop_time())
            for fault in self.endpoint.faults():
                self.reader.fault(fault)
            if self.transport.epoch != self._epoch:  # reconnected: a new socket
                self._epoch = self.transport.epoch
            try:
                await self._flush_control()
            except TransportError as err:
                self.reader.put(LinkDown(str(err)))
                return

    async def _flush_control(self) -> None:
        for frame in self.endpoint.frames_to_send():
            await self._publish(frame)
        for asker, frame in self.endpoint.answers_to_send():
            self.bytes_sent += len(frame)
            await self.transport.publish(topics.answer_topic(self.table, self.peer, asker),
                                         frame)
        while self.reader.forks:
            sender, sealed = self.reader.forks.pop(0)
            self.bytes_sent += len(sealed)
            await self.transport.publish(topics.peer_topic(self.table, sender), sealed)

    async def _publish(self, payload: bytes) -> None:
        """Publish a frame the stream handed out, sealed already."""
        self.bytes_sent += len(payload)
        await self.transport.publish(topics.peer_topic(self.table, self.peer), payload)

