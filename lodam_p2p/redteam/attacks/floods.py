"""Floods and malformed traffic below the session: resend requests, frames far ahead of
the stream, frames from keys nobody seated, publications too big, and frames on behalf
of another seat.

They need the seat's link (:meth:`~lodam_p2p.redteam.seat.Cheat.post`): a seat with none
(the tests' in-memory router) reports the attack as not mounted. A table that works as
protocol/SPEC.md says answers resend requests within a per-requester budget, caps what
it keeps for each sender and keeps nothing for strangers, and drops what fails a check
before it costs anything: the honest seats play on, and a flood costs a host tens of MB
at most.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.redteam.attacks.base import Attack, others
from lodam_p2p.session.wire import MAX_PAYLOAD, peer_name, raw_public, seal_frame
from lodam_p2p.transport import topics
from lodam_p2p.transport.frames import DIGEST_BYTES, Frame, FrameKind, ResendRequest

if TYPE_CHECKING:
    from lodam_p2p.redteam.seat import Cheat

#: Why a flood is not mounted on a seat without a link.
NO_LINK = "this seat has no network link to flood (an in-memory machine)"
#: The last frame number of a stream's first epoch: "everything you ever sent".
WHOLE_STREAM = (1, 2**40 - 1)


def _peers(adv: Cheat) -> list[str]:
    """The other seated peers."""
    assert adv.roster is not None
    return [adv.roster.sitters[s].peer for s in others(adv)]


class ResendFlood(Attack):
    """Once the first hand is dealt, ask every other seat, thousands of times over, to
    publish its whole stream again (each request some sixty bytes).

    The table must answer resend requests within a per-requester rate and byte budget:
    the flood costs each honest seat a bounded amount, and the match plays on."""

    kind, summary = ("resend-flood",
                     "ask every other seat thousands of times to resend its whole stream")
    REQUESTS = 2000  #: requests to each other seat

    def tick(self, adv: Cheat) -> None:
        hand = adv.hand
        if self.attempted or self.reason or hand is None or not hand.dealt:
            return
        for peer in _peers(adv):
            body = ResendRequest(peer, (WHOLE_STREAM,)).encode()
            frame = Frame(FrameKind.RESEND, adv.me, 0, body).encode()
            for _ in range(self.REQUESTS):
                if not adv.post_frame(frame):
                    self.give_up(NO_LINK)
                    return
        self.attempted = True


class EarlyFrameFlood(Attack):
    """In the lobby, before START: publish frames of the seat's own stream far ahead of
    its sequence, and frames from many fresh keys nobody seated, each as big as a frame
    may be, for every peer to keep until the gap before them fills.

    The table must cap what it keeps for each sender, keep nothing but roster frames
    from strangers in the lobby (and nothing at all once seated), log the cap when it is
    hit, and play on."""

    kind, summary = ("early-frame-flood",
                     "frames far ahead of its stream and from many fresh keys, in the lobby")
    KEYS, FRAMES, SIZE = 64, 8, 60_000  #: fresh keys, frames each, bytes a frame
    AHEAD, FROM = 256, 3000  #: own frames, and how far ahead of the stream they start

    def started(self, adv: Cheat) -> None:
        # each names some digest as the frame before it: a frame far ahead cannot be
        # checked against its chain until the gap before it fills, so it is kept
        body, prev = bytes(self.SIZE), bytes(DIGEST_BYTES)
        own = [Frame(FrameKind.DATA, adv.me, self.FROM + k, body, prev).encode()
               for k in range(self.AHEAD)]
        for frame in own:
            if not adv.post_frame(frame):
                self.give_up(NO_LINK)
                return
        self.attempted = True
        for _ in range(self.KEYS):
            key = Ed25519PrivateKey.generate()
            pubkey = raw_public(key)
            peer = peer_name(pubkey)
            topic = topics.peer_topic(adv.table, peer)
            for seq in range(2, 2 + self.FRAMES):
                frame = Frame(FrameKind.DATA, peer, seq, body, prev).encode()
                adv.post(topic, seal_frame(key, pubkey, adv.table, frame))


class OversizedFrame(Attack):
    """Publish, on its own topic, publications far larger than any frame may be (and
    some just past the largest), signed or not.

    The table must drop each on its size, before reading or buffering it, and play on."""

    kind, summary = ("oversized-frame", "publications far past the largest frame allowed")
    BIG = 1 << 20  #: bytes of the largest publication sent

    def tick(self, adv: Cheat) -> None:
        if self.attempted or self.reason or adv.hand is None:
            return
        topic = topics.peer_topic(adv.table, adv.me)
        for size in (MAX_PAYLOAD + 1, MAX_PAYLOAD + 64, self.BIG // 2, self.BIG):
            if not adv.post(topic, bytes(size)):
                self.give_up(NO_LINK)
                return
        body = Frame(FrameKind.DATA, adv.me, 2**40 - 2, bytes(MAX_PAYLOAD)).encode()
        adv.post_frame(body)
        self.attempted = True


class ForeignResend(Attack):
    """Speak for another seat's stream: a resend request signed with its own key but
    published on a victim's topic, and frames on its own topic that name the victim as
    their sender.

    The table must drop both (the key is not the topic's peer; the frame's sender is not
    the topic's), blame neither the victim nor anyone for them, and play on."""

    kind, summary = ("foreign-resend",
                     "resend requests and frames that speak for another seat's stream")

    def tick(self, adv: Cheat) -> None:
        if self.attempted or self.reason or adv.hand is None:
            return
        pubkey = raw_public(adv.identity)
        for victim in _peers(adv):
            for target in _peers(adv):
                body = ResendRequest(target, (WHOLE_STREAM,)).encode()
                frame = Frame(FrameKind.RESEND, victim, 0, body).encode()
                if not adv.post(topics.peer_topic(adv.table, victim),
                                seal_frame(adv.identity, pubkey, adv.table, frame)):
                    self.give_up(NO_LINK)
                    return
                adv.post_frame(frame)
        self.attempted = True
