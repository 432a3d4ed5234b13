"""Signed envelopes and the per-sender chain.

Envelope (bytes, all integers big-endian)::

    signature (64)  Ed25519 over everything after it
    magic     (3)   b"LDM"
    version   (1)   1
    table_id  (16)
    hand      (4)   u32
    seat      (1)   u8, the sender
    seq       (4)   u32, 0, 1, 2, … per sender and hand
    prev      (32)  SHA-256 of the sender's envelope seq−1 (32 zero bytes for seq 0)
    body      (…)   msgpack, see messages.py

The signature is checked *before* anything else is read. A bad signature, a wrong
table or hand (a replay), or a seat byte that differs from the channel it came on proves
nothing against that channel's owner: such input is refused as *unattributable*. Once
signed, everything is the signer's: an unparsable body, a broken chain (``prev`` not the
digest of what we hold for seq−1) and two different envelopes with one sequence number
(equivocation) are attributable, and the two signed envelopes are the evidence.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal.errors import blame
from lodam_p2p.fairdeal.messages import MAX_BODY
from lodam_p2p.fairdeal.proofs import VERSION
from lodam_p2p.fairdeal.signing import verifies

MAGIC = b"LDM"
SIG_LEN = 64
_HEADER = struct.Struct(">3sB16sIBI32s")
HEADER_LEN = _HEADER.size  # 61
MAX_ENVELOPE = SIG_LEN + HEADER_LEN + MAX_BODY
#: How many out-of-order envelopes are held per sender while waiting for a gap to fill.
MAX_EARLY = 256
GENESIS = bytes(32)
_MIN = SIG_LEN + HEADER_LEN


@dataclass(frozen=True, slots=True)
class Envelope:
    """An authenticated envelope: header fields, raw body, and its digest."""

    seat: int
    seq: int
    prev: bytes
    body: bytes
    raw: bytes
    digest: bytes


def seal(identity: Ed25519PrivateKey, body: bytes, *, table_id: bytes, hand: int, seat: int,
         seq: int, prev: bytes) -> bytes:
    """Sign and frame ``body`` as the sender's envelope number ``seq``."""
    signed = _HEADER.pack(MAGIC, VERSION, table_id, hand, seat, seq, prev) + body
    return identity.sign(signed) + signed


def open_envelope(data: bytes, sender: int, key: bytes, table_id: bytes,
                  hand: int) -> Envelope:
    """Authenticate ``data`` that arrived on ``sender``'s channel (``key``: the sender's
    raw Ed25519 public key); unattributable errors."""
    if not isinstance(data, bytes | bytearray) or not _MIN <= len(data) <= MAX_ENVELOPE:
        raise blame(sender, "envelope", "wrong size for an envelope", attributable=False)
    data = bytes(data)
    if not verifies(key, data[:SIG_LEN], data[SIG_LEN:]):
        raise blame(sender, "signature", "envelope signature does not verify",
                    attributable=False)
    magic, version, table, their_hand, seat, seq, prev = _HEADER.unpack_from(data, SIG_LEN)
    if magic != MAGIC or version != VERSION:
        raise blame(sender, "envelope", "unknown magic or version", attributable=False)
    if table != table_id or their_hand != hand or seat != sender:
        raise blame(sender, "context", f"envelope for table {table.hex()[:8]}…, hand "
                    f"{their_hand}, seat {seat}: not this hand (replayed?)", attributable=False)
    body = data[SIG_LEN + HEADER_LEN :]
    return Envelope(seat, seq, prev, body, data, hashlib.sha256(data).digest())


@dataclass
class SenderLog:
    """One sender's chain as received: delivered digests, early arrivals, the next seq."""

    seat: int
    next_seq: int = 0
    digests: list[bytes] = field(default_factory=list)
    early: dict[int, Envelope] = field(default_factory=dict)

    def accept(self, env: Envelope) -> list[Envelope]:
        """Take one authenticated envelope; return those now deliverable, in order."""
        if env.seq < self.next_seq:
            self._check_same(self.digests[env.seq], env)
            return []
        if env.seq in self.early:
            self._check_same(self.early[env.seq].digest, env)
            return []
        if env.seq > self.next_seq:
            if len(self.early) < MAX_EARLY:
                self.early[env.seq] = env
            return []
        out = [self._deliver(env)]
        while self.next_seq in self.early:
            out.append(self._deliver(self.early.pop(self.next_seq)))
        return out

    def gap(self) -> int | None:
        """The first missing sequence number when later envelopes wait, else None."""
        return self.next_seq if self.early else None

    def _check_same(self, digest: bytes, env: Envelope) -> None:
        if digest != env.digest:
            raise blame(self.seat, "equivocation",
                        f"two different signed envelopes with sequence number {env.seq}")

    def _deliver(self, env: Envelope) -> Envelope:
        prev = self.digests[-1] if self.digests else GENESIS
        if env.prev != prev:
            raise blame(self.seat, "chain",
                        f"envelope {env.seq} does not chain to envelope {env.seq - 1}")
        self.digests.append(env.digest)
        self.next_seq += 1
        return env
