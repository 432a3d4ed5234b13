"""A table's DNS-SD advert as a record: its TXT keys, and the host's signature of them.

:class:`TableAdvert` is what a host advertises of a table and a finder reads back: the
table's name, its brokers and protocol version, signed by the host's identity key. It
encodes itself as the TXT record's keys (:meth:`TableAdvert.txt`) and decodes one,
checking the signature (:meth:`TableAdvert.from_txt`, else :class:`BadAdvert`). The
record's keys and what the signature covers are set out in the docstring of
:mod:`lodam_p2p.transport.discovery`, which advertises and browses these records over
zeroconf; nothing here touches the network.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from lodam_p2p.transport.lobby import SHORT_PRINT
from lodam_p2p.transport.topics import PROTOCOL_VERSION, check_name, is_valid_name
from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl

__all__ = ["ADVERT_DOMAIN", "MAX_NODES", "SHORT_PRINT", "BadAdvert", "TableAdvert"]

#: What an advert's signature covers first (then the signed JSON).
ADVERT_DOMAIN = b"lodam/v3/advert\x00"
#: The most brokers one advert carries besides its first (a cluster is a handful of nodes).
MAX_NODES = 15


class BadAdvert(ValueError):
    """A DNS-SD record that does not describe a table."""


@dataclass(frozen=True, slots=True)
class TableAdvert:
    """A table as advertised on the LAN: its name, broker, and protocol version."""

    table: str
    broker: str
    version: int = PROTOCOL_VERSION
    #: the same broker at the host's other addresses (from the A and AAAA records)
    also: tuple[str, ...] = ()
    #: the host's other brokers, signed (a cluster's other nodes, the host's other
    #: LAN addresses): the TXT record's ``broker2``, ``broker3``, …
    nodes: tuple[str, ...] = ()
    #: the host's raw Ed25519 public key (empty: not signed)
    key: bytes = b""
    #: the host's signature of :meth:`signed_bytes` (empty: not signed)
    signature: bytes = b""

    def __post_init__(self) -> None:
        check_name(self.table, "table")
        for url in (self.broker, *self.nodes, *self.also):
            BrokerUrl.parse(url)
        if len(self.nodes) > MAX_NODES:
            raise BadBrokerUrl(f"more than {MAX_NODES} brokers in one advert")

    @property
    def fingerprint(self) -> str:
        """SHA-256 of the host's key, hex (empty for an unsigned advert)."""
        return hashlib.sha256(self.key).hexdigest() if self.key else ""

    @property
    def label(self) -> str:
        """The table as shown and joined: ``oak#7f3a``."""
        return f"{self.table}#{self.fingerprint[:SHORT_PRINT]}" if self.key else self.table

    def signed_bytes(self) -> bytes:
        """What the signature covers (see :mod:`lodam_p2p.transport.discovery`)."""
        broker = str(BrokerUrl.parse(self.broker).without_login())
        body: dict[str, object] = {"v": self.version, "table": self.table,
                                   "broker": broker, "key": self.key.hex()}
        if self.nodes:
            body["nodes"] = [_public(url) for url in self.nodes]
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return ADVERT_DOMAIN + text.encode()

    def signed(self, identity: Ed25519PrivateKey) -> TableAdvert:
        """This advert signed by ``identity``, the host's key."""
        unsigned = replace(self, key=identity.public_key().public_bytes_raw(), signature=b"")
        return replace(unsigned, signature=identity.sign(unsigned.signed_bytes()))

    @property
    def brokers(self) -> tuple[str, ...]:
        """Every URL the table's brokers may answer at: the TXT record's ``broker``,
        its other brokers in order, then the first one's other addresses; each once."""
        return tuple(dict.fromkeys((self.broker, *self.nodes, *self.also)))

    def txt(self) -> dict[str, str]:
        """The TXT record's keys and values."""
        keys = {"v": str(self.version), "table": self.table, "broker": _public(self.broker),
                "key": self.key.hex(), "sig": self.signature.hex()}
        keys.update((f"broker{place}", _public(url))
                    for place, url in enumerate(self.nodes, start=2))
        return keys

    @classmethod
    def from_txt(cls, txt: dict[bytes, bytes | None], fallback_broker: str | None = None
                 ) -> TableAdvert:
        """Decode a TXT record; ``fallback_broker`` (from SRV) serves if ``broker`` is absent."""
        try:
            fields = {k.decode(): (v or b"").decode() for k, v in txt.items()}
        except UnicodeDecodeError:
            raise BadAdvert("advert TXT record is not UTF-8") from None
        table, broker = fields.get("table", ""), fields.get("broker") or fallback_broker
        if not is_valid_name(table):
            raise BadAdvert(f"advert names no valid table: {table!r}")
        if not fields.get("v", "").isdigit():
            raise BadAdvert(f"advert of {table!r} has no protocol version")
        if broker is None:
            raise BadAdvert(f"advert of {table!r} names no broker")
        try:
            url = BrokerUrl.parse(broker)
        except BadBrokerUrl as err:
            raise BadAdvert(f"advert of {table!r}: {err}") from None
        try:
            nodes = _nodes(fields)
        except BadBrokerUrl as err:
            raise BadAdvert(f"advert of {table!r}: {err}") from None
        advert = cls(table, str(url.without_login()), int(fields["v"]), nodes=nodes,
                     key=_hex(fields.get("key", ""), 32), signature=_hex(fields.get("sig", ""), 64))
        try:
            Ed25519PublicKey.from_public_bytes(advert.key).verify(advert.signature,
                                                                  advert.signed_bytes())
        except (InvalidSignature, ValueError):
            raise BadAdvert(f"advert of {table!r} is not signed by its key") from None
        return advert


def _public(url: str) -> str:
    """``url`` without its login: what an advert may show."""
    return str(BrokerUrl.parse(url).without_login())


def _nodes(fields: dict[str, str]) -> tuple[str, ...]:
    """The TXT record's ``broker2``, ``broker3``, … in order (up to the first missing)."""
    nodes: list[str] = []
    for place in range(2, MAX_NODES + 2):
        url = fields.get(f"broker{place}")
        if not url:
            break
        nodes.append(_public(url))
    return tuple(nodes)


def _hex(text: str, size: int) -> bytes:
    """``size`` bytes from hex ``text`` (b"" when it is not that)."""
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        return b""
    return raw if len(raw) == size else b""
