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
    PLAY = 8  #: a card played: the position (its reveal travels along)
    OFFER = 9  #: an offer: kind or None, and a commitment to the position offered
    ANSWER = 10  #: an answer: the position put down (transfer along) or None to decline
    #: the offerer's half of an accepted exchange: void?, position; its transfer, re-mask
    OUTCOME = 11
    SWALLOW = 12  #: take the trick or not
    DECLARE = 13  #: declare out (and challenge) or not
    CHALLENGE = 14  #: a watcher's challenge or none
    NOTES = 15  #: end of hand: offer openings [[step, position, salt] …], audit opening
    VOID = 16  #: a claim against a seat: blamed seat, reason; its evidence travels along
    RESULT = 17  #: the match result as this seat sees it: winners, deals, audits, lives, blames
    BYE = 18  #: this peer leaves the table
    REMASK = 19  #: after an exchange, a trader's holding under fresh positions (envelope along)
    REJOIN = 20  #: a restarted seat is back: its journal's hand, the seats back with it
    RESUME = 21  #: the coordinator's answer: seat back, next hand, match state (JSON)
    ATTEST = 22  #: another seat's own view for a returning seat: seat, next hand, state
    TIMEOUT = 24  #: a vote: this seat has waited past the table's limit for seat, at step
    MOVE = 25  #: a move of a game without exchanges: kind, [args], position or None


#: The message kinds that are decisions of a seat at a given step of a hand.
ACTIONS = frozenset({Msg.PLAY, Msg.OFFER, Msg.ANSWER, Msg.OUTCOME, Msg.SWALLOW,
                     Msg.DECLARE, Msg.CHALLENGE, Msg.REMASK, Msg.MOVE})


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


def _opt(check: Check) -> Check:
    return lambda v: v is None or check(v)


def _bin(size: int) -> Check:
    return lambda v: isinstance(v, bytes) and len(v) == size


def _text(v: Any) -> bool:
    return isinstance(v, str) and 0 < len(v) <= 64


def _small(v: Any) -> bool:
    return _is_int(v) and 0 <= v < 256


def _position(v: Any) -> bool:
    return _is_int(v) and 0 <= v < 65536


def _u32(v: Any) -> bool:
    return _is_int(v) and 0 <= v < 2**32


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _list_of(item: Check, most: int = 16) -> Check:
    return lambda v: isinstance(v, list) and len(v) <= most and all(item(i) for i in v)


def _row(*checks: Check) -> Check:
    return lambda v: (isinstance(v, list) and len(v) == len(checks)
                      and all(c(x) for c, x in zip(checks, v, strict=True)))


def _limit(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and 0 < v <= 3600


def _blame_text(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= _MAX_STR


def _plain(v: Any) -> bool:
    return v is None or isinstance(v, bool) or _small(v) or (isinstance(v, str) and len(v) <= 32)


#: Largest match state a RESUME or ATTEST carries: a Lorum match saves about 2.3 KB a
#: round, so this holds some 25 rounds, and stays well inside one publication.
MAX_STATE = 64 * 1024


def _state_blob(v: Any) -> bool:
    return isinstance(v, bytes) and 0 < len(v) <= MAX_STATE


def _score(v: Any) -> bool:
    return _is_int(v) and -2**31 <= v < 2**31


def _options(v: Any) -> bool:
    return isinstance(v, dict) and all(isinstance(k, str) for k in v)


_ENTRY = _row(_text, _text, _text)
_ARGS: dict[Msg, tuple[Check, ...]] = {
    Msg.JOIN: (_text, _text),
    Msg.LEAVE: (),
    Msg.SEATS: (_list_of(_ENTRY), _small),
    Msg.START: (_bin(16), _options, _list_of(_row(_text, _bin(PUBKEY_LEN), _text, _text)),
                _limit),
    Msg.LOT_COMMIT: (_bin(32),),
    Msg.LOT_REVEAL: (_bin(32),),
    Msg.PROTO: (),
    Msg.PLAY: (_position,),
    Msg.OFFER: (_opt(lambda v: v in ("coat", "card")), _opt(_bin(32))),
    Msg.ANSWER: (_opt(_position),),
    Msg.OUTCOME: (_bool, _position),
    Msg.SWALLOW: (_bool,),
    Msg.DECLARE: (_bool, _opt(_small)),
    Msg.CHALLENGE: (_opt(_small),),
    Msg.NOTES: (_list_of(_row(_u32, _position, _bin(16)), 64),),
    Msg.VOID: (_small, lambda v: isinstance(v, str) and len(v) <= 200),
    #: winners, deals, audits, lives or scores, blame lines, and the standings (best
    #: first): a peer that only watched takes the standings from here (optional, since a
    #: peer of this version before the standings sent five)
    Msg.RESULT: (_list_of(_small), _small, _small, _list_of(_score), _list_of(_blame_text),
                 _list_of(_small)),
    Msg.BYE: (),
    Msg.REMASK: (),
    Msg.REJOIN: (_u32, _list_of(_small)),
    Msg.RESUME: (_small, _u32, _state_blob),
    Msg.ATTEST: (_small, _u32, _state_blob),
    Msg.TIMEOUT: (_small,),
    Msg.MOVE: (_text, _list_of(_plain, 8), _opt(_position)),
}


#: The kinds whose last argument may be left out, and how many arguments they need.
_SHORTEST: dict[Msg, int] = {Msg.RESULT: 5}


def _check_args(kind: Msg, args: list[Any]) -> None:
    checks = _ARGS[kind][:len(args)] if len(args) >= _SHORTEST.get(kind, len(_ARGS[kind])) \
        else _ARGS[kind]
    if len(args) != len(checks) or not all(c(a) for c, a in zip(checks, args, strict=True)):
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
