"""Private transfer: a card handed from one seat to another by a public key switch.

Why it works. Once the deal is in, every seat but a position's holder has published
its share of the position, so the card is in effect encrypted under the holder's hand
key alone: the *held form* of a position j dealt to seat g is

    (α, β) = (A_j, B_j − Σ_{i≠g} D_ij)      with β = M + x_g·α,

and a re-masked position is kept in that form from the start (remask.py). To hand the
card to seat t, g re-encrypts it under t's key, with a fresh ρ:

    α' = ρ·G,    β' = β − x_g·α + ρ·X_t      (so β' = M + ρ·X_t),

and publishes (α', β') with a proof that it did exactly that: it knows x_g and ρ with

    X_g = x_g·G,    α' = ρ·G,    β' − β = ρ·X_t − x_g·α.

A Schnorr-style proof of the three linear relations (nonces k, q; commitments
R1 = k·G, R2 = q·G, R3 = q·X_t − k·α; challenge c over the statement and the R's;
responses s = k + c·x_g and u = q + c·ρ), sent as (c, s, u): 96 bytes. Every seat
checks it on arrival, so a transfer can hand over nothing but the card at the position
named, and nobody has to trust what only the receiver could see. The receiver decrypts
M = β' − x_t·α'; nobody else can (that is DDH on α', X_t). The new ciphertext becomes
a position of its own (numbered like a re-mask's, remask.py), held by the receiver
under its key alone. It is never revealed as it is: the receiver re-masks it into its
holding first (so nobody can tell which later card it was), or, after a void exchange,
leaves it alone.

Nobody publishes a share for it, ever: the only shares a seat publishes are its deal
shares of the proven final deck and its own share of a card it plays, so no message
of any seat can make an honest seat decrypt a ciphertext chosen by someone else.
"""

from __future__ import annotations

from dataclasses import dataclass

from lodam_p2p.fairdeal.group import (
    ORDER,
    SCALAR_LEN,
    Entropy,
    Point,
    add,
    base_mul,
    base_mul_add,
    encode_point,
    msm,
    mul,
    random_scalar,
    scalar_from_bytes,
    scalar_to_bytes,
    sub,
)
from lodam_p2p.fairdeal.memo import MEMO
from lodam_p2p.fairdeal.proofs import Context, challenge, hedged_nonce
from lodam_p2p.fairdeal.shuffle import Ciphertext

#: Fiat–Shamir tag of the key-switch proof.
SWITCH_TAG = b"switch"
#: Bytes of an encoded proof: c ‖ s ‖ u.
SWITCH_PROOF_LEN = 3 * SCALAR_LEN


@dataclass(frozen=True, slots=True)
class SwitchProof:
    """A proof that a ciphertext re-encrypts a held card from one seat's key to
    another's (see the module docstring): challenge ``c``, responses ``s`` (for the
    giver's hand key) and ``u`` (for the fresh ρ)."""

    c: int
    s: int
    u: int

    def encode(self) -> bytes:
        """c ‖ s ‖ u, 96 bytes."""
        return scalar_to_bytes(self.c) + scalar_to_bytes(self.s) + scalar_to_bytes(self.u)

    @classmethod
    def decode(cls, data: bytes) -> SwitchProof:
        """Parse c ‖ s ‖ u (``ValueError`` unless canonical; c may be zero)."""
        if len(data) != SWITCH_PROOF_LEN:
            raise ValueError(f"a key-switch proof is {SWITCH_PROOF_LEN} bytes")
        return cls(scalar_from_bytes(data[:32], nonzero=False), scalar_from_bytes(data[32:64]),
                   scalar_from_bytes(data[64:]))


@dataclass(frozen=True, slots=True)
class Switch:
    """What a key-switch proof is about: the card at ``position`` held by the prover in
    ``held`` form under ``giver`` (its hand key), re-encrypted to ``receiver`` (seat
    ``to``'s hand key) as ``new``."""

    ctx: Context
    position: int
    to: int
    giver: Point
    receiver: Point
    held: Ciphertext
    new: Ciphertext

    def inputs(self) -> tuple[bytes, ...]:
        """The statement as it enters the challenge: u16 position ‖ u8 to ‖ X_g ‖ X_t ‖
        α ‖ β ‖ α' ‖ β'."""
        return (self.position.to_bytes(2, "big") + bytes([self.to]),
                *(encode_point(p) for p in (self.giver, self.receiver, *self.held, *self.new)))


def switch_key(held: Ciphertext, share: Point, receiver: Point,
               entropy: Entropy) -> tuple[Ciphertext, int]:
    """The held card re-encrypted under ``receiver`` with a fresh ρ, given the giver's
    own share D = x_g·α: (ρ·G, β − D + ρ·X_t), and ρ (constant time in ρ)."""
    rho = random_scalar(entropy)
    return (base_mul(rho), add(sub(held[1], share), mul(receiver, rho))), rho


def prove_switch(st: Switch, x: int, rho: int, entropy: Entropy) -> SwitchProof:
    """Prove the switch with the giver's hand key ``x`` and the switch's ``rho``."""
    public = st.inputs()
    k = hedged_nonce(SWITCH_TAG, x, entropy, *public)
    q = hedged_nonce(SWITCH_TAG, rho, entropy, *public)
    r1, r2 = base_mul(k), base_mul(q)
    r3 = sub(mul(st.receiver, q), mul(st.held[0], k))
    c = challenge(SWITCH_TAG, st.ctx, *public, *(encode_point(r) for r in (r1, r2, r3)))
    return SwitchProof(c, (k + c * x) % ORDER, (q + c * rho) % ORDER)


def verify_switch(st: Switch, proof: SwitchProof) -> bool:
    """True when ``proof`` shows ``st.new`` re-encrypts the held card to the receiver
    (remembered in ``MEMO`` once it passed)."""
    parts = (b"switch", st.ctx.encode(), *st.inputs(), proof.encode())
    return MEMO.check(parts, lambda: _verify_switch(st, proof))


def _verify_switch(st: Switch, proof: SwitchProof) -> bool:
    c, s, u = proof.c, proof.s, proof.u
    (alpha, beta), (alpha2, beta2) = st.held, st.new
    try:
        r1 = base_mul_add(s, ORDER - c, st.giver)  # s·G − c·X_g
        r2 = base_mul_add(u, ORDER - c, alpha2)  # u·G − c·α'
        # u·X_t − s·α − c·(β' − β)
        r3 = msm([st.receiver, alpha, beta2, beta], [u, ORDER - s, ORDER - c, c])
    except ValueError:
        return False
    if r3 is None:  # infinity: no honest R3 (a fresh nonce's) ever is
        return False
    return c == challenge(SWITCH_TAG, st.ctx, *st.inputs(),
                          *(encode_point(r) for r in (r1, r2, r3)))

