"""The group: secp256k1 through libsecp256k1 (``coincurve``), never Python big integers.

Points are ``coincurve.PublicKey`` objects, parsed once on arrival and kept parsed;
on the wire they are 33-byte SEC1 compressed encodings. Scalars are Python ints
reduced modulo the group order ``ORDER``; arithmetic *on scalars* (``s = k + c·x``)
is plain modular arithmetic on 256-bit integers, which is cheap. Every point
multiplication goes through libsecp256k1.

secp256k1 has prime order and cofactor 1, so any point that parses is in the group:
there is no small-subgroup check to forget. The point at infinity has no compressed
encoding and libsecp256k1 refuses to produce it; a sum that would be infinity raises
``ValueError``, which the callers turn into a failed check.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import cache

from coincurve import PublicKey

Point = PublicKey

#: The order n of the secp256k1 group.
ORDER = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
#: Bytes of a compressed point and of a scalar on the wire.
POINT_LEN = 33
SCALAR_LEN = 32

#: Entropy source: ``entropy(n)`` returns n fresh random bytes (``os.urandom`` in use).
Entropy = Callable[[int], bytes]


class OpCounter:
    """Counts point multiplications (for ``lodam bench deal``; never read by the protocol)."""

    mults: int = 0


def scalar_to_bytes(k: int) -> bytes:
    """32-byte big-endian encoding of a scalar already reduced modulo ``ORDER``."""
    return k.to_bytes(SCALAR_LEN, "big")


def scalar_from_bytes(data: bytes, *, nonzero: bool = True) -> int:
    """Parse a canonical scalar: exactly 32 bytes, below ``ORDER``, and non-zero if asked."""
    if len(data) != SCALAR_LEN:
        raise ValueError("scalar must be 32 bytes")
    k = int.from_bytes(data, "big")
    if k >= ORDER or (nonzero and k == 0):
        raise ValueError("scalar out of range")
    return k


def hash_to_scalar(data: bytes) -> int:
    """A scalar from SHA-512 of ``data`` reduced mod n (bias below 2^-256), never zero."""
    k = int.from_bytes(hashlib.sha512(data).digest(), "big") % ORDER
    return k or 1


def random_scalar(entropy: Entropy) -> int:
    """A uniform non-zero scalar: 64 bytes of entropy reduced mod n."""
    k = int.from_bytes(entropy(64), "big") % ORDER
    return k or 1


def parse_point(data: bytes) -> Point:
    """Parse a compressed point; ``ValueError`` unless it is a valid curve point."""
    if len(data) != POINT_LEN or data[0] not in (2, 3):
        raise ValueError("point must be 33 bytes, compressed")
    return PublicKey(data)


def encode_point(point: Point) -> bytes:
    """The 33-byte compressed encoding."""
    return bytes(point.format(compressed=True))


def base_mul(k: int) -> Point:
    """k·G (k in [1, n-1])."""
    OpCounter.mults += 1
    return PublicKey.from_valid_secret(scalar_to_bytes(k))


def mul(point: Point, k: int) -> Point:
    """k·P (k in [1, n-1])."""
    OpCounter.mults += 1
    return point.multiply(scalar_to_bytes(k))


def add(*points: Point) -> Point:
    """P1 + P2 + … in one call; ``ValueError`` if the sum is the point at infinity."""
    return PublicKey.combine_keys(list(points))


def add_all(points: Sequence[Point]) -> Point:
    """Sum of a sequence of points; ``ValueError`` if it is infinity."""
    return PublicKey.combine_keys(list(points))


def neg(point: Point) -> Point:
    """−P: same x, the other y, so flip the parity byte of the compressed form."""
    data = point.format(compressed=True)
    return PublicKey(bytes([data[0] ^ 1]) + data[1:])


def sub(a: Point, b: Point) -> Point:
    """A − B; ``ValueError`` if A = B."""
    return add(a, neg(b))


def msm(points: Sequence[Point], scalars: Sequence[int]) -> Point:
    """Σ k_i·P_i (one libsecp256k1 multiplication per term, one combined addition)."""
    return add_all([mul(p, k) for p, k in zip(points, scalars, strict=True)])


@cache
def generator() -> Point:
    """G, the standard secp256k1 base point."""
    return PublicKey.from_valid_secret(scalar_to_bytes(1))


# Hash-to-curve by try-and-increment. For a counter t = 0, 1, 2, … take
# x = SHA-256(tag ‖ 0x00 ‖ data ‖ t) and accept the first x that is the abscissa of a
# curve point, with even y (prefix 0x02). About half of all x qualify, so two tries on
# average. The running time depends on the input, which is harmless here: the inputs
# (card numbers) are public. Nobody learns a discrete logarithm between two outputs,
# since each is a point found from a hash, not a multiple of a known point.
def hash_to_curve(tag: bytes, data: bytes) -> Point:
    """A point nobody knows the logarithm of, derived from public ``tag`` and ``data``."""
    for counter in range(256):
        x = hashlib.sha256(tag + b"\x00" + data + bytes([counter])).digest()
        try:
            return PublicKey(b"\x02" + x)
        except ValueError:
            continue
    raise AssertionError("hash_to_curve: no point in 256 tries")  # probability 2^-256


@cache
def card_points(deck_size: int) -> tuple[Point, ...]:
    """M_c = hash_to_curve("lodam/v1/card", deck_size ‖ c) for c = 0 … deck_size − 1."""
    return tuple(
        hash_to_curve(b"lodam/v1/card", bytes([deck_size, card])) for card in range(deck_size)
    )


@cache
def card_lookup(deck_size: int) -> dict[bytes, int]:
    """Compressed card point → card index."""
    return {encode_point(p): card for card, p in enumerate(card_points(deck_size))}
