"""Private transfer: shares sealed from one seat to another.

The key is an ECDH between the two seats' *hand* keys, so the sender and the receiver
can both compute it, and after the audit (which opens every hand key) so can everyone:

    S   = x_from·X_to = x_to·X_from
    key = HKDF-SHA256(ikm = S (33 bytes compressed), salt = "lodam/v1/transfer",
                      info = context(from) ‖ to (u8) ‖ position (u16) ‖ seq (u32), 32 bytes)

``seq`` is the sender's envelope sequence number, so no two messages share a key and
ChaCha20-Poly1305 can use the all-zero nonce. The plaintext is the fixed-width list of
share entries, each carrying the share owner's own Chaum–Pedersen proof.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from lodam_p2p.fairdeal.group import Point, encode_point, mul
from lodam_p2p.fairdeal.messages import ShareEntry, decode_entries, encode_entries
from lodam_p2p.fairdeal.proofs import Context

_NONCE = bytes(12)


def transfer_key(secret: int, their_key: Point, ctx_from: Context, *, to: int, position: int,
                 seq: int) -> bytes:
    """The AEAD key of one transfer, from either side's secret and the other's key."""
    shared = encode_point(mul(their_key, secret))
    info = ctx_from.encode() + struct.pack(">BHI", to, position, seq)
    return HKDF(hashes.SHA256(), 32, b"lodam/v1/transfer", info).derive(shared)


def seal(key: bytes, entries: Sequence[ShareEntry]) -> bytes:
    """Encrypt and authenticate the share entries."""
    return ChaCha20Poly1305(key).encrypt(_NONCE, encode_entries(entries), None)


def unseal(key: bytes, sealed: bytes) -> tuple[ShareEntry, ...]:
    """Decrypt and parse; ``ValueError`` if it does not authenticate or parse."""
    try:
        plain = ChaCha20Poly1305(key).decrypt(_NONCE, sealed, None)
    except InvalidTag:
        raise ValueError("sealed shares do not authenticate") from None
    return decode_entries(plain)
