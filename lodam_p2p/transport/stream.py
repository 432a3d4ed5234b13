"""Reliable per-sender streams over an at-least-once, sometimes lossy transport.

Theory of operation
-------------------
MQTT at QoS 1 delivers each publisher's messages in order, but across a reconnect a
message may arrive twice or not at all, and a test network may do worse. Each peer
therefore numbers what it says (DATA frames 1, 2, 3 … — see :mod:`.frames`) and every
receiver keeps, per sender, the next number it expects:

- a number below it, or one already buffered, is a duplicate and is dropped;
- the expected number is delivered, followed by whatever buffered frames now continue
  the run;
- a higher number is buffered (at most ``max_ahead`` beyond the expected one — the rest
  is dropped and will be asked for again) and opens a *gap*.

A receiver also learns a sender's high-water mark from every frame it sees (a DATA's own
number; the ``seq`` of STATUS heartbeats and RESEND requests), so a lost *last* message
is noticed at the sender's next heartbeat. While a gap is open the receiver publishes a
RESEND naming the missing ranges, then again every ``retry_interval`` — or at once when
everything it asked for has arrived and more is still missing. The sender answers from
a bounded outbox (its last ``history`` frames, at most ``max_resend`` per request);
requests for frames it has forgotten go unanswered, and the session's own timeouts
decide what that means. Everybody subscribes to every peer's topic, so everybody sees
the resent frames; they are duplicates for those who had them.

Epochs. A peer that comes back after a crash has lost its outbox and the number it had
reached. It opens a new *epoch* of its stream instead: epoch ``e`` numbers its frames
from ``e · 2**40 + 1`` on (:data:`EPOCH_SPAN`). A receiver that sees a frame of a later
epoch from a sender forgets that sender's old stream (its gap will never be filled) and
follows the new one; frames of an earlier epoch are dropped. Frames are signed with the
sender's identity key before they reach this layer, and the sender's name is derived from
that key, so only the same identity can open a new epoch of its own stream. A restarted
peer also starts *late*: it follows each other sender from the first frame it sees of
it rather than from frame 1 (``late_join``), since what was said before its crash
is history it cannot use.

Limits (:class:`StreamLimits`, protocol/SPEC.md "Limits"). Nothing a peer sends makes
an endpoint hold or send more than a fixed amount for it:

- each followed sender's early frames are capped in count and bytes (a *stranger* — a
  sender not yet admitted by :meth:`StreamEndpoint.admit` at an endpoint opened with
  ``lobby=True`` — much lower), and at most ``strangers`` strangers are followed at once
  (a new one makes the least recently heard forgotten: a crowd of keys costs a bounded
  amount and never shuts the lobby to a newcomer); a frame over a cap is dropped (it will
  be asked for again) and the cap is logged once;
- each requester's RESEND answers draw on two token buckets, bytes and requests, refilled
  with the time passed in; what is over is dropped, logged once per requester until it
  has been quiet long enough to fill its buckets again;
- a resend publishes the frame kept when it was first sent — sealed (signed) then, by
  the ``seal`` given to the endpoint — and never signs anything again, so that a request
  costs the sender a lookup, not a signature per frame.

Hash chain (protocol/SPEC.md, "The broker and strangers"). Each DATA frame names the
digest of the one before it (``prev``), and every DATA and STATUS frame echoes the
positions its sender has reached of each other stream followed (``heads``). The
receiver keeps the last positions of each stream (:mod:`.chain`) and reports what they
show — a signer's fork (two frames at one position: evidence against it), a split view,
a replay nobody asked for, a frame withheld from it alone — as :class:`StreamFault`
records (:meth:`StreamEndpoint.faults`). An echo of a position not yet received also
raises that sender's high-water mark, so a frame the broker kept from this receiver
alone is asked for at once.

The endpoint is sans-IO in the aioquic manner: it never reads a clock (``now`` is passed
in), never touches the network, and hands back frames to publish
(:meth:`StreamEndpoint.frames_to_send`), messages to deliver
(:meth:`StreamEndpoint.deliveries`), and the time it next wants
:meth:`StreamEndpoint.handle_timer` called (:meth:`StreamEndpoint.timer`). A peer that
restarts its numbering is a new stream: give it a new peer name.
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from lodam_p2p.transport.chain import (
    MAX_FAULTS,
    REPLAY_SLACK,
    WITHHELD_ASKS,
    AskedRanges,
    Positions,
    StreamFault,
)
from lodam_p2p.transport.frames import (
    HEAD_PREFIX,
    MAX_HEADS,
    MAX_RANGES,
    Frame,
    FrameError,
    FrameKind,
    Head,
    ResendRequest,
    digest,
)
from lodam_p2p.transport.topics import check_name

#: Frame numbers per stream epoch: epoch ``e`` numbers from ``e * EPOCH_SPAN + 1``.
EPOCH_SPAN = 2**40
#: Highest epoch a stream may open (numbers stay below 2**63).
MAX_EPOCH = 2**22 - 1
KIB, MIB = 2**10, 2**20

log = logging.getLogger("lodam_p2p.transport")

#: Signs an encoded frame for publication (the identity seal of the session's link).
Seal = Callable[[bytes], bytes]


def _unsealed(frame: bytes) -> bytes:
    return frame


@dataclass(frozen=True, slots=True)
class StreamLimits:
    """What one peer can make an endpoint hold or send (see the module docstring; the
    attack each figure stops is in protocol/SPEC.md, "Limits")."""

    #: early frames kept per followed sender: how many, and their bytes
    early_frames: int = 1024
    early_bytes: int = 4 * MIB
    #: the same for a stranger (a sender not yet admitted, at a ``lobby`` endpoint)
    stranger_frames: int = 16
    stranger_bytes: int = 64 * KIB
    #: strangers followed at once; a new one makes the least recently heard forgotten
    strangers: int = 64
    #: resend answers per requester: a burst of bytes, refilled at a rate (bytes/s)
    resend_burst: int = 256 * KIB
    resend_rate: float = 64 * KIB
    #: resend requests answered per requester: a burst, refilled at a rate (per second)
    request_burst: int = 20
    request_rate: float = 10.0
    #: bytes of our own frames kept for resending (beside ``history``, a count)
    outbox_bytes: int = 16 * MIB


@dataclass(slots=True)
class TokenBucket:
    """Tokens refilled at ``rate`` per second up to ``burst``; time is passed in."""

    burst: float
    rate: float
    level: float = -1.0
    at: float | None = None

    def fill(self, now: float) -> None:
        """Add what the time since the last look has earned."""
        if self.at is None:
            self.level, self.at = self.burst, now
        elif now > self.at:
            self.level = min(self.burst, self.level + (now - self.at) * self.rate)
            self.at = now

    def take(self, amount: float, now: float) -> bool:
        """Spend ``amount`` if it is there (True), else spend nothing (False)."""
        self.fill(now)
        if self.level < amount:
            return False
        self.level -= amount
        return True

    @property
    def full(self) -> bool:
        """Nothing spent since the bucket last filled up."""
        return self.level >= self.burst


@dataclass(slots=True)
class ResendBudget:
    """One requester's resend buckets, and whether it is over them (an *episode*)."""

    bytes: TokenBucket
    requests: TokenBucket
    over: bool = False
    dropped: int = 0

    @classmethod
    def of(cls, limits: StreamLimits) -> ResendBudget:
        """A full budget by ``limits``."""
        return cls(TokenBucket(limits.resend_burst, limits.resend_rate),
                   TokenBucket(limits.request_burst, limits.request_rate))

    def begin(self, now: float) -> None:
        """A request comes: a requester quiet long enough to fill both buckets again
        ends its episode (the next drop is logged again)."""
        self.bytes.fill(now)
        self.requests.fill(now)
        if self.over and self.bytes.full and self.requests.full:
            self.over = False


def epoch_of(seq: int) -> int:
    """The stream epoch a frame number (or high-water mark) belongs to."""
    return seq // EPOCH_SPAN


@dataclass(frozen=True, slots=True)
class Delivery:
    """A payload delivered in order, exactly once: number ``seq`` from ``sender``."""

    sender: str
    seq: int
    body: bytes


class Outbox:
    """The frames we sent, sealed: numbers them and keeps the last ``history`` of them
    (and at most ``max_bytes`` of them) as they were published."""

    def __init__(self, me: str, history: int, epoch: int = 0, *, seal: Seal = _unsealed,
                 max_bytes: int = 16 * MIB) -> None:
        self.me = me
        self.high_water = epoch * EPOCH_SPAN
        self._history, self._max_bytes = history, max_bytes
        self._seal = seal
        self._kept: deque[bytes] = deque()  #: frames high_water - len + 1 … high_water
        self.bytes_kept = 0
        #: the digests of our last frames (what the others echo of our stream)
        self.positions = Positions()
        self._prev = b""

    def append(self, body: bytes, heads: tuple[Head, ...] = ()) -> bytes:
        """Number ``body`` as our next DATA frame (chained to the one before, echoing
        ``heads``); return the sealed frame to publish."""
        self.high_water += 1
        frame = Frame(FrameKind.DATA, self.me, self.high_water, body, self._prev,
                      heads).encode()
        self._prev = digest(frame)
        data = self._seal(frame)
        self.positions.put(self.high_water, self._prev, data)
        self._kept.append(data)
        self.bytes_kept += len(data)
        while len(self._kept) > self._history or (
                self.bytes_kept > self._max_bytes and len(self._kept) > 1):
            self.bytes_kept -= len(self._kept.popleft())
        return data

    def resend(self, ranges: tuple[tuple[int, int], ...], limit: int) -> list[bytes]:
        """The kept frames within ``ranges``, in order, each once, at most ``limit``."""
        first = self.high_water - len(self._kept) + 1
        wanted: list[bytes] = []
        upto = first - 1  # the last number taken
        for low, high in sorted(ranges):
            for seq in range(max(low, upto + 1), min(high, self.high_water) + 1):
                if len(wanted) == limit:
                    return wanted
                wanted.append(self._kept[seq - first])
                upto = seq
        return wanted


@dataclass(slots=True)
class Inbox:
    """What we know of one sender's stream."""

    sender: str
    next_seq: int = 1
    high_water: int = 0
    #: early frames: number → (body, prev, digest, sealed frame)
    early: dict[int, tuple[bytes, bytes, bytes, bytes]] = field(default_factory=dict)
    asked_at: float | None = None
    asked_upto: int = 0
    epoch: int = 0
    #: caps on the early frames kept: count and bytes
    cap_frames: int = 1024
    cap_bytes: int = 4 * MIB
    early_bytes: int = 0
    #: a frame was dropped over a cap since the buffer was last empty (logged once)
    capped: bool = False
    #: the level that is logged at
    cap_log: int = logging.WARNING
    #: this sender's requests of us: what answering them may still cost
    budget: ResendBudget | None = None
    #: the chain: the last positions delivered, what anyone asked this sender again,
    #: the farthest position another seat echoed (and its echo), our asks since then
    positions: Positions = field(default_factory=Positions)
    asked: AskedRanges = field(default_factory=AskedRanges)
    echoed: int = 0
    echo: tuple[str, bytes] = ("", b"")
    withheld_asks: int = 0
    #: what the chain showed, for the endpoint to collect; positions reported
    found: list[StreamFault] = field(default_factory=list)
    reported: set[tuple[str, int]] = field(default_factory=set)

    def follow(self, seq: int) -> bool:
        """Whether a frame numbered ``seq`` belongs to the stream followed (a later epoch
        replaces it; an earlier one is dead and its frames are dropped)."""
        epoch = epoch_of(seq)
        if epoch < self.epoch:
            return False
        if epoch > self.epoch:
            self.epoch, self.next_seq = epoch, epoch * EPOCH_SPAN + 1
            self.high_water, self.early, self.early_bytes = epoch * EPOCH_SPAN, {}, 0
            self.asked_at, self.asked_upto = None, 0
            self.positions.clear()
            self.echoed, self.withheld_asks = 0, 0
        return True

    def accept(self, seq: int, body: bytes, max_ahead: int, *, prev: bytes = b"",
               frame_digest: bytes = b"", sealed: bytes = b"") -> list[Delivery]:
        """Take DATA frame ``seq`` (naming ``prev``, of digest ``frame_digest``, published
        as ``sealed``); return what it lets us deliver, in order."""
        if not self.follow(seq):
            return []
        self.note_high_water(seq)
        if seq < self.next_seq:
            self._again(seq, frame_digest, sealed)
            return []
        if seq in self.early:
            held = self.early[seq]
            if held[2] != frame_digest:
                self._fork(seq, held[3], sealed, "two signed frames at one position")
            return []
        if seq >= self.next_seq + max_ahead:
            return []
        entry = (body, prev, frame_digest, sealed)
        if seq == self.next_seq:
            delivered = [self._deliver(entry)]
        elif self._room_for(body):
            self.early[seq] = entry
            self.early_bytes += len(body)
            return []
        else:
            return []
        while self.next_seq in self.early:
            kept = self.early.pop(self.next_seq)
            self.early_bytes -= len(kept[0])
            delivered.append(self._deliver(kept))
        if not self.early:
            self.capped = False
        return delivered

    def _deliver(self, entry: tuple[bytes, bytes, bytes, bytes]) -> Delivery:
        """Deliver the next frame, checking that it chains to the one before."""
        body, prev, frame_digest, sealed = entry
        seq = self.next_seq
        before = self.positions.get(seq - 1)
        if before is not None and before[0] != prev:
            self._fork(seq, before[1], sealed, f"its frame #{seq} does not chain to #{seq - 1}")
        self.positions.put(seq, frame_digest, sealed)
        self.next_seq += 1
        self.withheld_asks = 0
        return Delivery(self.sender, seq, body)

    def _again(self, seq: int, frame_digest: bytes, sealed: bytes) -> None:
        """A frame at a position already delivered: a fork if it differs, a replay if
        it is old and nobody asked for it again, else at-least-once delivery."""
        kept = self.positions.get(seq)
        if kept is not None and kept[0] != frame_digest:
            self._fork(seq, kept[1], sealed, "two signed frames at one position")
        elif seq < self.next_seq - REPLAY_SLACK and not self.asked.covers(seq):
            self.report(StreamFault("replay", self.sender, seq,
                                    f"frame #{seq} came again at #{self.next_seq - 1}, "
                                    "asked by nobody", (sealed,)))

    def _fork(self, seq: int, one: bytes, other: bytes, why: str) -> None:
        self.report(StreamFault("equivocation", self.sender, seq, why, (one, other)))

    def report(self, fault: StreamFault) -> None:
        """Note ``fault`` once per kind and position (a bounded number of them)."""
        key = (fault.kind, fault.seq)
        if key in self.reported or len(self.reported) >= 4 * MAX_FAULTS:
            return
        self.reported.add(key)
        self.found.append(fault)

    def _room_for(self, body: bytes) -> bool:
        """Whether an early frame of ``body`` fits under the caps (the first refusal
        since the buffer was last empty is logged)."""
        if (len(self.early) < self.cap_frames
                and self.early_bytes + len(body) <= self.cap_bytes):
            return True
        if not self.capped:
            self.capped = True
            log.log(self.cap_log, "stream: %s's early frames reached their cap (%d frames, "
                    "%d bytes): dropping more until the gap closes", self.sender,
                    self.cap_frames, self.cap_bytes)
        return False

    def set_caps(self, frames: int, size: int, *, stranger: bool = False) -> None:
        """Cap the early frames at ``frames`` and ``size`` bytes (those kept stay). A
        stranger's cap is logged at INFO only: a crowd of keys would fill the log."""
        self.cap_frames, self.cap_bytes = frames, size
        self.cap_log = logging.INFO if stranger else logging.WARNING

    def note_high_water(self, seq: int) -> None:
        """The sender has sent at least up to ``seq``."""
        self.high_water = max(self.high_water, seq)

    def missing(self) -> tuple[tuple[int, int], ...]:
        """The missing ranges below the high-water mark, at most :data:`MAX_RANGES`."""
        ranges: list[tuple[int, int]] = []
        start = self.next_seq
        for seq in sorted(self.early):
            if seq > start:
                ranges.append((start, seq - 1))
            start = seq + 1
        if start <= self.high_water:
            ranges.append((start, self.high_water))
        return tuple(ranges[:MAX_RANGES])

    def request_due(self, now: float, retry_interval: float) -> bool:
        """Whether a resend request should go out now."""
        if self.next_seq > self.high_water:
            return False
        if self.asked_at is None or self.next_seq > self.asked_upto:
            return True
        return now >= self.asked_at + retry_interval


class StreamEndpoint:
    """One peer's side of every stream at a table: its outbox and an inbox per sender.

    ``history`` bounds the outbox (frames kept for resending), ``max_ahead`` how far
    beyond the expected number a frame may be buffered, ``max_resend`` the frames sent
    in answer to one request, ``limits`` the rest (:class:`StreamLimits`).
    ``heartbeat_interval`` (None: never) is how often a STATUS goes out once we have
    sent something, so that receivers notice a lost last frame. ``seal`` signs each frame
    we publish, once (everything handed out is sealed). With ``lobby`` every sender is a
    stranger until :meth:`admit` names those to follow.
    """

    def __init__(
        self,
        me: str,
        *,
        history: int = 4096,
        max_ahead: int = 4096,
        max_resend: int = 256,
        retry_interval: float = 0.5,
        heartbeat_interval: float | None = 1.0,
        epoch: int = 0,
        late_join: bool = False,
        limits: StreamLimits | None = None,
        seal: Seal = _unsealed,
        lobby: bool = False,
    ) -> None:
        if not 0 <= epoch <= MAX_EPOCH:
            raise ValueError(f"stream epoch {epoch} out of range")
        self.me = check_name(me, "peer")
        self.epoch = epoch
        self.limits = limits or StreamLimits()
        self._late_join = late_join
        self._seal = seal
        self._outbox = Outbox(me, history, epoch, seal=seal,
                              max_bytes=self.limits.outbox_bytes)
        self._inboxes: dict[str, Inbox] = {}
        #: the senders followed (None: anyone; at a lobby endpoint, all strangers)
        self._admitted: frozenset[str] | None = None
        self._lobby = lobby
        self._expected: str | None = None
        #: the strangers followed, least recently heard first
        self._heard: OrderedDict[str, None] = OrderedDict()
        #: strangers forgotten to make room for new ones
        self.evicted = 0
        self._max_ahead = max_ahead
        self._max_resend = max_resend
        self._retry = retry_interval
        self._heartbeat = heartbeat_interval
        self._last_sent_at: float | None = None
        self._to_send: list[bytes] = []
        self._delivered: list[Delivery] = []
        self._faults: list[StreamFault] = []
        #: faults the chain showed, over the endpoint's life (at most MAX_FAULTS kept)
        self.faults_seen = 0
        #: per sender followed, the last position we echoed (a DATA frame echoes only
        #: what moved since, see :meth:`heads`)
        self._echoed: dict[str, int] = {}
        self._owners: dict[str, str | None] | None = None
        #: per peer, the farthest position of our stream it has echoed (with our digest)
        self.reached: dict[str, int] = {}

    @property
    def high_water(self) -> int:
        """The number of the last DATA frame we sent (0 if none)."""
        return self._outbox.high_water

    def send(self, body: bytes, now: float) -> bytes:
        """Frame ``body`` as our next DATA and return the (sealed) bytes to publish."""
        self._last_sent_at = now
        return self._outbox.append(body, self.heads(moved_only=True))

    def status(self, now: float) -> bytes:
        """A STATUS frame to publish now (say, after a reconnect)."""
        self._last_sent_at = now
        return self._seal(Frame(FrameKind.STATUS, self.me, self.high_water, b"", b"",
                                self.heads()).encode())

    def heads(self, *, moved_only: bool = False) -> tuple[Head, ...]:
        """What we echo: for each peer followed (no stranger), the last position
        delivered of its stream and that frame's digest.

        ``moved_only`` (our DATA frames): only the streams whose position moved since we
        last echoed them. Every position we reach is still echoed in the next frame we
        send, so a split shows within a step as before; a heartbeat (STATUS) echoes them
        all again. A frame of a five-seat table carries one or two heads instead of four,
        some 10 KB less per hand."""
        heads: list[Head] = []
        for sender, inbox in self._inboxes.items():
            last = inbox.positions.last()
            if last is None or self._stranger(sender):
                continue
            if moved_only and self._echoed.get(sender) == last[0]:
                continue
            heads.append((sender[:HEAD_PREFIX], last[0], last[1]))
            self._echoed[sender] = last[0]
            if len(heads) == MAX_HEADS:
                break
        return tuple(heads)

    def echo_due(self) -> bool:
        """Whether a followed stream moved on since we last echoed it (a STATUS would
        tell the others something new)."""
        for sender, inbox in self._inboxes.items():
            last = inbox.positions.last()
            if last is not None and not self._stranger(sender) and (
                    self._echoed.get(sender) != last[0]):
                return True
        return False

    def faults(self) -> list[StreamFault]:
        """What the chains showed since the last call (:mod:`.chain`); handed over."""
        found, self._faults = self._faults, []
        return found

    def admit(self, peers: frozenset[str]) -> None:
        """Follow ``peers`` only, with the full caps: others are forgotten and their
        frames dropped from now on."""
        self._admitted = peers
        self._owners = None
        self._heard.clear()
        for sender in [s for s in self._inboxes if s not in peers]:
            del self._inboxes[sender]
            self._echoed.pop(sender, None)
        for inbox in self._inboxes.values():
            inbox.set_caps(self.limits.early_frames, self.limits.early_bytes)

    def expect(self, sender: str) -> None:
        """Follow ``sender`` as a known peer even before :meth:`admit` (a lobby's host,
        named by its announcement): it is never refused as one stranger too many. One
        peer at a time: the one expected before is forgotten (it held more than a
        stranger may)."""
        before, self._expected = self._expected, sender
        self._owners = None
        self._heard.pop(sender, None)
        if before is not None and before != sender and self._admitted is None:
            self._inboxes.pop(before, None)
        inbox = self._inboxes.get(sender)
        if inbox is not None:
            inbox.set_caps(self.limits.early_frames, self.limits.early_bytes)

    def held_bytes(self) -> int:
        """Bytes of early frames held, over every sender (a flood's measure)."""
        return sum(inbox.early_bytes for inbox in self._inboxes.values())

    def held_frames(self) -> int:
        """Early frames held, over every sender."""
        return sum(len(inbox.early) for inbox in self._inboxes.values())

    @property
    def senders(self) -> int:
        """How many senders' streams are followed."""
        return len(self._inboxes)

    def receive(self, sender: str, data: bytes, now: float, sealed: bytes = b"") -> None:
        """Take a frame received on ``sender``'s topic; raise :class:`FrameError` if bad.

        ``sealed`` is the frame as published (signed): the evidence kept of it (default:
        ``data``). A bad frame changes nothing: the caller logs the reason and carries
        on. A frame of a sender not admitted is dropped.
        """
        frame = Frame.decode(data)
        if frame.sender != sender:
            raise FrameError(f"frame claims sender {frame.sender!r} on {sender!r}'s topic")
        if sender == self.me:
            return  # our own publications come back to us: nothing to learn
        request = ResendRequest.decode(frame.body) if frame.kind == FrameKind.RESEND else None
        inbox = self._inbox(sender, frame)
        if inbox is None:
            return
        if sender in self._heard:
            self._heard.move_to_end(sender)
        evidence = sealed or data
        if frame.kind == FrameKind.DATA:
            self._delivered.extend(inbox.accept(frame.seq, frame.body, self._max_ahead,
                                                prev=frame.prev, frame_digest=digest(data),
                                                sealed=evidence))
        elif inbox.follow(frame.seq):
            inbox.note_high_water(frame.seq)
        if request is not None:
            target = self._inboxes.get(request.target)
            if target is not None:
                target.asked.add(request.ranges)
            if request.target == self.me:
                self._answer(inbox, request, now)
        if frame.heads and not self._stranger(sender):
            self._check_heads(sender, frame.heads, evidence, now)
        self._ask_if_due(inbox, now)
        if inbox.found:
            self._collect(inbox)

    def _collect(self, inbox: Inbox) -> None:
        self.faults_seen += len(inbox.found)
        room = max(0, MAX_FAULTS - len(self._faults))
        self._faults.extend(inbox.found[:room])
        inbox.found.clear()

    def _owner(self, prefix: str) -> str | None:
        """The one followed sender whose name starts ``prefix`` (None: none, or two)."""
        if self._owners is None:
            owners: dict[str, str | None] = {}
            for sender in self._inboxes:
                key = sender[:HEAD_PREFIX]
                owners[key] = None if key in owners else sender
            self._owners = owners
        return self._owners.get(prefix)

    def _check_heads(self, echoer: str, heads: tuple[Head, ...], evidence: bytes,
                     now: float) -> None:
        """Compare what ``echoer`` says it reached with what we hold (:mod:`.chain`); a
        position we lack is asked for at once."""
        for prefix, seq, echoed in heads:
            if prefix == self.me[:HEAD_PREFIX]:
                mine = self._outbox.positions.get(seq)
                if mine is not None and mine[0] != echoed:
                    self._faults_of_split(echoer, self.me, seq, evidence, mine[1])
                elif epoch_of(seq) == self.epoch and seq <= self.high_water:
                    self.reached[echoer] = max(self.reached.get(echoer, 0), seq)
                continue
            sender = self._owner(prefix)
            inbox = None if sender in (None, echoer) else self._inboxes.get(sender or "")
            if inbox is None:
                continue
            kept = inbox.positions.get(seq)
            if kept is not None:
                if kept[0] != echoed:
                    self._faults_of_split(echoer, inbox.sender, seq, evidence, kept[1])
            elif (seq >= inbox.next_seq and epoch_of(seq) == inbox.epoch
                  and seq < inbox.next_seq + self._max_ahead and seq > inbox.echoed):
                inbox.note_high_water(seq)
                inbox.echoed, inbox.echo = seq, (echoer, evidence)
                self._ask_if_due(inbox, now)
                if inbox.found:
                    self._collect(inbox)

    def _faults_of_split(self, echoer: str, sender: str, seq: int, echo: bytes,
                         held: bytes) -> None:
        inbox = self._inboxes.get(echoer)
        if inbox is None:
            return
        inbox.report(StreamFault("split", sender, seq, f"{echoer[:8]} holds another frame "
                                 f"#{seq} of {sender[:8]} than this seat", (echo, held),
                                 by=echoer))

    def deliveries(self) -> list[Delivery]:
        """Payloads now deliverable, in each sender's order; the list is handed over."""
        delivered, self._delivered = self._delivered, []
        return delivered

    def frames_to_send(self) -> list[bytes]:
        """Frames to publish now (resend requests and answers); the list is handed over."""
        frames, self._to_send = self._to_send, []
        return frames

    def timer(self) -> float | None:
        """When :meth:`handle_timer` next has something to do (None: nothing pending)."""
        times = [
            inbox.asked_at + self._retry
            for inbox in self._inboxes.values()
            if inbox.asked_at is not None and inbox.next_seq <= inbox.high_water
        ]
        if self._heartbeat_on():
            assert self._heartbeat is not None and self._last_sent_at is not None
            times.append(self._last_sent_at + self._heartbeat)
        return min(times, default=None)

    def handle_timer(self, now: float) -> None:
        """Send the resend requests and the heartbeat that are due at ``now``."""
        for inbox in self._inboxes.values():
            self._ask_if_due(inbox, now)
        if self._heartbeat_on():
            assert self._heartbeat is not None and self._last_sent_at is not None
            if now >= self._last_sent_at + self._heartbeat:
                self._to_send.append(self.status(now))

    def _heartbeat_on(self) -> bool:
        """Heartbeats go out once we have a stream to speak of."""
        return self._heartbeat is not None and self.high_water > 0

    def _stranger(self, sender: str) -> bool:
        return (self._lobby and self._admitted is None
                and sender not in (self.me, self._expected))

    def _inbox(self, sender: str, first: Frame) -> Inbox | None:
        """The inbox of ``sender``, created on first sight (late: at ``first``); None
        when its frames are not followed."""
        inbox = self._inboxes.get(sender)
        if inbox is not None:
            return inbox
        if self._admitted is not None and sender not in self._admitted:
            return None
        if self._stranger(sender):
            self._make_room_for(sender)
        self._owners = None
        inbox = self._inboxes[sender] = Inbox(sender, epoch=epoch_of(first.seq))
        inbox.next_seq = max(inbox.next_seq, inbox.epoch * EPOCH_SPAN + 1)
        if self._stranger(sender):
            inbox.set_caps(self.limits.stranger_frames, self.limits.stranger_bytes,
                           stranger=True)
        else:
            inbox.set_caps(self.limits.early_frames, self.limits.early_bytes)
        if self._late_join:
            start = first.seq if first.kind == FrameKind.DATA else first.seq + 1
            inbox.next_seq, inbox.high_water = start, start - 1
        return inbox

    def _make_room_for(self, sender: str) -> None:
        """Follow one more stranger: at the cap, forget the one least recently heard
        (logged the first time), so that a crowd of keys never shuts a lobby to the
        next newcomer."""
        self._heard[sender] = None
        if len(self._heard) <= self.limits.strangers:
            return
        gone, _ = self._heard.popitem(last=False)
        self._inboxes.pop(gone, None)
        self._owners = None
        self.evicted += 1
        if self.evicted == 1:
            log.warning("stream: following %d unknown senders already: forgetting the one "
                        "least recently heard for each new one (first: %s)",
                        self.limits.strangers, gone)

    def _answer(self, inbox: Inbox, request: ResendRequest, now: float) -> None:
        """Publish the kept frames ``request`` asks for, as far as the requester's budget
        goes: one request token, and the bytes of each frame resent."""
        budget = inbox.budget = inbox.budget or ResendBudget.of(self.limits)
        budget.begin(now)
        if not budget.requests.take(1, now):
            self._over_budget(inbox.sender, budget, 1)
            return
        frames = self._outbox.resend(request.ranges, self._max_resend)
        for sent, data in enumerate(frames):
            if not budget.bytes.take(len(data), now):
                self._over_budget(inbox.sender, budget, len(frames) - sent)
                return
            self._to_send.append(data)

    def _over_budget(self, requester: str, budget: ResendBudget, dropped: int) -> None:
        budget.dropped += dropped
        if budget.over:
            return
        budget.over = True
        log.warning("stream: %s asks for resends beyond its budget (%d bytes, then %d/s; "
                    "%d requests, then %d/s): dropping them until it slows down", requester,
                    self.limits.resend_burst, self.limits.resend_rate,
                    self.limits.request_burst, self.limits.request_rate)

    def _ask_if_due(self, inbox: Inbox, now: float) -> None:
        """Queue a RESEND to ``inbox.sender`` if one is due."""
        if not inbox.request_due(now, self._retry):
            return
        ranges = inbox.missing()
        inbox.asked_at, inbox.asked_upto = now, ranges[-1][1]
        inbox.asked.add(ranges)
        if inbox.echoed >= inbox.next_seq:
            self._withheld(inbox)
        body = ResendRequest(inbox.sender, ranges).encode()
        self._to_send.append(
            self._seal(Frame(FrameKind.RESEND, self.me, self.high_water, body).encode()))
        self._last_sent_at = now

    def _withheld(self, inbox: Inbox) -> None:
        """One more ask for a position another seat has echoed: past
        :data:`~lodam_p2p.transport.chain.WITHHELD_ASKS` of them, it is withheld."""
        inbox.withheld_asks += 1
        if inbox.withheld_asks != WITHHELD_ASKS:
            return
        echoer, echo = inbox.echo
        inbox.report(StreamFault("withheld", inbox.sender, inbox.next_seq,
                                 f"{echoer[:8]} has reached #{inbox.echoed}; asked "
                                 f"{WITHHELD_ASKS} times, never received", (echo,),
                                 by=echoer))
        self._collect(inbox)
