"""What comes in over a link: the checks a frame passes, and what the session is told.

:class:`LinkReader` is the reading part of a :class:`~lodam_p2p.session.link.Link`,
which owns it (:attr:`Link.reader <lodam_p2p.session.link.Link.reader>`): it takes
every message of the table's topics from the link's transport and puts what it learns
into the session's inbox queue (:attr:`LinkReader.inbox`):

- :class:`Delivered` — a session body from a peer, in that peer's order, exactly once,
  from a frame whose signature checked (see :mod:`.wire`);
- :class:`PresenceSeen` — a peer came or went (Last Wills included, stale ones not);
- :class:`OwnWillSeen` — the broker published this peer's own Last Will;
- :class:`LobbySeen` — the table's retained announcement;
- :class:`HeardFrom` — a signed frame of a peer whose will (or "gone") came before it:
  a will is a hint, and a frame the peer signed is better news than the broker's word;
- :class:`StreamFaultSeen` — what a stream's hash chain showed (:mod:`..transport.chain`):
  a peer's fork (evidence against it, whose two frames the link also publishes again
  on the forker's topic so that every seat finds it, and :func:`proves_fork` checks)
  or a broker fault, also kept in :attr:`LinkReader.broker_faults`;
- :class:`LinkDown` — the transport gave up.

Anything that fails a check — wrong size, a key that is not the topic's peer, a bad
signature, a broken frame — is dropped with its reason logged and counted in
:attr:`LinkReader.ignored`. Until the machine admits the seated peers
(:meth:`LinkReader.admit`, from :meth:`~lodam_p2p.session.link.Link.restrict`), only
the lobby's messages of a stranger get through (:data:`LOBBY_KINDS`, each at most
:data:`MAX_LOBBY_BODY` bytes).

The reader keeps what it learns (the peers' presence, who is gone, when each peer was
last heard, the forks to publish again) and reaches the link only through
:class:`LinkEnds` (its table, peer name, transport and stream endpoint) and what the
link gives it: the event loop's clock, the link's publishing of what the stream has to
send, and the event it sets when a signed frame comes. The event loop, its clock and
its queues stay in :mod:`.link`, the one module of the session here that may use them.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from lodam_p2p.session.wire import BadMessage, Body, Msg, open_frame, peer_name
from lodam_p2p.transport import Transport, TransportError, topics
from lodam_p2p.transport.chain import MAX_FAULTS, StreamFault
from lodam_p2p.transport.frames import Frame, FrameError, FrameKind, digest
from lodam_p2p.transport.lobby import BadAnnouncement, TableAnnouncement
from lodam_p2p.transport.presence import BadPresence, Presence, PresenceTracker, check_signed
from lodam_p2p.transport.stream import StreamEndpoint

log = logging.getLogger("lodam_p2p.session")

#: What a peer may say before the seated table is admitted: the lobby's messages, what
#: the lot needs from a seat that heard START before this one, and the match's end.
LOBBY_KINDS = frozenset({Msg.JOIN, Msg.LEAVE, Msg.SEATS, Msg.START, Msg.LOT_COMMIT,
                         Msg.LOT_REVEAL, Msg.TIMEOUT, Msg.RESULT, Msg.BYE})
#: The largest body taken before admission (a START of ten seats is about 3 KB).
MAX_LOBBY_BODY = 16 * 1024


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


class _Inbox(Protocol):
    """Where a reader puts what it learns (the session's queue)."""

    def put_nowait(self, item: object, /) -> None: ...


class _Signal(Protocol):
    """What a reader sets when a signed frame comes (the link's event)."""

    def set(self) -> None: ...


class LinkEnds(Protocol):
    """What a reader reads of the link that owns it (the link may change its transport)."""

    @property
    def table(self) -> str: ...

    @property
    def peer(self) -> str: ...

    @property
    def transport(self) -> Transport: ...

    @property
    def endpoint(self) -> StreamEndpoint: ...


class LinkReader:
    """The reading part of ``link`` (see the module docstring). ``clock``: the event
    loop's; ``flush``: publish what the stream and the forks have to send; ``news``:
    set when a signed frame comes (a draining link looks again at once)."""

    def __init__(self, link: LinkEnds, *, clock: Callable[[], float],
                 flush: Callable[[], Awaitable[None]], news: _Signal) -> None:
        self.link = link
        self._clock, self._flush, self._news = clock, flush, news
        self.presence = PresenceTracker()
        #: the broker faults the streams showed, one line each (a result's broker_faults)
        self.broker_faults: list[str] = []
        self.ignored = 0
        self.bytes_received = 0  #: payloads received on other peers' topics
        #: where what the reader learns goes (the session's queue, once the link opens)
        self.inbox: _Inbox | None = None
        #: the seated peers (None: not admitted yet, every key is a stranger)
        self.allowed: frozenset[str] | None = None
        #: peers whose will (or "gone") came and no signed frame of theirs since
        self.gone: set[str] = set()
        #: when a signed frame of each peer last came (the drain at close asks it)
        self.heard_at: dict[str, float] = {}
        #: a forking peer's frames to publish again on its topic (the link sends them)
        self.forks: list[tuple[str, bytes]] = []
        self._forwarded: set[bytes] = set()  #: the fork frames queued once already
        #: strangers whose messages outside the lobby were dropped (logged once each)
        self._gated: set[str] = set()

    def admit(self, peers: frozenset[str]) -> None:
        """From now on take frames only from ``peers`` (the seated table)."""
        self.allowed = peers
        self._gated.clear()

    async def read(self) -> None:
        """Take every message the transport brings, until it closes (the link's task)."""
        try:
            async for message in self.link.transport.messages():
                await self.take(message.topic, message.payload)
        except TransportError as err:
            self.put(LinkDown(str(err)))
            return
        self.put(LinkDown("the transport closed"))

    async def take(self, topic: str, payload: bytes) -> None:
        """One message of the table's topics, as the transport brought it."""
        try:
            parsed = topics.parse_topic(topic)
        except topics.BadName as err:
            self._ignore("?", str(err))
            return
        if parsed.to is not None and parsed.to != self.link.peer:
            self._ignore(parsed.peer or "?", "an answer meant for another peer")
        elif parsed.kind is topics.TopicKind.PEER and parsed.peer is not None:
            await self._take_frame(parsed.peer, payload)
        elif parsed.kind is topics.TopicKind.PRESENCE and parsed.peer is not None:
            self._take_presence(parsed.peer, payload)
        elif parsed.kind is topics.TopicKind.LOBBY:
            self._take_lobby(payload)

    async def _take_frame(self, peer: str, payload: bytes) -> None:
        if peer == self.link.peer:
            return
        self.bytes_received += len(payload)
        if self.allowed is not None and peer not in self.allowed:
            self._ignore(peer, "not seated at this table")
            return
        try:
            pubkey, frame = open_frame(payload, self.link.table, peer)
            self.link.endpoint.receive(peer, frame, self._clock(), payload)
        except (BadMessage, FrameError) as err:
            self._ignore(peer, str(err))
            return
        self.heard_at[peer] = self._clock()
        self._news.set()
        if peer in self.gone:
            self.gone.discard(peer)
            self.put(HeardFrom(peer))
        for fault in self.link.endpoint.faults():
            self.fault(fault)
        for delivery in self.link.endpoint.deliveries():
            if self.allowed is not None or self.link.endpoint.epoch > 0 or self._lobby_body(
                    delivery.sender, delivery.body):
                self.put(Delivered(delivery.sender, pubkey, delivery.body))
        await self._flush()

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
        if peer not in self._gated and len(self._gated) < 4 * self.link.endpoint.limits.strangers:
            # the first key a warning, the rest INFO: a crowd of keys would fill the log
            level = logging.INFO if self._gated else logging.WARNING
            self._gated.add(peer)
            log.log(level, "table %s: %s sends what has no place in the lobby (%s, %d bytes): "
                    "dropping such messages from it until the start", self.link.table, peer,
                    "unreadable" if kind is None else kind.name, len(body))
        return False

    def _take_presence(self, peer: str, payload: bytes) -> None:
        try:
            presence = Presence.decode(payload)
            check_signed(presence, self.link.table, peer, peer_name)
        except BadPresence as err:
            self._ignore("presence", str(err))
            return
        if presence.peer == self.link.peer:  # a will of an earlier process is no news here
            if (not presence.online and presence.nonce != self.link.transport.nonce
                    and presence.epoch == self.link.endpoint.epoch):
                self.put(OwnWillSeen())
            return
        change = self.presence.observe(presence)
        if change is not None and change.peer != self.link.peer:
            if change.online:
                self.gone.discard(change.peer)
            else:
                self.gone.add(change.peer)
            self.put(PresenceSeen(change.peer, change.online))

    def _take_lobby(self, payload: bytes) -> None:
        if not payload:
            self.put(LobbySeen(None))
            return
        try:
            announcement = TableAnnouncement.decode(payload, topic_table=self.link.table)
        except BadAnnouncement as err:
            self._ignore("lobby", str(err))
            return
        self.link.endpoint.expect(announcement.host)  # the host is heard whatever the crowd
        self.put(LobbySeen(announcement))

    def fault(self, fault: StreamFault) -> None:
        """Keep a broker fault's line, log it, and tell the session."""
        if fault.broker and len(self.broker_faults) < MAX_FAULTS:
            self.broker_faults.append(fault.line())
        log.warning("table %s: %s %s", self.link.table,
                    "the broker:" if fault.broker else "a peer forked its stream:",
                    fault.line())
        if not fault.broker:
            self._forward_fork(fault)
        self.put(StreamFaultSeen(fault))

    def _forward_fork(self, fault: StreamFault) -> None:
        """Publish a seated peer's fork again on its own topic, both frames as it signed
        them: every seat then holds two signed frames at one position (or a broken
        chain) of its stream, finds the fork itself and convicts on its own. The claim
        (VOID) need not carry them: a frame may be larger than a claim's evidence can be
        (protocol/SPEC.md, "The broker and strangers"). Each frame once, a bounded
        number in all."""
        if self.allowed is None or fault.sender not in self.allowed:
            return
        for sealed in fault.evidence:
            key = digest(sealed)
            if key not in self._forwarded and len(self._forwarded) < 2 * MAX_FAULTS:
                self._forwarded.add(key)
                self.forks.append((fault.sender, sealed))

    def _ignore(self, sender: str, reason: str) -> None:
        self.ignored += 1
        log.info("ignoring a message from %s at table %s: %s", sender, self.link.table, reason)

    def put(self, item: object) -> None:
        """Tell the session ``item`` (nothing before the link opens)."""
        if self.inbox is not None:
            self.inbox.put_nowait(item)


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
