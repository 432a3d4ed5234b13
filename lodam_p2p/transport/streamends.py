"""The two ends of one stream: our outbox, and what we know of one sender's stream.

An :class:`Outbox` numbers what this peer says (DATA frames, chained by digest: see
:mod:`.frames`), seals each frame once and keeps the last ones for resending. An
:class:`Inbox` follows one sender: it delivers that sender's frames in order, exactly
once (:class:`Delivery`), buffers early ones under its caps, says which ranges are
missing and when to ask for them again, and notes what the sender's chain shows (a
fork, a replay nobody asked for: :mod:`.chain`). The endpoint that holds them all, and
the theory of operation, is :class:`~lodam_p2p.transport.stream.StreamEndpoint`.

Epochs. A peer that comes back after a crash has lost its outbox and the number it had
reached. It opens a new *epoch* of its stream instead: epoch ``e`` numbers its frames
from ``e · 2**40 + 1`` on (:data:`EPOCH_SPAN`). A receiver that sees a frame of a later
epoch from a sender forgets that sender's old stream (its gap will never be filled) and
follows the new one (:meth:`Inbox.follow`); frames of an earlier epoch are dropped.
Frames are signed with the sender's identity key before they reach this layer, and the
sender's name is derived from that key, so only the same identity can open a new epoch
of its own stream.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from lodam_p2p.transport.chain import (
    MAX_FAULTS,
    REPLAY_SLACK,
    AskedRanges,
    Positions,
    StreamFault,
)
from lodam_p2p.transport.frames import MAX_RANGES, Frame, FrameKind, Head, digest
from lodam_p2p.transport.streamlimits import MIB, ResendBudget

#: Frame numbers per stream epoch: epoch ``e`` numbers from ``e * EPOCH_SPAN + 1``.
EPOCH_SPAN = 2**40
#: Highest epoch a stream may open (numbers stay below 2**63).
MAX_EPOCH = 2**22 - 1

log = logging.getLogger("lodam_p2p.transport")

#: Signs an encoded frame for publication (the identity seal of the session's link).
Seal = Callable[[bytes], bytes]


def unsealed(frame: bytes) -> bytes:
    """``frame`` as it is: the seal of an endpoint that signs nothing."""
    return frame


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

    def __init__(self, me: str, history: int, epoch: int = 0, *, seal: Seal = unsealed,
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
