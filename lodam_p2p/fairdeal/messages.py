"""Message bodies: frozen values and their msgpack encoding.

Every body is a msgpack array whose first element is the message kind. Points are
33-byte ``bin`` (compressed), scalars 32-byte ``bin``, proofs 64-byte ``bin`` (c ‖ s).
Decoding is strict: exact array lengths, exact types, canonical scalars, valid points,
and msgpack's own ``max_*_len`` limits so that no body can make the decoder allocate
more than the envelope's size. Anything else is ``ValueError``; the caller turns it into
a blame of the (already authenticated) sender.
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgpack

from lodam_p2p.fairdeal.group import (
    POINT_LEN,
    SCALAR_LEN,
    Point,
    encode_point,
    parse_point,
    scalar_from_bytes,
    scalar_to_bytes,
)
from lodam_p2p.fairdeal.proofs import Proof
from lodam_p2p.fairdeal.shuffle import Ciphertext
from lodam_p2p.fairdeal.shuffleproof import MAX_SHARE_KEYS, ShuffleProof, decode_proof

#: Largest body accepted (a 52-card shuffle is 3.5 KB, 10.4 KB with its proof; an audit
#: opening 1.8 KB).
MAX_BODY = 16384
#: Bytes of one share entry in a sealed transfer: seat ‖ D ‖ c ‖ s.
ENTRY_LEN = 1 + POINT_LEN + 2 * SCALAR_LEN
#: Most positions one re-mask may take (more than any seat's hand).
MAX_REMASK = 32
#: Positions are u16 everywhere (hashes, bodies).
MAX_POSITION = 65535


class Kind(enum.IntEnum):
    """Message kinds, in the order a seat sends them."""

    KEY = 1  #: hand key X_i and its Schnorr proof
    SHUFFLE = 2  #: the seat's shuffled deck, its proof of shuffle and its commitment
    DEAL = 3  #: decryption shares for every position dealt to another seat
    REVEAL = 4  #: shares that make one position public
    TRANSFER = 5  #: shares for one position, sealed to one seat
    AUDIT = 6  #: opening: hand key secret, shuffle and re-mask seed
    REMASK = 7  #: a seat's holding re-randomised and permuted into fresh positions
    SHARES = 8  #: decryption shares for the new positions of another seat's re-mask


@dataclass(frozen=True, slots=True)
class KeyMsg:
    """X_i = x_i·G with its proof of knowledge."""

    key: Point
    proof: Proof


@dataclass(frozen=True, slots=True)
class ShuffleMsg:
    """The deck after this seat's shuffle, its commitment, and its proof of shuffle
    (None only at a table that plays without proofs)."""

    deck: tuple[Ciphertext, ...]
    commitment: bytes
    proof: ShuffleProof | None = None


@dataclass(frozen=True, slots=True)
class DealMsg:
    """D_ij = x_i·A_j for every position j dealt to another seat, ascending, one proof."""

    shares: tuple[Point, ...]
    proof: Proof | None


@dataclass(frozen=True, slots=True)
class ShareEntry:
    """Seat ``seat``'s decryption share for a position, with that seat's own proof."""

    seat: int
    share: Point
    proof: Proof


@dataclass(frozen=True, slots=True)
class RevealMsg:
    """Shares published so that ``position`` becomes known to all."""

    position: int
    entries: tuple[ShareEntry, ...]


@dataclass(frozen=True, slots=True)
class TransferMsg:
    """Shares for ``position`` sealed (ChaCha20-Poly1305) to seat ``to``."""

    position: int
    to: int
    sealed: bytes


@dataclass(frozen=True, slots=True)
class AuditMsg:
    """The end-of-hand opening: hand secret x_i, the shuffle (π, r, salt), and the seed
    every re-mask of this seat was drawn from."""

    secret: int
    permutation: tuple[int, ...]
    randomness: tuple[int, ...]
    salt: bytes
    remask_seed: bytes


@dataclass(frozen=True, slots=True)
class RemaskMsg:
    """The sender's ``inputs`` (ascending), re-randomised and permuted into ``deck``
    (its new positions, in order), the commitment to (π, r, salt), and the proof that
    ``deck`` is a shuffle of the inputs' ciphertexts (None only without proofs).

    ``carried``: for each seat whose shares the re-mask carries (remask.py, ascending
    seat order), that seat's share of every new position, in position order; the proof
    covers them."""

    inputs: tuple[int, ...]
    deck: tuple[Ciphertext, ...]
    commitment: bytes
    proof: ShuffleProof | None = None
    carried: tuple[tuple[Point, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class SharesMsg:
    """The sender's shares D = x·A for every new position of re-mask number ``round``
    of seat ``seat``, in position order, with one batch proof."""

    seat: int
    round: int
    shares: tuple[Point, ...]
    proof: Proof


Message = KeyMsg | ShuffleMsg | DealMsg | RevealMsg | TransferMsg | AuditMsg | RemaskMsg | SharesMsg


def kind_of(message: Message) -> Kind:
    """The wire kind of a message value."""
    return _KINDS[type(message)]


_KINDS: dict[type, Kind] = {
    KeyMsg: Kind.KEY, ShuffleMsg: Kind.SHUFFLE, DealMsg: Kind.DEAL,
    RevealMsg: Kind.REVEAL, TransferMsg: Kind.TRANSFER, AuditMsg: Kind.AUDIT,
    RemaskMsg: Kind.REMASK, SharesMsg: Kind.SHARES,
}


# --- encoding ---------------------------------------------------------------------------


def encode_entries(entries: Sequence[ShareEntry]) -> bytes:
    """Fixed-width share entries: seat (1) ‖ D (33) ‖ c (32) ‖ s (32) each."""
    return b"".join(bytes([e.seat]) + encode_point(e.share) + e.proof.encode() for e in entries)


def _fields(message: Message) -> list[Any]:
    match message:
        case KeyMsg(key, proof):
            return [encode_point(key), proof.encode()]
        case ShuffleMsg(deck, commit, proof):
            return [_deck_blob(deck), commit, _proof_blob(proof)]
        case DealMsg(shares, proof):
            blob = b"".join(encode_point(d) for d in shares)
            return [blob, proof.encode() if proof else b""]
        case RevealMsg(position, entries):
            return [position, encode_entries(entries)]
        case TransferMsg(position, to, sealed):
            return [position, to, sealed]
        case AuditMsg(secret, permutation, randomness, salt, seed):
            return [scalar_to_bytes(secret), bytes(permutation),
                    b"".join(scalar_to_bytes(r) for r in randomness), salt, seed]
        case RemaskMsg(inputs, deck, commit, proof, carried):
            return [b"".join(position_bytes(j) for j in inputs), _deck_blob(deck), commit,
                    _proof_blob(proof), b"".join(encode_point(d) for row in carried for d in row)]
        case SharesMsg(seat, round_, shares, proof):
            return [seat, round_, b"".join(encode_point(d) for d in shares), proof.encode()]
    raise TypeError(f"not a message: {message!r}")


def _proof_blob(proof: ShuffleProof | None) -> bytes:
    return b"" if proof is None else proof.encode()


def _shuffle_proof(blob: object, size: int, keys: int = 0) -> ShuffleProof | None:
    data = _bin(blob)
    return decode_proof(data, size, keys) if data else None


def _deck_blob(deck: Sequence[Ciphertext]) -> bytes:
    return b"".join(encode_point(a) + encode_point(b) for a, b in deck)


def encode(message: Message) -> bytes:
    """The msgpack body of ``message``."""
    return bytes(msgpack.packb([int(kind_of(message)), *_fields(message)], use_bin_type=True))


# --- decoding ---------------------------------------------------------------------------


def _bin(value: object, size: int | None = None) -> bytes:
    if not isinstance(value, bytes) or (size is not None and len(value) != size):
        raise ValueError("expected bytes" + (f" of length {size}" if size else ""))
    return value


def _int(value: object, limit: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < limit:
        raise ValueError("expected a small non-negative integer")
    return value


def _proof(data: bytes) -> Proof:
    _bin(data, 2 * SCALAR_LEN)
    return Proof(scalar_from_bytes(data[:32], nonzero=False), scalar_from_bytes(data[32:]))


def _chunks(blob: bytes, size: int) -> list[bytes]:
    if len(blob) % size:
        raise ValueError(f"length not a multiple of {size}")
    return [blob[i : i + size] for i in range(0, len(blob), size)]


def decode_entries(blob: bytes) -> tuple[ShareEntry, ...]:
    """Parse fixed-width share entries (``ValueError`` if malformed)."""
    return tuple(
        ShareEntry(chunk[0], parse_point(chunk[1:34]), _proof(chunk[34:]))
        for chunk in _chunks(blob, ENTRY_LEN)
    )


def _deck(blob: bytes) -> tuple[Ciphertext, ...]:
    return tuple(
        (parse_point(c[:POINT_LEN]), parse_point(c[POINT_LEN:]))
        for c in _chunks(blob, 2 * POINT_LEN)
    )


def _decode_fields(kind: Kind, f: list[Any]) -> Message:
    if kind is Kind.KEY:
        return KeyMsg(parse_point(_bin(f[0])), _proof(_bin(f[1])))
    if kind is Kind.SHUFFLE:
        deck = _deck(_bin(f[0]))
        return ShuffleMsg(deck, _bin(f[1], 32), _shuffle_proof(f[2], len(deck)))
    if kind is Kind.DEAL:
        shares = tuple(parse_point(c) for c in _chunks(_bin(f[0]), POINT_LEN))
        proof = _proof(_bin(f[1])) if _bin(f[1]) else None
        return DealMsg(shares, proof)
    if kind is Kind.REVEAL:
        return RevealMsg(_int(f[0], 65536), decode_entries(_bin(f[1])))
    if kind is Kind.TRANSFER:
        return TransferMsg(_int(f[0], 65536), _int(f[1], 256), _bin(f[2]))
    if kind is Kind.REMASK:
        return _remask(f)
    if kind is Kind.SHARES:
        shares = tuple(parse_point(c) for c in _chunks(_bin(f[2]), POINT_LEN))
        if not 1 <= len(shares) <= MAX_REMASK:
            raise ValueError(f"a re-mask has 1 to {MAX_REMASK} positions")
        return SharesMsg(_int(f[0], 256), _int(f[1], 65536), shares, _proof(_bin(f[3])))
    randomness = tuple(scalar_from_bytes(c) for c in _chunks(_bin(f[2]), SCALAR_LEN))
    return AuditMsg(scalar_from_bytes(_bin(f[0])), tuple(_bin(f[1])), randomness, _bin(f[3], 32),
                    _bin(f[4], 32))


def _remask(f: list[Any]) -> RemaskMsg:
    inputs = tuple(struct.unpack(">H", c)[0] for c in _chunks(_bin(f[0]), 2))
    deck = _deck(_bin(f[1]))
    if not 1 <= len(inputs) <= MAX_REMASK or len(deck) != len(inputs):
        raise ValueError(f"a re-mask takes 1 to {MAX_REMASK} positions, one ciphertext each")
    if list(inputs) != sorted(set(inputs)):
        raise ValueError("re-mask inputs must be distinct and ascending")
    shares = [parse_point(c) for c in _chunks(_bin(f[4]), POINT_LEN)]
    if len(shares) % len(deck) or len(shares) // len(deck) > MAX_SHARE_KEYS:
        raise ValueError(f"carried shares: up to {MAX_SHARE_KEYS} rows of one per position")
    k = len(deck)
    carried = tuple(tuple(shares[i : i + k]) for i in range(0, len(shares), k))
    return RemaskMsg(inputs, deck, _bin(f[2], 32), _shuffle_proof(f[3], k, len(carried)),
                     carried)


_ARITY = {Kind.KEY: 2, Kind.SHUFFLE: 3, Kind.DEAL: 2, Kind.REVEAL: 2, Kind.TRANSFER: 3,
          Kind.AUDIT: 5, Kind.REMASK: 5, Kind.SHARES: 4}


def decode(body: bytes) -> Message:
    """Parse a body strictly; ``ValueError`` on anything malformed."""
    if len(body) > MAX_BODY:
        raise ValueError("body too large")
    try:
        value = msgpack.unpackb(
            body, raw=False, use_list=True, strict_map_key=True, max_bin_len=MAX_BODY,
            max_str_len=0, max_array_len=8, max_map_len=0, max_ext_len=0,
        )
    except Exception as err:  # msgpack raises several types for malformed input
        raise ValueError(f"not msgpack: {err}") from None
    if not isinstance(value, list) or not value or not isinstance(value[0], int):
        raise ValueError("body is not a [kind, …] array")
    try:
        kind = Kind(value[0])
    except ValueError:
        raise ValueError(f"unknown message kind {value[0]}") from None
    if len(value) != 1 + _ARITY[kind]:
        raise ValueError(f"{kind.name} needs {_ARITY[kind]} fields")
    return _decode_fields(kind, value[1:])


def position_bytes(position: int) -> bytes:
    """u16 big-endian: how a position enters a hash."""
    return struct.pack(">H", position)
