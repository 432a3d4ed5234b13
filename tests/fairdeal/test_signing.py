"""The Ed25519 check every frame, envelope and presence goes through."""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from hypothesis import given, settings
from hypothesis import strategies as st

from lodam_p2p.fairdeal.signing import verifies
from lodam_p2p.session.wire import raw_public

_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
_PUB = raw_public(_KEY)


def _openssl_verifies(public: bytes, signature: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def test_a_signature_verifies_under_its_key_only() -> None:
    message = b"lodam/session/v1\x00table\x00frame"
    signature = _KEY.sign(message)
    other = raw_public(Ed25519PrivateKey.from_private_bytes(bytes(32)))
    assert verifies(_PUB, signature, message)
    assert not verifies(other, signature, message)
    assert not verifies(_PUB, signature, message + b"\x00")
    assert not verifies(_PUB, signature[:32] + bytes(32), message)


def test_wrong_sizes_and_degenerate_keys_are_refused_without_raising() -> None:
    message = b"m"
    signature = _KEY.sign(message)
    assert not verifies(_PUB[:31], signature, message)
    assert not verifies(_PUB + b"\x00", signature, message)
    assert not verifies(_PUB, signature[:63], message)
    assert not verifies(_PUB, b"", message)
    assert not verifies(bytes(32), signature, message)  # a point of small order
    assert not verifies(b"\xff" * 32, signature, message)  # no point at all


@settings(max_examples=60, deadline=None)
@given(message=st.binary(max_size=300), flip=st.integers(0, 96 * 8 - 1), seed=st.binary(
    min_size=32, max_size=32))
def test_it_judges_honest_and_altered_signatures_as_openssl_does(message: bytes, flip: int,
                                                                 seed: bytes) -> None:
    key = Ed25519PrivateKey.from_private_bytes(seed)
    public, signature = raw_public(key), key.sign(message)
    assert verifies(public, signature, message)
    both = bytearray(public + signature)
    both[flip // 8] ^= 1 << (flip % 8)
    altered_key, altered_sig = bytes(both[:32]), bytes(both[32:])
    assert not verifies(altered_key, altered_sig, message)
    assert verifies(altered_key, altered_sig, message) == _openssl_verifies(
        altered_key, altered_sig, message)
