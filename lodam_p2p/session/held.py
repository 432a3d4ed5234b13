"""What a table machine holds of one peer's messages until their time comes, capped.

A peer's bodies wait in its queue (:class:`HeldQueue`) until the machine can take them
(see :mod:`.seat`). An honest peer is never far ahead — a few messages, at most about a
hand — so a queue holding more than :data:`HELD_BODIES` messages or :data:`HELD_BYTES`
bytes is a flood: what comes over the cap is dropped and logged once, until the queue
has room again. Before the start a peer has nothing to say that could wait for long
(its JOIN, its lot commitment, a lot timeout vote; the host's seat lists and START until
its announcement is read), and any key may speak in the lobby, so the caps there are
lower: :data:`LOBBY_BODIES` and :data:`LOBBY_BYTES`. protocol/SPEC.md ("Limits") says
what each cap stops.
"""

from __future__ import annotations

import logging
from collections import deque

from lodam_p2p.session.wire import Body

log = logging.getLogger("lodam_p2p.session")

#: Messages, and their bytes, one seated peer may have waiting at a started table.
HELD_BODIES, HELD_BYTES = 512, 8 * 2**20
#: The same before the start, for any key.
LOBBY_BODIES, LOBBY_BYTES = 16, 64 * 2**10


class HeldQueue(deque[Body]):
    """One peer's waiting bodies, with the bytes they came in (see the module docstring)."""

    def __init__(self, peer: str) -> None:
        super().__init__()
        self.peer = peer
        self._sizes: deque[int] = deque()
        #: the bytes of the bodies held (as delivered)
        self.bytes = 0
        #: a body was refused since the queue last had room (logged once)
        self.capped = False

    def hold(self, body: Body, size: int, *, started: bool) -> bool:
        """Keep ``body`` (``size`` bytes) if it fits under the caps; False if refused."""
        count, limit = (HELD_BODIES, HELD_BYTES) if started else (LOBBY_BODIES, LOBBY_BYTES)
        if len(self) >= count or self.bytes + size > limit:
            if not self.capped:
                self.capped = True
                log.warning("%s has %d messages (%d bytes) waiting, the most it may: dropping "
                            "what it sends until they are taken", self.peer, len(self), self.bytes)
            return False
        self.append(body)
        self._sizes.append(size)
        self.bytes += size
        self.capped = False
        return True

    def popleft(self) -> Body:
        """The first body (its bytes no longer held)."""
        body = super().popleft()
        if self._sizes:
            self.bytes -= self._sizes.popleft()
        return body


def hold(queues: dict[str, deque[Body]], peer: str, body: Body, size: int, *,
         started: bool) -> bool:
    """Put ``body`` (``size`` bytes, from ``peer``) in its queue of ``queues`` if it fits
    (:meth:`HeldQueue.hold`); False when it was refused, and so dropped."""
    queue = queues.get(peer)
    if not isinstance(queue, HeldQueue):
        queue = queues[peer] = HeldQueue(peer)
    return queue.hold(body, size, started=started)
