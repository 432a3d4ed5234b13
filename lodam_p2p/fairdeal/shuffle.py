"""The encrypted deck and the commit/reveal shuffle.

ElGamal over the joint key H = Σ X_i: card point M encrypts as (A, B) = (r·G, M + r·H).
The starting deck is the public, unblinded (G, M_c + H) for c = 0 … K−1 in order.

A shuffle by one seat permutes the deck and re-randomises every ciphertext:

    new[k] = (A_π(k) + r_k·G,  B_π(k) + r_k·H)

so new[k] decrypts to the card of old[π(k)] and, without the r_k, looks unrelated to it.
The seat publishes the new deck with the commitment

    SHA-256("lodam/v1/shuffle" ‖ 0x00 ‖ context ‖ π (one byte per entry) ‖ r_0 … r_{K−1} ‖ salt)

with a zero-knowledge proof of shuffle (``shuffleproof.py``) that every seat checks on
arrival, and opens (π, r, salt) at the end-of-hand audit, where every seat re-derives
the new deck from the old one as a second line (and the only one at a table that plays
without proofs): see SPEC.md, "Threat model".
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from lodam_p2p.fairdeal.group import (
    ORDER,
    Entropy,
    Point,
    add,
    base_mul,
    card_points,
    generator,
    mul,
    mul_public,
    random_scalar,
    rerandomises,
    scalar_to_bytes,
)
from lodam_p2p.fairdeal.proofs import Context

#: (A, B): one ElGamal ciphertext.
Ciphertext = tuple[Point, Point]
Deck = tuple[Ciphertext, ...]


@dataclass(frozen=True, slots=True)
class ShuffleSecret:
    """One seat's shuffle: permutation π, re-randomisers r_k and the commitment salt."""

    permutation: tuple[int, ...]
    randomness: tuple[int, ...]
    salt: bytes


def starting_deck(joint_key: Point, deck_size: int) -> Deck:
    """(G, M_c + H) for every card c, in card order."""
    g = generator()
    return tuple((g, add(m, joint_key)) for m in card_points(deck_size))


def _uniform_below(bound: int, entropy: Entropy) -> int:
    # Rejection sampling on 2 bytes: exact uniformity for bound ≤ 256.
    limit = 65536 - 65536 % bound
    while True:
        value = int.from_bytes(entropy(2), "big")
        if value < limit:
            return value % bound


def random_permutation(size: int, entropy: Entropy) -> tuple[int, ...]:
    """A uniform permutation of range(size) by Fisher–Yates."""
    items = list(range(size))
    for i in range(size - 1, 0, -1):
        j = _uniform_below(i + 1, entropy)
        items[i], items[j] = items[j], items[i]
    return tuple(items)


def draw_shuffle(deck_size: int, entropy: Entropy) -> ShuffleSecret:
    """Draw a fresh permutation, re-randomisers and salt."""
    permutation = random_permutation(deck_size, entropy)
    randomness = tuple(random_scalar(entropy) for _ in range(deck_size))
    return ShuffleSecret(permutation, randomness, entropy(32))


def commitment(ctx: Context, secret: ShuffleSecret) -> bytes:
    """SHA-256 commitment to the shuffle, bound to the shuffling seat's context."""
    h = hashlib.sha256(b"lodam/v1/shuffle\x00" + ctx.encode())
    h.update(bytes(secret.permutation))
    for r in secret.randomness:
        h.update(scalar_to_bytes(r))
    h.update(secret.salt)
    return h.digest()


def apply_shuffle(deck: Deck, joint_key: Point, secret: ShuffleSecret, *,
                  opened: bool = False) -> Deck:
    """new[k] = (A_π(k) + r_k·G, B_π(k) + r_k·H); in constant time unless the secret is
    ``opened`` (the audit re-deriving a published opening)."""
    times = mul_public if opened else mul
    out = []
    for k, source in enumerate(secret.permutation):
        a, b = deck[source]
        r = secret.randomness[k]
        out.append((add(a, base_mul(r)), add(b, times(joint_key, r))))
    return tuple(out)


def is_permutation(values: Sequence[int], size: int) -> bool:
    """True when ``values`` holds every index below ``size`` exactly once."""
    return len(values) == size and sorted(values) == list(range(size))


def rederives(old: Deck, new: Deck, joint_key: Point, secret: ShuffleSecret) -> bool:
    """True when ``new`` is exactly ``old`` shuffled with ``secret`` (audit check)."""
    permutation, randomness = secret.permutation, secret.randomness
    if len(permutation) != len(new) or len(randomness) != len(new) \
            or not all(0 <= source < len(old) for source in permutation) \
            or not all(0 < r < ORDER for r in randomness):
        return False
    native = rerandomises(old, new, joint_key, permutation, randomness)
    if native is not None:
        return native
    try:
        derived = apply_shuffle(old, joint_key, secret, opened=True)
    except ValueError:
        return False
    return all(
        da.format() == na.format() and db.format() == nb.format()
        for (da, db), (na, nb) in zip(derived, new, strict=True)
    )


def compose_cards(permutations: Sequence[Sequence[int]], deck_size: int) -> tuple[int, ...]:
    """The card at each final position, following every shuffle's π from the start."""
    cards = tuple(range(deck_size))
    for permutation in permutations:
        cards = tuple(cards[source] for source in permutation)
    return cards
