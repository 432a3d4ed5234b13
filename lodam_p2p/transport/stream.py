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

The endpoint is sans-IO in the aioquic manner: it never reads a clock (``now`` is passed
in), never touches the network, and hands back frames to publish
(:meth:`StreamEndpoint.frames_to_send`), messages to deliver
(:meth:`StreamEndpoint.deliveries`), and the time it next wants
:meth:`StreamEndpoint.handle_timer` called (:meth:`StreamEndpoint.timer`). A peer that
restarts its numbering is a new stream: give it a new peer name.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from lodam_p2p.transport.frames import (
    MAX_RANGES,
    Frame,
    FrameError,
    FrameKind,
    ResendRequest,
)
from lodam_p2p.transport.topics import check_name

#: Frame numbers per stream epoch: epoch ``e`` numbers from ``e * EPOCH_SPAN + 1``.
EPOCH_SPAN = 2**40
#: Highest epoch a stream may open (numbers stay below 2**63).
MAX_EPOCH = 2**22 - 1


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
    """The frames we sent: numbers them and remembers the last ``history`` of them."""

    def __init__(self, me: str, history: int, epoch: int = 0) -> None:
        self.me = me
        self.high_water = epoch * EPOCH_SPAN
        self._kept: deque[tuple[int, bytes]] = deque(maxlen=history)

    def append(self, body: bytes) -> bytes:
        """Number ``body`` as our next DATA frame and return the encoded frame."""
        self.high_water += 1
        data = Frame(FrameKind.DATA, self.me, self.high_water, body).encode()
        self._kept.append((self.high_water, data))
        return data

    def resend(self, ranges: tuple[tuple[int, int], ...], limit: int) -> list[bytes]:
        """The kept frames within ``ranges``, in order, at most ``limit`` of them."""
        wanted = [data for seq, data in self._kept if any(a <= seq <= b for a, b in ranges)]
        return wanted[:limit]


@dataclass(slots=True)
class Inbox:
    """What we know of one sender's stream."""

    sender: str
    next_seq: int = 1
    high_water: int = 0
    early: dict[int, bytes] = field(default_factory=dict)
    asked_at: float | None = None
    asked_upto: int = 0
    epoch: int = 0

    def follow(self, seq: int) -> bool:
        """Whether a frame numbered ``seq`` belongs to the stream followed (a later epoch
        replaces it; an earlier one is dead and its frames are dropped)."""
        epoch = epoch_of(seq)
        if epoch < self.epoch:
            return False
        if epoch > self.epoch:
            self.epoch, self.next_seq = epoch, epoch * EPOCH_SPAN + 1
            self.high_water, self.early = epoch * EPOCH_SPAN, {}
            self.asked_at, self.asked_upto = None, 0
        return True

    def accept(self, seq: int, body: bytes, max_ahead: int) -> list[Delivery]:
        """Take DATA frame ``seq``; return what it lets us deliver, in order."""
        if not self.follow(seq):
            return []
        self.note_high_water(seq)
        if seq < self.next_seq or seq in self.early or seq >= self.next_seq + max_ahead:
            return []
        self.early[seq] = body
        delivered = []
        while self.next_seq in self.early:
            delivered.append(Delivery(self.sender, self.next_seq, self.early.pop(self.next_seq)))
            self.next_seq += 1
        return delivered

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

    ``history`` bounds the outbox (frames kept for resending), ``max_ahead`` the
    per-sender buffer of early frames, ``max_resend`` the frames sent in answer to one
    request. ``heartbeat_interval`` (None: never) is how often a STATUS goes out once
    we have sent something, so that receivers notice a lost last frame.
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
    ) -> None:
        if not 0 <= epoch <= MAX_EPOCH:
            raise ValueError(f"stream epoch {epoch} out of range")
        self.me = check_name(me, "peer")
        self.epoch = epoch
        self._late_join = late_join
        self._outbox = Outbox(me, history, epoch)
        self._inboxes: dict[str, Inbox] = {}
        self._max_ahead = max_ahead
        self._max_resend = max_resend
        self._retry = retry_interval
        self._heartbeat = heartbeat_interval
        self._last_sent_at: float | None = None
        self._to_send: list[bytes] = []
        self._delivered: list[Delivery] = []

    @property
    def high_water(self) -> int:
        """The number of the last DATA frame we sent (0 if none)."""
        return self._outbox.high_water

    def send(self, body: bytes, now: float) -> bytes:
        """Frame ``body`` as our next DATA and return the bytes to publish."""
        self._last_sent_at = now
        return self._outbox.append(body)

    def status(self, now: float) -> bytes:
        """A STATUS frame to publish now (say, after a reconnect)."""
        self._last_sent_at = now
        return Frame(FrameKind.STATUS, self.me, self.high_water).encode()

    def receive(self, sender: str, data: bytes, now: float) -> None:
        """Take a frame received on ``sender``'s topic; raise :class:`FrameError` if bad.

        A bad frame changes nothing: the caller logs the reason and carries on.
        """
        frame = Frame.decode(data)
        if frame.sender != sender:
            raise FrameError(f"frame claims sender {frame.sender!r} on {sender!r}'s topic")
        if sender == self.me:
            return  # our own publications come back to us: nothing to learn
        request = ResendRequest.decode(frame.body) if frame.kind == FrameKind.RESEND else None
        inbox = self._inbox(sender, frame)
        if frame.kind == FrameKind.DATA:
            self._delivered.extend(inbox.accept(frame.seq, frame.body, self._max_ahead))
        elif inbox.follow(frame.seq):
            inbox.note_high_water(frame.seq)
        if request is not None and request.target == self.me:
            self._to_send.extend(self._outbox.resend(request.ranges, self._max_resend))
        self._ask_if_due(inbox, now)

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

    def _inbox(self, sender: str, first: Frame) -> Inbox:
        """The inbox of ``sender``, created on first sight (late: at ``first``)."""
        inbox = self._inboxes.get(sender)
        if inbox is None:
            inbox = self._inboxes[sender] = Inbox(sender, epoch=epoch_of(first.seq))
            inbox.next_seq = max(inbox.next_seq, inbox.epoch * EPOCH_SPAN + 1)
            if self._late_join:
                start = first.seq if first.kind == FrameKind.DATA else first.seq + 1
                inbox.next_seq, inbox.high_water = start, start - 1
        return inbox

    def _ask_if_due(self, inbox: Inbox, now: float) -> None:
        """Queue a RESEND to ``inbox.sender`` if one is due."""
        if not inbox.request_due(now, self._retry):
            return
        ranges = inbox.missing()
        inbox.asked_at, inbox.asked_upto = now, ranges[-1][1]
        body = ResendRequest(inbox.sender, ranges).encode()
        self._to_send.append(Frame(FrameKind.RESEND, self.me, self.high_water, body).encode())
        self._last_sent_at = now
