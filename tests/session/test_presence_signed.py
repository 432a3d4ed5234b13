"""Presence is signed with the peer's identity key: nobody can fake a peer's going."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.session.keys import seeded
from lodam_p2p.session.wire import peer_name, raw_public
from lodam_p2p.transport import PresenceSpec
from lodam_p2p.transport.presence import BadPresence, Presence, check_signed


def _spec(seed: int, table: str = "oak") -> tuple[PresenceSpec, str]:
    key = Ed25519PrivateKey.from_private_bytes(seeded(seed, 0)(32))
    pub = raw_public(key)
    return PresenceSpec(table, peer_name(pub), signer=key.sign, pubkey=pub), peer_name(pub)


def test_a_signed_will_checks_and_round_trips() -> None:
    spec, peer = _spec(1)
    presence = Presence.decode(spec.payload("n1", online=False))
    check_signed(presence, "oak", peer, peer_name)
    assert not presence.online and presence.nonce == "n1"


@pytest.mark.parametrize("forge", ["unsigned", "other key", "other table", "flipped",
                                   "other topic"])
def test_forged_presence_is_refused(forge: str) -> None:
    spec, peer = _spec(1)
    mallory, mallory_peer = _spec(2)
    genuine = Presence.decode(spec.payload("n1", online=True))
    table, topic_peer = "oak", peer
    if forge == "unsigned":
        forged = Presence(peer, "n1", False)
    elif forge == "other key":  # Mallory signs a "gone" naming the peer
        signed = Presence.decode(mallory.payload("n1", online=False))
        forged = Presence(peer, "n1", False, signed.key, signed.sig)
    elif forge == "other table":
        forged, table = genuine, "elm"
    elif forge == "flipped":
        forged = Presence(peer, "n1", False, genuine.key, genuine.sig)
    else:
        forged, topic_peer = genuine, mallory_peer
    with pytest.raises(BadPresence):
        check_signed(Presence.decode(forged.encode()), table, topic_peer, peer_name)


def test_malformed_signature_fields_are_bad_presence() -> None:
    with pytest.raises(BadPresence):
        Presence.decode(b'{"peer":"ann","nonce":"n","online":true,"key":"zz","sig":"00"}')
