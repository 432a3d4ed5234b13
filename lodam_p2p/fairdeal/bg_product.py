"""The product argument of Bayer–Groth 2012: committed rows P_1 … P_m (n entries each)
whose m·n entries multiply to a public value v.

Three layers, each a Σ-protocol made non-interactive on the shared transcript:

1. Columns. The prover commits to u = P_1 ∘ P_2 ∘ … ∘ P_m (entrywise products):
   ``c_u = com(u; t_u)``. Then Π_l u_l = Π of every entry = v.
2. Hadamard argument that u really is that product. The running products
   b_1 = P_1, b_j = b_{j−1} ∘ P_j, b_m = u are committed (c_{b_1} = c_{P_1} and
   c_{b_m} = c_u are known already, so m − 2 new points). After challenges x, y it
   reduces to a *zero argument*:  Σ_{i<m} P_{i+1} ⋆ (x^i·b_i) − 1 ⋆ Σ_{i<m} x^i·b_{i+1} = 0,
   where a ⋆ b = Σ_l a_l·b_l·y^l. Each step b_{i+1} = b_i ∘ P_{i+1} makes one term of the
   first sum equal one of the second; a false step survives random x, y only by chance.
3. Zero argument (rows A_1 … A_m, B_1 … B_m committed; claim Σ A_i ⋆ B_i = 0). Random
   rows A_0, B_{m+1} are added; the prover commits to the coefficients d_k of
   a(X) ⋆ b(X), a(X) = Σ_{i=0}^{m} X^i·A_i, b(X) = Σ_{j=1}^{m+1} X^{m+1−j}·B_j; the
   coefficient of X^{m+1} is the claimed sum, so its commitment is *not sent*: the
   verifier uses com(0; 0) = nothing. After the challenge e the prover opens a(e), b(e)
   and the verifier checks the three commitments: Σ e^i·c_{A_i} = com(a; r),
   Σ e^{m+1−j}·c_{B_j} = com(b; s), Σ e^k·c_{D_k} = com(a ⋆ b; t).
4. Single-value product argument that Π_l u_l = v: with partial products
   β_l = u_1 ⋯ u_l, blinds d (row) and δ (δ_1 = d_1, δ_n = 0), the prover commits
   c_d = com(d), c_δ = com(−δ_l·d_{l+1}), c_Δ = com(δ_{l+1} − u_{l+1}·δ_l − β_l·d_{l+1}),
   and after a challenge e' opens ã = e'·u + d and β̃ = e'·β + δ. The verifier fixes
   β̃_1 = ã_1 and β̃_n = e'·v and checks e'·c_Δ + c_δ = com(e'·β̃_{l+1} − β̃_l·ã_{l+1});
   the e'² term of that row is e'²·(β_{l+1} − β_l·u_{l+1}), zero exactly when each
   partial product follows from the one before.

Messages: c_u and the m − 2 Hadamard points, then (challenges x, y) the zero argument's
c_{A_0}, c_{B_{m+1}}, 2m points c_{D_k} and the single-value c_d, c_δ, c_Δ, then
(challenges e, e') the openings: 3m + 4 points and 4n + 3 scalars (β̃_1 and β̃_n are not
sent: the verifier knows them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lodam_p2p.fairdeal.bg_core import (
    Batch,
    Form,
    Nonces,
    Transcript,
    combine,
    commit,
    minus_opening,
    powers,
    row_generators,
    scaled,
    star,
    weighted,
)
from lodam_p2p.fairdeal.group import ORDER, Point


@dataclass(frozen=True, slots=True)
class ZeroProof:
    """The zero argument's messages: c_{A_0}, c_{B_{m+1}}, the c_{D_k} (k ≠ m+1) and the
    openings a, b, r, s, t."""

    a0: Point
    b_last: Point
    d: tuple[Point, ...]
    a: tuple[int, ...]
    b: tuple[int, ...]
    r: int
    s: int
    t: int


@dataclass(frozen=True, slots=True)
class SingleProof:
    """The single-value product argument's c_d, c_δ, c_Δ and openings ã, β̃_2 … β̃_{n−1},
    r̃, s̃."""

    d: Point
    delta: Point
    big_delta: Point
    a: tuple[int, ...]
    b: tuple[int, ...]
    r: int
    s: int


@dataclass(frozen=True, slots=True)
class ProductProof:
    """c_u, the Hadamard argument's running products and its zero argument, and the
    single-value argument on c_u."""

    column: Point
    steps: tuple[Point, ...]
    zero: ZeroProof
    single: SingleProof

    def points(self) -> tuple[Point, ...]:
        """Points in wire order."""
        z, s = self.zero, self.single
        return (self.column, *self.steps, z.a0, z.b_last, *z.d, s.d, s.delta, s.big_delta)

    def scalars(self) -> tuple[int, ...]:
        """Scalars in wire order."""
        z, s = self.zero, self.single
        return (*z.a, *z.b, z.r, z.s, z.t, *s.a, *s.b, s.r, s.s)


def product_counts(m: int, n: int) -> tuple[int, int]:
    """(points, scalars) of a product proof over m rows of n."""
    return 3 * m + 4, 4 * n + 3


def product_from_parts(points: Sequence[Point], scalars: Sequence[int], m: int,
                       n: int) -> ProductProof:
    """Rebuild a product proof from its wire points and scalars (counts already checked)."""
    steps = tuple(points[1 : m - 1])
    z0 = m - 1
    zero_points = points[z0 : z0 + 2 * m + 2]
    sp = points[z0 + 2 * m + 2 :]
    zero = ZeroProof(zero_points[0], zero_points[1], tuple(zero_points[2:]),
                     tuple(scalars[:n]), tuple(scalars[n : 2 * n]), *scalars[2 * n : 2 * n + 3])
    rest = scalars[2 * n + 3 :]
    single = SingleProof(sp[0], sp[1], sp[2], tuple(rest[:n]), tuple(rest[n : 2 * n - 2]),
                         rest[2 * n - 2], rest[2 * n - 1])
    return ProductProof(points[0], steps, zero, single)


# --- prover -----------------------------------------------------------------------------


def prove_product(tr: Transcript, rows: Sequence[Sequence[int]], blinds: Sequence[int],
                  nonces: Nonces) -> ProductProof:
    """Prove that the rows committed as com(P_i; blinds_i) multiply to Π of all entries."""
    m, n = len(rows), len(rows[0])
    chain = [list(rows[0])]  # b_1 = P_1, b_j = b_{j−1} ∘ P_j
    for row in rows[1:]:
        chain.append([p * q % ORDER for p, q in zip(chain[-1], row, strict=True)])
    chain_blinds = [blinds[0], *nonces.scalars(m - 1)]
    column = commit(chain[-1], chain_blinds[-1])  # c_u = com(u; t_u)
    steps = tuple(commit(chain[j], chain_blinds[j]) for j in range(1, m - 1))
    tr.absorb(b"bg-product", [column, *steps])
    xs = powers(tr.challenge(b"hadamard-x"), m)
    ys = powers(tr.challenge(b"hadamard-y"), n + 1)[1:]
    # the zero argument's rows: A = (P_2 … P_m, −1), B = (x·b_1 … x^{m−1}·b_{m−1}, Σ x^i·b_{i+1})
    lefts = [list(r) for r in rows[1:]] + [[ORDER - 1] * n]
    left_blinds = [*blinds[1:], 0]
    rights = [[xs[i + 1] * v % ORDER for v in chain[i]] for i in range(m - 1)]
    right_blinds = [xs[i + 1] * chain_blinds[i] % ORDER for i in range(m - 1)]
    rights.append(combine(chain[1:], xs[1:m]))
    right_blinds.append(weighted(chain_blinds[1:], xs[1:m]))
    zero = _ZeroProver(lefts, left_blinds, rights, right_blinds, ys=ys, nonces=nonces)
    single = _SingleProver(chain[-1], chain_blinds[-1], nonces)
    tr.absorb(b"bg-zero", zero.first)
    tr.absorb(b"bg-single", single.first)
    return ProductProof(column, steps, zero.answer(tr.challenge(b"zero-e")),
                        single.answer(tr.challenge(b"single-e")))


class _ZeroProver:
    """The zero argument's prover between its first message and the challenge."""

    def __init__(self, lefts: list[list[int]], left_blinds: list[int], rights: list[list[int]],
                 right_blinds: list[int], *, ys: Sequence[int], nonces: Nonces) -> None:
        m, n = len(lefts), len(lefts[0])
        self.a_rows = [nonces.scalars(n), *lefts]  # A_0 … A_m
        self.a_blinds = [nonces.scalar(), *left_blinds]
        self.b_rows = [*rights, nonces.scalars(n)]  # B_1 … B_{m+1}
        self.b_blinds = [*right_blinds, nonces.scalar()]
        d = [0] * (2 * m + 1)  # d_k: coefficient of X^k in a(X) ⋆ b(X)
        for i, a_row in enumerate(self.a_rows):
            for j, b_row in enumerate(self.b_rows):  # B_{j+1} carries X^{m−j}
                d[i + m - j] = (d[i + m - j] + star(a_row, b_row, ys)) % ORDER
        self.d_blinds = nonces.scalars(2 * m + 1)
        self.d_blinds[m + 1] = 0  # d_{m+1} = Σ A_i ⋆ B_i = 0: com(0; 0) is not sent
        self.first = [commit(self.a_rows[0], self.a_blinds[0]),
                      commit(self.b_rows[-1], self.b_blinds[-1])]
        self.first += [commit([d[k]], self.d_blinds[k]) for k in range(2 * m + 1) if k != m + 1]

    def answer(self, e: int) -> ZeroProof:
        m = len(self.a_rows) - 1
        es = powers(e, 2 * m + 1)
        b_weights = es[m::-1]  # B_{j+1} weighs e^{m−j}
        return ZeroProof(
            self.first[0], self.first[1], tuple(self.first[2:]),
            tuple(combine(self.a_rows, es[: m + 1])), tuple(combine(self.b_rows, b_weights)),
            weighted(self.a_blinds, es[: m + 1]), weighted(self.b_blinds, b_weights),
            weighted(self.d_blinds, es))


class _SingleProver:
    """The single-value product argument's prover for Π u_l (u committed with ``blind``)."""

    def __init__(self, u: list[int], blind: int, nonces: Nonces) -> None:
        n = len(u)
        self.u, self.blind = u, blind
        self.partial = [u[0]]
        for v in u[1:]:
            self.partial.append(self.partial[-1] * v % ORDER)
        self.d = nonces.scalars(n)
        self.delta = [self.d[0], *nonces.scalars(n - 2), 0]
        self.r_d, self.s1, self.sx = nonces.scalars(3)
        d, delta, b = self.d, self.delta, self.partial
        self.first = [
            commit(d, self.r_d),
            commit([-delta[q] * d[q + 1] % ORDER for q in range(n - 1)], self.s1),
            commit([(delta[q + 1] - u[q + 1] * delta[q] - b[q] * d[q + 1]) % ORDER
                    for q in range(n - 1)], self.sx),
        ]

    def answer(self, e: int) -> SingleProof:
        n = len(self.u)
        a = tuple((e * v + dv) % ORDER for v, dv in zip(self.u, self.d, strict=True))
        b = tuple((e * v + dv) % ORDER for v, dv in zip(self.partial, self.delta, strict=True))
        return SingleProof(self.first[0], self.first[1], self.first[2], a, b[1 : n - 1],
                           (e * self.blind + self.r_d) % ORDER, (e * self.sx + self.s1) % ORDER)


# --- verifier ---------------------------------------------------------------------------


def product_equations(tr: Transcript, forms: Sequence[Form], value: int, proof: ProductProof,
                      batch: Batch) -> None:
    """Add to ``batch`` the equations of a product proof that the rows behind ``forms``
    (commitment forms) multiply to ``value``."""
    m, n = len(forms), len(proof.single.a)
    tr.absorb(b"bg-product", [proof.column, *proof.steps])
    xs = powers(tr.challenge(b"hadamard-x"), m)
    ys = powers(tr.challenge(b"hadamard-y"), n + 1)[1:]
    chain: list[Form] = [forms[0], *([(s, 1)] for s in proof.steps), [(proof.column, 1)]]
    lefts: list[Form] = [*forms[1:], [(g, ORDER - 1) for g in row_generators()[:n]]]  # c_{−1}
    rights: list[Form] = [scaled(chain[i], xs[i + 1]) for i in range(m - 1)]
    rights.append([t for i in range(m - 1) for t in scaled(chain[i + 1], xs[i + 1])])
    z, s = proof.zero, proof.single
    tr.absorb(b"bg-zero", [z.a0, z.b_last, *z.d])
    tr.absorb(b"bg-single", [s.d, s.delta, s.big_delta])
    _zero_equations(tr.challenge(b"zero-e"), lefts, rights, z, ys=ys, batch=batch)
    _single_equations(tr.challenge(b"single-e"), proof.column, value, s, batch)


def _zero_equations(e: int, lefts: Sequence[Form], rights: Sequence[Form], z: ZeroProof, *,
                    ys: Sequence[int], batch: Batch) -> None:
    m = len(lefts)
    es = powers(e, 2 * m + 1)
    # Σ_{i=0}^{m} e^i·c_{A_i} = com(a; r)
    batch.add([(z.a0, 1)], *(scaled(f, es[i + 1]) for i, f in enumerate(lefts)),
              minus_opening(z.a, z.r))
    # Σ_{j=1}^{m+1} e^{m+1−j}·c_{B_j} = com(b; s)
    batch.add(*(scaled(f, es[m - j]) for j, f in enumerate(rights)), [(z.b_last, 1)],
              minus_opening(z.b, z.s))
    # Σ_{k≠m+1} e^k·c_{D_k} = com(a ⋆ b; t)
    ks = [k for k in range(2 * m + 1) if k != m + 1]
    batch.add([(d, es[k]) for d, k in zip(z.d, ks, strict=True)],
              minus_opening([star(z.a, z.b, ys)], z.t))


def _single_equations(e: int, column: Point, value: int, s: SingleProof, batch: Batch) -> None:
    n = len(s.a)
    b = [s.a[0], *s.b, e * value % ORDER]  # β̃_1 = ã_1, β̃_n = e'·v
    # e'·c_u + c_d = com(ã; r̃)
    batch.add([(column, e), (s.d, 1)], minus_opening(s.a, s.r))
    # e'·c_Δ + c_δ = com(e'·β̃_{l+1} − β̃_l·ã_{l+1}; s̃)
    rows = [(e * b[q + 1] - b[q] * s.a[q + 1]) % ORDER for q in range(n - 1)]
    batch.add([(s.big_delta, e), (s.delta, 1)], minus_opening(rows, s.s))
