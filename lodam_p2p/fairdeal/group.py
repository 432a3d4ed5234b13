"""The group: secp256k1 through libsecp256k1 (``coincurve``), never Python big integers,
and, for a verifier's long sums of products, a small native multi-scalar multiplication.

Points are ``coincurve.PublicKey`` objects, parsed once on arrival and kept parsed;
on the wire they are 33-byte SEC1 compressed encodings. Scalars are Python ints
reduced modulo the group order ``ORDER``; arithmetic *on scalars* (``s = k + c·x``)
is plain modular arithmetic on 256-bit integers, which is cheap. Every point
multiplication goes through libsecp256k1, except the sums :func:`msm` hands to the C
extension ``_msm`` (see the comment above it).

secp256k1 has prime order and cofactor 1, so any point that parses is in the group:
there is no small-subgroup check to forget. The point at infinity has no compressed
encoding and libsecp256k1 refuses to produce it; a sum that would be infinity raises
``ValueError``, which the callers turn into a failed check.

Speed. Every operation calls libsecp256k1 through coincurve's cffi binding directly
(coincurve's wrappers re-validate and re-wrap each scalar and point), and a point keeps
its compressed encoding once it has one (parsed from the wire, or encoded once for a
hash). :func:`base_mul_add` computes a·G + b·P in one variable-time double
multiplication (libsecp256k1's ECDSA public-key recovery, which evaluates
r⁻¹·(s·R − z·G), with R = P, s = b·r and z = −a·r): about the price of b·P alone, where
b·P, a·G and their sum cost 1.6 of it. Verifiers rebuild s·G − c·X with it. Every input
is public; nothing secret goes through a variable-time operation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any

from coincurve import PublicKey
from coincurve._libsecp256k1 import ffi, lib
from coincurve.context import GLOBAL_CONTEXT

_CTX = GLOBAL_CONTEXT.ctx

_native_msm: Callable[[bytes, bytes], bytes | None] | None = None
_native_table: Callable[[bytes], bytes] | None = None
_native_rederive: Callable[[bytes, bytes, bytes, bytes, bytes, bytes], bool] | None = None
try:
    from lodam_p2p.fairdeal._msm import fixed_table as _built_table
    from lodam_p2p.fairdeal._msm import msm as _built
    from lodam_p2p.fairdeal._msm import rederive as _built_rederive
    _native_msm, _native_table, _native_rederive = _built, _built_table, _built_rederive
except ImportError:  # built without a C compiler: libsecp256k1 term by term
    pass

_COMPRESSED = 258  # SECP256K1_EC_COMPRESSED


class Point(PublicKey):
    """A secp256k1 point (never infinity) that keeps its compressed encoding."""

    encoded: bytes | None = None
    affine: bytes | None = None


def _point(raw: object, encoded: bytes | None = None) -> Point:
    """Wrap a ``secp256k1_pubkey *`` (no copy, no check)."""
    point = Point.__new__(Point)
    point.public_key = raw
    point.context = GLOBAL_CONTEXT
    point.encoded = encoded
    return point

#: The order n of the secp256k1 group.
ORDER = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
#: Bytes of a compressed point and of a scalar on the wire.
POINT_LEN = 33
SCALAR_LEN = 32

#: Entropy source: ``entropy(n)`` returns n fresh random bytes (``os.urandom`` in use).
Entropy = Callable[[int], bytes]


class OpCounter:
    """Counts point multiplications (for ``lodam bench deal``; never read by the protocol).

    ``mults``: whole multiplications, one libsecp256k1 call each (a·G + b·P by the
    recovery trick counts once); ``terms`` and ``short_terms``: the terms of native
    multi-scalar sums, with full-length and with 128-bit scalars, which share one chain
    of doublings and cost about a half and a quarter of a multiplication each;
    ``fixed``: the audit's fixed-base products (two per re-derived ciphertext, about half
    a multiplication each). See :func:`equivalent_mults`."""

    mults: int = 0
    terms: int = 0
    short_terms: int = 0
    fixed: int = 0

    @classmethod
    def snapshot(cls) -> tuple[int, int, int, int]:
        """(mults, terms, short_terms, fixed) so far."""
        return cls.mults, cls.terms, cls.short_terms, cls.fixed


#: What a term of each kind costs in whole multiplications (measured; SPEC.md section 11).
TERM_COST, SHORT_TERM_COST, FIXED_COST = 0.5, 0.25, 0.5


def equivalent_mults(mults: int, terms: int, short_terms: int, fixed: int) -> float:
    """Whole multiplications plus every cheaper product at its measured share of one."""
    return mults + TERM_COST * terms + SHORT_TERM_COST * short_terms + FIXED_COST * fixed


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
    raw = ffi.new("secp256k1_pubkey *")
    if not lib.secp256k1_ec_pubkey_parse(_CTX, raw, data, POINT_LEN):
        raise ValueError("not a curve point")
    return _point(raw, bytes(data))


def encode_point(point: Point) -> bytes:
    """The 33-byte compressed encoding (kept on the point once computed)."""
    encoded: bytes | None = getattr(point, "encoded", None)
    if encoded is None:
        encoded = bytes(point.format(compressed=True))
        if isinstance(point, Point):
            point.encoded = encoded
    return encoded


def base_mul(k: int) -> Point:
    """k·G (k in [1, n-1])."""
    OpCounter.mults += 1
    raw = ffi.new("secp256k1_pubkey *")
    if not lib.secp256k1_ec_pubkey_create(_CTX, raw, k.to_bytes(SCALAR_LEN, "big")):
        raise ValueError("scalar out of range")
    return _point(raw)


# Two ways to multiply an arbitrary point. libsecp256k1's ``ec_pubkey_tweak_mul`` runs
# in variable time: its time follows the scalar's signed-digit form (measured: 7.7 µs
# for the scalar 3, 40 µs for a random one). That is fine for a verifier, whose scalars
# anyone can compute, and wrong for a secret: a hand key (a share x·A), a re-randomiser
# (r·H) or a proof's nonce. Its constant-time multiplication is reachable only through
# ECDH, which hands the product's coordinates to a hash callback; ours copies them out
# instead of hashing. About a third slower, so :func:`mul` (secrets, the default) takes
# that road and :func:`mul_public` (a verifier's values only) the fast one.


def _copy(output: Any, x: Any, y: Any, data: Any) -> int:
    ffi.memmove(output, x, 32)
    ffi.memmove(output + 32, y, 32)
    return 1


_copy_coordinates = ffi.callback(
    "int(unsigned char *, const unsigned char *, const unsigned char *, void *)", _copy)


def mul(point: Point, k: int) -> Point:
    """k·P (k in [1, n-1]) in constant time: for a secret k."""
    OpCounter.mults += 1
    out = ffi.new("unsigned char[65]")
    out[0] = 4  # SEC1 uncompressed: 04 ‖ x ‖ y
    if not lib.secp256k1_ecdh(_CTX, out + 1, point.public_key, k.to_bytes(SCALAR_LEN, "big"),
                              _copy_coordinates, ffi.NULL):
        raise ValueError("scalar out of range")
    raw = ffi.new("secp256k1_pubkey *")
    if not lib.secp256k1_ec_pubkey_parse(_CTX, raw, out, 65):
        raise AssertionError("libsecp256k1's product left the curve")
    return _point(raw)


def mul_public(point: Point, k: int) -> Point:
    """k·P (k in [1, n-1]) in variable time: only where k and P are public."""
    OpCounter.mults += 1
    raw = ffi.new("secp256k1_pubkey *", point.public_key[0])
    if not lib.secp256k1_ec_pubkey_tweak_mul(_CTX, raw, k.to_bytes(SCALAR_LEN, "big")):
        raise ValueError("scalar out of range")
    return _point(raw)


def base_mul_add(a: int, b: int, point: Point) -> Point:
    """a·G + b·P for public a, b and P, in one double multiplication (see the module
    doc); ``ValueError`` if the sum is the point at infinity."""
    a, b = a % ORDER, b % ORDER
    encoded = encode_point(point)
    r = int.from_bytes(encoded[1:], "big")
    if not b or r >= ORDER:  # r ≥ n: probability below 2^-127
        return add_all([base_mul(a), mul_public(point, b)]) if b else base_mul(a)
    OpCounter.mults += 1
    signature = ffi.new("secp256k1_ecdsa_recoverable_signature *")
    compact = encoded[1:] + (b * r % ORDER).to_bytes(SCALAR_LEN, "big")
    if not lib.secp256k1_ecdsa_recoverable_signature_parse_compact(
            _CTX, signature, compact, encoded[0] - 2):
        raise AssertionError("a point's abscissa below n parses as r")
    raw = ffi.new("secp256k1_pubkey *")
    digest = (-a * r % ORDER).to_bytes(SCALAR_LEN, "big")
    if not lib.secp256k1_ecdsa_recover(_CTX, raw, signature, digest):
        raise ValueError("the sum is the point at infinity")
    return _point(raw)


def add(*points: Point) -> Point:
    """P1 + P2 + … in one call; ``ValueError`` if the sum is the point at infinity."""
    return add_all(points)


def add_all(points: Sequence[Point]) -> Point:
    """Sum of a sequence of points; ``ValueError`` if it is infinity."""
    raw = ffi.new("secp256k1_pubkey *")
    if not lib.secp256k1_ec_pubkey_combine(_CTX, raw, [p.public_key for p in points],
                                           len(points)):
        raise ValueError("the sum of the points is the point at infinity")
    return _point(raw)


def neg(point: Point) -> Point:
    """−P: same x, the other y."""
    raw = ffi.new("secp256k1_pubkey *", point.public_key[0])
    lib.secp256k1_ec_pubkey_negate(_CTX, raw)
    return _point(raw)


def sub(a: Point, b: Point) -> Point:
    """A − B; ``ValueError`` if A = B."""
    return add(a, neg(b))


# A verifier's sums of many products go to a multi-scalar multiplication (``_msm``, a
# small C extension built with the package): the terms share one chain of doublings,
# so a term costs about half a libsecp256k1 multiplication, while a sum of a few terms
# costs more than the terms would alone (its 256 doublings are paid once, whatever the
# count). Below ``NATIVE_FROM`` terms, and wherever the extension was not built, each
# term is one libsecp256k1 multiplication: the results are the same point.

#: Fewest terms for which the native sum is faster (measured: even at 5 terms, about
#: 1.5 times as fast at 21, twice at 105).
NATIVE_FROM = 6
#: The same for weights below 2^128 (batch weights), whose sums take half the doublings
#: (measured at 3 terms: 83 µs native, 102 µs term by term; at 2: 75 against 59).
NATIVE_FROM_SHORT = 3
_SHORT = 1 << 128
_UNCOMPRESSED = 2  # SECP256K1_EC_UNCOMPRESSED


def native_msm() -> bool:
    """Whether the native multi-scalar multiplication was built (``lodam bench`` says)."""
    return _native_msm is not None


def _affine(point: Point) -> bytes:
    """x ‖ y, 64 bytes big-endian (kept on the point once computed)."""
    affine: bytes | None = getattr(point, "affine", None)
    if affine is None:
        out = ffi.new("unsigned char[65]")
        size = ffi.new("size_t *", 65)
        lib.secp256k1_ec_pubkey_serialize(_CTX, out, size, point.public_key, _UNCOMPRESSED)
        affine = bytes(ffi.buffer(out, 65))[1:]
        if isinstance(point, Point):
            point.affine = affine
    return affine


def _native_pays(pairs: Sequence[tuple[Point, int]]) -> bool:
    if len(pairs) < NATIVE_FROM_SHORT:
        return False
    return len(pairs) >= NATIVE_FROM or all(k < _SHORT for _, k in pairs)


def msm(points: Sequence[Point], scalars: Sequence[int]) -> Point | None:
    """Σ k_i·P_i for **public** scalars and points (a verifier's: the native sum runs in
    variable time); None when the sum is the point at infinity. Zero scalars add
    nothing."""
    pairs = [(p, k % ORDER) for p, k in zip(points, scalars, strict=True) if k % ORDER]
    native = _native_msm
    if native is None or not _native_pays(pairs):
        products = [mul_public(p, k) for p, k in pairs]
        try:
            return add_all(products) if products else None
        except ValueError:
            return None
    short = sum(1 for _, k in pairs if k < _SHORT)
    OpCounter.short_terms += short
    OpCounter.terms += len(pairs) - short
    found = native(b"".join(_affine(p) for p, _ in pairs),
                   b"".join(k.to_bytes(SCALAR_LEN, "big") for _, k in pairs))
    if found is None:
        return None
    raw = ffi.new("secp256k1_pubkey *")
    if not lib.secp256k1_ec_pubkey_parse(_CTX, raw, b"\x04" + found, 65):
        raise AssertionError("the native sum left the curve")
    point = _point(raw, bytes([2 + (found[-1] & 1)]) + found[:32])
    point.affine = found
    return point


def rerandomises(old: Sequence[tuple[Point, Point]], new: Sequence[tuple[Point, Point]],
                 joint: Point, permutation: Sequence[int],
                 randomness: Sequence[int]) -> bool | None:
    """Whether new[k] = old[π(k)] + (r_k·G, r_k·H) for every k, H = ``joint`` (a shuffle's
    joint key or a re-mask's hand key), with the
    native fixed-base products (the audit's re-derivation of an opened shuffle, about
    three times as fast as two libsecp256k1 multiplications per ciphertext); None where
    the extension was not built. Public inputs only (variable time); the caller checks
    that π indexes ``old``, that there is one r_k per new ciphertext and that each is in
    [1, n-1]."""
    if _native_rederive is None or not new or len(old) > 256:
        return None
    OpCounter.fixed += 2 * len(new)
    return _native_rederive(
        _fixed_table(encode_point(generator())), _fixed_table(encode_point(joint)),
        b"".join(_affine(a) + _affine(b) for a, b in old),
        b"".join(_affine(a) + _affine(b) for a, b in new),
        bytes(permutation), b"".join(r.to_bytes(SCALAR_LEN, "big") for r in randomness))


@lru_cache(maxsize=24)
def _fixed_table(encoded: bytes) -> bytes:
    """G's table, and the last two hands' joint and hand keys' (173 KB each: a re-mask
    is re-derived under its re-masker's hand key)."""
    assert _native_table is not None
    return _native_table(_affine(parse_point(encoded)))


@cache
def generator() -> Point:
    """G, the standard secp256k1 base point."""
    return base_mul(1)


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
            return parse_point(b"\x02" + x)
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
