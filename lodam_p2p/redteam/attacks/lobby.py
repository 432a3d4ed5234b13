"""Attacks on the lobby: a seat that tries to become its table's host.

Table announcements are signed by their host's key, and each announcer has a retained
topic of its own (:mod:`lodam_p2p.transport.lobby`); a seat takes SEATS and START only
from the host it joined (:mod:`lodam_p2p.session.seating`). A table that works as
protocol/SPEC.md says ("Strangers on the LAN") shows the fake announcement as another
table, seats nobody at it unawares, and blames the seat that signed a START for a table
it does not host — that seat only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.redteam.attacks.base import Attack
from lodam_p2p.session.wire import Body, Msg, peer_name, raw_public
from lodam_p2p.transport.lobby import MIN_SEATS, TableAnnouncement

if TYPE_CHECKING:
    from lodam_p2p.redteam.seat import Cheat


class FakeAnnouncement(Attack):
    """In the lobby: announce the table's name under the seat's own key (retained, as a
    host does), then sign a START roster that seats one other peer — the victim — alone
    against the seat and puppets of its own, as if it hosted the table.

    The table must keep every seat with the host it joined: the fake announcement is
    shown as another table, the false START is taken by no one, and the seat that
    signed it is the only one blamed."""

    kind, summary = ("fake-announcement",
                     "announce the table under its own key and sign a START that seats "
                     "a victim alone against its puppets")

    def __init__(self) -> None:
        super().__init__()
        #: the peer the false START seats alone (the first other peer heard)
        self.victim: str | None = None
        #: the retained topic of the fake announcement (withdrawn once the match began)
        self.topic: str | None = None

    def started(self, adv: Cheat) -> None:
        fake = TableAnnouncement(adv.table, adv.me, MIN_SEATS).signed(adv.identity)
        self.topic = fake.topic
        adv.retained.append((fake.topic, fake.encode()))

    def heard(self, adv: Cheat, peer: str, body: Body) -> None:
        if self.attempted or adv.roster is not None or peer == adv.me:
            return
        if self.victim is None and body.kind is Msg.JOIN:
            self.victim = peer  # its key is known once its JOIN is taken
            return
        if self.victim is not None and self.victim in adv.pubkeys:
            self._false_start(adv, self.victim, adv.pubkeys[self.victim])

    def seated(self, adv: Cheat) -> None:
        if self.topic is not None:  # the lobby is over: leave the broker's lobby clean
            adv.retained.append((self.topic, b""))
        if self.attempted or adv.roster is None:
            return
        victim = next(s for s in adv.roster.sitters if s.peer != adv.me)
        self._false_start(adv, victim.peer, victim.pubkey)

    def _false_start(self, adv: Cheat, victim: str, pubkey: bytes) -> None:
        """Sign and publish a START: the victim, the seat, and puppets to fill the table."""
        rows: list[list[object]] = [[adv.me, raw_public(adv.identity), "host", "bot:random"]]
        for n in range(MIN_SEATS - 2):
            key = raw_public(Ed25519PrivateKey.generate())
            rows.append([peer_name(key), key, f"puppet {n + 1}", "bot:random"])
        rows.append([victim, pubkey, "victim", "human"])
        adv.say(Body(Msg.START, args=(adv.entropy(16), {}, rows, 30.0)))
        self.attempted = True
