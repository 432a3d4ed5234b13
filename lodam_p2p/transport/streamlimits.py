"""What one peer can make a stream endpoint hold or send: the limits and their buckets.

Limits (:class:`StreamLimits`, protocol/SPEC.md "Limits"). Nothing a peer sends makes
an endpoint (:class:`~lodam_p2p.transport.stream.StreamEndpoint`) hold or send more than
a fixed amount for it:

- each followed sender's early frames are capped in count and bytes (a *stranger* — a
  sender not yet admitted by :meth:`~lodam_p2p.transport.stream.StreamEndpoint.admit`
  at an endpoint opened with ``lobby=True`` — much lower), and at most ``strangers``
  strangers are followed at once (a new one makes the least recently heard forgotten: a
  crowd of keys costs a bounded amount and never shuts the lobby to a newcomer); a
  frame over a cap is dropped (it will be asked for again) and the cap is logged once;
- each requester's RESEND answers draw on two token buckets (:class:`TokenBucket`),
  bytes and requests, refilled with the time passed in (:class:`ResendBudget`); what is
  over is dropped, logged once per requester until it has been quiet long enough to
  fill its buckets again;
- a resend publishes the frame kept when it was first sent — sealed (signed) then, by
  the ``seal`` given to the endpoint — and never signs anything again, so that a request
  costs the sender a lookup, not a signature per frame.

Sans-IO like the endpoint: time is passed in, never read.
"""

from __future__ import annotations

from dataclasses import dataclass

KIB, MIB = 2**10, 2**20


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

