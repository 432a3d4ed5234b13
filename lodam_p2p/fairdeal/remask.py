"""Re-masking a seat's holding: the same cards under fresh, unlinkable positions.

Why. A transfer names its position, and a played card is revealed by naming its
position; so without more, when a card handed over in an exchange is later played,
every seat learns it was the traded card. After an exchange each trader therefore
re-masks its whole holding: it takes the k positions it holds, each in its *held form*
(α, β) under its own hand key X_s alone (record.py, ``held``: a dealt position with
every other seat's deal share taken off, or a position made for it by a transfer or by
its own earlier re-mask), re-randomises each and permutes them with a secret π,
exactly as a shuffle does under the joint key,

    new[i] = (α_{in[π(i)]} + r_i·G,  β_{in[π(i)]} + r_i·X_s)

and publishes the k new ciphertexts with the commitment

    SHA-256("lodam/v1/remask" ‖ 0x00 ‖ context ‖ u8 k ‖ π (k bytes) ‖ r_0 … r_{k−1} ‖ salt)

and a proof of shuffle from the inputs' held forms under X_s (``shuffleproof.py``, tag
``remask``, statement data ``remask_statement``). The new positions are held under X_s
from the start: only the re-masker's own share is ever needed to reveal one, so nobody
answers a re-mask, and it can be played at once. The old positions are retired for the
re-masker. Nobody else can tell which new position holds the card it received (that is
DDH: telling (α + r·G, β + r·X_s) from a fresh encryption under X_s).

Numbering. The new positions of seat s's n-th *position-making* message (a REMASK, or
a TRANSFER, whose one new position is the first of its block; n = 0, 1, … in the
seat's own message order) are ``K + (n·m + index(s))·MAX_REMASK + i`` for i < k, with m
seats and K cards: every seat numbers every message alike from the sender's own chain,
whatever order two traders' messages arrive in (a global counter would number them by
arrival order, which differs from seat to seat). Positions stay below 2^16.

Openings. Each re-mask's (π, r, salt) is drawn from a per-hand 32-byte ``seed`` through
SHA-256 in counter mode (``remask_secret``); the audit opening carries only the seed,
from which everyone re-derives every re-mask of the seat, checks its commitment, and
re-derives its ciphertexts from the inputs (a dropped, duplicated or invented card fails).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from lodam_p2p.fairdeal.group import Entropy, scalar_to_bytes
from lodam_p2p.fairdeal.messages import MAX_POSITION, MAX_REMASK, RemaskMsg, TransferMsg
from lodam_p2p.fairdeal.proofs import Context
from lodam_p2p.fairdeal.shuffle import ShuffleSecret, draw_shuffle

_COMMIT_TAG = b"lodam/v1/remask\x00"
_PRG_TAG = b"lodam/v1/remask-prg\x00"


@dataclass(frozen=True, slots=True)
class Remask:
    """One applied re-mask: who, its number for that seat, old and new positions."""

    seat: int
    round: int
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    msg: RemaskMsg


@dataclass(frozen=True, slots=True)
class Handover:
    """One applied transfer: the giver ``seat``, its number for that seat, the giver's
    ``position``, the receiver ``to`` and the new ``output`` position held by it, and
    the envelope's sequence number."""

    seat: int
    round: int
    position: int
    to: int
    output: int
    seq: int
    msg: TransferMsg


#: What a seat's position-making message made: a re-mask or a transfer.
Made = Remask | Handover


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

    _BLOCKS = 8  #: blocks hashed at a time (a 9-card re-mask reads about 20)

    def __init__(self, seed: bytes, round_: int) -> None:
        self._prefix = _PRG_TAG + seed + round_.to_bytes(2, "big")
        self._counter = 0
        self._buffer = b""
        self._offset = 0

    def __call__(self, n: int) -> bytes:
        end = self._offset + n
        if end > len(self._buffer):
            rest = self._buffer[self._offset:]
            while len(rest) < n:
                rest += b"".join(
                    hashlib.sha256(self._prefix + (self._counter + i).to_bytes(4, "big")).digest()
                    for i in range(self._BLOCKS))
                self._counter += self._BLOCKS
            self._buffer, self._offset, end = rest, 0, n
        out = self._buffer[self._offset:end]
        self._offset = end
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
