"""Table announcements: the retained message that puts a table in the lobby.

The host of a table publishes, retained, on ``lodam/v3/lobby/<table>/<print>`` (each
announcer a topic of its own: ``<print>`` is the first :data:`TOPIC_PRINT` hex digits of
its key's :func:`fingerprint`), a small JSON object signed by the host's identity key
(readable with any MQTT tool)::

    {"v": 3, "table": "oak", "host": "p…", "seats": 5, "key": "<64 hex>",
     "seated": ["ann", "bob"], "options": {"variant": "willughby"}, "state": "open",
     "sig": "<128 hex>"}

``v``        protocol version (:data:`~.topics.PROTOCOL_VERSION`); others are listed
             but cannot be joined.
``table``    the table name; must equal the ``<table>`` level of the topic.
``host``     the peer that announced the table.
``seats``    how many seats the table has (within an installed game's seat range:
             3 to 10 for Lodam).
``seated``   the peers seated so far, in seat order (at most ``seats``).
``options``  the rules options, string to string (at most 32; 64 characters each).
``state``    ``open`` (seats free), ``full`` or ``playing``.
``game``     the game the table plays (``lodam``, ``lorum`` …); absent means ``lodam``.
             ``seats`` is then within that game's range (3 to 4 for Lorum).
``brokers``  the URLs at which other machines reach the table's broker (the host's LAN
             addresses, read from its network interfaces; no credentials), in the
             order to try them; absent when the host gave none (a broker on loopback).
``key``      the host's Ed25519 public key, hex (``host`` is that key's peer name).
``sig``      the Ed25519 signature, hex, by ``key``, of :data:`ANNOUNCEMENT_DOMAIN`
             followed by the announcement without ``sig`` as JSON with sorted keys, no
             spaces, UTF-8 (:func:`signed_bytes`). An announcement whose signature does
             not check is dropped: a stranger cannot speak for another's table.

A table is shown as ``<table>#<short print>`` (``oak#7f3a``): the short print is the
first :data:`SHORT_PRINT` hex digits of SHA-256 of the host's raw 32-byte public key.
Two announcers of one name are two tables, told apart by their prints; a seat may pin
one (:func:`split_label`: any hex prefix of the fingerprint, at least
:data:`SHORT_PRINT` digits — more digits when two prints begin alike).

A table leaves the lobby when its host publishes an empty retained payload on the topic
(:func:`withdrawal`). Payloads above :data:`MAX_ANNOUNCEMENT_BYTES` are refused.
:func:`read_lobby` lists what a broker holds, waiting for exactly that: the
retained messages, ended by the echo of its own probe.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from dataclasses import dataclass, field, replace
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from lodam_p2p.games import DEFAULT_GAME, any_seat_range
from lodam_p2p.transport.base import Transport
from lodam_p2p.transport.presence import BadPresence, Presence, new_nonce
from lodam_p2p.transport.topics import (
    LOBBY_PATTERN,
    PROTOCOL_VERSION,
    ROOT,
    TopicKind,
    announcement_topic,
    check_name,
    is_valid_name,
    parse_topic,
)
from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl

#: Every presence at every table: a table whose host is gone is not listed.
PRESENCE_PATTERN = f"{ROOT}/t/+/presence/+"
#: Where a lobby reader publishes its probe (``<PROBE_ROOT>/<nonce>``, not retained):
#: its echo marks the end of the retained messages (:func:`read_lobby`).
PROBE_ROOT = f"{ROOT}/probe"
PROBE_PAYLOAD = b"end of retained messages"

log = logging.getLogger(__name__)

#: Largest announcement accepted, in bytes.
MAX_ANNOUNCEMENT_BYTES = 4096
#: Table states an announcement may give.
STATES = ("open", "full", "playing")
#: The seats any installed game may start a table with (the games state their ranges).
_SEATS = any_seat_range()
MIN_SEATS, MAX_SEATS = _SEATS.low, _SEATS.high
_MAX_OPTIONS, _MAX_OPTION_CHARS = 32, 64
#: Most broker URLs an announcement may give.
_MAX_BROKERS = 16
#: What an announcement's signature covers first (then the signed JSON).
ANNOUNCEMENT_DOMAIN = b"lodam/v3/announcement\x00"
#: Hex digits of the fingerprint shown after a table's name (``oak#7f3a``).
SHORT_PRINT = 4
#: Hex digits of the fingerprint naming an announcer's retained topic.
TOPIC_PRINT = 16
_KEY_BYTES, _SIG_BYTES = 32, 64


def fingerprint(key: bytes) -> str:
    """The full fingerprint of a host's raw public key: SHA-256, lower-case hex."""
    return hashlib.sha256(key).hexdigest()


def split_label(label: str) -> tuple[str, str | None]:
    """``oak#7f3a`` as (``oak``, ``7f3a``); ``oak`` as (``oak``, None). A pin is a hex
    prefix of a fingerprint, at least :data:`SHORT_PRINT` digits (``ValueError``)."""
    table, sep, pin = label.partition("#")
    if not sep:
        return table, None
    pin = pin.lower()
    if len(pin) < SHORT_PRINT or any(c not in "0123456789abcdef" for c in pin):
        raise ValueError(f"{label!r}: after '#' come at least {SHORT_PRINT} hex digits "
                         "of the host's fingerprint, as lodam tables shows them")
    return table, pin


def signed_bytes(body: dict[str, Any]) -> bytes:
    """What an announcement's signature covers: the domain, then ``body`` (without
    ``sig``) as JSON with sorted keys and no spaces, UTF-8."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return ANNOUNCEMENT_DOMAIN + text.encode()


class BadAnnouncement(ValueError):
    """A lobby payload that is not a valid announcement."""


@dataclass(frozen=True, slots=True)
class TableAnnouncement:
    """What the lobby knows of one table."""

    table: str
    host: str
    seats: int
    seated: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    state: str = "open"
    version: int = PROTOCOL_VERSION
    game: str = DEFAULT_GAME
    brokers: tuple[str, ...] = ()
    #: the host's raw Ed25519 public key (empty: not signed yet)
    key: bytes = b""
    #: the host's signature (:func:`signed_bytes`); empty until :meth:`signed`
    signature: bytes = field(default=b"", compare=False)

    def __post_init__(self) -> None:
        check_name(self.table, "table")
        check_name(self.host, "peer")
        _check_shape(self)

    @property
    def fingerprint(self) -> str:
        """The full fingerprint of the host's key (:func:`fingerprint`)."""
        return fingerprint(self.key)

    @property
    def label(self) -> str:
        """The table as shown and pinned: ``oak#7f3a``."""
        return f"{self.table}#{self.fingerprint[:SHORT_PRINT]}"

    def pinned_by(self, pin: str | None) -> bool:
        """Whether ``pin`` (a fingerprint prefix; None: any) names this announcer."""
        return pin is None or self.fingerprint.startswith(pin)

    @property
    def topic(self) -> str:
        """The retained topic this announcement lives on (its announcer's own)."""
        return announcement_topic(self.table, self.fingerprint[:TOPIC_PRINT])

    def signed(self, identity: Ed25519PrivateKey) -> TableAnnouncement:
        """This announcement, signed by ``identity`` (the host's key)."""
        key = identity.public_key().public_bytes_raw()
        unsigned = replace(self, key=key, signature=b"")
        return replace(unsigned, signature=identity.sign(signed_bytes(unsigned._body())))

    @property
    def joinable(self) -> bool:
        """Open, with a free seat, and speaking our protocol version."""
        return (self.state == "open" and len(self.seated) < self.seats
                and self.version == PROTOCOL_VERSION)

    def encode(self) -> bytes:
        """The JSON payload to publish (retained); sign it first (:meth:`signed`)."""
        body = {**self._body(), "sig": self.signature.hex()}
        return json.dumps(body, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False).encode()

    def _body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "v": self.version, "table": self.table, "host": self.host, "seats": self.seats,
            "seated": list(self.seated), "options": dict(self.options), "state": self.state,
        }
        if self.game != DEFAULT_GAME:
            body["game"] = self.game
        if self.brokers:
            body["brokers"] = list(self.brokers)
        body["key"] = self.key.hex()
        return body

    @classmethod
    def decode(cls, data: bytes, topic_table: str | None = None,
               topic_print: str | None = None) -> TableAnnouncement:
        """Parse a payload and check its signature; ``topic_table`` and ``topic_print``
        (if given: the levels of the topic it came on) must match its table and key."""
        body = _json_object(data)
        key, signature = _hex(body, "key", _KEY_BYTES), _hex(body, "sig", _SIG_BYTES)
        del body["sig"]
        try:
            Ed25519PublicKey.from_public_bytes(key).verify(signature, signed_bytes(body))
        except (InvalidSignature, ValueError):
            raise BadAnnouncement("announcement signature does not check") from None
        if topic_print is not None and fingerprint(key)[:TOPIC_PRINT] != topic_print:
            raise BadAnnouncement("announcement on another announcer's topic")
        try:
            announcement = cls(
                table=_typed(body, "table", str), host=_typed(body, "host", str),
                seats=_typed(body, "seats", int), seated=tuple(_str_list(body, "seated")),
                options=tuple(sorted(_str_map(body, "options").items())),
                state=_typed(body, "state", str), version=_typed(body, "v", int),
                game=_typed(body, "game", str) if "game" in body else DEFAULT_GAME,
                brokers=tuple(_str_list(body, "brokers")) if "brokers" in body else (),
                key=key, signature=signature,
            )
        except ValueError as err:
            raise BadAnnouncement(str(err)) from None
        if topic_table is not None and announcement.table != topic_table:
            raise BadAnnouncement(f"announcement for {announcement.table!r} on "
                                  f"{topic_table!r}'s topic")
        return announcement


def withdrawal() -> bytes:
    """The payload that removes a table from the lobby (an empty retained message)."""
    return b""


def _check_shape(a: TableAnnouncement) -> None:
    if not MIN_SEATS <= a.seats <= MAX_SEATS:
        raise BadAnnouncement(f"seats must be {MIN_SEATS} to {MAX_SEATS}, not {a.seats}")
    if len(a.seated) > a.seats or len(set(a.seated)) != len(a.seated):
        raise BadAnnouncement("seated list too long or repeats a peer")
    if not all(is_valid_name(peer) for peer in a.seated):
        raise BadAnnouncement("seated list holds a bad peer name")
    if not is_valid_name(a.game):
        raise BadAnnouncement(f"bad game name {a.game[:40]!r}")
    if a.state not in STATES:
        raise BadAnnouncement(f"unknown table state {a.state!r}")
    _check_brokers(a.brokers)
    if len(a.options) > _MAX_OPTIONS or any(
        len(k) > _MAX_OPTION_CHARS or len(v) > _MAX_OPTION_CHARS for k, v in a.options
    ):
        raise BadAnnouncement("too many options, or an option too long")


def _check_brokers(brokers: tuple[str, ...]) -> None:
    """At most :data:`_MAX_BROKERS` broker URLs, each one that parses, with no login."""
    if len(brokers) > _MAX_BROKERS:
        raise BadAnnouncement(f"more than {_MAX_BROKERS} broker URLs")
    for text in brokers:
        try:
            url = BrokerUrl.parse(text)
        except BadBrokerUrl as err:
            raise BadAnnouncement(str(err)) from None
        if url.username is not None:
            raise BadAnnouncement("a broker URL in an announcement carries a login")


def _json_object(data: bytes) -> dict[str, Any]:
    if len(data) > MAX_ANNOUNCEMENT_BYTES:
        raise BadAnnouncement(f"announcement of {len(data)} bytes is too long")
    try:
        body = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise BadAnnouncement(f"announcement is not JSON: {err}") from None
    if not isinstance(body, dict):
        raise BadAnnouncement("announcement is not a JSON object")
    return body


def _hex(body: dict[str, Any], name: str, size: int) -> bytes:
    text = _typed(body, name, str)
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raw = b""
    if len(raw) != size:
        raise BadAnnouncement(f"announcement field {name!r} is not {size} bytes of hex")
    return raw


def _typed(body: dict[str, Any], key: str, kind: type[Any]) -> Any:
    value = body.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BadAnnouncement(f"announcement field {key!r} missing or not {kind.__name__}")
    return value


def _str_list(body: dict[str, Any], key: str) -> list[str]:
    value: list[Any] = _typed(body, key, list)
    if not all(isinstance(item, str) for item in value):
        raise BadAnnouncement(f"announcement field {key!r} is not a list of strings")
    return [str(item) for item in value]


def _str_map(body: dict[str, Any], key: str) -> dict[str, str]:
    value: dict[str, Any] = _typed(body, key, dict)
    if not all(isinstance(v, str) for v in value.values()):
        raise BadAnnouncement(f"announcement field {key!r} is not a string map")
    return {str(k): str(v) for k, v in value.items()}


async def read_lobby(transport: Transport, limit: float) -> list[TableAnnouncement]:
    """The tables announced on ``transport``'s broker, by name; the announcers of one
    name (each its own table, told apart by :attr:`TableAnnouncement.label`) in the
    order they were received.

    Subscribes to the lobby and to every presence, then publishes a *probe*: a
    non-retained message on a topic of its own (:data:`PROBE_ROOT`, a fresh nonce). A
    broker sends the retained messages of a subscription before it handles the
    subscriber's next publication, so once the probe comes back every announcement and
    presence it holds has been received: the read ends there, however slow the broker.
    ``limit`` seconds bound the whole read (a broker that never echoes the probe, a
    lossy link); what came in by then is the answer. Malformed announcements, and those
    whose signature does not check, are logged and skipped. A table whose host's
    presence says it is gone (its Last Will: the host died before it could withdraw the
    announcement) is left out. ``transport`` must be connected and not yet subscribed
    to the lobby (a renewed subscription sends no retained messages again).
    """
    found: dict[tuple[str, str], TableAnnouncement] = {}
    gone: set[tuple[str, str]] = set()
    probe = f"{PROBE_ROOT}/{new_nonce()}"
    try:
        async with asyncio.timeout(limit):
            await transport.subscribe(probe)
            await transport.subscribe(LOBBY_PATTERN)
            await transport.subscribe(PRESENCE_PATTERN)
            await transport.publish(probe, PROBE_PAYLOAD)
            async for message in transport.messages():
                if message.topic == probe:
                    break
                _take(found, gone, message.topic, message.payload)
    except TimeoutError:
        log.info("lobby read stopped after %g s without the probe's echo", limit)
    listed = [a for a in found.values() if (a.table, a.host) not in gone]
    return sorted(listed, key=lambda a: a.table)


def _take(found: dict[tuple[str, str], TableAnnouncement], gone: set[tuple[str, str]],
          topic: str, payload: bytes) -> None:
    """File one lobby message under its table and announcer (an empty payload withdraws
    it), or note a peer's presence."""
    try:
        parsed = parse_topic(topic)
        if parsed.kind is TopicKind.PRESENCE:
            _presence(gone, parsed.table, parsed.peer, payload)
            return
        where = (parsed.table, parsed.peer or "")
        if not payload:
            found.pop(where, None)
            return
        found[where] = TableAnnouncement.decode(payload, topic_table=parsed.table,
                                                topic_print=parsed.peer)
    except ValueError as err:  # BadName, BadAnnouncement
        log.info("ignoring lobby message on %r: %s", topic, err)


def _presence(gone: set[tuple[str, str]], table: str, peer: str | None, payload: bytes) -> None:
    try:
        presence = Presence.decode(payload)
    except BadPresence:
        return
    if peer is None or presence.peer != peer:
        return
    if presence.online:
        gone.discard((table, peer))
    else:
        gone.add((table, peer))
