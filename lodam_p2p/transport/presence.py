"""Presence: who is connected at a table, told by retained messages and Last Wills.

On every (re)connection a transport with a :class:`PresenceSpec` draws a fresh nonce,
registers the Last Will ``{"peer": p, "nonce": n, "online": false}`` on
``lodam/v3/t/<table>/presence/<peer>`` (retained, QoS 1), then publishes the matching
``online: true`` announcement there. A clean close publishes ``online: false`` itself
before disconnecting; an abrupt one lets the broker publish the will.

Why the nonce: some brokers fire a stale will *after* the client has reconnected (the
old TCP connection is only noticed dead later). That late "gone" carries the old
connection's nonce, and a transport that sees its own stale will re-announces itself
(:func:`is_stale_will`).

Order. A network may also deliver a peer's presences out of order (a will held up behind
the next connection's "online", an old "online" repeated late). Each presence therefore
says where it stands: ``epoch``, the generation of the peer's process (a restarted seat
counts up from its journal), and ``conn``, the connection attempt within that process
(1, 2, …). Its :attr:`Presence.order` is ``(epoch, conn, gone)``: a connection's "gone"
comes after its "online", and both after everything of earlier connections.
:class:`PresenceTracker` takes a peer's presence only if it is newer than the last one
it took, so a late "gone" never marks a peer away that has since come back.

The payload is a small JSON object so that ``mosquitto_sub -v -t 'lodam/#'`` stays
readable at a LAN party.

Signed presence. Anybody on the broker can publish on any topic, so an unsigned "gone"
could make a table hold (or give up on) a seat that is still there. A transport given a
``signer`` (the peer's identity key) adds ``key`` (its raw Ed25519 public key, hex) and
``sig`` (hex) over :meth:`Presence.signing_input`: a domain tag, the table, the peer,
the nonce, the state and the order. The will is signed when the connection is made (its nonce is
known then). The session checks the signature and that the key is the peer's
(:func:`check_signed`, the peer name being derived from the key) and ignores anything
else. A replayed *old* presence of the same peer still verifies, but its order is
behind what was seen since, so it is ignored (:class:`PresenceTracker`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from lodam_p2p.fairdeal.signing import verifies
from lodam_p2p.transport.topics import check_name, is_valid_name, presence_topic

#: Largest presence payload accepted.
MAX_PRESENCE_BYTES = 512
#: Bound of a presence's ``epoch`` and ``conn``.
MAX_COUNT = 2**48
#: Domain separation of presence signatures.
PRESENCE_DOMAIN = b"lodam/presence/v1\x00"
_KEY_LEN, _SIG_LEN = 32, 64

#: Signs presence bytes with the peer's identity key (Ed25519: 64-byte signatures).
Signer = Callable[[bytes], bytes]


class BadPresence(ValueError):
    """A presence payload that is not one."""


def new_nonce() -> str:
    """A fresh per-connection nonce (64 random bits, hex)."""
    return secrets.token_hex(8)


@dataclass(frozen=True, slots=True)
class PresenceSpec:
    """Which presence a transport keeps: ``peer`` at ``table``."""

    table: str
    peer: str
    signer: Signer | None = field(default=None, compare=False, repr=False)
    pubkey: bytes = field(default=b"", compare=False, repr=False)
    epoch: int = 0  #: the process's generation (see the module docstring)

    def __post_init__(self) -> None:
        check_name(self.table, "table")
        check_name(self.peer, "peer")

    @property
    def topic(self) -> str:
        """The presence topic, also the Last Will topic."""
        return presence_topic(self.table, self.peer)

    def payload(self, nonce: str, online: bool, conn: int = 0) -> bytes:
        """The presence payload of connection attempt ``conn`` (signed when there is a
        signer)."""
        presence = Presence(self.peer, nonce, online, epoch=self.epoch, conn=conn)
        if self.signer is not None:
            sig = self.signer(presence.signing_input(self.table))
            presence = Presence(self.peer, nonce, online, self.pubkey, sig, self.epoch, conn)
        return presence.encode()


@dataclass(frozen=True, slots=True)
class Presence:
    """One presence announcement: ``peer`` is (or is no longer) connected."""

    peer: str
    nonce: str
    online: bool
    key: bytes = b""  #: the peer's raw Ed25519 public key (signed presence only)
    sig: bytes = b""  #: its signature over :meth:`signing_input`
    epoch: int = 0  #: the generation of the peer's process
    conn: int = 0  #: the connection attempt within that process (0: not told)

    @property
    def order(self) -> tuple[int, int, int]:
        """Where this presence stands among the peer's presences (later is greater)."""
        return self.epoch, self.conn, 0 if self.online else 1

    def signing_input(self, table: str) -> bytes:
        """What the signature covers."""
        state = b"1" if self.online else b"0"
        return b"\x00".join([PRESENCE_DOMAIN + table.encode(), self.peer.encode(),
                             self.nonce.encode(), state, b"%d.%d" % (self.epoch, self.conn)])

    def encode(self) -> bytes:
        """The JSON bytes sent on the wire."""
        body: dict[str, object] = {"peer": self.peer, "nonce": self.nonce, "online": self.online,
                                   "epoch": self.epoch, "conn": self.conn}
        if self.sig:
            body |= {"key": self.key.hex(), "sig": self.sig.hex()}
        return json.dumps(body, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, data: bytes) -> Presence:
        """Parse a payload; raise :class:`BadPresence` if it is malformed."""
        if len(data) > MAX_PRESENCE_BYTES:
            raise BadPresence(f"presence payload of {len(data)} bytes is too long")
        try:
            body = json.loads(data)
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise BadPresence(f"presence payload is not JSON: {err}") from None
        if not isinstance(body, dict):
            raise BadPresence("presence payload is not a JSON object")
        peer, nonce, online = body.get("peer"), body.get("nonce"), body.get("online")
        if not (isinstance(peer, str) and is_valid_name(peer)):
            raise BadPresence(f"presence names no valid peer: {peer!r}")
        if not (isinstance(nonce, str) and 0 < len(nonce) <= 64):
            raise BadPresence("presence nonce missing or too long")
        if not isinstance(online, bool):
            raise BadPresence("presence 'online' is not a boolean")
        key, sig = _hex(body.get("key"), _KEY_LEN), _hex(body.get("sig"), _SIG_LEN)
        return cls(peer, nonce, online, key, sig, _count(body, "epoch"), _count(body, "conn"))


def _count(body: dict[str, object], name: str) -> int:
    value = body.get(name, 0)
    if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < MAX_COUNT):
        raise BadPresence(f"presence {name!r} is not a count")
    return value


def _hex(value: object, size: int) -> bytes:
    if value is None:
        return b""
    if not isinstance(value, str) or len(value) != 2 * size:
        raise BadPresence("presence key or signature of the wrong size")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise BadPresence("presence key or signature is not hex") from None


def check_signed(presence: Presence, table: str, topic_peer: str,
                 name_of: Callable[[bytes], str]) -> None:
    """Raise :class:`BadPresence` unless ``presence`` is signed by the key of the peer
    whose topic it came on (``name_of`` derives a peer name from a public key)."""
    if presence.peer != topic_peer:
        raise BadPresence("presence names another peer than its topic")
    if not presence.sig:
        raise BadPresence("presence is not signed")
    if name_of(presence.key) != presence.peer:
        raise BadPresence("presence key is not the peer's (forged?)")
    if not verifies(presence.key, presence.sig, presence.signing_input(table)):
        raise BadPresence("presence signature does not verify (forged?)")


def is_stale_will(spec: PresenceSpec, current_nonce: str, topic: str, payload: bytes) -> bool:
    """Whether a received message is our own presence marked gone by an older connection."""
    if topic != spec.topic:
        return False
    try:
        seen = Presence.decode(payload)
    except BadPresence:
        return False
    return not seen.online and seen.nonce != current_nonce


@dataclass(frozen=True, slots=True)
class PresenceChange:
    """A peer came (``online``) or went (not ``online``)."""

    peer: str
    online: bool


@dataclass(slots=True)
class PresenceTracker:
    """Who is online, from presence messages; ignores stale ones. Pure: no I/O.

    Feed it every presence message of a table with :meth:`observe`; it answers the
    change it caused, if any. A presence no newer (:attr:`Presence.order`) than the last
    one taken of its peer is stale and ignored. Presences that tell no order
    (``conn`` 0) fall back to the nonce: a "gone" from another connection than the last
    one seen is a late will.
    """

    _seen: dict[str, Presence] = field(default_factory=dict)

    def observe(self, presence: Presence) -> PresenceChange | None:
        """Take one announcement into account; return the change it makes, if any."""
        before = self._seen.get(presence.peer)
        if before is not None and _stale(presence, before):
            return None
        self._seen[presence.peer] = presence
        if before is not None and before.online == presence.online:
            return None
        return PresenceChange(presence.peer, presence.online)

    def online(self) -> frozenset[str]:
        """The peers currently believed connected."""
        return frozenset(p.peer for p in self._seen.values() if p.online)


def _stale(presence: Presence, before: Presence) -> bool:
    """Whether ``presence`` is older news than ``before`` (same peer)."""
    if presence.conn and before.conn:
        return presence.order <= before.order
    return not presence.online and before.nonce != presence.nonce
