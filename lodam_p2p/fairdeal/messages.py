"""Message bodies: frozen values and their msgpack encoding.

Every body is a msgpack array whose first element is the message kind. Points are
33-byte ``bin`` (compressed), scalars 32-byte ``bin``, proofs 64-byte ``bin`` (c ‖ s).
Decoding is strict: exact array lengths, exact types, canonical scalars, valid points,
and msgpack's own ``max_*_len`` limits so that no body can make the decoder allocate
more than the envelope's size. Anything else is ``ValueError``; the caller turns it into
a blame of the (already authenticated) sender.

A proof of shuffle travels as the bytes its shuffle argument encodes (``arguments.py``);
it is parsed by the hand's argument when it is checked, so that decoding a body needs
no knowledge of the hand. A KEY names the hand's argument unless it is ``tw`` or
``none`` (version 3's own, whose KEY has two fields).
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
from lodam_p2p.fairdeal.transfer import SwitchProof

#: Largest body accepted (a 52-card shuffle is 3.5 KB, 12.2 KB with its proof of
#: ``tw``; an audit opening 1.8 KB).
MAX_BODY = 16384
#: Most positions one re-mask may take (more than any seat's hand).
MAX_REMASK = 32
#: Positions are u16 everywhere (hashes, bodies).
MAX_POSITION = 65535
#: Longest shuffle-argument name a KEY may carry.
MAX_ARGUMENT_NAME = 16


class Kind(enum.IntEnum):
    """Message kinds, in the order a seat sends them."""

    KEY = 1  #: hand key X_i and its Schnorr proof
    SHUFFLE = 2  #: the seat's shuffled deck, its proof of shuffle and its commitment
    DEAL = 3  #: decryption shares for every position dealt to another seat
    REVEAL = 4  #: the sender's own share of one position, to make it public
    TRANSFER = 5  #: one held card re-encrypted to another seat's key, with its proof
    AUDIT = 6  #: opening: hand key secret, shuffle and re-mask seed
    REMASK = 7  #: a seat's holding re-randomised and permuted into fresh positions


@dataclass(frozen=True, slots=True)
class KeyMsg:
    """X_i = x_i·G with its proof of knowledge, and the name of the hand's shuffle
    argument (ASCII; empty for ``tw`` and ``none``, whose KEY has no third field)."""

    key: Point
    proof: Proof
    argument: bytes = b""


@dataclass(frozen=True, slots=True)
class ShuffleMsg:
    """The deck after this seat's shuffle, its commitment, and its proof of shuffle as
    the hand's argument encodes it (empty at a table without proofs)."""

    deck: tuple[Ciphertext, ...]
    commitment: bytes
    proof: bytes = b""


@dataclass(frozen=True, slots=True)
class DealMsg:
    """D_ij = x_i·A_j for every position j dealt to another seat, ascending, one proof."""

    shares: tuple[Point, ...]
    proof: Proof | None


@dataclass(frozen=True, slots=True)
class RevealMsg:
    """The sender's decryption share D = x·A of ``position`` with its Chaum–Pedersen
    proof: with the shares public already it makes the position known to all."""

    position: int
    share: Point
    proof: Proof


@dataclass(frozen=True, slots=True)
class TransferMsg:
    """The card at the sender's ``position`` re-encrypted under seat ``to``'s hand key
    (``new``), with the proof that it is that card (transfer.py): a new position, held
    by ``to``."""

    position: int
    to: int
    new: Ciphertext
    proof: SwitchProof


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
    """The sender's ``inputs`` (ascending), held under its own key, re-randomised and
    permuted into ``deck`` (its new positions, in order), the commitment to (π, r,
    salt), and the proof that ``deck`` is a shuffle of the inputs' held forms under the
    sender's key, encoded by the hand's argument (empty without proofs)."""

    inputs: tuple[int, ...]
    deck: tuple[Ciphertext, ...]
    commitment: bytes
    proof: bytes = b""


Message = KeyMsg | ShuffleMsg | DealMsg | RevealMsg | TransferMsg | AuditMsg | RemaskMsg


def kind_of(message: Message) -> Kind:
    """The wire kind of a message value."""
    return _KINDS[type(message)]


_KINDS: dict[type, Kind] = {
    KeyMsg: Kind.KEY, ShuffleMsg: Kind.SHUFFLE, DealMsg: Kind.DEAL,
    RevealMsg: Kind.REVEAL, TransferMsg: Kind.TRANSFER, AuditMsg: Kind.AUDIT,
    RemaskMsg: Kind.REMASK,
}


# --- encoding ---------------------------------------------------------------------------


def _fields(message: Message) -> list[Any]:
    match message:
        case KeyMsg(key, proof, argument):
            return [encode_point(key), proof.encode(), *([argument] if argument else [])]
        case ShuffleMsg(deck, commit, proof):
            return [_deck_blob(deck), commit, proof]
        case DealMsg(shares, proof):
            blob = b"".join(encode_point(d) for d in shares)
            return [blob, proof.encode() if proof else b""]
        case RevealMsg(position, share, proof):
            return [position, encode_point(share), proof.encode()]
        case TransferMsg(position, to, new, proof):
            return [position, to, _deck_blob((new,)), proof.encode()]
        case AuditMsg(secret, permutation, randomness, salt, seed):
            return [scalar_to_bytes(secret), bytes(permutation),
                    b"".join(scalar_to_bytes(r) for r in randomness), salt, seed]
        case RemaskMsg(inputs, deck, commit, proof):
            return [b"".join(position_bytes(j) for j in inputs), _deck_blob(deck), commit,
                    proof]
    raise TypeError(f"not a message: {message!r}")


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


def _deck(blob: bytes) -> tuple[Ciphertext, ...]:
    return tuple(
        (parse_point(c[:POINT_LEN]), parse_point(c[POINT_LEN:]))
        for c in _chunks(blob, 2 * POINT_LEN)
    )


def _decode_fields(kind: Kind, f: list[Any]) -> Message:
    if kind is Kind.KEY:
        return KeyMsg(parse_point(_bin(f[0])), _proof(_bin(f[1])),
                      _argument_name(f[2]) if len(f) > 2 else b"")
    if kind is Kind.SHUFFLE:
        return ShuffleMsg(_deck(_bin(f[0])), _bin(f[1], 32), _bin(f[2]))
    if kind is Kind.DEAL:
        shares = tuple(parse_point(c) for c in _chunks(_bin(f[0]), POINT_LEN))
        proof = _proof(_bin(f[1])) if _bin(f[1]) else None
        return DealMsg(shares, proof)
    if kind is Kind.REVEAL:
        return RevealMsg(_int(f[0], 65536), parse_point(_bin(f[1], POINT_LEN)),
                         _proof(_bin(f[2])))
    if kind is Kind.TRANSFER:
        (new,) = _deck(_bin(f[2], 2 * POINT_LEN))
        return TransferMsg(_int(f[0], 65536), _int(f[1], 256), new,
                           SwitchProof.decode(_bin(f[3])))
    if kind is Kind.REMASK:
        return _remask(f)
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
    return RemaskMsg(inputs, deck, _bin(f[2], 32), _bin(f[3]))


def _argument_name(value: object) -> bytes:
    name = _bin(value)
    if not 0 < len(name) <= MAX_ARGUMENT_NAME or not all(0x21 <= b < 0x7F for b in name):
        raise ValueError("a shuffle argument's name is 1-16 printable ASCII bytes")
    return name


_ARITY = {Kind.KEY: 2, Kind.SHUFFLE: 3, Kind.DEAL: 2, Kind.REVEAL: 3, Kind.TRANSFER: 4,
          Kind.AUDIT: 5, Kind.REMASK: 4}
#: A KEY's optional third field (the argument's name).
_OPTIONAL = {Kind.KEY: 1}


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
    if not _ARITY[kind] <= len(value) - 1 <= _ARITY[kind] + _OPTIONAL.get(kind, 0):
        raise ValueError(f"{kind.name} needs {_ARITY[kind]} fields")
    return _decode_fields(kind, value[1:])


def position_bytes(position: int) -> bytes:
    """u16 big-endian: how a position enters a hash."""
    return struct.pack(">H", position)
