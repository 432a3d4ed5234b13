"""What a stream's hash chain lets a receiver notice (see :mod:`.frames`, ``prev`` and
``heads``, and protocol/SPEC.md, "The broker and strangers").

Each sender's DATA frames name the digest of the frame before them, under the sender's
signature, and every frame echoes the positions its sender has reached of the others'
streams. A receiver keeps the digests (and the sealed bytes, the evidence) of the last
:data:`KEEP` positions of each stream it follows, and from them finds four things:

``equivocation``
    two different signed frames at one position of one sender, or a frame whose
    ``prev`` is not the digest of the frame before it: only the signer can have made
    both, so it is evidence against the signer (never a broker fault);
``split``
    a seat echoes, for a position of a stream, a digest other than the frame this
    receiver holds there: the seats were shown different things (a broker fault: the
    receiver holds one signed frame only, so it can prove no signer wrong);
``replay``
    a frame this receiver delivered long ago comes again, and nobody asked for it again
    with a RESEND (a broker fault: a broker can only replay what a seat really sent);
``withheld``
    a seat echoes a position this receiver never received, and its RESEND requests have
    not brought it after :data:`WITHHELD_ASKS` tries (a broker fault).

Each is a :class:`StreamFault` with its evidence, the sealed frames as published, so
that anybody holding the senders' keys can check them.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

#: Positions of each followed stream whose digest and sealed frame are kept.
KEEP = 64
#: A duplicate this far (or farther) behind the next expected number, that nobody asked
#: for again, is a replay (a nearer one is the at-least-once delivery of MQTT).
REPLAY_SLACK = 16
#: RESEND requests for a position another seat has echoed, after which it is withheld.
WITHHELD_ASKS = 4
#: Faults recorded by one endpoint, at most (a hostile broker could repeat one forever).
MAX_FAULTS = 64


@dataclass(frozen=True, slots=True)
class StreamFault:
    """Something a stream's chain shows: ``kind`` (see the module docstring) at position
    ``seq`` of ``sender``'s stream, found thanks to ``by`` (the echoing seat, if any),
    proven by ``evidence`` (sealed frames as published)."""

    kind: str
    sender: str
    seq: int
    detail: str
    evidence: tuple[bytes, ...] = ()
    by: str = ""

    @property
    def broker(self) -> bool:
        """Whether only the broker can be at fault (every kind but equivocation)."""
        return self.kind != "equivocation"

    def line(self) -> str:
        """One line for a result's ``broker_faults`` and the screen."""
        return f"{self.kind}: {self.sender[:8]}#{self.seq}: {self.detail}"


class Positions:
    """The digest and sealed bytes of a stream's last :data:`KEEP` positions."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: OrderedDict[int, tuple[bytes, bytes]] = OrderedDict()

    def put(self, seq: int, digest: bytes, sealed: bytes) -> None:
        """Keep position ``seq`` (the oldest goes past :data:`KEEP`)."""
        self._kept[seq] = (digest, sealed)
        if len(self._kept) > KEEP:
            self._kept.popitem(last=False)

    def get(self, seq: int) -> tuple[bytes, bytes] | None:
        """(digest, sealed frame) at ``seq``, if kept."""
        return self._kept.get(seq)

    def clear(self) -> None:
        """Forget everything (a new epoch of the stream)."""
        self._kept.clear()

    def last(self) -> tuple[int, bytes] | None:
        """The newest position kept and its digest."""
        if not self._kept:
            return None
        seq = next(reversed(self._kept))
        return seq, self._kept[seq][0]


class AskedRanges:
    """The ranges of a sender's stream somebody asked it to publish again, lately."""

    __slots__ = ("_ranges",)

    def __init__(self) -> None:
        self._ranges: list[tuple[int, int]] = []

    def add(self, ranges: tuple[tuple[int, int], ...]) -> None:
        """Note a RESEND's ranges (the last 32 ranges are kept)."""
        self._ranges = (self._ranges + list(ranges))[-32:]

    def covers(self, seq: int) -> bool:
        """Whether ``seq`` was asked for again."""
        return any(low <= seq <= high for low, high in self._ranges)
