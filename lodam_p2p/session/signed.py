"""What this seat has signed: one envelope per (hand, seq), never two.

An honest seat signs exactly one fair-deal envelope for each (hand, seq) of its chain
(:mod:`lodam_p2p.fairdeal.wire`). Two different ones are equivocation, and anybody who
holds both can convict the seat: so a seat that was made to deal a hand a second time
under a number it had already used (a RESUME naming a hand already begun) would hand a
cheater the evidence against itself. The table machine keeps this record and checks
every body before it is published (:meth:`SignedRecord.clash`): an envelope of its own
whose (hand, seq) it already published with other bytes is never published. It also
keeps the highest hand number it has begun (:attr:`SignedRecord.begun`), which the
seat's journal keeps before any envelope of the hand is published (the match snapshot
:meth:`~lodam_p2p.session.course.MatchCourse.new_hand` leaves as a
:class:`~lodam_p2p.session.effects.Keep` effect, carried out before what follows it goes
out), so that a restarted process never begins a hand under a number its predecessor
published in. Pure: no I/O.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field

from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN

#: The envelope header after the signature, as :func:`lodam_p2p.fairdeal.wire.seal`
#: writes it: magic, version, table id, hand, seat, seq, prev.
_HEADER = struct.Struct(">3sB16sIBI32s")


def envelope_place(data: bytes) -> tuple[int, int, int] | None:
    """The (hand, seat, seq) an envelope's header names, or None if it has none."""
    if len(data) < SIG_LEN + HEADER_LEN:
        return None
    _magic, _version, _table, hand, seat, seq, _prev = _HEADER.unpack_from(data, SIG_LEN)
    return hand, seat, seq


@dataclass
class SignedRecord:
    """Every envelope this seat published, by (hand, seq), and the last hand it began."""

    #: (hand, seq) → SHA-256 of the envelope published there
    digests: dict[tuple[int, int], bytes] = field(default_factory=dict)
    #: the highest hand number this seat has begun (0: none)
    begun: int = 0
    #: bodies kept back because they would have signed a second envelope
    refused: int = 0

    def clash(self, envelopes: tuple[bytes, ...], seat: int) -> tuple[int, int] | None:
        """The (hand, seq) at which one of ``envelopes`` of ``seat``'s own differs from
        the one already published there, or None; when None, they are recorded."""
        fresh: dict[tuple[int, int], bytes] = {}
        for data in envelopes:
            place = envelope_place(data)
            if place is None or place[1] != seat:
                continue  # another seat's envelope (a claim's evidence)
            key = (place[0], place[2])
            digest = hashlib.sha256(data).digest()
            if self.digests.get(key, fresh.get(key, digest)) != digest:
                self.refused += 1
                return key
            fresh[key] = digest
        self.digests.update(fresh)
        return None
