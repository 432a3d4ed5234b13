"""Zero-knowledge argument of a re-encryption shuffle (Bayer–Groth, Eurocrypt 2012), the
``bg`` shuffle argument: the statement of ``shuffleproof`` (Terelius–Wikström), a proof
whose size grows with √N instead of N.

Statement (``shuffleproof.Statement``). Public: the key H, inputs w_j = (A_j, B_j) and
outputs w'_k, N of each. The prover knows π and r_k with

    w'_k = w_π(k) + (r_k·G, r_k·H)        for every k.

Arrangement. The N slots are laid out as m rows of n (m·n ≥ N, ``shape``), so that every
vector the argument commits to is m commitments to rows of n scalars (``bg_core``:
com(v; r) = r·G + Σ v_l·g_l). When m·n > N the statement is *padded*: inputs and
outputs both get m·n − N copies of the fixed ciphertext P = (G, G), and π fixes them
(r = 0). The verifier pads the same way. This is sound: the argument proves that the
padded outputs are a permutation of re-encryptions of the padded inputs, and
"is a re-encryption of" is an equivalence relation (Enc(0; r) is a group), so
subtracting the same P from each side, class by class, leaves a bijection between the
real outputs and the real inputs (a real output matched to a P of the inputs is
matched, through the P that took a real input's place, to that input).

The argument, in the order of the transcript (x, y, z, … are Fiat–Shamir challenges):

1. a_k = π(k) + 1 ∈ {1 … m·n}:  c_A,i = com(a row i; r_i)        — then x.
2. b_k = x^a_k = x^(π(k)+1):    c_B,i = com(b row i; s_i)        — then y, z.
3. Product argument (``bg_product``) on the rows P_i = y·a_i + b_i − z·1, whose
   commitments the verifier derives (y·c_A,i + c_B,i − z·Σ g_l) and never computes:
       Π_k (y·a_k + b_k − z) = Π_{i=1}^{m·n} (y·i + x^i − z).
   Both sides are polynomials of degree m·n in y and z that split into linear factors,
   so (but for a chance of about m·n/2^256, Schwartz–Zippel) the pairs (a_k, b_k) are
   the pairs (i, x^i) in some order: a is a permutation and b = x^a, with a fixed
   before x was known.
4. Multi-exponentiation argument (below) that, for ρ = −Σ r_k·b_k,
       Σ_j x^(j+1)·w_j = Enc(0; ρ) + Σ_k b_k·w'_k.
   Expanding w'_k gives Σ_k x^(π(k)+1)·(w'_k − w_π(k)) = Enc(0; −ρ): a polynomial in x
   whose coefficients were fixed before x, so each w'_k − w_π(k) is an encryption of 0
   (answers at m·n distinct x form a Vandermonde system that yields each one's r_k).

Multi-exponentiation argument (rows O_i of outputs, b rows committed as c_B,i, target C).
The prover adds a random row a_0 and scalars β_k, σ_k, τ_k for k = 0 … 2m−1 with
β_m = σ_m = 0 and τ_m = ρ, and sends

    c_A0 = com(a_0; r_0),   c_βk = com(β_k; σ_k),
    E_k = Enc(β_k·G; τ_k) + Σ_{i − j = m − k} O_i·a_j        (O·a = Σ_l a_l·O_l)

for every k ≠ m (E_m would be C itself, so neither E_m nor c_βm = com(0; 0) is sent).
After the challenge e it opens ā = a_0 + Σ e^i·b_i and the combined β, σ, τ, r, and the
verifier checks

    c_A0 + Σ e^i·c_B,i = com(ā; r̄),     Σ_{k≠m} e^k·c_βk = com(β̄; σ̄),
    Σ_{k≠m} e^k·E_k + e^m·C = Enc(β̄·G; τ̄) + Σ_i e^(m−i)·O_i·ā.

The last equation is a polynomial identity in e whose X^m coefficient is the claim.

What each challenge binds. The first transcript state hashes "lodam/v1/" ‖ tag ‖ "-bg",
the context (version, table, hand, proving seat), m, n, N, the generators' digest, H,
the statement's ``extra``, and every input and output; each later state hashes the one
before and the prover's new points, so every challenge binds the statement and all that
was sent before it. The batch weights hash the last state and the whole encoded proof.
The verifier checks all nine equations in one multi-scalar multiplication (``bg_core``).

Size: (11m + 2) points and (5n + 7) scalars; 52 cards as 4 × 13: 3,822 bytes (TW: 8,769).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from lodam_p2p.fairdeal.bg_core import (
    Batch,
    Form,
    Nonces,
    Term,
    Transcript,
    combine,
    commit,
    generators_digest,
    minus_opening,
    powers,
    row_generators,
    scalars_bytes,
    secret_sum,
    weighted,
)
from lodam_p2p.fairdeal.bg_product import (
    ProductProof,
    product_counts,
    product_equations,
    product_from_parts,
    prove_product,
)
from lodam_p2p.fairdeal.group import (
    ORDER,
    POINT_LEN,
    SCALAR_LEN,
    Entropy,
    Point,
    encode_point,
    generator,
    parse_point,
    scalar_from_bytes,
)
from lodam_p2p.fairdeal.memo import MEMO
from lodam_p2p.fairdeal.shuffle import Ciphertext, ShuffleSecret
from lodam_p2p.fairdeal.shuffleproof import Statement

#: The argument's name in the wire and in transcripts.
NAME = "bg"
#: Fewest and most ciphertexts one proof covers.
MIN_SIZE = 1
MAX_SIZE = 104
#: Most rows considered for the arrangement (the prover's work grows with m·N).
MAX_ROWS = 8


class ShuffleRefused(ValueError):
    """A Bayer–Groth proof that does not prove its statement."""


@dataclass(frozen=True, slots=True)
class MultiExpProof:
    """c_A0, c_βk and E_k (k ≠ m), and the openings ā, r̄, β̄, σ̄, τ̄."""

    a0: Point
    b: tuple[Point, ...]
    e: tuple[Ciphertext, ...]
    a: tuple[int, ...]
    r: int
    beta: int
    sigma: int
    tau: int

    def points(self) -> tuple[Point, ...]:
        """Points in wire order."""
        return (self.a0, *self.b, *(p for c in self.e for p in c))

    def scalars(self) -> tuple[int, ...]:
        """Scalars in wire order."""
        return (*self.a, self.r, self.beta, self.sigma, self.tau)


@dataclass(frozen=True, slots=True)
class BGProof:
    """A Bayer–Groth proof of shuffle (see the module doc)."""

    permutation: tuple[Point, ...]  #: c_A,1 … c_A,m
    exponents: tuple[Point, ...]  #: c_B,1 … c_B,m
    product: ProductProof
    multi: MultiExpProof

    def encode(self) -> bytes:
        """Every point (c_A, c_B, the product's, the multi-exponentiation's), then every
        scalar (the product's, the multi-exponentiation's)."""
        points = (*self.permutation, *self.exponents, *self.product.points(),
                  *self.multi.points())
        return (b"".join(encode_point(p) for p in points)
                + scalars_bytes((*self.product.scalars(), *self.multi.scalars())))


# --- shape, sizes and the codec ----------------------------------------------------------


def _counts(m: int, n: int) -> tuple[int, int]:
    return 11 * m + 2, 5 * n + 7


def _bytes(m: int, n: int) -> int:
    points, scalars = _counts(m, n)
    return points * POINT_LEN + scalars * SCALAR_LEN


@cache
def shape(count: int) -> tuple[int, int]:
    """(m, n): the m rows of n (n ≥ 2, m·n ≥ count) giving the shortest proof, fewest rows
    on a tie. ``ValueError`` outside MIN_SIZE … MAX_SIZE."""
    if not MIN_SIZE <= count <= MAX_SIZE:
        raise ValueError(f"a bg proof covers {MIN_SIZE} to {MAX_SIZE} ciphertexts, not {count}")
    options = [(m, max(2, -(-count // m))) for m in range(2, MAX_ROWS + 1)]
    return min(options, key=lambda mn: (_bytes(*mn), mn[0]))


def size(count: int) -> int:
    """Encoded bytes of a proof over ``count`` ciphertexts."""
    return _bytes(*shape(count))


def encode(proof: BGProof) -> bytes:
    """The proof's wire bytes."""
    return proof.encode()


def decode(data: bytes, count: int) -> BGProof:
    """Parse a proof over ``count`` ciphertexts; ``ValueError`` on a wrong length, a point
    off the curve or a scalar not below the group order."""
    m, n = shape(count)
    if len(data) != _bytes(m, n):
        raise ValueError(f"a bg proof over {count} ciphertexts is {_bytes(m, n)} bytes")
    n_points, _ = _counts(m, n)
    end = n_points * POINT_LEN
    points = [parse_point(data[i : i + POINT_LEN]) for i in range(0, end, POINT_LEN)]
    scalars = [scalar_from_bytes(data[i : i + SCALAR_LEN], nonzero=False)
               for i in range(end, len(data), SCALAR_LEN)]
    product_points, product_scalars = product_counts(m, n)
    product = product_from_parts(points[2 * m : 2 * m + product_points],
                                 scalars[:product_scalars], m, n)
    rest, tail = points[2 * m + product_points :], scalars[product_scalars:]
    e = tuple((rest[i], rest[i + 1]) for i in range(2 * m, len(rest), 2))
    multi = MultiExpProof(rest[0], tuple(rest[1 : 2 * m]), e, tuple(tail[:n]), *tail[n:])
    return BGProof(tuple(points[:m]), tuple(points[m : 2 * m]), product, multi)


def _fits(proof: BGProof, m: int, n: int) -> bool:
    """Whether every part of ``proof`` has the length the shape (m, n) gives it."""
    z, s, x = proof.product.zero, proof.product.single, proof.multi
    lengths = (len(proof.permutation), len(proof.exponents), len(proof.product.steps),
               len(z.d), len(z.a), len(z.b), len(s.a), len(s.b), len(x.b), len(x.e), len(x.a))
    return lengths == (m, m, m - 2, 2 * m, n, n, n, n - 2, 2 * m - 1, 2 * m - 1, n)


# --- the statement, padded -------------------------------------------------------------


def _pad() -> Ciphertext:
    """P = (G, G): the ciphertext that fills the slots beyond N on both sides."""
    g = generator()
    return g, g


def _padded(deck: Sequence[Ciphertext], total: int) -> list[Ciphertext]:
    return [*deck, *([_pad()] * (total - len(deck)))]


def _deck_rows(deck: Sequence[Ciphertext], m: int, n: int) -> list[list[Ciphertext]]:
    """The padded deck as m rows of n."""
    padded = _padded(deck, m * n)
    return [padded[i * n : (i + 1) * n] for i in range(m)]


def _deck_bytes(deck: Sequence[Ciphertext]) -> bytes:
    return b"".join(encode_point(a) + encode_point(b) for a, b in deck)


def _transcript(st: Statement, m: int, n: int) -> Transcript:
    head = (b"lodam/v1/" + st.tag + b"-bg\x00" + st.ctx.encode()
            + struct.pack(">BBH", m, n, len(st.inputs)) + generators_digest()
            + encode_point(st.joint) + struct.pack(">H", len(st.extra)) + st.extra
            + _deck_bytes(st.inputs) + _deck_bytes(st.outputs))
    return Transcript(head)


def _rows(values: Sequence[int], n: int) -> list[list[int]]:
    return [list(values[i : i + n]) for i in range(0, len(values), n)]


def _target_value(x: int, y: int, z: int, total: int) -> int:
    """Π_{i=1}^{m·n} (y·i + x^i − z)."""
    value, xi = 1, 1
    for i in range(1, total + 1):
        xi = xi * x % ORDER
        value = value * (y * i + xi - z) % ORDER
    return value


# --- prover -----------------------------------------------------------------------------


def prove(st: Statement, secret: ShuffleSecret, entropy: Entropy) -> BGProof:
    """Prove that the statement's outputs are its inputs shuffled with ``secret`` (π, r).
    Deterministic given ``entropy``; every product with a secret runs in constant time."""
    count = len(st.inputs)
    m, n = shape(count)
    total = m * n
    pi = [*secret.permutation, *range(count, total)]  # the padding stays in place
    r = [*secret.randomness, *([0] * (total - count))]
    witness = b"".join(struct.pack(">H", p) for p in pi) + scalars_bytes(r)
    nonces = Nonces(entropy, witness, st.ctx.encode() + _deck_bytes(st.outputs))
    tr = _transcript(st, m, n)
    a = [p + 1 for p in pi]
    r_a = nonces.scalars(m)
    c_a = tuple(commit(row, blind) for row, blind in zip(_rows(a, n), r_a, strict=True))
    tr.absorb(b"bg-permutation", c_a)  # c_A,i = com(a_i; r_i)
    xs = powers(tr.challenge(b"x"), total + 1)
    b = [xs[v] for v in a]  # b_k = x^(π(k)+1)
    s_b = nonces.scalars(m)
    b_rows = _rows(b, n)
    c_b = tuple(commit(row, blind) for row, blind in zip(b_rows, s_b, strict=True))
    tr.absorb(b"bg-exponents", c_b)  # c_B,i = com(b_i; s_i)
    y, z = tr.challenge(b"y"), tr.challenge(b"z")
    p_rows = [[(y * av + bv - z) % ORDER for av, bv in zip(ar, br, strict=True)]
              for ar, br in zip(_rows(a, n), b_rows, strict=True)]
    p_blinds = [(y * ra + sb) % ORDER for ra, sb in zip(r_a, s_b, strict=True)]
    product = prove_product(tr, p_rows, p_blinds, nonces)
    rho = -weighted(r, b) % ORDER  # ρ = −Σ r_k·b_k
    out_rows = _deck_rows(st.outputs, m, n)
    multi = _prove_multi(tr, out_rows, b_rows, b_blinds=s_b, rho=rho, joint=st.joint,
                         nonces=nonces)
    return BGProof(c_a, c_b, product, multi)


def _prove_multi(tr: Transcript, out_rows: list[list[Ciphertext]], b_rows: list[list[int]], *,
                 b_blinds: Sequence[int], rho: int, joint: Point,
                 nonces: Nonces) -> MultiExpProof:
    m, n = len(b_rows), len(b_rows[0])
    a_rows = [nonces.scalars(n), *b_rows]  # a_0 random, a_j = b row j
    r0 = nonces.scalar()
    betas, sigmas, taus = nonces.scalars(2 * m), nonces.scalars(2 * m), nonces.scalars(2 * m)
    betas[m], sigmas[m], taus[m] = 0, 0, rho
    ks = [k for k in range(2 * m) if k != m]
    c_a0 = commit(a_rows[0], r0)
    c_betas = tuple(commit([betas[k]], sigmas[k]) for k in ks)
    ciphers = []
    for k in ks:  # E_k = Enc(β_k·G; τ_k) + Σ_{j = k − m + i} O_i·a_j
        a_terms: list[Term] = [(None, taus[k])]
        b_terms: list[Term] = [(None, betas[k]), (joint, taus[k])]
        for i in range(1, m + 1):
            j = k - m + i
            if 0 <= j <= m:
                for (oa, ob), v in zip(out_rows[i - 1], a_rows[j], strict=True):
                    a_terms.append((oa, v))
                    b_terms.append((ob, v))
        ciphers.append((secret_sum(a_terms), secret_sum(b_terms)))
    tr.absorb(b"bg-multi", [c_a0, *c_betas, *(p for c in ciphers for p in c)])
    es = powers(tr.challenge(b"multi-e"), 2 * m)
    return MultiExpProof(
        c_a0, c_betas, tuple(ciphers), tuple(combine(a_rows, es[: m + 1])),
        (r0 + weighted(b_blinds, es[1 : m + 1])) % ORDER, weighted(betas, es),
        weighted(sigmas, es), weighted(taus, es))


# --- verifier ---------------------------------------------------------------------------


def verify(st: Statement, proof: BGProof) -> None:
    """Check ``proof`` against ``st``; raise ``ShuffleRefused`` (a ``ValueError``) unless it
    shows the outputs are a re-encryption shuffle of the inputs."""
    if not verifies(st, proof):
        raise ShuffleRefused("the bg proof of shuffle fails: the new ciphertexts are not "
                             "a re-encryption of the old ones")


def verifies(st: Statement, proof: BGProof) -> bool:
    """True when ``proof`` shows the statement (remembered in ``MEMO`` once it passed)."""
    parts = (b"bg", st.tag, st.ctx.encode(), encode_point(st.joint), st.extra,
             _deck_bytes(st.inputs), _deck_bytes(st.outputs), proof.encode())
    return MEMO.check(parts, lambda: _holds(st, proof))


def _holds(st: Statement, proof: BGProof) -> bool:
    count = len(st.inputs)
    if not MIN_SIZE <= count <= MAX_SIZE or len(st.outputs) != count:
        return False
    m, n = shape(count)
    if not _fits(proof, m, n):
        return False
    total = m * n
    tr = _transcript(st, m, n)
    tr.absorb(b"bg-permutation", proof.permutation)
    xs = powers(tr.challenge(b"x"), total + 1)
    tr.absorb(b"bg-exponents", proof.exponents)
    y, z = tr.challenge(b"y"), tr.challenge(b"z")
    minus_z = [(g, -z % ORDER) for g in row_generators()[:n]]
    forms: list[Form] = [[(ca, y), (cb, 1), *minus_z]  # com(P_i) = y·c_A,i + c_B,i − z·Σ g_l
             for ca, cb in zip(proof.permutation, proof.exponents, strict=True)]
    batch = Batch()
    product_equations(tr, forms, _target_value(xs[1], y, z, total), proof.product, batch)
    inputs = _padded(st.inputs, total)
    # C = Σ x^(j+1)·w_j, one form per side
    target: tuple[Form, Form] = ([(w[0], xs[j + 1]) for j, w in enumerate(inputs)],
                                 [(w[1], xs[j + 1]) for j, w in enumerate(inputs)])
    out_rows = _deck_rows(st.outputs, m, n)
    _multi_equations(tr, proof, out_rows, target=target, joint=st.joint, batch=batch)
    seed = hashlib.sha256(b"lodam/v1/bg-batch\x00" + tr.state + proof.encode()).digest()
    return batch.holds(seed)


def _multi_equations(tr: Transcript, proof: BGProof, out_rows: list[list[Ciphertext]], *,
                     target: tuple[Form, Form], joint: Point, batch: Batch) -> None:
    p = proof.multi
    m = len(out_rows)
    tr.absorb(b"bg-multi", p.points())
    es = powers(tr.challenge(b"multi-e"), 2 * m + 1)
    ks = [k for k in range(2 * m) if k != m]
    # c_A0 + Σ e^i·c_B,i = com(ā; r̄)
    batch.add([(p.a0, 1)], [(c, es[i + 1]) for i, c in enumerate(proof.exponents)],
              minus_opening(p.a, p.r))
    # Σ_{k≠m} e^k·c_βk = com(β̄; σ̄)
    batch.add([(c, es[k]) for c, k in zip(p.b, ks, strict=True)],
              minus_opening([p.beta], p.sigma))
    # Σ_{k≠m} e^k·E_k + e^m·C − Enc(β̄·G; τ̄) − Σ_i e^(m−i)·O_i·ā = 0, one side at a time
    for side in (0, 1):
        outs = [(o[side], -es[m - i] * v % ORDER)
                for i, row in enumerate(out_rows, 1) for o, v in zip(row, p.a, strict=True)]
        enc: Form = [(None, -p.tau)] if side == 0 else [(None, -p.beta), (joint, -p.tau)]
        batch.add([(c[side], es[k]) for c, k in zip(p.e, ks, strict=True)],
                  [(q, es[m] * w % ORDER) for q, w in target[side]], enc, outs)


# --- as a shuffle argument (``arguments.ShuffleArgument``) ------------------------------


class BayerGroth:
    """Bayer–Groth 2012 as a plug-in shuffle argument: ``verify`` answers True or False
    (never raises), as ``arguments.ShuffleArgument`` asks."""

    name = NAME
    title = "Bayer–Groth 2012 (product and multi-exponentiation arguments), O(√N) bytes"
    max_size = MAX_SIZE

    def prove(self, statement: Statement, secret: ShuffleSecret, entropy: Entropy) -> BGProof:
        """See :func:`prove`."""
        return prove(statement, secret, entropy)

    def verify(self, statement: Statement, proof: object) -> bool:
        """See :func:`verifies`; anything but a :class:`BGProof` is refused."""
        return isinstance(proof, BGProof) and verifies(statement, proof)

    def encode(self, proof: object) -> bytes:
        """See :func:`encode`."""
        if not isinstance(proof, BGProof):
            raise TypeError("not a Bayer–Groth proof")
        return proof.encode()

    def decode(self, data: bytes, n: int) -> BGProof:
        """See :func:`decode`."""
        return decode(data, n)

    def size(self, n: int) -> int:
        """See :func:`size`."""
        return size(n)


#: The value an entry point (or ``arguments.BUNDLED``) names: ``bayergroth:ARGUMENT``.
ARGUMENT = BayerGroth()
