"""Zero-knowledge proof of a re-encryption shuffle (Terelius–Wikström 2010).

Statement. Public: the joint key H, N input ciphertexts w_j = (A_j, B_j) and N outputs
w'_k = (A'_k, B'_k). The prover knows a permutation π and scalars r_k with

    w'_k = w_π(k) + (r_k·G, r_k·H)        for every k,

i.e. the outputs are the inputs re-encrypted and reordered: no card dropped, duplicated,
replaced or invented, and no ciphertext part chosen freely (a public key planted as an
``A`` would need its discrete logarithm). A shuffle's key is the joint key; a re-mask's
the re-masker's own hand key, under which it holds its cards (remask.py).

Proof (additive notation; generators h, h_1 … h_N from ``generators``):

1. Permutation commitment: c_π(k) = ρ_π(k)·G + h_k, one point per input.
2. Challenges u_j (per input j) from SHA-256 over the context and every public input;
   u'_k = u_π(k).
3. Chain ĉ_0 = h, ĉ_k = r̂_k·G + u'_k·ĉ_{k−1}: a commitment to Π u'_k = Π u_j.
4. A Schnorr-style proof, bound to a second challenge e, that the committed matrix has
   rows summing to one (t1), that the chain ends in Π u_j (t2), that the values behind
   the chain are the ones the permutation commitment maps u to (t3, t̂_k), and that
   Σ u'_k·w'_k = Σ u_j·w_j + Enc(0; Σ r_k·u'_k) (t4A, t4B). Terelius and Wikström show
   the first three pin c to a permutation matrix; with it t4 pins the outputs.

The proof travels in "commitment form": c_1 … c_N, ĉ_1 … ĉ_N, t1 … t4B, t̂_1 … t̂_N,
s1 … s4, ŝ_1 … ŝ_N, s'_1 … s'_N. The verifier recomputes e from the t's and checks the
N + 5 equations that define them in a single multi-scalar multiplication, each equation
weighted by a 128-bit number hashed from the whole proof (see ``_batch_weights``).
Size 163·N + 293 bytes (52 cards: 8,769 bytes).

Challenges: ``seed = SHA-256("lodam/v1/" ‖ tag ‖ "-u" ‖ 0x00 ‖ context ‖ generators digest
‖ H ‖ extra ‖ inputs ‖ outputs ‖ c_1 … c_N)``, ``u_j = SHA-256(seed ‖ u16 j) mod n``
(never 0) and ``e = challenge(tag, context, seed, ĉ_1 … ĉ_N, t1, t2, t3, t4A, t4B,
t̂_1 … t̂_N)``; ``context`` names the version, table, hand and proving seat, ``H`` the
statement's key, ``extra`` the statement's own data (a shuffle's commitment, a re-mask's
number and input positions).
"""

from __future__ import annotations

import contextlib
import hashlib
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from lodam_p2p.fairdeal.group import (
    NATIVE_FROM,
    ORDER,
    POINT_LEN,
    SCALAR_LEN,
    Entropy,
    Point,
    add_all,
    base_mul,
    base_mul_add,
    encode_point,
    generator,
    hash_to_curve,
    msm,
    mul,
    mul_public,
    native_msm,
    parse_point,
    scalar_from_bytes,
    scalar_to_bytes,
)
from lodam_p2p.fairdeal.memo import MEMO
from lodam_p2p.fairdeal.proofs import Context, batch_weights, challenge
from lodam_p2p.fairdeal.shuffle import Ciphertext, ShuffleSecret

#: Most ciphertexts one proof covers (the largest deck; a SHUFFLE body carries a proof
#: of at most 70, see ``record.shuffle_body``).
MAX_SIZE = 104
#: The generators h, h_1 … h_52 whose digest every challenge binds (those of the first
#: published protocol, for decks of up to 52 cards; larger decks use more, derived alike).
DIGESTED = 52
Term = tuple[Point | None, int]  # (None = G, scalar)


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """A Terelius–Wikström proof of shuffle in commitment form (see the module doc)."""

    commitments: tuple[Point, ...]
    chain: tuple[Point, ...]
    #: t1, t2, t3, t4A, t4B
    t: tuple[Point, ...]
    t_hat: tuple[Point, ...]
    s: tuple[int, int, int, int]
    s_hat: tuple[int, ...]
    s_prime: tuple[int, ...]

    def encode(self) -> bytes:
        """c_1…c_N ‖ ĉ_1…ĉ_N ‖ t1…t4B ‖ t̂_1…t̂_N ‖ s1…s4 ‖ ŝ_1…ŝ_N ‖ s'_1…s'_N."""
        return self.encode_points() + self.encode_responses()

    def encode_points(self) -> bytes:
        """The points of the proof, in their order on the wire."""
        return b"".join(encode_point(p) for p in
                        (*self.commitments, *self.chain, *self.t, *self.t_hat))

    def encode_responses(self) -> bytes:
        """The responses s1…s4 ‖ ŝ_1…ŝ_N ‖ s'_1…s'_N."""
        return b"".join(scalar_to_bytes(k) for k in (*self.s, *self.s_hat, *self.s_prime))


def proof_size(n: int) -> int:
    """Encoded bytes of a proof over ``n`` ciphertexts."""
    return (3 * n + 5) * POINT_LEN + (2 * n + 4) * SCALAR_LEN


def decode_proof(data: bytes, n: int) -> ShuffleProof:
    """Parse a proof over ``n`` ciphertexts; ``ValueError`` if malformed."""
    if not 1 <= n <= MAX_SIZE or len(data) != proof_size(n):
        raise ValueError(f"a shuffle proof over {n} ciphertexts is {proof_size(n)} bytes")
    end = (3 * n + 5) * POINT_LEN
    points = [parse_point(data[i : i + POINT_LEN]) for i in range(0, end, POINT_LEN)]
    scalars = [scalar_from_bytes(data[i : i + SCALAR_LEN], nonzero=False)
               for i in range(end, len(data), SCALAR_LEN)]
    s = (scalars[0], scalars[1], scalars[2], scalars[3])
    hats = 2 * n + 5  # where t̂_1 starts
    return ShuffleProof(tuple(points[:n]), tuple(points[n : 2 * n]),
                        tuple(points[2 * n : hats]), tuple(points[hats:]), s,
                        tuple(scalars[4 : 4 + n]), tuple(scalars[4 + n :]))


# --- generators and small helpers ------------------------------------------------------


def generators(n: int = DIGESTED) -> tuple[Point, ...]:
    """h, h_1 … h_n (at least h_52) = hash_to_curve("lodam/v1/shuffle-generator", u8 i):
    nobody knows a logarithm between them or to G."""
    return _digested() if n <= DIGESTED else _more(n)


@cache
def _digested() -> tuple[Point, ...]:
    return tuple(_generator(i) for i in range(DIGESTED + 1))


@cache
def _more(n: int) -> tuple[Point, ...]:
    return (*_digested(), *(_generator(i) for i in range(DIGESTED + 1, n + 1)))


def _generator(i: int) -> Point:
    return hash_to_curve(b"lodam/v1/shuffle-generator", bytes([i]))


@cache
def _generators_digest() -> bytes:
    """SHA-256 of h, h_1 … h_52 (whatever the deck's size)."""
    return hashlib.sha256(b"".join(encode_point(p) for p in generators())).digest()


def lincomb(terms: Sequence[Term], *, public: bool = False) -> Point | None:
    """Σ k·P over ``terms`` (P None means G); None when the sum is the point at infinity.
    Zero scalars are skipped (libsecp256k1 refuses to multiply by zero). With only
    ``public`` scalars (a verifier's) a long sum goes to the native multi-scalar
    multiplication and a short one lets the G term ride on the first point's
    multiplication (``base_mul_add``); both run in variable time. A prover's terms
    each take a constant-time multiplication."""
    points: list[Point] = []
    scalars: list[int] = []
    g_scalar = 0
    for point, scalar in terms:
        k = scalar % ORDER
        if point is None:
            g_scalar = (g_scalar + k) % ORDER
        elif k:
            points.append(point)
            scalars.append(k)
    if public and len(points) + bool(g_scalar) >= NATIVE_FROM and native_msm():
        if g_scalar:
            points.append(generator())
            scalars.append(g_scalar)
        return msm(points, scalars)
    products = []
    if g_scalar and points and public:
        # a·G + b·P in one double multiplication; a pair summing to infinity adds nothing
        with contextlib.suppress(ValueError):
            products.append(base_mul_add(g_scalar, scalars.pop(), points.pop()))
    elif g_scalar:
        products.append(base_mul(g_scalar))
    times = mul_public if public else mul
    products += [times(p, k) for p, k in zip(points, scalars, strict=True)]
    if not products:
        return None
    try:
        return add_all(products)
    except ValueError:
        return None


def _deck_bytes(deck: Sequence[Ciphertext]) -> bytes:
    return b"".join(encode_point(a) + encode_point(b) for a, b in deck)


@dataclass(frozen=True, slots=True)
class Statement:
    """What a proof of shuffle is about: ``outputs`` re-encrypt a permutation of
    ``inputs`` under the key ``joint`` (a shuffle's joint key H, a re-mask's re-masker's
    hand key); ``tag`` (``shuffle`` or ``remask``), the prover's ``ctx`` and ``extra``
    are bound into every challenge."""

    tag: bytes
    ctx: Context
    joint: Point
    inputs: tuple[Ciphertext, ...]
    outputs: tuple[Ciphertext, ...]
    extra: bytes = b""

    def challenge(self, seed: bytes, chain: Sequence[Point], ts: Sequence[Point]) -> int:
        """e = challenge(tag, ctx, seed, ĉ_1…ĉ_N, t1, t2, t3, t4A, t4B, t̂_1…t̂_N)."""
        return challenge(self.tag, self.ctx, seed, *(encode_point(c) for c in chain),
                         *(encode_point(t) for t in ts))


def _u_challenges(st: Statement, commitments: Sequence[Point]) -> tuple[bytes, list[int]]:
    h = hashlib.sha256(b"lodam/v1/" + st.tag + b"-u\x00" + st.ctx.encode()
                       + _generators_digest())
    h.update(encode_point(st.joint) + struct.pack(">H", len(st.extra)) + st.extra)
    h.update(_deck_bytes(st.inputs) + _deck_bytes(st.outputs))
    h.update(b"".join(encode_point(c) for c in commitments))
    seed = h.digest()
    us = [int.from_bytes(hashlib.sha256(seed + struct.pack(">H", j)).digest(), "big") % ORDER
          or 1 for j in range(len(st.inputs))]
    return seed, us


class _Nonces:
    """Hedged prover randomness: SHA-512 counter stream over fresh entropy and the
    witness, so a weak entropy source alone does not leak the witness."""

    def __init__(self, entropy: Entropy, secret: ShuffleSecret, public: bytes) -> None:
        h = hashlib.sha256(b"lodam/v1/shuffle-nonce\x00" + entropy(32) + bytes(secret.permutation))
        for r in secret.randomness:
            h.update(scalar_to_bytes(r))
        self._key = h.digest() + hashlib.sha256(public).digest()
        self._count = 0

    def scalar(self) -> int:
        self._count += 1
        block = hashlib.sha512(self._key + self._count.to_bytes(4, "big")).digest()
        return int.from_bytes(block, "big") % ORDER or 1


# --- prover ----------------------------------------------------------------------------


def prove_shuffle(st: Statement, secret: ShuffleSecret, entropy: Entropy) -> ShuffleProof:
    """Prove that the statement's outputs are its inputs shuffled with ``secret`` (π, r)."""
    inputs, outputs, joint = st.inputs, st.outputs, st.joint
    n = len(inputs)
    pi, r = secret.permutation, secret.randomness
    gens = generators(n)
    h, hs = gens[0], gens[1 : n + 1]
    nonce = _Nonces(entropy, secret, st.ctx.encode() + _deck_bytes(outputs))
    rho = [nonce.scalar() for _ in range(n)]
    where = [0] * n  # where[j] = k with π(k) = j
    for k, j in enumerate(pi):
        where[j] = k
    commitments = [add_all([base_mul(rho[j]), hs[where[j]]]) for j in range(n)]
    seed, u = _u_challenges(st, commitments)
    u_prime = [u[pi[k]] for k in range(n)]
    r_hat = [nonce.scalar() for _ in range(n)]
    chain: list[Point] = []
    previous = h
    for k in range(n):
        previous = add_all([base_mul(r_hat[k]), mul(previous, u_prime[k])])
        chain.append(previous)
    w = [nonce.scalar() for _ in range(4)]
    w_hat = [nonce.scalar() for _ in range(n)]
    w_prime = [nonce.scalar() for _ in range(n)]
    t1, t2 = base_mul(w[0]), base_mul(w[1])
    t3 = lincomb([(None, w[2]), *zip(hs, w_prime, strict=True)])
    t4a = lincomb([(None, -w[3]), *((c[0], wk) for c, wk in zip(outputs, w_prime, strict=True))])
    t4b = lincomb([(joint, -w[3]), *((c[1], wk) for c, wk in zip(outputs, w_prime, strict=True))])
    t_hat = tuple(_drawn(lincomb([(None, w_hat[k]), (h if k == 0 else chain[k - 1], w_prime[k])]))
                  for k in range(n))
    t = (t1, t2, _drawn(t3), _drawn(t4a), _drawn(t4b))
    e = st.challenge(seed, chain, (*t, *t_hat))
    v = [1] * n  # v_k = Π_{i>k} u'_i
    for k in range(n - 2, -1, -1):
        v[k] = v[k + 1] * u_prime[k + 1] % ORDER
    s1 = (w[0] + e * sum(rho)) % ORDER
    s2 = (w[1] + e * sum(rh * vk for rh, vk in zip(r_hat, v, strict=True))) % ORDER
    s3 = (w[2] + e * sum(rj * uj for rj, uj in zip(rho, u, strict=True))) % ORDER
    s4 = (w[3] + e * sum(rk * uk for rk, uk in zip(r, u_prime, strict=True))) % ORDER
    s_hat = tuple((wh + e * rh) % ORDER for wh, rh in zip(w_hat, r_hat, strict=True))
    s_prime = tuple((wp + e * up) % ORDER for wp, up in zip(w_prime, u_prime, strict=True))
    return ShuffleProof(tuple(commitments), tuple(chain), t, t_hat, (s1, s2, s3, s4), s_hat,
                        s_prime)


def _drawn(t: Point | None) -> Point:
    """A prover's t: a sum with a fresh random nonce, infinity with probability 2^-256."""
    if t is None:
        raise AssertionError("a proof nonce summed to the point at infinity")
    return t


# --- verifier --------------------------------------------------------------------------


def verify_shuffle(st: Statement, proof: ShuffleProof) -> bool:
    """True when ``proof`` shows the outputs are a re-encryption shuffle of the inputs
    (remembered in ``MEMO`` once it passed)."""
    parts = (b"shuffle", st.tag, st.ctx.encode(), encode_point(st.joint), st.extra,
             _deck_bytes(st.inputs), _deck_bytes(st.outputs), proof.encode())
    return MEMO.check(parts, lambda: _verify_shuffle(st, proof))


def _batch_weights(e: int, proof: ShuffleProof) -> list[int]:
    """The verifier's weights for the N + 5 equations: 128-bit numbers hashed from e (which
    binds the statement and every point of the proof) and the responses, so they are
    fixed only once the whole proof is. If an equation fails, a single value of its
    weight among 2^128 makes the weighted sum vanish: a false proof passes with
    probability 2^-128 per try, as in the batch of 4.3."""
    seed = hashlib.sha256(b"lodam/v1/shuffle-batch\x00" + scalar_to_bytes(e)
                          + proof.encode_responses()).digest()
    return batch_weights(seed, len(proof.chain) + len(proof.t))


def _verify_shuffle(st: Statement, proof: ShuffleProof) -> bool:
    n = len(st.inputs)
    if not 1 <= n <= MAX_SIZE or len(st.outputs) != n or len(proof.commitments) != n \
            or len(proof.chain) != n or len(proof.t_hat) != n or len(proof.s_hat) != n \
            or len(proof.s_prime) != n or len(proof.t) != 5:
        return False
    seed, u = _u_challenges(st, proof.commitments)
    e = st.challenge(seed, proof.chain, (*proof.t, *proof.t_hat))
    return lincomb(_equations(st, proof, u, e), public=True) is None


def _equations(st: Statement, proof: ShuffleProof, u: Sequence[int], e: int) -> list[Term]:
    """Σ weight·(rebuilt t − sent t) over the N + 5 equations, as one sum of products
    (each point once): infinity exactly when every equation holds (but for 2^-128).

        t1  = s1·G − e·(Σ c_j − Σ h_k)             t2 = s2·G − e·ĉ_N + e·(Π u_j)·h
        t3  = s3·G + Σ s'_k·h_k − e·Σ u_j·c_j      t̂_k = ŝ_k·G + s'_k·ĉ_{k−1} − e·ĉ_k
        t4A = −s4·G + Σ s'_k·A'_k − e·Σ u_j·A_j    t4B = −s4·H + Σ s'_k·B'_k − e·Σ u_j·B_j
    """
    n = len(u)
    weights = _batch_weights(e, proof)
    a1, a2, a3, a4, a5 = weights[:5]
    beta = weights[5:]
    (s1, s2, s3, s4), sp = proof.s, proof.s_prime
    gens = generators(n)
    u_product = 1
    for uj in u:
        u_product = u_product * uj % ORDER
    g_scalar = a1 * s1 + a2 * s2 + a3 * s3 - a4 * s4
    g_scalar += sum(b * k for b, k in zip(beta, proof.s_hat, strict=True))
    terms: list[Term] = [(None, g_scalar), (gens[0], a2 * e * u_product + beta[0] * sp[0])]
    terms += [(hk, a1 * e + a3 * spk) for hk, spk in zip(gens[1 : n + 1], sp, strict=True)]
    terms += [(c, -e * (a1 + a3 * uj)) for c, uj in zip(proof.commitments, u, strict=True)]
    terms += [(c, beta[k + 1] * sp[k + 1] - beta[k] * e if k + 1 < n else -(beta[k] + a2) * e)
              for k, c in enumerate(proof.chain)]
    terms += [(o[0], a4 * spk) for o, spk in zip(st.outputs, sp, strict=True)]
    terms += [(o[1], a5 * spk) for o, spk in zip(st.outputs, sp, strict=True)]
    terms += [(i[0], -a4 * e * uj) for i, uj in zip(st.inputs, u, strict=True)]
    terms += [(i[1], -a5 * e * uj) for i, uj in zip(st.inputs, u, strict=True)]
    terms.append((st.joint, -a5 * s4))
    terms += [(t, -w) for t, w in zip((*proof.t, *proof.t_hat), weights, strict=True)]
    return terms
