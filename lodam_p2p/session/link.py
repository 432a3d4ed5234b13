"""One peer's connection at a table: signed frames over reliable per-sender streams.

A :class:`Link` owns a transport (MQTT or in-memory), a
:class:`~lodam_p2p.transport.stream.StreamEndpoint` and the peer's identity key. It
subscribes to every peer topic and every presence of the table (and, for a joiner, the
table's lobby announcement), and puts what it learns into the session's inbox queue:

- :class:`Delivered` — a session body from a peer, in that peer's order, exactly once,
  from a frame whose signature checked (see :mod:`.wire`);
- :class:`PresenceSeen` — a peer came or went (Last Wills included, stale ones not);
- :class:`LobbySeen` — the table's retained announcement;
- :class:`HeardFrom` — a signed frame of a peer whose will (or "gone") came before it:
  a will is a hint, and a frame the peer signed is better news than the broker's word;
- :class:`StreamFaultSeen` — what a stream's hash chain showed (:mod:`..transport.chain`):
  a peer's fork (evidence against it, whose two frames the link also publishes again
  on the forker's topic so that every seat finds it) or a broker fault, also kept in
  :attr:`Link.broker_faults`;
- :class:`LinkDown` — the transport gave up.

Anything that fails a check — wrong size, a key that is not the topic's peer, a bad
signature, a broken frame — is dropped with its reason logged and counted in
:attr:`Link.ignored`. Resend requests and heartbeats run on a ticker task.

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
import logging
from collections.abc import Callable
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.session.wire import (
    BadMessage,
    Body,
    Msg,
    open_frame,
    peer_name,
    raw_public,
    seal_frame,
)
from lodam_p2p.transport import PresenceSpec, Transport, TransportError, topics
from lodam_p2p.transport.chain import MAX_FAULTS, StreamFault
from lodam_p2p.transport.frames import Frame, FrameError, FrameKind, digest
from lodam_p2p.transport.lobby import BadAnnouncement, TableAnnouncement
from lodam_p2p.transport.presence import BadPresence, Presence, PresenceTracker, check_signed
from lodam_p2p.transport.stream import StreamEndpoint
from lodam_p2p.transport.tasks import stop_tasks

log = logging.getLogger("lodam_p2p.session")

#: Makes the transport of one peer (MQTT or in-memory) for its presence.
Connector = Callable[[PresenceSpec], Transport]
#: What a peer may say before the seated table is admitted: the lobby's messages, what
#: the lot needs from a seat that heard START before this one, and the match's end.
LOBBY_KINDS = frozenset({Msg.JOIN, Msg.LEAVE, Msg.SEATS, Msg.START, Msg.LOT_COMMIT,
                         Msg.LOT_REVEAL, Msg.TIMEOUT, Msg.RESULT, Msg.BYE})
#: The largest body taken before admission (a START of ten seats is about 3 KB).
MAX_LOBBY_BODY = 16 * 1024
#: At close, the longest a link stays to answer a seat that has not reached its last
#: frame (see :meth:`Link.close`), and how long such a seat may stand still meanwhile.
DRAIN_S, DRAIN_STILL_S = 30.0, 10.0
#: How often a draining link looks again (and echoes what it newly delivered), at
#: least: a frame that comes makes it look at once.
DRAIN_POLL_S = 0.05


@dataclass(frozen=True, slots=True)
class Delivered:
    """A session body from ``sender`` (whose raw public key is ``pubkey``)."""

    sender: str
    pubkey: bytes
    body: bytes


@dataclass(frozen=True, slots=True)
class PresenceSeen:
    """``peer`` came online or went away."""

    peer: str
    online: bool


@dataclass(frozen=True, slots=True)
class OwnWillSeen:
    """The broker published this peer's Last Will (an older connection of this process
    died): the others believe it gone."""


@dataclass(frozen=True, slots=True)
class HeardFrom:
    """A signed frame of ``peer`` came after its will: it is still there."""

    peer: str


@dataclass(frozen=True, slots=True)
class StreamFaultSeen:
    """The stream's chain showed ``fault`` (:class:`~lodam_p2p.transport.chain.StreamFault`)."""

    fault: StreamFault


@dataclass(frozen=True, slots=True)
class LobbySeen:
    """The table's retained announcement (None: withdrawn)."""

    announcement: TableAnnouncement | None


@dataclass(frozen=True, slots=True)
class LinkDown:
    """The transport closed for good."""

    reason: str


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
        self.presence = PresenceTracker()
        #: the broker faults the streams showed, one line each (a result's broker_faults)
        self.broker_faults: list[str] = []
        #: peers whose will (or "gone") came and no signed frame of theirs since
        self._gone: set[str] = set()
        self.ignored = 0
        self.bytes_sent = 0
        self.bytes_received = 0  #: payloads received on other peers' topics
        self._watch_lobby = watch_lobby
        self._allowed: frozenset[str] | None = None
        #: strangers whose messages outside the lobby were dropped (logged once each)
        self._gated: set[str] = set()
        self._inbox: asyncio.Queue[object] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._send_lock = asyncio.Lock()
        self._epoch = 0
        self._heartbeat = heartbeat
        #: when a signed frame of each peer last came (the drain at close asks it)
        self._heard_at: dict[str, float] = {}
        #: a forking peer's frames to publish again on its topic, and those published
        self._forks: list[tuple[str, bytes]] = []
        self._forwarded: set[bytes] = set()
        #: set when a signed frame comes (a draining link looks again at once)
        self._news = asyncio.Event()

    async def open(self, inbox: asyncio.Queue[object]) -> None:
        """Connect, subscribe, and start reading into ``inbox``."""
        self._inbox = inbox
        await self.transport.connect()
        self._epoch = self.transport.epoch
        await self.transport.subscribe(topics.table_peers_pattern(self.table))
        await self.transport.subscribe(topics.table_presence_pattern(self.table))
        if self._watch_lobby:
            await self.transport.subscribe(topics.lobby_topic(self.table))
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._tick())]

    def restrict(self, peers: frozenset[str]) -> None:
        """From now on take frames only from ``peers`` (the seated table)."""
        self._allowed = peers
        self.endpoint.admit(peers)
        self._gated.clear()

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
        waiting = []
        for peer in sorted(self._allowed or ()):
            reached = self.endpoint.reached.get(peer, 0)
            if peer == self.peer or reached >= last or peer in self._gone:
                continue
            if now - self._heard_at.get(peer, -quiet) > quiet:
                continue
            before = moved.get(peer)
            if before is None or before[0] != reached:
                moved[peer] = before = (reached, now)
            if now - before[1] < DRAIN_STILL_S:
                waiting.append(peer)
        return waiting

    # --- reading --------------------------------------------------------------------

    async def _read(self) -> None:
        try:
            async for message in self.transport.messages():
                await self._take(message.topic, message.payload)
        except TransportError as err:
            self._put(LinkDown(str(err)))
            return
        self._put(LinkDown("the transport closed"))

    async def _take(self, topic: str, payload: bytes) -> None:
        try:
            parsed = topics.parse_topic(topic)
        except topics.BadName as err:
            self._ignore("?", str(err))
            return
        if parsed.kind is topics.TopicKind.PEER and parsed.peer is not None:
            await self._take_frame(parsed.peer, payload)
        elif parsed.kind is topics.TopicKind.PRESENCE and parsed.peer is not None:
            self._take_presence(parsed.peer, payload)
        elif parsed.kind is topics.TopicKind.LOBBY:
            self._take_lobby(payload)

    async def _take_frame(self, peer: str, payload: bytes) -> None:
        if peer == self.peer:
            return
        self.bytes_received += len(payload)
        if self._allowed is not None and peer not in self._allowed:
            self._ignore(peer, "not seated at this table")
            return
        try:
            pubkey, frame = open_frame(payload, self.table, peer)
            self.endpoint.receive(peer, frame, self._loop_time(), payload)
        except (BadMessage, FrameError) as err:
            self._ignore(peer, str(err))
            return
        self._heard_at[peer] = self._loop_time()
        self._news.set()
        if peer in self._gone:
            self._gone.discard(peer)
            self._put(HeardFrom(peer))
        for fault in self.endpoint.faults():
            self._fault(fault)
        for delivery in self.endpoint.deliveries():
            if self._allowed is not None or self.endpoint.epoch > 0 or self._lobby_body(
                    delivery.sender, delivery.body):
                self._put(Delivered(delivery.sender, pubkey, delivery.body))
        await self._flush_control()

    def _lobby_body(self, peer: str, body: bytes) -> bool:
        """Whether a stranger's ``body`` belongs in the lobby (:data:`LOBBY_KINDS`, at
        most :data:`MAX_LOBBY_BODY` bytes); the first one that does not is logged."""
        try:
            kind = Body.decode(body).kind if len(body) <= MAX_LOBBY_BODY else None
        except BadMessage:
            kind = None
        if kind in LOBBY_KINDS:
            return True
        self.ignored += 1
        if peer not in self._gated and len(self._gated) < 4 * self.endpoint.limits.strangers:
            # the first key a warning, the rest INFO: a crowd of keys would fill the log
            level = logging.INFO if self._gated else logging.WARNING
            self._gated.add(peer)
            log.log(level, "table %s: %s sends what has no place in the lobby (%s, %d bytes): "
                    "dropping such messages from it until the start", self.table, peer,
                    "unreadable" if kind is None else kind.name, len(body))
        return False

    def _take_presence(self, peer: str, payload: bytes) -> None:
        try:
            presence = Presence.decode(payload)
            check_signed(presence, self.table, peer, peer_name)
        except BadPresence as err:
            self._ignore("presence", str(err))
            return
        if presence.peer == self.peer:  # a will of an earlier process is no news here
            if (not presence.online and presence.nonce != self.transport.nonce
                    and presence.epoch == self.endpoint.epoch):
                self._put(OwnWillSeen())
            return
        change = self.presence.observe(presence)
        if change is not None and change.peer != self.peer:
            if change.online:
                self._gone.discard(change.peer)
            else:
                self._gone.add(change.peer)
            self._put(PresenceSeen(change.peer, change.online))

    def _take_lobby(self, payload: bytes) -> None:
        if not payload:
            self._put(LobbySeen(None))
            return
        try:
            announcement = TableAnnouncement.decode(payload, topic_table=self.table)
        except BadAnnouncement as err:
            self._ignore("lobby", str(err))
            return
        self.endpoint.expect(announcement.host)  # the host is heard whatever the crowd
        self._put(LobbySeen(announcement))

    def _fault(self, fault: StreamFault) -> None:
        """Keep a broker fault's line, log it, and tell the session."""
        if fault.broker and len(self.broker_faults) < MAX_FAULTS:
            self.broker_faults.append(fault.line())
        log.warning("table %s: %s %s", self.table,
                    "the broker:" if fault.broker else "a peer forked its stream:",
                    fault.line())
        if not fault.broker:
            self._forward_fork(fault)
        self._put(StreamFaultSeen(fault))

    def _forward_fork(self, fault: StreamFault) -> None:
        """Publish a seated peer's fork again on its own topic, both frames as it signed
        them: every seat then holds two signed frames at one position (or a broken
        chain) of its stream, finds the fork itself and convicts on its own. The claim
        (VOID) need not carry them: a frame may be larger than a claim's evidence can be
        (protocol/SPEC.md, "The broker and strangers"). Each frame once, a bounded
        number in all."""
        if self._allowed is None or fault.sender not in self._allowed:
            return
        for sealed in fault.evidence:
            key = digest(sealed)
            if key not in self._forwarded and len(self._forwarded) < 2 * MAX_FAULTS:
                self._forwarded.add(key)
                self._forks.append((fault.sender, sealed))

    def _ignore(self, sender: str, reason: str) -> None:
        self.ignored += 1
        log.info("ignoring a message from %s at table %s: %s", sender, self.table, reason)

    def _put(self, item: object) -> None:
        if self._inbox is not None:
            self._inbox.put_nowait(item)

    # --- resends and heartbeats ------------------------------------------------------

    async def _tick(self) -> None:
        while True:
            now = self._loop_time()
            due = self.endpoint.timer()
            await asyncio.sleep(0.25 if due is None else min(0.25, max(0.01, due - now)))
            self.endpoint.handle_timer(self._loop_time())
            for fault in self.endpoint.faults():
                self._fault(fault)
            if self.transport.epoch != self._epoch:  # reconnected: a new socket
                self._epoch = self.transport.epoch
            try:
                await self._flush_control()
            except TransportError as err:
                self._put(LinkDown(str(err)))
                return

    async def _flush_control(self) -> None:
        for frame in self.endpoint.frames_to_send():
            await self._publish(frame)
        while self._forks:
            sender, sealed = self._forks.pop(0)
            self.bytes_sent += len(sealed)
            await self.transport.publish(topics.peer_topic(self.table, sender), sealed)

    async def _publish(self, payload: bytes) -> None:
        """Publish a frame the stream handed out, sealed already."""
        self.bytes_sent += len(payload)
        await self.transport.publish(topics.peer_topic(self.table, self.peer), payload)



def proves_fork(evidence: tuple[bytes, ...], table: str, peer: str) -> bool:
    """Whether ``evidence`` holds two publications of ``peer`` at ``table``, signed by
    it, that fork its stream: two different DATA frames at one position, or a frame
    whose ``prev`` is not the digest of the frame before it (protocol/SPEC.md, "The
    broker and strangers"). Anybody can check it: nothing but the key is trusted."""
    frames: list[tuple[Frame, bytes]] = []
    for sealed in evidence[:2]:
        try:
            _, data = open_frame(sealed, table, peer)
            frame = Frame.decode(data)
        except (BadMessage, FrameError):
            return False
        if frame.kind != FrameKind.DATA or frame.sender != peer:
            return False
        frames.append((frame, data))
    if len(frames) != 2:
        return False
    (one, one_data), (other, other_data) = sorted(frames, key=lambda f: f[0].seq)
    if one.seq == other.seq:
        return one_data != other_data
    return other.seq == one.seq + 1 and other.prev != digest(one_data)
