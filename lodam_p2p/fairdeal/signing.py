"""Checking Ed25519 signatures: libsodium's verifier, twice as fast here as OpenSSL's.

Every frame, envelope and presence message a peer receives carries one signature, and
a match checks some tens of thousands of them, so the verifier's speed is a visible
part of a table's CPU (``lodam bench net``; 51 against 102 µs per check on the machine
of SPEC.md section 11). Keys are still made and used for signing through
``cryptography``; only the check goes through libsodium (PyNaCl).

libsodium refuses some signatures that other verifiers accept: a non-canonical S, a
public key or R of small order. An honest signer never makes one, and every peer runs
this same check, so every honest seat judges a signed message alike, which is what
evidence needs.
"""

from __future__ import annotations

from nacl.bindings import crypto_sign_open
from nacl.exceptions import BadSignatureError

#: Bytes of a raw Ed25519 public key and of a signature.
KEY_LEN, SIG_LEN = 32, 64


def verifies(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s Ed25519 signature of ``message``."""
    if len(public_key) != KEY_LEN or len(signature) != SIG_LEN:
        return False
    try:
        crypto_sign_open(signature + message, public_key)  # the combined form it binds
    except (BadSignatureError, ValueError):
        return False
    return True
