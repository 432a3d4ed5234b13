"""The first dealer, drawn by a commit-reveal lot that no single peer can bias.

Each seat draws a 32-byte nonce and publishes its commitment
``H("lodam/lot" ‖ table id ‖ seat ‖ nonce)``; only once every commitment is in does it
reveal the nonce. The dealer is ``H("lodam/lot-draw" ‖ table id ‖ nonce_0 ‖ … ‖
nonce_{n−1}) mod n`` (nonces in seat order). Whoever reveals last has seen every other
nonce but is bound by its commitment, so its only power is to refuse to reveal — which
blames it (:class:`LotError` names the seat). One honest seat's nonce makes the draw
uniform (up to the negligible bias of reducing 256 bits mod n).

Pure: no clock, no I/O; entropy is passed in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable


class LotError(ValueError):
    """A seat broke the lot: a reveal that does not open its commitment."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"seat {seat}: {reason}")
        self.seat = seat
        self.reason = reason


def commitment(table_id: bytes, seat: int, nonce: bytes) -> bytes:
    """The commitment to ``nonce`` of ``seat``."""
    return hashlib.sha256(b"lodam/lot\x00" + table_id + bytes([seat]) + nonce).digest()


def draw(table_id: bytes, nonces: list[bytes]) -> int:
    """The dealer given every seat's nonce, in seat order."""
    digest = hashlib.sha256(b"lodam/lot-draw\x00" + table_id + b"".join(nonces)).digest()
    return int.from_bytes(digest, "big") % len(nonces)


class Lot:
    """The lot as one seat (or a watcher, ``seat=None``) follows it."""

    def __init__(self, table_id: bytes, seats: int, seat: int | None,
                 entropy: Callable[[int], bytes]) -> None:
        self.table_id = table_id
        self.seats = seats
        self.seat = seat
        self.nonce = entropy(32) if seat is not None else b""
        self.commits: dict[int, bytes] = {}
        self.nonces: dict[int, bytes] = {}
        self.revealed = False

    def my_commitment(self) -> bytes:
        """What this seat publishes first."""
        assert self.seat is not None
        return commitment(self.table_id, self.seat, self.nonce)

    def take_commit(self, seat: int, digest: bytes) -> None:
        """A seat's commitment (the first one counts)."""
        self.commits.setdefault(seat, digest)

    def may_reveal(self) -> bool:
        """Every commitment is in, and this seat has not revealed yet."""
        return self.seat is not None and not self.revealed and len(self.commits) == self.seats

    def take_reveal(self, seat: int, nonce: bytes) -> None:
        """A seat's nonce; :class:`LotError` if it does not open the commitment."""
        digest = self.commits.get(seat)
        if digest is None:
            raise LotError(seat, "revealed before committing")
        if commitment(self.table_id, seat, nonce) != digest:
            raise LotError(seat, "the revealed nonce does not open its commitment")
        self.nonces[seat] = nonce

    def missing(self) -> list[int]:
        """Seats the lot still waits for (commitments first, then reveals)."""
        if len(self.commits) < self.seats:
            return [s for s in range(self.seats) if s not in self.commits]
        return [s for s in range(self.seats) if s not in self.nonces]

    def dealer(self) -> int | None:
        """The drawn dealer, once every nonce is in."""
        if len(self.nonces) < self.seats:
            return None
        return draw(self.table_id, [self.nonces[s] for s in range(self.seats)])
