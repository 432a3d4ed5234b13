"""Shared parts of the Bayer–Groth shuffle argument (``bayergroth.py``): the commitment
key, Pedersen commitments to rows of scalars, the Fiat–Shamir transcript, the
verifier's batch of equations and the prover's nonce stream.

Commitments. ``com(v; r) = r·G + Σ v_l·g_l`` commits to a row v = (v_1 … v_n) with one
point; ``com(d; t) = t·G + d·g_1`` to one scalar. The g_l are
``hash_to_curve("lodam/v1/bg-generator", u8 l)``: nobody knows a logarithm between them
or to G, so a commitment binds its row (opening it two ways would give one) and, with a
uniform r, hides it perfectly.

Forms. The verifier never computes a point it does not have to: a commitment it derives
(``y·c_A + c_B − z·Σ g_l``, ``x·c_B1 + x²·c_B2``) is a *form*, a list of (point, scalar)
terms. Each equation of the proof is a form that must sum to the point at infinity;
:class:`Batch` weights every equation by a 128-bit number hashed from the whole proof
and hands the lot to one multi-scalar multiplication (``group.msm``, the native ``_msm``).
If an equation fails, only one weight among 2^128 makes the weighted sum vanish.

The prover's sums hold secrets (the permutation, the x^π(k), nonces), so they go term
by term through libsecp256k1's constant-time multiplication (``group.mul``,
``group.base_mul``), never through the variable-time ``msm``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from functools import cache

from lodam_p2p.fairdeal.group import (
    ORDER,
    Entropy,
    Point,
    add_all,
    base_mul,
    encode_point,
    generator,
    hash_to_curve,
    msm,
    mul,
    scalar_to_bytes,
)
from lodam_p2p.fairdeal.proofs import batch_weights

#: Longest row a commitment takes (the longest row any deck size of ``bayergroth`` uses
#: is 17, for 97 to 104 cards).
MAX_ROW = 32
#: (point, scalar); None stands for G.
Term = tuple[Point | None, int]
Form = Sequence[Term]


@cache
def row_generators() -> tuple[Point, ...]:
    """g_1 … g_32 = hash_to_curve("lodam/v1/bg-generator", u8 l) for l = 0 … 31."""
    return tuple(hash_to_curve(b"lodam/v1/bg-generator", bytes([i])) for i in range(MAX_ROW))


@cache
def generators_digest() -> bytes:
    """SHA-256 over the 32 generators' encodings (bound into the first challenge)."""
    return hashlib.sha256(b"".join(encode_point(g) for g in row_generators())).digest()


# --- scalar arithmetic ------------------------------------------------------------------


def powers(x: int, count: int) -> list[int]:
    """x^0, x^1, … x^(count−1) mod n."""
    out = [1] * count
    for i in range(1, count):
        out[i] = out[i - 1] * x % ORDER
    return out


def star(a: Sequence[int], b: Sequence[int], ys: Sequence[int]) -> int:
    """The bilinear map a ⋆ b = Σ_l a_l·b_l·y^(l+1) (``ys`` holds y^1 … y^n)."""
    return sum(p * q % ORDER * w for p, q, w in zip(a, b, ys, strict=True)) % ORDER


def combine(rows: Sequence[Sequence[int]], weights: Sequence[int]) -> list[int]:
    """Σ_i w_i·row_i, entrywise mod n."""
    out = [0] * len(rows[0])
    for row, w in zip(rows, weights, strict=True):
        for col, v in enumerate(row):
            out[col] = (out[col] + w * v) % ORDER
    return out


def weighted(values: Iterable[int], weights: Iterable[int]) -> int:
    """Σ w_i·v_i mod n."""
    return sum(w * v for w, v in zip(values, weights, strict=True)) % ORDER


# --- the prover's commitments -----------------------------------------------------------


def secret_sum(terms: Sequence[Term]) -> Point:
    """Σ k·P over terms holding secrets, each product in constant time (None is G). A
    prover's sums always carry a fresh random term, so infinity has probability 2^-256."""
    products = [base_mul(k % ORDER) if p is None else mul(p, k % ORDER)
                for p, k in terms if k % ORDER]
    try:
        return add_all(products)
    except ValueError as exc:  # pragma: no cover - probability 2^-256
        raise AssertionError("a prover's commitment summed to infinity") from exc


def commit(row: Sequence[int], blind: int) -> Point:
    """com(v; r) = r·G + Σ v_l·g_l."""
    return secret_sum([(None, blind), *zip(row_generators(), row, strict=False)])


# --- the verifier's forms ---------------------------------------------------------------


def scaled(form: Form, k: int) -> list[Term]:
    """k·form."""
    return [(p, k * s % ORDER) for p, s in form]


def opening(row: Sequence[int], blind: int) -> list[Term]:
    """The form of com(v; r), to be subtracted from an equation's left side."""
    return [(None, blind), *zip(row_generators(), row, strict=False)]


def minus_opening(row: Sequence[int], blind: int) -> list[Term]:
    """−com(v; r) as a form."""
    return scaled(opening(row, blind), ORDER - 1)


class Batch:
    """Equations (forms meant to sum to infinity), checked together in one weighted sum."""

    def __init__(self) -> None:
        self.equations: list[list[Term]] = []

    def add(self, *parts: Form) -> None:
        """One equation: the sum of ``parts`` must be the point at infinity."""
        self.equations.append([t for part in parts for t in part])

    def holds(self, seed: bytes) -> bool:
        """Whether every equation holds (weights from ``seed``, which must bind the whole
        proof), in one multi-scalar multiplication."""
        weights = batch_weights(seed, len(self.equations))
        points: dict[bytes, Point] = {}
        scalars: dict[bytes, int] = {}
        g = generator()
        for form, w in zip(self.equations, weights, strict=True):
            for point, k in form:
                p = g if point is None else point
                key = encode_point(p)
                points.setdefault(key, p)
                scalars[key] = (scalars.get(key, 0) + w * k) % ORDER
        return msm(list(points.values()), [scalars[key] for key in points]) is None


# --- Fiat–Shamir ------------------------------------------------------------------------


class Transcript:
    """A running SHA-256 state: each step hashes the previous state, a label and the
    prover's new points; a challenge is the state after its own label, mod n (never 0)."""

    def __init__(self, head: bytes) -> None:
        self.state = hashlib.sha256(head).digest()

    def absorb(self, label: bytes, points: Iterable[Point]) -> None:
        """Hash ``label`` and the compressed ``points`` into the state."""
        data = b"".join(encode_point(p) for p in points)
        self.state = hashlib.sha256(self.state + label + b"\x00" + data).digest()

    def challenge(self, label: bytes) -> int:
        """The next challenge, named by ``label``."""
        self.state = hashlib.sha256(self.state + label + b"\x01").digest()
        return int.from_bytes(self.state, "big") % ORDER or 1


class Nonces:
    """Hedged prover randomness: a SHA-512 counter stream keyed by 32 fresh bytes, the
    witness and the public statement, so a weak entropy source alone does not repeat
    nonces across statements or leak the witness."""

    def __init__(self, entropy: Entropy, witness: bytes, public: bytes) -> None:
        self._key = (hashlib.sha256(b"lodam/v1/bg-nonce\x00" + entropy(32) + witness).digest()
                     + hashlib.sha256(public).digest())
        self._count = 0

    def scalar(self) -> int:
        """One uniform non-zero scalar."""
        self._count += 1
        block = hashlib.sha512(self._key + self._count.to_bytes(4, "big")).digest()
        return int.from_bytes(block, "big") % ORDER or 1

    def scalars(self, count: int) -> list[int]:
        """``count`` scalars."""
        return [self.scalar() for _ in range(count)]


def scalars_bytes(values: Iterable[int]) -> bytes:
    """32-byte big-endian encodings, concatenated."""
    return b"".join(scalar_to_bytes(v % ORDER) for v in values)
