"""Re-masking a seat's holding: the same cards under fresh, unlinkable positions.

Why. A private transfer names its position, and a played card is revealed by naming its
position; so without more, when a card handed over in an exchange is later played,
every seat learns it was the traded card. After an exchange each trader therefore
re-masks its whole holding: it takes the k positions it holds, re-randomises each
ciphertext and permutes them with a secret π, exactly as a shuffle does,

    new[i] = (A_{in[π(i)]} + r_i·G,  B_{in[π(i)]} + r_i·H)

and publishes the k new ciphertexts with the commitment

    SHA-256("lodam/v1/remask" ‖ 0x00 ‖ context ‖ u8 k ‖ π (k bytes) ‖ r_0 … r_{k−1} ‖ salt)

and a proof of shuffle from the inputs' ciphertexts (``shuffleproof.py``, tag ``remask``,
statement data ``remask_statement``). Every other seat's decryption share of each new
position must then be public, so that only the re-masker can read them, and the old
positions are retired for it. Nobody else can tell which new position holds the card it
received.

Where do those shares come from? A seat c whose shares of all the inputs are public
(every seat but the holders the inputs came from) has its share of each new position
*carried*: the re-masker publishes D'_k = D_π(k) + r_k·X_c beside the new ciphertexts,
and the same proof of shuffle shows each one right (``carry_shares``; record.py,
``carriers``). Only the holders of received inputs answer with a batch of their shares
(one batch proof, as in the deal). Without proofs every other seat answers.

Numbering. The new positions of seat s's n-th re-mask (n = 0, 1, … in its own message
order) are ``K + (n·m + index(s))·MAX_REMASK + i`` for i < k, with m seats and K cards:
every seat numbers every re-mask alike from the sender's own chain, whatever order two
traders' re-masks arrive in (a global counter would number them by arrival order, which
differs from seat to seat). Positions stay below 2^16.

Openings. Each re-mask's (π, r, salt) is drawn from a per-hand 32-byte ``seed`` through
SHA-256 in counter mode (``remask_secret``); the audit opening carries only the seed,
from which everyone re-derives every re-mask of the seat, checks its commitment, and
re-derives its ciphertexts from the inputs (a dropped, duplicated or invented card fails).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from lodam_p2p.fairdeal.group import Entropy, Point, add, mul, scalar_to_bytes
from lodam_p2p.fairdeal.messages import MAX_POSITION, MAX_REMASK, RemaskMsg
from lodam_p2p.fairdeal.proofs import Context
from lodam_p2p.fairdeal.shuffle import ShuffleSecret, draw_shuffle

_COMMIT_TAG = b"lodam/v1/remask\x00"
_PRG_TAG = b"lodam/v1/remask-prg\x00"


@dataclass
class Remask:
    """One applied re-mask: who, its number for that seat, old and new positions, and
    the shares other seats have published for the new positions (seat → shares)."""

    seat: int
    round: int
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    msg: RemaskMsg
    shares: dict[int, tuple[Point, ...]] = field(default_factory=dict)


def first_position(deck_size: int, seats: int, index: int, round_: int) -> int | None:
    """The first new position of re-mask ``round_`` of the seat at ``index`` (None when
    the numbering would leave the u16 range)."""
    first = deck_size + (round_ * seats + index) * MAX_REMASK
    return first if first + MAX_REMASK - 1 <= MAX_POSITION else None


def owner_of(deck_size: int, seats: tuple[int, ...], position: int) -> tuple[int, int] | None:
    """(seat, round) whose re-mask numbers ``position``, or None for a deck position."""
    if position < deck_size:
        return None
    block = (position - deck_size) // MAX_REMASK
    return seats[block % len(seats)], block // len(seats)


class _Stream:
    """SHA-256(tag ‖ seed ‖ u16 round ‖ u32 counter) blocks, read as a byte stream."""

    def __init__(self, seed: bytes, round_: int) -> None:
        self._prefix = _PRG_TAG + seed + round_.to_bytes(2, "big")
        self._counter = 0
        self._buffer = b""

    def __call__(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = self._prefix + self._counter.to_bytes(4, "big")
            self._buffer += hashlib.sha256(block).digest()
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out


def prg(seed: bytes, round_: int) -> Entropy:
    """The byte stream re-mask ``round_`` of a seat draws its π, r and salt from."""
    return _Stream(seed, round_)


def remask_secret(seed: bytes, round_: int, size: int) -> ShuffleSecret:
    """π, r and salt of re-mask ``round_`` over ``size`` positions, from the seat's seed."""
    return draw_shuffle(size, prg(seed, round_))


def remask_statement(round_: int, inputs: tuple[int, ...]) -> bytes:
    """What a re-mask's proof of shuffle binds besides the ciphertexts: u16 round ‖ the
    input positions (u16 each)."""
    return round_.to_bytes(2, "big") + b"".join(j.to_bytes(2, "big") for j in inputs)


def remask_commitment(ctx: Context, secret: ShuffleSecret) -> bytes:
    """SHA-256 commitment to a re-mask, bound to the re-masking seat's context."""
    h = hashlib.sha256(_COMMIT_TAG + ctx.encode() + bytes([len(secret.permutation)]))
    h.update(bytes(secret.permutation))
    for r in secret.randomness:
        h.update(scalar_to_bytes(r))
    h.update(secret.salt)
    return h.digest()


def carry_shares(shares_in: tuple[tuple[Point, ...], ...], keys: tuple[Point, ...],
                 secret: ShuffleSecret) -> tuple[tuple[Point, ...], ...]:
    """Each carrier's share of each new position, D'_k = D_π(k) + r_k·X_c, from its
    shares of the inputs (``shares_in``, in input order) and its hand key; constant time
    in the re-masker's secret r."""
    return tuple(
        tuple(add(row[source], mul(key, r))
              for source, r in zip(secret.permutation, secret.randomness, strict=True))
        for row, key in zip(shares_in, keys, strict=True))
