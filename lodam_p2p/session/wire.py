"""What sessions say to each other: signed frames and the message bodies inside them.

Two layers wrap every publication on a peer topic ``lodam/v3/t/<table>/p/<peer>``::

    pubkey (32) ‖ signature (64) ‖ frame      frame: lodam_p2p.transport.frames

The Ed25519 signature covers ``DOMAIN ‖ table ‖ frame`` — every frame kind, so a
forged DATA, heartbeat or resend request on someone else's topic is refused before the
stream layer could count it (a forged DATA would otherwise take the real one's number
and the real one would be dropped as a duplicate). The peer name is self-certifying:
it is derived from the public key (:func:`peer_name`), so the key that comes with a
frame either hashes to the topic's peer level or the frame is dropped. Nothing is
decoded before the signature checks.

A DATA frame's body is one session message, a msgpack array::

    [1, kind, hand, step, args, envelopes]

``kind`` is a :class:`Msg`; ``hand`` the hand number it belongs to (0 outside hands);
``step`` the number of public decisions taken in that hand before it (for actions);
``args`` a short array checked per kind (:data:`_ARGS`); ``envelopes`` the fair-deal
envelopes that travel with it (a played card's reveal, an exchange's transfer, the
audit opening), already signed by the fair-deal layer. Decoding is strict and bounded;
anything else raises :class:`BadMessage` and the message is ignored with that reason.

Every move of a game travels as one kind, MOVE: ``args`` is the move's tag and its
fields, which the wire only bounds (:data:`MAX_MOVE_FIELDS` scalars or short lists);
the game's codec (:mod:`lodam_p2p.session.movebody`) reads what they mean, and the hand
refuses a body it cannot read, with the reason, as the wire refuses a malformed one.
The wire names no game's moves.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal.signing import verifies
from lodam_p2p.fairdeal.wire import MAX_ENVELOPE

#: Version of the session body format (first array element).
BODY_VERSION = 1
#: Domain separation of the frame signature.
DOMAIN = b"lodam/session/v1\x00"
PUBKEY_LEN, SIG_LEN = 32, 64
#: Most fair-deal envelopes one message carries.
MAX_ENVELOPES = 8
#: Largest publication accepted on a peer topic.
MAX_PAYLOAD = PUBKEY_LEN + SIG_LEN + 1024 + MAX_ENVELOPES * (MAX_ENVELOPE + 8)
_MAX_STR, _MAX_ARRAY, _MAX_MAP = 256, 64, 32


class BadMessage(ValueError):
    """A publication or body that is not a valid session message; it is ignored."""


class Msg(enum.IntEnum):
    """Session message kinds."""

    JOIN = 1  #: a peer asks the host for a seat: name, kind
    LEAVE = 2  #: a peer gives its seat up before the start
    SEATS = 3  #: the host's seat list: [[peer, name, kind] …], seats at the table
    START = 4  #: the host starts the match: table id, options, roster, time limit (s)
    LOT_COMMIT = 5  #: H(nonce) for the first dealer's lot
    LOT_REVEAL = 6  #: the nonce itself
    PROTO = 7  #: fair-deal envelopes only (keys, shuffles, deal shares, talon reveal)
    NOTES = 15  #: end of hand: offer openings [[step, position, salt] …], audit opening
    VOID = 16  #: a claim against a seat: blamed seat, reason; its evidence travels along
    RESULT = 17  #: the match result as this seat sees it: winners, deals, audits, lives, blames
    BYE = 18  #: this peer leaves the table
    REJOIN = 20  #: a restarted seat is back: its journal's hand, the seats back with it
    RESUME = 21  #: the coordinator's answer: seat back, next hand, match state (JSON)
    ATTEST = 22  #: another seat's own view for a returning seat: seat, next hand, state
    TIMEOUT = 24  #: a vote: this seat has waited past the table's limit for seat, at step
    #: a move of the game's hand: its tag and fields, which the game's codec reads
    #: (:mod:`lodam_p2p.session.movebody`); the envelopes it needs travel along
    MOVE = 25


#: Kinds no longer sent, kept out of use so that a body of an older peer is refused by
#: name, never read as something else: Lodam's moves had kinds of their own before
#: they travelled as MOVE (8 PLAY, 9 OFFER, 10 ANSWER, 11 OUTCOME, 12 SWALLOW,
#: 13 DECLARE, 14 CHALLENGE, 19 REMASK); 23 was never used.
RETIRED = {8: "PLAY", 9: "OFFER", 10: "ANSWER", 11: "OUTCOME", 12: "SWALLOW",
           13: "DECLARE", 14: "CHALLENGE", 19: "REMASK"}

#: The message kinds that are decisions of a seat at a given step of a hand.
ACTIONS = frozenset({Msg.MOVE})


@dataclass(frozen=True, slots=True)
class Body:
    """One session message."""

    kind: Msg
    hand: int = 0
    step: int = 0
    args: tuple[Any, ...] = ()
    envelopes: tuple[bytes, ...] = ()

    def encode(self) -> bytes:
        """The DATA frame body."""
        fields = [BODY_VERSION, int(self.kind), self.hand, self.step, list(self.args),
                  list(self.envelopes)]
        return bytes(msgpack.packb(fields, use_bin_type=True))

    @classmethod
    def decode(cls, data: bytes) -> Body:
        """Parse and check a body; :class:`BadMessage` on anything malformed."""
        fields = _unpack(data)
        if not isinstance(fields, list) or len(fields) != 6:
            raise BadMessage("body is not a 6-element array")
        version, kind, hand, step, args, envs = fields
        if version != BODY_VERSION:
            raise BadMessage(f"unknown body version {version!r}")
        if _is_int(kind) and kind in RETIRED:
            raise BadMessage(f"message kind {kind} ({RETIRED[kind]}) is retired: a move "
                             "travels as MOVE")
        if not _is_int(kind) or kind not in Msg._value2member_map_:
            raise BadMessage(f"unknown message kind {kind!r}")
        if not (_is_int(hand) and 0 <= hand < 2**32 and _is_int(step) and 0 <= step < 2**32):
            raise BadMessage("hand or step number out of range")
        if not isinstance(args, list) or not isinstance(envs, list):
            raise BadMessage("args or envelopes not arrays")
        if len(envs) > MAX_ENVELOPES or not all(isinstance(e, bytes) for e in envs):
            raise BadMessage("too many envelopes, or an envelope not binary")
        msg = Msg(kind)
        _check_args(msg, args)
        return cls(msg, hand, step, tuple(args), tuple(envs))


def _unpack(data: bytes) -> Any:
    try:
        return msgpack.unpackb(data, raw=False, use_list=True, strict_map_key=True,
                               max_bin_len=MAX_ENVELOPE, max_str_len=_MAX_STR,
                               max_array_len=_MAX_ARRAY, max_map_len=_MAX_MAP, max_ext_len=0)
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError,
            msgpack.StackError) as err:
        raise BadMessage(f"body is not valid msgpack: {err}") from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- argument checks per kind --------------------------------------------------------

Check = Callable[[Any], bool]


def optional(check: Check) -> Check:
    """``check``, or None."""
    return lambda v: v is None or check(v)


def binary(size: int) -> Check:
    """Bytes of exactly ``size``."""
    return lambda v: isinstance(v, bytes) and len(v) == size


def is_text(v: Any) -> bool:
    """A short non-empty text (a name, a kind)."""
    return isinstance(v, str) and 0 < len(v) <= 64


def is_small(v: Any) -> bool:
    """An integer 0–255 (a seat, a count)."""
    return _is_int(v) and 0 <= v < 256


def is_position(v: Any) -> bool:
    """A deck position of the fair-deal hand (u16)."""
    return _is_int(v) and 0 <= v < 65536


def _u32(v: Any) -> bool:
    return _is_int(v) and 0 <= v < 2**32


def is_flag(v: Any) -> bool:
    """True or False."""
    return isinstance(v, bool)


def list_of(item: Check, most: int = 16) -> Check:
    """An array of at most ``most`` values, each passing ``item``."""
    return lambda v: isinstance(v, list) and len(v) <= most and all(item(i) for i in v)


def _row(*checks: Check) -> Check:
    return lambda v: (isinstance(v, list) and len(v) == len(checks)
                      and all(c(x) for c, x in zip(checks, v, strict=True)))


def _limit(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and 0 < v <= 3600


def _blame_text(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= _MAX_STR


def is_plain(v: Any) -> bool:
    """A plain argument of a game's action: None, a flag, a small integer, a short text."""
    return v is None or isinstance(v, bool) or is_small(v) or (isinstance(v, str) and len(v) <= 32)


#: Largest match state a RESUME or ATTEST carries: a Lorum match saves about 2.3 KB a
#: round, so this holds some 25 rounds, and stays well inside one publication.
MAX_STATE = 64 * 1024


def _state_blob(v: Any) -> bool:
    return isinstance(v, bytes) and 0 < len(v) <= MAX_STATE


def _score(v: Any) -> bool:
    return _is_int(v) and -2**31 <= v < 2**31


def _options(v: Any) -> bool:
    return isinstance(v, dict) and all(isinstance(k, str) for k in v)


_ENTRY = _row(is_text, is_text, is_text)
_ARGS: dict[Msg, tuple[Check, ...]] = {
    Msg.JOIN: (is_text, is_text),
    Msg.LEAVE: (),
    Msg.SEATS: (list_of(_ENTRY), is_small),
    Msg.START: (binary(16), _options,
                list_of(_row(is_text, binary(PUBKEY_LEN), is_text, is_text)), _limit),
    Msg.LOT_COMMIT: (binary(32),),
    Msg.LOT_REVEAL: (binary(32),),
    Msg.PROTO: (),
    Msg.NOTES: (list_of(_row(_u32, is_position, binary(16)), 64),),
    Msg.VOID: (is_small, lambda v: isinstance(v, str) and len(v) <= 200),
    #: winners, deals, audits, lives or scores, blame lines, and the standings (best
    #: first): a peer that only watched takes the standings from here (optional, since a
    #: peer of this version before the standings sent five)
    Msg.RESULT: (list_of(is_small), is_small, is_small, list_of(_score), list_of(_blame_text),
                 list_of(is_small)),
    Msg.BYE: (),
    Msg.REJOIN: (_u32, list_of(is_small)),
    Msg.RESUME: (is_small, _u32, _state_blob),
    Msg.ATTEST: (is_small, _u32, _state_blob),
    Msg.TIMEOUT: (is_small,),
    Msg.MOVE: (is_text,),  # then up to MAX_MOVE_FIELDS fields, as _field says
}

#: Most fields a MOVE carries after its tag (the game's codec says which).
MAX_MOVE_FIELDS = 7


def _field(v: Any) -> bool:
    """A MOVE field as the wire bounds it; what it means, the game's codec checks."""
    return (v is None or isinstance(v, bool) or _u32(v)
            or (isinstance(v, str | bytes) and len(v) <= 64) or list_of(is_plain, 8)(v))


def fits(checks: tuple[Check, ...], values: tuple[Any, ...] | list[Any]) -> bool:
    """Whether ``values`` are exactly as many as ``checks`` and each passes its own."""
    return len(values) == len(checks) and all(c(v) for c, v in zip(checks, values, strict=True))


#: The kinds whose last argument may be left out, and how many arguments they need.
_SHORTEST: dict[Msg, int] = {Msg.RESULT: 5}


def _check_args(kind: Msg, args: list[Any]) -> None:
    if kind is Msg.MOVE:
        if not (args and is_text(args[0]) and len(args) <= 1 + MAX_MOVE_FIELDS
                and all(_field(a) for a in args[1:])):
            raise BadMessage("bad arguments for MOVE")
        return
    checks = _ARGS[kind][:len(args)] if len(args) >= _SHORTEST.get(kind, len(_ARGS[kind])) \
        else _ARGS[kind]
    if not fits(checks, args):
        raise BadMessage(f"bad arguments for {kind.name}")


# --- identities and signed frames ----------------------------------------------------


def raw_public(identity: Ed25519PrivateKey) -> bytes:
    """The 32 raw bytes of ``identity``'s public key."""
    return identity.public_key().public_bytes(serialization.Encoding.Raw,
                                              serialization.PublicFormat.Raw)


def peer_name(pubkey: bytes) -> str:
    """The topic name of the peer holding ``pubkey`` (self-certifying)."""
    return "p" + hashlib.sha256(b"lodam/peer\x00" + pubkey).hexdigest()[:20]


def seal_frame(identity: Ed25519PrivateKey, pubkey: bytes, table: str, frame: bytes) -> bytes:
    """Sign ``frame`` for publication at ``table``."""
    signature = identity.sign(DOMAIN + table.encode() + b"\x00" + frame)
    return pubkey + signature + frame


def open_frame(payload: bytes, table: str, peer: str) -> tuple[bytes, bytes]:
    """Check a publication on ``peer``'s topic; return (pubkey, frame) or raise."""
    if not PUBKEY_LEN + SIG_LEN < len(payload) <= MAX_PAYLOAD:
        raise BadMessage(f"publication of {len(payload)} bytes: wrong size")
    pubkey = payload[:PUBKEY_LEN]
    if peer_name(pubkey) != peer:
        raise BadMessage("the key does not belong to the topic's peer (forged?)")
    signature = payload[PUBKEY_LEN:PUBKEY_LEN + SIG_LEN]
    frame = payload[PUBKEY_LEN + SIG_LEN:]
    if not verifies(pubkey, signature, DOMAIN + table.encode() + b"\x00" + frame):
        raise BadMessage("frame signature does not verify (forged or replayed)")
    return pubkey, frame
