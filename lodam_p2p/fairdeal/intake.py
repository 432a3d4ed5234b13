"""Intake: from authenticated envelopes to messages in each sender's order.

Per sender it keeps the chain (wire.SenderLog: duplicates dropped, early envelopes held,
equivocation and broken chains caught), decodes each body once it is next in line,
checks the sender's grammar

    KEY  SHUFFLE  DEAL  (REVEAL | TRANSFER | REMASK)*  AUDIT

where a DEAL may also follow a DEAL or a REVEAL: the next deal of a carried deck
(``Hand.deal_on``), which the hand takes only once it has itself moved on to it.

(the transition table ``SENDER_NEXT``; a missing entry is the error) and queues the
message until the hand can take it. It also keeps the transcript: every envelope taken,
in the order taken, plus the second version of an equivocation as evidence.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator

from lodam_p2p.fairdeal.errors import RemoteProtocolError, blame
from lodam_p2p.fairdeal.messages import Kind, Message, decode, kind_of
from lodam_p2p.fairdeal.wire import Envelope, SenderLog

_PLAYING = frozenset({Kind.REVEAL, Kind.TRANSFER, Kind.REMASK, Kind.AUDIT})
#: What a sender may send next, given the kind of its previous message.
SENDER_NEXT: dict[Kind | None, frozenset[Kind]] = {
    None: frozenset({Kind.KEY}),
    Kind.KEY: frozenset({Kind.SHUFFLE}),
    Kind.SHUFFLE: frozenset({Kind.DEAL}),
    Kind.DEAL: _PLAYING | {Kind.DEAL},
    Kind.REVEAL: _PLAYING | {Kind.DEAL},
    Kind.TRANSFER: _PLAYING,
    Kind.REMASK: _PLAYING,
    Kind.AUDIT: frozenset(),
}


class Intake:
    """Chains, grammar and queues for every seat but ``me``; the transcript for all."""

    def __init__(self, seats: tuple[int, ...], me: int | None) -> None:
        self.logs = {s: SenderLog(s) for s in seats if s != me}
        self.queues: dict[int, deque[tuple[Envelope, Message]]] = {s: deque() for s in seats}
        self.last_kind: dict[int, Kind | None] = dict.fromkeys(seats)
        self.reported_gap: dict[int, int | None] = dict.fromkeys(seats)
        self.transcript: list[tuple[int, bytes]] = []

    def accept(self, env: Envelope, message: Message | None = None) -> int | None:
        """Take an envelope; return the start of a *newly seen* gap in its chain, if any.

        ``message``: its body, if the caller has decoded it already (decoding is
        deterministic, so it is the message ``decode`` would give)."""
        log = self.logs[env.seat]
        try:
            ready = log.accept(env)
        except RemoteProtocolError:
            self.transcript.append((env.seat, env.raw))  # the second version: the evidence
            raise
        for envelope in ready:
            self._enqueue(envelope, message if envelope is env else None)
        gap, reported = log.gap(), self.reported_gap[env.seat]
        self.reported_gap[env.seat] = gap
        return gap if gap is not None and gap != reported else None

    def _enqueue(self, env: Envelope, decoded: Message | None = None) -> None:
        try:
            msg = decoded if decoded is not None else decode(env.body)
        except ValueError as err:
            raise blame(env.seat, "malformed", f"envelope {env.seq}: {err}") from None
        self.follow(env.seat, kind_of(msg))
        self.transcript.append((env.seat, env.raw))
        self.queues[env.seat].append((env, msg))

    def follow(self, seat: int, kind: Kind) -> None:
        """Advance ``seat``'s grammar by one message of ``kind`` (blame if not allowed)."""
        last = self.last_kind[seat]
        if kind not in SENDER_NEXT[last]:
            after = last.name if last else "the start"
            raise blame(seat, "order", f"{kind.name} may not follow {after}")
        self.last_kind[seat] = kind

    def ready(self, takes: Callable[[int, Message], bool],
              ) -> Iterator[tuple[int, Envelope, Message]]:
        """Pop queued messages the hand ``takes`` now, until none is left to take.

        ``takes`` is asked again after every message, since applying one may move the
        hand to a phase that takes others."""
        progress = True
        while progress:
            progress = False
            for seat, queue in self.queues.items():
                while queue and takes(seat, queue[0][1]):
                    env, msg = queue.popleft()
                    progress = True
                    yield seat, env, msg

    def wanted(self) -> dict[int, int]:
        """The next sequence number wanted from each other seat."""
        return {s: log.next_seq for s, log in self.logs.items()}
