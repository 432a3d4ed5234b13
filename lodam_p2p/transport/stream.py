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
decide what that means. The answers go to the one peer that asked
(:meth:`StreamEndpoint.answers_to_send`, published on its answer topic, see
:mod:`.topics`): a resent frame is the frame first published, which any receiver checks
as it checks the rest, and no other peer's reader pays for one peer's losses — or for a
peer asking again and again.

Epochs (:mod:`.streamends`). A peer that comes back after a crash opens a new *epoch*
of its stream, numbered from ``e · 2**40 + 1`` on (:data:`EPOCH_SPAN`); a receiver that
sees a later epoch of a sender forgets its old stream and follows the new one. A
restarted peer also starts *late*: it follows each other sender from the first frame it
sees of it rather than from frame 1 (``late_join``), since what was said before its
crash is history it cannot use.

Limits (:class:`StreamLimits`, :mod:`.streamlimits`, protocol/SPEC.md "Limits").
Nothing a peer sends makes an endpoint hold or send more than a fixed amount for it:
early frames are capped per sender (a stranger's much lower, and a bounded number of
strangers followed at once), each requester's resend answers draw on token buckets, and
a resend publishes the frame sealed when it was first sent, never signing again.

Hash chain (:mod:`.streamchain`, protocol/SPEC.md, "The broker and strangers"). Each
DATA frame names the digest of the one before it, and every DATA and STATUS frame
echoes the positions its sender has reached of each other stream: what they show — a
fork, a split view, a replay, a frame withheld — comes out as :class:`StreamFault`
records (:meth:`StreamEndpoint.faults`).

The endpoint is sans-IO in the aioquic manner: it never reads a clock (``now`` is passed
in), never touches the network, and hands back frames to publish
(:meth:`StreamEndpoint.frames_to_send`, and :meth:`StreamEndpoint.answers_to_send`
for one peer each), messages to deliver
(:meth:`StreamEndpoint.deliveries`), and the time it next wants
:meth:`StreamEndpoint.handle_timer` called (:meth:`StreamEndpoint.timer`). A peer that
restarts its numbering is a new stream: give it a new peer name.
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from lodam_p2p.transport.chain import StreamFault
from lodam_p2p.transport.frames import (
    Frame,
    FrameError,
    FrameKind,
    Head,
    ResendRequest,
    digest,
)
from lodam_p2p.transport.streamchain import ChainEchoes
from lodam_p2p.transport.streamends import (
    EPOCH_SPAN,
    MAX_EPOCH,
    Delivery,
    Inbox,
    Outbox,
    Seal,
    epoch_of,
    unsealed,
)
from lodam_p2p.transport.streamlimits import KIB, MIB, ResendBudget, StreamLimits, TokenBucket
from lodam_p2p.transport.topics import check_name

__all__ = [
    "EPOCH_SPAN", "KIB", "MAX_EPOCH", "MIB", "Delivery", "Inbox", "Outbox", "ResendBudget",
    "Seal", "StreamEndpoint", "StreamFault", "StreamLimits", "TokenBucket", "epoch_of",
]

log = logging.getLogger("lodam_p2p.transport")


class StreamEndpoint:
    """One peer's side of every stream at a table: its outbox and an inbox per sender.

    ``history`` bounds the outbox (frames kept for resending), ``max_ahead`` how far
    beyond the expected number a frame may be buffered, ``max_resend`` the frames sent
    in answer to one request, ``limits`` the rest (:class:`StreamLimits`).
    ``heartbeat_interval`` (None: never) is how often a STATUS goes out once we have
    sent something, so that receivers notice a lost last frame. ``seal`` signs each frame
    we publish, once (everything handed out is sealed). With ``lobby`` every sender is a
    stranger until :meth:`admit` names those to follow. What the echoes show is its
    :attr:`chain`'s (:class:`~lodam_p2p.transport.streamchain.ChainEchoes`).
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
        seal: Seal = unsealed,
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
        #: resend answers, each for the peer that asked
        self._answers: list[tuple[str, bytes]] = []
        self._delivered: list[Delivery] = []
        #: the hash chain across the table: echoes, faults, how far each peer reached
        self.chain = ChainEchoes(me, epoch, self._outbox, self._inboxes,
                                 max_ahead=max_ahead, stranger=self._stranger,
                                 ask=self._ask_if_due)

    @property
    def reached(self) -> dict[str, int]:
        """Per peer, the farthest position of our stream it has echoed (our digest)."""
        return self.chain.reached

    @property
    def faults_seen(self) -> int:
        """Faults the chain showed over the endpoint's life."""
        return self.chain.faults_seen

    def faults(self) -> list[StreamFault]:
        """What the chains showed since the last call (:mod:`.chain`); handed over."""
        return self.chain.faults()

    def heads(self, *, moved_only: bool = False) -> tuple[Head, ...]:
        """What we echo (:meth:`~lodam_p2p.transport.streamchain.ChainEchoes.heads`)."""
        return self.chain.heads(moved_only=moved_only)

    def echo_due(self) -> bool:
        """Whether a STATUS would tell the others something new."""
        return self.chain.echo_due()

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

    def admit(self, peers: frozenset[str]) -> None:
        """Follow ``peers`` only, with the full caps: others are forgotten and their
        frames dropped from now on."""
        self._admitted = peers
        self.chain.followed_changed()
        self._heard.clear()
        for sender in [s for s in self._inboxes if s not in peers]:
            del self._inboxes[sender]
            self.chain.forget(sender)
        for inbox in self._inboxes.values():
            inbox.set_caps(self.limits.early_frames, self.limits.early_bytes)

    def expect(self, sender: str) -> None:
        """Follow ``sender`` as a known peer even before :meth:`admit` (a lobby's host,
        named by its announcement): it is never refused as one stranger too many. One
        peer at a time: the one expected before is forgotten (it held more than a
        stranger may)."""
        before, self._expected = self._expected, sender
        self.chain.followed_changed()
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
            self.chain.check_heads(sender, frame.heads, evidence, now)
        self._ask_if_due(inbox, now)
        if inbox.found:
            self.chain.collect(inbox)

    def deliveries(self) -> list[Delivery]:
        """Payloads now deliverable, in each sender's order; the list is handed over."""
        delivered, self._delivered = self._delivered, []
        return delivered

    def frames_to_send(self) -> list[bytes]:
        """Frames to publish now on our own topic (resend requests, heartbeats); the
        list is handed over."""
        frames, self._to_send = self._to_send, []
        return frames

    def answers_to_send(self) -> list[tuple[str, bytes]]:
        """Resend answers to publish now, each as ``(asker, frame)`` for the answer topic
        that ``asker`` alone reads; the list is handed over."""
        answers, self._answers = self._answers, []
        return answers

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
        self.chain.followed_changed()
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
        self.chain.followed_changed()
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
            self._answers.append((inbox.sender, data))

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
            self.chain.withheld(inbox)
        body = ResendRequest(inbox.sender, ranges).encode()
        self._to_send.append(
            self._seal(Frame(FrameKind.RESEND, self.me, self.high_water, body).encode()))
        self._last_sent_at = now
