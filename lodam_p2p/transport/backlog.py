"""How much a transport keeps of what it received and nobody has read yet.

A broker hands a subscriber everything at once: a peer that floods its topic (or a
crowd of fresh keys flooding theirs) puts its whole flood in the receiving process's
queue before the session has looked at the first message, where it would be held, at
full size, whatever the caps further up say. :class:`Backlog` counts the bytes waiting
and sheds what comes over its caps — :data:`BACKLOG_BYTES` in all, :data:`TOPIC_BYTES`
per topic — but only on peer topics (``lodam/v3/t/<table>/p/<peer>``): those carry the
numbered streams, whose receivers ask again for what they missed (:mod:`.stream`).
Presence and lobby messages are always kept. The first message shed since the backlog
was last at most half full is logged. protocol/SPEC.md ("Limits") says what the caps
stop.
"""

from __future__ import annotations

import logging

from lodam_p2p.transport import topics
from lodam_p2p.transport.base import Message

log = logging.getLogger("lodam_p2p.transport")

#: Bytes of peer-topic messages waiting to be read, in all and per topic.
BACKLOG_BYTES, TOPIC_BYTES = 8 * 2**20, 4 * 2**20


def sheddable(topic: str) -> bool:
    """Whether a message on ``topic`` may be shed (a peer's stream: it is asked again)."""
    try:
        return topics.parse_topic(topic).kind is topics.TopicKind.PEER
    except topics.BadName:
        return True  # not ours at all: the reader drops it anyway


class Backlog:
    """The bytes received and not yet read (see the module docstring)."""

    def __init__(self, total: int = BACKLOG_BYTES, per_topic: int = TOPIC_BYTES) -> None:
        self.total, self.per_topic = total, per_topic
        #: bytes waiting, in all
        self.bytes = 0
        #: messages shed since the start
        self.shed = 0
        self._by_topic: dict[str, int] = {}
        self._shedding = False

    def admit(self, message: Message) -> bool:
        """Count ``message`` in if it fits (True), else shed it (False)."""
        size, held = len(message.payload), self._by_topic.get(message.topic, 0)
        if (self.bytes + size > self.total or held + size > self.per_topic) and sheddable(
                message.topic):
            self.shed += 1
            if not self._shedding:
                self._shedding = True
                log.warning("more received than read (%d bytes waiting, %d on %s): shedding "
                            "peer messages until the reader catches up", self.bytes, held,
                            message.topic)
            return False
        self.bytes += size
        self._by_topic[message.topic] = held + size
        return True

    def taken(self, message: Message) -> None:
        """``message`` was read: its bytes are no longer waiting."""
        size = len(message.payload)
        left = self._by_topic.get(message.topic, 0) - size
        self.bytes -= size
        if self.bytes <= self.total // 2:
            self._shedding = False  # caught up: the next shedding is news again
        if left > 0:
            self._by_topic[message.topic] = left
        else:
            self._by_topic.pop(message.topic, None)
