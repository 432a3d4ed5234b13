"""Zero-knowledge proofs, made non-interactive by Fiat–Shamir over SHA-256.

Every challenge is ``c = SHA-256(b"lodam/v1/" ‖ tag ‖ 0x00 ‖ context ‖ inputs) mod n``
where ``context`` (``Context.encode()``, 22 bytes) binds the protocol version, the table,
the hand number and the *prover's* seat, and ``inputs`` is the fixed-width concatenation
(33-byte points, 32-byte scalars, 2-byte positions) listed per proof in protocol/SPEC.md.
A proof made for one table, hand or seat therefore fails everywhere else. Reducing a
256-bit hash mod n has a bias below 2^-127, irrelevant for a challenge.

Proofs travel as ``(c, s)``, 64 bytes: the verifier rebuilds the commitments from the
response and checks that they hash back to ``c``.

Nonces are hedged: ``k = SHA-512(tag ‖ x ‖ 32 fresh bytes ‖ public inputs) mod n``, so
a weak entropy source alone does not leak the secret through a repeated nonce.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from dataclasses import dataclass

from lodam_p2p.fairdeal.group import (
    ORDER,
    Entropy,
    Point,
    add,
    base_mul,
    base_mul_add,
    encode_point,
    hash_to_scalar,
    msm,
    mul,
    mul_public,
    scalar_to_bytes,
)
from lodam_p2p.fairdeal.memo import MEMO

#: Protocol version byte, bound into every challenge and envelope (3: a held card is
#: under its holder's key alone; transfers switch keys, re-masks need no shares).
VERSION = 3


@dataclass(frozen=True, slots=True)
class Context:
    """What every challenge is bound to: version, table, hand number, prover's seat."""

    table_id: bytes
    hand: int
    seat: int

    def encode(self) -> bytes:
        """version (1) ‖ table_id (16) ‖ hand (u32 BE) ‖ seat (u8): 22 bytes."""
        return bytes([VERSION]) + self.table_id + struct.pack(">IB", self.hand, self.seat)


@dataclass(frozen=True, slots=True)
class Proof:
    """A Schnorr or Chaum–Pedersen proof (challenge c, response s)."""

    c: int
    s: int

    def encode(self) -> bytes:
        """c ‖ s, 64 bytes."""
        return scalar_to_bytes(self.c) + scalar_to_bytes(self.s)


def challenge(tag: bytes, ctx: Context, *inputs: bytes) -> int:
    """The Fiat–Shamir challenge for ``tag`` over ``ctx`` and fixed-width ``inputs``."""
    digest = hashlib.sha256(b"lodam/v1/" + tag + b"\x00" + ctx.encode() + b"".join(inputs))
    return int.from_bytes(digest.digest(), "big") % ORDER


def hedged_nonce(tag: bytes, x: int, entropy: Entropy, *inputs: bytes) -> int:
    """A proof's nonce from its secret ``x``, 32 fresh bytes and the public ``inputs``
    (see the module doc)."""
    return hash_to_scalar(tag + scalar_to_bytes(x) + entropy(32) + b"".join(inputs))


def _rebuild(s: int, c: int, base: Point | None, public: Point) -> Point:
    """s·base − c·public (base None means G); ValueError if that is infinity."""
    if base is None:
        return base_mul_add(s, ORDER - c, public)
    return add(mul_public(base, s), mul_public(public, ORDER - c))


# --- Schnorr proof of knowledge of x with X = x·G -------------------------------------
#   prover: k, R = k·G, c = H("key", ctx, X, R), s = k + c·x
#   verifier: R' = s·G − c·X and c = H("key", ctx, X, R')


def prove_key(ctx: Context, x: int, big_x: Point, entropy: Entropy) -> Proof:
    """Prove knowledge of the hand key ``x`` behind ``X`` (stops rogue-key attacks)."""
    xb = encode_point(big_x)
    k = hedged_nonce(b"key", x, entropy, xb)
    c = challenge(b"key", ctx, xb, encode_point(base_mul(k)))
    return Proof(c, (k + c * x) % ORDER)


def verify_key(ctx: Context, big_x: Point, proof: Proof) -> bool:
    """True when ``proof`` shows knowledge of log_G X, bound to ``ctx``."""
    try:
        r = _rebuild(proof.s, proof.c, None, big_x)
    except ValueError:
        return False
    return proof.c == challenge(b"key", ctx, encode_point(big_x), encode_point(r))


# --- Chaum–Pedersen: log_G X = log_A D (D = x·A is an honest decryption share) --------
#   prover: k, R1 = k·G, R2 = k·A, c = H(tag, ctx, extra, X, A, D, R1, R2), s = k + c·x
#   verifier: R1' = s·G − c·X, R2' = s·A − c·D, and c must hash back.


def prove_dleq(
    tag: bytes, ctx: Context, *, x: int, big_x: Point, a: Point, d: Point, extra: bytes,
    entropy: Entropy,
) -> Proof:
    """Prove D = x·A for the x behind X = x·G; ``extra`` binds the statement (a position)."""
    public = (extra, encode_point(big_x), encode_point(a), encode_point(d))
    k = hedged_nonce(tag, x, entropy, *public)
    r1, r2 = encode_point(base_mul(k)), encode_point(mul(a, k))
    c = challenge(tag, ctx, *public, r1, r2)
    return Proof(c, (k + c * x) % ORDER)


def verify_dleq(
    tag: bytes, ctx: Context, *, big_x: Point, a: Point, d: Point, extra: bytes, proof: Proof
) -> bool:
    """True when ``proof`` shows log_G X = log_A D, bound to ``ctx`` and ``extra``
    (remembered in ``MEMO`` once it passed)."""
    parts = (b"dleq", tag, ctx.encode(), encode_point(big_x), encode_point(a), encode_point(d),
             extra, proof.encode())
    return MEMO.check(parts, lambda: _verify_dleq(tag, ctx, big_x=big_x, a=a, d=d,
                                                  extra=extra, proof=proof))


def _verify_dleq(
    tag: bytes, ctx: Context, *, big_x: Point, a: Point, d: Point, extra: bytes, proof: Proof
) -> bool:
    try:
        r1 = _rebuild(proof.s, proof.c, None, big_x)
        r2 = _rebuild(proof.s, proof.c, a, d)
    except ValueError:
        return False
    public = (extra, encode_point(big_x), encode_point(a), encode_point(d))
    return proof.c == challenge(tag, ctx, *public, encode_point(r1), encode_point(r2))


# --- Many shares in one proof (the deal) -----------------------------------------------
# A seat publishes D_j = x·A_j for every position j dealt to someone else. Rather than one
# proof per share it proves a single random linear combination: with weights
#   seed = SHA-256("lodam/v1/deal-weights" ‖ ctx ‖ X ‖ (u16 j ‖ A_j ‖ D_j) for all j)
#   z_j  = the first 16 bytes of SHA-256(seed ‖ u16 i), 0 read as 1  (i = index of j)
# it proves log_G X = log_{A*} D* for A* = Σ z_j·A_j and D* = Σ z_j·D_j.
# If some D_j ≠ x·A_j, then D* − x·A* = Σ z_j·(D_j − x·A_j) is a fixed non-trivial
# combination of the errors evaluated at hash-derived weights chosen *after* the shares
# were fixed. Fix every weight but one whose error is not zero: a single value of that
# weight among its 2^128 makes the sum vanish, so a cheat passes with probability 2^-128
# per try, and each try costs the cheater a new set of shares and a hash. The weights
# are 128 bits rather than a full scalar because that halves the two sums: their
# doublings and their additions follow the weights' length (the small-exponent batch
# test of Bellare, Garay and Rabin). One proof (4 multiplications to check) plus about
# one multiplication per share replaces 4 per share.


ShareEntries = Sequence[tuple[int, Point, Point]]
#: Bytes of a batch weight z_j (128 bits: see above).
WEIGHT_LEN = 16


def share_weights(ctx: Context, big_x: Point,
                  entries: ShareEntries) -> tuple[bytes, list[int]]:
    """The seed and the weights z_j for deal shares ``(position, A_j, D_j)``."""
    h = hashlib.sha256(b"lodam/v1/deal-weights\x00" + ctx.encode() + encode_point(big_x))
    for position, a, d in entries:
        h.update(struct.pack(">H", position) + encode_point(a) + encode_point(d))
    seed = h.digest()
    return seed, batch_weights(seed, len(entries))


def batch_weights(seed: bytes, count: int) -> list[int]:
    """``count`` 128-bit weights from ``seed``: the first 16 bytes of SHA-256(seed ‖ u16 i),
    0 read as 1 (the batches of SPEC 4.3 and 4.7)."""
    return [int.from_bytes(hashlib.sha256(seed + struct.pack(">H", i)).digest()[:WEIGHT_LEN],
                           "big") or 1 for i in range(count)]


def _combine(points: Sequence[Point], weights: Sequence[int]) -> Point:
    """Σ z·P over public points and weights; ``ValueError`` if it is infinity."""
    total = msm(points, weights)
    if total is None:
        raise ValueError("the weighted sum is the point at infinity")
    return total


def prove_shares(
    ctx: Context, x: int, big_x: Point, entries: Sequence[tuple[int, Point, Point]],
    entropy: Entropy,
) -> Proof:
    """One proof that every D_j = x·A_j in ``entries`` (non-empty)."""
    seed, weights = share_weights(ctx, big_x, entries)
    a_star = _combine([a for _, a, _ in entries], weights)
    return prove_dleq(b"deal", ctx, x=x, big_x=big_x, a=a_star, d=mul(a_star, x), extra=seed,
                      entropy=entropy)


def verify_shares(
    ctx: Context, big_x: Point, entries: Sequence[tuple[int, Point, Point]], proof: Proof,
) -> bool:
    """True when ``proof`` shows every D_j = x·A_j in ``entries`` (non-empty); remembered
    in ``MEMO`` once it passed."""
    listed = b"".join(struct.pack(">H", j) + encode_point(a) + encode_point(d)
                      for j, a, d in entries)
    parts = (b"shares", b"deal", ctx.encode(), encode_point(big_x), listed, proof.encode())
    return MEMO.check(parts, lambda: _verify_shares(ctx, big_x, entries, proof))


def _verify_shares(ctx: Context, big_x: Point, entries: ShareEntries, proof: Proof) -> bool:
    seed, weights = share_weights(ctx, big_x, entries)
    try:
        a_star = _combine([a for _, a, _ in entries], weights)
        d_star = _combine([d for _, _, d in entries], weights)
    except ValueError:
        return False
    return _verify_dleq(b"deal", ctx, big_x=big_x, a=a_star, d=d_star, extra=seed,
                        proof=proof)
