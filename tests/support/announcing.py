"""Signed table announcements for tests: hosts with fixed keys, the way a host signs."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.session.wire import peer_name
from lodam_p2p.transport.lobby import TableAnnouncement


def host_key(n: int) -> Ed25519PrivateKey:
    """The ``n``-th test host's identity key (fixed, so prints are stable)."""
    return Ed25519PrivateKey.from_private_bytes(bytes([n % 256]) * 32)


def host_peer(n: int) -> str:
    """The peer name of the ``n``-th test host."""
    return peer_name(host_key(n).public_key().public_bytes_raw())


def announced(table: str, n: int, seats: int, **fields: Any) -> TableAnnouncement:
    """``table`` announced by the ``n``-th test host, signed by its key."""
    return TableAnnouncement(table, host_peer(n), seats, **fields).signed(host_key(n))
